"""The class room behind HAProxy: visitors across several servers; prints figures (not a test).

    python benchmarks/load_cluster.py [--servers 2] [--visitors 60] [--browsers 3]
                                      [--pages 02_Phase_1 14_Ladybohn] [--pool 30] [--timeout 180]

Starts the deployment of ``deploy/`` on this machine as ``bohnteach cluster`` does
(:class:`bohnteach.site.cluster.Cluster`: PostgreSQL, ``--servers`` servers each with ``--pool``
preheated app kernels, HAProxy under ``/bohnanza/``) and lets the visitors of
``benchmarks/load.py`` read ``--pages`` *in the app* through the balancer, all at the same
moment (protocol visitors plus ``--browsers`` in Chromium; protocol visitors keep the
balancer's cookie as a browser does). Printed: errors; each server's share of the visitors;
whether every visitor's kernel websocket went to the server that owns its kernel (the
kernel, asked for on each server directly, exists on the cookie's server and on no other);
time to interactive, median and max. On one 2-core machine two servers share the same
cores: the figure shows routing, stickiness and that no visitor is lost, not CPU scaling.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from load import crowd  # noqa: E402

from bohnteach.site.addresses import APP_PAGE  # noqa: E402
from bohnteach.site.cluster import Cluster, answers  # noqa: E402
from cluster_helpers import free_ports  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--servers", type=int, default=2)
    ap.add_argument("--visitors", type=int, default=60)
    ap.add_argument("--browsers", type=int, default=3)
    ap.add_argument("--pages", nargs="+", default=["02_Phase_1", "14_Ladybohn"])
    ap.add_argument("--pool", type=int, default=30, help="preheated app kernels per server")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per page visit")
    args = ap.parse_args(argv)
    print(f"# cluster load — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}; {args.servers} servers × {args.pool} preheated app kernels behind "
          f"HAProxy; {args.visitors} visitors ({min(args.browsers, args.visitors)} in Chromium) × "
          f"{args.pages} in the app")
    with Cluster(port=free_ports(args.servers + 1), servers=args.servers,
                 pools={APP_PAGE: args.pool}, folder=Path(tempfile.mkdtemp(prefix="bohnteach-load-"))) as cluster:
        t0 = time.monotonic()
        results, wall = asyncio.run(crowd(cluster.url.rstrip("/"), args.visitors, args.browsers,
                                          args.pages, args.timeout, app=True))
        # where each protocol visitor's kernel lives: asked of every server directly
        owners: dict[str, list[str]] = {}
        for row in results:
            kernel = row.get("kernel")
            if kernel and kernel not in owners:
                owners[kernel] = [s.name for s in cluster.running if answers(
                    f"http://{s.address}{cluster.path}api/kernels/{kernel}", timeout=10) == 200]
    errors = [r for r in results if r["error"] is not None]
    firsts = [r for r in results if r["page"] == args.pages[0]]
    share = Counter(r.get("server") or "?" for r in firsts)
    checked = [r for r in firsts if r.get("kernel")]
    wrong = [r for r in checked if owners.get(r["kernel"]) != [r.get("server")]]
    ttis = [r["tti"] for r in results if r["tti"] is not None and r["error"] is None]
    print(f"visits {len(results)}, errors {len(errors)}; all done after {wall:.0f} s "
          f"(cluster up {time.monotonic() - t0:.0f} s)")
    for r in errors[:10]:
        print(f"  error on {r['page']}: {r['error']}")
    print("each server's share of the visitors: " + ", ".join(
        f"{name} {count} ({100 * count / max(1, len(firsts)):.0f} %)" for name, count in sorted(share.items())))
    print(f"websocket on the server owning its kernel: {len(checked) - len(wrong)} of {len(checked)} "
          f"protocol visitors (kernel found on the cookie's server only)"
          + "".join(f"\n  {r.get('server')} but kernel on {owners.get(r['kernel'])}" for r in wrong[:5]))
    if ttis:
        print(f"time to interactive: median {statistics.median(ttis):.1f} s, max {max(ttis):.1f} s")
    ok = not errors and not wrong and "?" not in share
    print("RESULT:", "no errors, every visitor stayed on its kernel's server" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
