"""``bohnteach serve``: the command line it builds, the shipped pages, the start page."""
from __future__ import annotations

import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from browser_helpers import open_page, visible_errors
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bohnteach.site.serve import START_PAGE, build_voila_command, page_path, site_dir, start_url


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


def test_default_root_is_site_dir():
    assert str(site_dir().resolve()) in build_voila_command(8866, public=False)


def test_site_dir_serves_pages_and_lessons_side_by_side():
    root = site_dir()
    assert (root / "notebooks" / START_PAGE).is_file()
    assert list((root / "tutorials").glob("01_*.ipynb")), "the lessons are served too"



def test_voila_finds_the_pages_to_preheat():
    """Voilà lists the notebooks to preheat with Path.rglob (no symlinked folders)."""
    found = {str(p.relative_to(site_dir())) for p in site_dir().rglob("*.ipynb")}
    assert f"notebooks/{START_PAGE}" in found
    assert any(name.startswith("tutorials/") for name in found)

def test_start_url():
    assert start_url(8866) == "http://127.0.0.1:8866/voila/render/notebooks/00_Start.ipynb"
    assert page_path("tutorials/01_Bohnentreppe") == "/voila/render/tutorials/01_Bohnentreppe.ipynb"


def test_site_serves_start_page_html(site_url):
    with urllib.request.urlopen(site_url + page_path(START_PAGE), timeout=120) as resp:
        assert resp.status == 200
        html = resp.read().decode()
    assert "cdn.jsdelivr.net" not in html  # our template: no CDN requests


def test_start_page_in_browser(page, site_url):
    errors = open_page(page, site_url, "00_Start", wait_for=".widget-button")
    assert page.locator("h1").first.inner_text().strip()
    assert visible_errors(page) == []
    # Some button on the start page must visibly change the page when clicked.
    buttons = page.locator(".widget-button:not([disabled])")
    changed = False
    for i in range(min(buttons.count(), 8)):
        before = page.inner_text("#rendered_cells")
        buttons.nth(i).click()
        try:
            page.wait_for_function(
                "before => document.getElementById('rendered_cells').innerText !== before",
                arg=before,
                timeout=10_000,
            )
        except PlaywrightTimeoutError:
            continue
        changed = True
        break
    assert changed, "no button click changed the start page"
    assert visible_errors(page) == []
    assert errors == []



def test_kernel_channel_wait_polls():
    """serve.py's fix for nbclient #312: a wait without timeout polls in 1-second steps."""
    import asyncio
    from queue import Empty

    from jupyter_client.channels import AsyncZMQSocketChannel

    from bohnteach.site import serve

    serve._never_wait_blind_on_kernel_channels()
    serve._never_wait_blind_on_kernel_channels()  # idempotent

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

    def run(coro):  # in a thread: pytest-playwright may own this thread's event loop
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, coro).result()

    assert run(channel.get_msg()) == {"msg": "reply"}
    assert channel.socket.polls == [1000, 1000, 1000]
    channel.socket.polls.clear()
    with pytest.raises(Empty):
        run(channel.get_msg(timeout=0.5))
    assert channel.socket.polls == [500]
