"""Kernels forked from a warm Python: a visitor's kernel starts with the site imported.

A fresh kernel used to start a Python, import ipykernel, IPython, ipywidgets, plotly and
the site, and parse every scene file before it could show a page: about 0.5 of its 0.7 CPU
seconds, the same work in every kernel. The *fork server* does that work once: a process
the Voilà server starts beside itself (``python -m bohnteach.site.forking SOCKET``) that
imports every module a page can import (:func:`bohnteach.site.reach.reached_modules`),
fills the caches the static site's snapshot fills too (``snapshot.WARM``), freezes its
objects for the garbage collector (so a child does not write to, and thereby copy, their
memory pages) and waits. For each kernel it forks; the child becomes an ipykernel with the
kernel manager's connection file, environment and working folder. Kernels share the
imported modules' memory with the fork server until they write to it.

:class:`ForkingProvisioner` is the Jupyter kernel provisioner (``jupyter_client``'s plug-in
point for how a kernel process starts; ``bohnteach serve`` names it) that asks the fork
server instead of starting ``python -m ipykernel_launcher``. It keeps the kernel manager's
contract: signals, kill and poll reach the kernel by its pid (its own process group), and
when the fork server cannot be reached — not started, failed, or asked for another
interpreter's kernel — it starts the kernel the normal way and logs one line saying why.

Why not ``multiprocessing``'s forkserver: it runs functions, not programs with their own
sockets, environment and process group that a kernel manager can signal and kill.
"""
from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import importlib
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from jupyter_client.provisioning import LocalProvisioner

from bohnteach.upstream.jupyter import adopt_process

log = logging.getLogger("bohnteach.site.forking")

#: The provisioner's name (the entry point ``jupyter_client.kernel_provisioners`` in
#: pyproject.toml; ``serve.build_voila_command`` makes it the default).
PROVISIONER = "bohnteach-fork"
#: The module a kernelspec's argv runs; only such kernels of this interpreter are forked.
LAUNCHER = "ipykernel_launcher"
#: Seconds a kernel start waits for the fork server to be ready (it imports for ~1–3 s;
#: on a busy machine longer) before the kernel starts the normal way.
READY_TIMEOUT = 60.0
#: Seconds the fork server waits for a request's line before it drops the connection.
REQUEST_TIMEOUT = 5.0
#: Seconds between the fork server's checks that the Voilà server (its parent) still runs.
PARENT_CHECK = 1.0


# ---- the fork server ------------------------------------------------------------------------
def site_modules() -> list[str]:
    """Every module the app or one of its pages (chapters, lessons) can import, sorted."""
    from bohnteach.site.app import APP_NOTEBOOK, entries
    from bohnteach.site.pages import notebooks_dir
    from bohnteach.site.reach import notebook_sources, reached_modules

    modules: set[str] = set()
    for notebook in [notebooks_dir() / APP_NOTEBOOK, *(e.path for e in entries())]:
        modules |= reached_modules(notebook_sources(notebook))
    return sorted(modules)


def warm_up() -> dict[str, Any]:
    """Import what a kernel and every page need and fill ``snapshot.WARM``'s caches;
    returns what was done (``imported``, ``skipped`` with the reason)."""
    from bohnteach.site.snapshot import WARM

    os.environ.setdefault("PLOTLY_RENDERER", PLOTLY_RENDERER)
    imported, skipped = [], {}
    for name in ["ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
                 *site_modules()]:
        try:
            importlib.import_module(name)
            imported.append(name)
        except Exception as error:  # noqa: BLE001 - e.g. a browser-only module: the kernel imports it if ever
            skipped[name] = f"{type(error).__name__}: {error}"
    for target in WARM:
        module, function = target.split(":")
        getattr(importlib.import_module(module), function)()
    return {"imported": imported, "skipped": skipped}


#: What modules decide at import when they find a kernel – the fork server imported them
#: without one. Plotly picks its renderer then (in an ipykernel: ``plotly_mimetype``; outside
#: one it would pick ``browser`` and open a browser on the server); set before the import.
PLOTLY_RENDERER = "plotly_mimetype"


def as_imported_in_a_kernel() -> None:
    """In a forked kernel, once its shell exists: do what the warm modules do at import in
    a kernel. ipywidgets registers its comm targets (without ``jupyter.widget.control`` a
    page's widget manager waits 4 s for all widget states, then asks one by one); bohnteach
    registers the ``State`` display (``bohnteach/__init__.py``)."""
    import ipywidgets

    from bohnteach.render.table import show_states_as_tables

    ipywidgets.register_comm_target()
    show_states_as_tables()


def _become_kernel(request: dict[str, Any], *inherited: Any) -> None:
    """In the forked child: become the kernel ``request`` describes; never returns."""
    code = 1
    try:
        for sock in inherited:  # the fork server's sockets are not the kernel's
            sock.close()
        log.handlers.clear()
        os.setsid()  # its own process group: the kernel manager signals it as a group
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # The kernel ends when the fork server does (which ends with the Voilà server).
        # ipykernel read JPY_PARENT_PID when the fork server imported it: say it again.
        args = [*request["args"], f"--IPKernelApp.parent_handle={os.getppid()}"]
        sys.argv = [LAUNCHER, *args]
        import setproctitle  # the [site] extra: the static build imports this module too

        setproctitle.setproctitle(" ".join([sys.executable, "-m", LAUNCHER, *args]))
        from ipykernel.kernelapp import IPKernelApp

        app = IPKernelApp.instance()  # what launch_instance does, with our step in between
        app.initialize(args)
        as_imported_in_a_kernel()
        app.start()
        code = 0
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else 0
    except BaseException:  # noqa: BLE001 - a child must never return into the server's loop
        log.exception("Geforkter Kernel brach ab")
    finally:
        atexit._run_exitfuncs()  # as a kernel that ends normally does (history, stores)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _answer(conn: socket.socket, listener: socket.socket) -> None:
    """Read one request (a JSON line) from ``conn``, fork, and answer the child's pid."""
    conn.settimeout(REQUEST_TIMEOUT)
    with conn, conn.makefile("rwb") as stream:
        request = json.loads(stream.readline())
        pid = os.fork()
        if pid == 0:
            _become_kernel(request, stream, conn, listener)
        stream.write(json.dumps({"pid": pid}).encode() + b"\n")
        stream.flush()


def serve_forks(path: str) -> None:
    """The fork server: warm up, then fork a kernel per request on the Unix socket ``path``
    until the parent process (the Voilà server) is gone."""
    import setproctitle  # the [site] extra: the static build imports this module too

    parent = os.getppid()
    # setproctitle takes over the memory of argv and the environment on its first call; a
    # child that first empties its environment would find nothing to take over.
    setproctitle.setproctitle(setproctitle.getproctitle())
    warm_up()
    gc.collect()
    gc.freeze()  # the children's collector leaves these objects (and their pages) alone
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ended kernels are reaped by the system
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    listener.listen(64)
    os.rename(path + ".tmp", path)  # the socket appears only once we are ready
    try:
        while os.getppid() == parent:
            ready, _, _ = select.select([listener], [], [], PARENT_CHECK)
            if ready:
                conn, _ = listener.accept()
                try:
                    _answer(conn, listener)
                except (OSError, ValueError, KeyError) as error:
                    log.warning("Kernel-Anfrage nicht ausführbar: %s", error)
    finally:
        _remove_socket(path)


def _remove_socket(path: str) -> None:
    """Remove the fork server's socket and its folder (made for it alone), if still there."""
    for remove, name in ((os.unlink, path), (os.unlink, path + ".tmp"), (os.rmdir, os.path.dirname(path))):
        with contextlib.suppress(OSError):
            remove(name)


# ---- the Voilà server's side ----------------------------------------------------------------
class _Server:
    """The fork server of this process, started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.path = ""

    def command(self) -> list[str]:
        return [sys.executable, "-m", __name__, self.path]

    def start(self) -> None:
        self.path = os.path.join(tempfile.mkdtemp(prefix="bohnteach-fork-"), "socket")
        self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL)
        atexit.register(self.close)  # the Voilà server ends: no fork server, no folder left

    def close(self) -> None:
        """End the fork server (the kernels it forked end with it) and remove its folder.
        A fork server ended by a signal (Ctrl-C reaches the whole process group) cannot
        remove it itself."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(30)
            self.process = None
        if self.path:
            _remove_socket(self.path)

    async def ready(self) -> bool:
        """Whether the fork server answers (started here if it is not running)."""
        if self.process is None:
            self.start()
        deadline = time.monotonic() + READY_TIMEOUT
        while not os.path.exists(self.path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return self.process.poll() is None

    async def fork(self, args: list[str], env: dict[str, str], cwd: str) -> int:
        reader, writer = await asyncio.open_unix_connection(self.path)
        try:
            writer.write(json.dumps({"args": args, "env": env, "cwd": cwd}).encode() + b"\n")
            await writer.drain()
            answer = json.loads(await reader.readline())
        finally:
            writer.close()
        return int(answer["pid"])


_SERVER = _Server()


class ForkedKernel:
    """What the kernel manager holds of a forked kernel: the calls it makes of a ``Popen``.
    The kernel is the fork server's child, so its exit code is not ours to read: ``poll``
    says 0 once the process is gone."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def poll(self) -> int | None:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return 0
        except PermissionError:
            return None
        return None

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.05)
        return code

    def send_signal(self, signum: int) -> None:
        os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def forkable(cmd: list[str]) -> list[str] | None:
    """The kernel's arguments if ``cmd`` starts an ipykernel of this interpreter, else None."""
    if len(cmd) < 3 or cmd[1:3] != ["-m", LAUNCHER]:
        return None
    try:
        same = os.path.samefile(cmd[0], sys.executable)
    except OSError:
        same = False
    return cmd[3:] if same else None


class ForkingProvisioner(LocalProvisioner):  # type: ignore[misc]
    """Start a kernel by a fork of the warm fork server (module docstring); anything else,
    or a fork server that is not there, the normal way."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        args = forkable(cmd)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        if args is None:
            log.info("Kernel %s wird normal gestartet (kein ipykernel dieses Pythons)", cmd[:3])
        elif not await _SERVER.ready():
            log.warning("Fork-Server nicht bereit: Kernel startet normal (langsamer)")
        else:
            try:
                pid = await _SERVER.fork(args, dict(kwargs.get("env") or os.environ), cwd)
            except (OSError, ValueError, KeyError) as error:
                log.warning("Fork-Server antwortet nicht (%s): Kernel startet normal", error)
            else:
                adopt_process(self, ForkedKernel(pid), pid, cwd)
                return self.connection_info
        return await super().launch_kernel(cmd, **kwargs)


if __name__ == "__main__":
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("[bohnteach fork] %(message)s"))
    log.addHandler(_handler)
    log.setLevel(logging.INFO)
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: the kernel adds its folder back itself
    serve_forks(sys.argv[1])
