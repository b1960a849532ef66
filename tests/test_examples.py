"""Every worked example, beginner mistake and FAQ of the Amigo-Spielregel (A), the
Online-Regeln (G) and the Amigo-Kurzregel (Q), played through the engine."""
from __future__ import annotations

from collections import Counter

import pytest

from bohnteach import (
    Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Phase, Plant, Reorder,
    TakeIntoHand, find_variety, harvest_value, legal_actions, new_game,
)
from bohnteach.game.engine import make_cards
from bohnteach.game.rulesets import find_ruleset
from tables import allow, deck_top_first, fields_of, k, keys, refuse, table

ANNA, BEN, CLARA, DAVID = range(4)


# =========================== A: 000 (Amigo base game) ==================================
@pytest.mark.parametrize("cards,coins", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (8, 4), (12, 4)])
def test_a_stinkbohne_meter(cards: int, coins: int) -> None:
    """A: 'Für eine oder zwei Stinkbohnen gibt es gar nichts, für drei oder vier eine Münze,
    für fünf oder sechs zwei Münzen, für sieben drei Münzen, und erst ab acht Bohnen sind es vier.'"""
    s = table(fields={ANNA: [["Stinkbohne"] * cards, []]})
    allow(s, Harvest(ANNA, 0))
    assert len(s.players[ANNA].coins) == coins == harvest_value("Stinkbohne", cards)
    assert len(s.discard) == cards - coins


def test_a_harvest_procedure() -> None:
    """Count the field, read the top card's meter, turn that many cards into coins, the rest
    face up onto the discard pile; the field is empty afterwards."""
    s = table(fields={ANNA: [["Feuerbohne"] * 6, ["Blaue Bohne"] * 2]}, coins={ANNA: 1}, discard=["Rote Bohne"])
    field = s.players[ANNA].fields[0][:]
    allow(s, Harvest(ANNA, 0))
    assert harvest_value("Feuerbohne", 6) == 2
    assert s.players[ANNA].coins[-2:] == field[-2:]
    assert keys(s, s.discard) == k("Rote Bohne") + k("Feuerbohne") * 4
    assert fields_of(s, ANNA) == [[], k("Blaue Bohne") * 2]


def test_a_bohnenschutzregel() -> None:
    s = table(fields={ANNA: [["Gartenbohne"], ["Blaue Bohne"] * 3]})
    error = refuse(s, Harvest(ANNA, 0), "harvest.protection")
    assert "Feld 1" in error.detail and "Feld 2" in error.detail
    allow(s, Harvest(ANNA, 1))
    allow(s, Harvest(ANNA, 0))  # now every field has at most one card


def test_a_card_staircase() -> None:
    counts = Counter(c.variety for c in make_cards(find_ruleset("amigo"), 4))
    steps = [counts[v] for v in find_ruleset("amigo").varieties]
    assert steps == [20, 18, 16, 14, 12, 10, 8, 6]
    assert all(a - b == 2 for a, b in zip(steps, steps[1:]))


def test_a_game_end_during_trading() -> None:
    """The draw pile runs out the 3rd time while revealing: phases 2 and 3 are still played,
    then everybody harvests, and hand cards count for nothing."""
    s = table(
        hands={ANNA: ["Rote Bohne", "Brechbohne"], BEN: ["Sojabohne"] * 7, CLARA: ["Augenbohne"], DAVID: ["Feuerbohne"]},
        fields={ANNA: [["Rote Bohne"] * 2, []], BEN: [["Blaue Bohne"] * 6, []], CLARA: [["Stinkbohne"], ["Gartenbohne"] * 2]},
        deck=["Sojabohne", "Gartenbohne"], exhaustions=2, rest="discard", coins={BEN: 2, CLARA: 4},
    )
    allow(s, Plant(ANNA, 0))  # 3rd Rote Bohne
    allow(s, EndPlanting(ANNA))
    assert s.exhaustions == 3 and s.phase is Phase.TRADE  # not over yet
    soy, garden = s.revealed
    allow(s, Offer(ANNA, CLARA, give=(garden,), get=(s.players[CLARA].hand[0],)))
    allow(s, Accept(CLARA))
    allow(s, EndTrading(ANNA))
    assert s.phase is Phase.PLANT_RECEIVED
    allow(s, Plant(CLARA, 1))  # the 3rd Gartenbohne
    allow(s, Plant(ANNA, 1, soy))
    refuse(s, Plant(ANNA, 0), "p3.no-room")  # the Augenbohne needs a field
    refuse(s, Harvest(ANNA, 1), "harvest.protection")
    allow(s, Harvest(ANNA, 0))  # 3 Rote Bohnen -> 2 Taler
    allow(s, Plant(ANNA, 0))
    assert s.phase is Phase.OVER  # final harvest right after phase 3, no phase 4
    # final harvest: Anna 2 + Soja 1 card (0) + Augenbohne (0); Ben 6 Blue = 2;
    # Clara Stinkbohne 1 (0, no protection at the end) + 3 Garden = 3
    assert s.scores == [2, 2 + 2, 4 + 3, 0]
    assert s.winners == [CLARA]
    assert len(s.players[BEN].hand) == 7  # Ben's seven hand cards are worth nothing
    assert all(f == [] for p in s.players for f in p.fields)


@pytest.mark.parametrize("start,winner", [(0, 2), (1, 0), (2, 1)])
def test_a_tie_break_furthest_clockwise(start: int, winner: int) -> None:
    """Three players, all tied: the one furthest clockwise from the start player wins."""
    s = table("amigo", 3, start_player=start, coins={0: 4, 1: 4, 2: 4},
              hands={0: ["Augenbohne"], 1: ["Sojabohne"], 2: ["Brechbohne"]},
              phase=Phase.DRAW, active=start, deck=["Blaue Bohne"] * 3, exhaustions=2, rest="discard")
    allow(s, Draw(start))
    assert s.winners == [winner]


# ---- A: six beginner mistakes -----------------------------------------------------------
def test_a_mistake_sorting_the_hand() -> None:
    s = table(hands={ANNA: ["Gartenbohne", "Blaue Bohne", "Blaue Bohne"]}, fields={ANNA: [["Blaue Bohne"] * 3, ["Rote Bohne"]]})
    h = s.players[ANNA].hand
    refuse(s, Reorder(ANNA, (h[1], h[2], h[0])), "hand.order")
    refuse(s, Plant(ANNA, 0, h[1]), "p1.plant-front")


def test_a_mistake_taking_a_traded_card_into_the_hand() -> None:
    s = table(hands={ANNA: ["Sojabohne"], BEN: ["Rote Bohne"]}, revealed=["Blaue Bohne", "Brechbohne"], phase=Phase.TRADE)
    allow(s, Offer(ANNA, BEN, give=(s.revealed[0],), get=(s.players[BEN].hand[0],)))
    allow(s, Accept(BEN))
    red = s.players[ANNA].set_aside[0]
    refuse(s, TakeIntoHand(ANNA, red), "trade.set-aside")
    allow(s, EndTrading(ANNA))
    assert red in [a.card for a in legal_actions(s, ANNA) if isinstance(a, Plant)]  # planted in phase 3


def test_a_mistake_forgetting_the_front_card() -> None:
    s = table(hands={ANNA: ["Gartenbohne", "Sojabohne"]}, deck=["Blaue Bohne"] * 3)
    refuse(s, EndPlanting(ANNA), "p1.plant-front")
    refuse(s, Offer(ANNA, BEN, give=(s.players[ANNA].hand[0],)), "trade.phase2-only")
    assert [type(a).__name__ for a in legal_actions(s, ANNA)] == ["Plant", "Plant"]


def test_a_mistake_harvesting_half_a_field() -> None:
    s = table(fields={ANNA: [["Blaue Bohne"] * 9, []]})
    refuse(s, Harvest(ANNA, 0, cards=8), "harvest.whole-field")


def test_a_mistake_overlooking_the_protection_rule() -> None:
    s = table(hands={ANNA: ["Feuerbohne"]}, fields={ANNA: [["Rote Bohne"], ["Sojabohne"] * 3]})
    refuse(s, Plant(ANNA, 0), "p1.no-room")
    refuse(s, Harvest(ANNA, 0), "harvest.protection")  # the lonely Rote Bohne is protected
    allow(s, Harvest(ANNA, 1))
    allow(s, Plant(ANNA, 1))


def test_a_mistake_trading_too_little() -> None:
    """A single bean brings no coin, whatever the variety."""
    for v in find_ruleset("online").varieties:
        assert harvest_value(v, 1) == 0, find_variety(v).de
    s = table(fields={ANNA: [["Gartenbohne"], ["Blaue Bohne"]]})
    allow(s, Harvest(ANNA, 0))
    assert s.players[ANNA].coins == []


# ---- A: five FAQ ------------------------------------------------------------------------
def test_a_faq_hand_order() -> None:
    s = table(hands={ANNA: ["Augenbohne", "Brechbohne"], BEN: ["Sojabohne"]}, phase=Phase.DRAW,
              deck=["Rote Bohne", "Gartenbohne", "Blaue Bohne"])
    h = s.players[ANNA].hand
    refuse(s, Reorder(ANNA, (h[1], h[0])), "hand.order")
    allow(s, Draw(ANNA))
    assert keys(s, s.players[ANNA].hand) == k("Augenbohne", "Brechbohne", "Rote Bohne", "Gartenbohne", "Blaue Bohne")


def test_a_faq_who_trades_with_whom() -> None:
    s = table(hands={ANNA: ["Augenbohne"], BEN: ["Sojabohne"], CLARA: ["Rote Bohne"]},
              revealed=["Blaue Bohne", "Gartenbohne"], fields={BEN: [["Feuerbohne"], []]}, phase=Phase.TRADE)
    refuse(s, Offer(BEN, CLARA, give=(s.players[BEN].hand[0],)), "trade.active-only")
    refuse(s, Offer(BEN, ANNA, give=(s.players[BEN].fields[0][0],)), "trade.no-field-cards")
    allow(s, Offer(BEN, ANNA, give=(s.players[BEN].hand[0],), get=(s.revealed[1],)))
    allow(s, Accept(ANNA))
    refuse(s, Offer(ANNA, CLARA, give=(s.players[ANNA].set_aside[0],)), "trade.no-retrade")


def test_a_faq_how_many_cards_in_phase_1() -> None:
    s = table(hands={ANNA: ["Blaue Bohne", "Blaue Bohne", "Blaue Bohne"]}, fields={ANNA: [["Blaue Bohne"], []]},
              deck=["Rote Bohne"] * 2)
    refuse(s, EndPlanting(ANNA), "p1.plant-front")  # one must be
    allow(s, Plant(ANNA, 1))  # the same variety may grow in a second field
    allow(s, Plant(ANNA, 0))  # a second one may be
    refuse(s, Plant(ANNA, 0), "p1.second-optional")  # a third never
    assert fields_of(s, ANNA) == [k("Blaue Bohne") * 2, k("Blaue Bohne")]


def test_a_faq_partial_harvest() -> None:
    s = table(fields={ANNA: [["Augenbohne"] * 5, []]})
    for n in range(5):
        refuse(s, Harvest(ANNA, 0, cards=n), "harvest.whole-field")
    allow(s, Harvest(ANNA, 0))
    assert len(s.players[ANNA].coins) == 3 and len(s.discard) == 2 and s.players[ANNA].fields[0] == []


def test_a_faq_when_does_the_game_end() -> None:
    s = table(hands={ANNA: ["Augenbohne"], BEN: ["Sojabohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne"] * 3,
              exhaustions=1, rest="discard")
    allow(s, Draw(ANNA))
    assert s.phase is Phase.PLANT and s.exhaustions == 2  # 2nd time: reshuffle, play on
    s = table(hands={ANNA: ["Augenbohne"], BEN: ["Sojabohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne"] * 3,
              exhaustions=2, rest="discard")
    allow(s, Draw(ANNA))
    assert s.phase is Phase.OVER  # 3rd time: the end


# ============================ G: 001 (online rules) =======================================
def test_g_buying_the_third_field() -> None:
    s = table("online", 4, coins={ANNA: ["Blaue Bohne", "Rote Bohne", "Sojabohne", "Augenbohne"]},
              hands={ANNA: ["Feuerbohne"]}, fields={ANNA: [["Brechbohne"] * 2, ["Gartenbohne"] * 2]},
              discard=["Stinkbohne"], deck=["Brechbohne"] * 2)
    refuse(s, Plant(ANNA, 0), "p1.no-room")
    allow(s, BuyField(ANNA))
    assert keys(s, s.discard) == k("Stinkbohne", "Rote Bohne", "Sojabohne", "Augenbohne")  # top 3 coins
    assert keys(s, s.players[ANNA].coins) == k("Blaue Bohne")
    allow(s, Plant(ANNA, 2))  # used at once
    assert fields_of(s, ANNA)[2] == k("Feuerbohne")
    s = table("amigo", 4, coins={ANNA: 4}, hands={ANNA: ["Feuerbohne"]})
    refuse(s, BuyField(ANNA), "field.buy-third")  # Q: not provided in Amigo 5.4


def test_g_three_players() -> None:
    s = new_game("online", 3)
    varieties = {c.variety for c in s.cards}
    assert "cocoa" not in varieties and len(s.cards) == 150
    assert all(len(p.fields) == 3 for p in s.players)
    t = table("online", 3, coins={ANNA: 5}, hands={ANNA: ["Sojabohne"], BEN: ["Sojabohne"]}, phase=Phase.DRAW,
              deck=["Blaue Bohne"] * 3, exhaustions=1, rest="discard")
    refuse(t, BuyField(ANNA), "field.buy-third")
    allow(t, Draw(ANNA))
    assert t.phase is Phase.OVER and t.exhaustions == 2  # ends after the 2nd time


@pytest.mark.parametrize("players", [4, 5])
def test_g_four_or_five_players(players: int) -> None:
    s = new_game("online", players)
    assert "coffee" not in {c.variety for c in s.cards} and len(s.cards) == 130
    assert all(len(p.fields) == 2 and len(p.hand) == 5 for p in s.players)
    assert s.setup.draw == 3 and s.setup.third_field_cost == 3 and s.setup.exhaustions == 3


@pytest.mark.parametrize("players", [6, 7])
def test_g_six_or_seven_players(players: int) -> None:
    s = new_game("online", players, start_player=1)
    assert not {"cocoa", "garden"} & {c.variety for c in s.cards} and len(s.cards) == 144
    dealt = [len(s.players[(1 + i) % players].hand) for i in range(players)]
    assert dealt == [3, 4, 5] + [6] * (players - 3)
    t = table("online", players, coins={CLARA: 2}, hands={ANNA: [], BEN: ["Sojabohne"]}, phase=Phase.DRAW,
              deck=["Blaue Bohne", "Rote Bohne", "Sojabohne", "Brechbohne", "Augenbohne"])
    allow(t, BuyField(CLARA))  # only 2 coins
    allow(t, Draw(ANNA))
    assert keys(t, t.players[ANNA].hand) == k("Blaue Bohne", "Rote Bohne", "Sojabohne", "Brechbohne")  # 4 cards


def test_g_reveal_only_one_card() -> None:
    s = table("online", 4, hands={ANNA: ["Sojabohne"], BEN: ["Blaue Bohne"]}, deck=["Rote Bohne"], exhaustions=2,
              rest="discard")
    allow(s, Plant(ANNA, 0))  # the last hand card: phase 2 starts
    assert keys(s, s.revealed) == k("Rote Bohne") and s.phase is Phase.TRADE
    allow(s, Offer(ANNA, BEN, give=(s.revealed[0],), get=(s.players[BEN].hand[0],)))
    allow(s, Accept(BEN))
    allow(s, EndTrading(ANNA))
    allow(s, Plant(BEN, 0))
    allow(s, Plant(ANNA, 1))
    assert s.phase is Phase.OVER


def test_g_reshuffle_in_the_middle_of_phase_4() -> None:
    s = table("online", 4, hands={BEN: ["Sojabohne"]}, phase=Phase.DRAW, deck=["Blaue Bohne"],
              discard=["Rote Bohne", "Augenbohne", "Gartenbohne", "Brechbohne", "Stinkbohne"])
    old_discard = s.discard[:]
    allow(s, Draw(ANNA))
    hand = s.players[ANNA].hand
    assert keys(s, hand[:1]) == k("Blaue Bohne") and len(hand) == 3  # the draw went on
    assert set(hand[1:]) <= set(old_discard)  # ... from the new pile
    assert sorted(hand[1:] + s.deck) == sorted(old_discard)
    assert s.exhaustions == 1 and s.discard == []
    assert s.events.index(("reshuffle", 2)) < [e[0] for e in s.events].index("draw")


def test_g_tie_by_most_hand_cards() -> None:
    s = table("online", 4, coins={ANNA: 3, BEN: 7, CLARA: 7, DAVID: 7},
              hands={ANNA: ["Sojabohne"], BEN: ["Blaue Bohne"] * 2, CLARA: ["Rote Bohne"] * 5, DAVID: ["Augenbohne"] * 3},
              phase=Phase.DRAW, deck=["Feuerbohne"] * 3, exhaustions=2, rest="discard")
    allow(s, Draw(ANNA))
    assert s.winners == [CLARA]


def test_g_gift_may_be_refused() -> None:
    s = table("online", 4, hands={ANNA: ["Sojabohne"], BEN: ["Gartenbohne", "Blaue Bohne"]}, revealed=["Rote Bohne"] * 2,
              phase=Phase.TRADE)
    garden = s.players[BEN].hand[0]
    allow(s, Offer(BEN, ANNA, give=(garden,)))
    allow(s, Decline(ANNA))
    assert s.players[BEN].hand[0] == garden and s.players[ANNA].set_aside == []


# ============================ Q: 002 (quick reference) ======================================
def test_q_handelsfall() -> None:
    """Reveal Blue + Red; a co-player gives Soja from her hand for your Blue; both set the cards
    aside; nobody takes the Red; phase 3: you plant Soja and Red, she plants Blue; passing the
    Soja on is not allowed."""
    s = table(
        hands={ANNA: ["Augenbohne", "Brechbohne"], BEN: ["Feuerbohne"], CLARA: ["Brechbohne", "Sojabohne", "Stinkbohne"]},
        fields={ANNA: [["Augenbohne"], []], CLARA: [["Blaue Bohne"] * 3, []]},
        deck=["Blaue Bohne", "Rote Bohne", "Gartenbohne", "Gartenbohne", "Gartenbohne"],
    )
    allow(s, Plant(ANNA, 0))
    allow(s, EndPlanting(ANNA))
    blue, red = s.revealed
    assert keys(s, [blue, red]) == k("Blaue Bohne", "Rote Bohne")
    soy = s.players[CLARA].hand[1]
    allow(s, Offer(CLARA, ANNA, give=(soy,), get=(blue,)))
    assert s.players[CLARA].hand[1] == soy  # only after both agreed ...
    allow(s, Accept(ANNA))
    assert keys(s, s.players[CLARA].hand) == k("Brechbohne", "Stinkbohne")  # ... and the rest keep their order
    assert s.players[ANNA].set_aside == [soy] and s.players[CLARA].set_aside == [blue]
    refuse(s, Offer(ANNA, BEN, give=(soy,), get=(s.players[BEN].hand[0],)), "trade.no-retrade")
    refuse(s, Offer(ANNA, DAVID, give=(soy,)), "trade.no-retrade")
    allow(s, Offer(ANNA, BEN, give=(red,)))  # nobody wants the Red
    allow(s, Decline(BEN))
    assert s.revealed == [red]
    allow(s, EndTrading(ANNA))
    assert s.phase is Phase.PLANT_RECEIVED
    allow(s, Plant(ANNA, 1, red))  # your own order: Red first
    allow(s, Plant(CLARA, 0))
    refuse(s, Plant(ANNA, 1, soy), "p3.no-room")
    refuse(s, Plant(ANNA, 0, soy), "p3.no-room")
    allow(s, Harvest(ANNA, 0))  # both fields hold one card: the Augenbohne may go
    allow(s, Plant(ANNA, 0, soy))
    assert fields_of(s, ANNA) == [k("Sojabohne"), k("Rote Bohne")]
    assert fields_of(s, CLARA) == [k("Blaue Bohne") * 4, []]
    assert s.phase is Phase.DRAW


def test_q_two_co_players_each_deal_with_the_active_player() -> None:
    s = table(hands={ANNA: ["Augenbohne", "Stinkbohne"], BEN: ["Sojabohne", "Feuerbohne"], CLARA: ["Rote Bohne", "Brechbohne"]},
              revealed=["Blaue Bohne", "Gartenbohne"], phase=Phase.TRADE, deck=["Blaue Bohne"] * 3)
    blue, garden = s.revealed
    allow(s, Offer(ANNA, BEN, give=(blue,), get=(s.players[BEN].hand[0],)))
    allow(s, Accept(BEN))
    allow(s, Offer(CLARA, ANNA, give=(s.players[CLARA].hand[1],), get=(garden,)))
    allow(s, Accept(ANNA))
    refuse(s, Offer(BEN, CLARA, give=(s.players[BEN].hand[0],), get=(s.players[CLARA].hand[0],)), "trade.active-only")
    refuse(s, Offer(CLARA, ANNA, give=(s.players[CLARA].set_aside[0],)), "trade.no-retrade")
    assert keys(s, s.players[ANNA].set_aside) == k("Sojabohne", "Brechbohne")
    assert keys(s, s.players[BEN].set_aside) == k("Blaue Bohne")
    assert keys(s, s.players[CLARA].set_aside) == k("Gartenbohne")
    allow(s, EndTrading(ANNA))
    for player in (CLARA, ANNA, BEN, ANNA):
        allow(s, Plant(player, [a for a in legal_actions(s, player) if isinstance(a, Plant)][0].field))
    assert s.phase is Phase.DRAW


def test_q_getting_rid_of_a_bad_front_card() -> None:
    """Anna's front card after phase 1 is a Gartenbohne that fits none of her long fields.
    Reordering is refused; in phase 2 she gives it to Ben instead."""
    s = table(hands={ANNA: ["Blaue Bohne", "Gartenbohne", "Feuerbohne"], BEN: ["Sojabohne"]},
              fields={ANNA: [["Blaue Bohne"] * 5, ["Feuerbohne"] * 4]},
              deck=["Brechbohne", "Augenbohne", "Rote Bohne", "Stinkbohne", "Sojabohne", "Gartenbohne"])
    allow(s, Plant(ANNA, 0))
    garden = s.players[ANNA].hand[0]
    refuse(s, Reorder(ANNA, tuple(reversed(s.players[ANNA].hand))), "hand.order")
    allow(s, EndPlanting(ANNA))  # not the Gartenbohne: it would need a harvest
    allow(s, Offer(ANNA, BEN, give=(garden,)))
    allow(s, Accept(BEN))
    assert keys(s, s.players[ANNA].hand) == k("Feuerbohne")  # now the Feuerbohne is in front
    assert s.players[BEN].set_aside == [garden]
    allow(s, Offer(ANNA, DAVID, give=tuple(s.revealed)))  # the revealed cards too, two as one gift
    allow(s, Accept(DAVID))
    allow(s, EndTrading(ANNA))
    allow(s, Plant(BEN, 0))
    allow(s, Plant(DAVID, 0))
    allow(s, Plant(DAVID, 1))
    assert s.phase is Phase.DRAW
    allow(s, Draw(ANNA))
    assert fields_of(s, ANNA) == [k("Blaue Bohne") * 6, k("Feuerbohne") * 4]
    assert keys(s, s.players[ANNA].hand) == k("Feuerbohne", "Rote Bohne", "Stinkbohne", "Sojabohne")
    assert deck_top_first(s) == k("Gartenbohne")
