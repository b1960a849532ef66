"""German action notation (bohnteach.game.notation): grammar, qualifiers, errors, round-trip."""
from __future__ import annotations

import random

import pytest

import bohnteach as b
from bohnteach.game.actions import (
    Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant, Reorder,
    TakeIntoHand,
)
from bohnteach.game.notation import NotationError, format_action, parse_action
from bohnteach.content.scenes.loader import parse_scene

TRADE_TABLE = """\
Szene: t
Titel: t
Kapitel: Phase 2 & Handel
Regelwerk: amigo
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 2
Anna Hand: Blaue Bohne, Sojabohne, Blaue Bohne, Rote Bohne
Anna Feld 1: 3 Blaue Bohnen
Anna Feld 2: 2 Feuerbohnen
Ben Hand: Gartenbohne, Sojabohne, Stinkbohne
Ben Feld 1: 2 Sojabohnen
Ben quer: Feuerbohne
Aufgedeckt: Blaue Bohne, Rote Bohne
Stapel: Brechbohne, Augenbohne, Feuerbohne
"""


@pytest.fixture
def table() -> b.State:
    return parse_scene(TRADE_TABLE, "t.scene").initial


@pytest.fixture
def start() -> b.State:
    return b.new_game("amigo", ["Anna", "Ben", "Clara", "David"], seed=7)


def card_of(s: b.State, zone: list[int], variety: str, nth: int = 0) -> int:
    return [c for c in zone if s.variety[c] == b.find_variety(variety).key][nth]


# ---- the grammar of the brief ------------------------------------------------------------
def test_plant_front_and_named(start):
    s = start
    assert parse_action(s, "Anna pflanzt auf Feld 1") == Plant(0, 0)
    assert parse_action(s, "anna pflanzt auf feld 2.") == Plant(0, 1)
    front = s.players[0].hand[0]
    name = b.find_variety(s.variety[front]).de
    assert parse_action(s, f"Anna pflanzt die vorderste Karte ({name}) auf Feld 1") == Plant(0, 0)
    assert parse_action(s, f"Anna pflanzt {name} auf Feld 2") == Plant(0, 1, front)


def test_plant_front_check_names_the_real_card(start):
    s = start
    front = b.find_variety(s.variety[s.players[0].hand[0]]).de
    other = "Kakaobohne"
    with pytest.raises(NotationError) as e:
        parse_action(s, f"Anna pflanzt die vorderste Karte ({other}) auf Feld 1")
    assert front in str(e.value)


def test_simple_verbs(table):
    s = table
    assert parse_action(s, "Anna beendet Phase 1") == EndPlanting(0)
    assert parse_action(s, "Anna erntet Feld 1") == Harvest(0, 0)
    assert parse_action(s, "Anna erntet 2 Karten von Feld 1") == Harvest(0, 0, 2)
    assert parse_action(s, "Ben nimmt an") == Accept(1)
    assert parse_action(s, "Ben lehnt ab") == Decline(1)
    assert parse_action(s, "Anna zieht zurück") == Decline(0)
    assert parse_action(s, "Anna zieht das Angebot zurück") == Decline(0)
    assert parse_action(s, "Anna beendet den Handel") == EndTrading(0)
    assert parse_action(s, "Anna zieht") == Draw(0)
    assert parse_action(s, "Anna zieht 3 Karten") == Draw(0)
    assert parse_action(s, "Anna zieht nach") == Draw(0)
    assert parse_action(s, "Anna kauft ein Feld") == BuyField(0)
    assert parse_action(s, "Anna kauft ein drittes Feld") == BuyField(0)


def test_offers_and_gifts(table):
    s = table
    anna, ben = s.players[0], s.players[1]
    rev_blue = card_of(s, s.revealed, "blue")
    soy_ben = card_of(s, ben.hand, "soy")
    # the active person's unqualified card: the revealed one first
    assert parse_action(s, "Anna bietet Ben Blaue Bohne gegen Sojabohne") == Offer(0, 1, (rev_blue,), (soy_ben,))
    # counts, lists with "und", a hand card named by position
    a = parse_action(s, "Anna bietet Ben 2 Blaue Bohnen und Rote Bohne gegen Gartenbohne")
    assert a.get == (ben.hand[0],)
    assert [s.variety[c] for c in a.give] == ["blue", "blue", "red"]
    assert a.give[0] == rev_blue and a.give[1] == anna.hand[0]
    assert parse_action(s, "Anna bietet Ben Blaue Bohne (Hand 3) gegen Sojabohne").give == (anna.hand[2],)
    assert parse_action(s, "Anna schenkt Ben Rote Bohne") == Offer(0, 1, (card_of(s, s.revealed, "red"),), ())
    hand_red = card_of(s, anna.hand, "red")
    assert parse_action(s, "Anna schenkt Ben Rote Bohne (Hand 4)") == Offer(0, 1, (hand_red,), ())
    assert parse_action(s, "Anna bittet Ben um Gartenbohne") == Offer(0, 1, (), (ben.hand[0],))
    assert parse_action(s, "Anna bietet Ben aufgedeckte Blaue Bohne gegen Sojabohne").give == (rev_blue,)
    assert parse_action(s, "Anna bietet Ben die Blaue Bohne gegen eine Sojabohne").give == (rev_blue,)


def test_field_and_set_aside_cards_resolve_so_the_engine_can_refuse(table):
    s = table
    field_blue = s.players[0].fields[0][-1]
    a = parse_action(s, "Anna bietet Ben Blaue Bohne (Feld 1) gegen Sojabohne")
    assert a.give == (field_blue,)
    assert b.check(s, a).rule_id == "trade.no-field-cards"
    a = parse_action(s, "Ben schenkt Anna Feuerbohne")  # only in Ben's set-aside cards
    assert a.give == tuple(s.players[1].set_aside)
    assert b.check(s, a).rule_id == "trade.no-retrade"


def test_the_two_mistakes(table):
    s = table
    a = parse_action(s, "Anna sortiert die Hand")
    assert isinstance(a, Reorder) and sorted(a.order) == sorted(s.players[0].hand)
    assert b.check(s, a).rule_id == "hand.order"
    hand = s.players[0].hand
    assert parse_action(s, "Anna sortiert die Hand: 2, 1, 3, 4").order == (hand[1], hand[0], hand[2], hand[3])
    t = parse_action(s, "Ben nimmt Feuerbohne auf die Hand")
    assert t == TakeIntoHand(1, s.players[1].set_aside[0])
    assert b.check(s, t).rule_id == "trade.set-aside"


def test_card_id_escape(table):
    s = table
    c = s.players[0].hand[1]
    assert parse_action(s, f"Anna schenkt Ben Sojabohne #{c}").give == (c,)
    assert parse_action(s, f"Anna schenkt Ben #{c}").give == (c,)
    with pytest.raises(NotationError, match="keine Blaue Bohne"):
        parse_action(s, f"Anna schenkt Ben Blaue Bohne #{c}")


# ---- errors: clear, German, never a traceback from inside ----------------------------------
@pytest.mark.parametrize("text, words", [
    ("Zora erntet Feld 1", ["Zora", "nicht am Tisch", "Anna"]),
    ("Anna schenkt Ben Zauberbohne", ["Zauberbohne", "Bohnensorte"]),
    ("Anna tanzt Tango", ["tanzt", "Verb"]),
    ("Anna schenkt Ben Augenbohne", ["Anna", "keine Augenbohne"]),
    ("Anna schenkt Ben 7 Blaue Bohnen", ["nur 6 Blaue Bohnen"]),
    ("Anna schenkt Zora Rote Bohne", ["Zora"]),
    ("Anna erntet Feld x", ["Feldnummer"]),
    ("Anna pflanzt Blaue Bohne", ["Feld"]),
    ("Anna bietet Ben Blaue Bohne", ["gegen"]),
    ("Anna schenkt Ben Blaue Bohne (Hand 9)", ["Stelle 9"]),
    ("Anna schenkt Ben Blaue Bohne (Hand 2)", ["Stelle 2", "Sojabohne"]),
    ("Anna schenkt Ben Blaue Bohne (Tasche)", ["(Tasche)"]),
    ("Anna zieht 7 Karten", ["3 Karten"]),
    ("", ["leer"]),
])
def test_bad_input_raises_notation_error(table, text, words):
    with pytest.raises(NotationError) as e:
        parse_action(table, text)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value)


def test_non_text_is_refused(table):
    with pytest.raises(NotationError):
        parse_action(table, None)  # type: ignore[arg-type]


def test_field_numbers_are_one_based_and_out_of_range_is_the_engines_call(table):
    a = parse_action(table, "Anna erntet Feld 3")
    assert a == Harvest(0, 2)
    assert b.check(table, a).rule_id == "input.no-field"


# ---- formatting and the round trip ---------------------------------------------------------
def test_format_reads_like_german(table):
    s = table
    assert format_action(s, Harvest(0, 0)) == "Anna erntet Feld 1"
    assert format_action(s, Harvest(0, 0, 2)) == "Anna erntet 2 Karten von Feld 1"
    assert format_action(s, EndTrading(0)) == "Anna beendet den Handel"
    assert format_action(s, Draw(0)) == "Anna zieht 3 Karten"
    rev_blue = card_of(s, s.revealed, "blue")
    hand_blue = card_of(s, s.players[0].hand, "blue", 1)
    soy = card_of(s, s.players[1].hand, "soy")
    assert format_action(s, Offer(0, 1, (rev_blue,), (soy,))) == "Anna bietet Ben Blaue Bohne gegen Sojabohne"
    assert format_action(s, Offer(0, 1, (hand_blue,), (soy,))) == "Anna bietet Ben Blaue Bohne (Hand 3) gegen Sojabohne"


def _round_trip(s: b.State, a) -> None:
    text = format_action(s, a)
    assert parse_action(s, text) == a, text


def test_round_trip_on_constructed_actions(table):
    s = table
    anna, ben = s.players[0], s.players[1]
    actions = [
        Plant(0, 0), Plant(0, 1, s.revealed[1]), EndPlanting(0), Harvest(0, 1), Harvest(0, 0, 1),
        Offer(0, 1, (anna.hand[2], s.revealed[0], anna.hand[0]), (ben.hand[2], ben.hand[0])),
        Offer(0, 1, (anna.hand[3],), ()), Offer(0, 1, (), (ben.hand[1],)), Offer(0, 1, (), ()),
        Offer(1, 0, (ben.set_aside[0],), (anna.fields[0][1],)),
        Accept(1), Decline(1), EndTrading(0), Draw(0), BuyField(1),
        Reorder(0, tuple(reversed(anna.hand))), Reorder(0, (anna.hand[0],)),
        TakeIntoHand(1, ben.set_aside[0]), TakeIntoHand(0, s.revealed[0]),
        TakeIntoHand(0, anna.hand[1]),
    ]
    for a in actions:
        _round_trip(s, a)


def test_round_trip_over_random_games():
    rng = random.Random(3)
    checked = 0
    for game in range(6):
        s = b.new_game(["amigo", "online"][game % 2], 3 + game % 3, seed=game)
        for _ in range(120):
            legal = b.legal_actions(s)
            if not legal:
                break
            for a in rng.sample(legal, min(6, len(legal))):
                _round_trip(s, a)
                checked += 1
            # also every kind of multi-card deal the engine accepts
            if s.phase is b.Phase.TRADE and s.offer is None:
                mine = s.players[s.active].hand + s.revealed
                other = (s.active + 1) % s.n_players
                theirs = s.players[other].hand
                if len(mine) >= 2 and theirs:
                    _round_trip(s, Offer(s.active, other, tuple(rng.sample(mine, 2)), (theirs[-1],)))
            b.apply(s, rng.choice(legal))
    assert checked > 300


def test_ladybohn_cards_carry_their_sex_and_lifts_round_trip():
    rng = random.Random(5)
    lifts = 0
    for game in range(4):
        s = b.new_game("ladybohn", 4, seed=game)
        for _ in range(150):
            legal = b.legal_actions(s)
            if not legal:
                break
            with_lift = [a for a in legal if isinstance(a, Plant) and a.choice is not None]
            lifts += len(with_lift)
            for a in rng.sample(legal, min(5, len(legal))) + with_lift:
                _round_trip(s, a)
            b.apply(s, rng.choice(legal))
    assert lifts > 0


def test_sex_qualifier_parses():
    s = b.new_game("ladybohn", 4, seed=1)
    hand = s.players[0].hand
    c = hand[1]
    name = b.find_variety(s.variety[c]).de
    sex = {"w": "w", "m": "m", "B": "Baby"}[s.cards[c].trait]
    assert parse_action(s, f"Anna schenkt Ben {name} ({sex}, Hand 2)").give == (c,)
    wrong = {"w": "m", "m": "w", "B": "w"}[s.cards[c].trait]
    with pytest.raises(NotationError):
        parse_action(s, f"Anna schenkt Ben {name} ({wrong}, Hand 2)")
