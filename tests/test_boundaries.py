"""The engine's contract at its edges (issue 11, Boundaries): malformed actions, the log,
the player view, the two Auslegungen of the online and Ladybohn rules.

Save files and scene files have their own modules: test_savefile.py, test_scene_limits.py.
"""
from __future__ import annotations

import json

import pytest

from bohnteach.game.actions import (
    Accept, BuyField, Draw, EndPlanting, Harvest, Offer, Plant, Reorder, plain,
)
from bohnteach.game.beans import find_variety
from bohnteach.game.engine import apply, harvest_coins, is_legal, legal_actions, new_game
from bohnteach.game.errors import RuleViolation, find_rule
from bohnteach.game.record import Game
from bohnteach.game.rulesets import find_ruleset
from bohnteach.game.state import Phase
from bohnteach.game.view import player_view
from tables import allow, refuse, table


def _phase3_table():
    """Anna (0) active in phase 3 with a revealed Blaue Bohne to plant."""
    return table(
        "amigo", 4, hands={0: ["Sojabohne"]}, fields={0: [["Blaue Bohne"], []]},
        revealed=["Blaue Bohne"], phase=Phase.PLANT_RECEIVED, deck=["Brechbohne"] * 5,
    )


# ---- 1: a card id must be a whole number, not a float or a bool -------------------------
@pytest.mark.parametrize("wrong", [float, lambda c: c == c, str, lambda c: [c]])
def test_plant_refuses_a_card_id_of_the_wrong_type(wrong) -> None:
    s = _phase3_table()
    card = s.revealed[0]
    refuse(s, Plant(0, 1, wrong(card)), "input.unknown-card")
    assert legal_actions(s)  # the table is still sound
    allow(s, Plant(0, 1, card))


@pytest.mark.parametrize("action, rule", [
    (Plant(0.0, 0), "input.unknown-player"),  # type: ignore[arg-type]
    (Plant(True, 0), "input.unknown-player"),  # type: ignore[arg-type]
    (Plant(0, 1.0), "input.no-field"),  # type: ignore[arg-type]
    (Plant(0, 0, None, [5]), "lady.baby-lift"),  # type: ignore[arg-type]
    (Harvest(0, 0, 1.0), "input.unknown-card"),  # type: ignore[arg-type]
    (Offer(0, 1, 5), "input.unknown-card"),  # type: ignore[arg-type]
    (Offer(0, 1, "12"), "input.unknown-card"),  # type: ignore[arg-type]
    (Offer(0, 1, range(10**9)), "input.unknown-card"),  # longer than any deck: not read
    (Reorder(0, None), "input.unknown-card"),  # type: ignore[arg-type]
])
def test_malformed_fields_are_refused_with_their_rule(action, rule) -> None:
    refuse(_phase3_table(), action, rule)


def test_plain_keeps_a_plain_action_and_converts_lists() -> None:
    a = Plant(0, 1, 3)
    assert plain(a) is a
    assert plain(Offer(0, 1, [3], iter([4]))) == Offer(0, 1, (3,), (4,))


# ---- 4: an offer's card lists are read once ---------------------------------------------
def test_an_offer_given_as_a_generator_trades_its_cards() -> None:
    s = table("amigo", 4, hands={0: ["Sojabohne"], 1: ["Feuerbohne"]}, revealed=["Blaue Bohne"],
              phase=Phase.TRADE, deck=["Brechbohne"] * 5)
    soy, chili = s.players[0].hand[0], s.players[1].hand[0]
    apply(s, Offer(0, 1, (c for c in [soy]), (c for c in [chili])))
    assert s.offer == Offer(0, 1, (soy,), (chili,))
    apply(s, Accept(1))
    assert s.players[1].set_aside == [soy] and s.players[0].set_aside == [chili]


# ---- 5: BuyField is listed while an offer is open ---------------------------------------
def test_legal_actions_lists_buy_field_while_an_offer_is_open() -> None:
    s = table("online", 4, hands={0: ["Sojabohne"], 1: ["Feuerbohne"]}, coins={1: 3},
              revealed=["Blaue Bohne"], phase=Phase.TRADE, deck=["Brechbohne"] * 5)
    apply(s, Offer(0, 1, (s.players[0].hand[0],)))
    assert is_legal(s, BuyField(1))
    assert BuyField(1) in legal_actions(s)
    assert BuyField(1) in legal_actions(s, 1)
    assert set(legal_actions(s)) == {a for a in legal_actions(s) if is_legal(s, a)}


# ---- 6: the log holds plain, hashable actions -------------------------------------------
def test_the_log_keeps_plain_actions_that_survive_json() -> None:
    g = Game.new("amigo", 4, seed=3)
    g.apply(Plant(0, 0))
    g.apply(EndPlanting(0))
    card = g.state.players[0].hand[0]
    g.apply(Offer(0, 1, [card], []))  # lists, as a caller might write them
    g.apply(Accept(1))
    logged = g.log[2]
    assert logged == Offer(0, 1, (card,), ())
    assert hash(logged) == hash(Offer(0, 1, (card,), ()))
    again = Game.from_json(g.to_json())
    assert again.log == g.log
    assert json.loads(again.to_json()) == json.loads(g.to_json())


# ---- 7: coins paid for a field lie face down on the discard pile ------------------------
def test_paid_coins_are_face_down_in_every_view() -> None:
    s = table("online", 4, coins={0: ["Sojabohne", "Feuerbohne", "Blaue Bohne"]},
              discard=["Brechbohne"], hands={0: ["Rote Bohne"]}, deck=["Gartenbohne"] * 5)
    paid = s.players[0].coins[:]
    apply(s, BuyField(0))
    assert s.discard[-3:] == paid
    for viewer in (0, 1, None):
        shown = player_view(s, viewer)["discard"]
        assert shown[0] == {"id": s.discard[0], "variety": find_variety("Brechbohne").key}  # face up as before
        assert all(c == {"face_down": True} for c in shown[1:]), shown
    again = Game.from_json(Game(s).to_json()).state  # the marks survive a save
    assert player_view(again, 1)["discard"] == player_view(s, 1)["discard"]


def test_face_down_marks_end_with_the_reshuffle() -> None:
    s = table("online", 4, coins={0: 3}, hands={0: ["Rote Bohne"]}, deck=["Gartenbohne"],
              phase=Phase.DRAW)
    apply(s, BuyField(0))
    assert s.face_down
    apply(s, Draw(0))  # the last card: the discard pile with the coins becomes the deck
    assert s.exhaustions >= 1
    assert not s.face_down


# ---- 8: the two Auslegungen ---------------------------------------------------------------
def test_ladybohn_harvest_turns_the_top_cards_into_coins() -> None:
    """lady.top-card (Auslegung): the top cards become coins, so a lifted female on top
    leaves the field as a coin and the cards below go to the discard pile."""
    s = new_game("ladybohn", 4, seed=1)
    blue = [c.id for c in s.cards if c.variety == "blue"]
    males = [c for c in blue if s.cards[c].trait == "m"]
    female = next(c for c in blue if s.cards[c].trait == "w")
    for zone in [s.deck, *(p.hand for p in s.players)]:
        for c in males[:4] + [female]:
            if c in zone:
                zone.remove(c)
    field = males[:4] + [female]  # the female on top
    s.players[0].fields[0] = field[:]
    coins = harvest_coins(s, 0, 0)
    assert 1 <= coins < len(field)
    apply(s, Harvest(0, 0))
    assert s.players[0].coins == field[len(field) - coins:]
    assert female in s.players[0].coins
    assert s.discard[-(len(field) - coins):] == field[: len(field) - coins]
    assert "oberste" in find_rule("lady.top-card").interpretation


def test_online_hand_trades_are_allowed_before_the_revealed_cards_are_gone() -> None:
    """trade.continue-after-revealed (Auslegung): the order is not enforced."""
    s = table("online", 4, hands={0: ["Sojabohne"], 1: ["Feuerbohne"]},
              revealed=["Blaue Bohne", "Rote Bohne"], phase=Phase.TRADE, deck=["Brechbohne"] * 5)
    soy, chili = s.players[0].hand[0], s.players[1].hand[0]
    allow(s, Offer(0, 1, (soy,), (chili,)))  # a hand trade, both revealed cards still open
    allow(s, Accept(1))
    assert len(s.revealed) == 2
    assert "Reihenfolge" in find_rule("trade.continue-after-revealed").interpretation


def test_both_auslegungen_are_on_the_site_page() -> None:
    from bohnteach.site.pages import interpretation_items

    ids = {item[0] for item in interpretation_items()}
    assert {"lady.top-card", "trade.continue-after-revealed"} <= ids


def test_refusals_raise_only_rule_violations_for_odd_objects() -> None:
    s = _phase3_table()
    for odd in (None, 3, "Plant", Plant, object(), (0, 1)):
        with pytest.raises(RuleViolation):
            apply(s, odd)  # type: ignore[arg-type]
        assert not is_legal(s, odd)


@pytest.mark.parametrize("name", [42, None, 4.0, "atlantis", b"amigo"])
def test_an_unknown_rule_set_is_a_value_error(name) -> None:
    """Also in the compiled build (rulesets.py is compiled: typed arguments would raise
    TypeError there), so these entry points take ``object``."""
    with pytest.raises(ValueError, match="Unbekanntes Regelwerk"):
        find_ruleset(name)
    with pytest.raises(ValueError, match="Unbekanntes Regelwerk"):
        new_game(name, 4)  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [(4.0,), ("4",), (None,), (True,), (4, "1"), (4, 0, 1.0)])
def test_new_game_refuses_odd_arguments_with_a_value_error(args) -> None:
    with pytest.raises(ValueError):
        new_game("amigo", *args)


@pytest.mark.parametrize("players", ["4", 4.0, None, True, 99])
def test_a_player_count_without_rules_is_a_value_error(players) -> None:
    with pytest.raises(ValueError, match="keine Regeln"):
        find_ruleset("amigo").for_players(players)
