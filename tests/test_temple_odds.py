"""Indiana Bohnes: the temple's gamble (``editions/indiana/teaching/temple.py``) and its chart.

The exact chances are checked twice: against a brute-force count over every single card
of the pile (the rulebook's bullet list written out per card), and against the engine,
which plays the visit with each card of the pile on top and says what happened."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from bohnteach.editions.indiana import OUTCOME_DE
from bohnteach.editions.indiana.rules import (
    MATCH, OTHER, PLANT, SNAKE, SNAKE_ADVENTURER, SNAKE_TEMPLE, SNAKE_WANTED, SUCCESS,
)
from bohnteach.editions.indiana.teaching.temple import OUTCOMES, best_wish, pile_counts, temple_stacks, temple_table, visit_chances

VARIETIES = ("blue", "chili", "stink", "green", "soy", "blackeye", "red", "garden", SNAKE, "bush")


def by_rulebook(temple: set[str], wanted: str, turned: str) -> tuple[bool, str]:
    """(stack taken?, where the turned card goes), read off the rulebook's list."""
    if turned == SNAKE:
        if wanted == SNAKE:
            return False, "temple"            # snakes wanted, a snake turned: onto the temple's snakes
        if SNAKE in temple:
            return False, "temple"            # other snakes in the temple: it joins them
        return False, "adventurer"            # none there: onto the adventurer (a blockade)
    if turned == wanted:
        return True, "adventurer"
    if turned in temple:
        return True, "temple"
    return False, "plant"


def brute_force(stacks: dict[str, int], pile: list[str], wanted: str) -> dict[tuple[bool, str], Fraction]:
    """Every card of the pile as the top card, counted one by one."""
    temple = {v for v, n in stacks.items() if n}
    seen = Counter(by_rulebook(temple, wanted, card) for card in pile)
    return {k: Fraction(n, len(pile)) for k, n in seen.items()}


WHERE = {MATCH: (True, "adventurer"), OTHER: (True, "temple"), PLANT: (False, "plant"),
         SNAKE_TEMPLE: (False, "temple"), SNAKE_ADVENTURER: (False, "adventurer"),
         SNAKE_WANTED: (False, "temple")}


def random_tables(n: int, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(n):
        there = rng.sample(VARIETIES, rng.choice((4, 5)))
        stacks = {v: rng.randint(1, 5) for v in there}
        pile = [rng.choice(VARIETIES) for _ in range(rng.randint(1, 40))]
        yield stacks, pile


def test_chances_equal_a_card_by_card_count_of_the_rulebook():
    for stacks, pile in random_tables(300):
        for wanted in stacks:
            got = visit_chances(stacks, Counter(pile), wanted)
            assert sum(got.chances.values()) == 1
            grouped: dict[tuple[bool, str], Fraction] = Counter()
            for o, p in got.chances.items():
                grouped[WHERE[o]] += p
            assert dict(grouped) == brute_force(stacks, pile, wanted), (stacks, pile, wanted)
            assert got.success == sum(p for (taken, _), p in brute_force(stacks, pile, wanted).items() if taken)


def test_each_snake_exception_is_its_own_outcome():
    rows = {r.wanted: r for r in temple_table({"soy": 2, SNAKE: 1}, {SNAKE: 1, "soy": 1, "red": 2})}
    assert rows[SNAKE].chances == {OTHER: Fraction(1, 4), PLANT: Fraction(1, 2), SNAKE_WANTED: Fraction(1, 4)}
    assert rows["soy"].chances == {MATCH: Fraction(1, 4), PLANT: Fraction(1, 2), SNAKE_TEMPLE: Fraction(1, 4)}
    no_snakes = visit_chances({"soy": 2, "red": 1}, {SNAKE: 1, "soy": 1}, "soy")
    assert no_snakes.chances == {MATCH: Fraction(1, 2), SNAKE_ADVENTURER: Fraction(1, 2)}
    assert not {PLANT, SNAKE_TEMPLE, SNAKE_ADVENTURER, SNAKE_WANTED} & SUCCESS
    assert list(OUTCOMES) == [MATCH, OTHER, PLANT, SNAKE_TEMPLE, SNAKE_ADVENTURER, SNAKE_WANTED]


def test_the_worked_example_and_the_expected_beans():
    stacks = {"blue": 3, SNAKE: 2, "soy": 1, "red": 1}
    pile = {"blue": 4, SNAKE: 2, "soy": 3, "garden": 1}
    blue = visit_chances(stacks, pile, "blue")
    assert blue.chances == {MATCH: Fraction(4, 10), OTHER: Fraction(3, 10), PLANT: Fraction(1, 10),
                            SNAKE_TEMPLE: Fraction(2, 10)}
    assert blue.success == Fraction(7, 10)
    assert blue.expected_beans == Fraction(7, 10) * 3 + Fraction(4, 10)  # 2.5
    rows = temple_table(stacks, pile)
    assert [r.wanted for r in rows] == list(stacks)
    assert best_wish(rows).wanted == "blue"
    assert best_wish(rows, allowed={"soy", "red"}).wanted == "soy"
    assert best_wish(rows, allowed=set()) is None


@pytest.mark.parametrize("stacks, pile, wanted, says", [
    ({"soy": 2}, {"soy": 3}, "red", "kein Stapel"),
    ({"soy": 2}, {}, "soy", "keine Bohnenkarte"),
    ({"soy": 2}, {"soy": 0}, "soy", "keine Bohnenkarte"),
])
def test_impossible_visits_are_refused_in_german(stacks, pile, wanted, says):
    with pytest.raises(ValueError, match=says):
        visit_chances(stacks, pile, wanted)


def test_chart_has_one_bar_per_stack_and_one_trace_per_possible_outcome():
    from bohnteach.editions.indiana.teaching.charts import temple_chart

    stacks = {"blue": 3, SNAKE: 2, "soy": 1}
    pile = {"blue": 4, SNAKE: 2, "soy": 3, "garden": 1}
    rows = temple_table(stacks, pile)
    fig = temple_chart(rows, 10)
    names = {t.name for t in fig.data}
    possible = {o for r in rows for o, p in r.chances.items() if p}
    assert names == {OUTCOME_DE[o] for o in possible}
    for trace in fig.data:
        assert len(trace.y) == len(rows)
        assert trace.marker.pattern.shape in ("", "/", "x")
    # the bars of one stack add up to 1, the label names the stack and the mean
    totals = [sum(t.x[i] for t in fig.data) for i in range(len(rows))]
    assert totals == pytest.approx([1, 1, 1])
    assert fig.data[0].y[0].startswith("3 Blaue Bohnen") and "Ø 2,5 Bohnen" in fig.data[0].y[0]
    # hatched = no stack: every outcome without the stack is hatched
    for trace in fig.data:
        o = next(o for o, w in OUTCOME_DE.items() if w == trace.name)
        assert (trace.marker.pattern.shape == "") == (o in SUCCESS)
    assert "10 Bohnenkarten" in fig.layout.title.text
    with pytest.raises(ValueError, match="kein Stapel"):
        temple_chart([], 10)


def test_chances_equal_what_the_engine_does_with_each_card_on_top():
    """Brute force through the engine: every card of the pile on top in turn, the visit
    played, its outcome read from the engine's event."""
    from bohnteach.content.scenes import get_scene
    from bohnteach.editions.indiana.rules import VisitTemple
    from bohnteach.game.engine import apply

    table = get_scene("i-tempel-chancen").initial
    stacks, pile = temple_stacks(table), pile_counts(table)
    for wanted in stacks:
        seen: Counter = Counter()
        for card in table.deck:
            s = table.copy()
            s.deck.remove(card)
            s.deck.append(card)  # the top of the pile is the end of the list
            apply(s, VisitTemple(0, wanted))
            [event] = [e for e in s.events if e[0] == "visit"]
            seen[event[3]] += 1
        exact = visit_chances(stacks, pile, wanted).chances
        assert {o: Fraction(n, len(table.deck)) for o, n in seen.items()} == dict(exact), wanted
