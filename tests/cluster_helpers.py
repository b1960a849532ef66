"""The test cluster (``cluster`` fixture in conftest.py): :class:`bohnteach.site.cluster.Cluster`
on free ports, after checking that HAProxy and PostgreSQL are installed."""
from __future__ import annotations

import os
import random
import socket
from contextlib import contextmanager
from collections.abc import Iterator

from missing import missing

from bohnteach.site.addresses import APP_PAGE
from bohnteach.site.cluster import Cluster, haproxy_binary, pg_bin

#: Preheated app kernels per server: a teacher, a projector and a few pupils per server.
APP_KERNELS = 3
SERVERS = 2
#: Room for the balancer, the two servers and one added later.
PORTS = SERVERS + 2
#: Where the cluster's ports are picked: ``BOHNTEACH_CLUSTER_PORTS=LOW-HIGH`` (e.g. a range of
#: one's own on a shared machine), else 30000-30999.
PORTS_ENV = "BOHNTEACH_CLUSTER_PORTS"


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_range() -> tuple[int, int]:
    """``BOHNTEACH_CLUSTER_PORTS`` as (low, high), or the default 30000-30999."""
    low, _, high = os.environ.get(PORTS_ENV, "30000-30999").partition("-")
    return int(low), int(high)


def free_ports(count: int, low: int | None = None, high: int | None = None) -> int:
    """The first of ``count`` consecutive free ports in ``low``..``high`` (default:
    :func:`port_range`)."""
    if low is None or high is None:
        low, high = port_range()
    for _ in range(200):
        first = random.randrange(low, high - count)
        if all(_free(first + i) for i in range(count)):
            return first
    raise RuntimeError("keine freien Ports")


@contextmanager
def start_test_cluster() -> Iterator[Cluster]:
    if haproxy_binary() is None:
        missing("haproxy fehlt (make test installiert Debians haproxy)")
    if pg_bin() is None:
        missing("PostgreSQL fehlt (make test installiert Debians postgresql)")
    with Cluster(port=free_ports(PORTS), servers=SERVERS, pools={APP_PAGE: APP_KERNELS}) as cluster:
        yield cluster
