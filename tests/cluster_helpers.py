"""The test cluster (``cluster`` fixture in conftest.py): :class:`bohnteach.site.cluster.Cluster`
on free ports, after checking that HAProxy and PostgreSQL are installed."""
from __future__ import annotations

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


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int, low: int = 30000, high: int = 30999) -> int:
    """The first of ``count`` consecutive free ports in ``low``..``high``."""
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
