"""Speed of the explainer site in a real browser; prints figures (not a test).

    python benchmarks/site.py [--rounds 3] [--clicks 10] [--pages 02_Phase_1 tutorials/01_Bohnentreppe ...]

Serves the site exactly as ``bohnteach serve`` does (``build_voila_command``; a copy of the
site folder made of symlinks, plus one extra page: a minimal notebook with one button)
and measures in Debian's chromium (headless, ``/usr/bin/chromium``):

1. **Page load**: time from navigation until the page is interactive — Voilà's spinner is
   gone, every output is rendered and every widget output shows its widget — for every
   page, every lesson (``tutorials/…``) and for the minimal notebook, in the same run. Each visit gets a fresh browser
   context; before each visit the server is left alone until its kernel pools have
   refilled (CPU of the server's process tree idle for longer than the server's own
   quiet wait before a refill, ``serve.REFILL_QUIET``), so every visit meets a preheated
   kernel like a visitor on a quiet server. Every page visit is paired with a visit of
   the minimal notebook right before or after it (alternating), so that both see the
   same machine load; the figure is the median over ``--rounds`` of page ÷ minimal.
   Target: every page and every lesson ≤ 1.5 × the minimal notebook.
2. **Step**: time from clicking ▶ in a scene until the table has changed (measured inside
   the page with ``performance.now()`` and a MutationObserver), median over ``--clicks``.
   Target: median ≤ 100 ms.
3. **Memory**: resident memory (RSS) of one visitor's kernel, per page kind.

The machine's load is printed too: on a busy machine every figure grows, the ratios less.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from procs import rss_mb, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path when run as a script

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, serve_site  # noqa: E402 - also stops on SIGTERM

from bohnteach.content.chapters import LESSONS
from bohnteach.site import pages as site_pages
from bohnteach.site.serve import REFILL_QUIET, site_dir

MINIMAL = "_bench_minimal"
PAGE_TARGET = 1.5
STEP_TARGET_MS = 100.0

# Ready: the page shown, every output filled, every widget and every chart drawn (a chart
# renderer holds its SVG only once plotly.js has drawn it).
READY_JS = """() => {
  if (document.getElementById('loading')) return false;
  const cells = document.getElementById('rendered_cells');
  if (!cells || cells.style.display === 'none') return false;
  if (document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return false;
  const outs = [...cells.querySelectorAll('.jp-OutputArea-output')];
  if (!outs.length) return false;
  if ([...cells.querySelectorAll('.jp-RenderedPlotly')].some(el => !el.querySelector('.main-svg'))) return false;
  return outs.every(el => el.classList.contains('lm-Panel')
      ? !!el.querySelector('.jupyter-widgets')
      : (el.childElementCount > 0 || el.textContent.trim() !== ''));
}"""

# Click ▶ of the first scene player and time until its table changes (in the page).
STEP_JS = """async (titles) => {
  const players = [...document.querySelectorAll('.bt-scene-player')];
  const title = p => (p.querySelector('h3') || {}).textContent;
  // the best-scored scene the page shows, else its first player; none: -2 (not timed)
  const player = titles.map(t => players.find(p => title(p) === t)).find(p => p) || players[0];
  if (!player) return -2;
  window.btStepTitle = title(player);
  const buttons = [...player.querySelectorAll('button')];
  const next = buttons.find(b => b.textContent.includes('weiter'));
  const first = buttons[0];
  if (next.disabled) {               // at the end: back to the start (not timed)
    const t = player.querySelector('.bt-table').innerHTML;
    first.click();
    const t0 = performance.now();
    while (player.querySelector('.bt-table').innerHTML === t && performance.now() - t0 < 10000)
      await new Promise(r => setTimeout(r, 10));
  }
  const table = () => player.querySelector('.bt-table');
  const before = table().innerHTML;
  return await new Promise(resolve => {
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      if (table() && table().innerHTML !== before) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(player, {subtree: true, childList: true, characterData: true, attributes: true});
    next.click();
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 15000);
  });
}"""


def step_scene(page_name: str) -> tuple[list[str], str]:
    """The scene titles to look for on the page, best first, and the best title: the
    chapter's scene with the most steps that all change the table (a refused or
    narration-only step leaves the table as it is, so it cannot be timed this way). The
    page clicks the first of them it shows (a chooser shows one scene of its group)."""
    from bohnteach.content.scenes import list_scenes

    chapter = site_pages.find_page(page_name).chapter
    scored = []
    for scene in list_scenes(chapter) if chapter else []:
        results = scene.results()
        changing = sum(
            1 for a, b in itertools.pairwise(results)
            if b.refusal is None and b.error is None and a.state != b.state
        )
        scored.append(((changing == len(scene.steps), changing), scene.title))
    titles = [t for _, t in sorted(scored, key=lambda x: x[0], reverse=True)]
    return titles, (titles[0] if titles else "?")


def minimal_notebook() -> dict:
    source = (
        "import ipywidgets as widgets\n"
        "knopf = widgets.Button(description='Los')\n"
        "knopf.on_click(lambda _b: setattr(knopf, 'description', 'Geklickt'))\n"
        "knopf"
    )
    return {
        "cells": [
            {"cell_type": "markdown", "id": "m0", "metadata": {}, "source": "# Minimal"},
            {"cell_type": "code", "id": "m1", "metadata": {}, "execution_count": None,
             "outputs": [], "source": source},
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}, "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def mirror_site(tmp: Path) -> tuple[Path, str]:
    """A copy of the served folder made of symlinks, with the minimal notebook next to
    the start page. Returns (root, URL prefix of the pages folder).

    Folders are real folders of symlinks (Voilà finds the notebooks to preheat with
    ``Path.rglob``, which does not descend into symlinked folders)."""
    src = site_dir()
    root = tmp / "site"
    root.mkdir()
    for entry in src.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            (root / entry.name).mkdir()
            for f in entry.iterdir():
                (root / entry.name / f.name).symlink_to(f.resolve())
        else:
            (root / entry.name).symlink_to(entry.resolve())
    (root / "notebooks" / f"{MINIMAL}.ipynb").write_text(json.dumps(minimal_notebook()), "utf-8")
    return root, "notebooks/"


def lesson_names() -> list[str]:
    return [f"tutorials/{name}" for name, _title in LESSONS]


def kernel_pid(server: int, kernel_id: str) -> int | None:
    for p in tree_pids(server):
        try:
            cmd = Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if kernel_id in cmd and "ipykernel" in cmd:
            return p
    return None


def visit(browser, url: str, timeout_ms: float = 180_000) -> tuple[float, str | None, object]:
    """Open ``url`` in a fresh context; seconds until interactive, the kernel id, the context."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    kernel: list[str] = []
    page.on("websocket", lambda ws: kernel.append(ws.url.split("/api/kernels/")[1].split("/")[0])
            if "/api/kernels/" in ws.url else None)
    t0 = time.perf_counter()
    page.goto(url, timeout=timeout_ms)
    page.wait_for_function(READY_JS, timeout=timeout_ms, polling=20)
    dt = time.perf_counter() - t0
    return dt, (kernel[0] if kernel else None), (ctx, page)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clicks", type=int, default=10)
    ap.add_argument("--pages", nargs="*", help="page names (default: every page)")
    ap.add_argument("--step-page", default="06_Ernte_und_Bohnometer")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    names = args.pages or [p.name for p in site_pages.PAGES if site_pages.page_exists(p)] + lesson_names()
    if args.step_page not in names:
        names.append(args.step_page)
    step_titles, step_title = step_scene(args.step_page)
    tmp = Path(tempfile.mkdtemp(prefix="bohnteach-bench-"))
    root, prefix = mirror_site(tmp)
    print(f"# site benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    t0 = time.monotonic()
    with serve_site(tmp / "voila.log", root, timeout=180) as served:
        proc, base, cmd = served.process, served.base, served.command
        print("# server:", " ".join(Path(c).name if i == 0 else c for i, c in enumerate(cmd)))
        waited = wait_idle(proc.pid, limit=400)
        print(f"# server up, kernel pools preheated after {time.monotonic() - t0:.0f} s "
              f"(idle wait {waited:.0f} s)")

        loads: dict[str, list[float]] = {n: [] for n in [MINIMAL, *names]}
        ratios: dict[str, list[float]] = {n: [] for n in names}
        memory: dict[str, float] = {}
        steps: list[float] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for r in range(args.rounds):
                for name in names:
                    # each page is paired with a visit of the minimal notebook right
                    # before or after it (alternating), so both meet the same load
                    pair = [MINIMAL, name] if r % 2 == 0 else [name, MINIMAL]
                    got: dict[str, float] = {}
                    for which in pair:
                        # the server refills a pool only after REFILL_QUIET s without
                        # visitors: a shorter quiet window would catch the pause before
                        # the refill and send the visitor to a kernel started cold
                        wait_idle(proc.pid, span=REFILL_QUIET + 1.5)
                        url = f"{base}/voila/render/{'' if '/' in which else prefix}{which}.ipynb"
                        try:
                            dt, kid, (ctx, page) = visit(browser, url)
                        except Exception as exc:  # noqa: BLE001 - report and go on
                            print(f"!! {which}: {type(exc).__name__}: {str(exc)[:200]}")
                            continue
                        got[which] = dt
                        if which not in memory and kid:
                            kp = kernel_pid(proc.pid, kid)
                            if kp:
                                memory[which] = rss_mb(kp)
                        if r == 0 and which == args.step_page and not steps:
                            for _ in range(args.clicks + 1):
                                steps.append(page.evaluate(STEP_JS, step_titles))
                            step_title = page.evaluate("() => window.btStepTitle")
                            steps = steps[1:]  # the first click warms the path
                        ctx.close()
                    if name in got:
                        loads[name].append(got[name])
                    if MINIMAL in got:
                        loads[MINIMAL].append(got[MINIMAL])
                    if len(got) == 2:
                        ratios[name].append(got[name] / got[MINIMAL])
            browser.close()

    print()
    print(f"{'page':34s} {'load s (median)':>15s} {'× minimal (median of pairs)':>28s} "
          f"{'ratios per round':>24s} {'kernel RSS':>11s}")
    worst = 0.0
    for name, runs in loads.items():
        mem = f"{memory[name]:.0f} MB" if name in memory else "–"
        if not runs:
            print(f"{name:34s} {'failed':>15s}")
            worst = float("inf")
            continue
        med = statistics.median(runs)
        if name == MINIMAL:
            print(f"{name:34s} {med:15.2f} {'1.00':>28s} {'':>24s} {mem:>11s}")
            continue
        rs = ratios[name]
        ratio = statistics.median(rs) if rs else float("inf")
        worst = max(worst, ratio)
        flag = "  ok" if ratio <= PAGE_TARGET else f"  ZU LANGSAM (> {PAGE_TARGET}×)"
        rs_txt = " ".join(f"{x:.2f}" for x in rs)
        print(f"{name:34s} {med:15.2f} {ratio:28.2f} {rs_txt:>24s} {mem:>11s}{flag}")
    print()
    good = [s for s in steps if s >= 0]
    if good:
        med = statistics.median(good)
        print(f"step ▶ → table changed on {args.step_page}, scene „{step_title}“: median {med:.0f} ms, "
              f"min {min(good):.0f}, max {max(good):.0f} ms over {len(good)} clicks"
              f"{'' if len(good) == len(steps) else f' ({len(steps) - len(good)} timed out)'}"
              f"  {'ok' if med <= STEP_TARGET_MS else 'ZU LANGSAM'}")
    else:
        med = float("inf")
        print("step: no measurement")
    print(f"worst page / minimal: {worst:.2f} (target ≤ {PAGE_TARGET}); "
          f"step median {med:.0f} ms (target ≤ {STEP_TARGET_MS:.0f})")
    ok = worst <= PAGE_TARGET and med <= STEP_TARGET_MS
    print("RESULT:", "targets met" if ok else "targets NOT met")
    text = (tmp / "voila.log").read_text(errors="replace")
    lost = text.count("Timeout waiting for IOPub output")
    if lost:
        print(f"note: the server log has {lost} × 'Timeout waiting for IOPub output' — Voilà "
              "dropped outputs of a page it executed under load (raise VoilaExecutor.iopub_timeout)")
    if ok:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"server log kept: {tmp / 'voila.log'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
