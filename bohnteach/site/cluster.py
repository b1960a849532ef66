"""Several bohnteach servers behind HAProxy, one class store in PostgreSQL.

``bohnteach cluster`` starts the deployment of ``deploy/`` on one machine to try it (and the
tests and the load benchmark start it the same way, :class:`Cluster`): a PostgreSQL server
of its own in a temporary folder (or ``--klassen-db``), N servers as ``bohnteach serve``
starts them (:func:`bohnteach.site.serve.build_voila_command`) with the public address and
the balancer as their trusted proxy, and Debian's HAProxy with the configuration rendered
from ``deploy/haproxy.cfg.in`` (:func:`render_haproxy`). Ctrl-C (or SIGTERM) stops all of it
and removes the folder.

Kernels live inside one server process, so the balancer keeps each visitor on the server
that handed out their page (a cookie it inserts); the servers share nothing but the store.
The balancer reaches the servers from :data:`BALANCER_SOURCE`, the only address whose
``X-Forwarded-For`` they believe: a visitor on this machine (127.0.0.1) talking to a
server directly cannot pass for someone else.

``python -m bohnteach.site.cluster haproxy ...`` prints the configuration for servers on
other machines (docs/operations.md).
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

from bohnteach.site.addresses import APP_PAGE
from bohnteach.site.serve import HEALTH_PATH, build_voila_command, check_public_url, site_dir, voila_env

#: ``deploy/`` of the source checkout: the balancer's template, the service units.
DEPLOY_DIR = Path(__file__).resolve().parents[2] / "deploy"
HAPROXY_TEMPLATE = DEPLOY_DIR / "haproxy.cfg.in"
HAPROXY = "haproxy"
#: The balancer's own address towards the servers on one machine (all of 127.0.0.0/8 is
#: the loopback): the servers trust its X-Forwarded-For and nobody else's.
BALANCER_SOURCE = "127.0.0.2"
#: The balancer's cookie that names a visitor's server (deploy/haproxy.cfg.in).
SERVER_COOKIE = "BOHNTEACH_SERVER"
PG_ROOT = Path("/usr/lib/postgresql")
PG_USER = "bohnteach"
PG_DATABASE = "klassen"
#: Seconds to wait for a server's or the balancer's first healthy answer.
START_TIMEOUT = 300.0


# ---- the balancer's configuration -------------------------------------------------------------
def render_haproxy(path: str, servers: Sequence[tuple[str, str]], bind: str, *,
                   source: str | None = None, secure_cookie: bool = False,
                   maxconn: int = 4096, server_maxconn: int = 1000,
                   global_extra: Sequence[str] = (), template: Path = HAPROXY_TEMPLATE) -> str:
    """``deploy/haproxy.cfg.in`` filled in: the site under ``path`` (``/bohnanza/``) on
    ``bind`` (``:80``, ``127.0.0.1:8080``, a TLS ``bind``), one ``server`` line per
    ``(name, host:port)``; ``source``: the balancer's address towards the servers;
    ``secure_cookie``: the stickiness cookie only over HTTPS (TLS terminated here or in front)."""
    if not path.startswith("/") or not path.endswith("/"):
        raise ValueError(f"„{path}“: der Pfad beginnt und endet mit /, z. B. /bohnanza/")
    if not servers:
        raise ValueError("mindestens ein Server")
    lines = [f"    server {name} {address} cookie {name}" for name, address in servers]
    return Template(template.read_text()).substitute(
        path=path, path_bare=path.rstrip("/") or "/", bind=bind, maxconn=maxconn,
        server_maxconn=server_maxconn, servers="\n".join(lines),
        source=f" source {source}" if source else "",
        cookie_secure=" secure" if secure_cookie else "",
        global_extra="\n".join(f"    {line}" for line in global_extra))


def haproxy_binary() -> str | None:
    return shutil.which(HAPROXY) or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.access(p, os.X_OK)), None)


def check_haproxy_config(text: str) -> str | None:
    """HAProxy's own verdict on a configuration: None when valid, else its complaint."""
    binary = haproxy_binary()
    if binary is None:
        return "haproxy fehlt (Debians Paket haproxy; make haproxy)"
    with tempfile.NamedTemporaryFile("w", suffix=".cfg") as cfg:
        cfg.write(text)
        cfg.flush()
        done = subprocess.run([binary, "-c", "-f", cfg.name], capture_output=True, text=True)
    return None if done.returncode == 0 else (done.stdout + done.stderr).strip()


# ---- PostgreSQL --------------------------------------------------------------------------------
def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` folder (Debian's ``postgresql``), or None."""
    found = sorted(PG_ROOT.glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@dataclass
class Postgres:
    """A throwaway PostgreSQL server in ``folder`` (trust authentication, 127.0.0.1 only);
    as root it runs as ``nobody`` (the server refuses root)."""

    folder: Path
    bin: Path
    port: int
    run_as: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{PG_DATABASE}"

    def ctl(self, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"),
                        *args], check=True, capture_output=True, timeout=120)

    def options(self, max_connections: int) -> str:
        return (f"-p {self.port} -k {self.folder / 'sockets'} -c listen_addresses=127.0.0.1 "
                f"-c max_connections={max_connections} -c fsync=off")

    def halt(self) -> None:
        """Stop (fast: open connections are cut), as for an update; :meth:`resume` starts it."""
        self.ctl("-m", "fast", "-w", "-t", "120", "stop")

    def resume(self, max_connections: int = 200) -> None:
        self.ctl("-o", self.options(max_connections), "-l", str(self.folder / "server.log"),
                 "-w", "-t", "120", "start")


def start_postgres(max_connections: int = 200, port: int | None = None) -> Postgres:
    pgbin = pg_bin()
    if pgbin is None:
        raise FileNotFoundError(f"kein PostgreSQL unter {PG_ROOT} (Debians Paket postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="bohnteach-pg-"))
    folder.chmod(0o755)
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        run_as = ["runuser", "-u", "nobody", "--"]
    subprocess.run([*run_as, "mkdir", str(folder / "sockets")], check=True)
    subprocess.run([*run_as, str(pgbin / "initdb"), "-D", str(folder / "data"), "-U", PG_USER,
                    "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, capture_output=True, timeout=300)
    server = Postgres(folder, pgbin, port or free_port(), run_as)
    server.resume(max_connections)
    subprocess.run([*run_as, str(pgbin / "createdb"), "-h", "127.0.0.1", "-p", str(server.port),
                    "-U", PG_USER, PG_DATABASE], check=True, capture_output=True, timeout=120)
    return server


def stop_postgres(server: Postgres) -> None:
    try:
        server.ctl("-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)


# ---- the servers and the balancer -------------------------------------------------------------
def answers(url: str, timeout: float = 3.0) -> int | None:
    """The HTTP status of ``url`` (no redirect followed), or None when nothing answers."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return int(err.code)
    except (OSError, ValueError):
        return None


def stop_group(process: subprocess.Popen, grace: float = 20.0) -> None:
    """SIGTERM to the process group ``process`` leads (Voilà shuts its kernels down), then
    SIGKILL after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@dataclass
class Cluster:
    """The deployment on one machine; :meth:`start` it, :meth:`stop` it (also as a
    context manager). Ports: the balancer's ``port``, the servers' from ``port + 1`` on."""

    port: int
    servers: int = 2
    path: str = "/bohnanza/"
    public_url: str | None = None
    store_url: str | None = None
    pools: Mapping[str, int] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bohnteach-cluster-")))
    postgres: Postgres | None = None
    running: list[Server] = field(default_factory=list)
    balancer: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The site through the balancer, as this machine reaches it."""
        return f"http://127.0.0.1:{self.port}{self.path}"

    @property
    def public(self) -> str:
        return check_public_url(self.public_url or self.url)

    @property
    def store(self) -> str:
        assert self.store_url or self.postgres is not None
        return self.store_url or self.postgres.url  # type: ignore[union-attr]

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> Cluster:
        if haproxy_binary() is None:
            raise FileNotFoundError("haproxy fehlt (Debians Paket haproxy; make haproxy)")
        if not self.store_url:
            self.postgres = start_postgres()
        for _ in range(self.servers):
            self._start_server()
        self._wait_healthy(self.running)
        self._write_config()
        binary = haproxy_binary()
        # master-worker (-W): SIGUSR2 reloads the configuration; the old worker keeps the
        # open websockets until they close
        self.balancer = subprocess.Popen(
            [binary, "-W", "-db", "-f", str(self.folder / "haproxy.cfg")],  # type: ignore[list-item]
            stdin=subprocess.DEVNULL, stdout=open(self.folder / "haproxy.log", "wb"),
            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while answers(self.url) != 200:
            if self.balancer.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("HAProxy antwortet nicht:\n" + self._tail(self.folder / "haproxy.log"))
            time.sleep(0.3)
        return self

    def _start_server(self) -> Server:
        name = f"s{len(self.running) + 1}"
        port = self.port + len(self.running) + 1
        log = self.folder / f"{name}.log"
        root = site_dir()
        command = build_voila_command(port, public=False, root=root, pools=self.pools,
                                      public_url=self.public, trusted_proxies=[BALANCER_SOURCE])
        env = voila_env({**os.environ, **self.env, "BOHNTEACH_KLASSEN_DB": self.store})
        with open(log, "wb") as out:
            process = subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        server = Server(name, port, process, log)
        self.running.append(server)
        return server

    def health_url(self, server: Server) -> str:
        return f"http://{server.address}{self.path}{HEALTH_PATH}"

    def _wait_healthy(self, servers: Sequence[Server]) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        for server in servers:
            while answers(self.health_url(server)) != 200:
                if server.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"Server {server.name} ist nicht bereit:\n{self._tail(server.log)}")
                time.sleep(0.3)

    def _write_config(self) -> None:
        text = render_haproxy(self.path, [(s.name, s.address) for s in self.running],
                              f"127.0.0.1:{self.port}", source=BALANCER_SOURCE)
        (self.folder / "haproxy.cfg").write_text(text)

    def add_server(self) -> Server:
        """One more server: started, healthy, then the balancer reloads its configuration
        (visitors of the others keep their server and their open websockets)."""
        server = self._start_server()
        self._wait_healthy([server])
        self._write_config()
        assert self.balancer is not None
        os.kill(self.balancer.pid, signal.SIGUSR2)
        return server

    def kill(self, server: Server) -> None:
        """The server and its kernels die at once (SIGKILL), as in a crash."""
        try:
            os.killpg(server.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        server.process.wait(timeout=30)

    def stop(self) -> None:
        if self.balancer is not None:
            stop_group(self.balancer, grace=5.0)
        for server in self.running:
            stop_group(server.process)
        if self.postgres is not None:
            stop_postgres(self.postgres)
            self.postgres = None
        shutil.rmtree(self.folder, ignore_errors=True)

    @staticmethod
    def _tail(log: Path, lines: int = 30) -> str:
        try:
            return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def cluster_main(servers: int, port: int, path: str, public_url: str | None = None,
                 store_url: str | None = None, preheated: int = 0) -> int:
    """``bohnteach cluster``: start everything, print the address, wait for Ctrl-C."""
    if servers < 1:
        print("Abbruch: mindestens ein Server (--server 1 oder mehr).", file=sys.stderr)
        return 2
    if not path.startswith("/"):
        path = "/" + path
    path = path if path.endswith("/") else path + "/"
    pools = {APP_PAGE: preheated} if preheated > 0 else None
    cluster = Cluster(port=port, servers=servers, path=path, public_url=public_url,
                      store_url=store_url, pools=pools)
    stopping = False

    def end(*_: object) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, end)
    try:
        print(f"Starte PostgreSQL, {servers} Server und HAProxy (Ordner {cluster.folder}) …", flush=True)
        with cluster:
            print(f"Bohnanza-Lernseite hinter HAProxy: {cluster.url}", flush=True)
            for server in cluster.running:
                print(f"  Server {server.name}: http://{server.address}{path} (Protokoll {server.log})",
                      flush=True)
            print(f"  Klassenraum-Speicher: {cluster.store}", flush=True)
            print("Beenden mit Strg-C.", flush=True)
            while all(s.process.poll() is None for s in cluster.running) and cluster.balancer.poll() is None:  # type: ignore[union-attr]
                time.sleep(1)
            print("Ein Teil ist ausgefallen; alles wird beendet.", file=sys.stderr, flush=True)
            return 1
    except KeyboardInterrupt:
        print("Beendet.", flush=True)
        return 0
    except (FileNotFoundError, RuntimeError) as err:
        print(f"Abbruch: {err}", file=sys.stderr, flush=True)
        return 2


def _haproxy_command(argv: Sequence[str] | None = None) -> int:
    """``python -m bohnteach.site.cluster haproxy``: print a configuration (docs/operations.md)."""
    parser = argparse.ArgumentParser(prog="python -m bohnteach.site.cluster haproxy",
                                     description="HAProxy-Konfiguration für mehrere bohnteach-Server")
    parser.add_argument("--pfad", dest="path", default="/bohnanza/")
    parser.add_argument("--bind", default=":80", help="z. B. :80 oder ':443 ssl crt /etc/haproxy/site.pem'")
    parser.add_argument("--server", dest="servers", action="append", required=True, metavar="HOST:PORT")
    parser.add_argument("--https", action="store_true", help="das Cookie nur über HTTPS senden")
    args = parser.parse_args(argv)
    text = render_haproxy(args.path, [(f"s{i}", a) for i, a in enumerate(args.servers, 1)],
                          args.bind, secure_cookie=args.https)
    print(text, end="")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["haproxy"]:
        sys.exit(_haproxy_command(sys.argv[2:]))
    print("Aufruf: python -m bohnteach.site.cluster haproxy --server HOST:PORT …", file=sys.stderr)
    sys.exit(2)
