"""HTML of the table, the refusal box and the error box (bohnteach.render.table)."""
from __future__ import annotations

import dataclasses
import re

import pytest

import bohnteach as b
from bohnteach.game.beans import all_varieties, find_variety
from bohnteach.render.table import (
    breakable, changed_cards, changed_zones, render_error, render_refusal, render_table, rule_chip,
)
from bohnteach.render.style import contrast, text_colour
from bohnteach.game.errors import SEED_FILE_NAME
from bohnteach.game.state import CardInfo


def text(html: str) -> str:
    """Visible text: no style block, no tags, <wbr> joined."""
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    html = html.replace("<wbr>", "")
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def game() -> b.State:
    return b.new_game("amigo", ["Anna", "Ben", "Clara"], seed=3)


def test_self_contained_one_style_block(game):
    html = render_table(game)
    assert html.count("<style>") == 1
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert 'class="bt bt-table"' in html


def test_every_visible_card_names_its_variety(game):
    html = render_table(game)
    for card in game.players[0].hand:
        name = find_variety(game.variety[card]).de
        chunk = re.search(rf'<div class="bt-card[^"]*"[^>]*data-card="{card}".*?</div>', html, re.S)
        assert chunk and name in text(chunk.group(0))


def test_card_text_contrast_is_readable():
    for v in all_varieties():
        assert contrast(v.colour, text_colour(v.colour)) >= 4.5, v.de


def test_player_names_markers_and_coins(game):
    game.start_player = 1
    game.active = 2
    out = text(render_table(game))
    for name in ("Anna", "Ben", "Clara"):
        assert name in out
    assert "am Zug" in out and "Startspieler" in out and "0 Taler" in out
    html = render_table(game)
    clara = re.search(r'<section class="bt-player bt-active" data-player="2">', html)
    assert clara is not None


def test_phase_bar_lights_current_phase(game):
    html = render_table(game)
    assert re.search(r'bt-phase bt-on"[^>]*><b>1</b>Pflanzen', html)
    b.apply(game, b.Plant(0, 0))
    b.apply(game, b.EndPlanting(0))
    html = render_table(game)
    assert re.search(r'bt-on"[^>]*><b>2</b>Aufdecken', html)
    assert html.count("bt-phase bt-on") == 1


def test_hidden_hands(game):
    html = render_table(game, perspective=0)
    out = text(html)
    assert "Hand (5) – vorne → hinten" in out  # Anna's own hand, open
    assert out.count("5 Karten, verdeckt") == 2
    ben_front = find_variety(game.variety[game.players[1].hand[0]]).de
    section = re.search(r'data-player="1">.*?</section>', html, re.S).group(0)
    assert f'data-card="{game.players[1].hand[0]}"' not in section
    assert "vorne" not in text(section) or ben_front not in text(section)
    everything = text(render_table(game, show_hands=True))
    assert "verdeckt" not in everything.replace("Stapel", "")
    assert text(render_table(game, show_hands=[1])).count("verdeckt") == 2


def test_front_card_marked(game):
    html = render_table(game)
    front = game.players[0].hand[0]
    assert re.search(rf'bt-front"[^>]*data-card="{front}"', html)


def test_pass_number_and_deck_count(game):
    out = text(render_table(game))
    assert f"{len(game.deck)} Karten 1. Durchgang" in out
    game.exhaustions = 1
    assert "2. Durchgang" in text(render_table(game))
    game.exhaustions = 2
    assert "3. Durchgang (letzter)" in text(render_table(game))
    game.exhaustions, game.ending = 3, True
    assert "Stapel zum letzten Mal aufgebraucht" in text(render_table(game))


def test_field_meter_and_next_step(game):
    blue = [c for c in game.deck if game.variety[c] == "blue"][:5]
    for c in blue:
        game.deck.remove(c)
    game.players[0].fields[0] = blue
    html = render_table(game)
    out = text(html)
    assert "5 Blaue Bohnen" in out and "Ernte jetzt: 1 Taler" in out
    assert "Karten→Taler" in out and "nächste Stufe bei 6" in out
    assert re.search(r'bt-step bt-got">4→1<', html)


def test_field_count_breaks_only_before_bohne(game):
    """A narrow field wraps „2 Feuer-/bohnen“, never „2 Feuerbohne/n“."""
    assert breakable("Feuerbohnen") == "Feuer\u00adbohnen"
    assert breakable("Blaue Bohnen") == "Blaue Bohnen"  # breaks at the space
    fire = [c for c in game.deck if game.variety[c] == "chili"][:2]
    for c in fire:
        game.deck.remove(c)
    game.players[0].fields[0] = fire
    html = render_table(game)
    assert '<div class="bt-finfo">2 Feuer\u00adbohnen</div>' in html
    assert re.search(r"\.bt-finfo\{[^}]*overflow-wrap:break-word", html)
    assert "overflow-wrap:anywhere" not in re.search(r"\.bt-finfo\{[^}]*\}", html).group(0)


def test_highlight_changed_cards_and_zones(game):
    before = game.copy()
    b.apply(game, b.Plant(0, 1))
    moved = changed_cards(before, game)
    assert moved == {before.players[0].hand[0]}
    zones = changed_zones(before, game)
    assert {"Anna.hand", "Anna.field2"} <= zones
    html = render_table(game, highlight=moved | zones)
    card = next(iter(moved))
    assert re.search(rf'bt-changed"[^>]*data-card="{card}"', html)
    assert "bt-zchanged" in html  # the hand lost its front card
    assert "content:attr(data-new)" in html  # the badge says the card's own word
    assert re.search(rf'data-card="{card}" data-new="neu"', html)
    assert "bt-changed" not in render_table(game).split("</style>")[1]


def test_reveal_highlights_revealed_and_deck(game):
    before = game.copy()
    b.apply(game, b.Plant(0, 0))
    b.apply(game, b.EndPlanting(0))
    hl = changed_cards(before, game) | changed_zones(before, game)
    assert set(game.revealed) <= hl and "deck" in hl
    html = render_table(game, highlight=hl)
    assert "Aufgedeckt (gehören Anna)" in text(html)


def test_html_escapes_player_names():
    s = b.new_game("amigo", ["<script>x</script>", "Ben & Co", "Clara"], seed=1)
    html = render_table(s)
    assert "<script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "Ben &amp; Co" in html


def test_offer_and_set_aside_shown(game):
    b.apply(game, b.Plant(0, 0))
    b.apply(game, b.EndPlanting(0))
    card = game.revealed[0]
    b.apply(game, b.Offer(0, 1, (card,), ()))
    out = text(render_table(game))
    assert "Geschenk von Anna an Ben" in out and "Wartet auf die Antwort von Ben" in out
    b.apply(game, b.Accept(1))
    html = render_table(game)
    assert "Quer gelegt" in text(html)
    assert re.search(rf'bt-card bt-quer[^"]*"[^>]*data-card="{card}"', html)


def test_game_over_shows_scores_and_winner(game):
    for p, n in zip(game.players, (3, 5, 1)):
        p.coins = game.deck[:n]
        del game.deck[:n]
    game.phase = b.Phase.OVER
    game.scores = [3, 5, 1]
    game.winners = [1]
    out = text(render_table(game))
    assert "Spielende – Ben gewinnt" in out and "Ben: 5 Taler" in out
    assert 'class="bt-phases"' not in render_table(game)


def test_sexes_and_meter_assumption():
    s = b.new_game("amigo", 3, seed=5)
    s.cards = tuple(CardInfo(c.id, c.variety, "mwB"[c.id % 3]) for c in s.cards)
    s.ruleset = dataclasses.replace(s.ruleset, meter_assumption="Weibchen-Meter angenommen.")
    html = render_table(s)
    out = text(html)
    assert "Weibchen-Meter angenommen." in out
    assert "♂ m" in out or "♀ w" in out or "B Baby" in out
    blue = [c for c in s.deck if s.variety[c] == "blue"][:3]
    for c in blue:
        s.deck.remove(c)
    s.players[0].fields[0] = blue
    out = text(render_table(s))
    assert "unten → oben" in out and "oben" in out and "Bohnometer angenommen" in out


def test_refusal_box_contents(game):
    second = game.players[0].hand[1]
    refusal = b.check(game, b.Plant(0, 0, second))
    html = render_refusal(refusal)
    out = text(html)
    rule = b.find_rule("p1.plant-front")
    assert rule.title in out
    assert refusal.detail in out
    assert rule.explanation in out
    assert f"Regel: {rule.title}" in out and "p1.plant-front" in out
    assert "Amigo-Spielregel, „Phase 1" in out and not SEED_FILE_NAME.search(html)
    assert 'role="alert"' in html


def test_error_box_and_rule_chip():
    html = render_error("Etwas <kaputt>")
    assert "Etwas &lt;kaputt&gt;" in html and "bt-box bt-error" in html
    chip = rule_chip("harvest.protection")
    assert "harvest.protection" in chip and "Bohnenschutzregel" in chip
    assert 'title="Regel harvest.protection"' in chip
    assert "Regel nope" in rule_chip("nope")
