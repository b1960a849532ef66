"""A throwaway PostgreSQL server for the class store's tests (Debian's ``postgresql``).

:func:`start_cluster` runs ``initdb`` into a fresh folder and ``pg_ctl start`` on a free
port of 127.0.0.1 (trust authentication, nothing else listens); the server refuses to run
as root, so as root (CI, a fresh clone) it runs as ``nobody``. :func:`stop_cluster` stops it
and removes the folder. ``make test`` installs ``postgresql`` with apt if it is missing.
The same server as ``bohnteach cluster`` starts (:mod:`bohnteach.site.cluster`).
"""
from __future__ import annotations

from bohnteach.site.cluster import PG_DATABASE as DATABASE  # noqa: F401
from bohnteach.site.cluster import PG_ROOT, PG_USER as USER, pg_bin  # noqa: F401
from bohnteach.site.cluster import Postgres as Cluster
from bohnteach.site.cluster import start_postgres as start_cluster
from bohnteach.site.cluster import stop_postgres as stop_cluster

__all__ = ["Cluster", "pg_bin", "start_cluster", "stop_cluster"]
