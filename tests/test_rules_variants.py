"""Where Amigo (A, Q) and the online rules (G) differ — one RuleSet each."""
from __future__ import annotations

import pytest

from bohnteach import (
    BuyField, Draw, EndPlanting, EndTrading, Harvest, Phase, Plant, find_ruleset, legal_actions, new_game,
)
from tables import allow, deck_top_first, fields_of, k, keys, refuse, table


# ---- players -------------------------------------------------------------------------
def test_player_counts() -> None:
    amigo, online = find_ruleset("amigo"), find_ruleset("online")
    assert (amigo.min_players, amigo.max_players) == (3, 5)
    assert (online.min_players, online.max_players) == (3, 7)  # G names 2 but gives no 2-player rules
    for n in (2, 6, 7):
        with pytest.raises(ValueError):
            new_game("amigo", n)
    for n in range(3, 8):
        assert new_game("online", n).n_players == n


def test_start_player_rule_is_data() -> None:
    assert find_ruleset("amigo").start_player == "chosen"
    assert find_ruleset("online").start_player == "left_of_dealer"


# ---- fields and the 3rd field ----------------------------------------------------------
@pytest.mark.parametrize("ruleset,players,fields", [
    ("amigo", 3, 3), ("amigo", 4, 2), ("amigo", 5, 2),
    ("online", 3, 3), ("online", 4, 2), ("online", 5, 2), ("online", 6, 2), ("online", 7, 2),
])
def test_fields_by_player_count(ruleset: str, players: int, fields: int) -> None:
    assert {len(p.fields) for p in new_game(ruleset, players).players} == {fields}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_amigo_cannot_buy_a_field(players: int) -> None:
    s = table("amigo", players, coins={0: 9}, hands={0: ["Sojabohne"]})
    refuse(s, BuyField(0), "field.buy-third")
    assert not any(isinstance(a, BuyField) for a in legal_actions(s))


def test_online_three_players_start_with_three_fields_and_cannot_buy() -> None:
    s = table("online", 3, coins={0: 9}, hands={0: ["Sojabohne"]})
    assert len(s.players[0].fields) == 3
    refuse(s, BuyField(0), "field.buy-third")


@pytest.mark.parametrize("players,cost", [(4, 3), (5, 3), (6, 2), (7, 2)])
def test_online_buy_third_field(players: int, cost: int) -> None:
    s = table("online", players, coins={1: ["Blaue Bohne", "Rote Bohne", "Sojabohne", "Augenbohne", "Brechbohne"]},
              hands={0: ["Augenbohne"], 1: ["Feuerbohne"]}, discard=["Stinkbohne"])
    coins = s.players[1].coins[:]
    assert BuyField(1) in legal_actions(s)
    allow(s, BuyField(1))  # Ben buys during Anna's phase 1: any time
    assert len(s.players[1].fields) == 3 and s.players[1].fields[2] == []
    assert s.players[1].coins == coins[:-cost]
    assert s.discard[-cost:] == coins[-cost:]  # the top coins go onto the discard pile
    assert keys(s, s.discard[:1]) == k("Stinkbohne")
    assert ("buy", 1, cost) in s.events
    refuse(s, BuyField(1), "field.buy-third")  # only one 3rd field


@pytest.mark.parametrize("players,cost", [(4, 3), (6, 2)])
def test_online_buy_needs_enough_coins(players: int, cost: int) -> None:
    s = table("online", players, coins={0: cost - 1}, hands={0: ["Sojabohne"]})
    refuse(s, BuyField(0), "field.buy-third")
    assert BuyField(0) not in legal_actions(s)
    s = table("online", players, coins={0: cost}, hands={0: ["Sojabohne"]})
    allow(s, BuyField(0))
    assert s.players[0].coins == []


def test_online_buy_instead_of_harvesting_in_phase_3() -> None:
    # G: no room for a received bean -> harvest a field *or* buy the 3rd field
    s = table("online", 4, fields={0: [["Rote Bohne"] * 2, ["Sojabohne"] * 2]}, set_aside={0: ["Blaue Bohne"]},
              coins={0: 3}, phase=Phase.PLANT_RECEIVED, deck=["Gartenbohne"] * 4)
    refuse(s, Plant(0, 0), "p3.no-room")
    allow(s, BuyField(0))
    allow(s, Plant(0, 2))
    assert fields_of(s, 0) == [k("Rote Bohne") * 2, k("Sojabohne") * 2, k("Blaue Bohne")]
    assert s.phase is Phase.DRAW


# ---- deal -----------------------------------------------------------------------------
def test_online_six_players_deal_3_4_5_6_one_at_a_time() -> None:
    s = new_game("online", 6, start_player=0, shuffled=False)  # pile = ids, top = 143
    assert s.players[0].hand == [143, 137, 131]
    assert s.players[1].hand == [142, 136, 130, 125]
    assert s.players[2].hand == [141, 135, 129, 124, 120]
    assert s.players[3].hand == [140, 134, 128, 123, 119, 116]
    assert s.players[5].hand == [138, 132, 126, 121, 117, 114]
    assert len(s.deck) == 144 - 30


def test_online_seven_players_deal_counts_from_the_start_player() -> None:
    s = new_game("online", 7, seed=4, start_player=5)
    assert [len(p.hand) for p in s.players] == [5, 6, 6, 6, 6, 3, 4]


def test_amigo_deals_five_to_everybody() -> None:
    s = new_game("amigo", 5, seed=4, start_player=3)
    assert [len(p.hand) for p in s.players] == [5] * 5


# ---- phase 4 draw ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,players,draw", [("amigo", 5, 3), ("online", 5, 3), ("online", 6, 4), ("online", 7, 4)])
def test_phase_4_draw_count(ruleset: str, players: int, draw: int) -> None:
    names = ["Blaue Bohne", "Rote Bohne", "Sojabohne", "Brechbohne", "Augenbohne", "Feuerbohne"]
    s = table(ruleset, players, hands={0: [], 1: ["Stinkbohne"]}, phase=Phase.DRAW, deck=names)
    allow(s, Draw(0))
    assert keys(s, s.players[0].hand) == k(*names[:draw])
    assert deck_top_first(s) == k(*names[draw:])
    assert s.active == 1


# ---- end: number of exhaustions ---------------------------------------------------------
@pytest.mark.parametrize("ruleset,players,ends_after", [
    ("amigo", 3, 3), ("amigo", 4, 3), ("online", 3, 2), ("online", 4, 3), ("online", 7, 3),
])
def test_game_end_exhaustion_count(ruleset: str, players: int, ends_after: int) -> None:
    draw = find_ruleset(ruleset).for_players(players).draw
    for before, over in [(ends_after - 1, True), (ends_after - 2, False)]:
        s = table(ruleset, players, hands={p: ["Augenbohne"] for p in range(players)}, phase=Phase.DRAW,
                  deck=["Blaue Bohne"] * draw, exhaustions=before, rest="discard")
        allow(s, Draw(0))
        assert s.exhaustions == before + 1
        assert (s.phase is Phase.OVER) is over


# ---- reveal only one card at the very end ------------------------------------------------
@pytest.mark.parametrize("ruleset", ["amigo", "online"])
def test_reveal_one_card_when_only_one_is_left(ruleset: str) -> None:
    limit = find_ruleset(ruleset).for_players(4).exhaustions
    s = table(ruleset, 4, hands={0: ["Sojabohne", "Augenbohne"]}, deck=["Rote Bohne"], exhaustions=limit - 1,
              rest="discard")
    allow(s, Plant(0, 0))
    allow(s, EndPlanting(0))
    assert keys(s, s.revealed) == k("Rote Bohne")  # one card, no reshuffle
    assert s.phase is Phase.TRADE and s.deck == [] and s.discard
    allow(s, EndTrading(0))
    allow(s, Plant(0, 1))
    assert s.phase is Phase.OVER


# ---- tie-break ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,winners", [("amigo", [3]), ("online", [1])])
def test_tie_break_differs(ruleset: str, winners: list[int]) -> None:
    s = table(ruleset, 4, hands={0: ["Augenbohne"], 1: ["Feuerbohne"] * 6, 3: ["Sojabohne"]},
              coins={1: 5, 3: 5}, phase=Phase.DRAW, deck=["Blaue Bohne"] * 3, exhaustions=2, rest="discard")
    allow(s, Draw(0))
    assert s.winners == winners


def test_final_harvest_ignores_protection_in_both() -> None:
    for ruleset in ("amigo", "online"):
        assert find_ruleset(ruleset).final_harvest_protection is False
        s = table(ruleset, 4, hands={0: ["Augenbohne"]}, fields={1: [["Blaue Bohne"], ["Rote Bohne"] * 2]},
                  phase=Phase.DRAW, deck=["Blaue Bohne"] * 3, exhaustions=2, rest="discard")
        refuse(s, Harvest(1, 0), "harvest.protection")
        allow(s, Draw(0))
        assert fields_of(s, 1) == [[], []] and s.scores[1] == 1
