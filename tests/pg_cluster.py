"""A throwaway PostgreSQL server for the class store's tests (Debian's ``postgresql``).

:func:`start_cluster` runs ``initdb`` into a fresh folder and ``pg_ctl start`` on a free
port of 127.0.0.1 (trust authentication, nothing else listens); the server refuses to run
as root, so as root (CI, a fresh clone) it runs as ``nobody``. :func:`stop_cluster` stops it
and removes the folder. ``make test`` installs ``postgresql`` with apt if it is missing.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PG_ROOT = Path("/usr/lib/postgresql")
USER = "bohnteach"
DATABASE = "klassen"


def pg_bin() -> Path | None:
    """The newest installed server's ``bin`` folder, or None."""
    found = sorted(PG_ROOT.glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


@dataclass
class Cluster:
    folder: Path
    bin: Path
    port: int
    run_as: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def ctl(self, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"),
                        *args], check=True, capture_output=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_cluster(max_connections: int = 200) -> Cluster:
    pgbin = pg_bin()
    if pgbin is None:
        raise FileNotFoundError(f"kein PostgreSQL unter {PG_ROOT} (Debians Paket postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="bohnteach-pg-"))
    folder.chmod(0o755)
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        run_as = ["runuser", "-u", "nobody", "--"]
    data, sockets = folder / "data", folder / "sockets"
    subprocess.run([*run_as, "mkdir", str(sockets)], check=True)
    subprocess.run([*run_as, str(pgbin / "initdb"), "-D", str(data), "-U", USER,
                    "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, capture_output=True, timeout=300)
    cluster = Cluster(folder, pgbin, _free_port(), run_as)
    options = (f"-p {cluster.port} -k {sockets} -c listen_addresses=127.0.0.1 "
               f"-c max_connections={max_connections} -c fsync=off")
    cluster.ctl("-o", options, "-l", str(folder / "server.log"), "-w", "-t", "120", "start")
    subprocess.run([*run_as, str(pgbin / "createdb"), "-h", "127.0.0.1", "-p", str(cluster.port),
                    "-U", USER, DATABASE], check=True, capture_output=True, timeout=120)
    return cluster


def stop_cluster(cluster: Cluster) -> None:
    try:
        cluster.ctl("-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(cluster.folder, ignore_errors=True)
