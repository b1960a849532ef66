"""The editions' chapter parts in English (issue 56): Ladybohn's meter table and chart,
Indiana Bohnes' cards, temple, chart and question, the Auslegungen, the own-values boxes.

Each is built under a strict translator (a text without a translation fails) and what a
reader sees – HTML as text, a chart's title, axes, legend, hovers and notes – is scanned
for German words (``tests/german_scan.py``). German stays as it was (the other edition
tests pin it); here a few German anchors make sure the German page is still German.
"""
from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from bohnteach.editions.indiana.teaching import page as indy_page
from bohnteach.editions.indiana.teaching.charts import temple_chart
from bohnteach.editions.ladybohn.teaching import page as lady_page
from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart
from bohnteach.game.rulesets import find_ruleset
from bohnteach.i18n import speaking, translator
from german_scan import german_words, html_to_text

STRICT = translator("en", strict=True)


def chart_texts(fig: go.Figure, *, skip_notes: tuple[str, ...] = ()) -> str:
    """Everything a reader of the chart reads: title, axes, legend, hovers, bar texts, notes."""
    layout = fig.layout
    texts = [layout.title.text or ""]
    for key in layout:
        if key.startswith(("xaxis", "yaxis")) and layout[key].title.text:
            texts.append(layout[key].title.text)
    texts += [a.text for a in layout.annotations if a.name not in skip_notes]
    for trace in fig.data:
        texts.append(trace.name or "")
        for field in ("hovertext", "text"):
            value = getattr(trace, field, None)
            if value is not None:
                texts += list(value) if not isinstance(value, str) else [value]
    return html_to_text(" \n ".join(str(t) for t in texts))


def english(fig_or_html) -> list[str]:
    if isinstance(fig_or_html, go.Figure):
        return german_words(chart_texts(fig_or_html))
    return german_words(html_to_text(fig_or_html))


# ---- Ladybohn ------------------------------------------------------------------------------
def test_ladybohn_meter_table_in_english_and_german():
    with speaking(STRICT):
        html = lady_page.meter_table()
    assert english(html) == []
    assert "female on top" in html and "Blue Bean" in html and "assumed" in html
    # the sexes' letters are the reader's: f(emale) in English, w(eiblich) in German
    assert "♀ f" in html and "♀ w" not in html
    german = lady_page.meter_table()
    assert "♀ weiblich oben" in german and "Blaue Bohne" in german and "Annahme" in german


def test_ladybohn_chart_in_english():
    with speaking(STRICT):
        fig = sex_meter_chart("ladybohn")
    assert fig.layout.title.text.startswith("Ladybohn: beanometers")
    assert fig.layout.separators == ".,"
    # the rule set's assumption note is drawn by render.charts.assumption_texts (the
    # lessons' charts): its words are theirs, so it is left out of this scan
    assert german_words(chart_texts(fig, skip_notes=("meter_assumption",))) == []
    hovers = " ".join(fig.data[0].hovertext)
    assert "on top:" in hovers and "coins" in hovers
    german = sex_meter_chart("ladybohn")
    assert german.layout.title.text == "Ladybohn: Bohnometer ♂ und ♀" and german.layout.separators == ",."


def test_ladybohn_interpretations_in_english():
    with speaking(STRICT):
        html = lady_page.interpretations_html()
    assert english(html) == []
    assert "Our reading:" in html and "Assumed in the data:" in html


def test_ladybohn_own_values_box_in_english():
    box = lady_page.OwnValues(lang=STRICT)
    assert box.apply_button.description == "Use these values"
    assert "# Enter the numbers from your cards" in box.text.value
    box.apply()
    assert english(box.message.value) == [], box.message.value
    assert english(box.table.value) == []
    box.text.value = "[blue]\nm = [1, 2]\n"
    box.apply()  # a broken file: the reason comes from the meter checker (rules.py's words)
    assert "bohnteach cannot read these values" in box.message.value
    german = lady_page.OwnValues()
    assert german.apply_button.description == "Werte übernehmen"


# ---- Indiana Bohnes ---------------------------------------------------------------------------
def test_indiana_cards_and_temple_in_english_and_german():
    with speaking(STRICT):
        cards = indy_page.cards_html()
        temple = indy_page.temple_html(indy_page.chance_table())
    assert english(cards) == [] and english(temple) == []
    assert "Snake Bean" in cards and "path card 2 coins, carrier card 4 coins" in cards
    assert "In the temple:" in temple and "bean cards" in temple
    german = indy_page.cards_html()
    assert "Schlangenbohne" in german and "Wegkarte 2 Taler, Trägerkarte 4 Taler" in german


def test_indiana_temple_chart_in_english():
    s = indy_page.chance_table()
    rows = indy_page.chance_rows(s)
    pile = sum(indy_page.pile_counts(s).values())
    with speaking(STRICT):
        fig = temple_chart(rows, pile)
    assert english(fig) == [], chart_texts(fig)
    assert fig.layout.title.text.startswith("Temple visit: how does it end?")
    assert fig.layout.xaxis.title.text == "Probability" and fig.layout.separators == ".,"
    assert any("," not in t and "%" in t for t in fig.data[0].text if t)  # 38%, not 38 %
    german = temple_chart(rows, pile)
    assert german.layout.title.text.startswith("Tempelgang: Wie geht er aus?")
    assert german.data[0].name == "Treffer: Stapel und Karte"


def test_indiana_question_in_english():
    with speaking(STRICT):
        texts = indy_page._question_texts()
    for key in ("prompt", "hint", "solution"):
        assert german_words(html_to_text(texts[key])) == [], texts[key]
    for text in texts["mistakes"].values():
        assert german_words(text) == [], text
    assert "Soy Beans" in texts["prompt"] and "≈" in texts["solution"]


def test_indiana_interpretations_and_own_meters_in_english():
    with speaking(STRICT):
        html = indy_page.interpretations_html(indy_page.rule_ids(), find_ruleset("indiana"), "indy.meters")
    assert english(html) == []
    box = indy_page.OwnMeters(lang=STRICT)
    assert "snake = [" in box.text.value and german_words(box.text.value) == []
    box.apply()
    assert english(box.message.value) == [] and english(box.cards.value) == []
    assert "Schlangenbohne = [" in indy_page.OwnMeters().text.value


@pytest.mark.parametrize("part", ["karten", "auslegungen"])
def test_show_parts_take_the_language(part):
    from bohnteach.widgets.figure import HTML  # noqa: F401 - the parts are HTML objects

    for chapter in (lady_page, indy_page):
        shown = chapter.show(part, STRICT)
        assert english(shown.data) == []


def test_mach_du_cases_of_the_editions_have_english_texts():
    """Title, goal, what one learns and every hint of each edition's Mach-du case: in the
    catalogue (the case widget shows them through it) and English."""
    from bohnteach.editions.indiana.cases import CASES as INDIANA_CASES
    from bohnteach.editions.ladybohn.cases import CASES as LADYBOHN_CASES

    for case in (*INDIANA_CASES, *LADYBOHN_CASES):
        for text in (case["title"], case["goal"], case["learned"], *case["hints"]):
            assert german_words(STRICT.gettext(text)) == [], (case["id"], text)


def _own_part(error_box: str) -> str:
    """An error box without its closing advice (``render.failure``'s words, not the editions')."""
    return re.sub(r'<p class="bt-next">.*?</p>', "", error_box, flags=re.S)


def test_own_meter_mistakes_are_explained_in_english():
    box = indy_page.OwnMeters(lang=STRICT)
    box.text.value = "blue = [4, 6, 8, 10]\n"
    box.apply()
    assert "only for Snake Bean and Bush Bean" in box.message.value
    assert english(_own_part(box.message.value)) == [], box.message.value
    lady = lady_page.OwnValues(lang=STRICT)
    lady.text.value = "[blue]\nB = [1, 2, 3, 4]\n"
    lady.apply()
    assert "Baby beans have no beanometer" in lady.message.value
    german = indy_page.OwnMeters()
    german.text.value = "blue = [4, 6, 8, 10]\n"
    german.apply()
    assert "Eigene Bohnometer gibt es hier nur für Schlangenbohne und Buschbohne." in german.message.value


def test_the_views_words_are_english_where_shown():
    """What the editions hand to the table, the comparison and Mach-du (zone titles and
    notes, comparison labels and cells, the hidden offer, the try-move groups, settings)
    has an English text: the shower words it with ``gettext`` or ``render.language.term``."""
    from bohnteach.editions.indiana import INDIANA
    from bohnteach.editions.ladybohn import LADYBOHN
    from bohnteach.game import engine
    from bohnteach.render.language import term

    def say(text) -> str:
        return str(term(text)) if hasattr(text, "template") else STRICT.gettext(text)

    words = []
    for edition in (INDIANA, LADYBOHN):
        view = edition.view
        for topic, (renamed, _rules) in view.comparison.items():
            words += [topic, renamed] if renamed else [topic]
        words += list(view.comparison_cells.values())
        words += [zone.title for zone in edition.zones]
    lady_view = LADYBOHN.view
    words += [lady_view.no_meter_note, lady_view.hidden_card_title, lady_view.hidden_offer[0]]
    with speaking(STRICT):
        for ruleset in ("indiana_varianten", "ladybohn"):
            r = find_ruleset(ruleset)
            words += edition_lines(r)
        s = engine.new_game("indiana", 4, seed=3)
        for seat in range(4):
            words += [z.note for z in INDIANA.view.zones_for_display(s, seat)]
            words += [title for title, _moves in INDIANA.view.try_moves(s, seat)]
        words += [z.note for z in INDIANA.view.table_zones_for_display(s)]
        shown = [say(w) for w in words if w]
    assert len(shown) > 30
    for text in shown:
        assert german_words(text) == [], text


def edition_lines(r) -> list:
    from bohnteach.game.edition import find_edition

    return find_edition(r.edition).settings_summary(r.settings)


def test_a_baby_lift_in_english():
    """Ladybohn's lift buttons and the note after a lift (Phrases) in English."""
    from bohnteach.editions.ladybohn import LADYBOHN
    from bohnteach.game import engine
    from bohnteach.render.language import term
    from test_ladybohn import lift_table

    s = lift_table(["Sojabohne w", "Sojabohne m"])
    moves = LADYBOHN.view.choice_moves(s, 0, [s.players[0].hand[0]])
    assert moves and str(moves[0][0]).startswith("Baby auf Feld 1")
    events = engine.apply(s, moves[-1][1])
    title, text, _rules = LADYBOHN.view.choice_note(s, events)
    with speaking(STRICT):
        shown = [str(term(label)) for label, _a in moves] + [STRICT.gettext(title), str(term(text))]
    assert shown[0].startswith("Baby on field 1: ♀ f")
    for line in shown:
        assert german_words(line) == [], line
