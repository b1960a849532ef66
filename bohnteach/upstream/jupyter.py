"""The Jupyter server stack under Voilà: jupyter_client, jupyter_server, nbconvert, ipykernel.

* :func:`poll_kernel_channels`: ``AsyncZMQSocketChannel.get_msg`` waits in 1-second polls;
* :func:`read_only_header_dates`: jupyter_client's ``session.extract_dates`` reads only ``date``;
* :func:`share_compiled_templates`: nbconvert's ``TemplateExporter._create_environment``
  gets one bytecode cache for the process;
* :func:`utcnow`: jupyter_server's private clock of kernel activity (``jupyter_server._tz``);
* :func:`adopt_process`: a provisioner's process fields, set for a kernel started elsewhere;
* :class:`NotTrustedFilter`: jupyter_server's "Notebook … is not trusted" log record.
"""
from __future__ import annotations

import inspect
import logging
import time
from datetime import datetime
from typing import Any

from bohnteach.upstream import problem, version_problems

#: The versions this adapter was checked against (pinned so in pyproject.toml).
CHECKED = {"jupyter_client": "8.10.0", "jupyter_server": "2.21.1", "nbconvert": "7.17.2",
           "nbclient": "0.11.0", "ipykernel": "7.4.0"}
#: jupyter_server's warning for a notebook without a trust signature.
NOT_TRUSTED = "Notebook %s is not trusted"
#: The fields of jupyter_client's ``LocalProvisioner`` that hold its kernel's process.
PROCESS_FIELDS = ("process", "pid", "pgid", "cwd")


def check() -> list[str]:
    """What of the Jupyter stack this adapter touches and finds changed (empty: as checked)."""
    found = version_problems(CHECKED)
    if found:
        return found
    from jupyter_client import jsonutil, session
    from jupyter_client.channels import AsyncZMQSocketChannel
    from jupyter_client.provisioning import LocalProvisioner
    from jupyter_server.services.contents import manager
    from nbconvert.exporters.templateexporter import TemplateExporter

    if list(inspect.signature(AsyncZMQSocketChannel.get_msg).parameters) != ["self", "timeout"]:
        found.append(problem("jupyter_client", "AsyncZMQSocketChannel.get_msg(self, timeout) geändert"))
    if not callable(getattr(session, "extract_dates", None)) or "extract_dates(" not in inspect.getsource(session.Session.deserialize):
        found.append(problem("jupyter_client", "Session.deserialize ruft session.extract_dates nicht mehr"))
    if not callable(getattr(jsonutil, "parse_date", None)):
        found.append(problem("jupyter_client", "jsonutil.parse_date fehlt"))
    if not callable(getattr(TemplateExporter, "_create_environment", None)):
        found.append(problem("nbconvert", "TemplateExporter._create_environment fehlt"))
    try:
        from jupyter_server._tz import utcnow as clock
    except ImportError:
        clock = None
    if clock is None or clock().tzinfo is None:
        found.append(problem("jupyter_server", "jupyter_server._tz.utcnow fehlt"))
    if NOT_TRUSTED not in inspect.getsource(manager):
        found.append(problem("jupyter_server", f"die Warnung „{NOT_TRUSTED}“ heißt anders"))
    source = inspect.getsource(LocalProvisioner)
    for field in PROCESS_FIELDS:
        if f"self.{field} =" not in source and f"self.{field}:" not in source:
            found.append(problem("jupyter_client", f"LocalProvisioner.{field} fehlt"))
    return found


def poll_kernel_channels() -> None:
    """Make this process's kernel channels re-check for messages every second.

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


def read_only_header_dates() -> None:
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


def share_compiled_templates() -> None:
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


def utcnow() -> datetime:
    """Now, as jupyter_server records a kernel's ``last_activity`` (which its culler reads)."""
    from jupyter_server._tz import utcnow as clock

    return clock()


def adopt_process(provisioner: Any, process: Any, pid: int, cwd: str) -> None:
    """Make a ``LocalProvisioner`` hold a kernel process it did not start itself (``process``
    answers what it calls of a ``Popen``: poll, wait, send_signal, kill)."""
    provisioner.process = process
    provisioner.pid = provisioner.pgid = pid
    provisioner.cwd = cwd


class NotTrustedFilter(logging.Filter):
    """Drops jupyter_server's "Notebook %s is not trusted" record: the contents manager
    checks every notebook it reads for a trust signature (kept per user on the server); the
    site's own notebooks have none and Voilà renders every output as trusted anyway (its
    exporter's ``trusted`` filter), so the warning (one per notebook and preheat) says nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != NOT_TRUSTED
