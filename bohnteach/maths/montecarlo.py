"""Monte Carlo estimates of the questions in :mod:`bohnteach.maths.probability`.

Each takes the same :class:`~bohnteach.maths.probability.Pile` as the exact answer, and
how to run as one :class:`Runs` (default: 10,000 trials, seed 0)::

    simulate_reveal("Gartenbohne", Pile(), Runs(20_000, seed=3))

Every run is seeded (``random.Random(seed)``), so the same call gives the same numbers.
The pile is a plain list of 0/1 integers (1 = the card fits), shuffled only as far as a
trial needs it (partial Fisher–Yates), so 10,000 two-card reveals take a few milliseconds.
Each result carries running estimates for a convergence chart. Long runs report progress
through ``progress(fraction)``; :func:`bohnteach.widgets.progress.progress_bar` makes one for
ipywidgets. This module imports neither ipywidgets nor plotly.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bohnteach.game.beans import find_variety, meter_value
from bohnteach.maths.probability import (
    Pile, Targets, VarietyLike, _check_k, _pile, _sizes, meter_of, target_label,
)
from bohnteach.game.rulesets import Trait

Progress = Callable[[float], None]


@dataclass(frozen=True)
class Estimate:
    """A simulated answer: ``estimate`` after ``trials`` runs, plus its history."""

    quantity: str
    """What was estimated, in German (used as a chart title)."""
    estimate: float
    trials: int
    seed: int | None
    checkpoints: tuple[int, ...] = field(repr=False)
    """Trial numbers at which ``running`` was recorded (all of 1…100, then evenly spaced)."""
    running: tuple[float, ...] = field(repr=False)
    """The estimate after ``checkpoints[i]`` trials."""
    distribution: dict[int, float] = field(repr=False)
    """Relative frequency of each outcome of a single trial."""
    std: float = 0.0
    """Sample standard deviation of a single trial's outcome."""
    is_probability: bool = False
    """True if ``estimate`` is a probability (charts then show percent)."""

    @property
    def standard_error(self) -> float:
        """Standard error of ``estimate`` (std / √trials)."""
        return self.std / math.sqrt(self.trials)

    def __float__(self) -> float:
        return self.estimate


def _checkpoints(trials: int, dense: int = 100, points: int = 1000) -> list[int]:
    stride = max(1, trials // points)
    marks = set(range(1, min(trials, dense) + 1))
    marks.update(range(stride, trials + 1, stride))
    marks.add(trials)
    return sorted(marks)


@dataclass(frozen=True)
class Runs:
    """How a simulation runs, checked once when it is made: ``trials`` runs from
    ``random.Random(seed)`` (the same seed gives the same numbers); ``progress(fraction)``,
    if given, hears how far it is (about every 1 %)."""

    trials: int = 10_000
    seed: int | None = 0
    progress: Progress | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        trials = self.trials
        if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
            raise ValueError(f"Anzahl der Durchläufe muss eine ganze Zahl ≥ 1 sein, nicht {trials!r}")


class _Tally:
    """Running sums, checkpoints and progress reports shared by the simulation loops."""

    def __init__(self, runs: Runs):
        if not isinstance(runs, Runs):
            raise TypeError(f"Die Durchläufe als Runs(...) angeben, z. B. Runs(10_000, seed=1), "
                            f"nicht {runs!r}.")
        self.trials = runs.trials
        self.seed = runs.seed
        self.progress = runs.progress
        self.marks = _checkpoints(runs.trials)
        self.running: list[float] = []
        self.total = 0
        self.squares = 0
        self.freq: dict[int, int] = {}
        self._next_report = 0.0

    def record(self, total: int, squares: int) -> None:
        """Sums after the segment just run (called by the loop before the next segment)."""
        self.total = total
        self.squares = squares

    def segments(self) -> Iterable[int]:
        """Trial counts to run between two checkpoints, in order."""
        done = 0
        if self.progress is not None:
            self.progress(0.0)
        for mark in self.marks:
            yield mark - done
            done = mark
            self.running.append(self.total / done)
            if self.progress is not None and (
                done / self.trials >= self._next_report or done == self.trials
            ):
                self.progress(done / self.trials)
                self._next_report = done / self.trials + 0.01

    def result(self, quantity: str, is_probability: bool = False) -> Estimate:
        n = self.trials
        mean = self.total / n
        var = max(0.0, self.squares / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
        return Estimate(
            quantity=quantity,
            estimate=mean,
            trials=n,
            seed=self.seed,
            checkpoints=tuple(self.marks),
            running=tuple(self.running),
            distribution={v: c / n for v, c in sorted(self.freq.items())},
            std=math.sqrt(var),
            is_probability=is_probability,
        )


def _simulate_draws(
    total: int,
    hits: int,
    k: int,
    table: list[int],
    runs: Runs,
    quantity: str,
    is_probability: bool = False,
) -> Estimate:
    """Draw ``k`` of ``total`` cards (``hits`` fit) ``runs.trials`` times; outcome = table[fits]."""
    _check_k(k, total)
    tally = _Tally(runs)
    rand = random.Random(runs.seed).random
    deck = [1] * hits + [0] * (total - hits)
    freq = [0] * (k + 1)
    s = s2 = 0
    for run in tally.segments():
        for _ in range(run):
            h = 0
            for t in range(k):
                j = t + int(rand() * (total - t))
                card = deck[j]
                deck[j] = deck[t]
                deck[t] = card
                h += card
            freq[h] += 1
            value = table[h]
            s += value
            s2 += value * value
        tally.record(s, s2)
    for h, c in enumerate(freq):
        if c:
            tally.freq[table[h]] = tally.freq.get(table[h], 0) + c
    return tally.result(quantity, is_probability)


def simulate_at_least_one(
    targets: Targets,
    k: int = 2,
    pile: Pile | None = None,
    runs: Runs = Runs(),
) -> Estimate:
    """Estimate P(at least one of the next ``k`` cards is of ``targets``)."""
    total, hits = _sizes(targets, pile)
    table = [0] + [1] * k
    return _simulate_draws(
        total, hits, k, table, runs,
        f"P(mindestens eine {target_label(targets)} unter den nächsten {k} Karten)", True,
    )


def simulate_reveal(
    variety: Targets,
    pile: Pile | None = None,
    runs: Runs = Runs(),
) -> Estimate:
    """Estimate P(at least one ``variety`` among the 2 cards revealed in phase 2)."""
    return simulate_at_least_one(variety, 2, pile, runs)


def simulate_fits_fields(
    fields: Iterable[VarietyLike],
    k: int = 2,
    pile: Pile | None = None,
    runs: Runs = Runs(),
) -> Estimate:
    """Estimate P(at least one of the next ``k`` cards fits one of my fields)."""
    return simulate_at_least_one(list(fields), k, pile, runs)


def simulate_count(
    variety: Targets,
    k: int,
    pile: Pile | None = None,
    runs: Runs = Runs(),
) -> Estimate:
    """Estimate the expected count of ``variety`` among the next ``k`` cards; the
    ``distribution`` holds the simulated frequency of each count."""
    total, hits = _sizes(variety, pile)
    return _simulate_draws(
        total, hits, k, list(range(k + 1)), runs,
        f"Anzahl {target_label(variety, plural=True)} unter den nächsten {k} Karten",
    )


def simulate_harvest_value(
    variety: VarietyLike,
    field_cards: int,
    k: int,
    pile: Pile | None = None,
    runs: Runs = Runs(),
    *,
    trait: Trait = None,
) -> Estimate:
    """Estimate the expected coins of a field of ``field_cards`` that also gets every
    ``variety`` card among the next ``k`` (see ``probability.expected_harvest_value``)."""
    pile = _pile(pile)
    meter = meter_of(variety, pile.ruleset, trait)
    total, hits = _sizes(variety, pile)
    table = [meter_value(meter, field_cards + j) for j in range(k + 1)]
    return _simulate_draws(
        total, hits, k, table, runs,
        f"Taler: Feld mit {field_cards} {find_variety(variety).label(field_cards)} "
        f"+ passende Karten unter den nächsten {k}",
    )


def simulate_wait(
    variety: Targets,
    pile: Pile | None = None,
    runs: Runs = Runs(),
) -> Estimate:
    """Estimate the expected position of the next ``variety`` card (1 = the top card);
    the ``distribution`` holds the simulated frequency of each position."""
    total, hits = _sizes(variety, pile)
    if hits == 0:
        raise ValueError("Von dieser Sorte ist keine Karte mehr im Stapel – sie kommt nie.")
    tally = _Tally(runs)
    rand = random.Random(runs.seed).random
    deck = [1] * hits + [0] * (total - hits)
    freq = [0] * (total + 2)
    s = s2 = 0
    for run in tally.segments():
        for _ in range(run):
            t = 0
            while True:
                j = t + int(rand() * (total - t))
                card = deck[j]
                deck[j] = deck[t]
                deck[t] = card
                t += 1
                if card:
                    break
            freq[t] += 1
            s += t
            s2 += t * t
        tally.record(s, s2)
    tally.freq = {pos: c for pos, c in enumerate(freq) if c}
    return tally.result(f"Wartezeit: Position der nächsten Karte ({target_label(variety)})")


__all__ = [
    "Estimate",
    "Runs",
    "simulate_at_least_one",
    "simulate_count",
    "simulate_fits_fields",
    "simulate_harvest_value",
    "simulate_reveal",
    "simulate_wait",
]
