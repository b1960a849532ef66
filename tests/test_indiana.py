"""Indiana Bohnes (``indy.*``): an allowed and a refused case per rule, the rulebook's
refill examples exactly, and property tests over seeds and player counts.

Tables are built from a dealt game by moving cards between zones (``grab``, ``on_top``,
``set_temple``), so every card stays in exactly one zone."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bohnteach
from bohnteach.editions import indiana as indy
from bohnteach.game import engine
from bohnteach.game.actions import Accept, BuyField, Draw, EndPlanting, EndTrading, Offer, Plant
from bohnteach.game.beans import find_variety
from bohnteach.game.errors import RuleViolation
from bohnteach.game.record import Game
from bohnteach.game.rulesets import MeterFileError, find_ruleset
from bohnteach.game.savecheck import SaveFileError
from bohnteach.game.state import Phase, State
from bohnteach.maths.bots import make_bot
from bohnteach.savefile import parse_game
from test_properties import assert_conserved, assert_finished, play

FIVE = indy.indiana_ruleset(five_varieties=True)


# ---- building tables -------------------------------------------------------------------
def game(ruleset="indiana", players=4, seed=1) -> State:
    return engine.new_game(ruleset, players, seed=seed)


def grab(s: State, variety: str, k: int = 1) -> list[int]:
    """``k`` cards of ``variety`` taken out of the draw pile (from its bottom)."""
    found = [c for c in s.deck if s.variety[c] == variety][:k]
    assert len(found) == k, f"not enough {variety} in the pile"
    for c in found:
        s.deck.remove(c)
    return found


def on_top(s: State, *varieties: str) -> None:
    """Put cards of these varieties on top of the pile: the first one is drawn first."""
    cards = [grab(s, v)[0] for v in varieties]
    s.deck.extend(reversed(cards))


def set_temple(s: State, *stacks: tuple[str, int]) -> None:
    """Empty the temple into the pile's bottom, then lay these stacks (empty slots after)."""
    for key in indy.TEMPLE:
        s.deck[:0] = s.extra[key]
        s.extra[key].clear()
    for key, (variety, n) in zip(indy.TEMPLE, stacks):
        s.extra[key].extend(grab(s, variety, n))


def trading(s: State) -> State:
    """Jump to phase 2 of the active player's turn (nothing revealed)."""
    s.phase = Phase.TRADE
    s.hand_plants = 1
    return s


def give(s: State, player: int, zone: str, variety: str, k: int = 1) -> list[int]:
    cards = grab(s, variety, k)
    target = s.players[player].coins if zone == "coins" else (
        s.players[player].fields[int(zone[-1])] if zone.startswith("field") else s.players[player].extra[zone])
    target.extend(cards)
    return cards


def keep_hand(s: State, seat: int, k: int) -> None:
    """Only the first ``k`` hand cards stay; the others go under the draw pile."""
    hand = s.players[seat].hand
    s.deck[:0] = hand[k:]
    del hand[k:]


def refused(s: State, action, rule: str) -> RuleViolation:
    before = s.to_dict()
    verdict = engine.check(s, action)
    assert verdict is not None and verdict.rule_id == rule, (action, verdict and verdict.message)
    with pytest.raises(RuleViolation):
        engine.apply(s, action)
    assert s.to_dict() == before, f"refused {action} changed the table"
    assert action not in engine.legal_actions(s)
    return verdict


def allowed(s: State, action) -> list[tuple]:
    assert engine.check(s, action) is None, engine.check(s, action).message
    named = {k: find_variety(v).key for k, v in action._asdict().items() if k in ("variety", "kind")}
    assert action._replace(**named) in engine.legal_actions(s), action  # listed with variety keys
    events = engine.apply(s, action)
    assert_conserved(s)
    return events


# ---- indy.cards, indy.meters, indy.deal -----------------------------------------------------
def test_cards_the_deck_and_the_supply():
    s = game(players=3)
    kinds = [c.variety for c in s.cards]
    assert kinds.count("snake") == 23 and kinds.count("bush") == 25
    assert sum(1 for c in s.cards if indy.is_bean(s, c.id)) == 152
    assert sorted(s.variety[c] for c in s.extra[indy.SUPPLY]) == ["carrier"] * 5 + ["path"] * 5 + ["sabohntage"]
    assert all(indy.is_bean(s, c) for p in s.players for c in p.hand)
    assert len(s.players[0].fields) == 3 and len(game(players=4).players[0].fields) == 2
    assert find_ruleset("indiana").meter_assumption


def test_cards_no_bean_in_a_hand_of_a_saved_game():
    g = Game.new("indiana", 4, seed=2)
    data = g.to_dict()
    carrier = data["initial"]["extra"][indy.SUPPLY].pop()
    data["initial"]["players"][0]["hand"].append(carrier)
    with pytest.raises(SaveFileError, match="keine Bohne"):
        Game.from_dict(data)
    with pytest.raises(ValueError, match="3–5"):
        engine.new_game("indiana", 6)


def test_meters_are_assumed_and_replaceable(tmp_path):
    s = game()
    snake = next(c for c in range(len(s.cards)) if s.variety[c] == "snake")
    assert s.meter[snake] == (4, 7, 9, 11)
    path = tmp_path / "meine.toml"
    path.write_text('Schlangenbohne = [3, 6, 8, 10]\n', "utf-8")
    mine = indy.load_ruleset_with_meters("indiana", path)
    assert "weiterhin angenommen: Buschbohne" in mine.meter_assumption
    assert engine.new_game(mine, 4, seed=1).meter[snake] == (3, 6, 8, 10)
    # one signature: the top-level function is the same, for every Indiana rule set
    assert bohnteach.load_ruleset_with_meters is indy.load_ruleset_with_meters
    both = bohnteach.load_ruleset_with_meters(indy.indiana_ruleset(sabohntage=True), str(path))
    assert indy.settings_of(both).sabohntage and engine.new_game(both, 4, seed=1).meter[snake] == (3, 6, 8, 10)


def test_meters_refused_for_other_varieties_bad_values_and_wrong_arguments(tmp_path):
    path = tmp_path / "falsch.toml"
    for text, reason in [('"Blaue Bohne" = [4, 6, 8, 10]', "nur für Schlangenbohne und Buschbohne"),
                         ("Buschbohne = [5, 4, 10, 12]", "steigen"),
                         ("[Buschbohne]\nm = [5, 8, 10, 12]", "kein m/w"),
                         ("Buschbohne = [5, 8, 10, 12]\nbush = [5, 8, 10, 13]", "Dieselbe Sorte")]:
        path.write_text(text + "\n", "utf-8")
        with pytest.raises(MeterFileError, match=reason):
            indy.load_ruleset_with_meters("indiana", path)
    with pytest.raises(MeterFileError, match="gibt es nicht"):
        indy.load_ruleset_with_meters("indiana", tmp_path / "fehlt.toml")
    for wrong in [(path, "indiana"), (str(path), "indiana"), ("meine.toml", "ladybohn")]:
        with pytest.raises(MeterFileError, match="Erst das Regelwerk, dann die Datei"):
            bohnteach.load_ruleset_with_meters(*wrong)
    with pytest.raises(MeterFileError, match="als Pfad"):
        bohnteach.load_ruleset_with_meters("indiana", 3)
    with pytest.raises(MeterFileError, match="alle sind aufgedruckt"):
        bohnteach.load_ruleset_with_meters("amigo", path)


def test_deal_three_four_five_six_from_the_start_player():
    s = engine.new_game("indiana", 5, seed=4, start_player=3)
    assert [len(s.players[(3 + k) % 5].hand) for k in range(5)] == [3, 4, 5, 6, 6]
    s = engine.new_game("indiana", 4, seed=4, start_player=0)
    assert [len(p.hand) for p in s.players] == [3, 4, 5, 6]
    assert all(p.extra[indy.ADVENTURER] == [] for p in s.players)  # every adventurer starts empty
    assert all(p.coins == [] for p in s.players)  # the Home-Sweet-Home card: no Taler yet


# ---- indy.temple-setup, indy.five-varieties ----------------------------------------------------
def test_temple_setup_four_varieties_each_a_stack():
    for seed in range(20):
        s = game(seed=seed)
        stacks = indy.temple_stacks(s)
        assert len(stacks) == 4 and s.extra["temple5"] == []
        assert all(len({s.variety[c] for c in stack}) == 1 for stack in stacks.values())
        # the last card laid opened the fourth variety: no stack is complete before it
        assert all(stack for stack in indy.temple(s))


def test_temple_setup_refused_in_a_save_with_two_varieties_on_a_stack():
    g = Game.new("indiana", 4, seed=3)
    data = g.to_dict()
    temple = data["initial"]["extra"]
    other = next(c for c in data["initial"]["deck_top_first"]
                 if data["initial"]["cards"][c][0] != data["initial"]["cards"][temple["temple1"][0]][0]
                 and data["initial"]["cards"][c][0] in ("blue", "soy"))
    data["initial"]["deck_top_first"].remove(other)
    temple["temple1"].append(other)
    with pytest.raises(SaveFileError, match="einer Sorte"):
        Game.from_dict(data)


def test_five_varieties_variation_fills_five_places():
    s = engine.new_game(FIVE, 4, seed=5)
    assert len(indy.temple_stacks(s)) == 5
    assert find_ruleset("indiana_varianten").settings.temple_slots == 5


def test_five_varieties_refused_in_the_four_place_temple():
    g = Game.new("indiana", 4, seed=3)
    data = g.to_dict()
    card = data["initial"]["deck_top_first"].pop()
    data["initial"]["extra"]["temple5"] = [card]
    with pytest.raises(SaveFileError, match="nur 4 Stellen"):
        Game.from_dict(data)


# ---- indy.temple-reveal, indy.temple-refill: the rulebook's examples 1–3 ---------------------
def _reveal(s: State, *top: str) -> list[int]:
    on_top(s, *top)
    front = s.players[0].hand[0]
    field = engine.fitting_fields(s, 0, front)[0]
    engine.apply(s, Plant(0, field))
    engine.apply(s, EndPlanting(0))
    return [s.variety[c] for c in s.revealed]


EXAMPLE_TEMPLE = (("stink", 3), ("chili", 2), ("blue", 2), ("green", 1))


def test_refill_example_1_both_go_to_the_temple_two_new_cards():
    s = engine.new_game(FIVE, 4, seed=6)
    set_temple(s, *EXAMPLE_TEMPLE)
    shown = _reveal(s, "stink", "soy", "stink", "soy")
    assert shown == ["stink", "soy"]  # the replacements stay, even of temple varieties
    stacks = indy.temple_stacks(s)
    assert len(stacks["stink"]) == 4 and len(stacks["soy"]) == 1 and list(stacks)[-1] == "soy"


def test_refill_example_2_first_revealed_takes_the_empty_place():
    s = engine.new_game(FIVE, 4, seed=6)
    set_temple(s, *EXAMPLE_TEMPLE)
    shown = _reveal(s, "blackeye", "soy", "red")
    assert shown == ["soy", "red"]
    assert "blackeye" in indy.temple_stacks(s) and "soy" not in indy.temple_stacks(s)


def test_refill_example_3_one_place_stays_empty():
    s = engine.new_game(FIVE, 4, seed=6)
    set_temple(s, *EXAMPLE_TEMPLE[:3])
    shown = _reveal(s, "stink", "soy", "garden", "red")
    assert shown == ["garden", "red"]
    assert [len(p) for p in indy.temple(s)] == [4, 2, 2, 1, 0]


def test_temple_reveal_cards_in_the_temple_cannot_be_traded():
    s = engine.new_game(FIVE, 4, seed=6)
    set_temple(s, *EXAMPLE_TEMPLE)
    _reveal(s, "stink", "soy", "red", "red")
    in_temple = indy.temple_stacks(s)["stink"][-1]
    refused(s, Offer(0, 1, (in_temple,), ()), "input.unknown-card")


def test_temple_refill_not_during_a_visit():
    s = trading(game(seed=7))
    set_temple(s, ("blue", 2), ("soy", 2))  # two empty places
    on_top(s, "garden")
    allowed(s, indy.VisitTemple(0, "blue"))  # garden is no temple variety: plant it
    assert len(indy.temple_stacks(s)) == 2 and s.variety[s.players[0].set_aside[0]] == "garden"


def test_temple_refill_refused_when_no_place_is_empty():
    s = engine.new_game("indiana", 4, seed=8)
    set_temple(s, ("stink", 1), ("chili", 1), ("blue", 1), ("green", 1))
    assert _reveal(s, "soy", "red") == ["soy", "red"]  # both stay: the temple is full
    assert len(indy.temple_stacks(s)) == 4


# ---- indy.draw-one ---------------------------------------------------------------------------
def test_draw_one_every_player_active_first_with_the_temple_check():
    s = game(seed=9)
    set_temple(s, ("blue", 2), ("soy", 1), ("chili", 1), ("red", 1))
    s.phase = Phase.DRAW
    hands = [p.hand[:] for p in s.players]
    on_top(s, "green", "blue", "stink", "garden", "soy", "green")
    events = engine.apply(s, Draw(0))
    got = [s.variety[p.hand[-1]] for p in s.players]
    assert got == ["green", "stink", "garden", "green"]  # Ben's Blaue Bohne went to the temple
    assert len(indy.temple_stacks(s)["blue"]) == 3 and len(indy.temple_stacks(s)["soy"]) == 2
    assert all(len(p.hand) == len(h) + 1 for p, h in zip(s.players, hands))
    assert [e[1] for e in events if e[0] == "indy_draw"] == [0, 1, 2, 3]
    assert s.active == 1 and s.phase is Phase.PLANT


def test_draw_one_refused_for_another_player():
    s = game(seed=9)
    s.phase = Phase.DRAW
    refused(s, Draw(2), "turn.not-active")


# ---- indy.visit and its outcomes ---------------------------------------------------------------
def visit_table(seed=10, *temple) -> State:
    s = trading(game(seed=seed))
    set_temple(s, *(temple or (("blue", 3), ("soy", 2), ("chili", 1), ("green", 2))))
    return s


def test_visit_match_and_other():
    s = visit_table()
    on_top(s, "blue")
    events = allowed(s, indy.VisitTemple(0, "Blaue Bohne"))
    assert [e for e in events if e[0] == "visit"][0][3] == indy.MATCH
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["blue"] * 4
    assert s.extra["temple1"] == []
    s = visit_table()
    on_top(s, "soy")
    allowed(s, indy.VisitTemple(0, "blue"))
    assert len(s.players[0].extra[indy.ADVENTURER]) == 3 and len(indy.temple_stacks(s)["soy"]) == 3


def test_visit_refused_out_of_turn_phase_offer_or_unknown_stack():
    s = visit_table()
    refused(s, indy.VisitTemple(1, "blue"), "indy.visit")
    refused(s, indy.VisitTemple(0, "red"), "indy.visit")
    refused(s, indy.VisitTemple(0, 17), "indy.visit")
    engine.apply(s, Offer(0, 1, (s.players[0].hand[0],), ()))
    refused(s, indy.VisitTemple(0, "blue"), "indy.visit")
    s = visit_table()
    s.phase = Phase.PLANT
    refused(s, indy.VisitTemple(0, "blue"), "indy.visit")


def test_visit_plant_the_card_is_set_aside_and_planted_in_phase_3():
    s = visit_table()
    on_top(s, "garden")
    allowed(s, indy.VisitTemple(0, "blue"))
    card = s.players[0].set_aside[0]
    assert s.variety[card] == "garden" and indy.visits(s) == (indy.PLANT,)
    engine.apply(s, EndTrading(0))
    assert s.phase is Phase.PLANT_RECEIVED and card in engine.to_plant(s, 0)


def test_visit_keep_the_turned_card_is_neither_given_nor_asked_for():
    s = visit_table()
    on_top(s, "garden")
    allowed(s, indy.VisitTemple(0, "blue"))
    card = s.players[0].set_aside[0]
    verdict = refused(s, Offer(0, 1, (card,), ()), "indy.visit-keep")
    assert "Tempelgang" in verdict.message and "Handel" not in verdict.message  # it was not traded
    refused(s, Offer(1, 0, (s.players[1].hand[0],), (card,)), "indy.visit-keep")  # nor asked for
    allowed(s, Offer(0, 1, (s.players[0].hand[0],), ()))  # her hand cards she still trades
    engine.apply(s, Accept(1))
    got = s.players[1].set_aside[0]
    refused(s, Offer(1, 0, (got,), ()), "trade.no-retrade")  # a traded card keeps the core's rule
    engine.apply(s, EndTrading(0))
    engine.apply(s, Plant(0, next(iter(engine.fitting_fields(s, 0, card))), card))
    engine.apply(s, Plant(1, next(iter(engine.fitting_fields(s, 1, got))), got))
    engine.apply(s, Draw(0))
    assert indy.kept(s) == ()  # a new turn forgets it


def test_snake_temple_joins_the_snakes_no_stack():
    s = visit_table(10, ("blue", 3), ("snake", 2), ("chili", 1), ("green", 2))
    on_top(s, "snake")
    allowed(s, indy.VisitTemple(0, "blue"))
    assert len(indy.temple_stacks(s)["snake"]) == 3 and len(indy.temple_stacks(s)["blue"]) == 3
    refused(s, indy.VisitTemple(0, "blue"), "indy.two-visits")


def test_snake_adventurer_empty_adventurer_just_takes_it():
    s = visit_table()
    on_top(s, "snake")
    allowed(s, indy.VisitTemple(0, "blue"))
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["snake"]
    assert not indy.blocked(s, 0)


def test_snake_adventurer_blocks_other_beans():
    s = visit_table()
    give(s, 0, indy.ADVENTURER, "blue", 2)
    on_top(s, "snake")
    allowed(s, indy.VisitTemple(0, "blue"))
    assert indy.blocked(s, 0)
    refused(s, indy.SellAdventurer(0), "indy.blockade")


def test_snake_wanted_snake_turned_goes_back_to_the_temple():
    s = visit_table(10, ("blue", 3), ("snake", 2), ("chili", 1), ("green", 2))
    on_top(s, "snake")
    events = allowed(s, indy.VisitTemple(0, "snake"))
    assert [e for e in events if e[0] == "visit"][0][3] == indy.SNAKE_WANTED
    assert len(indy.temple_stacks(s)["snake"]) == 3 and s.players[0].extra[indy.ADVENTURER] == []
    refused(s, indy.VisitTemple(0, "snake"), "indy.two-visits")


def test_snake_wanted_other_temple_variety_brings_the_snakes():
    s = visit_table(10, ("blue", 3), ("snake", 2), ("chili", 1), ("green", 2))
    on_top(s, "chili")
    allowed(s, indy.VisitTemple(0, "snake"))
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["snake", "snake"]


def test_blockade_lifts_with_enough_snakes():
    s = visit_table(10, ("blue", 3), ("snake", 3), ("chili", 1), ("green", 2))
    give(s, 0, indy.ADVENTURER, "blue", 6)
    give(s, 0, indy.ADVENTURER, "snake", 1)
    assert indy.blocked(s, 0)
    refused(s, indy.VisitTemple(0, "blue"), "indy.blockade")
    on_top(s, "chili")
    allowed(s, indy.VisitTemple(0, "snake"))  # three more snakes: four bring a Taler
    assert not indy.blocked(s, 0)
    coins = indy.sale_coins(s, 0)
    assert coins == 2 + 1  # 6 Blaue Bohnen → 2 Taler, 4 Schlangenbohnen (assumed) → 1 Taler
    allowed(s, indy.SellAdventurer(0))
    assert len(s.players[0].coins) == 3


def test_two_visits_second_only_after_a_success_never_a_third():
    s = visit_table()
    on_top(s, "soy", "chili", "green")
    allowed(s, indy.VisitTemple(0, "blue"))
    allowed(s, indy.SellAdventurer(0))
    allowed(s, indy.VisitTemple(0, "green"))
    allowed(s, indy.SellAdventurer(0))
    refused(s, indy.VisitTemple(0, "soy"), "indy.two-visits")


def test_two_visits_refused_after_a_failed_first():
    s = visit_table()
    on_top(s, "garden")
    allowed(s, indy.VisitTemple(0, "blue"))
    refused(s, indy.VisitTemple(0, "soy"), "indy.two-visits")


def test_adventurer_one_variety_sell_first():
    s = visit_table()
    give(s, 0, indy.ADVENTURER, "chili", 3)
    refused(s, indy.VisitTemple(0, "blue"), "indy.adventurer")
    on_top(s, "soy")
    allowed(s, indy.VisitTemple(0, "chili"))
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["chili"] * 4


def test_adventurer_sell_by_the_meter_any_time():
    s = game(seed=11)
    give(s, 2, indy.ADVENTURER, "blue", 7)  # not Clara's turn: selling is like harvesting
    allowed(s, indy.SellAdventurer(2))
    assert len(s.players[2].coins) == 2 and s.players[2].extra[indy.ADVENTURER] == []
    refused(s, indy.SellAdventurer(2), "indy.adventurer-sell")


def test_field_to_adventurer_whole_field_same_variety():
    s = game(seed=12)
    give(s, 1, "field0", "soy", 3)
    allowed(s, indy.FieldToAdventurer(1, 0))
    assert len(s.players[1].extra[indy.ADVENTURER]) == 3 and s.players[1].fields[0] == []
    give(s, 1, "field1", "blue", 2)
    refused(s, indy.FieldToAdventurer(1, 1), "indy.field-to-adventurer")
    refused(s, indy.FieldToAdventurer(1, 0), "indy.field-to-adventurer")  # empty field
    refused(s, indy.FieldToAdventurer(1, 7), "input.no-field")


# ---- indy.path-card, indy.buy -------------------------------------------------------------------
def test_path_card_takes_a_lone_card_without_turning_one():
    s = visit_table()
    give(s, 0, "coins", "red", 2)
    allowed(s, indy.BuyCard(0, "Wegkarte"))
    deck = s.deck[:]
    allowed(s, indy.VisitTemple(0, "chili", True))
    assert s.deck == deck and indy.visits(s) == (indy.BY_PATH,)
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["chili"]
    allowed(s, indy.SellAdventurer(0))
    on_top(s, "soy")
    allowed(s, indy.VisitTemple(0, "green"))  # a successful first visit allows a second


def test_path_card_refused_without_card_or_for_a_bigger_stack():
    s = visit_table()
    refused(s, indy.VisitTemple(0, "chili", True), "indy.path-card")
    give(s, 0, "coins", "red", 2)
    engine.apply(s, indy.BuyCard(0, "path"))
    refused(s, indy.VisitTemple(0, "blue", True), "indy.path-card")


def test_buy_pays_onto_the_discard_pile_face_down_and_a_third_field():
    s = game(seed=13)
    paid = give(s, 3, "coins", "red", 7)
    allowed(s, indy.BuyCard(3, "path"))
    assert set(paid[-2:]) <= s.face_down and s.discard[-2:] == paid[-2:]
    allowed(s, BuyField(3))  # indy.buy: the third field costs 3 Taler (Auslegung)
    assert len(s.players[3].fields) == 3 and len(s.players[3].coins) == 2


def test_buy_refused_without_coins_twice_or_when_the_supply_is_empty():
    s = game(seed=13)
    give(s, 0, "coins", "red", 3)
    refused(s, indy.BuyCard(0, "carrier"), "indy.buy")
    refused(s, indy.BuyCard(0, "Feld"), "indy.buy")
    engine.apply(s, indy.BuyCard(0, "path"))
    refused(s, indy.BuyCard(0, "path"), "indy.buy")
    s.extra[indy.SUPPLY][:] = [c for c in s.extra[indy.SUPPLY] if s.variety[c] != "path"]
    s.extra["box"] = [c for c in range(len(s.cards)) if s.variety[c] == "path" and c not in s.players[0].extra[indy.PATH]]
    give(s, 1, "coins", "red", 2)
    refused(s, indy.BuyCard(1, "path"), "indy.buy")  # the supply has none left


# ---- indy.carrier, indy.carrier-load --------------------------------------------------------------
def carrier_game(seed=14) -> State:
    s = game(seed=seed)
    give(s, 0, "coins", "red", 4)
    engine.apply(s, indy.BuyCard(0, "carrier"))
    return s


def _to_turn_of(s: State, seat: int) -> None:
    bots = [make_bot("planter", i) for i in range(len(s.players))]
    while not (s.active == seat and s.phase is Phase.PLANT) or s.turn == 1:
        who = engine.actor(s)
        action = bots[who].choose(s, who)
        if type(action) in indy.ACTIONS:  # plain play: only the carrier's place is looked at
            action = next(a for a in engine.legal_actions(s, who, offers=False) if type(a) not in indy.ACTIONS)
        engine.apply(s, action)


def test_carrier_travels_at_the_back_and_is_laid_from_place_1_or_2():
    s = carrier_game()
    assert indy.carrier_position(s, 0) == len(s.players[0].hand) + 1
    refused(s, indy.LayCarrier(0), "indy.carrier")  # bought this turn: not at place 1 or 2
    keep_hand(s, 0, 1)  # one card in front of it
    indy.end_turn(s)  # as if the turn before Anna's ended now: her carrier stands at place 2
    s.active, s.marks["carrier_start"] = 0, indy.carrier_position(s, 0)
    assert s.marks["carrier_start"] == 2
    allowed(s, indy.LayCarrier(0))
    assert s.players[0].extra[indy.CARRIER_LAID] and not s.players[0].extra[indy.CARRIER]


def test_carrier_refused_from_place_3():
    s = carrier_game()
    keep_hand(s, 0, 2)
    s.marks["carrier_start"] = indy.carrier_position(s, 0)
    assert s.marks["carrier_start"] == 3
    verdict = refused(s, indy.LayCarrier(0), "indy.carrier")
    assert "Stelle 3" in verdict.message


def test_carrier_in_a_played_game_reaches_the_front_and_is_laid():
    s = carrier_game(15)
    for _ in range(12):
        _to_turn_of(s, 0)
        if engine.check(s, indy.LayCarrier(0)) is None:
            break
    assert engine.check(s, indy.LayCarrier(0)) is None and s.marks["carrier_start"] in (1, 2)
    hand = s.players[0].hand[:]
    allowed(s, indy.LayCarrier(0))
    assert s.players[0].hand == hand  # no bean card left the hand: planting goes on as before


def carrier_at(place: int, seed=14) -> State:
    """Anna's turn, phase 1: her carrier at ``place`` of a hand of three beans."""
    s = carrier_game(seed)
    keep_hand(s, 0, place - 1)  # these stand in front of the carrier
    hand = s.players[0].hand
    for variety in ("blue", "soy", "chili", "green", "red"):
        if len(hand) == 3:
            break
        if all(s.variety[c] != variety for c in hand):
            hand.extend(grab(s, variety))  # behind the carrier
    s.marks["ahead"] = (tuple(hand[: place - 1]), *s.marks["ahead"][1:])
    s.marks["carrier_start"] = indy.carrier_position(s, 0)
    assert s.phase is Phase.PLANT and s.active == 0 and s.marks["carrier_start"] == place
    return s


def test_carrier_plant_at_place_2_the_second_bean_only_after_laying_it():
    s = carrier_at(2)
    allowed(s, Plant(0, 0))  # the front bean, as always
    verdict = refused(s, Plant(0, 1), "indy.carrier-plant")  # the bean behind the carrier
    assert "Trägerkarte" in verdict.message
    allowed(s, EndPlanting(0))  # one bean is enough
    s = carrier_at(2)
    allowed(s, Plant(0, 0))
    allowed(s, indy.LayCarrier(0))
    allowed(s, Plant(0, 1))  # laid: now the second bean
    assert s.phase is Phase.TRADE and s.hand_plants == 2


def test_carrier_plant_at_place_1_first_bean_always_second_after_laying_place_3_unchanged():
    s = carrier_at(1)
    allowed(s, Plant(0, 0))  # the duty of phase 1 stands, laid or not
    refused(s, Plant(0, 1), "indy.carrier-plant")
    allowed(s, indy.LayCarrier(0))
    allowed(s, Plant(0, 1))
    s = carrier_at(3)
    allowed(s, Plant(0, 0))
    allowed(s, Plant(0, 1))  # both beans stand in front of it
    assert s.hand_plants == 2 and indy.carrier_position(s, 0) == 1  # now at the front, for next turn


def test_carrier_load_after_a_success_then_unload_through_a_sale():
    s = visit_table(16, ("blue", 3), ("soy", 2), ("chili", 1), ("green", 2))
    p = s.players[0]
    p.extra[indy.CARRIER_LAID].append(s.extra[indy.SUPPLY].pop(s.extra[indy.SUPPLY].index(
        next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == "carrier"))))
    give(s, 0, indy.ADVENTURER, "blue", 1)
    refused(s, indy.LoadCarrier(0, "soy"), "indy.carrier-load")  # no visit yet
    on_top(s, "green")
    allowed(s, indy.VisitTemple(0, "blue"))  # 4 Blaue Bohnen: 1 Taler
    allowed(s, indy.LoadCarrier(0, "soy"))
    assert len(p.extra[indy.LOAD]) == 2 and indy.visits(s) == (indy.OTHER, indy.LOADED)
    allowed(s, indy.SellAdventurer(0))
    assert [s.variety[c] for c in p.extra[indy.ADVENTURER]] == ["soy", "soy"] and not p.extra[indy.LOAD]


def test_carrier_load_refused_when_the_adventurer_brings_no_taler_and_after_the_path():
    s = visit_table(16, ("blue", 2), ("soy", 2), ("chili", 1), ("green", 2))
    p = s.players[0]
    p.extra[indy.CARRIER_LAID].append(next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == "carrier"))
    s.extra[indy.SUPPLY].remove(p.extra[indy.CARRIER_LAID][0])
    on_top(s, "green")
    allowed(s, indy.VisitTemple(0, "blue"))  # 2 Blaue Bohnen: no Taler yet
    refused(s, indy.LoadCarrier(0, "soy"), "indy.carrier-load")
    s = visit_table(17, ("blue", 1), ("soy", 2), ("chili", 1), ("green", 2))
    p = s.players[0]
    give(s, 0, indy.ADVENTURER, "blue", 3)
    p.extra[indy.PATH].append(next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == "path"))
    p.extra[indy.CARRIER_LAID].append(next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == "carrier"))
    s.extra[indy.SUPPLY][:] = [c for c in s.extra[indy.SUPPLY] if c not in p.extra[indy.PATH] + p.extra[indy.CARRIER_LAID]]
    allowed(s, indy.VisitTemple(0, "blue", True))
    refused(s, indy.LoadCarrier(0, "soy"), "indy.path-card")  # two Sojabohnen: not a lone card
    allowed(s, indy.LoadCarrier(0, "chili"))


def lay_carrier(s: State, seat: int = 0, path: bool = False) -> None:
    """Give ``seat`` a carrier laid over the adventurer (and a path card) from the supply."""
    p = s.players[seat]
    for kind, zone in [("carrier", indy.CARRIER_LAID)] + ([("path", indy.PATH)] if path else []):
        card = next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == kind)
        s.extra[indy.SUPPLY].remove(card)
        p.extra[zone].append(card)


def test_carrier_blocked_refused_under_a_snake_blockade_even_when_the_beans_below_are_worth_a_taler():
    s = visit_table(16, ("snake", 1), ("soy", 2), ("chili", 1), ("green", 2))
    lay_carrier(s, path=True)
    give(s, 0, indy.ADVENTURER, "blue", 4)  # 4 Blaue Bohnen: 1 Taler ...
    give(s, 0, indy.ADVENTURER, "snake", 1)  # ... blocked by one snake
    allowed(s, indy.VisitTemple(0, "snake", True))  # the lone snake: a success, two snakes still block
    assert indy.blocked(s, 0) and indy.sale_coins(s, 0) >= 1
    verdict = refused(s, indy.LoadCarrier(0, "soy"), "indy.carrier-blocked")
    assert "blockiert" in verdict.message and "4 Schlangenbohnen" in verdict.message
    refused(s, indy.SellAdventurer(0), "indy.blockade")  # what loading would have led to


def test_carrier_blocked_allowed_once_the_snakes_lift_the_blockade():
    s = visit_table(16, ("snake", 2), ("soy", 2), ("chili", 1), ("green", 2))
    lay_carrier(s)
    give(s, 0, indy.ADVENTURER, "blue", 4)
    give(s, 0, indy.ADVENTURER, "snake", 2)
    on_top(s, "chili")  # another temple variety: the two snakes are hers
    allowed(s, indy.VisitTemple(0, "snake"))
    assert not indy.blocked(s, 0)
    allowed(s, indy.LoadCarrier(0, "soy"))
    allowed(s, indy.SellAdventurer(0))
    assert [s.variety[c] for c in s.players[0].extra[indy.ADVENTURER]] == ["soy", "soy"]


def test_carrier_back_to_the_end_of_the_hand_after_phase_4_load_discarded():
    s = game(seed=18)
    p = s.players[0]
    p.extra[indy.CARRIER_LAID].append(next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == "carrier"))
    s.extra[indy.SUPPLY].remove(p.extra[indy.CARRIER_LAID][0])
    load = give(s, 0, indy.LOAD, "soy", 2)
    s.phase = Phase.DRAW
    allowed(s, Draw(0))
    assert p.extra[indy.CARRIER] and not p.extra[indy.CARRIER_LAID]
    assert indy.carrier_position(s, 0) == len(p.hand) + 1 and s.discard[-2:] == load


# ---- indy.end ---------------------------------------------------------------------------------------
def test_end_adventurer_and_carrier_are_sold_in_the_final_scoring():
    s = game(seed=19)
    give(s, 1, indy.ADVENTURER, "blue", 4)
    give(s, 1, indy.ADVENTURER, "snake", 2)  # a blockade no longer matters
    give(s, 1, indy.LOAD, "soy", 2)
    s.phase, s.ending = Phase.DRAW, True
    engine.apply(s, Draw(0))
    assert_finished(s)
    assert s.scores[1] == 1 + 0 + 1  # Blaue Bohnen 1, two snakes 0, then the Sojabohnen 1
    assert not s.players[1].extra[indy.ADVENTURER] and not s.players[1].extra[indy.LOAD]


def test_end_refuses_everything_afterwards():
    s = game(seed=19)
    s.phase, s.ending = Phase.DRAW, True
    engine.apply(s, Draw(0))
    refused(s, indy.SellAdventurer(0), "game.over")
    refused(s, indy.VisitTemple(0, "blue"), "game.over")


# ---- indy.sabohntage ---------------------------------------------------------------------------------
def sab_game(seed=20) -> State:
    return engine.new_game(indy.indiana_ruleset(sabohntage=True), 4, seed=seed)


def take_sabohntage(s: State) -> int:
    """The Sabohntage card, taken out of whatever zone holds it."""
    sab = next(c for c in range(len(s.cards)) if s.variety[c] == "sabohntage")
    for _, zone in s.zones():
        if sab in zone:
            zone.remove(sab)
    return sab


def test_sabohntage_drawn_is_laid_open_and_replaced_then_blocks_until_the_victims_turn():
    s = sab_game()
    sab = take_sabohntage(s)
    s.deck.append(sab)
    s.phase = Phase.DRAW
    hand = s.players[0].hand[:]
    engine.apply(s, Draw(0))
    assert s.players[0].extra[indy.SABOHNTAGE] == [sab] and len(s.players[0].hand) == len(hand) + 1
    assert all(indy.is_bean(s, c) for c in s.players[0].hand)
    # Anna's next turn: she blocks Ben
    s.active, s.phase = 0, Phase.TRADE
    allowed(s, indy.Sabotage(0, 1))
    s.active = 1
    refused(s, indy.VisitTemple(1, next(iter(indy.temple_stacks(s)))), "indy.sabohntage")
    s.phase = Phase.DRAW
    engine.apply(s, Draw(1))  # Ben's turn is over: the card is his now
    assert s.players[1].extra[indy.SABOHNTAGE] == [sab] and not s.players[1].extra[indy.SABOTAGED]


def test_sabohntage_blocks_the_sale_as_the_snakes_do_until_the_victims_turn_is_over():
    s = sab_game()
    sab = take_sabohntage(s)
    s.players[0].extra[indy.SABOHNTAGE].append(sab)
    s.active, s.phase, s.hand_plants = 0, Phase.TRADE, 1
    give(s, 1, indy.ADVENTURER, "blue", 4)  # a sale would bring Ben 1 Taler
    allowed(s, indy.Sabotage(0, 1))
    verdict = refused(s, indy.SellAdventurer(1), "indy.sabohntage")  # not even during Anna's turn
    assert "blockiert" in verdict.message
    s.active, s.phase = 1, Phase.DRAW
    refused(s, indy.SellAdventurer(1), "indy.sabohntage")  # nor during his own
    engine.apply(s, Draw(1))
    allowed(s, indy.SellAdventurer(1))  # his turn is over: the card is his, the adventurer free
    assert len(s.players[1].coins) == 1


def test_sabohntage_refused_without_the_variation_or_on_oneself():
    s = trading(game(seed=21))
    sab = s.extra[indy.SUPPLY].pop(next(i for i, c in enumerate(s.extra[indy.SUPPLY]) if s.variety[c] == "sabohntage"))
    s.players[0].extra[indy.SABOHNTAGE].append(sab)
    refused(s, indy.Sabotage(0, 1), "indy.sabohntage")
    s = trading(sab_game())
    refused(s, indy.Sabotage(0, 1), "indy.sabohntage")  # Anna does not hold it
    holder = next((i for i, p in enumerate(s.players) if p.extra[indy.SABOHNTAGE]), None)
    if holder is None:
        sab = next(c for c in s.deck if s.variety[c] == "sabohntage")
        s.deck.remove(sab)
        s.players[0].extra[indy.SABOHNTAGE].append(sab)
        holder = 0
    s.active = holder
    refused(s, indy.Sabotage(holder, holder), "indy.sabohntage")


# ---- the engine's guarantees over Indiana -------------------------------------------------------------
CONFIGS = [("indiana", n) for n in range(3, 6)] + [("indiana_varianten", n) for n in range(3, 6)]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def wild_indiana(s: State, rng: random.Random):
    """An Indiana action that is often illegal: any seat, variety, kind or target."""
    n = len(s.players)
    p = rng.choice([*range(n), -1, n, "Anna", None])
    what = rng.choice(["blue", "snake", "bush", "Kaffeebohne", "Trägerkarte", "nichts", 3, None])
    kind = rng.randrange(7)
    return [indy.VisitTemple(p, what, rng.choice([False, True, 1, "ja"])), indy.LoadCarrier(p, what),
            indy.SellAdventurer(p), indy.FieldToAdventurer(p, rng.choice([0, 1, 2, 5, -1, "1"])),
            indy.BuyCard(p, rng.choice(["path", "carrier", "Wegkarte", "field", 7])), indy.LayCarrier(p),
            indy.Sabotage(p, rng.choice([*range(n), n, None]))][kind]


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**31), st.sampled_from([0.0, 0.2]),
       st.lists(st.sampled_from(["random", "planter", "trader"]), min_size=1, max_size=3))
def test_property_games_keep_invariants_replay_and_round_trip(cfg, seed, wild_rate, bots):
    ruleset, players = cfg
    game_, snapshots, _ = play(ruleset, players, seed, wild_rate, bots)
    s = game_.state
    assert_finished(s)
    for step, snap in snapshots.items():
        assert game_.state_at(step).to_dict() == snap
    loaded = parse_game(game_.to_json())
    assert loaded.state == s and loaded.log == game_.log
    assert State.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    game_.undo(5)
    assert game_.state.to_dict() == snapshots.get(len(game_.log), game_.state.to_dict())


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**31))
def test_property_wild_indiana_actions_refused_cleanly(cfg, seed):
    ruleset, players = cfg
    rng = random.Random(seed)
    s = engine.new_game(ruleset, players, seed=seed)
    bots = [make_bot("trader", seed + i) for i in range(players)]
    for _ in range(300):
        if s.phase is Phase.OVER:
            break
        wild = wild_indiana(s, rng)
        before = s.to_dict()
        verdict = engine.check(s, wild)
        assert engine.is_legal(s, wild) == (verdict is None)
        if verdict is None:
            engine.apply(s, wild)
        else:
            with pytest.raises(RuleViolation):
                engine.apply(s, wild)
            assert s.to_dict() == before
        assert_conserved(s)
        listed = engine.legal_actions(s)
        assert all(engine.is_legal(s, a) for a in listed)
        if s.phase is not Phase.OVER:
            who = engine.actor(s)
            engine.apply(s, bots[who].choose(s, who))


def test_simulate_plays_whole_indiana_games():
    from bohnteach.maths.simulate import run_games

    result = run_games(find_ruleset("indiana"), 4, 3, 0, ["trader", "planter", "random", "trader"])
    assert len(result.scores) == 3 and all(len(sc) == 4 for sc in result.scores)


def test_bots_go_to_the_temple_buy_and_sell():
    """The planter and trader bots use the edition: temple visits, path and carrier cards,
    the adventurer's sale (counts over three whole games of each)."""
    from collections import Counter

    seen: Counter = Counter()
    for bot in ("planter", "trader"):
        for seed in range(3):
            s = engine.new_game("indiana", 4, seed=seed)
            bots = [make_bot(bot, seed * 8 + i) for i in range(4)]
            while s.phase is not Phase.OVER:
                who = engine.actor(s)
                for event in engine.apply(s, bots[who].choose(s, who)):
                    if event[0] in ("visit", "buy_card", "sell"):
                        seen[(bot, event[0], event[2] if event[0] == "buy_card" else "")] += 1
    for bot in ("planter", "trader"):
        assert seen[(bot, "visit", "")] and seen[(bot, "sell", "")], seen
    assert seen[("trader", "buy_card", "path")] and seen[("trader", "buy_card", "carrier")], seen


def test_notation_of_every_listed_indiana_action_reads_back():
    from bohnteach.game.notation import NotationError, format_action, parse_action

    seen = set()
    for seed in range(2):
        s = engine.new_game("indiana_varianten", 4, seed=seed)
        rng = random.Random(seed)
        while s.phase is not Phase.OVER:
            listed = engine.legal_actions(s)
            for a in listed:
                if type(a) in indy.ACTIONS:
                    assert parse_action(s, format_action(s, a)) == a
                    seen.add(type(a))
            engine.apply(s, rng.choice(listed))
    assert {indy.VisitTemple, indy.SellAdventurer, indy.BuyCard, indy.FieldToAdventurer} <= seen
    s = game()
    assert parse_action(s, "Anna geht mit der Wegkarte zum Tempel (Blaue Bohnen)") == indy.VisitTemple(0, "blue", True)
    with pytest.raises(NotationError, match="Bohnensorte"):
        parse_action(s, "Anna geht zum Tempel (Marsbohne)")
