"""The teacher view in Chromium (``bohnteach.widgets.teacher_view``): entered once, kept by
the browser, never in an address or a link a pupil sees; a server's code typed once; left
with one click. And a page that loses its server says so („Verbindung verloren“).

Issue 51: the link script carried ``lehrkraft`` onto every link, so the projected class
link and its QR code gave teacher mode (and the server's code) to every pupil.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import collect_errors, one_page_site, open_page, serve_site, start_site, stop_group
from playwright.sync_api import Page, expect

LESSON = "04_Rechnen_oder_simulieren"
CODE = "geheim-7"
KEPT_JS = "localStorage.getItem('bohnteach-lehrkraft')"
HREFS_WITH_LEHRKRAFT_JS = "[...document.querySelectorAll('a[href]')].map(a => a.href).filter(h => /lehrkraft/i.test(h))"


def _shown(page: Page, route: str) -> None:
    expect(page.locator("html")).to_have_attribute("data-bt-shown", route)


def _open_app(page: Page, base: str, query: str) -> list[str]:
    errors = collect_errors(page)
    page.goto(f"{base}/?{query}", timeout=300_000)
    _shown(page, query)
    return errors


def _serious_axe_findings(page: Page) -> list:
    result = Axe().run(page)
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]
            if v["impact"] in ("serious", "critical")]


def _notes(page: Page):
    return page.locator(".bt-app .bt-teacher-notes")


def test_teacher_view_is_kept_by_the_browser_and_stands_in_no_address(page: Page, site_url: str):
    errors = _open_app(page, site_url, f"lektion={LESSON}&lehrkraft=1")
    expect(_notes(page)).to_contain_text("Lehrkraft-Ansicht")
    expect(page).to_have_url(f"{site_url}/?lektion={LESSON}")  # the address bar is cleaned
    assert page.evaluate(KEPT_JS) == "1"

    # the class link and its QR code: the link keeps its class, never lehrkraft
    panel = page.locator(".bt-app .bt-klassenraum")
    panel.get_by_role("button", name="Klasse starten").click()
    link = panel.locator("a[href*='klasse=']").first
    link.hover()  # the link script fixes a link's address at the latest when it is pointed at
    expect(link).to_have_attribute("href", re.compile(rf"^/\?lektion={LESSON}&klasse=\w+$"))
    assert page.evaluate(HREFS_WITH_LEHRKRAFT_JS) == []

    # in the app the next lesson keeps the view, its address and links without the parameter
    page.locator(".bt-app a", has_text="Lektion 5").first.click()
    _shown(page, "lektion=05_Handeln_lohnt_sich")
    expect(_notes(page)).to_contain_text("Lehrkraft-Ansicht")
    assert "lehrkraft" not in page.url and page.evaluate(HREFS_WITH_LEHRKRAFT_JS) == []

    # a reload (a new kernel) without the parameter: still the teacher view, the class panel's too
    page.goto(f"{site_url}/?lektion={LESSON}", timeout=300_000)
    _shown(page, f"lektion={LESSON}")
    expect(_notes(page)).to_contain_text("Lehrkraft-Ansicht")
    expect(panel).to_contain_text(re.compile("Klasse beenden|Klasse starten"))

    # leaving: the page as the class sees it, and it stays so
    with page.expect_navigation():
        page.locator(".bt-app").get_by_role("button", name="Lehrkraft-Ansicht verlassen").first.click()
    _shown(page, f"lektion={LESSON}")
    expect(panel.get_by_role("button", name="Beitreten")).to_be_visible()
    expect(page.locator(".bt-app")).not_to_contain_text("Lehrkraft-Ansicht")
    assert page.evaluate(KEPT_JS) is None
    assert errors == []


def _few_kernels(command: list[str]) -> list[str]:
    """No preheated kernels: a second server beside the session's, started on demand only."""
    return [("--pool_size=0" if a.startswith("--pool_size=") else a) for a in command
            if not a.startswith("--bohnteach-pool=")]


@pytest.fixture(scope="module")
def coded_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose teacher view needs the code :data:`CODE` (``BOHNTEACH_LEHRKRAFT_CODE``)."""
    folder = tmp_path_factory.mktemp("coded")
    with start_site(folder / "voila.log", edit_command=_few_kernels,
                    env={"BOHNTEACH_LEHRKRAFT_CODE": CODE,
                         "BOHNTEACH_KLASSEN_DIR": str(folder / "klassen")}) as url:
        yield url


def test_the_servers_code_is_typed_once_and_never_stands_in_an_address(page: Page, coded_site: str):
    # a teacher's habit, ?lehrkraft=1: not enough here, the code field says why
    errors = _open_app(page, coded_site, "lektion=01_Bohnentreppe&lehrkraft=1")
    expect(page).to_have_url(f"{coded_site}/?lektion=01_Bohnentreppe")
    entry = page.locator(".bt-app .bt-teacher-switch").last
    expect(entry).to_contain_text("braucht dafür den Lehrkraft-Code")
    field = entry.locator("input[type=password]")
    field.fill("geheim-8")
    entry.get_by_role("button", name="Lehrkraft-Ansicht öffnen").click()
    expect(entry).to_contain_text("Dieser Lehrkraft-Code stimmt nicht.")
    expect(page.locator(".bt-teacher-toggle:visible")).to_have_count(0)
    assert _serious_axe_findings(page) == []

    field.fill(CODE)
    with page.expect_navigation():  # the page starts again in the teacher view (a class panel too)
        entry.get_by_role("button", name="Lehrkraft-Ansicht öffnen").click()
    _shown(page, "lektion=01_Bohnentreppe")
    expect(_notes(page)).to_contain_text("Lehrkraft-Ansicht")
    expect(page.locator(".bt-teacher-toggle:visible").first).to_be_visible()
    assert page.evaluate(KEPT_JS) == CODE and CODE not in page.url

    # the next visit: the kernel checks what the browser kept
    page.goto(f"{coded_site}/?lektion=02_Zwei_Karten_aufdecken", timeout=300_000)
    _shown(page, "lektion=02_Zwei_Karten_aufdecken")
    expect(_notes(page)).to_contain_text("Lehrkraft-Ansicht")
    assert CODE not in page.url and page.evaluate(HREFS_WITH_LEHRKRAFT_JS) == []
    assert errors == []


def test_a_page_that_lost_its_server_says_so_and_reloads(tmp_path: Path, page: Page):
    """Issue 51, pupils' input 6: after the server went away a page said nothing; now an
    alert (at 390 px too) with a button that reloads, reached by keyboard."""
    root = one_page_site(tmp_path / "site", "seite", "import ipywidgets as w\nw.Button(description='Weiter')")
    page.set_viewport_size({"width": 390, "height": 844})
    with serve_site(tmp_path / "voila.log", root=root) as site:
        open_page(page, site.base, "seite", wait_for=".widget-button")
        expect(page.get_by_role("alert")).to_have_count(0)
        stop_group(site.process)
        notice = page.get_by_role("alert")
        expect(notice).to_contain_text("Verbindung verloren – Seite neu laden")
        expect(notice).to_be_in_viewport()
        assert _serious_axe_findings(page) == []
        button = notice.get_by_role("button", name="Seite neu laden")
        button.focus()
        expect(button).to_be_focused()
        with page.expect_request(lambda r: r.is_navigation_request() and r.url.startswith(site.base)):
            page.keyboard.press("Enter")


def test_a_pupil_with_the_servers_code_gets_no_control_of_a_class(browser, coded_site: str):
    """The server's code gives the teacher view (the solutions), never another teacher's class:
    a pupil who knows both the class code and the server's code, and puts them in the address,
    sees neither the class's controls nor its members."""
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    pupil_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    try:
        teacher = teacher_ctx.new_page()
        errors = _open_app(teacher, coded_site, f"lektion={LESSON}&lehrkraft=1")
        entry = teacher.locator(".bt-app .bt-teacher-switch").last
        entry.locator("input[type=password]").fill(CODE)
        with teacher.expect_navigation():
            entry.get_by_role("button", name="Lehrkraft-Ansicht öffnen").click()
        _shown(teacher, f"lektion={LESSON}")
        panel = teacher.locator(".bt-app .bt-klassenraum")
        panel.get_by_role("button", name="Klasse starten").click()
        shown = panel.locator(".bt-klasse-code strong")
        expect(shown).to_have_text(re.compile(r"^[A-Z0-9]{3} [A-Z0-9]{3}$"), timeout=60_000)
        code = shown.inner_text().replace(" ", "")
        assert CODE not in teacher.content() and teacher.evaluate(HREFS_WITH_LEHRKRAFT_JS) == []

        pupil = pupil_ctx.new_page()
        errors += _open_app(pupil, coded_site, f"lektion={LESSON}&klasse={code}&lehrkraft={CODE}")
        expect(_notes(pupil)).to_contain_text("Lehrkraft-Ansicht")  # the code opens the view ...
        assert CODE not in pupil.url
        intruder = pupil.locator(".bt-app .bt-klassenraum")
        expect(intruder).to_contain_text("nicht in diesem Browser gestartet")  # ... not the class
        for label in ("Klasse schließen", "Klasse beenden (alles löschen)", "Auflösen",
                      "Abgaben löschen", "PIN für ein zweites Gerät"):
            expect(intruder.get_by_role("button", name=label, exact=True)).to_have_count(0)
        expect(intruder.locator(".bt-klasse-qr")).to_have_count(0)
        expect(panel.get_by_role("button", name="Klasse schließen")).to_be_visible()  # still the teacher's
        assert errors == []
    finally:
        teacher_ctx.close()
        pupil_ctx.close()
