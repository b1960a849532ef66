"""The site in class: printing, projector mode, keyboard and contrast (Voilà + chromium).

Uses the session's ``site_url``. PDFs come from Chromium's own print (``page.pdf``)."""
from __future__ import annotations

import io
import re
import unicodedata

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import open_page
from playwright.sync_api import expect
from pypdf import PdfReader

from bohnteach.render.style import BUTTON_COLOURS

LESSON = "tutorials/01_Bohnentreppe"


def _pdf_text(page) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    text = "\n".join(p.extract_text() for p in reader.pages)
    return len(reader.pages), unicodedata.normalize("NFKC", text)  # "ﬂ" ligatures → "fl"


def test_lesson_prints_completely_students_without_solutions(page, site_url):
    open_page(page, site_url, LESSON)
    pages, text = _pdf_text(page)
    assert pages >= 3  # the whole lesson, not one screen of a scrolling container
    for words in ("Lektion 1: Die Bohnentreppe", "Aufgabe 6.", "Das Wichtigste in Kürze", "Impressum"):
        assert words in text
    for words in ("Prüfen", "Ablauf in 45 Minuten", "Lösungen"):  # no buttons, no solutions
        assert words not in text


def test_lesson_prints_teacher_notes_and_solutions_for_the_teacher(page, site_url):
    open_page(page, site_url, LESSON, query="?lehrkraft=1")
    expect(page.locator(".bt-teacher-notes")).to_contain_text("Ablauf in 45 Minuten")
    pages, text = _pdf_text(page)
    assert pages >= 3
    for words in ("Ziel der Stunde", "Erwartete Fehlvorstellungen", "Lösungen", "Aufgabe 6."):
        assert words in text


def test_chapter_prints_completely(page, site_url):
    open_page(page, site_url, "02_Phase_1")
    pages, text = _pdf_text(page)
    assert pages >= 3 and "Impressum" in text and "Phase 1: Bohnen aus der Hand pflanzen" in text


def test_projector_mode_shows_one_section_at_a_time(page, site_url):
    open_page(page, site_url, "02_Phase_1")
    toggle = page.get_by_role("button", name="Beamer-Ansicht")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    where = page.locator(".bt-slide-where")
    expect(where).to_contain_text(re.compile(r"Abschnitt 1 von \d+"))
    page.keyboard.press("PageDown")
    expect(where).to_contain_text("Abschnitt 2 von")
    expect(page.locator(".bt-scene-player:visible")).to_have_count(1)


def test_keyboard_keeps_focus_and_steps_scenes(page, site_url):
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    player.focus()
    page.keyboard.press("ArrowRight")
    expect(player).to_contain_text("Schritt 1")
    expect(player.locator("[aria-live=polite]").first).to_be_attached()
    tryit = page.locator(".bt-tryit").first
    plant = tryit.get_by_role("button", name="Auf Feld 2 pflanzen")
    plant.focus()
    page.keyboard.press("Enter")
    expect(tryit.locator("button:focus")).to_have_count(1)  # not lost to the page
    harvest = tryit.get_by_role("button", name="Feld 1 ernten")
    r, g, b = (int(BUTTON_COLOURS["warning"][i:i + 2], 16) for i in (1, 3, 5))
    expect(harvest).to_have_css("background-color", f"rgb({r}, {g}, {b})")


def _serious(page) -> list[tuple[str, int]]:
    """axe-core's serious and critical violations on the page: (rule, nodes)."""
    result = Axe().run(page)
    return [(v["id"], len(v["nodes"])) for v in result.response["violations"]
            if v["impact"] in ("serious", "critical")]


def test_axe_finds_nothing_serious(page, site_url):
    for name in ("02_Phase_1", "tutorials/05_Handeln_lohnt_sich"):
        open_page(page, site_url, name)
        assert _serious(page) == [], name
