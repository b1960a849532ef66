"""``bohnteach serve``: the explainer site as a Voilà server.

:func:`build_voila_command` is the single description of how the site is started; the
CLI, the test fixtures and the benchmarks all use it.  The command runs this module
(``python -m bohnteach.site.serve``), which puts the package's Voilà template on the Jupyter
path and then hands over to Voilà.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

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
#: from the connection (:func:`_queue_visitors_who_need_a_kernel`), replacing whatever the
#: browser sent; Voilà passes it on as ``HTTP_X_BOHNTEACH_CLIENT`` (the class store counts
#: wrong codes per address: :mod:`bohnteach.classroom.store`). Behind a reverse proxy every
#: visitor has the proxy's address unless Tornado is told to trust ``X-Forwarded-For``.
CLIENT_HEADER = "X-Bohnteach-Client"
POOL_OPTION = "--bohnteach-pool"

#: The only messages a visitor's browser may send to its kernel over the websocket: what
#: the widgets need (kernel info, comms). jupyter_server drops every other type with a
#: warning in the log ("Received message of type ..., which is not allowed"), above all
#: ``execute_request`` - a visitor runs no code of their own; also ``inspect``/``complete``/
#: ``history``/``is_complete``, ``debug_request`` and ``shutdown_request``. Voilà itself
#: executes the page over ZeroMQ, not over this websocket. Voilà 0.5 passes a similar
#: list of its own (with ``shutdown_request``) to its kernel manager; serve.py replaces it
#: with this one (:func:`_visitors_send_only_widget_messages`), so the rule is ours and
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


def build_voila_command(
    port: int,
    public: bool,
    root: Path | str | None = None,
    pools: Mapping[str, int] | None = None,
    kernel_starts: int = KERNEL_STARTS,
) -> list[str]:
    """The command line that serves the folder ``root`` (default: :func:`site_dir`).

    Binds 127.0.0.1, or 0.0.0.0 when ``public``; preheats :data:`APP_POOL_SIZE` kernels of
    the app and :data:`POOL_SIZE` of every other page, or as many as ``pools`` names for a
    page (``{APP_PAGE: 30}``: a class arriving together); prepares at most
    ``kernel_starts`` pages at once for visitors without a preheated kernel, the others
    wait in line; hides tracebacks,
    culls idle kernels and never opens a browser.  Kernels start in ``root``.
    Visitors may send only :data:`VISITOR_MESSAGE_TYPES` to their kernels (set up by
    ``python -m bohnteach.site.serve`` itself, see :func:`_run_voila`).
    """
    root_path = Path(root if root is not None else site_dir()).resolve()
    ours = [f"{KERNEL_STARTS_OPTION}={int(kernel_starts)}"]
    sizes = {notebook_key(APP_PAGE): APP_POOL_SIZE}
    sizes.update({notebook_key(page): int(size) for page, size in (pools or {}).items()})
    ours += [f"{POOL_OPTION}={notebook}={size}" for notebook, size in sizes.items()]
    return [
        sys.executable,
        "-m",
        "bohnteach.site.serve",
        str(root_path),
        f"--port={port}",
        f"--Voila.ip={'0.0.0.0' if public else '127.0.0.1'}",
        "--Voila.port_retries=0",
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
        "filters": {"untrusted": {"()": "bohnteach.site.serve.NotTrustedFilter"}},
        "loggers": {"Voila": {"level": "INFO", "filters": ["untrusted"]}},
    },
}


class NotTrustedFilter(logging.Filter):
    """Drops jupyter_server's "Notebook %s is not trusted" record (see :data:`VOILA_SETTINGS`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != "Notebook %s is not trusted"


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for the Voilà process: our template dir first on ``JUPYTER_PATH``."""
    env = dict(os.environ if base is None else base)
    paths = [str(_JUPYTER_DATA)] + [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    env["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def serve_main(port: int, public: bool, pools: Mapping[str, int] | None = None,
               footer_env: dict[str, str] | None = None) -> int:
    """Run the site in a child process until it ends; returns its exit code.
    ``pools``: preheated kernels per page (see :func:`build_voila_command`).

    ``footer_env``: the publisher's footer links (:func:`bohnteach.site.publish.footer_env`).
    Ctrl-C reaches the child directly (same process group); a SIGTERM sent to this
    process is passed on, so Voilà can shut its kernels down.
    """
    root = site_dir()
    cmd = build_voila_command(port, public, root, pools=pools)
    print(f"Bohnanza-Lernseite: {start_url(port)}", flush=True)
    if public:
        print(f"Auf allen Netzwerkschnittstellen erreichbar (Port {port}).", flush=True)
    proc = subprocess.Popen(cmd, cwd=root, env={**os.environ, **(footer_env or {})})
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue  # the child got the same SIGINT and is shutting down


def _never_wait_blind_on_kernel_channels() -> None:
    """Make the Voilà process's kernel channels re-check for messages every second.

    Voilà executes a page with nbclient, which waits for the kernel's reply with
    ``shell_channel.get_msg(timeout=None)``.  When a widget ``Output`` captures output,
    nbclient's Output mimic sends ``comm_msg`` on that same shell socket while the wait
    is pending, and the pending poll can then miss the reply's wake-up (nbclient issue
    #312).  Without the fix, about one page load in 30 with a plotly figure inside an
    ``Output`` hangs forever at "Executing 3 of 7" while kernel and server are idle.  A poll
    with a timeout asks the socket again, so waiting in 1-second polls cannot miss it
    (a finite timeout is kept: the polls stop at its deadline).  The tests that execute
    notebooks with nbclient use this too.
    """
    from queue import Empty

    from jupyter_client.channels import AsyncZMQSocketChannel

    get_msg = AsyncZMQSocketChannel.get_msg
    if getattr(get_msg, "_bohnteach", False):
        return

    async def get_msg_polling(self: AsyncZMQSocketChannel, timeout: float | None = None) -> dict:
        if timeout is not None and timeout <= 1.0:
            return await get_msg(self, timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 1.0 if deadline is None else min(1.0, max(0.0, deadline - time.monotonic()))
            try:
                return await get_msg(self, left)
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    get_msg_polling._bohnteach = True  # type: ignore[attr-defined]
    AsyncZMQSocketChannel.get_msg = get_msg_polling  # type: ignore[method-assign]


def _read_only_the_header_date() -> None:
    """Make the server's reading of kernel messages read just the headers' ``date``.

    The server reads every message of every kernel at least twice (to record activity for
    the culler, to relay it to the browser); jupyter_client's ``Session.deserialize`` runs
    ``extract_dates`` over header and parent header, which tries every string value as an
    ISO 8601 date and parses the ``date`` with dateutil: half of the server's CPU in
    reading messages, which a chapter switch sends hundreds of. In the message protocol
    only ``date`` is a date; :meth:`datetime.fromisoformat` reads it (a date without a time
    zone, or one it cannot read, as before).
    """
    from jupyter_client import jsonutil, session

    if getattr(session.extract_dates, "_bohnteach", False):
        return

    def header_dates(header: Any) -> Any:
        if isinstance(header, dict) and isinstance(header.get("date"), str):
            header = dict(header)
            try:
                date: Any = datetime.fromisoformat(header["date"])
            except ValueError:
                date = None
            header["date"] = date if date and date.tzinfo else jsonutil.parse_date(header["date"])
        return header

    header_dates._bohnteach = True  # type: ignore[attr-defined]
    session.extract_dates = header_dates  # type: ignore[attr-defined]


def _compile_each_template_once() -> None:
    """Let every page render share the Jinja templates compiled once in this process.

    Voilà makes a new nbconvert exporter for every page it renders, and each exporter a new
    Jinja environment, which compiles its templates again: 0.4-0.5 CPU s of the server per
    page, more than half of what the server spends on a visit. Jinja's bytecode cache is
    the documented way to reuse compiled templates across environments; it checks each
    template's source (a changed file is compiled anew). Keyed also by ``is_async``: the
    code of an async environment differs from a sync one's.
    """
    from jinja2 import BytecodeCache
    from jinja2.bccache import Bucket
    from nbconvert.exporters.templateexporter import TemplateExporter

    create = TemplateExporter._create_environment
    if getattr(create, "_bohnteach", False):
        return

    class InMemory(BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, bytes] = {}

        def get_bucket(self, environment: Any, name: str, filename: str | None, source: str) -> Bucket:
            return super().get_bucket(environment, f"{name}\0{environment.is_async}", filename, source)

        def load_bytecode(self, bucket: Bucket) -> None:
            if bucket.key in self.code:
                bucket.bytecode_from_string(self.code[bucket.key])

        def dump_bytecode(self, bucket: Bucket) -> None:
            self.code[bucket.key] = bucket.bytecode_to_string()

    shared = InMemory()

    def create_sharing(self: TemplateExporter) -> Any:
        environment = create(self)
        environment.bytecode_cache = shared
        return environment

    create_sharing._bohnteach = True  # type: ignore[attr-defined]
    TemplateExporter._create_environment = create_sharing  # type: ignore[method-assign]


def _restart_idle_clock_of_handed_out_kernels() -> None:
    """Restart a preheated kernel's idle clock when Voilà hands it to a visitor.

    Voilà keeps kernels in its pool safe from the culler, but a kernel taken from the
    pool has often been idle longer than ``CULL_IDLE_TIMEOUT`` already; until the
    visitor's browser connects, the next cull round shuts it down.  Seen in a test run:
    "Using pre-heated kernel …" directly followed by "Culling 'idle' kernel …" for the
    same kernel — the visitor got a page whose widgets could not reach their kernel.
    """
    from jupyter_server._tz import utcnow
    from voila import app as voila_app

    make_manager_class = voila_app.voila_kernel_manager_factory
    if getattr(make_manager_class, "_bohnteach", False):
        return

    def manager_class(*args: object, **kwargs: object) -> type:
        base = make_manager_class(*args, **kwargs)
        if not hasattr(base, "get_rendered_notebook"):  # preheating is off
            return base

        class FreshClockKernelManager(base):  # type: ignore[misc, valid-type]
            async def get_rendered_notebook(self, *a: object, **kw: object) -> tuple:  # type: ignore[override]
                result = await super().get_rendered_notebook(*a, **kw)
                kernel = self._kernels.get(result[2])
                if kernel is not None:
                    kernel.last_activity = utcnow()
                return result

        return FreshClockKernelManager

    manager_class._bohnteach = True  # type: ignore[attr-defined]
    voila_app.voila_kernel_manager_factory = manager_class


def _visitors_send_only_widget_messages() -> None:
    """Give Voilà's kernel manager :data:`VISITOR_MESSAGE_TYPES` as its
    ``allowed_message_types`` (Voilà passes its own list as a constructor argument, which
    a command-line option cannot override)."""
    from voila import app as voila_app

    make_manager_class = voila_app.voila_kernel_manager_factory
    if getattr(make_manager_class, "_bohnteach_messages", False):
        return

    def manager_class(*args: object, **kwargs: object) -> type:
        base = make_manager_class(*args, **kwargs)

        class WidgetMessagesOnlyKernelManager(base):  # type: ignore[misc, valid-type]
            def __init__(self, **options: object) -> None:
                options["allowed_message_types"] = list(VISITOR_MESSAGE_TYPES)
                super().__init__(**options)

        return WidgetMessagesOnlyKernelManager

    manager_class._bohnteach_messages = True  # type: ignore[attr-defined]
    voila_app.voila_kernel_manager_factory = manager_class


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


def _preheat_pools(pools: Mapping[str, int]) -> None:
    """Preheat ``pools[notebook]`` kernels for the pages named there, :data:`POOL_SIZE`
    for the others (Voilà's ``kernel_pools_config``, given as our manager's default)."""
    if not pools:
        return
    from traitlets import default
    from voila import app as voila_app

    make_manager_class = voila_app.voila_kernel_manager_factory
    config = {"default": {"pool_size": POOL_SIZE}}
    config.update({notebook: {"pool_size": size} for notebook, size in pools.items()})

    def manager_class(*args: object, **kwargs: object) -> type:
        base = make_manager_class(*args, **kwargs)
        if not hasattr(base, "get_rendered_notebook"):  # preheating is off
            return base

        class SizedPoolsKernelManager(base):  # type: ignore[misc, valid-type]
            @default("kernel_pools_config")
            def _sized_pools(self) -> dict:
                return {key: dict(value) for key, value in config.items()}

        return SizedPoolsKernelManager

    voila_app.voila_kernel_manager_factory = manager_class


def _ready(pooled: asyncio.Task) -> bool:
    """A pool entry whose kernel has started (its page may still be running)."""
    return pooled.done() and not pooled.cancelled() and pooled.exception() is None


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


def _refill_pools_when_quiet(slots: KernelSlots) -> None:
    """Replace a taken preheated kernel only when the server is quiet.

    Voilà starts the replacement one second after a visitor takes a kernel, and counts it
    in the pool while it starts, so the next visitor of that page waits for it.  Here the
    replacement waits until ``slots`` is :meth:`~bohnteach.site.admission.KernelSlots.quiet`
    for :data:`REFILL_QUIET` seconds, one at a time, holding a slot until its page has run
    (:func:`_until_page_ran`); the pool counts only started kernels, so a visitor who finds
    none gets a fresh kernel in line (the queue page) instead of waiting behind a refill.
    The first filling at start-up is not held back.
    """
    from voila import app as voila_app

    make_manager_class = voila_app.voila_kernel_manager_factory

    def manager_class(*args: object, **kwargs: object) -> type:
        base = make_manager_class(*args, **kwargs)
        if not hasattr(base, "get_rendered_notebook"):  # preheating is off
            return base

        class QuietRefillKernelManager(base):  # type: ignore[misc, valid-type]
            _bt_refilling = False

            def __init__(self, **options: object) -> None:
                super().__init__(**options)
                self._bt_one_refill = asyncio.Lock()
                self._bt_waiting: set[asyncio.Task] = set()

            def get_pool_size(self, notebook_name: str) -> int:
                return sum(1 for pooled in self._pools.get(notebook_name, ()) if _ready(pooled))

            async def get_rendered_notebook(self, notebook_name: str, *a: object, **kw: object) -> tuple:  # type: ignore[override]
                pool = self._pools.get(notebook_name, [])
                ready = [pooled for pooled in pool if _ready(pooled)]
                if ready:  # Voilà takes the first entry: make it a started one
                    pool.remove(ready[0])
                    pool.insert(0, ready[0])
                return await super().get_rendered_notebook(notebook_name, *a, **kw)

            def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                               **kw: object) -> None:
                self._bt_refilling = delay is None  # None: after a visitor took a kernel
                try:
                    super().fill_if_needed(0 if delay is None else delay, notebook_name, **kw)
                finally:
                    self._bt_refilling = False

            def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kw: object):  # type: ignore[no-untyped-def]
                work = super()._initialize(notebook_path, kernel_id, **kw)
                return self._when_quiet(work, notebook_path) if self._bt_refilling and kernel_id is None else work

            async def _when_quiet(self, work: Coroutine[Any, Any, dict], notebook: str) -> dict:
                me = asyncio.current_task()
                started = False
                try:
                    if me is not None:
                        self._bt_waiting.add(me)
                    async with self._bt_one_refill:
                        await slots.acquire_when_quiet(REFILL_QUIET)
                        self._bt_waiting.discard(me)  # type: ignore[arg-type]
                        self.log.info("Refilling the kernel pool of %s (server quiet)", notebook)
                        try:
                            started = True
                            result = await work
                            kernel = self._kernels.get(result["kernel_id"])
                            pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
                            await _until_page_ran(result["task"], pid)
                        finally:
                            slots.release()
                    return result
                finally:
                    self._bt_waiting.discard(me)  # type: ignore[arg-type]
                    if not started:
                        work.close()

            async def shutdown_all(self, *a: object, **kw: object) -> None:
                for task in list(self._bt_waiting):  # refills that never started
                    task.cancel()
                    for pool in self._pools.values():
                        if task in pool:
                            pool.remove(task)
                await super().shutdown_all(*a, **kw)

        return QuietRefillKernelManager

    voila_app.voila_kernel_manager_factory = manager_class


def _queue_visitors_who_need_a_kernel(slots: KernelSlots) -> None:
    """Serve pages through ``slots``: a visit that finds a preheated kernel goes straight
    through; one that needs a fresh kernel holds a slot until its page is complete, or
    waits in line, seeing the queue page with its place, which the page then follows in
    the same response.  While a page is asked for and sent, the server is not quiet
    (:data:`REFILL_QUIET`)."""
    import tornado.web
    from jupyter_core.utils import ensure_async
    from tornado.iostream import StreamClosedError
    from voila import app as voila_app

    from bohnteach.site.admission import queue_end, queue_place, queue_start

    base = voila_app.TornadoVoilaHandler

    class QueuedVoilaHandler(base):  # type: ignore[misc, valid-type]
        _bt_waiting: asyncio.Task | None = None

        @tornado.web.authenticated
        async def get(self, path: str | None = None) -> None:
            # Voilà's page shuts its kernel down when the visitor leaves (a beacon to
            # /voila/api/shutdown carrying the _xsrf cookie), but never sets that cookie:
            # the beacon was refused (403) and the kernel held until culled. Reading the
            # token sets the cookie.
            self.xsrf_token  # noqa: B018
            self.request.headers[CLIENT_HEADER] = self.request.remote_ip or ""
            notebook = self.notebook_path or path or ""
            if not notebook.endswith(".ipynb"):
                return await super().get(path)
            slots.visit_started()
            try:
                await self._get_page(path, notebook)
            finally:
                slots.visit_ended()

        async def _get_page(self, path: str | None, notebook: str) -> None:
            if (self.kernel_manager.get_pool_size(notebook) > 0
                    or not await ensure_async(self.contents_manager.file_exists(notebook))):
                return await super().get(path)  # a preheated kernel, or Voilà's 404 at once
            queued = False

            async def show_place(place: int) -> None:
                nonlocal queued
                if not queued:
                    self.set_header("Content-Type", "text/html; charset=UTF-8")
                    self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
                    self.write(queue_start())
                    queued = True
                    self.log.info("%s waits for a kernel (place %d)", notebook, place)
                self.write(queue_place(place))
                await self.flush()

            self._bt_waiting = asyncio.current_task()
            try:
                await slots.acquire(show_place)
            except (StreamClosedError, asyncio.CancelledError):
                return  # the visitor left the line
            finally:
                self._bt_waiting = None
            try:
                if queued:
                    self.write(queue_end())
                await super().get(path)
            finally:
                slots.release()

        def on_connection_close(self) -> None:
            if self._bt_waiting is not None:
                self._bt_waiting.cancel()
            super().on_connection_close()

    voila_app.TornadoVoilaHandler = QueuedVoilaHandler


def _run_voila(argv: Sequence[str]) -> int:
    """Start Voilà in this process with our template on the Jupyter path."""
    os.environ.update(voila_env())
    argv, kernel_starts, pools = _split_options(argv)
    _never_wait_blind_on_kernel_channels()
    _compile_each_template_once()
    _read_only_the_header_date()
    _restart_idle_clock_of_handed_out_kernels()
    _visitors_send_only_widget_messages()
    from bohnteach.site.publish import install

    install()  # German start, 404, titles and footer
    _preheat_pools(pools)
    slots = KernelSlots(kernel_starts)
    _refill_pools_when_quiet(slots)
    _queue_visitors_who_need_a_kernel(slots)
    from voila.app import Voila

    sys.argv = ["voila", *argv]
    return int(Voila.launch_instance(argv, **VOILA_SETTINGS) or 0)


if __name__ == "__main__":
    sys.exit(_run_voila(sys.argv[1:]))
