"""The Ladybohn chapter (``notebooks/14_Ladybohn.ipynb``): links to it, and in the browser
its scenes, the assumption note, the lift exercise and the chart.

Browser tests use the fixtures of ``tests/conftest.py`` (``site_url``, ``page``)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from browser_helpers import open_page, visible_errors
from playwright.sync_api import expect

from bohnteach.editions.ladybohn.teaching import page as chapter
from bohnteach.site import pages as site

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PAGE = "14_Ladybohn"


# ---- headless -------------------------------------------------------------------------------
def test_chapter_is_listed_and_linked():
    page = site.find_page(PAGE)
    assert page.chapter == "ladybohn" and site.page_exists(page)
    assert f'href="{page.filename}"' in site.chapter_overview().data  # the start page
    compare = json.loads((NOTEBOOKS / "10_Regelvergleich.ipynb").read_text("utf-8"))
    prose = " ".join("".join(c["source"]) for c in compare["cells"] if c["cell_type"] == "markdown")
    assert "(14_Ladybohn.ipynb)" in prose
    from bohnteach.render.comparison import comparison_rows

    rulesets, rows = comparison_rows()
    assert "ladybohn" in [r.name for r in rulesets]
    assert any(r.topic == "Geschlechter" for r in rows)


def test_chapter_parts_render():
    for part in ("karten", "auslegungen"):
        html = chapter.show(part).data
        assert "bt-box bt-error" not in html
    cards = chapter.show("karten").data
    assert "Achtung, Annahme:" in cards and "gedruckt" in cards and "110" in cards
    ausl = chapter.show("auslegungen").data
    for rule_id in ("lady.baby-lift", "lady.baby-trade-immediate", "lady.female-garden",
                    "lady.offer-variety-only"):
        assert f'data-rule="{rule_id}"' in ausl
    assert "bt-box bt-error" in chapter.show("gibt-es-nicht").data  # a friendly box, no exception


def test_chart_is_drawn_on_demand_and_a_failure_shows_a_box(monkeypatch):
    from bohnteach.editions.ladybohn.teaching.page import chart_output

    from bohnteach.widgets import figure

    shown: list = []  # a shown chart needs a kernel to land in the Output; record it instead
    monkeypatch.setattr(figure, "figure_bundle", lambda fig, **_: shown.append(fig) or {})
    box = chart_output()
    button, message, style, _out = box.children
    assert button.description == "Diagramm zeigen" and shown == []  # nothing drawn yet
    button.click()
    [fig] = shown
    assert {t.line.dash for t in fig.data} >= {"solid", "dot"}  # males and females
    assert button.layout.display == "none" and "jp-RenderedPlotly" in style.value
    assert message.value == ""
    broken = chart_output("amigo")  # no sexes in the base game: the chart cannot be drawn
    broken.children[0].click()
    assert "bt-box bt-error" in broken.children[1].value and len(shown) == 1
    assert broken.children[0].layout.display != "none"  # the learner may try again


def test_own_values_widget_takes_values_and_explains_mistakes():
    from bohnteach.editions.ladybohn.teaching.page import OwnValues

    own = OwnValues()
    rules = own.apply()
    assert rules.trait_meters["blue"]["w"] == (3, 5, 7, 9) and rules.meter_source
    assert "deine Werte" in own.table.value and "Übernommen" in own.message.value
    own.text.value = "[kaffee]\nm = [4, 7, 10, 12]\n"
    own.apply()
    assert "bt-box bt-error" in own.message.value and "[kaffee]" in own.message.value
    own.reset()
    assert own.table.value == "" and own.rules.name == "ladybohn"


# ---- in the browser ------------------------------------------------------------------------
def _open(page, site_url):
    errors = open_page(page, site_url, PAGE, wait_for=".bt-tryit", timeout_ms=300_000)
    assert visible_errors(page) == []
    expect(page.locator(".bt-box.bt-error")).to_have_count(0)
    return errors


def test_ladybohn_page_in_the_browser(page, site_url):
    errors = _open(page, site_url)
    expect(page.get_by_role("heading", level=1).first).to_have_text(
        site.find_page(PAGE).title, use_inner_text=True)
    # three groups of scenes, one player each; the others are built when chosen
    expect(page.locator(".bt-scene-player")).to_have_count(3)
    expect(page.locator(".bt-scene-chooser select").first.locator("option")).to_have_count(4)
    cells = page.locator("#rendered_cells")
    expect(cells).to_contain_text("Achtung, Annahme:")
    expect(cells).to_contain_text("Unsere Auslegung:")
    # a scene steps on: Timon's offer appears. Narration and table are two outputs that
    # update separately (under load one can lag the other): wait for each of them.
    player = page.locator(".bt-scene-player").first
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("Schritt 1 /")
    expect(player).to_contain_text("Angebot von Timon an Nina")
    # choosing another scene swaps the player
    page.locator(".bt-scene-chooser select").first.select_option(index=3)
    expect(page.locator(".bt-scene-player").first).to_contain_text("Keno")
    # the lift exercise: the right lift is a button and solves it
    tryit = page.locator(".bt-tryit").first
    tryit.scroll_into_view_if_needed()
    tryit.get_by_role("button", name="Baby auf Feld 1: ♀ w (4. von unten) 2 Plätze hoch").click()
    expect(tryit.locator(".bt-success")).to_be_attached()
    expect(tryit).to_contain_text("Geschafft")
    # the chart is drawn when asked for
    page.get_by_role("button", name="Diagramm zeigen").click()
    expect(page.locator(".bt-lady-chart .js-plotly-plot")).to_be_attached()
    assert [e for e in errors if "pageerror" in e] == []
