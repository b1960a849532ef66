"""A chapter switch inside the app (``bohnteach.site.app``): click → new chapter interactive,
and the kernel's CPU per switch; prints figures (not a test).

    python benchmarks/app_switch.py [--rounds 2] [--static [DIR]] [--start local-provisioner]

Serves the site as ``bohnteach serve`` does (or, with ``--static``, a static build: DIR or
the build the tests made last, ``~/.cache/bohnteach-static/test-builds/…``, served as
``bohnteach serve-static`` does; Python runs in the browser there, so no kernel CPU is
printed), opens the root in Chromium, then follows the
„weiter“ link in each chapter's header from the start page through every chapter, and from
there the lessons by their addresses (a link inside the page), ``--rounds`` times. Per
switch: wall seconds from the click until the app has shown the chapter and every widget
output is drawn, and the CPU seconds of the visitor's kernel and of the Voilà server process,
which relays every message (from /proc: not inflated by the machine's load). Targets (issue "One Python per visitor"): median ≤ 0.5 s, kernel CPU
per switch ≤ 0.2 s; static site: a switch after Python has started ≤ 1 s. Say the load
average beside the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout
sys.path.insert(0, str(HERE.parent / "tests"))

from procs import cpu_seconds, rss_mb, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path when run as a script
from browser_helpers import APP_LINK_JS, APP_SHOWN_JS, CHROMIUM, CHROMIUM_ARGS, serve_site  # noqa: E402

from bohnteach.site import static  # noqa: E402
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


def latest_static_build() -> Path:
    """The static build the tests made last (``tests/test_static_site.py``)."""
    builds = sorted((static.cache_dir() / "test-builds").glob("*/" + static.MANIFEST),
                    key=lambda p: p.stat().st_mtime)
    if not builds:
        raise SystemExit("Kein statischer Bau: erst `make test-static` oder --static DIR angeben.")
    return builds[-1].parent


@contextmanager
def served(static_dir: Path | None, start: str | None = None) -> Iterator[tuple[str, int | None, str]]:
    """(base URL, the Voilà server's pid or None, the prefix of an app address); ``start``:
    the kernel provisioner instead of the site's (``local-provisioner``: a new Python)."""
    if static_dir is None:
        option = "--KernelProvisionerFactory.default_provisioner_name"
        edit = None if start is None else (
            lambda cmd: [a for a in cmd if not a.startswith(option)] + [f"{option}={start}"])
        with tempfile.TemporaryDirectory() as tmp, \
                serve_site(Path(tmp) / "voila.log", timeout=300, edit_command=edit) as site:
            yield site.base, site.process.pid, "/?"
        return
    with static.serving(static_dir) as base:  # app links are relative to …/notebooks/app.html
        yield base, None, "app.html?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--static", nargs="?", const="", default=None, metavar="DIR",
                        help="a static build (without DIR: the tests' latest)")
    parser.add_argument("--start", default=None, metavar="PROVISIONER",
                        help="how the server starts kernels: bohnteach-fork (the site's default) "
                             "or local-provisioner (a new Python per kernel, for comparison)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    static_dir = None if args.static is None else Path(args.static) if args.static else latest_static_build()
    routes = [e.query for e in entries()]
    walls: list[float] = []
    cpus: list[float] = []
    server_cpus: list[float] = []
    print(f"load average at start: {os.getloadavg()}; {static_dir or 'Voilà'}", flush=True)
    with served(static_dir, args.start) as (base, server_pid, prefix), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        started = time.perf_counter()
        page.goto(base + "/", timeout=300_000)
        page.wait_for_function(APP_SHOWN_JS, arg="", timeout=900_000, polling=20)
        # the static site: the build's preview stays until the live page is drawn
        page.wait_for_function("() => !document.body.classList.contains('bt-previewing')",
                               timeout=900_000, polling=20)
        print(f"the start page interactive after {time.perf_counter() - started:.1f} s", flush=True)
        pid = None
        if server_pid is not None:
            kernel = sockets[0].split("/api/kernels/")[1].split("/")[0]
            pid = kernel_pid(server_pid, kernel)
            waited = wait_idle(server_pid, quiet=0.15, span=2.0, limit=600)  # the pools preheated
            print(f"server idle after {waited:.0f} s more; load average {os.getloadavg()}", flush=True)
        for round_ in range(args.rounds):
            for route in routes:
                href = prefix + route
                before = cpu_seconds(pid) if pid else 0.0
                server_before = cpu_seconds(server_pid) if server_pid else 0.0
                # a link inside the shown page, clicked as a visitor would
                page.evaluate(APP_LINK_JS, href)
                started = time.perf_counter()
                page.locator(f'.bt-app a[data-bt-bench="{href}"]').last.click()
                page.wait_for_function(APP_SHOWN_JS, arg=route, timeout=120_000, polling=10)
                wall = time.perf_counter() - started
                walls.append(wall)
                line = f"round {round_ + 1} {route:45s} {wall:6.2f} s"
                if pid:
                    time.sleep(0.3)  # the kernel's last messages
                    cpus.append(cpu_seconds(pid) - before)
                    server_cpus.append(cpu_seconds(server_pid) - server_before)
                    line += (f"  kernel CPU {cpus[-1]:5.2f} s  server CPU {server_cpus[-1]:5.2f} s  "
                             f"kernel {rss_mb(pid):5.0f} MB")
                print(line, flush=True)
        browser.close()
    print(f"load average at end: {os.getloadavg()}")
    summary = (f"switches: {len(walls)}; click → interactive median {statistics.median(walls):.2f} s, "
               f"max {max(walls):.2f} s")
    if cpus:
        summary += (f"; kernel CPU per switch median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s; "
                    f"server (Voilà process) CPU per switch median {statistics.median(server_cpus):.2f} s, "
                    f"max {max(server_cpus):.2f} s")
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
