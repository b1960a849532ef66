"""The reader's language in Chromium under Voilà (issue 56): the switch „Deutsch · English“
in the page's bar, the address that keeps ``lang`` on every link, Back, reload and a deep
link, a scene's step and a refused move in English, the teacher view, the bare root that
sends a returning reader to the language chosen, a page's own address in English.

The first chapter is translated (``bohnteach/locale/done.toml``); the static site is
``test_static_site.py``.
"""
from __future__ import annotations

import re

from browser_helpers import (assert_english_mach_du_refusal, assert_english_teacher_solution, collect_errors,
                             visible_errors)
from playwright.sync_api import Page, expect

CHAPTER = "01_Material_und_Aufbau"
EN = f"kapitel={CHAPTER}&lang=en"


def _wait_shown(page: Page, route: str) -> None:
    """Wait until the app has shown the page of ``route`` (the address's query)."""
    expect(page.locator("html")).to_have_attribute("data-bt-shown", route)


def _heading(page: Page):
    return page.locator(".bt-app h1").first


def _switch(page: Page, lang: str):
    return page.locator(f".bt-lang a[lang={lang}]")


def _open_app(page: Page, site_url: str, query: str = "") -> list[str]:
    errors = collect_errors(page)
    page.goto(f"{site_url}/{'?' + query if query else ''}", timeout=300_000)
    _wait_shown(page, query)
    return errors


def test_switch_links_back_and_reload_keep_the_language(page: Page, site_url: str):
    errors = _open_app(page, site_url, f"kapitel={CHAPTER}")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    german, english = _switch(page, "de"), _switch(page, "en")
    expect(german).to_have_text("Deutsch")
    expect(german).to_have_attribute("aria-current", "true")
    expect(german).to_have_attribute("hreflang", "de")
    expect(english).to_have_text("English")
    expect(english).to_have_attribute("hreflang", "en")
    expect(english).not_to_have_attribute("aria-current", re.compile(".*"))
    expect(english).to_have_attribute("href", f"/?{EN}")
    alternates = page.locator("head link[rel=alternate]")
    expect(alternates).to_have_count(3)
    expect(page.locator("head link[rel=alternate][hreflang=en]")).to_have_attribute(
        "href", f"{site_url}/?{EN}")
    expect(page.locator("head link[rel=alternate][hreflang=x-default]")).to_have_attribute(
        "href", f"{site_url}/?kapitel={CHAPTER}")

    english.click()
    _wait_shown(page, EN)
    assert page.url == f"{site_url}/?{EN}"
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(_heading(page)).to_have_text("Components and setup", use_inner_text=True)
    expect(page).to_have_title("Components and setup – Learning Bohnanza")
    expect(english).to_have_attribute("aria-current", "true")
    expect(german).to_have_attribute("href", f"/?kapitel={CHAPTER}")
    expect(page.get_by_role("button", name="Projector view")).to_be_visible()  # the frame's words

    # a scene's step and a refused move, in English
    players = page.locator(".bt-app .bt-scene-player")
    first = players.nth(0)
    first.get_by_role("button", name=re.compile("next")).click()
    expect(first).to_contain_text("Step 1")
    refusing = players.nth(3)  # g-spieler-4-5: its first step is refused
    refusing.scroll_into_view_if_needed()
    refusing.get_by_role("button", name=re.compile("next")).click()
    expect(refusing).to_contain_text("Not allowed:")

    # links keep the language
    nxt = page.locator(".bt-app .bt-header a.bt-nav-next")
    expect(nxt).to_have_attribute("href", "/?kapitel=02_Phase_1&lang=en")
    nxt.click()
    _wait_shown(page, "kapitel=02_Phase_1&lang=en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".bt-app .bt-header")).to_contain_text("Chapter 2 of")
    assert_english_mach_du_refusal(page)

    # Back: the English chapter, then the German one the switch was pressed on
    page.go_back()
    _wait_shown(page, EN)
    expect(_heading(page)).to_have_text("Components and setup", use_inner_text=True)
    page.go_back()
    _wait_shown(page, f"kapitel={CHAPTER}")
    expect(_heading(page)).to_have_text("Material und Aufbau", use_inner_text=True)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(german).to_have_attribute("aria-current", "true")
    page.go_forward()
    _wait_shown(page, EN)
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # a reload (a deep link) stays English
    page.reload(timeout=300_000)
    _wait_shown(page, EN)
    expect(_heading(page)).to_have_text("Components and setup", use_inner_text=True)
    expect(page).to_have_title("Components and setup – Learning Bohnanza")
    assert visible_errors(page) == [] and errors == []


def test_the_bare_root_sends_a_returning_reader_to_the_language_chosen(page: Page, site_url: str):
    _open_app(page, site_url)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    _switch(page, "en").click()
    _wait_shown(page, "kapitel=00_Start&lang=en")
    page.goto(f"{site_url}/", timeout=300_000)  # the bare root, later
    _wait_shown(page, "lang=en")
    assert page.url == f"{site_url}/?lang=en"
    expect(page.locator("html")).to_have_attribute("lang", "en")
    _switch(page, "de").click()
    _wait_shown(page, "kapitel=00_Start")
    page.goto(f"{site_url}/", timeout=300_000)
    _wait_shown(page, "")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url == f"{site_url}/"


def test_the_teacher_view_in_english_keeps_the_language_and_the_view(page: Page, site_url: str):
    errors = _open_app(page, site_url, "lektion=01_Bohnentreppe&lehrkraft=1&lang=en")
    _wait_shown(page, "lektion=01_Bohnentreppe&lehrkraft=1&lang=en")
    assert "lehrkraft" not in page.url and page.url.endswith("lang=en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".bt-app .bt-teacher-notes").first).to_be_visible()
    assert_english_teacher_solution(page)
    nxt = page.locator(".bt-app a[href*='lektion=02_Zwei_Karten_aufdecken']").first
    expect(nxt).to_have_attribute("href", "/?lektion=02_Zwei_Karten_aufdecken&lang=en")
    nxt.click()
    _wait_shown(page, "lektion=02_Zwei_Karten_aufdecken&lang=en")
    expect(page.locator(".bt-app .bt-teacher-notes").first).to_be_visible()
    assert errors == []


def test_a_pages_own_address_in_english_opens_it_in_the_app(page: Page, site_url: str):
    errors = collect_errors(page)
    page.goto(f"{site_url}/voila/render/notebooks/{CHAPTER}.ipynb?lang=en", timeout=300_000)
    page.wait_for_url(f"{site_url}/?{EN}", timeout=300_000)
    _wait_shown(page, EN)
    expect(_heading(page)).to_have_text("Components and setup", use_inner_text=True)
    assert errors == []
