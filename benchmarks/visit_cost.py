"""What one visit costs the server: CPU seconds and memory of the kernel that prepares a
page; prints figures (not a test).

    python benchmarks/visit_cost.py [--pages 00_Start 02_Phase_1 14_Ladybohn tutorials/01_Bohnentreppe ...]
                                    [--repeat N] [--start bohnteach-fork local-provisioner]

For each page a fresh kernel (the notebook's kernelspec) executes the notebook with
nbclient, like Voilà does for a visitor without a preheated kernel, started each way
``--start`` names, alternating: ``bohnteach-fork`` forks it from the warm fork server as
``bohnteach serve`` does (``bohnteach.site.forking``), ``local-provisioner`` starts a new
Python as Jupyter does by default. Printed per page and way: the kernel's CPU time (user +
system, from /proc: the machine's load does not inflate it, unlike wall time), its resident
memory afterwards and the part only it holds (private pages: what one more kernel costs
when the others share the rest), and the wall time. From these: how many fresh visits one
core prepares per minute, and how many visitors' kernels fit in one GB until culling ends
them (``serve.CULL_IDLE_TIMEOUT``).
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
from bohnteach.site import forking  # noqa: E402
from jupyter_client.provisioning import KernelProvisionerFactory  # noqa: E402
from procs import cpu_seconds, rss_mb, uss_mb  # noqa: E402 - benchmarks/ is on sys.path when run as a script

DEFAULT_PAGES = ("00_Start", "02_Phase_1", "12_Bohnometer", "14_Ladybohn", "15_Indiana_Bohnes",
                 "tutorials/01_Bohnentreppe", "tutorials/02_Zwei_Karten_aufdecken",
                 "tutorials/03_Was_bringt_ein_Feld", "tutorials/04_Rechnen_oder_simulieren",
                 "tutorials/05_Handeln_lohnt_sich")


def visit(path: Path, start: str, timeout: int = 900) -> tuple[float, float, float, float]:
    """(kernel CPU s, kernel MB resident, MB only it holds, wall s) for one fresh execution
    of ``path`` in a kernel started by the provisioner ``start``."""
    KernelProvisionerFactory.instance().default_provisioner_name = start
    nb = nbformat.read(path, 4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=nb.metadata.kernelspec.name,
                            resources={"metadata": {"path": str(path.parent)}})
    t0 = time.monotonic()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        cpu, rss, own = cpu_seconds(pid), rss_mb(pid), uss_mb(pid)
    return cpu, rss, own, time.monotonic() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES))
    ap.add_argument("--repeat", type=int, default=1, help="fresh kernels per page (median)")
    ap.add_argument("--timeout", type=int, default=900,
                    help="s per cell; nbclient waits this long after a cell that draws a plotly chart "
                         "into an Output widget (lesson 4's experiment) although the kernel is idle: "
                         "it inflates the wall time only, not the kernel's CPU")
    ap.add_argument("--start", nargs="+", default=[forking.PROVISIONER, "local-provisioner"],
                    help="how kernels start (alternating): bohnteach-fork, local-provisioner")
    args = ap.parse_args(argv)
    root = site_dir()
    print(f"# visit cost — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}")
    print(f"{'page':38} {'start':18} {'kernel CPU s':>12} {'MB':>6} {'own MB':>7} {'wall s':>7}")
    figures: dict[str, list[tuple[float, float]]] = {start: [] for start in args.start}
    for page in args.pages:
        runs: dict[str, list[tuple[float, float, float, float]]] = {start: [] for start in args.start}
        for _ in range(args.repeat):
            for start in args.start:
                runs[start].append(visit(root / notebook_key(page), start, args.timeout))
        for start, rows in runs.items():
            cpu, mem, own, wall = (statistics.median(r[i] for r in rows) for i in range(4))
            figures[start].append((cpu, own))
            print(f"{page:38} {start:18} {cpu:12.2f} {mem:6.0f} {own:7.0f} {wall:7.1f}", flush=True)
    for start, rows in figures.items():
        cpu, own = statistics.mean(r[0] for r in rows), statistics.mean(r[1] for r in rows)
        print(f"{start}: mean {cpu:.2f} CPU s and {own:.0f} MB of its own per fresh visit → one core "
              f"prepares {60 / cpu:.0f} fresh visits per minute; one GB holds {1024 / own:.0f} "
              f"visitors' kernels")
    print(f"(load average now {os.getloadavg()[0]:.1f})")
    forking._SERVER.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
