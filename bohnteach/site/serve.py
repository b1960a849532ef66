"""``bohnteach serve``: the explainer site as a Voilà server.

:func:`build_voila_command` is the single description of how the site is started; the
CLI, the test fixtures and the benchmarks all use it.  The command runs this module
(``python -m bohnteach.site.serve``), which puts the package's Voilà template on the Jupyter
path and then hands over to Voilà.
"""
from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bohnteach.site.addresses import (
    APP_PAGE,
    LESSONS_FOLDER,
    PAGES_FOLDER,
    START_PAGE,
    notebook_key,
    page_path,
)
from bohnteach.site.admission import KernelSlots
from bohnteach.site.forking import PROVISIONER

TEMPLATE = "bohnteach"
#: Seconds a visitor's kernel may sit idle (no execution) before it is shut down.
CULL_IDLE_TIMEOUT = 300
#: Seconds between two checks for idle kernels.
CULL_INTERVAL = 60
#: Seconds Voilà waits for a cell's remaining output after it finished executing.
IOPUB_TIMEOUT = 30
#: Pages prepared at once for visitors who get no preheated kernel (one per core: more
#: only share the cores, and everyone waits longer); the others wait in line and see a
#: queue page (:mod:`bohnteach.site.admission`).
KERNEL_STARTS = os.cpu_count() or 2
#: Seconds without a page request before a taken preheated kernel is replaced (one at a
#: time): refilled at once, a class of 30 taking a page's pool started 30 kernels on the
#: two cores while the class was still loading, and everyone waited for them.
REFILL_QUIET = 5.0
#: A refill holds its kernel slot until its page has run (see :func:`_until_page_ran`):
#: the kernel idle for this many seconds counts as done, and so do these many at most.
REFILL_SETTLE = 1.0
REFILL_HOLD = 60.0
#: Preheated kernels per page unless :func:`build_voila_command` is given other ``pools``.
POOL_SIZE = 1
#: Preheated kernels of the app, where every visitor enters (``pools`` may say otherwise):
#: a class arriving together takes these at once and the rest wait in line (30 visitors
#: at once on two cores: the first page's median 17 s, max 41 s with ten, 7 s / 15 s with
#: thirty; ``benchmarks/README.md``). About 65 MB each.
APP_POOL_SIZE = 10
#: Our own options on the server's command line; ``python -m bohnteach.site.serve`` takes
#: them off before Voilà parses the rest (:func:`_split_options`).
KERNEL_STARTS_OPTION = "--bohnteach-kernel-starts"
#: The request header that carries the visitor's address to the kernel: set by the server
#: from the connection (:func:`bohnteach.upstream.voila.install_queue_handler`), replacing whatever the
#: browser sent; Voilà passes it on as ``HTTP_X_BOHNTEACH_CLIENT`` (the class store counts
#: wrong codes per address: :mod:`bohnteach.classroom.store`). Behind a balancer the
#: connection is the balancer's: the visitor's address is taken from ``X-Forwarded-For``
#: only when the connection comes from a configured proxy (:func:`client_address`).
CLIENT_HEADER = "X-Bohnteach-Client"
POOL_OPTION = "--bohnteach-pool"
#: A proxy (address or network) whose ``X-Forwarded-For`` is believed; may be repeated.
TRUSTED_PROXY_OPTION = "--bohnteach-trusted-proxy"
#: The site's public address (``https://schule.example/bohnanza/``): the pupil link names
#: it, and its path is the server's base path (Voilà's ``base_url``).
PUBLIC_URL_OPTION = "--bohnteach-public-url"
#: The health address under the base path: 200 when this server can hand out a kernel and
#: reach its class store, 503 otherwise (the balancer's check; :func:`health`).
HEALTH_PATH = "bohnteach/gesund"
#: Seconds the health check waits for the class store's answer.
HEALTH_STORE_TIMEOUT = 3.0
#: Set by :func:`serve_main` for the server it starts: the adapters' self-checks
#: (:mod:`bohnteach.upstream`) have passed in this environment already.
CHECKED_ENV = "BOHNTEACH_UPSTREAM_CHECKED"

#: The only messages a visitor's browser may send to its kernel over the websocket: what
#: the widgets need (kernel info, comms). jupyter_server drops every other type with a
#: warning in the log ("Received message of type ..., which is not allowed"), above all
#: ``execute_request`` - a visitor runs no code of their own; also ``inspect``/``complete``/
#: ``history``/``is_complete``, ``debug_request`` and ``shutdown_request``. Voilà itself
#: executes the page over ZeroMQ, not over this websocket. Voilà 0.5 passes a similar
#: list of its own (with ``shutdown_request``) to its kernel manager; serve.py replaces it
#: with this one (:func:`bohnteach.upstream.voila.install_kernel_manager`), so the rule is ours and
#: stays if Voilà changes.
VISITOR_MESSAGE_TYPES = (
    "kernel_info_request",
    "comm_info_request",
    "comm_open",
    "comm_msg",
    "comm_close",
)

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
_JUPYTER_DATA = Path(__file__).resolve().parent / "jupyter"
#: bohnteach's chart renderer, a JupyterLab extension that Voilà finds through ``JUPYTER_PATH``
#: (:func:`voila_env`); it stands in for jupyterlab-plotly's (:func:`build_voila_command`).
CHARTS_EXTENSION = _JUPYTER_DATA / "labextensions" / "bohnteach-charts"
#: The app's router (links in the tab, Back/Forward, titles; ``bohnteach.site.app``); it also
#: keeps MathJax from starting on a page without a formula.
APP_EXTENSION = _JUPYTER_DATA / "labextensions" / "bohnteach-app"


def site_dir() -> Path:
    """The folder Voilà serves: ``notebooks/`` (the site's pages) and ``tutorials/``
    (the lessons) side by side, so pages can link to each other relatively.

    A wheel ships both under ``bohnteach/_site``; an editable install or a source
    checkout gets a folder that mirrors the repository's two folders with symlinks
    (serving the repository itself would also list tests and benchmarks).
    """
    shipped = _PACKAGE_DIR / "_site"
    if (shipped / PAGES_FOLDER / START_PAGE).is_file():
        return shipped
    repo = _PACKAGE_DIR.parent
    if (repo / PAGES_FOLDER / START_PAGE).is_file():
        return _linked_root(repo)
    raise FileNotFoundError(
        f"Keine Seiten gefunden: weder {shipped / PAGES_FOLDER} noch {repo / PAGES_FOLDER} "
        f"enthält {START_PAGE}."
    )


def _linked_root(repo: Path) -> Path:
    """``$TMP/bohnteach-site-<hash>/{notebooks,tutorials}/``: real folders holding one
    symlink per entry of the repository's folders.

    Not symlinked folders: Voilà finds the notebooks to preheat with ``Path.rglob``,
    which does not descend into symlinked folders (no page would be preheated).
    Refreshed on every start, so new and deleted pages show up after a restart.
    """
    digest = hashlib.sha1(str(repo).encode()).hexdigest()[:10]
    root = Path(tempfile.gettempdir()) / f"bohnteach-site-{digest}"
    for name in (PAGES_FOLDER, LESSONS_FOLDER):
        folder, source = root / name, (repo / name).resolve()
        if folder.is_symlink():  # a root left with one link per folder: make it a real folder
            folder.unlink()
        folder.mkdir(parents=True, exist_ok=True)
        wanted = {}
        if source.is_dir():
            wanted = {e.name: e for e in source.iterdir() if not e.name.startswith(".")}
        for link in folder.iterdir():
            target = wanted.get(link.name)
            if link.is_symlink() and target is not None and link.resolve() == target.resolve():
                del wanted[link.name]
            elif link.is_symlink() or link.is_file():
                link.unlink(missing_ok=True)
        for entry_name, target in wanted.items():
            try:
                (folder / entry_name).symlink_to(target, target_is_directory=target.is_dir())
            except FileExistsError:  # another process made it at the same moment
                pass
    return root


def start_url(port: int, host: str = "127.0.0.1") -> str:
    """Full URL of the site: its root, the app on the start page."""
    return f"http://{host}:{port}/"


def check_public_url(url: str) -> str:
    """``--oeffentliche-adresse``: an ``http(s)://host[:port]/path/`` address without user,
    password, query or fragment (the pupil link and the QR code show it to everybody);
    returned with a final ``/``. Raises ``ValueError`` with a German message otherwise."""
    text = str(url or "").strip()
    parts = urlsplit(text)
    problem = None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        problem = "erwartet wird http://… oder https://… mit einem Rechnernamen"
    elif parts.username is not None or parts.password is not None:
        problem = "Benutzer und Passwort gehören nicht in die Adresse (jeder sieht sie)"
    elif parts.query or parts.fragment or "?" in text or "#" in text:
        problem = "ohne ?… und #…"
    elif any(c in text for c in " \"<>'\\"):
        problem = "Leerzeichen und Anführungszeichen sind nicht erlaubt"
    else:
        try:
            parts.port  # noqa: B018 - raises for a port that is no number
        except ValueError:
            problem = "der Port ist keine Zahl"
    if problem:
        raise ValueError(f"„{text}“ ist keine öffentliche Adresse: {problem}, "
                         "z. B. https://schule.example/bohnanza/")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def base_path(public_url: str | None) -> str:
    """The server's base path: the public address's path (``/bohnanza/``), else ``/``."""
    return urlsplit(check_public_url(public_url)).path if public_url else "/"


def _networks(proxies: Sequence[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(str(p).strip(), strict=False) for p in proxies]


def check_proxy(text: str) -> str:
    """``--vertrauter-proxy``: an IP address or network; ``ValueError`` (German) otherwise."""
    try:
        _networks([text])
    except ValueError:
        raise ValueError(f"„{text}“ ist keine IP-Adresse und kein Netz (z. B. 10.0.0.5 oder "
                         "10.0.0.0/24)") from None
    return str(text).strip()


def _in(address: str, networks: Sequence[Any]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def client_address(remote_ip: str, forwarded_for: str | None, trusted: Sequence[str]) -> str:
    """The visitor's address: the connection's, unless that is a trusted proxy; then the
    rightmost address of ``X-Forwarded-For`` that is not a trusted proxy itself (what the
    proxy appended; entries further left came from the browser and may be forged)."""
    networks = _networks(trusted)
    address = remote_ip or ""
    if not networks or not _in(address, networks):
        return address
    for entry in reversed([e.strip() for e in (forwarded_for or "").split(",")]):
        try:
            ipaddress.ip_address(entry)
        except ValueError:
            return address  # a garbled chain: believe none of it
        if not _in(entry, networks):
            return entry
    return address


def build_voila_command(
    port: int,
    public: bool,
    root: Path | str | None = None,
    pools: Mapping[str, int] | None = None,
    kernel_starts: int = KERNEL_STARTS,
    public_url: str | None = None,
    trusted_proxies: Sequence[str] = (),
) -> list[str]:
    """The command line that serves the folder ``root`` (default: :func:`site_dir`).

    Binds 127.0.0.1, or 0.0.0.0 when ``public``; preheats :data:`APP_POOL_SIZE` kernels of
    the app and :data:`POOL_SIZE` of every other page, or as many as ``pools`` names for a
    page (``{APP_PAGE: 30}``: a class arriving together); prepares at most
    ``kernel_starts`` pages at once for visitors without a preheated kernel, the others
    wait in line; hides tracebacks,
    culls idle kernels and never opens a browser.  Kernels start in ``root``.
    ``public_url``: the address visitors use (its path becomes the base path, the pupil
    link names it); ``trusted_proxies``: whose ``X-Forwarded-For`` names the visitor
    (:func:`client_address`).
    Visitors may send only :data:`VISITOR_MESSAGE_TYPES` to their kernels (set up by
    ``python -m bohnteach.site.serve`` itself, see :func:`_run_voila`).
    """
    root_path = Path(root if root is not None else site_dir()).resolve()
    ours = [f"{KERNEL_STARTS_OPTION}={int(kernel_starts)}"]
    sizes = {notebook_key(APP_PAGE): APP_POOL_SIZE}
    sizes.update({notebook_key(page): int(size) for page, size in (pools or {}).items()})
    ours += [f"{POOL_OPTION}={notebook}={size}" for notebook, size in sizes.items()]
    ours += [f"{TRUSTED_PROXY_OPTION}={check_proxy(proxy)}" for proxy in trusted_proxies]
    base = "/"
    if public_url:
        ours.append(f"{PUBLIC_URL_OPTION}={check_public_url(public_url)}")
        base = base_path(public_url)
    return [
        sys.executable,
        "-m",
        "bohnteach.site.serve",
        str(root_path),
        f"--port={port}",
        f"--Voila.ip={'0.0.0.0' if public else '127.0.0.1'}",
        "--Voila.port_retries=0",
        *([f"--Voila.base_url={base}"] if base != "/" else []),
        "--no-browser",
        f"--template={TEMPLATE}",
        "--preheat_kernel=True",
        f"--pool_size={POOL_SIZE}",
        "--show_tracebacks=False",
        f"--MappingKernelManager.root_dir={root_path}",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
        # nbclient waits only 4 s for a cell's late output by default; on a busy server a
        # page then silently lost its widgets ("Timeout waiting for IOPub output").
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        # Unix sockets instead of random TCP ports: with every page preheated at once, two
        # kernels could draw the same port ("Address already in use") and a page hung.
        "--KernelManager.transport=ipc",
        # Kernels forked from a Python that has imported the site (bohnteach/site/forking.py):
        # a fresh kernel costs 0.2 instead of 0.7 CPU s and shares the modules' memory.
        f"--KernelProvisionerFactory.default_provisioner_name={PROVISIONER}",
        # The [static] extra (bohnteach build-static) installs JupyterLite's in-browser
        # kernel as a JupyterLab extension; Voilà would load it into every page, where
        # its plugins fail to start (console errors). It belongs to the static site only.
        # jupyterlab-plotly's renderer is replaced by ours (labextensions/bohnteach-charts
        # beside the template): Voilà would fetch its 4.8 MB file on every page.
        # Notebook 7's extension (a server with Notebook beside the site) is Notebook's own
        # interface; its plugins fail on a Voilà page ("The getter for the shared module is
        # not a function").
        *(f"--VoilaConfiguration.extension_denylist={name}"
          for name in ("@jupyterlite/pyodide-kernel-extension", "jupyterlab-plotly",
                       "@jupyter-notebook/lab-extension")),
        f"--VoilaConfiguration.http_header_envs={CLIENT_HEADER}",
        *ours,
    ]


#: Settings of the Voilà app that its command line cannot say without a deprecation
#: warning (a nested dict): :func:`_run_voila` hands them to the app.
VOILA_SETTINGS: dict[str, Any] = {
    # traitlets leaves the app's logger at DEBUG (only its handler filters): each of the
    # kernel manager's debug lines, one per kernel message, made a record to drop.
    # The contents manager checks every notebook it reads for a trust signature (kept per
    # user on the server); the site's own notebooks have none and Voilà renders every
    # output as trusted anyway (its exporter's ``trusted`` filter), so its warning
    # "Notebook … is not trusted" (one per notebook and preheat) says nothing: dropped.
    "logging_config": {
        "filters": {"untrusted": {"()": "bohnteach.upstream.jupyter.NotTrustedFilter"}},
        "loggers": {"Voila": {"level": "INFO", "filters": ["untrusted"]}},
    },
}


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for the Voilà process: our template dir first on ``JUPYTER_PATH``."""
    env = dict(os.environ if base is None else base)
    paths = [str(_JUPYTER_DATA)] + [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    env["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def serve_main(port: int, public: bool, pools: Mapping[str, int] | None = None,
               footer_env: dict[str, str] | None = None, public_url: str | None = None,
               trusted_proxies: Sequence[str] = ()) -> int:
    """Run the site in a child process until it ends; returns its exit code.
    ``pools``: preheated kernels per page, ``public_url`` and ``trusted_proxies``: behind
    a balancer (see :func:`build_voila_command`).

    ``footer_env``: the publisher's footer links (:func:`bohnteach.site.publish.footer_env`).
    Ctrl-C reaches the child directly (same process group); a SIGTERM sent to this
    process is passed on, so Voilà can shut its kernels down.
    """
    from bohnteach.upstream import SERVE

    # in a process of its own: the checks import Voilà and the Jupyter server (110 MB that
    # this waiting process would otherwise hold as long as the site runs)
    check = subprocess.run([sys.executable, "-m", "bohnteach.upstream", "--refusal", *SERVE],
                           capture_output=True, text=True)
    if check.returncode != 0:
        why = (check.stderr.strip().splitlines() or ["?"])[-1]
        print(check.stdout.strip() or f"Abbruch – Selbstprüfung gescheitert: {why}", file=sys.stderr, flush=True)
        return 2
    root = site_dir()
    cmd = build_voila_command(port, public, root, pools=pools, public_url=public_url,
                              trusted_proxies=trusted_proxies)
    print(f"Bohnanza-Lernseite: {start_url(port)}{base_path(public_url)[1:]}", flush=True)
    if public_url:
        print(f"Öffentliche Adresse (Schüler-Link): {check_public_url(public_url)}", flush=True)
    if public:
        print(f"Auf allen Netzwerkschnittstellen erreichbar (Port {port}).", flush=True)
    proc = subprocess.Popen(cmd, cwd=root, env={**os.environ, **(footer_env or {}), CHECKED_ENV: "1"})
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # the child got the same SIGINT and is shutting down


def _split_options(argv: Sequence[str]) -> tuple[list[str], int, dict[str, int]]:
    """``argv`` without our options, the kernel-start limit and the pool sizes
    (notebook key → kernels) they gave."""
    rest, kernel_starts, pools = [], KERNEL_STARTS, {}
    for arg in argv:
        name, _, value = arg.partition("=")
        if name == KERNEL_STARTS_OPTION:
            kernel_starts = int(value)
        elif name == POOL_OPTION:
            notebook, _, size = value.rpartition("=")
            pools[notebook] = int(size)
        else:
            rest.append(arg)
    return rest, kernel_starts, pools


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time used so far by process ``pid`` (Linux ``/proc``), or None if unknown."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _until_page_ran(render: asyncio.Task, pid: int | None) -> None:
    """Wait until a preheated kernel's page has run: its rendering is done, or the kernel
    (process ``pid``) used no CPU for :data:`REFILL_SETTLE` s — a lesson's last cell waits
    for the visitor's address (``teacher_mode_from_url``), so its rendering ends only when
    a visitor takes the kernel — and at most :data:`REFILL_HOLD` s."""
    deadline = time.monotonic() + REFILL_HOLD
    used = _cpu_seconds(pid)
    while not render.done() and time.monotonic() < deadline:
        await asyncio.wait({render}, timeout=REFILL_SETTLE)
        now = _cpu_seconds(pid)
        if now is not None and now == used:
            return
        used = now


def _split_deploy_options(argv: Sequence[str]) -> tuple[list[str], list[str], str | None]:
    """``argv`` without the trusted proxies and the public address; those two."""
    rest, proxies, public_url = [], [], None
    for arg in argv:
        name, _, value = arg.partition("=")
        if name == TRUSTED_PROXY_OPTION:
            proxies.append(value)
        elif name == PUBLIC_URL_OPTION:
            public_url = value
        else:
            rest.append(arg)
    return rest, proxies, public_url


def _store_answers() -> bool:
    """True when the class store (if one is configured) answers a query."""
    from bohnteach.classroom.store import store_from_env

    try:
        store = store_from_env()
        return store is None or store.ping()
    except Exception:  # noqa: BLE001 - any failure to reach it is the answer
        return False


async def health(kernel_manager: Any) -> tuple[int, str]:
    """The health address's answer: ``(200, "gesund")`` when the app has a preheated kernel
    to hand out (or one on its way, none failed) and the class store answers within
    :data:`HEALTH_STORE_TIMEOUT`; otherwise 503 and what is missing, in two words (nothing
    of the server's insides)."""
    from bohnteach.upstream.voila import pool_counts

    missing = []
    started, starting, failed = pool_counts(kernel_manager, notebook_key(APP_PAGE))
    if not started and (failed or not starting):  # nothing to hand out, nothing coming
        missing.append("Kernel")
    try:
        store = await asyncio.wait_for(asyncio.to_thread(_store_answers), HEALTH_STORE_TIMEOUT)
    except asyncio.TimeoutError:
        store = False
    if not store:
        missing.append("Klassenraum-Speicher")
    if missing:
        return 503, "nicht bereit: " + ", ".join(missing) + "\n"
    return 200, "gesund\n"


def _run_voila(argv: Sequence[str]) -> int:
    """Start Voilà in this process with our template on the Jupyter path, after the
    adapters' self-checks (:mod:`bohnteach.upstream`) and with the site's patches of Voilà
    and the Jupyter server (:mod:`bohnteach.upstream.voila`, :mod:`bohnteach.upstream.jupyter`)."""
    from bohnteach.upstream import SERVE, refusal

    os.environ.update(voila_env())
    if os.environ.pop(CHECKED_ENV, "") != "1" and (line := refusal(SERVE)) is not None:
        print(line, file=sys.stderr, flush=True)
        return 2
    from bohnteach.site.admission import queue_end, queue_place, queue_start_for
    from bohnteach.site.publish import install
    from bohnteach.upstream import jupyter, voila

    argv, kernel_starts, pools = _split_options(argv)
    argv, proxies, public_url = _split_deploy_options(argv)
    if public_url:  # the kernels' pupil links and QR codes name it
        from bohnteach.widgets.classroom import PUBLIC_URL_ENV

        os.environ[PUBLIC_URL_ENV] = public_url
    jupyter.poll_kernel_channels()
    jupyter.share_compiled_templates()
    jupyter.read_only_header_dates()
    install()  # German start, 404, titles and footer
    slots = KernelSlots(kernel_starts)
    voila.install_kernel_manager(message_types=VISITOR_MESSAGE_TYPES, pools=pools,
                                 default_pool_size=POOL_SIZE, slots=slots, quiet=REFILL_QUIET,
                                 until_page_ran=_until_page_ran)
    voila.install_queue_handler(slots, client_header=CLIENT_HEADER, queue_start=queue_start_for,
                                queue_place=queue_place, queue_end=queue_end,
                                client=lambda ip, headers: client_address(
                                    ip, headers.get("X-Forwarded-For"), proxies))
    voila.install_health_route(HEALTH_PATH, health)
    from voila.app import Voila

    sys.argv = ["voila", *argv]
    return int(Voila.launch_instance(argv, **VOILA_SETTINGS) or 0)


if __name__ == "__main__":
    sys.exit(_run_voila(sys.argv[1:]))
