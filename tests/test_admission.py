"""Kernel slots and the queue page: at most N visitors' pages prepared at once, the others
wait in line first come, first served, and see their place (bohnteach.site.admission)."""
from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request

import pytest
from aio import run
from browser_helpers import collect_errors, one_page_site, start_site
from german_scan import german_words, html_to_text
from playwright.sync_api import expect

from bohnteach.site.addresses import APP_PAGE
from bohnteach.site.admission import KernelSlots, queue_start_for
from bohnteach.site.serve import (
    APP_POOL_SIZE,
    KERNEL_STARTS_OPTION,
    POOL_OPTION,
    REFILL_QUIET,
    _split_options,
    build_voila_command,
    page_path,
)


def test_slots_serve_in_order_of_arrival_and_report_places():
    async def scenario() -> dict[str, list]:
        slots = KernelSlots(1)
        seen: dict[str, list] = {"b": [], "c": [], "order": []}

        async def visitor(name: str) -> None:
            async def place(n: int) -> None:
                seen[name].append(n)

            async with slots.slot(place):
                seen["order"].append(name)
                await asyncio.sleep(1.5)  # places are looked at once a second

        await slots.acquire(lambda n: asyncio.sleep(0))  # "a" holds the only slot
        b = asyncio.create_task(visitor("b"))
        await asyncio.sleep(0.01)
        c = asyncio.create_task(visitor("c"))
        await asyncio.sleep(0.01)
        assert (slots.busy, slots.waiting, slots.free()) == (1, 2, False)
        slots.release()  # "a" is done: "b" gets the slot, "c" moves up
        await asyncio.gather(b, c)
        assert (slots.busy, slots.waiting, slots.free()) == (0, 0, True)
        return seen

    seen = run(scenario())
    assert seen == {"b": [1], "c": [2, 1], "order": ["b", "c"]}


def test_a_visitor_who_leaves_the_line_frees_the_place():
    async def scenario() -> list[str]:
        slots = KernelSlots(1)
        got: list[str] = []
        await slots.acquire(lambda n: asyncio.sleep(0))

        async def visitor(name: str) -> None:
            await slots.acquire(lambda n: asyncio.sleep(0))
            got.append(name)

        leaver = asyncio.create_task(visitor("weg"))
        stayer = asyncio.create_task(visitor("bleibt"))
        await asyncio.sleep(0.01)
        leaver.cancel()  # the browser tab was closed while waiting
        await asyncio.sleep(0.01)
        assert slots.waiting == 1
        slots.release()
        await stayer
        return got

    assert run(scenario()) == ["bleibt"]


def test_limit_must_be_positive():
    with pytest.raises(ValueError):
        KernelSlots(0)


def test_background_work_waits_for_a_quiet_server_and_lets_visitors_go_first():
    async def scenario() -> list[str]:
        slots = KernelSlots(1)
        events: list[str] = []

        async def refill() -> None:
            await slots.acquire_when_quiet(0.3, poll=0.05)
            events.append("refill")
            slots.release()

        slots.visit_started()  # a page is being sent
        task = asyncio.create_task(refill())
        await asyncio.sleep(0.5)
        assert events == []
        slots.visit_ended()
        await asyncio.sleep(0.1)
        assert events == []  # sent only 0.1 s ago
        await slots.acquire(lambda n: asyncio.sleep(0))  # a visitor takes the only slot
        events.append("visitor")
        await asyncio.sleep(0.5)
        assert events == ["visitor"]  # quiet long enough, but the slot is taken
        slots.release()
        await asyncio.wait_for(task, 5)
        return events

    assert run(scenario()) == ["visitor", "refill"]

def test_command_carries_pool_sizes_and_kernel_limit(tmp_path):
    cmd = build_voila_command(8866, public=False, root=tmp_path,
                              pools={"tutorials/01_Bohnentreppe": 30, "02_Phase_1": 0},
                              kernel_starts=3)
    assert f"{KERNEL_STARTS_OPTION}=3" in cmd
    assert f"{POOL_OPTION}=tutorials/01_Bohnentreppe.ipynb=30" in cmd
    rest, starts, pools = _split_options(cmd[3:])
    assert (starts, pools) == (3, {"notebooks/app.ipynb": APP_POOL_SIZE,  # where visitors enter
                                   "tutorials/01_Bohnentreppe.ipynb": 30, "notebooks/02_Phase_1.ipynb": 0})
    _, _, pools = _split_options(build_voila_command(8866, False, tmp_path, pools={"app": 30})[3:])
    assert pools == {"notebooks/app.ipynb": 30}
    assert not [a for a in rest if a.startswith("--bohnteach")]  # Voilà never sees ours


def test_the_queue_page_speaks_the_language_its_address_names() -> None:
    english = queue_start_for("kapitel=02_Phase_1&lang=en")
    assert '<html lang="en">' in english and german_words(html_to_text(english)) == []
    assert "You are number <b id=" in english
    for query in ("kapitel=02_Phase_1", "lang=xx", "lang=%3Cb%3E"):  # German, also for no language of ours
        german = queue_start_for(query)
        assert '<html lang="de">' in german and "Du bist Nr. <b id=" in german


# ---- in the browser ------------------------------------------------------------------------
_SLOW_PAGE = (
    "import time\nimport ipywidgets as w\ntime.sleep(10)  # a page that takes its time\n"
    "knopf = w.Button(description='Weiter')\n"
    "knopf.on_click(lambda b: setattr(b, 'description', 'Gedrückt'))\nknopf"
)


@pytest.fixture(scope="module")
def slow_site(tmp_path_factory: pytest.TempPathFactory):
    return one_page_site(tmp_path_factory.mktemp("queue"), "langsam", _SLOW_PAGE)


def test_a_visitor_beyond_the_limit_sees_the_queue_page_and_then_the_page(browser, slow_site, tmp_path):
    def one_start_no_pool(cmd: list[str]) -> list[str]:
        return [*cmd, f"{KERNEL_STARTS_OPTION}=1", f"{POOL_OPTION}=notebooks/langsam.ipynb=0"]

    with start_site(tmp_path / "voila.log", root=slow_site, edit_command=one_start_no_pool) as base:
        url = base + page_path("notebooks/langsam")
        first, second = browser.new_page(), browser.new_page()
        errors = collect_errors(second)  # the queue page and the page after it log none
        first.goto(url, wait_until="commit", timeout=300_000)  # headers come once it holds the slot
        second.goto(url, wait_until="commit", timeout=300_000)
        expect(second.locator("#bt-queue")).to_contain_text("Du bist Nr. 1 in der Warteschlange",
                                                            timeout=60_000)
        expect(second).to_have_title("Gleich geht's los")
        # a reader of the English site waits in English (its address names the language)
        third = browser.new_page()
        third.goto(url + "?lang=en", wait_until="commit", timeout=300_000)
        expect(third.locator("#bt-queue")).to_contain_text("You are number 2 in the queue",
                                                           timeout=60_000)
        expect(third).to_have_title("Starting in a moment")
        assert third.evaluate("document.documentElement.lang") == "en"
        third.close()  # it leaves the line (its page would send it on to the app, absent here)
        # an address without a page does not wait in line: Voilà's 404 comes at once
        with pytest.raises(urllib.error.HTTPError) as missing:
            _get(base + page_path("notebooks/fehlt"))
        assert missing.value.code == 404
        for visitor in (first, second):
            expect(visitor.get_by_role("button", name="Weiter")).to_be_visible(timeout=300_000)
        expect(second.locator("#bt-queue")).to_have_count(0)
        expect(second).not_to_have_title("Gleich geht's los")
        second.get_by_role("button", name="Weiter").click()  # the queued page's widgets work
        expect(second.get_by_role("button", name="Gedrückt")).to_be_visible(timeout=120_000)
        assert errors == []
        assert (tmp_path / "voila.log").read_text().count("waits for a kernel") == 2


def test_serve_klasse_preheats_the_entry_pages(monkeypatch):
    from bohnteach import cli
    from bohnteach.site import serve

    calls: list[dict] = []
    monkeypatch.setattr(serve, "serve_main", lambda **kw: calls.append(kw) or 0)
    cli.main(["serve", "--klasse", "30", "--einstieg", "tutorials/01_Bohnentreppe",
              "--einstieg", "02_Phase_1"])
    cli.main(["serve", "--klasse", "30"])  # a class arriving at the start address: the app
    cli.main(["serve"])
    assert [c["pools"] for c in calls] == [{"tutorials/01_Bohnentreppe": 30, "02_Phase_1": 30},
                                           {APP_PAGE: 30}, None]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=300) as response:
        return response.read().decode()


def test_a_taken_preheated_kernel_is_replaced_only_after_the_rush(tmp_path):
    """Two visitors take both preheated kernels of a page; the replacements start only
    once no page was asked for during REFILL_QUIET seconds, one after the other (also for a
    page whose last cell waits for its visitor), and the next visitor gets a preheated
    kernel again."""
    # like a lesson, the page's last step waits for the visitor's address (teacher mode):
    # in a preheated kernel its page is never complete before a visitor takes it
    site = one_page_site(tmp_path / "site", "klein", "print('Hallo')\n"
                         "from bohnteach.widgets.questions import teacher_mode_from_url\n"
                         "teacher_mode_from_url()")
    log = tmp_path / "voila.log"
    refill = "Refilling the kernel pool of notebooks/klein.ipynb"
    seen: list[float] = []  # when each refill line appeared (watched from the start)
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            text = log.read_text() if log.exists() else ""
            seen.extend([time.monotonic()] * (text.count(refill) - len(seen)))
            time.sleep(0.05)

    def pool_of_two(cmd: list[str]) -> list[str]:
        return [*cmd, f"{POOL_OPTION}=notebooks/klein.ipynb=2"]

    def wait_for(done, what: str, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, what
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with start_site(log, root=site, edit_command=pool_of_two) as base:
            url = base + page_path("notebooks/klein")
            filled = "Kernel pool of notebooks/klein.ipynb is filled with 2"
            wait_for(lambda: filled in log.read_text(), "pool not preheated")
            assert "Hallo" in _get(url)
            second_visit = time.monotonic()
            assert "Hallo" in _get(url)
            assert log.read_text().count("Using pre-heated kernel") == 2
            wait_for(lambda: len(seen) >= 2, "not refilled twice")
            assert seen[0] - second_visit >= REFILL_QUIET  # not while visitors came
            wait_for(lambda: log.read_text().count(filled) >= 2, "pool not full again")
            assert "Hallo" in _get(url)
            assert log.read_text().count("Using pre-heated kernel") == 3
            assert "waits for a kernel" not in log.read_text()
    finally:
        stop.set()
        watcher.join()
