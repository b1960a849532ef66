"""The rule catalogue (docs/rules.md): phase 2, trading and giving (trade.*)."""
from __future__ import annotations

from bohnteach import (
    Accept, Decline, Draw, EndPlanting, EndTrading, Offer, Phase, Plant, TakeIntoHand, legal_actions,
)
from tables import allow, k, keys, refuse, table


def trade_table(**changes):
    """Anna (0) is active in phase 2 and revealed Blue + Red."""
    spec = dict(
        hands={
            0: ["Gartenbohne", "Sojabohne", "Brechbohne", "Blaue Bohne"],
            1: ["Sojabohne", "Feuerbohne", "Gartenbohne"],
            2: ["Augenbohne", "Stinkbohne"],
            3: ["Rote Bohne"],
        },
        fields={0: [["Blaue Bohne", "Blaue Bohne"], []], 1: [["Feuerbohne"], []]},
        revealed=["Blaue Bohne", "Rote Bohne"],
        phase=Phase.TRADE,
        deck=["Brechbohne"] * 6,
    )
    spec.update(changes)
    return table("amigo", 4, **spec)


def hand(s, player):
    return s.players[player].hand


# ---- trade.active-only ----------------------------------------------------------------
def test_active_only_co_player_trades_with_the_active_player() -> None:
    s = trade_table()
    soy1, garden0 = hand(s, 1)[0], hand(s, 0)[0]
    allow(s, Offer(1, 0, give=(soy1,), get=(garden0,)))
    allow(s, Accept(0))
    assert keys(s, s.players[0].set_aside) == k("Sojabohne")
    assert keys(s, s.players[1].set_aside) == k("Gartenbohne")


def test_active_only_two_co_players_each_close_their_own_deal() -> None:
    s = trade_table()
    blue, red = s.revealed
    allow(s, Offer(0, 1, give=(blue,), get=(hand(s, 1)[1],)))  # Blue for Ben's Feuerbohne
    allow(s, Accept(1))
    allow(s, Offer(2, 0, give=(hand(s, 2)[0],), get=(red,)))  # Clara: Augenbohne for Red
    allow(s, Accept(0))
    assert keys(s, s.players[0].set_aside) == k("Feuerbohne", "Augenbohne")
    assert keys(s, s.players[1].set_aside) == k("Blaue Bohne")
    assert keys(s, s.players[2].set_aside) == k("Rote Bohne")
    assert s.revealed == []


def test_active_only_co_players_never_trade_with_each_other() -> None:
    s = trade_table()
    refuse(s, Offer(1, 2, give=(hand(s, 1)[0],), get=(hand(s, 2)[0],)), "trade.active-only")
    refuse(s, Offer(2, 1, give=(hand(s, 2)[0],)), "trade.active-only")  # not even a gift
    refuse(s, Offer(0, 0, give=(hand(s, 0)[0],)), "trade.active-only")
    offers = [a for a in legal_actions(s) if isinstance(a, Offer)]
    assert offers and all(s.active in (o.player, o.to) for o in offers)


# ---- trade.offer-hand-any -------------------------------------------------------------
def test_offer_hand_any_position_and_revealed() -> None:
    s = trade_table()
    last = hand(s, 1)[-1]  # Ben's Gartenbohne at the back of his hand
    red = s.revealed[1]
    allow(s, Offer(1, 0, give=(last,), get=(red,)))
    allow(s, Accept(0))
    assert keys(s, hand(s, 1)) == k("Sojabohne", "Feuerbohne")
    middle = hand(s, 0)[2]  # Anna's Brechbohne, 3rd in her hand
    allow(s, Offer(0, 3, give=(middle,), get=(hand(s, 3)[0],)))
    allow(s, Accept(3))
    assert keys(s, hand(s, 0)) == k("Gartenbohne", "Sojabohne", "Blaue Bohne")


def test_offer_hand_any_not_somebody_elses_cards() -> None:
    s = trade_table()
    blue = s.revealed[0]
    refuse(s, Offer(1, 0, give=(blue,)), "p2.reveal-two")  # the revealed cards are Anna's
    refuse(s, Offer(1, 0, give=(hand(s, 2)[0],)), "input.unknown-card")  # Clara's card
    refuse(s, Offer(0, 1, get=(hand(s, 2)[0],)), "input.unknown-card")  # Ben does not have it
    refuse(s, Offer(0, 1, give=(s.deck[-1],)), "input.unknown-card")  # a draw-pile card


# ---- trade.no-field-cards -------------------------------------------------------------
def test_no_field_cards() -> None:
    s = trade_table()
    planted = s.players[0].fields[0][1]
    refuse(s, Offer(0, 1, give=(planted,), get=(hand(s, 1)[0],)), "trade.no-field-cards")
    refuse(s, Offer(0, 1, give=(hand(s, 0)[0],), get=(s.players[1].fields[0][0],)), "trade.no-field-cards")
    # a hand card of the same variety as a field is fine
    allow(s, Offer(0, 1, give=(hand(s, 0)[3],), get=(hand(s, 1)[0],)))


# ---- trade.no-retrade -----------------------------------------------------------------
def test_no_retrade() -> None:
    s = trade_table()
    soy1 = hand(s, 1)[0]
    allow(s, Offer(1, 0, give=(soy1,), get=(s.revealed[0],)))
    allow(s, Accept(0))
    refuse(s, Offer(0, 2, give=(soy1,)), "trade.no-retrade")  # Anna passes the Soja on
    refuse(s, Offer(0, 1, give=(hand(s, 0)[0],), get=(s.players[1].set_aside[0],)), "trade.no-retrade")
    refuse(s, Offer(1, 0, give=(s.players[1].set_aside[0],)), "trade.no-retrade")
    # other cards can still be traded; the received ones are planted in phase 3
    allow(s, Offer(0, 2, give=(s.revealed[0],), get=(hand(s, 2)[1],)))
    allow(s, Accept(2))
    allow(s, EndTrading(0))
    assert s.phase is Phase.PLANT_RECEIVED


# ---- trade.any-ratio ------------------------------------------------------------------
def test_any_ratio_two_blue_for_one_garden() -> None:
    s = trade_table()
    blue_revealed, blue_hand, garden1 = s.revealed[0], hand(s, 0)[3], hand(s, 1)[2]
    allow(s, Offer(0, 1, give=(blue_revealed, blue_hand), get=(garden1,)))
    allow(s, Accept(1))
    assert keys(s, s.players[1].set_aside) == k("Blaue Bohne", "Blaue Bohne")
    assert keys(s, s.players[0].set_aside) == k("Gartenbohne")


def test_any_ratio_both_must_agree() -> None:
    s = trade_table()
    before = s.to_dict()
    allow(s, Offer(0, 1, give=(s.revealed[1],), get=tuple(hand(s, 1))))  # Red for Ben's whole hand
    allow(s, Decline(1))
    assert s.to_dict() == before


def test_any_ratio_at_least_one_card() -> None:
    s = trade_table()
    refuse(s, Offer(0, 1), "trade.any-ratio")
    refuse(s, Offer(1, 0, give=(), get=()), "trade.any-ratio")


# ---- trade.gift -----------------------------------------------------------------------
def test_gift_accepted() -> None:
    s = trade_table()
    red = s.revealed[1]
    allow(s, Offer(0, 3, give=(red,)))
    allow(s, Accept(3))
    assert keys(s, s.players[3].set_aside) == k("Rote Bohne")
    assert s.players[0].set_aside == [] and s.revealed == [s.revealed[0]]


def test_gift_from_a_co_player_hand() -> None:
    s = trade_table()
    allow(s, Offer(2, 0, give=(hand(s, 2)[1],)))  # Clara gets rid of her Stinkbohne
    allow(s, Accept(0))
    assert keys(s, s.players[0].set_aside) == k("Stinkbohne")
    assert keys(s, hand(s, 2)) == k("Augenbohne")


def test_gift_declined_nothing_happens() -> None:
    s = trade_table()
    before = s.to_dict()
    allow(s, Offer(0, 3, give=(s.revealed[1],)))
    allow(s, Decline(3))  # the receiver says no
    assert s.to_dict() == before
    allow(s, Offer(2, 0, give=(hand(s, 2)[0],)))
    allow(s, Decline(2))  # or the giver takes it back
    assert s.to_dict() == before


# ---- trade.set-aside ------------------------------------------------------------------
def test_set_aside_never_into_the_hand() -> None:
    s = trade_table()
    soy1 = hand(s, 1)[0]
    allow(s, Offer(1, 0, give=(soy1,), get=(s.revealed[0],)))
    allow(s, Accept(0))
    assert soy1 in s.players[0].set_aside and soy1 not in hand(s, 0)
    assert len(hand(s, 0)) == 4
    refuse(s, TakeIntoHand(0, soy1), "trade.set-aside")
    refuse(s, TakeIntoHand(1, s.players[1].set_aside[0]), "trade.set-aside")


# ---- trade.pull-on-agreement ----------------------------------------------------------
def test_pull_on_agreement() -> None:
    s = trade_table()
    soy0 = hand(s, 0)[1]
    hands_before = [hand(s, p)[:] for p in range(4)]
    allow(s, Offer(0, 1, give=(soy0,), get=(hand(s, 1)[1],)))
    assert [hand(s, p) for p in range(4)] == hands_before  # still in the hands: only an offer
    assert s.players[0].set_aside == [] == s.players[1].set_aside
    allow(s, Accept(1))
    assert keys(s, hand(s, 0)) == k("Gartenbohne", "Brechbohne", "Blaue Bohne")  # order kept
    assert keys(s, hand(s, 1)) == k("Sojabohne", "Gartenbohne")


def test_pull_on_agreement_refusals() -> None:
    s = trade_table()
    allow(s, Offer(0, 1, give=(hand(s, 0)[1],), get=(hand(s, 1)[1],)))
    refuse(s, Accept(0), "trade.no-offer")  # the author cannot agree for Ben
    refuse(s, Accept(2), "trade.no-offer")
    refuse(s, Decline(3), "trade.no-offer")
    refuse(s, Offer(2, 0, give=(hand(s, 2)[0],)), "trade.one-offer")
    refuse(s, EndTrading(0), "trade.end")  # the open offer must be answered first
    s2 = trade_table()
    refuse(s2, Accept(1), "trade.no-offer")
    refuse(s2, Decline(0), "trade.no-offer")


# ---- trade.continue-after-revealed ----------------------------------------------------
def test_continue_after_revealed() -> None:
    s = trade_table()
    blue, red = s.revealed
    allow(s, Offer(0, 1, give=(blue,)))
    allow(s, Accept(1))
    allow(s, Offer(0, 3, give=(red,)))
    allow(s, Accept(3))
    assert s.revealed == []
    # Anna may still trade hand cards (Garden, at the front, for Clara's Augenbohne)
    allow(s, Offer(0, 2, give=(hand(s, 0)[0],), get=(hand(s, 2)[0],)))
    allow(s, Accept(2))
    assert keys(s, hand(s, 0)) == k("Sojabohne", "Brechbohne", "Blaue Bohne")
    assert s.phase is Phase.TRADE
    refuse(s, Offer(0, 1, give=(red,)), "input.unknown-card")  # the Red is David's now
    refuse(s, Offer(1, 2, give=(hand(s, 1)[0],)), "trade.active-only")


# ---- trade.end ------------------------------------------------------------------------
def test_end_by_the_active_player() -> None:
    s = trade_table()
    allow(s, EndTrading(0))
    assert s.phase is Phase.PLANT_RECEIVED  # the revealed cards must be planted
    refuse(s, Offer(0, 1, give=(hand(s, 0)[0],)), "trade.phase2-only")


def test_end_only_by_the_active_player() -> None:
    s = trade_table()
    refuse(s, EndTrading(1), "trade.end")
    refuse(s, EndTrading(3), "trade.end")


# ---- trade.phase2-only ----------------------------------------------------------------
def test_phase2_only() -> None:
    for phase in (Phase.PLANT, Phase.PLANT_RECEIVED, Phase.DRAW):
        s = trade_table(phase=phase, revealed=[] if phase is not Phase.PLANT_RECEIVED else ["Rote Bohne"])
        refuse(s, Offer(0, 1, give=(hand(s, 0)[1],), get=(hand(s, 1)[0],)), "trade.phase2-only")
        refuse(s, Offer(1, 0, give=(hand(s, 1)[0],)), "trade.phase2-only")
    s = trade_table()
    allow(s, Offer(0, 1, give=(hand(s, 0)[1],), get=(hand(s, 1)[0],)))


def test_trading_is_how_to_leave_phase_1_only_after_planting() -> None:
    s = trade_table(phase=Phase.PLANT, revealed=[])
    refuse(s, EndTrading(0), "turn.wrong-phase")
    refuse(s, EndPlanting(0), "p1.plant-front")
    allow(s, Plant(0, 1))
    allow(s, EndPlanting(0))
    assert s.phase is Phase.TRADE and len(s.revealed) == 2
    refuse(s, Draw(0), "p4.draw-three")
