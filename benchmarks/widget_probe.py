"""Widget probe: how many fresh visits end with "Error displaying widget: model not found";
prints counts (not a test).

    python benchmarks/widget_probe.py [--visits 200] [--throttle 3] [--parallel 3] [--grace 180]
                                      [--pages probe 14_Ladybohn tutorials/01_Bohnentreppe]

Background: ipywidgets 8.1.9 / jupyterlab_widgets 3.0.17 (upstream PR #4033) look a model
up by polling every 100 ms for at most 2 s and then throw without a last look. A long
plotly draw inside an ``Output`` starves that poll, and widgets shown after the chart say
"Error displaying widget: model not found". pyproject.toml pins the trio ipywidgets
8.1.8 / jupyterlab_widgets 3.0.16 / widgetsnbextension 4.0.15, which wait instead.

The site is served as ``bohnteach serve`` does (``build_voila_command``) over a folder of
symlinks to the probed pages plus ``probe/probe.ipynb``
(``benchmarks/data/widget_probe.ipynb``: an ``Output`` holding a plotly chart, then three
widgets). Every visit is a fresh browser context (so a fresh kernel) with Chromium's CPU
throttled (CDP ``Emulation.setCPUThrottlingRate``), and ends in one of:

* ``ok``      every output rendered, every widget drawn, no "Error displaying widget";
* ``broken``  some output says "Error displaying widget" / "Error creating widget";
* ``late``    ok or broken only after ``--timeout`` seconds, within ``--grace`` more (a slow
  visit on a busy machine, not a stuck one; a late broken visit counts as broken);
* ``timeout`` neither within ``--timeout`` + ``--grace`` seconds.

For every late or timed-out visit the page's state at the timeout is printed (spinner
text, outputs not yet rendered, widget outputs still empty), so a stuck page can be told
from a slow one; for these and for broken visits also the last errors in the browser's
console (a widget manager whose restore failed says why there). Target: 0 broken,
0 timeout. ``--parallel`` visits run at once (each in its own context).
The installed widget versions are printed first, so a run before and after a pin compare.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, VISIT_OUTCOME_JS, start_site  # noqa: E402

from bohnteach.site.addresses import page_path  # noqa: E402
from bohnteach.site.serve import site_dir  # noqa: E402

PROBE_NOTEBOOK = HERE / "data" / "widget_probe.ipynb"
PROBE_PAGE = "probe/probe"
DEFAULT_PAGES = ("probe", "14_Ladybohn", "tutorials/01_Bohnentreppe")

def probe_root(tmp: Path, pages: list[str]) -> Path:
    """A folder like :func:`site_dir` holding symlinks to just the probed pages, plus the
    probe (the server preheats every notebook it finds: fewer notebooks, less load)."""
    root = tmp / "site"
    for name in ("notebooks", "tutorials", "probe"):
        (root / name).mkdir(parents=True)
    for short in pages:
        if short == "probe":
            continue
        rel = short if "/" in short else f"notebooks/{short}"
        (root / f"{rel}.ipynb").symlink_to((site_dir() / f"{rel}.ipynb").resolve())
    (root / "probe" / "probe.ipynb").write_bytes(PROBE_NOTEBOOK.read_bytes())
    return root


def page_name(short: str) -> str:
    return PROBE_PAGE if short == "probe" else short


#: What a page shows when it has not settled (printed for late and timed-out visits).
PAGE_STATE_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  const outs = cells ? [...cells.querySelectorAll('.jp-OutputArea-output')] : [];
  return {
    spinner: (document.getElementById('loading_text') || {}).textContent || null,
    shown: !!cells && cells.style.display !== 'none',
    outputs: outs.length,
    unrendered: document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]').length,
    loading_widgets: outs.filter(el => el.textContent.trim() === 'Loading widget...').length,
    empty_widget_outputs: outs.filter(el => el.classList.contains('lm-Panel')
                                            && !el.querySelector('.jupyter-widgets')).length,
  };
}"""


async def _outcome(page, seconds: float) -> str | None:
    try:
        handle = await page.wait_for_function(VISIT_OUTCOME_JS, timeout=seconds * 1000, polling=100)
        return await handle.json_value()
    except Exception:  # noqa: BLE001 - not settled (or the page is gone): no outcome
        return None


async def visit(browser, url: str, throttle: float, timeout: float, grace: float
                ) -> tuple[str, float, dict | None]:
    """One fresh visit; returns (outcome, seconds until it settled, the page's state at the
    timeout if it had not settled by then, with the console's errors; for a broken visit
    the console's errors alone)."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        if throttle > 1:
            cdp = await context.new_cdp_session(page)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        t0 = time.monotonic()
        errors: list[str] = []  # the console's errors: the widget manager logs a failed restore

        def note(text: str) -> None:
            errors.append(f"{time.monotonic() - t0:.0f} s: {text[:300]}")

        page.on("console", lambda msg: msg.type == "error" and note(msg.text))
        page.on("pageerror", lambda exc: note(f"pageerror {exc}"))
        arrived = ""
        try:
            await page.goto(url, timeout=timeout * 1000)
            outcome = await _outcome(page, max(1.0, timeout - (time.monotonic() - t0)))
        except Exception as exc:  # noqa: BLE001 - the page is still loading (or failed)
            outcome, arrived = None, str(exc).splitlines()[0]
        if outcome == "ok":
            return outcome, time.monotonic() - t0, None
        if outcome == "broken":
            return outcome, time.monotonic() - t0, {"console": errors}
        try:
            state = await page.evaluate(PAGE_STATE_JS)
        except Exception as exc:  # noqa: BLE001
            state = {"evaluate": str(exc).splitlines()[0]}
        if arrived:
            state["goto"] = arrived
        outcome = await _outcome(page, grace)
        late = {"ok": "late", "broken": "broken"}.get(outcome or "", "timeout")
        state["console"] = errors
        return late, time.monotonic() - t0, state
    finally:
        await context.close()


OUTCOMES = ("ok", "broken", "late", "timeout")


async def run(base: str, pages: list[str], visits: int, throttle: float, parallel: int,
              timeout: float, grace: float) -> dict[str, list[tuple[str, float]]]:
    from playwright.async_api import async_playwright

    results: dict[str, list[tuple[str, float]]] = {p: [] for p in pages}
    jobs = [(p, i) for i in range(visits) for p in pages]  # pages interleaved
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    started = time.monotonic()

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)

        async def worker() -> None:
            while not queue.empty():
                short, _ = queue.get_nowait()
                url = base + page_path(page_name(short))
                outcome, seconds, state = await visit(browser, url, throttle, timeout, grace)
                results[short].append((outcome, seconds))
                if state is not None:
                    errors = state.pop("console", [])
                    print(f"  {outcome}: {page_name(short)} nach {seconds:.0f} s"
                          + (f", beim Timeout: {state}" if state else "")
                          + f"; load {os.getloadavg()[0]:.1f}", flush=True)
                    for line in errors[-10:]:
                        print(f"      Konsole {line}", flush=True)
                done = sum(len(v) for v in results.values())
                if done % 10 == 0:
                    per_page = "; ".join(
                        f"{page_name(k)}: " + "/".join(str(sum(o == w for o, _ in v)) for w in OUTCOMES)
                        for k, v in results.items())
                    print(f"  {done}/{len(jobs)} Besuche (ok/kaputt/spät/timeout) {per_page}; "
                          f"{time.monotonic() - started:.0f} s", flush=True)

        await asyncio.gather(*(worker() for _ in range(parallel)))
        await browser.close()
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--visits", type=int, default=200, help="fresh visits per page")
    ap.add_argument("--throttle", type=float, default=3.0, help="CPU slow-down factor (CDP)")
    ap.add_argument("--parallel", type=int, default=3, help="visits at the same time")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per visit")
    ap.add_argument("--grace", type=float, default=180.0,
                    help="seconds more to tell a late visit from a stuck one")
    ap.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES))
    args = ap.parse_args(argv)

    versions = {n: importlib.metadata.version(n) for n in
                ("ipywidgets", "jupyterlab_widgets", "widgetsnbextension", "voila", "plotly")}
    print("Widget-Probe:", ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}; "
          f"{args.visits} frische Besuche je Seite, CPU gedrosselt {args.throttle:g}x, "
          f"{args.parallel} gleichzeitig", flush=True)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="widget-probe-") as tmp:
        root = probe_root(Path(tmp), args.pages)
        with start_site(Path(tmp) / "voila.log", root=root, timeout=300) as base:
            results = asyncio.run(run(base, args.pages, args.visits, args.throttle,
                                      args.parallel, args.timeout, args.grace))
    print(f"\n{'Seite':32} {'Besuche':>7} {'ok':>5} {'kaputt':>6} {'spät':>5} {'timeout':>7} "
          f"{'Median s':>8}")
    bad_total = 0
    for short, rows in results.items():
        counts = {k: sum(o == k for o, _ in rows) for k in OUTCOMES}
        bad_total += counts["broken"] + counts["timeout"]
        median = statistics.median(s for _, s in rows) if rows else float("nan")
        print(f"{page_name(short):32} {len(rows):7} {counts['ok']:5} {counts['broken']:6} "
              f"{counts['late']:5} {counts['timeout']:7} {median:8.1f}")
    print(f"\n{'ok' if bad_total == 0 else 'FEHLER'}: {bad_total} von "
          f"{sum(len(r) for r in results.values())} Besuchen nicht ok "
          f"({time.monotonic() - t0:.0f} s, load {os.getloadavg()[0]:.1f})")
    return 0 if bad_total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
