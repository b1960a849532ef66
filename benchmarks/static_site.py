"""Speed of the static site (Voici, Python in the browser) next to the Voilà server.

    python benchmarks/static_site.py [--build DIR] [--pages 02_Phase_1 "app?kapitel=12_Bohnometer"]
                                     [--clicks 10] [--no-voila] [--snapshot both|on|off]
                                     [--compare OLD_DIR] [--warm 3] [--rounds 2] [--network 50]
                                     [--lang de|en|both]

Prints figures (not a test).  Uses the build in ``--build`` if it holds one, else builds
into a temporary folder (``bohnteach build-static``) and prints the build's time and size.
Serves it with ``bohnteach serve-static``'s server on 127.0.0.1 and measures, in Debian's
chromium, for every page:

* **cold**: a fresh browser profile (empty caches), two times: until the page **shows** its
  content (the build's preview of every output, ``bohnteach.site.preview``; the first
  render, target ≤ 8 s) and until it is **interactive** — Python has run, every output
  rendered, every widget drawn (``READY_JS`` of ``benchmarks/site.py``). Beside them the
  CPU seconds of the whole visit (:func:`cpu_open`), the figure to trust on a busy machine.
* **warm**: the same page again with the same profile, as a visitor's browser keeps it: its
  HTTP cache and compiled code (Pyodide's WebAssembly, the site's scripts), its Cache
  Storage (the snapshot); Python still starts anew, as on every visit. Each visitor is a
  browser with a profile of its own on disk, not a Playwright context: a context keeps its
  HTTP cache in memory (no file over 6 MB) and routing requests turns it off, so a "warm"
  visit downloaded everything again and compiled Pyodide anew (before 3 Dec 2026).
  Other hosts are unreachable (``--host-resolver-rules``); requests to them are counted.
  Each visit starts once the browsers and the server are idle (``procs.wait_idle``): a cold
  visit's browser goes on writing its caches and compiling Pyodide's WebAssembly for seconds
  after the page is interactive, and a visit opened at once after it (or after the previous
  visitor's browser) met that load (before 3 Dec 2026 the warm visit followed at once).
* **step**: on every page with a scene player, click ▶ until its table changed (in the
  page, ``STEP_JS`` of ``benchmarks/site.py``), median over ``--clicks``.  Target ≤ 100 ms.
* **snapshot / normal**: each page is measured both ways, alternating in one run (issue 30):
  the kernel starting from the build's memory snapshot (:mod:`bohnteach.site.snapshot`), and
  the normal start (a second server answers the snapshot's manifest with 404, so the start
  script falls back at once).  Targets with the snapshot: interactive cold ≤ 4 s, warm ≤ 3 s.
  An app address (``app?kapitel=12_Bohnometer``) is interactive once the app shows it.
* **before / after** (``--compare OLD_DIR``): a change measured against the build before it —
  both builds from their snapshots, alternating as above; with ``--warm 3 --rounds 2`` each
  figure is a median (a visitor's three warm visits; cold and warm over two rounds). On two
  cores a single visit varies by ±15 %; a change smaller than that needs the rounds.
* **network** (``--network 50``): each visitor's line throttled to that many Mbit/s by the
  server (:class:`Line`; Chromium's network emulation does not reach the snapshot's reader, a
  worker's worker): a first visit as a school's line gives it, not at the local server's speed.

* **languages** (``--lang``): the English pages are shown by the app, so ``--lang en`` measures
  every page at its English address in the app (``app?kapitel=02_Phase_1&lang=en``;
  ``benchmarks/site.py``'s ``in_language``), ``--lang both`` each page and then its English
  address, with the same targets. An English address shows no build preview (the previews are
  German), so its "shown" waits for the live page.

Then the same pages cold on the Voilà server (``bohnteach serve``'s command, preheated
kernels) and their step times, in the same run, so both meet the same machine load.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout

from bohnteach.site import snapshot, static  # noqa: E402
from bohnteach.site.serve import site_dir  # noqa: E402
from procs import core_speed, cpu_ticks, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path as a script

_spec = importlib.util.spec_from_file_location("bench_site", HERE / "site.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # type: ignore[union-attr]

SHOWN_TARGET, COLD_TARGET, WARM_TARGET, STEP_TARGET_MS = 1.0, 4.0, 3.0, 100.0
VARIANTS = {"both": ("snapshot", "normal"), "on": ("snapshot",), "off": ("normal",)}
COMPARED = ("before", "after")  # --compare: two builds, both from their snapshots
TARGETED = ("snapshot", "after")  # the variants the targets are for


def fmt(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


#: The page shows its content: the cells are displayed (with the build's previews, or
#: already live) and laid out, the page's heading among them.
SHOWN_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  return !!cells && getComputedStyle(cells).display !== 'none' && !!cells.querySelector('h1')
    && cells.getBoundingClientRect().height > 0;
}"""


def page_url(base: str, name: str) -> str:
    """``02_Phase_1`` → its page; ``app?kapitel=12_Bohnometer`` → the app at that address."""
    name, _, query = name.partition("?")
    return base + static.static_page_path(name) + (f"?{query}" if query else "")


def median_visit(visits: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """The median (shown, interactive, CPU) of several visits, each figure on its own."""
    return tuple(statistics.median(v[k] for v in visits) for k in range(3))  # type: ignore[return-value]


def timed_open(page, url: str, timeout_ms: float = 900_000) -> tuple[float, float]:
    """(s until the page shows its content, s until it is interactive)."""
    query = url.partition("?")[2]
    t0 = time.perf_counter()
    response = page.goto(url, timeout=timeout_ms, wait_until="commit")
    if response is not None and response.status >= 400:  # a wrong name: say so, do not wait
        raise ValueError(f"{url}: HTTP {response.status}")
    page.wait_for_function(SHOWN_JS, timeout=timeout_ms, polling=20)
    shown = time.perf_counter() - t0
    if query:
        page.wait_for_function(bench.APP_READY_JS, arg=query, timeout=timeout_ms, polling=20)
    else:
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
    """Median ms of a ▶ step in the scene of the page ``name`` (a page or an app address;
    the scene ``bench.step_scene`` scores best, else the first shown); None if the page
    has no scene player or no step changed the table."""
    if page.locator(".bt-scene-player").count() == 0:
        return None
    shown, lang = bench.app_page(name), bench.language_of(name)
    arg = bench.step_args(shown, lang)
    if "/" in shown:
        arg[0] = []
    steps = [page.evaluate(bench.STEP_JS, arg) for _ in range(clicks + 1)][1:]
    good = [s for s in steps if s >= 0]  # -1: the table did not change within 15 s
    return statistics.median(good) if good else None


#: Chromium resolves no host but this machine: the site must not need another one.
LOCAL_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def new_visitor(pw, external: list[str], profile: Path):
    """A browser of its own with an empty profile in ``profile`` (closed with ``.close()``),
    and the list its ``bohnteach:`` console lines go to; requests to other hosts are noted
    in ``external``."""
    ctx = pw.chromium.launch_persistent_context(
        str(profile), executable_path=str(bench.CHROMIUM), args=[*bench.CHROMIUM_ARGS, LOCAL_ONLY],
        viewport={"width": 1280, "height": 900})
    ctx.on("request", lambda r: external.append(r.url) if not r.url.startswith(
        ("http://127.0.0.1", "data:", "blob:", "about:")) else None)
    starts: list[str] = []
    ctx.on("console", lambda msg: starts.append(msg.text) if msg.text.startswith("bohnteach: ") else None)
    return ctx, starts


class Line:
    """A visitor's line of ``mbit`` Mbit/s down, shared by all its requests (a server serves
    one visitor at a time), 20 ms latency per request."""

    LATENCY = 0.02

    def __init__(self, mbit: float) -> None:
        self.rate = mbit * 1e6 / 8  # bytes per second
        self.lock = threading.Lock()
        self.free = time.monotonic()  # when the line has sent what it was given

    def take(self, size: int) -> None:
        """Wait until ``size`` more bytes have gone down the line."""
        with self.lock:
            now = time.monotonic()
            self.free = max(now, self.free) + size / self.rate
            wait = self.free - now
        time.sleep(wait)


@contextmanager
def serving(folder: Path, without_snapshot: bool = False, mbit: float | None = None) -> Iterator[str]:
    """The build as :func:`static.serving` serves it; ``without_snapshot``: the snapshot's
    manifest answered with 404, so that the start script falls back to the normal start at
    once; ``mbit``: every response sent down a :class:`Line` of that speed. The line is the
    server's, not Chromium's network emulation: that one does not reach a worker's worker
    (the snapshot's reader downloaded at full speed)."""
    server = static.make_server(folder, port=0)
    blocked = f"/static/pyodide/{snapshot.NAME}.json"
    line = Line(mbit) if mbit else None

    class Handler(server.RequestHandlerClass):  # type: ignore[name-defined,misc]
        def send_head(self):
            if without_snapshot and self.path.split("?")[0].endswith(blocked):
                self.send_error(404)
                return None
            if line:
                time.sleep(line.LATENCY)
            return super().send_head()

        def copyfile(self, source, outputfile) -> None:
            if not line:
                return super().copyfile(source, outputfile)
            while chunk := source.read(64 * 1024):
                line.take(len(chunk))
                outputfile.write(chunk)

    server.RequestHandlerClass = Handler
    with static.running(server) as base:
        yield base


def static_figures(pw, bases: dict[str, str], names: list[str], clicks: int, variants: tuple[str, ...],
                   warm_visits: int = 1, rounds: int = 1):
    """{(page, variant): (cold, warm)}, {(page, variant): step ms}, requests elsewhere; the
    variants alternate page by page, the first one first on even pages. ``bases``: the
    server of each variant. Each visitor comes back ``warm_visits`` times (warm: the median
    of its visits); with ``rounds`` > 1 every page is measured that often (cold and warm:
    the medians over the rounds)."""
    runs: dict[tuple[str, str], list] = {}
    rows, steps, external = {}, {}, []
    for i, name in enumerate(names * rounds):
        for variant in (variants if i % 2 == 0 else variants[::-1]):
            profile = Path(tempfile.mkdtemp(prefix="bohnteach-bench-profile-"))
            ctx, starts = new_visitor(pw, external, profile)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            url = page_url(bases[variant], name)
            try:
                wait_idle(os.getpid())
                cold = cpu_open(page, url)
                visits = []
                for _ in range(warm_visits):
                    page.goto("about:blank")  # the visitor leaves, and comes back once the browser is idle
                    wait_idle(os.getpid())
                    visits.append(cpu_open(page, url))
                warm = median_visit(visits)
                steps[name, variant] = median_step(page, name, clicks)
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"!! {name} ({variant}): {type(exc).__name__}: {str(exc)[:200]}")
                ctx.close()
                shutil.rmtree(profile, ignore_errors=True)
                continue
            runs.setdefault((name, variant), []).append((cold, warm))
            rows[name, variant] = tuple(median_visit([r[k] for r in runs[name, variant]]) for k in (0, 1))
            print(f"  {name} ({variant}): cold shown {cold[0]:.1f} s, interactive {cold[1]:.1f} s "
                  f"(CPU {cold[2]:.1f} s); warm {warm[0]:.1f} / {warm[1]:.1f} s (CPU {warm[2]:.1f} s); "
                  f"step {fmt(steps[name, variant], 0)} ms, load {os.getloadavg()[0]:.1f}"
                  f" [{'; '.join(starts)}]", flush=True)
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)
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
                rows[name] = timed_open(page, bench.page_address(base, name))[1]
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
    ap.add_argument("--snapshot", choices=sorted(VARIANTS), default="both",
                    help="start from the build's snapshot, normally, or both alternating")
    ap.add_argument("--compare", type=Path, metavar="OLD",
                    help="instead: the build in OLD ('before') against --build ('after'), both "
                         "from their snapshots, alternating")
    ap.add_argument("--warm", type=int, default=1, help="warm visits per visitor (median)")
    ap.add_argument("--rounds", type=int, default=1, help="measure every page this often (medians)")
    ap.add_argument("--network", type=float, metavar="MBIT",
                    help="each visitor's connection in Mbit/s (a school's line shared by a class)")
    ap.add_argument("--lang", choices=("de", "en", "both"), default="de",
                    help="German pages, each at its English address in the app, or both in turn")
    args = ap.parse_args(argv)
    variants = COMPARED if args.compare else VARIANTS[args.snapshot]
    if args.compare and not (args.compare / static.MANIFEST).is_file():
        ap.error(f"{args.compare} holds no build")

    from playwright.sync_api import sync_playwright

    print(f"# static site benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}, "
          f"one core's speed {core_speed():.2f} s (benchmarks/procs.py: core_speed)"
          + (f", network {args.network:g} Mbit/s per visitor" if args.network else ""))
    out = args.build or Path(tempfile.mkdtemp(prefix="bohnteach-static-bench-")) / "site"
    if not (out / static.MANIFEST).is_file():
        report = static.build_static(out, log=lambda m: None)
        print(f"# build: {report.seconds:.0f} s, {report.size_bytes / 1e6:.0f} MB in {out}")
    manifest = static.json.loads((out / static.MANIFEST).read_text())
    print("# versions:", ", ".join(f"{k} {v}" for k, v in manifest["versions"].items()))
    snap = manifest["snapshot"]
    print(f"# snapshot: {snap['bytes'] / 1e6:.0f} MB ({snap['gzip_bytes'] / 1e6:.1f} MB gzip), made in "
          f"{snap['seconds']:.0f} s; first visit downloads {snap['download_before'] / 1e6:.1f} MB "
          f"without, {snap['download_after'] / 1e6:.1f} MB with it (gzip, Pyodide + wheels + snapshot)")
    # every page on its own, and the app (a notebook, but no page of its own) at three addresses
    names = args.pages or [*(n.removeprefix("notebooks/") for n in manifest["pages"] if n != "notebooks/app"),
                           "app?kapitel=00_Start", "app?kapitel=12_Bohnometer", "app?lektion=01_Bohnentreppe"]
    names = bench.with_languages(names, args.lang)

    other = serving(args.compare or out, without_snapshot=not args.compare, mbit=args.network)
    with serving(out, mbit=args.network) as base, other as second, sync_playwright() as pw:
        bases = {"after": base, "before": second} if args.compare else {"snapshot": base, "normal": second}
        rows, steps, external = static_figures(pw, bases, names, args.clicks, variants,
                                               args.warm, args.rounds)
        if not args.no_voila:
            browser = pw.chromium.launch(executable_path=str(bench.CHROMIUM), args=bench.CHROMIUM_ARGS)
            voila, vsteps = voila_figures(browser, names, args.clicks)
            browser.close()
        else:
            voila, vsteps = {}, {}

    print()
    print(f"{'page':44s} {'start':>8s} {'cold: shown':>11s} {'interactive':>11s} {'(CPU s)':>8s} "
          f"{'warm: shown':>11s} {'interactive':>11s} {'step ms':>8s} {'Voilà s':>8s} {'step ms':>8s}")
    empty = (None, None, None)
    for name in names:
        for variant in variants:
            cold, warm = rows.get((name, variant), (empty, empty))
            step = steps.get((name, variant))
            ok = (cold[0] is not None and cold[0] <= SHOWN_TARGET and cold[1] <= COLD_TARGET
                  and warm[1] <= WARM_TARGET and (step is None or step <= STEP_TARGET_MS))
            verdict = ("  ok" if ok else "  ZU LANGSAM") if variant in TARGETED else ""
            print(f"{name:44s} {variant:>8s} {fmt(cold[0]):>11s} {fmt(cold[1]):>11s} {fmt(cold[2]):>8s} "
                  f"{fmt(warm[0]):>11s} {fmt(warm[1]):>11s} {fmt(step, 0):>8s} "
                  f"{fmt(voila.get(name)):>8s} {fmt(vsteps.get(name), 0):>8s}{verdict}")
    for variant in variants:
        mine = [r for (_n, v), r in rows.items() if v == variant]
        if mine:
            worst = [max(r[i][j] for r in mine) for i in (0, 1) for j in (0, 1)]
            timed = [s for (_n, v), s in steps.items() if v == variant and s is not None]
            print(f"{'max':44s} {variant:>8s} {worst[0]:11.1f} {worst[1]:11.1f} {'':>8s} {worst[2]:11.1f} "
                  f"{worst[3]:11.1f} {fmt(max(timed) if timed else None, 0):>8s}")
    vtimed = [s for s in vsteps.values() if s is not None]
    if voila:
        print(f"{'max Voilà':53s} {max(voila.values()):>50.1f} {fmt(max(vtimed) if vtimed else None, 0):>8s}")
    print(f"targets (with the snapshot): shown ≤ {SHOWN_TARGET:.0f} s, interactive cold ≤ "
          f"{COLD_TARGET:.0f} s, warm ≤ {WARM_TARGET:.0f} s per page, step ≤ {STEP_TARGET_MS:.0f} ms "
          "median (pages with a scene player)")
    print(f"requests to other hosts: {len(external)}", *external[:5])
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
