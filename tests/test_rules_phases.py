"""The rule catalogue (docs/rules.md): set-up, hand order, fields and the four phases of a turn.

Each rule: the allowed case, and where the rule can refuse something the refused case
(rule ID, German explanation and source, table unchanged — see ``tables.refuse``).
"""
from __future__ import annotations

import random

import pytest

from bohnteach import (
    Draw, EndPlanting, EndTrading, Harvest, Offer, Phase, Plant, Reorder, check, legal_actions, new_game,
)
from bohnteach.game import engine
from tables import allow, assert_one_zone, deck_top_first, fields_of, k, keys, refuse, table


# ---- setup.* ------------------------------------------------------------------------
def test_setup_deck_sizes() -> None:
    assert len(new_game("amigo", 4).cards) == 104
    assert len(new_game("online", 4).cards) == 154 - 24  # without Kaffeebohnen


@pytest.mark.parametrize("players,fields", [(3, 3), (4, 2), (5, 2)])
def test_setup_fields(players: int, fields: int) -> None:
    s = new_game("amigo", players)
    assert [len(p.fields) for p in s.players] == [fields] * players


def test_setup_fields_no_extra_field_with_four_players() -> None:
    s = table("amigo", 4, hands={0: ["Blaue Bohne"]}, fields={0: [["Rote Bohne"], ["Sojabohne"]]})
    refuse(s, Plant(0, 2), "input.no-field")
    assert refuse(s, Plant(0, 0), "p1.no-room")


def test_setup_deal_one_card_at_a_time() -> None:
    """With the shuffle switched off the pile is ids 0..103, top = 103: dealing one card
    at a time from the start player gives each seat every 4th card."""
    s = new_game("amigo", 4, start_player=1, shuffled=False)
    assert s.players[1].hand == [103, 99, 95, 91, 87]
    assert s.players[2].hand == [102, 98, 94, 90, 86]
    assert s.players[3].hand == [101, 97, 93, 89, 85]
    assert s.players[0].hand == [100, 96, 92, 88, 84]
    assert s.deck == list(range(84))  # the rest, face down, top = 83


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 104, 130, 154, 257])
def test_shuffle_is_random_shuffle_with_the_seed(n: int) -> None:
    """The engine's shuffle (new game, reshuffle) gives exactly ``random.Random(seed).shuffle``,
    so that a seed deals the same game as before and in other programs."""
    for seed in ("bohnteach:0", "bohnteach:17:2", "x" * 40):
        mine, theirs = list(range(n)), list(range(n))
        engine.shuffle(mine, seed)
        random.Random(seed).shuffle(theirs)
        assert mine == theirs


def test_setup_deal_is_seeded_and_complete() -> None:
    a, b = new_game("amigo", 4, seed=5), new_game("amigo", 4, seed=5)
    assert a == b
    assert new_game("amigo", 4, seed=6) != a
    assert [len(p.hand) for p in a.players] == [5] * 4
    assert len(a.deck) == 104 - 20
    assert_one_zone(a)


def test_setup_start_player_keeps_the_card() -> None:
    s = new_game("amigo", 4, seed=2, start_player=2)
    assert s.active == s.start_player == 2
    allow(s, Plant(2, _fit(s, 2)))
    allow(s, EndPlanting(2))
    allow(s, EndTrading(2))
    while s.phase is Phase.PLANT_RECEIVED:
        allow(s, Plant(2, _fit(s, 2)))
    allow(s, Draw(2))
    assert s.active == 3 and s.start_player == 2


def _fit(s, player: int) -> int:
    """A field the next card to plant fits on (harvesting first if needed)."""
    plants = [a for a in legal_actions(s, player, offers=False) if isinstance(a, Plant)]
    if plants:
        return plants[0].field
    harvest = [a for a in legal_actions(s, player, offers=False) if isinstance(a, Harvest)][0]
    allow(s, harvest)
    return harvest.field


# ---- hand.order -----------------------------------------------------------------------
def test_hand_order_draws_go_to_the_back() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"], 1: ["Augenbohne"]},
              deck=["Blaue Bohne", "Gartenbohne", "Brechbohne", "Feuerbohne"], phase=Phase.DRAW)
    allow(s, Draw(0))
    assert keys(s, s.players[0].hand) == k("Sojabohne", "Rote Bohne", "Blaue Bohne", "Gartenbohne", "Brechbohne")
    assert deck_top_first(s) == k("Feuerbohne")


def test_hand_order_front_card_is_planted() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne", "Blaue Bohne"]}, deck=["Gartenbohne", "Brechbohne"])
    allow(s, Plant(0, 1))
    assert fields_of(s, 0) == [[], k("Sojabohne")]
    assert keys(s, s.players[0].hand) == k("Rote Bohne", "Blaue Bohne")


def test_hand_order_reorder_refused() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne", "Blaue Bohne"]})
    hand = s.players[0].hand
    refuse(s, Reorder(0, (hand[2], hand[0], hand[1])), "hand.order")
    # also for a co-player and at any phase
    s = table(hands={1: ["Sojabohne", "Rote Bohne"]}, phase=Phase.TRADE, revealed=["Blaue Bohne"])
    hand = s.players[1].hand
    refuse(s, Reorder(1, (hand[1], hand[0])), "hand.order")


# ---- field.one-variety ----------------------------------------------------------------
def test_field_same_variety_on_two_fields_allowed() -> None:
    s = table(hands={0: ["Blaue Bohne", "Blaue Bohne"]}, fields={0: [["Blaue Bohne"], []]}, deck=["Rote Bohne"] * 2)
    allow(s, Plant(0, 1))
    assert fields_of(s, 0) == [k("Blaue Bohne"), k("Blaue Bohne")]
    allow(s, Plant(0, 0))
    assert fields_of(s, 0) == [k("Blaue Bohne", "Blaue Bohne"), k("Blaue Bohne")]


def test_field_one_variety_refused() -> None:
    s = table(hands={0: ["Blaue Bohne"]}, fields={0: [["Rote Bohne"], []]})
    refuse(s, Plant(0, 0), "field.one-variety")
    allow(s, Plant(0, 1))


# ---- p1.plant-front -------------------------------------------------------------------
def test_p1_front_card_must_be_planted_first() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"]}, deck=["Blaue Bohne"] * 2)
    red = s.players[0].hand[1]
    refuse(s, Plant(0, 0, red), "p1.plant-front")
    refuse(s, EndPlanting(0), "p1.plant-front")  # beginner mistake: forgetting the front card
    refuse(s, EndTrading(0), "turn.wrong-phase")
    allow(s, Plant(0, 0, s.players[0].hand[0]))
    assert fields_of(s, 0)[0] == k("Sojabohne")


def test_p1_only_the_active_player_plants() -> None:
    s = table(hands={0: ["Sojabohne"], 1: ["Rote Bohne"]})
    refuse(s, Plant(1, 0), "turn.not-active")


def test_p1_legal_actions_plant_only_the_front_card() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"]}, fields={0: [["Rote Bohne"], ["Blaue Bohne"]]})
    plants = [a for a in legal_actions(s) if isinstance(a, Plant)]
    assert plants == []  # the front Soja fits nowhere: harvest first
    assert EndPlanting(0) not in legal_actions(s)


# ---- p1.second-optional ---------------------------------------------------------------
def test_p1_second_card_may_be_planted() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne", "Blaue Bohne"]}, deck=["Gartenbohne", "Brechbohne", "Augenbohne"])
    allow(s, Plant(0, 0))
    assert s.phase is Phase.PLANT
    allow(s, Plant(0, 1))
    assert fields_of(s, 0) == [k("Sojabohne"), k("Rote Bohne")]
    # two planted: phase 2 starts by itself and reveals two cards
    assert s.phase is Phase.TRADE
    assert keys(s, s.revealed) == k("Gartenbohne", "Brechbohne")
    assert keys(s, s.players[0].hand) == k("Blaue Bohne")


def test_p1_second_card_is_optional() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"]}, deck=["Gartenbohne", "Brechbohne", "Augenbohne"])
    allow(s, Plant(0, 0))
    allow(s, EndPlanting(0))
    assert s.phase is Phase.TRADE
    assert keys(s, s.players[0].hand) == k("Rote Bohne")


def test_p1_never_a_third_card() -> None:
    s = table(hands={0: ["Sojabohne", "Sojabohne", "Sojabohne"]}, deck=["Gartenbohne", "Brechbohne"])
    allow(s, Plant(0, 0))
    allow(s, Plant(0, 0))
    refuse(s, Plant(0, 0), "p1.second-optional")
    assert fields_of(s, 0)[0] == k("Sojabohne", "Sojabohne")


# ---- p1.no-room -----------------------------------------------------------------------
def test_p1_no_room_refused_then_harvest_first() -> None:
    s = table(hands={0: ["Sojabohne"]}, fields={0: [["Rote Bohne", "Rote Bohne"], ["Blaue Bohne", "Blaue Bohne"]]},
              deck=["Gartenbohne", "Brechbohne"])
    refuse(s, Plant(0, 0), "p1.no-room")
    refuse(s, Plant(0, 1), "p1.no-room")
    allow(s, Harvest(0, 0))
    allow(s, Plant(0, 0))
    assert fields_of(s, 0) == [k("Sojabohne"), k("Blaue Bohne", "Blaue Bohne")]
    assert len(s.players[0].coins) == 1  # 2 Rote Bohnen -> 1 Taler


# ---- p1.empty-hand --------------------------------------------------------------------
def test_p1_empty_hand_goes_to_phase_2() -> None:
    s = table(hands={0: ["Sojabohne"], 1: []}, phase=Phase.DRAW,
              deck=["Blaue Bohne", "Rote Bohne", "Gartenbohne", "Brechbohne", "Augenbohne", "Feuerbohne"])
    allow(s, Draw(0))
    assert s.active == 1
    assert s.phase is Phase.TRADE  # phase 1 skipped
    assert keys(s, s.revealed) == k("Brechbohne", "Augenbohne")
    refuse(s, Plant(1, 0), "turn.wrong-phase")
    refuse(s, EndPlanting(1), "turn.wrong-phase")


def test_p1_empty_hand_in_a_built_table() -> None:
    """A scene may start phase 1 with an empty hand: planting is refused, ending phase 1 is not."""
    s = table(hands={0: []}, deck=["Blaue Bohne", "Rote Bohne", "Gartenbohne"])
    refuse(s, Plant(0, 0), "p1.empty-hand")
    assert legal_actions(s, 0) == [EndPlanting(0)]
    allow(s, EndPlanting(0))
    assert s.phase is Phase.TRADE and keys(s, s.revealed) == k("Blaue Bohne", "Rote Bohne")


def test_p1_last_hand_card_planted_goes_to_phase_2() -> None:
    s = table(hands={0: ["Sojabohne"]}, deck=["Blaue Bohne", "Rote Bohne", "Gartenbohne"])
    allow(s, Plant(0, 0))
    assert s.phase is Phase.TRADE
    assert keys(s, s.revealed) == k("Blaue Bohne", "Rote Bohne")


# ---- p2.reveal-two --------------------------------------------------------------------
def test_p2_reveal_two_from_the_top() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"]}, deck=["Gartenbohne", "Brechbohne", "Augenbohne"])
    allow(s, Plant(0, 0))
    allow(s, EndPlanting(0))
    assert keys(s, s.revealed) == k("Gartenbohne", "Brechbohne")
    assert deck_top_first(s) == k("Augenbohne")
    assert ("reveal", tuple(s.revealed)) in s.events


def test_p2_revealed_cards_belong_to_the_active_player() -> None:
    s = table(hands={0: ["Sojabohne"], 1: ["Rote Bohne"]}, phase=Phase.TRADE, revealed=["Blaue Bohne", "Gartenbohne"])
    blue = s.revealed[0]
    refuse(s, Offer(1, 0, give=(blue,)), "p2.reveal-two")
    refuse(s, Offer(0, 1, get=(blue,)), "p2.reveal-two")
    allow(s, Offer(0, 1, give=(blue,), get=(s.players[1].hand[0],)))


# ---- p3.plant-all ---------------------------------------------------------------------
def phase3_table():
    return table(
        hands={0: ["Augenbohne"], 1: ["Brechbohne"]},
        fields={0: [["Rote Bohne"], []], 1: [[], []]},
        revealed=["Rote Bohne"],
        set_aside={0: ["Sojabohne"], 1: ["Blaue Bohne", "Blaue Bohne"]},
        phase=Phase.PLANT_RECEIVED,
        deck=["Gartenbohne"] * 4,
    )


def test_p3_everybody_plants_everything_in_any_order() -> None:
    s = phase3_table()
    soy, red = s.players[0].set_aside[0], s.revealed[0]
    allow(s, Plant(1, 1))  # a co-player may plant before the active player
    allow(s, Plant(0, 1, soy))  # the active player chooses the order: Soja first
    allow(s, Plant(1, 1))
    assert s.phase is Phase.PLANT_RECEIVED
    allow(s, Plant(0, 0, red))
    assert s.phase is Phase.DRAW
    assert fields_of(s, 0) == [k("Rote Bohne", "Rote Bohne"), k("Sojabohne")]
    assert fields_of(s, 1) == [[], k("Blaue Bohne", "Blaue Bohne")]
    assert keys(s, s.players[0].hand) == k("Augenbohne")  # hand cards stay in the hand
    assert s.revealed == [] and s.players[0].set_aside == [] == s.players[1].set_aside


def test_p3_refusals() -> None:
    s = phase3_table()
    refuse(s, Draw(0), "p3.plant-all")  # everything must be planted first
    refuse(s, Plant(0, 1, s.players[0].hand[0]), "p3.plant-all")  # hand cards stay
    refuse(s, EndTrading(0), "turn.wrong-phase")
    allow(s, Plant(1, 0))
    allow(s, Plant(1, 0))
    refuse(s, Plant(1, 1), "p3.plant-all")  # nothing left for player 1


def test_p3_revealed_and_received_cards_wait_for_phase_3() -> None:
    s = table(hands={0: ["Augenbohne"]}, revealed=["Rote Bohne"], set_aside={0: ["Sojabohne"]}, phase=Phase.TRADE)
    refuse(s, Plant(0, 0, s.revealed[0]), "p3.plant-all")
    refuse(s, Plant(0, 0, s.players[0].set_aside[0]), "p3.plant-all")


def test_p3_nothing_to_plant_goes_to_phase_4() -> None:
    s = table(hands={0: ["Augenbohne"]}, phase=Phase.TRADE, deck=["Rote Bohne"] * 3)
    allow(s, EndTrading(0))
    assert s.phase is Phase.DRAW


# ---- p3.no-room -----------------------------------------------------------------------
def test_p3_no_room_refused_then_harvest_first() -> None:
    s = table(fields={1: [["Rote Bohne", "Rote Bohne"], ["Sojabohne", "Sojabohne", "Sojabohne"]]},
              set_aside={1: ["Blaue Bohne"]}, phase=Phase.PLANT_RECEIVED, deck=["Gartenbohne"] * 3)
    refuse(s, Plant(1, 0), "p3.no-room")
    refuse(s, Plant(1, 1), "p3.no-room")
    allow(s, Harvest(1, 1))
    allow(s, Plant(1, 1))
    assert fields_of(s, 1) == [k("Rote Bohne", "Rote Bohne"), k("Blaue Bohne")]
    assert len(s.players[1].coins) == 1


def test_p3_wrong_field_while_another_fits() -> None:
    s = table(fields={1: [["Rote Bohne"], []]}, set_aside={1: ["Blaue Bohne"]}, phase=Phase.PLANT_RECEIVED)
    refuse(s, Plant(1, 0), "field.one-variety")


# ---- p4.draw-three --------------------------------------------------------------------
def test_p4_draw_three_then_left_neighbour() -> None:
    s = table(hands={0: ["Sojabohne"], 1: ["Rote Bohne"]}, phase=Phase.DRAW,
              deck=["Blaue Bohne", "Gartenbohne", "Brechbohne", "Augenbohne"])
    allow(s, Draw(0))
    assert keys(s, s.players[0].hand) == k("Sojabohne", "Blaue Bohne", "Gartenbohne", "Brechbohne")
    assert deck_top_first(s) == k("Augenbohne")
    assert s.active == 1 and s.phase is Phase.PLANT and s.turn == 2


def test_p4_last_player_passes_to_the_first() -> None:
    s = table(hands={0: ["Rote Bohne"], 3: ["Sojabohne"]}, phase=Phase.DRAW, active=3, deck=["Blaue Bohne"] * 4)
    allow(s, Draw(3))
    assert s.active == 0


def test_p4_refusals() -> None:
    s = table(hands={0: ["Sojabohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne"] * 4)
    refuse(s, Draw(1), "turn.not-active")
    refuse(s, Plant(0, 0), "turn.wrong-phase")
    s = table(hands={0: ["Sojabohne"]}, phase=Phase.TRADE, deck=["Blaue Bohne"] * 4)
    refuse(s, Draw(0), "p4.draw-three")
    s = table(hands={0: ["Sojabohne"]}, phase=Phase.PLANT, deck=["Blaue Bohne"] * 4)
    refuse(s, Draw(0), "p4.draw-three")


def test_check_never_raises_on_garbage() -> None:
    s = table(hands={0: ["Sojabohne"]})
    for bad in [Plant(9, 0), Plant(0, 7), Plant(0, "x"), Offer(0, 1, give=(999,)), object()]:
        assert check(s, bad) is not None
