"""``bohnteach serve``: the command line it builds, the shipped pages, the start page, and
that a visitor's browser cannot make its kernel run code (with a control experiment)."""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest
from aio import run
from browser_helpers import one_page_site, open_page, start_site, visible_errors
from playwright.sync_api import expect

from bohnteach.site.addresses import registered_notebooks
from bohnteach.site.serve import (
    START_PAGE,
    VISITOR_MESSAGE_TYPES,
    build_voila_command,
    page_path,
    site_dir,
    start_url,
)


def _option(cmd: list[str], name: str) -> str:
    values = [arg.split("=", 1)[1] for arg in cmd if arg.startswith(f"--{name}=")]
    assert len(values) == 1, f"--{name} given {len(values)} times in {cmd}"
    return values[0]


def test_binds_localhost_by_default(tmp_path):
    cmd = build_voila_command(8866, public=False, root=tmp_path)
    assert _option(cmd, "Voila.ip") == "127.0.0.1"
    assert _option(cmd, "port") == "8866"


def test_public_binds_all_interfaces(tmp_path):
    assert _option(build_voila_command(8866, public=True, root=tmp_path), "Voila.ip") == "0.0.0.0"


def test_command_serves_folder_with_site_options(tmp_path):
    cmd = build_voila_command(9000, public=False, root=tmp_path)
    assert cmd[:3] == [sys.executable, "-m", "bohnteach.site.serve"]
    assert str(tmp_path.resolve()) in cmd
    assert "--no-browser" in cmd
    assert _option(cmd, "preheat_kernel") == "True"
    assert _option(cmd, "show_tracebacks") == "False"
    assert int(_option(cmd, "MappingKernelManager.cull_idle_timeout")) > 0
    assert _option(cmd, "MappingKernelManager.root_dir") == str(tmp_path.resolve())


def test_the_kernel_learns_the_visitors_address(tmp_path):
    """Voilà passes the header the server sets from the connection (never the browser's own
    value) into the kernel's environment: the class store counts wrong codes by it."""
    from bohnteach.site.serve import CLIENT_HEADER

    cmd = build_voila_command(9000, public=False, root=tmp_path)
    assert _option(cmd, "VoilaConfiguration.http_header_envs") == CLIENT_HEADER == "X-Bohnteach-Client"
    from bohnteach.widgets.classroom import CLIENT_ENV

    assert CLIENT_ENV == "HTTP_" + CLIENT_HEADER.upper().replace("-", "_")


def test_default_root_is_site_dir():
    assert str(site_dir().resolve()) in build_voila_command(8866, public=False)


def test_site_dir_serves_pages_and_lessons_side_by_side():
    root = site_dir()
    assert (root / "notebooks" / START_PAGE).is_file()
    assert all((root / key).is_file() for key in registered_notebooks()), "every chapter and lesson"



def test_voila_finds_the_pages_to_preheat():
    """Voilà lists the notebooks to preheat with Path.rglob (no symlinked folders)."""
    found = {str(p.relative_to(site_dir())) for p in site_dir().rglob("*.ipynb")}
    assert set(registered_notebooks()) <= found

def test_start_url():
    assert start_url(8866) == "http://127.0.0.1:8866/"
    assert page_path("tutorials/01_Bohnentreppe") == "/voila/render/tutorials/01_Bohnentreppe.ipynb"


def test_site_serves_start_page_html(site_url):
    with urllib.request.urlopen(site_url + page_path(START_PAGE), timeout=300) as resp:
        assert resp.status == 200
        html = resp.read().decode()
    assert "cdn.jsdelivr.net" not in html  # our template: no CDN requests


def test_start_page_in_browser(page, site_url):
    errors = open_page(page, site_url, "00_Start", wait_for=".widget-button")
    assert page.locator("h1").first.inner_text().strip()
    assert visible_errors(page) == []
    # the start page's scene steps on when "weiter" is clicked
    player = page.locator(".bt-scene-player").first
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("Schritt 1")
    assert visible_errors(page) == []
    assert errors == []


# ---- visitors run no code ------------------------------------------------------------------
_WIDGET_PAGE = "import ipywidgets as w\nw.Button(description='Weiter')"


def _message(msg_type: str, content: dict, session: str) -> dict:
    return {
        "channel": "shell",
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session,
                   "username": "besucher", "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "content": content, "buffers": [],
    }


def _kernel_id_of_served_page(base: str, name: str) -> str:
    """Load the page like a browser does (Voilà runs it on a kernel) and read its kernel id."""
    with urllib.request.urlopen(base + page_path(name), timeout=300) as resp:
        html = resp.read().decode()
    found = re.search(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"', html)
    assert found, "no kernel id in the page"
    return found.group(1)


def _send_as_visitor(base: str, kernel_id: str, code: str, until: set[str]) -> list[dict]:
    """Over the page's kernel websocket: an ``execute_request`` with ``code``, then a
    ``kernel_info_request``. Returns every message received until a reply of each type in
    ``until`` has arrived for the request of that type (the kernel answers its shell
    messages in order, so a forwarded execute_request is answered before the info)."""
    from tornado.websocket import websocket_connect

    session = uuid.uuid4().hex
    execute = _message("execute_request", {"code": code, "silent": False, "store_history": False,
                                           "user_expressions": {}, "allow_stdin": False,
                                           "stop_on_error": True}, session)
    info = _message("kernel_info_request", {}, session)
    parents = {"execute_reply": execute["header"]["msg_id"],
               "kernel_info_reply": info["header"]["msg_id"]}

    async def talk() -> list[dict]:
        ws_url = base.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?session_id={session}"
        ws = await websocket_connect(ws_url)
        try:
            await ws.write_message(json.dumps(execute))
            await ws.write_message(json.dumps(info))
            seen: list[dict] = []
            missing = set(until)
            while missing:
                raw = await asyncio.wait_for(ws.read_message(), timeout=300)
                assert raw is not None, "the server closed the websocket"
                msg = json.loads(raw)
                seen.append(msg)
                kind = msg.get("msg_type") or msg["header"]["msg_type"]
                if kind in missing and msg["parent_header"].get("msg_id") == parents[kind]:
                    missing.discard(kind)
            return seen
        finally:
            ws.close()

    seen = run(talk())
    for msg in seen:
        msg["_answers_execute"] = msg["parent_header"].get("msg_id") == parents["execute_reply"]
    return seen


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return one_page_site(tmp_path_factory.mktemp("visitor"), "seite", _WIDGET_PAGE)


# The control experiment's server: bohnteach's serve module, but execute_request allowed.
_PERMISSIVE_SERVE = (
    "import sys; from bohnteach.site import serve; "
    "serve.VISITOR_MESSAGE_TYPES = (*serve.VISITOR_MESSAGE_TYPES, 'execute_request'); "
    "sys.exit(serve._run_voila(sys.argv[1:]))"
)


def _allowing_execute_request(cmd: list[str]) -> list[str]:
    i = cmd.index("bohnteach.site.serve")
    assert cmd[i - 1] == "-m"
    return [*cmd[:i - 1], "-c", _PERMISSIVE_SERVE, *cmd[i + 1:]]


def test_visitor_message_types_are_widget_messages_only():
    assert set(VISITOR_MESSAGE_TYPES) == {"kernel_info_request", "comm_info_request", "comm_open",
                                          "comm_msg", "comm_close"}


def test_a_visitor_cannot_run_code(tiny_site, tmp_path):
    marker = tmp_path / "besucher-war-hier"
    log = tmp_path / "voila.log"
    with start_site(log, root=tiny_site) as base:
        kernel_id = _kernel_id_of_served_page(base, "notebooks/seite")
        seen = _send_as_visitor(base, kernel_id, f"open({str(marker)!r}, 'w').write('x')",
                                until={"kernel_info_reply"})
    assert [m for m in seen if m["_answers_execute"]] == []  # no reply, no busy/idle, nothing
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in log.read_text()


def test_control_without_the_filter_the_same_request_runs(tiny_site, tmp_path):
    """The control experiment: the probe above sees code run when execute_request is allowed
    (so its "nothing ran" is a real observation, not a probe that cannot see)."""
    marker = tmp_path / "besucher-war-hier"
    with start_site(tmp_path / "voila.log", root=tiny_site,
                    edit_command=_allowing_execute_request) as base:
        kernel_id = _kernel_id_of_served_page(base, "notebooks/seite")
        seen = _send_as_visitor(base, kernel_id, f"open({str(marker)!r}, 'w').write('x')",
                                until={"execute_reply", "kernel_info_reply"})
    assert any(m["_answers_execute"] for m in seen)
    assert marker.read_text() == "x"


# ---- a quiet console --------------------------------------------------------------------------
_SAME_MAJOR = ("Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared singleton "
               "module @jupyterlab/notebook (required ^4.4.6)")
_OTHER_MAJOR = ("Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared singleton "
                "module @jupyterlab/notebook (required ^5.0.0)")


def test_widget_page_console_has_no_version_warnings(tiny_site, tmp_path, page):
    """Issue 34 §8: a Voilà page with widgets logged 13 webpack warnings about the widget
    extensions' JupyterLab versions (built for 4.4.6 / 4.5.10, Voilà's page has 4.2.5).
    The page's console is clean; the template drops only a newer minor of the same major
    – a different major still reaches the console (and the tests, which collect these)."""
    with start_site(tmp_path / "voila.log", root=tiny_site) as base:
        errors = open_page(page, base, "seite", wait_for=".widget-button")
        assert errors == []
        page.evaluate("([a, b]) => { console.warn(a); console.warn(b); }", [_SAME_MAJOR, _OTHER_MAJOR])
        expect(page.locator(".widget-button")).to_be_visible()  # the page still stands
        assert errors == [f"console warning: {_OTHER_MAJOR}"]


def test_kernel_channel_wait_polls():
    """The Jupyter adapter's fix for nbclient #312: a wait without timeout polls in 1-second steps."""
    from queue import Empty

    from jupyter_client.channels import AsyncZMQSocketChannel

    from bohnteach.upstream import jupyter

    jupyter.poll_kernel_channels()
    jupyter.poll_kernel_channels()  # idempotent

    class FakeSocket:
        def __init__(self) -> None:
            self.polls: list[int | None] = []

        async def poll(self, timeout_ms):
            self.polls.append(timeout_ms)
            return len(self.polls) >= 3

    channel = AsyncZMQSocketChannel.__new__(AsyncZMQSocketChannel)
    channel.socket = FakeSocket()

    async def fake_recv():
        return {"msg": "reply"}

    channel._recv = fake_recv

    assert run(channel.get_msg()) == {"msg": "reply"}
    assert channel.socket.polls == [1000, 1000, 1000]
    channel.socket.polls.clear()
    with pytest.raises(Empty):
        run(channel.get_msg(timeout=0.5))
    assert channel.socket.polls == [500]


def test_page_renders_share_the_compiled_templates(monkeypatch):
    """Voilà makes a Jinja environment per page render; the server compiles each template
    once (bohnteach.upstream.jupyter.share_compiled_templates), not once per visit — and never hands an
    async environment the code compiled for a sync one."""
    from jinja2 import Environment
    from nbconvert import HTMLExporter
    from nbformat.v4 import new_markdown_cell, new_notebook
    from nbconvert.exporters.templateexporter import TemplateExporter

    from bohnteach.upstream.jupyter import share_compiled_templates

    monkeypatch.setattr(TemplateExporter, "_create_environment", TemplateExporter._create_environment)
    share_compiled_templates()
    compiled: list[str] = []
    compile_ = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, source, name=None, filename=None, *a, **k:
                        compiled.append(name) or compile_(self, source, name, filename, *a, **k))

    def render() -> int:
        before = len(compiled)
        html, _ = HTMLExporter(template_name="lab").from_notebook_node(new_notebook(cells=[new_markdown_cell("# Hallo")]))
        assert "Hallo" in html
        return len(compiled) - before

    first = render()
    assert first >= 2  # index.html.j2 and the templates it extends
    assert render() == 0 and render() == 0
    exporter = HTMLExporter(template_name="lab", enable_async=True)
    exporter.register_filter("highlight_code", lambda source, **kw: source)
    exporter.environment.get_template("index.html.j2")
    assert len(compiled) > first  # compiled for the async environment, not taken from the sync one


def test_the_server_reads_message_dates_as_jupyter_client_does(monkeypatch):
    """bohnteach.upstream.jupyter.read_only_header_dates: the header's date as jupyter_client reads it,
    every other field untouched — a message deserialized the same way, only faster."""
    from jupyter_client import session as session_module
    from jupyter_client.jsonutil import extract_dates

    from bohnteach.upstream.jupyter import read_only_header_dates

    monkeypatch.setattr(session_module, "extract_dates", session_module.extract_dates)
    session = session_module.Session(key=b"geheim")
    message = session.msg("comm_msg", {"data": {"value": "2026-12-02T10:00:00Z"}})
    wire = session.serialize(message)[1:]  # without the delimiter
    before = session.deserialize(wire)
    read_only_header_dates()
    assert session_module.extract_dates is not extract_dates
    session.digest_history.clear()  # the same message twice: not a replay here
    after = session.deserialize(wire)
    assert after["header"] == before["header"] and after["header"]["date"].tzinfo is not None
    assert after["content"] == before["content"] == {"data": {"value": "2026-12-02T10:00:00Z"}}
    import warnings

    for stamp in ("2026-12-02T10:00:00.123456+01:00", "2026-12-02T10:00:00Z", "gestern", "2026-12-02T10:00:00"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # jupyter_client on a date without zone
            assert session_module.extract_dates({"date": stamp, "msg_id": "2026-12-02T10:00:00Z"}) == \
                {"date": extract_dates({"date": stamp})["date"], "msg_id": "2026-12-02T10:00:00Z"}


def test_the_servers_logger_makes_no_debug_records():
    """traitlets leaves the Voilà app's logger at DEBUG and filters in the handler; the
    server's settings (``VOILA_SETTINGS``) set it to INFO, so the debug line per kernel message costs nothing."""
    import logging

    from voila.app import Voila

    from bohnteach.site.serve import _split_options

    from bohnteach.site.serve import VOILA_SETTINGS

    def logger_level(argv: list[str], **settings: object) -> int:
        app = Voila(**settings)
        app.parse_command_line(argv)
        return app.log.getEffectiveLevel()

    argv, _, _ = _split_options(build_voila_command(8866, public=False)[3:])
    assert logger_level(argv, **VOILA_SETTINGS) == logging.INFO
    assert logger_level(argv) == logging.DEBUG  # the control


# ---- a clean log ------------------------------------------------------------------------------
def test_a_started_and_stopped_server_logs_clean_and_leaves_no_folder(tiny_site, tmp_path):
    """Issue 53 §8: no "Notebook … is not trusted" per notebook read, no traitlets warning
    about the command line's forms, and the fork server's temporary folder goes with it."""
    import tempfile

    # the server's temporary folder: short, as the kernels' Unix sockets in it must be
    tmp = Path(tempfile.mkdtemp(prefix="bt-", dir="/tmp"))
    log = tmp_path / "voila.log"
    with start_site(log, root=tiny_site, env={"TMPDIR": str(tmp)}) as base:
        _kernel_id_of_served_page(base, "notebooks/seite")  # a page read and run: a forked kernel
        assert list(tmp.glob("bohnteach-fork-*")), "the fork server made no folder"
    text = log.read_text()
    assert "Kernel started" in text  # the log is the server's (the page's kernel started)
    assert "is not trusted" not in text
    assert "DeprecationWarning" not in text
    assert list(tmp.glob("bohnteach-fork-*")) == []
    shutil.rmtree(tmp)


def test_the_servers_logger_drops_only_the_trust_warning():
    import logging

    from bohnteach.upstream.jupyter import NotTrustedFilter

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("Voila", logging.WARNING, __file__, 1, msg, ("x.ipynb",), None)

    assert not NotTrustedFilter().filter(record("Notebook %s is not trusted"))
    assert NotTrustedFilter().filter(record("Notebook %s could not be read"))
