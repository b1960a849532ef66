"""The rule catalogue (docs/rules.md): harvesting, reshuffling, game end, scoring and the tie-break."""
from __future__ import annotations

import pytest

from bohnteach import (
    Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Phase, Plant, Reorder,
    find_ruleset, legal_actions,
)
from bohnteach.game.engine import winners
from tables import allow, assert_one_zone, k, keys, refuse, table


def filler(n: int) -> list[str]:
    """``n`` hand cards of mixed varieties (no variety runs out)."""
    mix = ["Sojabohne", "Feuerbohne", "Brechbohne", "Augenbohne", "Stinkbohne"]
    return [mix[i % len(mix)] for i in range(n)]


# ---- harvest.meter --------------------------------------------------------------------
@pytest.mark.parametrize(
    "variety,cards,coins",
    [("Blaue Bohne", 7, 2), ("Blaue Bohne", 3, 0), ("Blaue Bohne", 10, 4), ("Stinkbohne", 3, 1),
     ("Stinkbohne", 7, 3), ("Gartenbohne", 1, 0), ("Gartenbohne", 2, 2), ("Gartenbohne", 3, 3),
     ("Rote Bohne", 5, 4), ("Augenbohne", 4, 2), ("Feuerbohne", 9, 4), ("Sojabohne", 6, 3)],
)
def test_harvest_meter(variety: str, cards: int, coins: int) -> None:
    s = table(fields={1: [[variety] * cards, []]}, coins={1: 2}, discard=["Brechbohne"])
    field = s.players[1].fields[0][:]
    old_coins, old_discard = s.players[1].coins[:], s.discard[:]
    allow(s, Harvest(1, 0))
    keep = cards - coins
    assert s.players[1].coins == old_coins + field[keep:]  # top cards turned into coins
    assert s.discard == old_discard + field[:keep]  # the rest face up onto the discard pile
    assert s.players[1].fields[0] == []
    assert ("harvest", 1, 0, cards, coins) in s.events


# ---- harvest.whole-field --------------------------------------------------------------
def test_harvest_whole_field() -> None:
    s = table(fields={0: [["Stinkbohne"] * 5, []]})
    refuse(s, Harvest(0, 0, cards=3), "harvest.whole-field")  # "einen Grundstock behalten"
    refuse(s, Harvest(0, 0, cards=0), "harvest.whole-field")
    allow(s, Harvest(0, 0, cards=5))
    assert s.players[0].fields[0] == [] and len(s.players[0].coins) == 2


def test_harvest_empty_field_refused() -> None:
    s = table(fields={0: [["Stinkbohne"] * 2, []]})
    refuse(s, Harvest(0, 1), "input.empty-field")


# ---- harvest.protection ---------------------------------------------------------------
def test_harvest_protection_refused() -> None:
    s = table(fields={0: [["Blaue Bohne"], ["Rote Bohne", "Rote Bohne"]]})
    refuse(s, Harvest(0, 0), "harvest.protection")
    assert Harvest(0, 0) not in legal_actions(s)
    allow(s, Harvest(0, 1))  # the bigger field may be harvested
    allow(s, Harvest(0, 0))  # now no field has more than one card


@pytest.mark.parametrize(
    "ruleset,players,fields",
    [("amigo", 4, [["Blaue Bohne"], ["Rote Bohne"]]),
     ("amigo", 4, [["Blaue Bohne"], []]),
     ("amigo", 3, [["Blaue Bohne"], [], ["Rote Bohne"]]),
     ("online", 4, [["Blaue Bohne"], ["Rote Bohne"]])],
)
def test_harvest_protection_all_single_fields(ruleset: str, players: int, fields: list) -> None:
    s = table(ruleset, players, fields={0: fields})
    allow(s, Harvest(0, 0))
    assert s.players[0].fields[0] == [] and s.players[0].coins == []
    assert keys(s, s.discard[-1:]) == k("Blaue Bohne")


@pytest.mark.parametrize("ruleset,players", [("amigo", 3), ("online", 4), ("online", 6)])
def test_harvest_protection_in_every_ruleset(ruleset: str, players: int) -> None:
    flds = [["Blaue Bohne"], ["Rote Bohne", "Rote Bohne"]] + ([[]] if players == 3 else [])
    s = table(ruleset, players, fields={2: flds})
    refuse(s, Harvest(2, 0), "harvest.protection")


# ---- harvest.any-time -----------------------------------------------------------------
@pytest.mark.parametrize("phase", [Phase.PLANT, Phase.TRADE, Phase.PLANT_RECEIVED, Phase.DRAW])
def test_harvest_any_time_also_out_of_turn(phase: Phase) -> None:
    s = table(hands={0: ["Sojabohne"]}, fields={2: [["Augenbohne"] * 4, []]}, phase=phase,
              set_aside={0: ["Rote Bohne"]} if phase is Phase.PLANT_RECEIVED else None,
              deck=["Brechbohne"] * 5)
    allow(s, Harvest(2, 0))
    assert len(s.players[2].coins) == 2 and s.phase is phase and s.active == 0


def test_harvest_any_time_during_an_open_offer() -> None:
    s = table(hands={0: ["Sojabohne"], 1: ["Rote Bohne"]}, fields={3: [["Augenbohne"] * 2, []]},
              phase=Phase.TRADE)
    allow(s, Offer(0, 1, give=(s.players[0].hand[0],), get=(s.players[1].hand[0],)))
    allow(s, Harvest(3, 0))
    assert s.offer is not None


def test_harvest_not_after_the_game() -> None:
    s = ending_table(fields={1: [["Rote Bohne"] * 2, []]})
    allow(s, Draw(0))
    assert s.phase is Phase.OVER
    s.players[1].fields[0] = [s.players[1].coins.pop()]  # put a card back on a field
    refuse(s, Harvest(1, 0), "game.over")


# ---- deck.reshuffle -------------------------------------------------------------------
def test_reshuffle_when_the_last_card_is_drawn() -> None:
    s = table(hands={1: ["Rote Bohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne", "Feuerbohne", "Sojabohne"],
              discard=["Augenbohne", "Brechbohne", "Gartenbohne", "Stinkbohne"])
    old_discard = s.discard[:]
    allow(s, Draw(0))
    assert keys(s, s.players[0].hand) == k("Blaue Bohne", "Feuerbohne", "Sojabohne")
    assert sorted(s.deck) == sorted(old_discard)  # the discard pile is the new draw pile
    assert s.discard == [] and s.exhaustions == 1 and s.pass_number == 2
    assert ("reshuffle", 2) in s.events


def test_reshuffle_is_a_shuffle_and_seeded() -> None:
    names = ["Augenbohne", "Brechbohne", "Gartenbohne", "Stinkbohne", "Feuerbohne", "Sojabohne"] * 2
    orders = []
    for _ in range(2):
        s = table(hands={1: ["Rote Bohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne"] * 3, discard=names)
        allow(s, Draw(0))
        orders.append(s.deck[:])
    assert orders[0] == orders[1]  # same seed, same order (replayable)
    assert sorted(orders[0]) == sorted(s.deck) and len(orders[0]) == 12


def test_reshuffle_during_the_reveal() -> None:
    s = table(hands={0: ["Sojabohne", "Rote Bohne"]}, deck=["Blaue Bohne"], discard=["Gartenbohne"] * 3)
    allow(s, Plant(0, 0))
    allow(s, EndPlanting(0))
    assert keys(s, s.revealed) == k("Blaue Bohne", "Gartenbohne")
    assert s.exhaustions == 1 and len(s.deck) == 2 and s.discard == []
    assert s.phase is Phase.TRADE


# ---- end.third-exhaustion ---------------------------------------------------------------
def ending_table(ruleset="amigo", players=4, last_pass=True, **spec):
    """Phase 4 of the last pass (or one pass earlier): the active player draws the last cards."""
    setup = find_ruleset(ruleset).for_players(players)
    spec.setdefault("hands", {p: ["Augenbohne"] for p in range(players)})
    spec.setdefault("deck", ["Blaue Bohne"] * setup.draw)
    return table(ruleset, players, phase=Phase.DRAW, rest="discard",
                 exhaustions=setup.exhaustions - (1 if last_pass else 2), **spec)


def test_end_when_the_pile_runs_out_the_third_time() -> None:
    s = ending_table()
    assert s.discard  # there would be cards to reshuffle
    allow(s, Draw(0))
    assert s.exhaustions == 3 and s.phase is Phase.OVER
    assert s.scores is not None and s.winners is not None
    assert ("game_over", tuple(s.scores), tuple(s.winners)) in s.events


def test_no_end_before_the_third_time() -> None:
    s = ending_table(last_pass=False)
    allow(s, Draw(0))
    assert s.exhaustions == 2 and s.phase is Phase.PLANT and s.active == 1
    assert s.discard == [] and len(s.deck) > 50


def test_end_mid_draw_stops_drawing() -> None:
    s = ending_table(deck=["Blaue Bohne"])  # only one card left for a 3-card draw
    allow(s, Draw(0))
    assert s.phase is Phase.OVER
    assert keys(s, s.players[0].hand) == k("Augenbohne", "Blaue Bohne")


def test_end_during_trading_finishes_phases_2_and_3() -> None:
    s = table(hands={0: ["Sojabohne", "Augenbohne"], 1: ["Feuerbohne"]}, deck=["Rote Bohne", "Blaue Bohne"],
              exhaustions=2, rest="discard")
    allow(s, Plant(0, 0))
    allow(s, EndPlanting(0))  # reveals the last two cards: 3rd exhaustion
    assert s.exhaustions == 3 and s.ending
    assert s.phase is Phase.TRADE and keys(s, s.revealed) == k("Rote Bohne", "Blaue Bohne")
    blue = s.revealed[1]
    allow(s, Offer(0, 1, give=(blue,), get=(s.players[1].hand[0],)))  # trading goes on
    allow(s, Accept(1))
    allow(s, EndTrading(0))
    assert s.phase is Phase.PLANT_RECEIVED
    allow(s, Plant(1, 0))
    allow(s, Plant(0, 1, s.revealed[0]))
    assert s.phase is Phase.PLANT_RECEIVED
    refuse(s, Plant(0, 0), "p3.no-room")  # the Feuerbohne fits nowhere
    allow(s, Harvest(0, 1))
    allow(s, Plant(0, 1))
    assert s.phase is Phase.OVER  # no phase 4: the final harvest followed phase 3


def test_end_refuses_everything_afterwards() -> None:
    s = ending_table(fields={0: [["Rote Bohne"] * 2, []]})
    allow(s, Draw(0))
    assert legal_actions(s) == []
    for action in [Draw(0), Draw(1), Plant(1, 0), EndPlanting(1), EndTrading(1), Offer(1, 0, give=(1,)),
                   Accept(1), Decline(1), BuyField(0), Harvest(0, 0)]:
        refuse(s, action, "game.over")
    refuse(s, Reorder(1, tuple(s.players[1].hand)), "hand.order")


# ---- end.final-harvest, score.coins -----------------------------------------------------
def test_final_harvest_and_hand_cards_do_not_count() -> None:
    s = ending_table(
        hands={0: ["Sojabohne"], 1: ["Feuerbohne"] * 10, 2: [], 3: ["Sojabohne"]},
        fields={
            0: [["Blaue Bohne"], ["Rote Bohne"] * 3],  # single card next to a bigger field
            1: [["Gartenbohne"], []],
            2: [["Stinkbohne"] * 8, ["Brechbohne"] * 3],
        },
        coins={0: 1, 1: 4, 3: 2},
    )
    allow(s, Draw(0))
    assert s.phase is Phase.OVER
    for p in s.players:
        assert all(f == [] for f in p.fields)  # every field harvested, protection or not
    assert s.scores == [1 + 0 + 2, 4 + 0, 4 + 1, 2]
    assert s.scores == [len(p.coins) for p in s.players]
    assert len(s.players[1].hand) == 10  # ten hand cards are worth nothing
    assert s.winners == [2]
    assert_one_zone(s)


@pytest.mark.parametrize("coins,best", [([3, 9, 2, 8], 1), ([0, 0, 0, 1], 3), ([7, 6, 6, 6], 0)])
def test_score_most_coins_wins(coins: list[int], best: int) -> None:
    s = ending_table(coins=dict(enumerate(coins)))
    allow(s, Draw(0))
    assert s.scores == coins
    assert s.winners == [best]


# ---- tie.clockwise (amigo) ----------------------------------------------------------------
@pytest.mark.parametrize(
    "start,coins,winner",
    [
        (0, [5, 7, 3, 7], 3),  # 1 and 3 tied: 3 sits furthest clockwise from 0
        (1, [7, 2, 7, 1], 0),  # 0 and 2 tied, start 1: 0 is 3 seats away, 2 only 1
        (2, [7, 2, 7, 1], 0),  # start 2 itself is nearest (0 seats)
        (3, [7, 7, 7, 7], 2),  # everybody tied: the player right of the start player
    ],
)
def test_tie_clockwise(start: int, coins: list[int], winner: int) -> None:
    s = ending_table(start_player=start, coins=dict(enumerate(coins)),
                     hands={p: filler(5 if p != winner else 1) for p in range(4)})
    allow(s, Draw(0))
    assert s.winners == [winner]
    assert winners(s) == [winner]


# ---- tie.hand-cards (online) --------------------------------------------------------------
def test_tie_hand_cards_online() -> None:
    s = ending_table("online", 4, start_player=0, coins={0: 6, 1: 6, 2: 6, 3: 1},
                     hands={0: filler(1), 1: filler(2), 2: filler(4), 3: filler(9)})
    allow(s, Draw(0))  # Anna draws 3: 4 hand cards, as many as Clara
    assert len(s.players[0].hand) == 4
    assert s.winners == [0, 2]  # Auslegung: still tied -> both win
    s = ending_table("online", 4, coins={1: 6, 3: 6}, hands={1: filler(3), 3: filler(2)})
    allow(s, Draw(0))
    assert s.winners == [1]  # not the furthest clockwise (3) but the one with more hand cards
