"""The one-page app in Chromium under Voilà: one tab, one kernel, addresses like a website.

A visitor opens the root, follows three chapter links, goes Back and Forward, reloads a deep
link and opens a lesson in the teacher view; a scene steps and „Mach du!“ refuses a wrong
move in a chapter reached by navigation. The server's log says how many kernels the visitor
used (Voilà logs each websocket connection to a kernel and each page it renders).
"""
from __future__ import annotations

import re
from pathlib import Path

from browser_helpers import (EXPECT_TIMEOUT_MS, MATHJAX_STARTED_JS, collect_errors, follow_site_links,
                             one_page_site, open_page, refuses_wrong_move, start_site, visible_errors)
from playwright.sync_api import Page, expect

from bohnteach.content.chapters import LESSONS, PAGES
from bohnteach.site.pages import find_page


def _wait_shown(page: Page, route: str) -> None:
    """Wait until the app has shown the page of ``route`` (its query, e.g. ``kapitel=02_Phase_1``)."""
    expect(page.locator("html")).to_have_attribute("data-bt-shown", route)


def _heading(page: Page):
    return page.locator(".bt-app h1").first


def _chapter_title(name: str) -> str:
    return find_page(name).title


def _open_app(page: Page, site_url: str, query: str = "") -> list[str]:
    errors = collect_errors(page)
    page.goto(f"{site_url}/{'?' + query if query else ''}", timeout=300_000)
    _wait_shown(page, query)
    return errors


def _log_since(log: Path, start: int) -> str:
    return log.read_text("utf-8", errors="replace")[start:]


def test_one_tab_one_kernel_addresses_back_forward_reload(page: Page, site_url: str, site_log: Path):
    start = len(site_log.read_text("utf-8", errors="replace"))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    documents: list[str] = []
    page.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)

    errors = _open_app(page, site_url)
    expect(_heading(page)).to_have_text("Bohnanza lernen", use_inner_text=True)
    expect(page).to_have_title("Bohnanza lernen")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    # three chapter links: a card on the start page, „weiter“ in the header, the overview link
    card = page.locator(".bt-chapters a", has_text=_chapter_title("02_Phase_1"))
    expect(card).to_have_attribute("href", "/?kapitel=02_Phase_1")
    expect(card).not_to_have_attribute("target", re.compile(".+"))
    card.click()
    _wait_shown(page, "kapitel=02_Phase_1")
    expect(_heading(page)).to_have_text(_chapter_title("02_Phase_1"), use_inner_text=True)
    expect(page).to_have_title(f"{_chapter_title('02_Phase_1')} – Bohnanza lernen")
    assert page.url == f"{site_url}/?kapitel=02_Phase_1"

    page.locator(".bt-header a.bt-nav-next").click()
    _wait_shown(page, "kapitel=03_Phase_2_und_Handel")
    expect(_heading(page)).to_have_text(_chapter_title("03_Phase_2_und_Handel"), use_inner_text=True)

    page.locator("nav.bt-nav a.bt-nav-home").click()
    _wait_shown(page, "kapitel=00_Start")
    expect(_heading(page)).to_have_text("Bohnanza lernen", use_inner_text=True)

    # Back and Forward move between the chapters
    page.go_back()
    _wait_shown(page, "kapitel=03_Phase_2_und_Handel")
    expect(_heading(page)).to_have_text(_chapter_title("03_Phase_2_und_Handel"), use_inner_text=True)
    assert page.url.endswith("/?kapitel=03_Phase_2_und_Handel")
    page.go_back()
    _wait_shown(page, "kapitel=02_Phase_1")
    page.go_forward()
    _wait_shown(page, "kapitel=03_Phase_2_und_Handel")
    expect(page).to_have_title(f"{_chapter_title('03_Phase_2_und_Handel')} – Bohnanza lernen")

    # one tab, one page load, one kernel — in the browser and in the server's log
    assert len(page.context.pages) == 1
    assert len(documents) == 1, documents
    kernels = {m.group(1) for url in sockets if (m := re.search(r"/api/kernels/([0-9a-f-]+)/channels", url))}
    assert len(kernels) == 1, sockets
    log = _log_since(site_log, start)
    assert log.count("Connecting to kernel") == 1, log
    assert not re.search(r"kernel: \S+ for notebooks/\d\d_|for tutorials/", log), "a page was rendered"

    # a deep link reloads onto its chapter
    page.goto(f"{site_url}/?kapitel=14_Ladybohn", timeout=300_000)
    _wait_shown(page, "kapitel=14_Ladybohn")
    expect(_heading(page)).to_have_text(_chapter_title("14_Ladybohn"), use_inner_text=True)
    expect(page).to_have_title(f"{_chapter_title('14_Ladybohn')} – Bohnanza lernen")
    assert visible_errors(page) == [] and errors == []


def test_scene_and_mach_du_work_in_a_chapter_reached_by_a_link(page: Page, site_url: str):
    errors = _open_app(page, site_url)
    page.locator(".bt-chapters a", has_text=_chapter_title("02_Phase_1")).click()
    _wait_shown(page, "kapitel=02_Phase_1")
    player = page.locator(".bt-scene-player").first
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("Schritt 1")
    refuses_wrong_move(page)
    assert visible_errors(page) == [] and errors == []


def test_lesson_in_teacher_view_and_its_links_lead_on_without_the_parameter(page: Page, site_url: str):
    """The teacher view stays on the next lesson though no link carries ``lehrkraft``
    (the browser keeps it: tests/test_teacher_view_browser.py)."""
    errors = _open_app(page, site_url, "lektion=01_Bohnentreppe&lehrkraft=1")
    expect(_heading(page)).to_have_text(re.compile("Lektion 1"), use_inner_text=True)
    expect(page.locator(".bt-app .bt-teacher-notes")).to_contain_text("Lehrkraft-Ansicht")  # the banner on top
    next_lesson = page.locator(".bt-app a", has_text="Lektion 2").first
    expect(next_lesson).to_have_attribute("href", "/?lektion=02_Zwei_Karten_aufdecken")
    next_lesson.click()
    _wait_shown(page, "lektion=02_Zwei_Karten_aufdecken")
    expect(_heading(page)).to_have_text(re.compile("Lektion 2"), use_inner_text=True)
    expect(page.locator(".bt-app .bt-teacher-notes")).to_contain_text("Lehrkraft-Ansicht")
    # the class's view: another browser without the teacher view shows no teacher parts
    pupil = page.context.browser.new_page()
    _open_app(pupil, site_url, "lektion=02_Zwei_Karten_aufdecken")
    expect(pupil.locator(".bt-app .bt-exercise").first).to_be_visible()
    expect(pupil.locator(".bt-app")).not_to_contain_text("Lehrkraft-Ansicht")
    pupil.close()
    assert len(page.context.pages) == 1 and errors == []


def test_unknown_chapter_says_so_and_links_home(page: Page, site_url: str):
    _open_app(page, site_url, "kapitel=99_Gibt_es_nicht")
    expect(page.locator(".bt-app")).to_contain_text("Seite nicht gefunden")
    expect(page).to_have_title(re.compile("^Seite nicht gefunden"))
    page.locator(".bt-app a", has_text="Zur Startseite").click()
    _wait_shown(page, "kapitel=00_Start")
    expect(_heading(page)).to_have_text("Bohnanza lernen", use_inner_text=True)


def test_links_on_a_standalone_page_stay_in_the_tab_and_lead_into_the_app(page: Page, site_url: str):
    """Today's page addresses still serve their page; their links to other pages lead into
    the app, in the same tab; links to other hosts keep their own address."""
    errors = collect_errors(page)
    page.goto(f"{site_url}/voila/render/notebooks/02_Phase_1.ipynb", timeout=300_000)
    expect(page.locator("h1").first).to_have_text(_chapter_title("02_Phase_1"), use_inner_text=True,
                                                 timeout=EXPECT_TIMEOUT_MS)
    nxt = page.locator("nav.bt-nav a.bt-nav-next")
    expect(nxt).to_have_attribute("href", "/?kapitel=03_Phase_2_und_Handel")
    nxt.click()
    _wait_shown(page, "kapitel=03_Phase_2_und_Handel")
    expect(_heading(page)).to_have_text(_chapter_title("03_Phase_2_und_Handel"), use_inner_text=True)
    assert len(page.context.pages) == 1
    footer = page.locator("footer.bt-footer a", has_text="Impressum")
    expect(footer).to_have_attribute("href", "https://example.org/impressum")
    assert errors == []


#: a page's output with a formula between MathJax's delimiters
_FORMULA_PAGE = "from IPython.display import HTML, display\ndisplay(HTML('<p>Fläche: $a \\\\cdot b$</p>'))\n"


def test_a_formula_is_typeset_and_a_page_without_one_starts_no_mathjax(page: Page, site_url: str, tmp_path: Path):
    """The app's extension asks MathJax only for a text that can hold a formula: a chapter
    (no formula on the site) never starts it (its stylesheet comes with its first typesetting),
    a page with ``$a \\cdot b$`` shows the formula typeset."""
    assert open_page(page, site_url, "02_Phase_1") == []
    assert not page.evaluate(MATHJAX_STARTED_JS)
    assert page.locator("mjx-container").count() == 0
    site = one_page_site(tmp_path / "site", "formel", _FORMULA_PAGE)
    with start_site(tmp_path / "voila.log", root=site) as base:
        assert open_page(page, base, "formel") == []
        expect(page.locator("#rendered_cells mjx-container")).to_have_count(1)
    assert page.evaluate(MATHJAX_STARTED_JS)
    assert "a \\cdot b" not in page.inner_text("#rendered_cells")  # the formula, not its source


def test_every_chapters_and_lessons_links_lead_to_their_page_inside_the_app(page: Page, site_url: str):
    """Reached inside the app (not by its own address), every chapter's and lesson's
    previous / next / home links lead to the page they name, top and bottom (issue 52 §1:
    a lesson's top links were resolved against the page shown before it, the start page
    in notebooks/, and led to „Seite nicht gefunden“)."""
    errors = _open_app(page, site_url)
    visited = follow_site_links(page)
    assert {route for route in visited if route.startswith("lektion=")} == {
        f"lektion={name}" for name, _title in LESSONS}
    assert len({route for route in visited if route.startswith("kapitel=")}) == len(PAGES)
    assert visible_errors(page) == [] and errors == []
