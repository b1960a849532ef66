"""Indiana Bohnes: the temple's gamble, exactly – the chance of each outcome of a visit.

Before a visit the player names the wanted stack, then turns the top card of the draw
pile. Every bean card in the pile is that card with the same chance (the Sabohntage card
is no bean: it is laid aside and the next card turned, which changes no chance). So each
variety in the pile decides one outcome, with the chance ``its cards / bean cards in the
pile``: fractions, no simulation. The outcome of a turned card is the engine's
(``editions.indiana.rules.outcome``: codes ``"match"``, ``"other"``, …);
``tests/test_temple_odds.py`` checks the chances against the engine, card by card.

    rows = temple_table(temple_stacks(s), pile_counts(s))
    rows[0].chances["match"], rows[0].success, rows[0].expected_beans
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from bohnteach.editions.indiana import rules as indy
from bohnteach.editions.indiana.rules import MATCH, OUTCOME_RULE, SUCCESS, outcome
from bohnteach.game.beans import find_variety
from bohnteach.game.state import State
from bohnteach.i18n import _

OUTCOMES: tuple[str, ...] = tuple(o for o in OUTCOME_RULE if o not in (indy.BY_PATH, indy.LOADED))
"""The outcomes of a visit that turns a card, in the rulebook's order (the engine's codes)."""


@dataclass(frozen=True)
class VisitChances:
    """What a visit for one wanted stack can bring."""

    wanted: str
    stack: int
    """Cards in the wanted stack now."""
    chances: Mapping[str, Fraction]
    """Each possible outcome (code) and its exact chance; they add up to 1."""

    @property
    def success(self) -> Fraction:
        """The chance to get the stack."""
        return sum((p for o, p in self.chances.items() if o in SUCCESS), Fraction(0))

    @property
    def expected_beans(self) -> Fraction:
        """Beans of the wanted variety the adventurer gets on average: the stack on every
        success, and one card more on a match."""
        return self.success * self.stack + self.chances.get(MATCH, Fraction(0))


def visit_chances(stacks: Mapping[str, int], pile: Mapping[str, int], wanted: str) -> VisitChances:
    """Exact chances of a visit for ``wanted``; ``stacks`` = cards per variety in the
    temple, ``pile`` = bean cards per variety in the draw pile.

    Raises ``ValueError`` (German) when the wanted stack is not in the temple or the pile
    holds no bean card."""
    if stacks.get(wanted, 0) <= 0:
        raise ValueError(_("Im Tempel liegt kein Stapel {wanted}.").format(wanted=repr(wanted)))
    total = sum(n for n in pile.values() if n > 0)
    if total <= 0:
        raise ValueError(_("Im Nachziehstapel liegt keine Bohnenkarte: es gibt nichts aufzudecken."))
    there = {v for v, n in stacks.items() if n > 0}
    chances: dict[str, Fraction] = {}
    for turned, n in pile.items():
        if n > 0:
            o = outcome(there, wanted, turned)
            chances[o] = chances.get(o, Fraction(0)) + Fraction(n, total)
    return VisitChances(wanted, stacks[wanted], {o: chances[o] for o in OUTCOMES if o in chances})


def temple_table(stacks: Mapping[str, int], pile: Mapping[str, int]) -> list[VisitChances]:
    """``visit_chances`` for every stack in the temple, in the temple's order."""
    return [visit_chances(stacks, pile, wanted) for wanted, n in stacks.items() if n > 0]


def best_wish(rows: Iterable[VisitChances], allowed: Iterable[str] | None = None) -> VisitChances | None:
    """The stack with the most beans on average (then the safer visit), only among
    ``allowed`` varieties when given; None when none is allowed."""
    keys = None if allowed is None else set(allowed)
    candidates = [r for r in rows if keys is None or r.wanted in keys]
    return max(candidates, key=lambda r: (r.expected_beans, r.success), default=None)


# ---- from a table ------------------------------------------------------------------------
def pile_counts(s: State) -> dict[str, int]:
    """Bean cards per variety in the draw pile of ``s`` (the Sabohntage card is no bean)."""
    return dict(Counter(v for v in (s.variety[c] for c in s.deck) if find_variety(v).bean))


def temple_stacks(s: State) -> dict[str, int]:
    """Cards per variety in the temple of ``s``, in the order of its places."""
    return {v: len(stack) for v, stack in indy.temple_stacks(s).items()}


__all__ = ["OUTCOMES", "VisitChances", "best_wish", "pile_counts", "temple_stacks", "temple_table",
           "visit_chances"]
