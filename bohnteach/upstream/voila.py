"""Voilà 0.5, the server of ``bohnteach serve``: its kernel manager, its page handler, its
routes, its exporter and the kernel's side of its request hand-over.

* :func:`install_kernel_manager`: one subclass of the kernel manager class Voilà makes
  (``voila_kernel_manager_factory``, its private ``_pools``/``_kernels``/``_initialize``):
  visitors send only widget messages, pools sized per page, a taken kernel's idle clock
  restarted, refills held back until the server is quiet.
* :func:`install_queue_handler`: Voilà's page handler (``TornadoVoilaHandler``) behind a line.
* :func:`install_health_route`: a health address for the balancer (``Voila.init_handlers``);
  :func:`pool_counts` reads the private ``_pools`` for it.
* :func:`install_site_routes`: ``/`` → the app; tree, contents API and unknown addresses → 404
  (``Voila.init_handlers``).
* :func:`install_page_resources`: titles, ``lang`` and the page's head and footer in every
  page (the exporter's ``_init_resources``; Voici's exporter is Voilà's subclass).
* :func:`wait_for_request`: Voilà's query websocket read without importing Voilà.
"""
from __future__ import annotations

import asyncio
import inspect
import json
import os
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

from bohnteach.upstream import problem, version_problems

#: The versions this adapter was checked against (pinned so in pyproject.toml).
CHECKED = {"voila": "0.5.13"}


class Slots(Protocol):
    """What the kernel manager and the page handler need of the site's kernel slots."""

    async def acquire(self, waiting: Callable[[int], Awaitable[None]]) -> None: ...
    async def acquire_when_quiet(self, seconds: float) -> None: ...
    def release(self) -> None: ...
    def visit_started(self) -> None: ...
    def visit_ended(self) -> None: ...


def check() -> list[str]:
    """What of Voilà this adapter touches and finds changed (empty: all as checked)."""
    found = version_problems(CHECKED)
    if found:
        return found
    from voila import app as voila_app
    from voila import handler, voila_kernel_manager
    from voila.exporter import VoilaExporter

    factory = getattr(voila_app, "voila_kernel_manager_factory", None)
    if factory is None:
        return [problem("voila", "voila.app.voila_kernel_manager_factory fehlt")]
    params = list(inspect.signature(factory).parameters)
    if params[:3] != ["base_class", "preheat_kernel", "default_pool_size"]:
        found.append(problem("voila", f"voila_kernel_manager_factory{params}: andere Parameter"))
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    manager = voila_kernel_manager.voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    for name in ("get_rendered_notebook", "get_pool_size", "fill_if_needed", "_initialize",
                 "shutdown_all", "kernel_pools_config"):
        if not hasattr(manager, name):
            found.append(problem("voila", f"der Kernel-Manager hat kein {name}"))
    source = inspect.getsource(voila_kernel_manager)
    for needle in ("self._pools", '"kernel_id": kernel_id', '"task": task', "pop(0)"):
        if needle not in source:
            found.append(problem("voila", f"voila_kernel_manager.py ohne „{needle}“ (Pools)"))
    if "allowed_message_types" not in inspect.getsource(voila_app.Voila.init_settings):
        found.append(problem("voila", "Voila.init_settings übergibt kein allowed_message_types"))
    for owner, name in ((voila_app, "TornadoVoilaHandler"), (voila_app.Voila, "init_handlers"),
                        (handler, "BaseVoilaHandler"), (VoilaExporter, "_init_resources"),
                        (VoilaExporter, "generate_from_notebook_node")):
        if not hasattr(owner, name):
            found.append(problem("voila", f"{getattr(owner, '__name__', owner)}.{name} fehlt"))
    if "get" not in getattr(voila_app.TornadoVoilaHandler, "__dict__", {}):
        found.append(problem("voila", "TornadoVoilaHandler.get fehlt"))
    if "voila/query/" not in _query_route_source():
        found.append(problem("voila", "keine Route voila/query/<kernel id> (wait_for_request)"))
    return found


def _query_route_source() -> str:
    from voila import app as voila_app

    return inspect.getsource(voila_app.Voila.init_handlers)


# ---- the kernel manager ------------------------------------------------------------------------
def _ready(pooled: asyncio.Task) -> bool:
    """A pool entry whose kernel has started (its page may still be running)."""
    return pooled.done() and not pooled.cancelled() and pooled.exception() is None


def install_kernel_manager(*, message_types: Sequence[str], pools: Mapping[str, int],
                           default_pool_size: int, slots: Slots, quiet: float,
                           until_page_ran: Callable[[asyncio.Task, int | None], Awaitable[None]]) -> None:
    """Make Voilà's kernel manager class the site's: one subclass of what its factory makes.

    * visitors may send only ``message_types`` (Voilà passes its own list to the constructor,
      which a command-line option cannot override);
    * ``pools[notebook]`` preheated kernels for the pages named there, ``default_pool_size``
      for the others (Voilà's ``kernel_pools_config``, as the manager's default);
    * a kernel handed to a visitor gets its idle clock restarted: a pooled kernel idle longer
      than the cull timeout was culled before the visitor's browser connected;
    * the pool counts only started kernels, and Voilà takes a started one first; a taken
      kernel is replaced only once ``slots`` has been quiet for ``quiet`` seconds, one at a
      time, holding a slot until ``until_page_ran(render task, kernel pid)``; the first
      filling at start-up is not held back.
    """
    from traitlets import default
    from voila import app as voila_app

    from bohnteach.upstream.jupyter import utcnow

    make = voila_app.voila_kernel_manager_factory
    if getattr(make, "_bohnteach", False):
        return
    allowed = list(message_types)
    sizes = {"default": {"pool_size": default_pool_size}}
    sizes.update({notebook: {"pool_size": size} for notebook, size in pools.items()})

    def manager_class(*args: Any, **kwargs: Any) -> type:
        base = make(*args, **kwargs)
        if not hasattr(base, "get_rendered_notebook"):  # preheating is off
            class WidgetMessagesOnly(base):  # type: ignore[misc, valid-type]
                def __init__(self, **options: Any) -> None:
                    options["allowed_message_types"] = allowed
                    super().__init__(**options)

            return WidgetMessagesOnly

        class SiteKernelManager(base):  # type: ignore[misc, valid-type]
            _bt_refilling = False

            def __init__(self, **options: Any) -> None:
                options["allowed_message_types"] = allowed
                super().__init__(**options)
                self._bt_one_refill = asyncio.Lock()
                self._bt_waiting: set[asyncio.Task] = set()

            @default("kernel_pools_config")
            def _sized_pools(self) -> dict:
                return {key: dict(value) for key, value in sizes.items()}

            def get_pool_size(self, notebook_name: str) -> int:
                return sum(1 for pooled in self._pools.get(notebook_name, ()) if _ready(pooled))

            async def get_rendered_notebook(self, notebook_name: str, *a: Any, **kw: Any) -> tuple:  # type: ignore[override]
                pool = self._pools.get(notebook_name, [])
                ready = [pooled for pooled in pool if _ready(pooled)]
                if ready:  # Voilà takes the first entry: make it a started one
                    pool.remove(ready[0])
                    pool.insert(0, ready[0])
                result = await super().get_rendered_notebook(notebook_name, *a, **kw)
                kernel = self._kernels.get(result[2])
                if kernel is not None:
                    kernel.last_activity = utcnow()
                return result

            def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                               **kw: Any) -> None:
                self._bt_refilling = delay is None  # None: after a visitor took a kernel
                try:
                    super().fill_if_needed(0 if delay is None else delay, notebook_name, **kw)
                finally:
                    self._bt_refilling = False

            def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kw: Any):  # type: ignore[no-untyped-def]
                work = super()._initialize(notebook_path, kernel_id, **kw)
                return self._when_quiet(work, notebook_path) if self._bt_refilling and kernel_id is None else work

            async def _when_quiet(self, work: Coroutine[Any, Any, dict], notebook: str) -> dict:
                me = asyncio.current_task()
                started = False
                try:
                    if me is not None:
                        self._bt_waiting.add(me)
                    async with self._bt_one_refill:
                        await slots.acquire_when_quiet(quiet)
                        self._bt_waiting.discard(me)  # type: ignore[arg-type]
                        self.log.info("Refilling the kernel pool of %s (server quiet)", notebook)
                        try:
                            started = True
                            result = await work
                            kernel = self._kernels.get(result["kernel_id"])
                            pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
                            await until_page_ran(result["task"], pid)
                        finally:
                            slots.release()
                    return result
                finally:
                    self._bt_waiting.discard(me)  # type: ignore[arg-type]
                    if not started:
                        work.close()

            async def shutdown_all(self, *a: Any, **kw: Any) -> None:
                for task in list(self._bt_waiting):  # refills that never started
                    task.cancel()
                    for pool in self._pools.values():
                        if task in pool:
                            pool.remove(task)
                await super().shutdown_all(*a, **kw)

        return SiteKernelManager

    manager_class._bohnteach = True  # type: ignore[attr-defined]
    voila_app.voila_kernel_manager_factory = manager_class


# ---- the page handler --------------------------------------------------------------------------
def install_queue_handler(slots: Slots, *, client_header: str, queue_start: Callable[[str], str],
                          queue_place: Callable[[int], str], queue_end: Callable[[], str],
                          client: Callable[[str, Any], str] | None = None) -> None:
    """Serve pages through ``slots``: a visit that finds a preheated kernel goes straight
    through; one that needs a fresh kernel holds a slot until its page is complete, or
    waits in line, seeing ``queue_start(query)`` (with the page address's query) and
    ``queue_place(place)`` and then, after ``queue_end()``, the page itself in the same
    response. ``client_header`` carries the visitor's address (from the connection,
    replacing what the browser sent) to the kernel; ``client(remote_ip, request headers)``,
    if given, decides that address (a trusted proxy's forwarded one)."""
    import tornado.web
    from jupyter_core.utils import ensure_async
    from tornado.iostream import StreamClosedError
    from voila import app as voila_app

    base = voila_app.TornadoVoilaHandler
    if getattr(base, "_bohnteach", False):
        return

    class QueuedVoilaHandler(base):  # type: ignore[misc, valid-type]
        _bohnteach = True
        _bt_waiting: asyncio.Task | None = None

        @tornado.web.authenticated
        async def get(self, path: str | None = None) -> None:
            # Voilà's page shuts its kernel down when the visitor leaves (a beacon to
            # /voila/api/shutdown carrying the _xsrf cookie), but never sets that cookie:
            # the beacon was refused (403) and the kernel held until culled. Reading the
            # token sets the cookie.
            self.xsrf_token  # noqa: B018
            remote = self.request.remote_ip or ""
            self.request.headers[client_header] = (
                remote if client is None else client(remote, self.request.headers))
            notebook = self.notebook_path or path or ""
            if not notebook.endswith(".ipynb"):
                return await super().get(path)
            slots.visit_started()
            try:
                await self._bt_get_page(path, notebook)
            finally:
                slots.visit_ended()

        async def _bt_get_page(self, path: str | None, notebook: str) -> None:
            if (self.kernel_manager.get_pool_size(notebook) > 0
                    or not await ensure_async(self.contents_manager.file_exists(notebook))):
                return await super().get(path)  # a preheated kernel, or Voilà's 404 at once
            queued = False

            async def show_place(place: int) -> None:
                nonlocal queued
                if not queued:
                    self.set_header("Content-Type", "text/html; charset=UTF-8")
                    self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
                    self.write(queue_start(self.request.query))
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


# ---- the health address --------------------------------------------------------------------
def pool_counts(kernel_manager: Any, notebook: str) -> tuple[int, int, int]:
    """``notebook``'s preheated kernels: (started, starting, failed) - Voilà's private
    ``_pools``, a list of tasks per notebook."""
    started = starting = failed = 0
    for task in list(getattr(kernel_manager, "_pools", {}).get(notebook, ())):
        if not task.done():
            starting += 1
        elif task.cancelled() or task.exception() is not None:
            failed += 1
        else:
            started += 1
    return started, starting, failed


def install_health_route(path: str, answer: Callable[[Any], Awaitable[tuple[int, str]]]) -> None:
    """``<base path><path>`` answers ``answer(kernel manager)`` → (status, text) as plain
    text, never cached (``Voila.init_handlers``: the route goes first)."""
    import tornado.web
    from jupyter_server.utils import url_path_join
    from voila.app import Voila

    if getattr(Voila.init_handlers, "_bt_health", False):
        return

    class Health(tornado.web.RequestHandler):
        async def get(self) -> None:
            status, text = await answer(self.settings.get("kernel_manager"))
            self.set_status(status)
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(text)

    init_handlers = Voila.init_handlers

    def init_handlers_with_health(self: Voila) -> list:
        return [(url_path_join(self.server_url, path), Health), *init_handlers(self)]

    init_handlers_with_health._bt_health = True  # type: ignore[attr-defined]
    Voila.init_handlers = init_handlers_with_health  # type: ignore[method-assign]


# ---- routes and pages --------------------------------------------------------------------------
def install_site_routes(app_notebook: str, jinja_globals: Callable[[], dict[str, Any]]) -> None:
    """``/`` renders ``app_notebook`` through Voilà's (queued) page handler; the file tree,
    the contents API and every unknown address render the template's ``404.html``; the
    templates of Voilà's own pages (404, tree) get ``jinja_globals()``."""
    from jupyter_server.utils import url_path_join
    from tornado import web
    from voila import app as voila_app
    from voila.app import Voila
    from voila.handler import BaseVoilaHandler

    if getattr(Voila, "_bohnteach", False):
        return

    class NotFound(BaseVoilaHandler):
        """Renders the template's ``404.html`` for every method."""

        async def prepare(self) -> None:  # type: ignore[override]
            await super().prepare()  # sets the visitor, which the error page's template reads
            raise web.HTTPError(404)

    init_handlers = Voila.init_handlers

    def init_handlers_published(self: Voila) -> list:
        conf = {"voila_configuration": self.voila_configuration}
        self.app.settings["voila_jinja2_env"].globals.update(jinja_globals())
        self.app.settings["default_handler_class"] = NotFound
        self.app.settings["default_handler_args"] = conf
        hidden = [(url_path_join(self.server_url, r"/voila/tree(/.*)?"), NotFound, conf),
                  (url_path_join(self.server_url, r"/voila/api/contents(/.*)?"), NotFound, conf)]
        app = (self.server_url, voila_app.TornadoVoilaHandler, {  # the queued handler
            "notebook_path": app_notebook,
            "template_paths": self.template_paths, "config": self.config, **conf})
        return [app, *hidden, *init_handlers(self)]

    Voila.init_handlers = init_handlers_published  # type: ignore[method-assign]
    Voila._bohnteach = True  # type: ignore[attr-defined]


def install_page_resources(title: Callable[[Any], str], resources: Mapping[str, str],
                           exporter: type | None = None,
                           entry: str = "generate_from_notebook_node") -> None:
    """Every page rendered by ``exporter`` (Voilà's, default, or Voici's, a subclass) gets
    ``metadata.title = title(nb)`` (nbconvert's ``<title>``) and ``lang="de"`` (a notebook
    made in another language, ``metadata.language``: that one); the
    template finds ``resources`` in its ``resources``. ``entry``: the exporter's method that
    renders a notebook."""
    if exporter is None:
        from voila.exporter import VoilaExporter as exporter

    if exporter.__dict__.get("_bohnteach", False):
        return
    extra = dict(resources)
    generate = getattr(exporter, entry)
    init_resources = exporter._init_resources

    def generate_titled(self: Any, nb: Any, *args: Any, **kwargs: Any) -> Any:
        nb.metadata["title"] = title(nb)
        self.language_code = nb.metadata.get("language") or "de"  # a translated notebook says its own
        return generate(self, nb, *args, **kwargs)

    def init_resources_with_page(self: Any, resources: Any) -> Any:
        resources = init_resources(self, resources)
        resources.update(extra)
        return resources

    setattr(exporter, entry, generate_titled)
    exporter._init_resources = init_resources_with_page
    exporter._bohnteach = True


# ---- in a visitor's kernel ---------------------------------------------------------------------
def wait_for_request() -> None:
    """Wait until Voilà hands this preheated kernel to a visitor, then take the request's
    variables (``QUERY_STRING`` …) into the environment.

    What ``voila.utils.wait_for_request`` does (Voilà 0.5: the server sends them as one JSON
    object on ``voila/query/<kernel id>``), without importing ``voila``: its package imports
    jupyter_server and jsonschema, whose format checker compiles 38 grammars with lark —
    6–8 CPU s, which every fresh visitor's kernel paid before its page could show.
    """
    from websockets.sync.client import connect

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
           f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env['VOILA_KERNEL_ID']}")
    with connect(url, open_timeout=5) as socket:
        info = json.loads(socket.recv())
    env.update({str(key): str(value) for key, value in info.items()})
