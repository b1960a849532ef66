"""Exact probabilities (bohnteach.maths.probability) against independent computations:
the textbook formula for the 0.1126 example and brute-force enumeration over small decks."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohnteach.game.beans import find_variety, harvest_value
from bohnteach.maths.probability import (
    Pile,
    as_float,
    best_field_size,
    coins_per_card,
    count_distribution,
    decimal_de,
    deck_counts,
    efficient_field_sizes,
    expected_count,
    expected_harvest_value,
    expected_wait,
    harvest_curve,
    hypergeometric,
    marginal_value,
    p_at_least_one,
    p_fits_fields,
    p_in_reveal,
    percent,
    target_label,
    waiting_time_distribution,
)
from bohnteach.game.rulesets import ruleset_from_toml

AMIGO_VARIETIES = ["blue", "chili", "stink", "green", "soy", "blackeye", "red", "garden"]


# --------------------------------------------------------------------------- brute force


def cards_of(pile: dict[str, int]) -> list[str]:
    return [key for key, n in pile.items() for _ in range(n)]


def ordered_draws(pile: dict[str, int], k: int):
    """Every ordered draw of k distinct cards (cards are distinguishable): equally likely."""
    return list(itertools.permutations(cards_of(pile), k))


def brute_at_least_one(pile, targets, k) -> Fraction:
    draws = ordered_draws(pile, k)
    return Fraction(sum(any(c in targets for c in d) for d in draws), len(draws))


def brute_count_distribution(pile, target, k) -> dict[int, Fraction]:
    draws = ordered_draws(pile, k)
    out: dict[int, Fraction] = {}
    for d in draws:
        j = sum(c == target for c in d)
        out[j] = out.get(j, 0) + Fraction(1, len(draws))
    return out


def brute_waiting(pile, target) -> dict[int, Fraction]:
    orders = list(itertools.permutations(cards_of(pile)))
    out: dict[int, Fraction] = {}
    for order in orders:
        pos = order.index(target) + 1
        out[pos] = out.get(pos, 0) + Fraction(1, len(orders))
    return out


def nonzero(dist):
    return {j: p for j, p in dist.items() if p}


SMALL = {"garden": 2, "red": 3, "blue": 1}


# --------------------------------------------------------------------------- the worked example


def test_garden_in_full_amigo_deck_matches_formula():
    p = p_in_reveal("Gartenbohne")
    assert p == 1 - Fraction(comb(98, 2), comb(104, 2))
    assert isinstance(p, Fraction)
    assert float(p) == pytest.approx(0.1126, abs=5e-5)
    assert percent(p) == "11,3 %"


def test_any_name_and_player_count_give_same_answer_in_amigo():
    ps = {p_in_reveal(name, Pile("amigo", players)) for name in ("Gartenbohnen", "garden", "Garden Bean")
          for players in (3, 4, 5)}
    assert len(ps) == 1


def test_deck_counts_per_ruleset_and_player_count():
    amigo = deck_counts("amigo", 4)
    assert list(amigo) == AMIGO_VARIETIES
    assert list(amigo.values()) == [20, 18, 16, 14, 12, 10, 8, 6]  # the Bohnentreppe
    assert sum(deck_counts("online", 3).values()) == 154 - 4  # cocoa removed
    assert sum(deck_counts("online", 4).values()) == 154 - 24  # coffee removed
    assert sum(deck_counts("online", 6).values()) == 154 - 4 - 6  # cocoa + garden removed
    assert "garden" not in deck_counts("online", 7)


def test_variety_not_in_deck_has_probability_zero():
    assert p_in_reveal("Kaffeebohne", Pile("amigo")) == 0
    assert p_in_reveal("Kaffeebohne", Pile("online", 3)) > 0
    assert p_in_reveal("Gartenbohne", Pile("online", 6)) == 0


# --------------------------------------------------------------------------- known cards


def test_seen_cards_leave_the_unknown_pile():
    # Two Gartenbohnen visible (e.g. on my field): 102 unknown cards, 4 of them Garden.
    expected = 1 - Fraction(comb(98, 2), comb(102, 2))
    assert p_in_reveal("garden", Pile(seen=["Gartenbohne", "Gartenbohne"])) == expected
    assert p_in_reveal("garden", Pile(seen={"garden": 2})) == expected
    # Seeing other varieties raises the chance: fewer cards, same number of Garden.
    assert p_in_reveal("garden", Pile(seen={"blue": 10})) == 1 - Fraction(comb(88, 2), comb(94, 2))


def test_explicit_pile_and_seen_together():
    pile = Pile(cards={"Rote Bohne": 3, "garden": 2}, seen=["red"])
    assert pile.counts == {"red": 2, "garden": 2} and pile.total == 4 and pile.hits(["red"]) == 2
    assert p_in_reveal("garden", pile) == 1 - Fraction(1, 6)


def test_seeing_more_cards_than_exist_is_an_error():
    with pytest.raises(ValueError, match="nur 6"):
        Pile(seen={"garden": 7})
    with pytest.raises(ValueError, match="Gesehene Karten: Anzahl muss eine ganze Zahl"):
        Pile(seen={"garden": -1})
    with pytest.raises(ValueError, match="Stapel: Anzahl muss eine ganze Zahl"):
        Pile(cards={"garden": 1.5})
    with pytest.raises(ValueError, match="nur 6 Karten, nicht 7"):
        p_at_least_one("garden", 7, Pile(cards=SMALL))


def test_a_pile_is_checked_once_and_cannot_be_changed():
    pile = Pile(seen={"garden": 2})
    with pytest.raises(AttributeError):
        pile.players = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        pile.counts["garden"] = 6  # type: ignore[index]
    assert pile == Pile(seen={"garden": 2}) != Pile()
    with pytest.raises(TypeError, match="Stapel als Pile"):
        p_in_reveal("garden", "online")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- small decks


def test_small_deck_against_enumeration():
    for k in range(0, 5):
        assert p_at_least_one("garden", k, Pile(cards=SMALL)) == brute_at_least_one(SMALL, {"garden"}, k)
        assert p_fits_fields(["garden", "blue"], k, Pile(cards=SMALL)) == brute_at_least_one(
            SMALL, {"garden", "blue"}, k
        )
        dist = count_distribution("red", k, Pile(cards=SMALL))
        assert list(dist) == list(range(min(k, 3) + 1))  # 0 … min(k, K), zeros included
        assert nonzero(dist) == brute_count_distribution(SMALL, "red", k)
        assert sum(dist.values()) == 1
        assert expected_count("red", k, Pile(cards=SMALL)) == sum(j * p for j, p in dist.items())
    assert waiting_time_distribution("garden", Pile(cards=SMALL)) == brute_waiting(SMALL, "garden")
    assert expected_wait("garden", Pile(cards=SMALL)) == Fraction(6 + 1, 2 + 1)


piles = st.dictionaries(
    st.sampled_from(["blue", "red", "garden", "soy"]), st.integers(0, 3), min_size=1
).filter(lambda d: 1 <= sum(d.values()) <= 6)


@settings(max_examples=40, deadline=None)
@given(pile=piles, data=st.data())
def test_random_small_decks_against_enumeration(pile, data):
    total = sum(pile.values())
    k = data.draw(st.integers(0, min(total, 3)))
    target = data.draw(st.sampled_from(sorted(pile)))
    unknown = Pile(cards=pile)
    assert p_at_least_one(target, k, unknown) == brute_at_least_one(pile, {target}, k)
    assert nonzero(count_distribution(target, k, unknown)) == brute_count_distribution(
        pile, target, k
    )
    if pile[target]:
        waiting = waiting_time_distribution(target, unknown)
        assert waiting == brute_waiting(pile, target)
        mean = sum(j * p for j, p in waiting.items())
        assert expected_wait(target, unknown) == mean == Fraction(total + 1, pile[target] + 1)


def test_waiting_time_in_full_deck():
    dist = waiting_time_distribution("Gartenbohne")
    assert sum(dist.values()) == 1
    assert min(dist) == 1 and max(dist) == 104 - 6 + 1
    assert dist[1] == Fraction(6, 104)
    assert expected_wait("Gartenbohne") == Fraction(105, 7) == 15
    assert sum(j * p for j, p in dist.items()) == 15
    # P(wait ≤ 2) is the reveal probability.
    assert dist[1] + dist[2] == p_in_reveal("Gartenbohne")


def test_no_card_left_means_no_waiting_time():
    assert waiting_time_distribution("garden", Pile(seen={"garden": 6})) == {}
    with pytest.raises(ValueError, match="nie"):
        expected_wait("garden", Pile(seen={"garden": 6}))


def test_hypergeometric_matches_formula_and_sums_to_one():
    for j in range(6):
        formula = Fraction(comb(20, j) * comb(84, 5 - j), comb(104, 5))
        assert hypergeometric(104, 20, 5, j) == formula
    assert sum(hypergeometric(104, 20, 5, j) for j in range(6)) == 1
    assert expected_count("Blaue Bohne", 5) == Fraction(5 * 20, 104)


def test_fits_fields_is_union_of_varieties():
    p = p_fits_fields(["Blaue Bohne", "Sojabohne"], 3)
    assert p == 1 - Fraction(comb(104 - 32, 3), comb(104, 3))
    # Two fields with the same variety count once.
    assert p_fits_fields(["blue", "blue"], 2) == p_in_reveal("blue")
    assert target_label(["soy", "blue"]) == "Blaue Bohne oder Sojabohne"


# --------------------------------------------------------------------------- value side


def test_harvest_curve_and_marginal_value_follow_the_bohnometer():
    for key in AMIGO_VARIETIES:
        curve = harvest_curve(key, 12)
        assert curve == [harvest_value(key, n) for n in range(13)]
        # marginal values add up to the harvest value (telescoping sum)
        assert [sum(marginal_value(key, m) for m in range(n)) for n in range(13)] == curve
    assert marginal_value("Blaue Bohne", 3) == 1  # 3 → 4 cards: 0 → 1 Taler
    assert marginal_value("Blaue Bohne", 4) == 0  # 4 → 5: still 1
    assert marginal_value("Stinkbohne", 7) == 1  # the rulebook example: 7 → 3, 8 → 4
    assert harvest_curve("garden") == [0, 0, 2, 3, 3, 3]


def test_coins_per_card_and_efficient_sizes():
    assert coins_per_card("Blaue Bohne", 7) == Fraction(2, 7)
    assert coins_per_card("Gartenbohne", 2) == 1
    assert efficient_field_sizes("Gartenbohne") == [2, 3]
    assert efficient_field_sizes("Blaue Bohne") == [4, 6, 8, 10]
    assert best_field_size("Gartenbohne") == 2  # 1 Taler per card, the smallest such field
    assert best_field_size("Rote Bohne") == 5  # 4/5
    with pytest.raises(ValueError):
        coins_per_card("blue", 0)


def test_expected_harvest_value_against_enumeration():
    # field of 1 Red; the next 3 cards of SMALL; every Red among them is added.
    draws = ordered_draws(SMALL, 3)
    brute = Fraction(sum(harvest_value("red", 1 + d.count("red")) for d in draws), len(draws))
    assert expected_harvest_value("red", 1, 3, Pile(cards=SMALL)) == brute
    assert expected_harvest_value("blue", 6, 0) == 2


LADY = """
name = "testlady"
title = "Bohnanza – Testbohn"
sources = ["003"]
varieties = ["blue", "garden"]
tie_break = "clockwise"
start_player = "chosen"
phase3_order = "any"
final_harvest_protection = false
meter_assumption = "Weibchen: geschätzt."
[defaults]
fields = 2
deal = [5]
draw = 3
exhaustions = 3
third_field_cost = 0
removed = []
[players.3]
[players.4]
[traits.blue]
m = 11
w = 5
B = 5
[traits.garden]
m = 3
w = 2
B = 1
[trait_meters.blue]
m = [4, 6, 8, 10]
w = [3, 5, 7, 9]
[trait_meters.garden]
m = [0, 2, 3, 0]
w = [0, 1, 2, 0]
"""


def test_rulesets_with_sexes_count_all_cards_and_use_sex_meters():
    lady = ruleset_from_toml(LADY)
    assert deck_counts(lady, 4) == {"blue": 21, "garden": 6}
    assert p_in_reveal("garden", Pile(lady)) == 1 - Fraction(comb(21, 2), comb(27, 2))
    assert harvest_curve("blue", 5, lady, "w") == [0, 0, 0, 1, 1, 2]
    assert marginal_value("garden", 0, lady, "w") == 2  # w meter (–, 1, 2, –): 1 card → 2 Taler
    with pytest.raises(ValueError, match="Baby"):
        harvest_curve("blue", 5, lady, "B")


def test_float_and_german_text_helpers():
    assert as_float(Fraction(1, 4)) == 0.25
    assert as_float({1: Fraction(1, 2)}) == {1: 0.5}
    assert as_float([Fraction(1, 2)]) == [0.5]
    assert percent(Fraction(1, 8)) == "12,5 %"
    assert decimal_de(Fraction(1, 3)) == "0,33"
    assert find_variety("garden").de == target_label("garden")
