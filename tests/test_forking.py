"""Kernels forked from the warm fork server (``bohnteach.site.forking``): they start with the
site imported, are real kernels a kernel manager can run, interrupt and shut down, get their
own address, folder and random state, and a kernel start never fails for want of the server."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from aio import run
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from bohnteach.site import forking
from bohnteach.site.serve import build_voila_command

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _wait_gone(pid: int, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def fork_provisioner():
    """Kernel managers in this test start kernels through the fork server (its own, ended
    afterwards); the factory's default is put back."""
    factory = KernelProvisionerFactory.instance()
    before = factory.default_provisioner_name
    factory.default_provisioner_name = forking.PROVISIONER
    yield forking._SERVER
    factory.default_provisioner_name = before
    forking._SERVER.close()


class Kernel:
    """A kernel started by a kernel manager, and what it prints for a piece of code."""

    def __init__(self, query: str = "") -> None:
        self.query = query

    async def __aenter__(self) -> Kernel:
        self.km = AsyncKernelManager(kernel_name="python3")
        await self.km.start_kernel(env=dict(os.environ, QUERY_STRING=self.query), cwd=str(NOTEBOOKS))
        self.kc = self.km.client()
        self.kc.start_channels()
        await self.kc.wait_for_ready(timeout=120)
        self.pid = self.km.provisioner.pid
        return self

    async def run(self, code: str, timeout: float = 120) -> str:
        return await self.result(self.kc.execute(code), timeout)

    async def result(self, msg_id: str, timeout: float = 120) -> str:
        """What the cell ``msg_id`` printed (an error by its name), once it has run."""
        out = []
        while True:
            msg = await self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append(msg["content"]["ename"])
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return "".join(out).strip()

    async def __aexit__(self, *exc: object) -> None:
        self.kc.stop_channels()
        await self.km.shutdown_kernel(now=True)


def test_a_forked_kernel_starts_with_the_site_imported_and_its_own_address(fork_provisioner):
    async def scenario() -> None:
        async with Kernel("kapitel=02_Phase_1") as one, Kernel("kapitel=14_Ladybohn") as two:
            server = fork_provisioner.process.pid
            assert _parent(one.pid) == server and _parent(two.pid) == server  # forked, not started
            cmdline = Path(f"/proc/{one.pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            assert f"-m ipykernel_launcher -f {one.km.connection_file}" in cmdline  # ps names it a kernel
            probe = ("import os, sys, random; print('bohnteach.site.app' in sys.modules, "
                     "os.environ['QUERY_STRING'], os.getcwd(), random.getrandbits(64))")
            first, second = (await one.run(probe)).split(), (await two.run(probe)).split()
            assert first[:3] == ["True", "kapitel=02_Phase_1", str(NOTEBOOKS)]
            assert second[:3] == ["True", "kapitel=14_Ladybohn", str(NOTEBOOKS)]
            assert first[3] != second[3]  # each kernel its own random state
            # A page runs in it, and an interrupt stops a running cell as in any kernel.
            shown = await one.run("from bohnteach.site.app import App\napp = App('kapitel=02_Phase_1')\n"
                                  "print(app.entry.name, app.live_widgets() > 10)")
            assert shown == "02_Phase_1 True"
            sleeping = one.kc.execute("print('schlafe', flush=True); import time; time.sleep(60)")
            while (await one.kc.get_iopub_msg(timeout=60))["msg_type"] != "stream":
                pass  # the cell runs
            started = time.monotonic()
            await one.km.interrupt_kernel()
            assert await one.result(sleeping) == "KeyboardInterrupt"
            assert time.monotonic() - started < 30
            pids = one.pid, two.pid
        for pid in pids:  # shut down: the processes are gone
            assert _wait_gone(pid)

    run(scenario())


#: What a module decides at import when it finds a kernel: comm targets (ipywidgets'
#: ``jupyter.widget.control`` answers a page's request for all widget states), the State
#: display (bohnteach), plotly's renderer.
KERNEL_SETUP_PROBE = """
import json, ipywidgets, plotly.io, bohnteach
from comm import get_comm_manager
from bohnteach.game.state import State
print(json.dumps({"targets": sorted(get_comm_manager().targets),
                  "state_as_table": State in get_ipython().display_formatter.formatters["text/html"].type_printers,
                  "plotly": plotly.io.renderers.default}))
"""


def test_a_forked_kernel_is_set_up_as_a_started_one(fork_provisioner):
    """The fork server imported the site without a kernel; what modules set up at import in
    a kernel is the same in a forked kernel as in a newly started one."""
    factory = KernelProvisionerFactory.instance()

    async def probe() -> str:
        async with Kernel() as kernel:
            return await kernel.run(KERNEL_SETUP_PROBE)

    forked = run(probe())
    factory.default_provisioner_name = "local-provisioner"
    started = run(probe())
    assert '"jupyter.widget.control"' in started and '"state_as_table": true' in started
    assert forked == started


def test_without_the_fork_server_a_kernel_starts_the_normal_way(fork_provisioner, caplog, monkeypatch):
    monkeypatch.setattr(forking, "READY_TIMEOUT", 5.0)
    broken = [sys.executable, "-c", "raise SystemExit(3)"]  # a fork server that fails at once
    monkeypatch.setattr(fork_provisioner, "command", lambda: broken)

    async def scenario() -> None:
        async with Kernel() as kernel:
            assert _parent(kernel.pid) == os.getpid()  # started by us, as without the provisioner
            assert await kernel.run("print(6 * 7)") == "42"

    with caplog.at_level(logging.WARNING, logger="bohnteach.site.forking"):
        run(scenario())
    assert "Fork-Server nicht bereit" in caplog.text


def test_only_this_pythons_ipykernel_is_forked():
    assert forking.forkable([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]) == ["-f", "k.json"]
    assert forking.forkable(["/usr/bin/env", "-m", "ipykernel_launcher", "-f", "k.json"]) is None
    assert forking.forkable([sys.executable, "-m", "other_kernel", "-f", "k.json"]) is None
    assert forking.forkable(["/nonexistent/python", "-m", "ipykernel_launcher"]) is None


def test_the_fork_server_ends_with_the_process_that_started_it(tmp_path):
    socket_path = tmp_path / "socket"
    # A parent that starts the fork server, waits until it listens, and ends.
    parent = subprocess.run(
        [sys.executable, "-c",
         "import subprocess, sys, time, os\n"
         f"p = subprocess.Popen([sys.executable, '-m', 'bohnteach.site.forking', {str(socket_path)!r}])\n"
         f"while not os.path.exists({str(socket_path)!r}): time.sleep(0.05)\n"
         "print(p.pid)"],
        capture_output=True, text=True, timeout=180, check=True)
    server = int(parent.stdout.split()[-1])
    assert _wait_gone(server, 30), "the fork server outlived the Voilà server"
    assert not socket_path.exists()


def test_the_served_site_forks_its_kernels(site_url):
    """Under ``bohnteach serve`` a visitor's kernel is a child of the fork server."""
    assert f"--KernelProvisionerFactory.default_provisioner_name={forking.PROVISIONER}" in \
        build_voila_command(8866, public=False)
    with urllib.request.urlopen(site_url + "/?kapitel=02_Phase_1", timeout=300) as answer:
        assert b"bt-app" in answer.read()
    port = site_url.rsplit(":", 1)[1]
    server = next(pid for pid in _tree(1) if f"--port={port}".encode() in _cmdline(pid)
                  and b"bohnteach.site.serve" in _cmdline(pid))
    below = _tree(server)
    kernels = [pid for pid in below if b"ipykernel_launcher" in _cmdline(pid)]
    forks = {pid for pid in below if b"bohnteach.site.forking" in _cmdline(pid)}
    assert len(forks) == 1 and kernels
    assert all(_parent(pid) in forks for pid in kernels)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(_parent(int(entry.name)), []).append(int(entry.name))
            except (OSError, IndexError):
                continue
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return [pid for pid in found if pid != root]


def test_a_request_that_never_comes_does_not_stop_the_fork_server(fork_provisioner, monkeypatch):
    """A client that connects and sends nothing is dropped after REQUEST_TIMEOUT; the next
    kernel still starts."""
    import socket

    async def scenario() -> None:
        assert await fork_provisioner.ready()
        silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        silent.connect(fork_provisioner.path)
        try:
            async with Kernel() as kernel:
                assert _parent(kernel.pid) == fork_provisioner.process.pid
                assert await kernel.run("print('da')") == "da"
        finally:
            silent.close()

    run(scenario())
