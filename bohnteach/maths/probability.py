"""Exact probabilities by counting (hypergeometric) and the value side of the Bohnometer.

Every answer is a :class:`fractions.Fraction`; :func:`as_float` and :func:`percent` turn
them into numbers or German text. Every question about the next cards takes the *unknown
pile* as one :class:`Pile` (default: the base game's full deck) – the deck of a rule set
and player count, or an explicit composition, minus the cards you can see::

    p_in_reveal("Gartenbohne")                                 # 603/5356
    p_in_reveal("Gartenbohne", Pile(seen={"Gartenbohne": 2}))

Cards in other players' hands are unknown too: they belong to the pile, because by
symmetry every unknown card is equally likely to be the next one drawn.

This module is pure: no ipywidgets, no plotly.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from types import MappingProxyType
from typing import Union

from bohnteach.game.beans import Meter, Variety, all_varieties, find_variety, meter_value
from bohnteach.game.rulesets import RuleSet, Trait, find_ruleset
from bohnteach.game.words import variety_with_trait

VarietyLike = Union[str, Variety]
Targets = Union[VarietyLike, Iterable[VarietyLike]]
"""One variety, or several (e.g. the varieties on my fields): a card *fits* if it is any of them."""
Cards = Union[Mapping[VarietyLike, int], Iterable[VarietyLike], None]
"""Cards as ``{"Blaue Bohne": 2}`` or as a list of names, one entry per card."""


# --------------------------------------------------------------------------- piles


def deck_counts(ruleset: str | RuleSet = "amigo", players: int = 4) -> dict[str, int]:
    """Cards per variety key in the full deck, e.g. ``{"blue": 20, …, "garden": 6}`` (amigo)."""
    rules = find_ruleset(ruleset)
    counts: dict[str, int] = {v.key: 0 for v in rules.variety_list(players)}
    for key, _trait in rules.card_specs(players):
        counts[key] += 1
    return counts


def _as_counter(cards: Cards, what: str) -> Counter[str]:
    out: Counter[str] = Counter()
    if cards is None:
        return out
    if isinstance(cards, (str, Variety)):
        cards = [cards]
    items = cards.items() if isinstance(cards, Mapping) else ((c, 1) for c in cards)
    for name, n in items:
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"{what}: Anzahl muss eine ganze Zahl ≥ 0 sein, nicht {n!r}")
        out[find_variety(name).key] += n
    return out


@dataclass(frozen=True)
class Pile:
    """The unknown pile a question draws from, checked once when it is made.

    The full deck of ``ruleset`` for ``players`` – or ``cards``, an explicit composition
    such as ``{"Rote Bohne": 3, "Gartenbohne": 2}`` – minus the cards you can see
    (``seen``: your hand, the fields, the discard pile, the revealed cards)::

        Pile()                                   # the base game's 104 cards (amigo, 4 players)
        Pile("online", 3, seen={"Gartenbohne": 2})
        Pile(cards={"Rote Bohne": 3, "Gartenbohne": 2})

    Bad input raises ``ValueError`` with a German message.
    """

    ruleset: str | RuleSet = "amigo"
    players: int = 4
    seen: Cards = None
    cards: Mapping[VarietyLike, int] | None = None
    counts: Mapping[str, int] = field(init=False, repr=False, compare=False)
    """Cards per variety key that are still unknown, in the deck's order (read-only)."""

    def __post_init__(self) -> None:
        if self.cards is not None:
            counts = dict(_as_counter(self.cards, "Stapel"))
        else:
            counts = deck_counts(self.ruleset, self.players)
        for key, n in _as_counter(self.seen, "Gesehene Karten").items():
            have = counts.get(key, 0)
            if n > have:
                v = find_variety(key)
                raise ValueError(
                    f"Es wurden {n} {v.label(n)} als gesehen angegeben, im Stapel gibt es "
                    f"aber nur {have}."
                )
            if n:
                counts[key] = have - n
        object.__setattr__(self, "counts", MappingProxyType(counts))

    @property
    def total(self) -> int:
        """N: the number of unknown cards."""
        return sum(self.counts.values())

    def hits(self, targets: Targets) -> int:
        """K: how many unknown cards fit ``targets``."""
        return sum(self.counts.get(k, 0) for k in _target_keys(targets))


def _pile(pile: Pile | None) -> Pile:
    """``pile``, or the base game's full deck when none is given."""
    if pile is None:
        return Pile()
    if not isinstance(pile, Pile):
        raise TypeError(f"Den Stapel als Pile(...) angeben, z. B. Pile(\"online\", 3), nicht {pile!r}.")
    return pile


def _target_keys(targets: Targets) -> frozenset[str]:
    if isinstance(targets, (str, Variety)):
        return frozenset({find_variety(targets).key})
    keys = frozenset(find_variety(t).key for t in targets)
    if not keys:
        raise ValueError("Mindestens eine Bohnensorte angeben.")
    return keys


def target_label(targets: Targets, plural: bool = False) -> str:
    """German name(s) of ``targets``, e.g. ``"Blaue Bohne oder Sojabohne"``."""
    keys = _target_keys(targets)
    names = [v.de_plural if plural else v.de for v in map(find_variety, _ordered(keys))]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " oder " + names[-1]


def _ordered(keys: Iterable[str]) -> list[str]:
    order = {v.key: i for i, v in enumerate(all_varieties())}
    return sorted(keys, key=lambda k: (order.get(k, len(order)), k))  # an edition's varieties last


def _sizes(targets: Targets, pile: Pile | None) -> tuple[int, int]:
    """(N cards in the unknown pile, K of them fit ``targets``)."""
    pile = _pile(pile)
    return pile.total, pile.hits(targets)


def _check_k(k: int, total: int) -> None:
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise ValueError(f"Kartenzahl muss eine ganze Zahl ≥ 0 sein, nicht {k!r}")
    if k > total:
        raise ValueError(f"Im Stapel sind nur {total} Karten, nicht {k}.")


# --------------------------------------------------------------------------- counting primitives


def hypergeometric(total: int, hits: int, draws: int, j: int) -> Fraction:
    """P(exactly ``j`` hits among ``draws`` cards from ``total`` cards holding ``hits`` hits)."""
    if j < 0 or j > draws or j > hits or draws - j > total - hits:
        return Fraction(0)
    return Fraction(comb(hits, j) * comb(total - hits, draws - j), comb(total, draws))


def p_none(total: int, hits: int, draws: int) -> Fraction:
    """P(no hit among ``draws`` cards) = C(total−hits, draws) / C(total, draws)."""
    return Fraction(comb(total - hits, draws), comb(total, draws))


# --------------------------------------------------------------------------- questions


def p_at_least_one(
    targets: Targets,
    k: int = 2,
    pile: Pile | None = None,
) -> Fraction:
    """P(at least one of the next ``k`` cards is of ``targets``) = 1 − C(N−K, k)/C(N, k)."""
    total, hits = _sizes(targets, pile)
    _check_k(k, total)
    return 1 - p_none(total, hits, k)


def p_in_reveal(
    variety: Targets,
    pile: Pile | None = None,
) -> Fraction:
    """P(at least one ``variety`` among the 2 cards revealed in phase 2 (p2.reveal-two))."""
    return p_at_least_one(variety, 2, pile)


def p_fits_fields(
    fields: Iterable[VarietyLike],
    k: int = 2,
    pile: Pile | None = None,
) -> Fraction:
    """P(at least one of the next ``k`` cards fits one of my fields (their varieties))."""
    return p_at_least_one(list(fields), k, pile)


def count_distribution(
    variety: Targets,
    k: int,
    pile: Pile | None = None,
) -> dict[int, Fraction]:
    """P(exactly j cards of ``variety`` among the next ``k``) for j = 0 … min(k, K)."""
    total, hits = _sizes(variety, pile)
    _check_k(k, total)
    return {j: hypergeometric(total, hits, k, j) for j in range(min(k, hits) + 1)}


def expected_count(
    variety: Targets,
    k: int,
    pile: Pile | None = None,
) -> Fraction:
    """Expected number of ``variety`` cards among the next ``k`` = k·K/N."""
    total, hits = _sizes(variety, pile)
    _check_k(k, total)
    return Fraction(k * hits, total) if total else Fraction(0)


def waiting_time_distribution(
    variety: Targets,
    pile: Pile | None = None,
) -> dict[int, Fraction]:
    """P(the next ``variety`` card is the j-th card from the top), j = 1 … N−K+1.

    P(T = j) = C(N−j, K−1) / C(N, K). Empty if no such card is left.
    """
    total, hits = _sizes(variety, pile)
    if hits == 0:
        return {}
    denom = comb(total, hits)
    return {j: Fraction(comb(total - j, hits - 1), denom) for j in range(1, total - hits + 2)}


def expected_wait(
    variety: Targets,
    pile: Pile | None = None,
) -> Fraction:
    """Expected position of the next ``variety`` card = (N+1)/(K+1); error if none is left."""
    total, hits = _sizes(variety, pile)
    if hits == 0:
        raise ValueError("Von dieser Sorte ist keine Karte mehr im Stapel – sie kommt nie.")
    return Fraction(total + 1, hits + 1)


# --------------------------------------------------------------------------- value side


def meter_of(variety: VarietyLike, ruleset: str | RuleSet = "amigo", trait: Trait = None) -> Meter:
    """The Bohnometer of ``variety`` in ``ruleset`` (with card traits: that of ``trait``)."""
    key = find_variety(variety).key
    meter = find_ruleset(ruleset).meter_for(key, trait)
    if meter is None:
        raise ValueError(f"{variety_with_trait(key, trait, 'word')} hat keinen Bohnometer.")
    return meter


def harvest_curve(
    variety: VarietyLike,
    max_cards: int | None = None,
    ruleset: str | RuleSet = "amigo",
    trait: Trait = None,
) -> list[int]:
    """Coins for a field of n = 0 … ``max_cards`` cards (default: the top step + 2)."""
    meter = meter_of(variety, ruleset, trait)
    if max_cards is None:
        max_cards = max(meter) + 2
    return [meter_value(meter, n) for n in range(max_cards + 1)]


def marginal_value(
    variety: VarietyLike, n: int, ruleset: str | RuleSet = "amigo", trait: Trait = None
) -> int:
    """Coins gained by planting one more card on a field of ``n`` cards: value(n+1) − value(n)."""
    if n < 0:
        raise ValueError(f"Feldgröße muss ≥ 0 sein, nicht {n!r}")
    meter = meter_of(variety, ruleset, trait)
    return meter_value(meter, n + 1) - meter_value(meter, n)


def coins_per_card(
    variety: VarietyLike, n: int, ruleset: str | RuleSet = "amigo", trait: Trait = None
) -> Fraction:
    """Coins per card when harvesting a field of ``n`` ≥ 1 cards."""
    if n < 1:
        raise ValueError(f"Feldgröße muss ≥ 1 sein, nicht {n!r}")
    return Fraction(meter_value(meter_of(variety, ruleset, trait), n), n)


def efficient_field_sizes(
    variety: VarietyLike, ruleset: str | RuleSet = "amigo", trait: Trait = None
) -> list[int]:
    """Field sizes where a new coin step is reached (harvest there, not one card later)."""
    meter = meter_of(variety, ruleset, trait)
    return sorted({need for need in meter if need})


def best_field_size(
    variety: VarietyLike, ruleset: str | RuleSet = "amigo", trait: Trait = None
) -> int:
    """The smallest field size with the most coins per card."""
    sizes = efficient_field_sizes(variety, ruleset, trait)
    return max(sizes, key=lambda n: (coins_per_card(variety, n, ruleset, trait), -n))


def expected_harvest_value(
    variety: VarietyLike,
    field_cards: int,
    k: int,
    pile: Pile | None = None,
    *,
    trait: Trait = None,
) -> Fraction:
    """Expected coins for a field of ``field_cards`` if every ``variety`` card among the next
    ``k`` cards is added to it (an idealised "wait and see" before harvesting); the meter is
    the one of the pile's rule set."""
    pile = _pile(pile)
    meter = meter_of(variety, pile.ruleset, trait)
    dist = count_distribution(variety, k, pile)
    return sum((p * meter_value(meter, field_cards + j) for j, p in dist.items()), Fraction(0))


# --------------------------------------------------------------------------- float helpers


def as_float(value):
    """A Fraction as float; dicts and lists are converted element-wise."""
    if isinstance(value, Mapping):
        return {key: float(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [float(v) for v in value]
    return float(value)


def percent(value: Fraction | float, digits: int = 1) -> str:
    """German percent text, e.g. ``percent(Fraction(1, 8)) == "12,5 %"``."""
    return f"{float(value) * 100:.{digits}f}".replace(".", ",") + " %"


def decimal_de(value: Fraction | float, digits: int = 2) -> str:
    """German decimal text, e.g. ``decimal_de(Fraction(1, 3)) == "0,33"``."""
    return f"{float(value):.{digits}f}".replace(".", ",")


__all__ = [
    "Pile",
    "as_float",
    "best_field_size",
    "coins_per_card",
    "count_distribution",
    "decimal_de",
    "deck_counts",
    "efficient_field_sizes",
    "expected_count",
    "expected_harvest_value",
    "expected_wait",
    "harvest_curve",
    "hypergeometric",
    "marginal_value",
    "meter_of",
    "p_at_least_one",
    "p_fits_fields",
    "p_in_reveal",
    "p_none",
    "percent",
    "target_label",
    "waiting_time_distribution",
]
