"""Main-thread time of the page template's own scripts while a static page starts; prints
figures (not a test).

    python benchmarks/page_scripts.py --build DIR [--compare OLD_DIR] [--pages 14_Ladybohn ...]

The template (``bohnteach/site/jupyter/voila/templates/bohnteach/index.html.j2``) follows
the page's changes with one ``MutationObserver``: every script registered with
``window.btOnChange`` (charts fitted for print, the previews' swap, the start's end, marks
for keyboard and screen readers) runs once per batch of changes. For each page, one cold
visit of each build (alternating, a fresh browser each) until interactive, in the page:
the batches, their records, the elements of the finished page, and per watcher its calls
and milliseconds (timed around each call, so independent of a profiler's overhead). Unlike
the wall time of a visit this hardly depends on the machine's load; say the load anyway.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout

import static_site  # noqa: E402 - benchmarks/ is on sys.path when run as a script
from procs import core_speed, wait_idle  # noqa: E402

from bohnteach.site import static  # noqa: E402

PAGES = ["14_Ladybohn", "15_Indiana_Bohnes", "02_Phase_1", "tutorials/04_Rechnen_oder_simulieren"]

#: Before the page's scripts: wraps each watcher the template registers, counts batches.
TIMING_JS = """(() => {
  let register = null;
  window.__btWatchers = []; window.__btBatches = 0; window.__btRecords = 0;
  Object.defineProperty(window, 'btOnChange', { configurable: true,
    set(fn) { register = fn; },
    get() { return (watcher) => {
      const entry = { name: String(watcher).replace(/\\s+/g, ' ').slice(0, 70), calls: 0, ms: 0 };
      window.__btWatchers.push(entry);
      register(function (...args) {
        const t = performance.now();
        try { return watcher.apply(this, args); } finally { entry.calls++; entry.ms += performance.now() - t; }
      });
    }; } });
  const Observer = window.MutationObserver;
  window.MutationObserver = function (callback) {
    return new Observer((records, observer) => {
      window.__btBatches++; window.__btRecords += records.length;
      return callback(records, observer);
    });
  };
})();"""
RESULT_JS = """() => ({ watchers: window.__btWatchers, batches: window.__btBatches,
  records: window.__btRecords, elements: document.getElementsByTagName('*').length })"""


def visit(pw, base: str, name: str) -> dict:
    """One cold visit of ``name``: the page's figures (:data:`RESULT_JS`) and its interactive s."""
    with tempfile.TemporaryDirectory() as profile:
        ctx, _starts = static_site.new_visitor(pw, [], Path(profile))
        try:
            ctx.add_init_script(TIMING_JS)
            page = ctx.new_page()
            _shown, ready = static_site.timed_open(page, static_site.page_url(base, name))
            return {**page.evaluate(RESULT_JS), "interactive": ready}
        finally:
            ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True, help="a static build (bohnteach build-static)")
    parser.add_argument("--compare", type=Path, help="the build before a change, measured alternately")
    parser.add_argument("--pages", nargs="+", default=PAGES)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    builds = {"after": args.build, **({"before": args.compare} if args.compare else {})}
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}, "
          f"one core {core_speed():.2f} s")
    with ExitStack() as stack, sync_playwright() as pw:
        bases = {label: stack.enter_context(static.serving(folder)) for label, folder in builds.items()}
        for i, name in enumerate(args.pages):
            for label in list(bases)[::1 if i % 2 == 0 else -1]:  # each page's first build alternates
                wait_idle(os.getpid())
                r = visit(pw, bases[label], name)
                total = sum(w["ms"] for w in r["watchers"])
                print(f"{name} [{label}]: watchers {total:.0f} ms; {r['batches']} batches, {r['records']} records, "
                      f"{r['elements']} elements; interactive {r['interactive']:.2f} s")
                for w in r["watchers"]:
                    print(f"   {w['calls']:5d} calls {w['ms']:7.1f} ms  {w['name']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
