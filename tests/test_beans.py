"""Varieties, Bohnometer and rule-set decks against the rulebooks.

The thresholds below are copied by hand from the rulebooks (the Bohnometer on the cards), independently of
``data/varieties.toml``; every card count 0..25 of every variety is checked.
"""
from __future__ import annotations

from collections import Counter

import pytest

from bohnteach import UnknownVarietyError, all_varieties, find_ruleset, find_variety, harvest_value, new_game
from bohnteach.game.engine import make_cards

# The rulebooks: DE name, EN name, cards in the box, cards for 1/2/3/4 coins (None = "–").
BOHNOMETER = {
    "Kaffeebohne": ("Coffee", 24, (4, 7, 10, 12)),
    "Wachsbohne": ("Wax", 22, (4, 7, 9, 11)),
    "Blaue Bohne": ("Blue", 20, (4, 6, 8, 10)),
    "Feuerbohne": ("Chili", 18, (3, 6, 8, 9)),
    "Stinkbohne": ("Stink", 16, (3, 5, 7, 8)),
    "Brechbohne": ("Green", 14, (3, 5, 6, 7)),
    "Sojabohne": ("Soy", 12, (2, 4, 6, 7)),
    "Augenbohne": ("Black-eyed", 10, (2, 4, 5, 6)),
    "Rote Bohne": ("Red", 8, (2, 3, 4, 5)),
    "Gartenbohne": ("Garden", 6, (None, 2, 3, None)),
    "Kakaobohne": ("Cocoa", 4, (None, 2, 3, 4)),
}
AMIGO = ["Blaue Bohne", "Feuerbohne", "Stinkbohne", "Brechbohne", "Sojabohne", "Augenbohne",
         "Rote Bohne", "Gartenbohne"]


def expected_coins(thresholds: tuple, cards: int) -> int:
    """The highest coin step whose card count is reached (the rulebooks)."""
    reached = [coins for coins, need in enumerate(thresholds, 1) if need is not None and cards >= need]
    return max(reached, default=0)


CASES = [(de, n) for de in BOHNOMETER for n in range(26)]


@pytest.mark.parametrize("de,cards", CASES, ids=[f"{de}-{n}" for de, n in CASES])
def test_bohnometer_table(de: str, cards: int) -> None:
    en, _, thresholds = BOHNOMETER[de]
    want = expected_coins(thresholds, cards)
    assert harvest_value(de, cards) == want
    assert harvest_value(en, cards) == want


def test_expected_table_spot_values() -> None:
    # guard the test's own helper with values read directly off the cards
    assert [expected_coins(BOHNOMETER["Stinkbohne"][2], n) for n in range(10)] == [0, 0, 0, 1, 1, 2, 2, 3, 4, 4]
    assert [expected_coins(BOHNOMETER["Gartenbohne"][2], n) for n in range(5)] == [0, 0, 2, 3, 3]
    assert [expected_coins(BOHNOMETER["Kakaobohne"][2], n) for n in range(6)] == [0, 0, 2, 3, 4, 4]


def test_worked_values_from_the_brief() -> None:
    assert harvest_value("Blaue Bohne", 7) == 2
    assert harvest_value("Gartenbohne", 1) == 0
    assert harvest_value("Gartenbohne", 2) == 2
    assert harvest_value("Gartenbohne", 3) == 3
    assert harvest_value("Gartenbohne", 25) == 3  # no 4th step printed
    assert harvest_value("Kakaobohne", 1) == 0


def test_stinkbohne_meter_of_seed_000() -> None:
    # A: "1–2 → 0, 3–4 → 1, 5–6 → 2, 7 → 3, 8+ → 4"
    seen = {n: harvest_value("Stinkbohne", n) for n in range(1, 17)}
    assert seen == {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 3, **{n: 4 for n in range(8, 17)}}


def test_all_eleven_varieties_with_counts_and_names() -> None:
    varieties = all_varieties()
    assert len(varieties) == 11
    by_de = {v.de: v for v in varieties}
    assert set(by_de) == set(BOHNOMETER)
    for de, (en, count, _) in BOHNOMETER.items():
        assert by_de[de].en == en
        assert by_de[de].count == count
    assert sum(v.count for v in varieties) == 154
    assert sum(BOHNOMETER[de][1] for de in AMIGO) == 104


@pytest.mark.parametrize(
    "name,de",
    [
        ("Blaue Bohne", "Blaue Bohne"), ("Blaue Bohnen", "Blaue Bohne"), ("blue", "Blaue Bohne"),
        ("Blue", "Blaue Bohne"), ("Blue Bean", "Blaue Bohne"), ("BLAUE BOHNE", "Blaue Bohne"),
        ("Stinkbohne", "Stinkbohne"), ("Stinkbohnen", "Stinkbohne"), ("Stinkbohnen", "Stinkbohne"),
        ("Stink", "Stinkbohne"),
        ("Weinbrandbohne", "Wachsbohne"), ("Weinbrandbohnen", "Wachsbohne"), ("Wax", "Wachsbohne"),
        ("Wachsbohnen", "Wachsbohne"),
        ("Feuerbohnen", "Feuerbohne"), ("Chili", "Feuerbohne"),
        ("Brechbohnen", "Brechbohne"), ("Green", "Brechbohne"),
        ("Sojabohnen", "Sojabohne"), ("Soy", "Sojabohne"),
        ("Augenbohnen", "Augenbohne"), ("Black-eyed", "Augenbohne"),
        ("Rote Bohnen", "Rote Bohne"), ("Red", "Rote Bohne"),
        ("Gartenbohnen", "Gartenbohne"), ("Garden", "Gartenbohne"),
        ("Kakaobohnen", "Kakaobohne"), ("Cocoa", "Kakaobohne"),
        ("Kaffeebohnen", "Kaffeebohne"), ("Coffee", "Kaffeebohne"),
    ],
)
def test_names_and_aliases(name: str, de: str) -> None:
    assert find_variety(name).de == de
    thresholds = BOHNOMETER[de][2]
    assert [harvest_value(name, n) for n in range(13)] == [expected_coins(thresholds, n) for n in range(13)]


@pytest.mark.parametrize("name", ["Zuckerschote", "Bohne", "", "Blaue", 42, None])
def test_unknown_names_list_the_known_ones(name: object) -> None:
    with pytest.raises(UnknownVarietyError) as info:
        harvest_value(name, 3)  # type: ignore[arg-type]
    message = str(info.value)
    for de, (en, _, _) in BOHNOMETER.items():
        assert de in message
        assert en in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("cards", [-1, 2.5, "3", True])
def test_bad_card_counts_are_rejected(cards: object) -> None:
    with pytest.raises(ValueError):
        harvest_value("Blaue Bohne", cards)  # type: ignore[arg-type]


# ---- rule sets: decks, fields, deal, draw, end, third field (docs/rules.md, „Regelwerke“) ---------------
def deck_counts(ruleset: str, players: int) -> Counter:
    return Counter(find_variety(c.variety).de for c in make_cards(find_ruleset(ruleset), players))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_amigo_deck_is_104_cards_of_8_varieties(players: int) -> None:
    counts = deck_counts("amigo", players)
    assert counts == {de: BOHNOMETER[de][1] for de in AMIGO}
    assert sum(counts.values()) == 104


ONLINE_REMOVED = {3: {"Kakaobohne"}, 4: {"Kaffeebohne"}, 5: {"Kaffeebohne"},
                  6: {"Kakaobohne", "Gartenbohne"}, 7: {"Kakaobohne", "Gartenbohne"}}
ONLINE_TOTAL = {3: 150, 4: 130, 5: 130, 6: 144, 7: 144}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_online_deck_removals(players: int) -> None:
    counts = deck_counts("online", players)
    want = {de: c for de, (_, c, _) in BOHNOMETER.items() if de not in ONLINE_REMOVED[players]}
    assert counts == want
    assert sum(counts.values()) == ONLINE_TOTAL[players]


@pytest.mark.parametrize(
    "ruleset,players",
    [("amigo", 3), ("amigo", 4), ("amigo", 5), ("online", 3), ("online", 4), ("online", 5),
     ("online", 6), ("online", 7)],
)
def test_new_game_uses_every_card_once(ruleset: str, players: int) -> None:
    s = new_game(ruleset, players, seed=7)
    every = sorted(c for _, cards in s.zones() for c in cards)
    assert every == list(range(len(s.cards)))
    assert len(s.cards) == (104 if ruleset == "amigo" else ONLINE_TOTAL[players])


# fields, cards dealt per seat from the start player, draw in phase 4, exhaustions to end,
# coins for a 3rd field (0 = cannot buy) — the rulebooks
SETUP = {
    ("amigo", 3): (3, [5, 5, 5], 3, 3, 0),
    ("amigo", 4): (2, [5, 5, 5, 5], 3, 3, 0),
    ("amigo", 5): (2, [5] * 5, 3, 3, 0),
    ("online", 3): (3, [5, 5, 5], 3, 2, 0),
    ("online", 4): (2, [5] * 4, 3, 3, 3),
    ("online", 5): (2, [5] * 5, 3, 3, 3),
    ("online", 6): (2, [3, 4, 5, 6, 6, 6], 4, 3, 2),
    ("online", 7): (2, [3, 4, 5, 6, 6, 6, 6], 4, 3, 2),
}


@pytest.mark.parametrize("ruleset,players", list(SETUP))
def test_player_count_rules(ruleset: str, players: int) -> None:
    fields, deal, draw, exhaustions, cost = SETUP[ruleset, players]
    setup = find_ruleset(ruleset).for_players(players)
    assert setup.fields == fields
    assert [setup.deal_for(k) for k in range(players)] == deal
    assert setup.draw == draw
    assert setup.exhaustions == exhaustions
    assert setup.third_field_cost == cost


@pytest.mark.parametrize("ruleset,players", list(SETUP))
@pytest.mark.parametrize("start", [0, 2])
def test_new_game_deals_and_lays_out_fields(ruleset: str, players: int, start: int) -> None:
    fields, deal, _, _, _ = SETUP[ruleset, players]
    s = new_game(ruleset, players, seed=3, start_player=start)
    for k in range(players):
        seat = (start + k) % players
        assert len(s.players[seat].hand) == deal[k]
        assert len(s.players[seat].fields) == fields
        assert all(f == [] for f in s.players[seat].fields)
        assert s.players[seat].coins == [] and s.players[seat].set_aside == []
    assert len(s.deck) == len(s.cards) - sum(deal)
    assert s.discard == [] and s.revealed == [] and s.exhaustions == 0
    assert s.active == s.start_player == start


@pytest.mark.parametrize("ruleset,players", [("amigo", 2), ("amigo", 6), ("online", 2), ("online", 8)])
def test_unsupported_player_counts(ruleset: str, players: int) -> None:
    with pytest.raises(ValueError):
        new_game(ruleset, players)


def test_tie_break_per_ruleset() -> None:
    assert find_ruleset("amigo").tie_break == "clockwise"
    assert find_ruleset("online").tie_break == "hand_cards"
