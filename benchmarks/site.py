"""Speed of the explainer site in a real browser; prints figures (not a test).

    python benchmarks/site.py [--rounds 3] [--clicks 10] [--pages 02_Phase_1 tutorials/01_Bohnentreppe ...]
                              [--lang de|en|both]

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

**Languages** (``--lang``): the English pages are shown by the app (``/?kapitel=02_Phase_1&lang=en``,
``docs/translating.md``), so ``--lang en`` measures each page at its English address in the app
(interactive: the app shows it, ``APP_READY_JS``) and ``--lang both`` each German page and then
its English address, with the same targets. A page name may also be an app address itself
(``app?kapitel=02_Phase_1``, ``app?lektion=01_Bohnentreppe&lang=en``): German in the app is
then measured like for like.

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
from bohnteach.i18n import translator
from bohnteach.site import pages as site_pages
from bohnteach.site.addresses import CHAPTER_KEY, LANG_KEY, LESSONS_FOLDER, LESSON_KEY, address_language
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

#: An app address is interactive once the app shows the page it names, widgets drawn
#: (the app's ``data-bt-shown``, as ``tests/browser_helpers.APP_SHOWN_JS``).
APP_READY_JS = """route => document.documentElement.dataset.btShown === route &&
  !!document.querySelector('.bt-app .jupyter-widgets') &&
  ![...document.querySelectorAll('.bt-app .jp-OutputArea-output')].some(
    el => el.textContent.trim() === 'Loading widget...')"""

APP = "app"
"""A page name that is an address in the app: ``app?kapitel=02_Phase_1&lang=en``."""


def app_query(name: str) -> str | None:
    """The query of an app address (``app?kapitel=X&lang=en`` → ``kapitel=X&lang=en``), else None."""
    head, sep, query = name.partition("?")
    return query if sep and head == APP else None


def app_page(name: str) -> str:
    """The page an app address shows (``app?kapitel=02_Phase_1`` → ``02_Phase_1``,
    ``app?lektion=X`` → ``tutorials/X``); a page's own name as it is."""
    query = app_query(name)
    if query is None:
        return name
    keys = dict(part.partition("=")[::2] for part in query.split("&"))
    if CHAPTER_KEY in keys:
        return keys[CHAPTER_KEY]
    return f"{LESSONS_FOLDER}/{keys[LESSON_KEY]}" if LESSON_KEY in keys else "00_Start"


def language_of(name: str) -> str:
    """The language a page name is shown in: an app address's ``lang``, else German."""
    return address_language(app_query(name) or "")


def in_language(name: str, lang: str) -> str:
    """``name`` shown in ``lang``: German as it is; English at its address in the app, which
    makes the English pages (``02_Phase_1`` → ``app?kapitel=02_Phase_1&lang=en``,
    ``tutorials/X`` → ``app?lektion=X&lang=en``, ``app?kapitel=X`` → ``app?kapitel=X&lang=en``)."""
    if lang == "de" or language_of(name) == lang:
        return name
    query = app_query(name)
    if query is None:
        folder, _, page = name.rpartition("/")
        query = f"{LESSON_KEY if folder == LESSONS_FOLDER else CHAPTER_KEY}={page}"
    return f"{APP}?{query}&{LANG_KEY}={lang}"


def with_languages(names: list[str], lang: str) -> list[str]:
    """The page names to measure for ``--lang``: ``de`` as given, ``en`` each in English,
    ``both`` each German name followed by its English address (both meet the same load)."""
    if lang == "both":
        return list(dict.fromkeys(n for name in names for n in (name, in_language(name, "en"))))
    return list(dict.fromkeys(in_language(name, lang) for name in names))


def page_address(base: str, name: str, prefix: str = "notebooks/") -> str:
    """The Voilà server's URL of a page name: its own page, or the app at an app address."""
    query = app_query(name)
    if query is not None:
        return f"{base}/?{query}"
    return f"{base}/voila/render/{'' if '/' in name else prefix}{name}.ipynb"


def wait_ready(page, name: str, timeout_ms: float) -> None:
    """Wait until the page of ``name`` is interactive (an app address: until the app shows it)."""
    query = app_query(name)
    if query is not None:
        page.wait_for_function(APP_READY_JS, arg=query, timeout=timeout_ms, polling=20)
    else:
        page.wait_for_function(READY_JS, timeout=timeout_ms, polling=20)


# Click ▶ of the first scene player and time until its table changes (in the page).
# ``next``: the ▶ button's word in the page's language.
STEP_JS = """async ([titles, word]) => {
  const players = [...document.querySelectorAll('.bt-scene-player')];
  const title = p => (p.querySelector('h3') || {}).textContent;
  // the best-scored scene the page shows, else its first player; none: -2 (not timed)
  const player = titles.map(t => players.find(p => title(p) === t)).find(p => p) || players[0];
  if (!player) return -2;
  window.btStepTitle = title(player);
  const buttons = [...player.querySelectorAll('button')];
  const next = buttons.find(b => b.textContent.includes(word));
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


def step_scene(page_name: str, lang: str = "de") -> tuple[list[str], str]:
    """The scene titles to look for on the page (in ``lang``), best first, and the best title: the
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
    tr = translator(lang)
    titles = [tr.gettext(t) for _, t in sorted(scored, key=lambda x: x[0], reverse=True)]
    return titles, (titles[0] if titles else "?")


def step_args(page_name: str, lang: str = "de") -> list:
    """STEP_JS's argument for a page in ``lang``: the scene titles, best first, and the word of ▶."""
    return [step_scene(page_name, lang)[0], translator(lang).gettext("▶ weiter").removeprefix("▶").strip()]


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


def visit(browser, url: str, name: str, timeout_ms: float = 180_000) -> tuple[float, str | None, object]:
    """Open ``url`` (the page ``name``) in a fresh context; seconds until interactive, the
    kernel id, the context."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    kernel: list[str] = []
    page.on("websocket", lambda ws: kernel.append(ws.url.split("/api/kernels/")[1].split("/")[0])
            if "/api/kernels/" in ws.url else None)
    t0 = time.perf_counter()
    page.goto(url, timeout=timeout_ms)
    wait_ready(page, name, timeout_ms)
    dt = time.perf_counter() - t0
    return dt, (kernel[0] if kernel else None), (ctx, page)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clicks", type=int, default=10)
    ap.add_argument("--pages", nargs="*", help="page names (default: every page)")
    ap.add_argument("--step-page", default="06_Ernte_und_Bohnometer")
    ap.add_argument("--lang", choices=("de", "en", "both"), default="de",
                    help="German pages, each at its English address in the app, or both in turn")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    names = args.pages or [p.name for p in site_pages.PAGES if site_pages.page_exists(p)] + lesson_names()
    names = with_languages(names, args.lang)
    # the step is timed on the step page in each language measured
    step_pages = with_languages([args.step_page], args.lang)
    names += [p for p in step_pages if p not in names]
    step_arg = {p: step_args(app_page(p), language_of(p)) for p in step_pages}
    step_title = {p: (a[0][0] if a[0] else "?") for p, a in step_arg.items()}
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
        steps: dict[str, list[float]] = {p: [] for p in step_pages}
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
                        url = page_address(base, which, prefix)
                        try:
                            dt, kid, (ctx, page) = visit(browser, url, which)
                        except Exception as exc:  # noqa: BLE001 - report and go on
                            print(f"!! {which}: {type(exc).__name__}: {str(exc)[:200]}")
                            continue
                        got[which] = dt
                        if which not in memory and kid:
                            kp = kernel_pid(proc.pid, kid)
                            if kp:
                                memory[which] = rss_mb(kp)
                        if r == 0 and which in steps and not steps[which]:
                            timed = [page.evaluate(STEP_JS, step_arg[which]) for _ in range(args.clicks + 1)]
                            step_title[which] = page.evaluate("() => window.btStepTitle")
                            steps[which] = timed[1:]  # the first click warms the path
                        ctx.close()
                    if name in got:
                        loads[name].append(got[name])
                    if MINIMAL in got:
                        loads[MINIMAL].append(got[MINIMAL])
                    if len(got) == 2:
                        ratios[name].append(got[name] / got[MINIMAL])
            browser.close()

    print()
    print(f"{'page':44s} {'load s (median)':>15s} {'× minimal (median of pairs)':>28s} "
          f"{'ratios per round':>24s} {'kernel RSS':>11s}")
    worst = 0.0
    for name, runs in loads.items():
        mem = f"{memory[name]:.0f} MB" if name in memory else "–"
        if not runs:
            print(f"{name:44s} {'failed':>15s}")
            worst = float("inf")
            continue
        med = statistics.median(runs)
        if name == MINIMAL:
            print(f"{name:44s} {med:15.2f} {'1.00':>28s} {'':>24s} {mem:>11s}")
            continue
        rs = ratios[name]
        ratio = statistics.median(rs) if rs else float("inf")
        worst = max(worst, ratio)
        flag = "  ok" if ratio <= PAGE_TARGET else f"  ZU LANGSAM (> {PAGE_TARGET}×)"
        rs_txt = " ".join(f"{x:.2f}" for x in rs)
        print(f"{name:44s} {med:15.2f} {ratio:28.2f} {rs_txt:>24s} {mem:>11s}{flag}")
    print()
    med = 0.0
    for step_page, timed in steps.items():
        good = [s for s in timed if s >= 0]
        if not good:
            med = float("inf")
            print(f"step on {step_page}: no measurement")
            continue
        mine = statistics.median(good)
        med = max(med, mine)
        print(f"step ▶ → table changed on {step_page}, scene „{step_title[step_page]}“: median {mine:.0f} ms, "
              f"min {min(good):.0f}, max {max(good):.0f} ms over {len(good)} clicks"
              f"{'' if len(good) == len(timed) else f' ({len(timed) - len(good)} timed out)'}"
              f"  {'ok' if mine <= STEP_TARGET_MS else 'ZU LANGSAM'}")
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
