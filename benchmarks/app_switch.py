"""A chapter switch inside the app (``bohnteach.site.app``): click → new chapter interactive,
and the kernel's CPU per switch; prints figures (not a test).

    python benchmarks/app_switch.py [--rounds 2]

Serves the site as ``bohnteach serve`` does, opens the root in Chromium, then follows the
„weiter“ link in each chapter's header from the start page through every chapter, and from
there the lessons by their addresses (a link inside the page), ``--rounds`` times. Per
switch: wall seconds from the click until the app has shown the chapter and every widget
output is drawn, and the CPU seconds of the visitor's kernel (from /proc: not inflated by
the machine's load). Targets (issue "One Python per visitor"): median ≤ 0.5 s, kernel CPU
per switch ≤ 0.2 s. Say the load average beside the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout
sys.path.insert(0, str(HERE.parent / "tests"))

from procs import cpu_seconds, rss_mb, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path when run as a script
from browser_helpers import APP_SHOWN_JS, CHROMIUM, CHROMIUM_ARGS, serve_site  # noqa: E402

from bohnteach.site.app import entries  # noqa: E402

def kernel_pid(server_pid: int, kernel_id: str) -> int:
    """The process of the kernel ``kernel_id`` (its connection file names it)."""
    for pid in tree_pids(server_pid):
        try:
            if kernel_id in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                return pid
        except OSError:
            continue
    raise LookupError(f"kein Kernel {kernel_id}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    routes = [e.query for e in entries()]
    walls: list[float] = []
    cpus: list[float] = []
    print(f"load average at start: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp, serve_site(Path(tmp) / "voila.log", timeout=300) as site, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(site.base + "/", timeout=300_000)
        page.wait_for_function(APP_SHOWN_JS, arg="", timeout=300_000, polling=20)
        kernel = sockets[0].split("/api/kernels/")[1].split("/")[0]
        pid = kernel_pid(site.process.pid, kernel)
        waited = wait_idle(site.process.pid, quiet=0.15, span=2.0, limit=600)  # the pools preheated
        print(f"server idle after {waited:.0f} s more; load average {os.getloadavg()}", flush=True)
        for round_ in range(args.rounds):
            for route in routes:
                href = f"/?{route}"
                before = cpu_seconds(pid)
                # a link inside the shown page, clicked as a visitor would
                page.evaluate("""href => { const a = document.createElement('a'); a.href = href;
                  a.textContent = 'weiter'; document.querySelector('.bt-app').appendChild(a); }""", href)
                started = time.perf_counter()
                page.locator(f'.bt-app a[href="{href}"]').last.click()
                page.wait_for_function(APP_SHOWN_JS, arg=route, timeout=120_000, polling=10)
                wall = time.perf_counter() - started
                time.sleep(0.3)  # the kernel's last messages
                cpu = cpu_seconds(pid) - before
                walls.append(wall)
                cpus.append(cpu)
                print(f"round {round_ + 1} {route:45s} {wall:6.2f} s  kernel CPU {cpu:5.2f} s  "
                      f"kernel {rss_mb(pid):5.0f} MB", flush=True)
        browser.close()
    print(f"load average at end: {os.getloadavg()}")
    print(f"switches: {len(walls)}; click → interactive median {statistics.median(walls):.2f} s, "
          f"max {max(walls):.2f} s; kernel CPU per switch median {statistics.median(cpus):.2f} s, "
          f"max {max(cpus):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
