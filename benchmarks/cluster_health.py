"""How long the health address takes while servers start, and whether HAProxy takes a server
out for it; prints figures (not a test).

    python benchmarks/cluster_health.py [--busy 2] [--servers 2] [--pool 3] [--seconds 60]

Starts the deployment of ``deploy/`` on this machine (:class:`bohnteach.site.cluster.Cluster`),
with ``--busy`` Python loops beside it that each keep a core busy (a CI machine running the
rest of the suite). From the first moment, every server's health address is asked directly,
one after the other, every 0.3 s, for ``--seconds`` after the cluster is up. Printed: every
answer slower than 0.5 s or not 200, each server's slowest answer, and every line in which
HAProxy takes a server out or back in. Target: no server taken out, every answer within the
balancer's ``timeout check`` (``ok``, else ``ZU LANGSAM``).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from bohnteach.site.addresses import APP_PAGE  # noqa: E402
from bohnteach.site.cluster import Cluster, answers  # noqa: E402
from cluster_helpers import free_ports  # noqa: E402


def _ask(url: str) -> tuple[int | None, float]:
    """The health address's status (None: no answer) and how long the answer took."""
    start = time.monotonic()
    return answers(url, timeout=30), time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the cluster")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--pool", type=int, default=3, help="preheated app kernels per server")
    parser.add_argument("--seconds", type=float, default=60.0, help="watched after the start")
    args = parser.parse_args()

    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    began = time.monotonic()
    cluster = Cluster(port=free_ports(args.servers + 2), servers=args.servers, pools={APP_PAGE: args.pool})
    slowest: dict[str, float] = {}
    taken_out: list[str] = []
    done = threading.Event()

    def watch() -> None:
        read = 0
        while not done.is_set():
            for server in list(cluster.running):
                status, took = _ask(cluster.health_url(server))
                if status == 200:
                    slowest[server.name] = max(slowest.get(server.name, 0.0), took)
                if took > 0.5 or (status != 200 and cluster.balancer is not None):
                    print(f"{time.monotonic() - began:6.1f} s  {server.name}: {status} in {took:.2f} s", flush=True)
            log = cluster.folder / "haproxy.log"
            if log.exists():
                text = log.read_text(errors="replace")
                for line in text[read:].splitlines():
                    if " is DOWN" in line:
                        taken_out.append(line)
                    if " is DOWN" in line or " is UP" in line:
                        print(f"{time.monotonic() - began:6.1f} s  HAProxy: {line.strip()[:150]}", flush=True)
                read = len(text)
            time.sleep(0.3)

    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}", flush=True)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with cluster:
            print(f"{time.monotonic() - began:6.1f} s  cluster up ({args.servers} servers, {args.busy} busy loops)",
                  flush=True)
            time.sleep(args.seconds)
            done.set()
            watcher.join()
            config = (cluster.folder / "haproxy.cfg").read_text()
    finally:
        done.set()
        for process in busy:
            process.kill()
    found = re.search(r"timeout check (\d+)s", config)
    limit = float(found.group(1)) if found else 2.0  # without it HAProxy waits `inter`, 2 s here
    print("slowest 200:", ", ".join(f"{name} {took:.2f} s" for name, took in sorted(slowest.items())),
          f"(the balancer waits {limit:.0f} s); taken out: {len(taken_out)}; load {os.getloadavg()[0]:.1f}")
    print("ok" if not taken_out and max(slowest.values(), default=0.0) < limit else "ZU LANGSAM")


if __name__ == "__main__":
    main()
