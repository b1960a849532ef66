"""The Indiana Bohnes chapter (``notebooks/15_Indiana_Bohnes.ipynb``) in the browser: its
scenes, the temple chart on demand, the question, a Mach-du case and the Auslegungen.

Headless parts of the chapter: ``tests/test_indiana_teaching.py``. Fixtures (``site_url``,
``page``): ``tests/conftest.py``."""
from __future__ import annotations

import os
import re
from pathlib import Path

from browser_helpers import open_page, visible_errors
from playwright.sync_api import expect

from bohnteach.site import pages as site

PAGE = "15_Indiana_Bohnes"
SHOTS = os.environ.get("BOHNTEACH_SHOTS", "")
"""Folder for screenshots at 1280 and 390 px (empty: none are taken)."""


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_indiana_page_in_the_browser(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    errors = open_page(page, site_url, PAGE, wait_for=".bt-tryit", timeout_ms=300_000)
    assert visible_errors(page) == []
    expect(page.locator(".bt-box.bt-error")).to_have_count(0)
    expect(page.get_by_role("heading", level=1).first).to_have_text(
        site.find_page(PAGE).title, use_inner_text=True)
    cells = page.locator("#rendered_cells")
    expect(cells).to_contain_text("Achtung, Annahme:")
    expect(cells).to_contain_text("Unsere Auslegung:")
    # four choosers, one scene player each; the first shows refill example 1
    expect(page.locator(".bt-scene-player")).to_have_count(4)
    first = page.locator(".bt-scene-player").first
    expect(first).to_contain_text("Stelle 5 – leere Stelle")
    first.get_by_role("button", name=re.compile("weiter")).click()
    expect(first).to_contain_text("Schritt 1 /")
    expect(first).to_contain_text("Stelle 5 – 1 × Sojabohne")
    # the snake chooser: picking the blockade scene swaps its player, the step marks it
    snakes = page.locator(".bt-chapter-scenes").nth(2)
    snakes.locator(".bt-scene-chooser select").select_option(index=3)
    player = snakes.locator(".bt-scene-player")
    expect(player).to_contain_text("Die Blockade")
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("von Schlangenbohnen blockiert")
    expect(player.locator(".bt-blocked")).to_have_count(1)
    _shot(page, "kapitel-1280")
    # the chart is drawn when asked for
    page.get_by_role("button", name="Chancen zeigen").click()
    expect(page.locator(".bt-indy-chart .js-plotly-plot")).to_be_attached()
    # the question on the same table
    question = page.locator(".bt-exercise").filter(has_text="Wie wahrscheinlich bekommst du den Stapel")
    question.locator("input").first.fill("35/96")
    question.get_by_role("button", name="Prüfen").click()
    expect(question).to_contain_text("Richtig")
    # Mach du: the biggest stack solves the visit case
    tryit = page.locator(".bt-tryit").first
    tryit.scroll_into_view_if_needed()
    tryit.get_by_role("button", name="geht zum Tempel (Feuerbohne)").click()
    expect(tryit.locator(".bt-success")).to_be_attached()
    expect(tryit).to_contain_text("Geschafft")
    # Mach du: a wish the rules refuse is a button too; the refusal names rule and reason
    blockade = page.locator(".bt-tryit").filter(has_text="Die Schlangen müssen weg")
    blockade.scroll_into_view_if_needed()
    blockade.get_by_role("button", name="geht zum Tempel (Sojabohne)").click()
    refusal = blockade.locator(".bt-refusal")
    expect(refusal).to_contain_text("indy.blockade", timeout=30_000)
    expect(refusal).to_contain_text("Blockade durch Schlangenbohnen")
    expect(refusal).to_contain_text("Der Tisch bleibt, wie er war.")
    _shot(page, "kapitel-nach-klicks-1280")
    assert [e for e in errors if "pageerror" in e] == []


def test_indiana_page_on_a_phone(page, site_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, site_url, PAGE, wait_for=".bt-tryit", timeout_ms=300_000)
    assert visible_errors(page) == []
    temple = page.locator(".bt-table-zone").first
    expect(temple).to_contain_text("Bohnentempel")
    # nothing wider than the phone: the table and its temple wrap
    box = temple.bounding_box()
    assert box is not None and box["width"] <= 390
    _shot(page, "kapitel-390")


def test_indiana_own_meters_in_the_browser(page, site_url):
    """The chapter's meter box: own values change the cards table; a mistake is a German box."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_page(page, site_url, PAGE, wait_for=".bt-indy-own", timeout_ms=300_000)
    own = page.locator(".bt-indy-own")
    own.scroll_into_view_if_needed()
    own.locator("textarea").fill("Schlangenbohne = [3, 6, 8, 10]")
    own.get_by_role("button", name="Werte übernehmen").click()
    expect(own).to_contain_text("Übernommen")
    expect(own).to_contain_text("3 · 6 · 8 · 10")
    expect(own).to_contain_text("weiterhin angenommen: Buschbohne")
    _shot(page, "eigene-werte-1280")
    own.locator("textarea").fill("Schlangenbohne = [3, 6]")
    own.get_by_role("button", name="Werte übernehmen").click()
    expect(own.locator(".bt-box.bt-error")).to_contain_text("genau 4 Werte")
    page.set_viewport_size({"width": 390, "height": 844})
    own.scroll_into_view_if_needed()
    box = own.bounding_box()
    assert box is not None and box["width"] <= 390
    if SHOTS:
        own.screenshot(path=str(Path(SHOTS) / "eigene-werte-390.png"))
