"""Speed of the static site (Voici, Python in the browser) next to the Voilà server.

    python benchmarks/static_site.py [--build DIR] [--pages 02_Phase_1 tutorials/01_Bohnentreppe]
                                     [--clicks 10] [--no-voila]

Prints figures (not a test).  Uses the build in ``--build`` if it holds one, else builds
into a temporary folder (``bohnteach build-static``) and prints the build's time and size.
Serves it with ``bohnteach serve-static``'s server on 127.0.0.1 and measures, in Debian's
chromium, for every page:

* **cold**: a fresh browser context (empty cache), two times: until the page **shows** its
  content (the build's preview of every output, ``bohnteach.site.preview``; the first
  render, target ≤ 8 s) and until it is **interactive** — Python has run, every output
  rendered, every widget drawn (``READY_JS`` of ``benchmarks/site.py``). Beside them the
  CPU seconds of the whole visit (:func:`cpu_open`), the figure to trust on a busy machine.
* **warm**: the same page again in the same context (cache filled; Pyodide still starts
  anew, as on every visit); first render target ≤ 3 s.
* **step**: on every page with a scene player, click ▶ until its table changed (in the
  page, ``STEP_JS`` of ``benchmarks/site.py``), median over ``--clicks``.  Target ≤ 100 ms.

Then the same pages cold on the Voilà server (``bohnteach serve``'s command, preheated
kernels) and their step times, in the same run, so both meet the same machine load.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout

from bohnteach.site import static  # noqa: E402
from bohnteach.site.addresses import page_path  # noqa: E402
from bohnteach.site.serve import site_dir  # noqa: E402
from procs import cpu_ticks, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path as a script

_spec = importlib.util.spec_from_file_location("bench_site", HERE / "site.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # type: ignore[union-attr]

COLD_TARGET, WARM_TARGET, STEP_TARGET_MS = 8.0, 3.0, 100.0


def fmt(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


#: The page shows its content: the cells are displayed (with the build's previews, or
#: already live) and laid out, the page's heading among them.
SHOWN_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  return !!cells && getComputedStyle(cells).display !== 'none' && !!cells.querySelector('h1')
    && cells.getBoundingClientRect().height > 0;
}"""


def timed_open(page, url: str, timeout_ms: float = 900_000) -> tuple[float, float]:
    """(s until the page shows its content, s until it is interactive)."""
    t0 = time.perf_counter()
    page.goto(url, timeout=timeout_ms, wait_until="commit")
    page.wait_for_function(SHOWN_JS, timeout=timeout_ms, polling=20)
    shown = time.perf_counter() - t0
    page.wait_for_function(bench.READY_JS, timeout=timeout_ms, polling=20)
    return shown, time.perf_counter() - t0


def cpu_open(page, url: str) -> tuple[float, float, float]:
    """(shown s, interactive s, CPU s) of :func:`timed_open`. The CPU seconds are those of
    this process and its children (the browser, the file server): on a busy machine the
    wall time grows with the load, the CPU time much less — on a quiet 2-core machine the
    two are close, since a page's Python runs in one thread."""
    hz = os.sysconf("SC_CLK_TCK")
    before = cpu_ticks(tree_pids(os.getpid()))
    shown, ready = timed_open(page, url)
    return shown, ready, (cpu_ticks(tree_pids(os.getpid())) - before) / hz


def median_step(page, name: str, clicks: int) -> float | None:
    """Median ms of a ▶ step in the page's scene (the one ``bench.step_scene`` scores
    best, else the first shown); None if the page has no scene player or no step
    changed the table."""
    if page.locator(".bt-scene-player").count() == 0:
        return None
    titles = bench.step_scene(name)[0] if "/" not in name else []
    steps = [page.evaluate(bench.STEP_JS, titles) for _ in range(clicks + 1)][1:]
    good = [s for s in steps if s >= 0]  # -1: the table did not change within 15 s
    return statistics.median(good) if good else None


def new_context(browser, base: str, external: list[str]):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})

    def route(r):
        if r.request.url.startswith(base):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    return ctx


def static_figures(browser, base: str, names: list[str], clicks: int):
    rows, steps, external = {}, {}, []
    for name in names:
        ctx = new_context(browser, base, external)
        page = ctx.new_page()
        url = base + static.static_page_path(name)
        try:
            cold = cpu_open(page, url)
            warm = cpu_open(page, url)
            steps[name] = median_step(page, name, clicks)
        except Exception as exc:  # noqa: BLE001 - report and go on
            print(f"!! {name}: {type(exc).__name__}: {str(exc)[:200]}")
            ctx.close()
            continue
        rows[name] = (cold, warm)
        print(f"  {name}: cold shown {cold[0]:.1f} s, interactive {cold[1]:.1f} s (CPU {cold[2]:.1f} s); "
              f"warm {warm[0]:.1f} / {warm[1]:.1f} s (CPU {warm[2]:.1f} s); step {fmt(steps[name], 0)} ms, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        ctx.close()
    return rows, steps, external


def voila_figures(browser, names: list[str], clicks: int):
    """The same pages cold on the Voilà server, once its kernel pools are preheated."""
    rows, steps = {}, {}
    tmp = Path(tempfile.mkdtemp(prefix="bohnteach-bench-voila-"))
    with bench.serve_site(tmp / "voila.log", site_dir(), timeout=180) as served:
        proc, base = served.process, served.base
        wait_idle(proc.pid, limit=400)
        for name in names:
            wait_idle(proc.pid)
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            try:
                rows[name] = timed_open(page, base + page_path(name))[1]
                steps[name] = median_step(page, name, clicks)
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"!! Voilà {name}: {type(exc).__name__}: {str(exc)[:200]}")
            ctx.close()
    return rows, steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, help="folder of a static build (built if empty)")
    ap.add_argument("--pages", nargs="*", help="page names (default: every page and lesson)")
    ap.add_argument("--clicks", type=int, default=10)
    ap.add_argument("--no-voila", action="store_true", help="skip the Voilà comparison")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    print(f"# static site benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}")
    out = args.build or Path(tempfile.mkdtemp(prefix="bohnteach-static-bench-")) / "site"
    if not (out / static.MANIFEST).is_file():
        report = static.build_static(out, log=lambda m: None)
        print(f"# build: {report.seconds:.0f} s, {report.size_bytes / 1e6:.0f} MB in {out}")
    manifest = static.json.loads((out / static.MANIFEST).read_text())
    print("# versions:", ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()))
    names = args.pages or [n.removeprefix("notebooks/") for n in manifest["pages"]]

    server = static.make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(bench.CHROMIUM), args=bench.CHROMIUM_ARGS)
        rows, steps, external = static_figures(browser, base, names, args.clicks)
        voila, vsteps = ({}, {}) if args.no_voila else voila_figures(browser, names, args.clicks)
        browser.close()
    server.shutdown()

    print()
    print(f"{'page':36s} {'cold: shown':>11s} {'interactive':>11s} {'(CPU s)':>8s} "
          f"{'warm: shown':>11s} {'interactive':>11s} {'step ms':>8s} {'Voilà s':>8s} {'step ms':>8s}")
    empty = (None, None, None)
    for name in names:
        cold, warm = rows.get(name, (empty, empty))
        step = steps.get(name)
        ok = (cold[0] is not None and cold[0] <= COLD_TARGET and warm[0] <= WARM_TARGET
              and (step is None or step <= STEP_TARGET_MS))
        print(f"{name:36s} {fmt(cold[0]):>11s} {fmt(cold[1]):>11s} {fmt(cold[2]):>8s} "
              f"{fmt(warm[0]):>11s} {fmt(warm[1]):>11s} {fmt(step, 0):>8s} "
              f"{fmt(voila.get(name)):>8s} {fmt(vsteps.get(name), 0):>8s}"
              f"{'  ok' if ok else '  ZU LANGSAM'}")
    if rows:
        worst = [max(r[i][j] for r in rows.values()) for i in (0, 1) for j in (0, 1)]
        timed = [s for s in steps.values() if s is not None]
        vtimed = [s for s in vsteps.values() if s is not None]
        print(f"{'max':36s} {worst[0]:11.1f} {worst[1]:11.1f} {'':>8s} {worst[2]:11.1f} "
              f"{worst[3]:11.1f} {fmt(max(timed) if timed else None, 0):>8s} "
              f"{fmt(max(voila.values()) if voila else None):>8s} "
              f"{fmt(max(vtimed) if vtimed else None, 0):>8s}")
    print(f"targets: first render (shown) cold ≤ {COLD_TARGET:.0f} s, warm ≤ {WARM_TARGET:.0f} s per page, "
          f"step ≤ {STEP_TARGET_MS:.0f} ms median (pages with a scene player)")
    print(f"requests to other hosts: {len(external)}", *external[:5])
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
