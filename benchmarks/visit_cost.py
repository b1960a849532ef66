"""What one visit costs the server: CPU seconds and memory of the kernel that prepares a
page; prints figures (not a test).

    python benchmarks/visit_cost.py [--pages 00_Start 02_Phase_1 14_Ladybohn tutorials/01_Bohnentreppe ...]

For each page a fresh kernel (the notebook's kernelspec, as Voilà starts it) executes the
notebook with nbclient, like Voilà does for a visitor without a preheated kernel. Printed
per page: the kernel's CPU time (user + system, from /proc: the machine's load does not
inflate it, unlike wall time), its resident memory afterwards, and the wall time. From
these: how many fresh visits one core prepares per minute, and how many visitors' kernels
fit in one GB until culling ends them (``serve.CULL_IDLE_TIMEOUT``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

from bohnteach.site.addresses import notebook_key  # noqa: E402
from bohnteach.site.serve import site_dir  # noqa: E402
from procs import cpu_seconds, rss_mb  # noqa: E402 - benchmarks/ is on sys.path when run as a script

DEFAULT_PAGES = ("00_Start", "02_Phase_1", "12_Bohnometer", "14_Ladybohn", "15_Indiana_Bohnes",
                 "tutorials/01_Bohnentreppe", "tutorials/02_Zwei_Karten_aufdecken",
                 "tutorials/03_Was_bringt_ein_Feld", "tutorials/04_Rechnen_oder_simulieren",
                 "tutorials/05_Handeln_lohnt_sich")


def visit(path: Path, timeout: int = 900) -> tuple[float, float, float]:
    """(kernel CPU s, kernel MB resident, wall s) for one fresh execution of ``path``."""
    nb = nbformat.read(path, 4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=nb.metadata.kernelspec.name,
                            resources={"metadata": {"path": str(path.parent)}})
    t0 = time.monotonic()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        cpu, rss = cpu_seconds(pid), rss_mb(pid)
    return cpu, rss, time.monotonic() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES))
    ap.add_argument("--repeat", type=int, default=1, help="fresh kernels per page (median)")
    ap.add_argument("--timeout", type=int, default=900,
                    help="s per cell; nbclient waits this long after a cell that draws a plotly chart "
                         "into an Output widget (lesson 4's experiment) although the kernel is idle: "
                         "it inflates the wall time only, not the kernel's CPU")
    args = ap.parse_args(argv)
    root = site_dir()
    print(f"# visit cost — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}")
    print(f"{'page':38} {'kernel CPU s':>12} {'MB':>6} {'wall s':>7}")
    cpus, mems = [], []
    for page in args.pages:
        runs = [visit(root / notebook_key(page), args.timeout) for _ in range(args.repeat)]
        cpu, mem, wall = (statistics.median(r[i] for r in runs) for i in range(3))
        cpus.append(cpu)
        mems.append(mem)
        print(f"{page:38} {cpu:12.2f} {mem:6.0f} {wall:7.1f}", flush=True)
    cpu, mem = statistics.mean(cpus), statistics.mean(mems)
    print(f"mean: {cpu:.2f} CPU s and {mem:.0f} MB per fresh visit → one core prepares "
          f"{60 / cpu:.0f} fresh visits per minute; one GB holds {1024 / mem:.0f} visitors' kernels "
          f"(load average now {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
