"""A scene: a table situation from a rulebook plus the steps that are played on it.

A scene is data (``docs/scenes.md``): the initial ``State``, and a list of ``Step`` s, each
an action in German text (parsed into an engine ``Action``) or a narration-only step,
with German narration, the rule IDs it shows, its source and expectations. Step *i* of
a scene is a replay through the engine: ``scene.state_at(i)`` is the table after the
first *i* steps. A refused step (a beginner mistake) leaves the table unchanged; its
``RuleViolation`` is kept in ``scene.result_at(i).refusal`` for the player to show.

Names used by the scene player (keep stable): ``Scene.id, title, chapter, chapter_key,
sources, ruleset, initial, face_up, intro, steps, rules, path, order``;
``Step.index, line, text, action, narration, rules, source, expect, refused``;
``Scene.states(), state_at(i), result_at(i), results(), player_names``;
``StepResult.state, refusal, events, error``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bohnteach.content.chapters import SCENE_CHAPTERS as CHAPTERS
from bohnteach.game.actions import Action
from bohnteach.game.beans import find_variety
from bohnteach.game.record import Game, Played, play_script
from bohnteach.game.state import Phase, State
from bohnteach.render.words import phase_label, variety_with_trait
from bohnteach.teaching import teaching_part


def chapter_title(key: str) -> str:
    return dict(CHAPTERS)[key]


# ---- expectations ------------------------------------------------------------------------
@dataclass(frozen=True)
class Expectation:
    """One checkable statement about the table, e.g. ``Anna Feld 1 = 4 Blaue Bohnen``.

    ``subject`` is one of: ``hand``, ``field``, ``set_aside``, ``coins``, ``fields``
    (number of fields), ``revealed``, ``deck``, ``deck_top``, ``discard``, ``discard_top``,
    ``phase``, ``active``, ``pass``, ``over``, ``winners``, ``hand_plants``, ``offer``,
    ``yield`` (coins a harvest of the field would bring now), ``zone`` (an edition's zone,
    named by ``zone``), or one of the edition's own subjects (its scene words'
    ``SUBJECTS``, checked by their ``check``).
    ``player``/``field`` say whose zone (0-based); ``value`` is what must hold:
    an int (count, phase, pass), a tuple of variety keys (zone contents), a tuple of
    player indices (winners), a bool (over, offer) or a player index (active).
    ``ordered`` says whether the order of a card list matters.
    """

    line: int
    text: str
    subject: str
    value: Any
    player: int | None = None
    field: int | None = None
    count_only: bool = False
    ordered: bool = True
    traits: tuple[str | None, ...] | None = None
    """The card trait (``CardInfo.trait``, None = any) of each card in ``value``, when the
    expectation names one (``Anna Feld 1 = Feuerbohne (m), Feuerbohne (w)``)."""
    zone: str | None = None
    """Subject ``zone``: the key of the edition zone (``Edition.zones``); ``player`` is
    None for a zone of the whole table."""

    def check(self, state: State) -> str | None:
        """``None`` if the expectation holds, else a German sentence saying what is there."""
        words = teaching_part(state.edition.name, "scenes")
        if self.subject in getattr(words, "SUBJECTS", {}).values():  # an edition's own subject
            return words.check(state, self.subject, self.player, self.value)
        actual = _actual(state, self)
        if self.count_only or self.subject in ("coins", "fields", "pass", "hand_plants", "yield"):
            got = len(actual) if isinstance(actual, (list, tuple)) else actual
            if got != self.value:
                return f"erwartet {self.value}, tatsächlich {got}"
            return None
        if self.subject in ("hand", "field", "set_aside", "revealed", "deck", "discard",
                            "deck_top", "discard_top", "zone"):
            got = tuple(state.variety[c] for c in actual)
            if self.subject in ("deck_top", "discard_top"):
                got = got[: len(self.value)]
            if self.traits is not None:
                got_traits = tuple(state.cards[c].trait for c in actual)[: len(got)]
                if not _same_traits(got, got_traits, tuple(self.value), self.traits, self.ordered):
                    return (f"erwartet {describe_cards(self.value, self.traits)}, "
                            f"tatsächlich {describe_cards(got, got_traits)}")
                return None
            same = got == tuple(self.value) if self.ordered else Counter(got) == Counter(self.value)
            if not same:
                return f"erwartet {describe_cards(self.value)}, tatsächlich {describe_cards(got)}"
            return None
        if self.subject == "phase":
            if int(state.phase) != self.value:
                return (f"erwartet {phase_label(Phase(self.value))}, "
                        f"tatsächlich {phase_label(state.phase)}")
            return None
        if self.subject == "active":
            if state.active != self.value:
                return (f"erwartet {state.players[self.value].name} am Zug, "
                        f"tatsächlich {state.players[state.active].name}")
            return None
        if self.subject == "over":
            if (state.phase is Phase.OVER) != self.value:
                return "erwartet Spielende" if self.value else "das Spiel ist schon vorbei"
            return None
        if self.subject == "winners":
            got = tuple(state.winners or ())
            if got != tuple(self.value):
                names = lambda seats: ", ".join(state.players[i].name for i in seats) or "niemand"  # noqa: E731
                return f"erwartet Sieg für {names(self.value)}, tatsächlich {names(got)}"
            return None
        if self.subject == "offer":
            if (state.offer is not None) != self.value:
                return "erwartet ein offenes Angebot" if self.value else "es ist noch ein Angebot offen"
            return None
        return f"unbekannte Erwartung {self.subject!r}"


def _actual(state: State, e: Expectation) -> Any:
    p = state.players[e.player] if e.player is not None else None
    s = e.subject
    if s == "hand":
        return p.hand
    if s == "field":
        return p.fields[e.field] if e.field < len(p.fields) else []
    if s == "set_aside":
        return p.set_aside
    if s == "coins":
        return len(p.coins)
    if s == "fields":
        return len(p.fields)
    if s == "yield":
        from bohnteach.game.engine import harvest_coins

        return harvest_coins(state, e.player, e.field) if e.field < len(p.fields) else 0
    if s == "revealed":
        return state.revealed
    if s in ("deck", "deck_top"):
        return state.deck[::-1]  # top first, as people read a pile
    if s in ("discard", "discard_top"):
        return state.discard[::-1]
    if s == "pass":
        return state.pass_number
    if s == "hand_plants":
        return state.hand_plants
    if s == "zone":
        return (p.extra if p is not None else state.extra).get(e.zone, [])
    return None


def _same_traits(got: tuple[str, ...], got_traits: tuple[str | None, ...],
                want: tuple[str, ...], want_traits: tuple[str | None, ...], ordered: bool) -> bool:
    """Cards match variety by variety; a wanted trait of None matches any trait."""
    if len(got) != len(want):
        return False
    have = list(zip(got, got_traits))
    wanted = list(zip(want, want_traits))
    if ordered:
        return all(g[0] == w[0] and (w[1] is None or g[1] == w[1]) for g, w in zip(have, wanted))
    # unordered: the named traits first, then the rest by variety
    for w in sorted(wanted, key=lambda item: item[1] is None):
        hit = next((g for g in have if g[0] == w[0] and (w[1] is None or g[1] == w[1])), None)
        if hit is None:
            return False
        have.remove(hit)
    return True


def describe_cards(varieties: tuple[str, ...] | list[str],
                   traits: tuple[str | None, ...] | None = None) -> str:
    """``("blue", "blue", "red")`` -> ``"2 Blaue Bohnen, Rote Bohne"`` (runs grouped);
    with ``traits`` every card is named with its trait: ``"Blaue Bohne (w), …"``."""
    if not varieties:
        return "nichts"
    if traits is not None and any(traits):
        return ", ".join(
            variety_with_trait(key, trait, "short") for key, trait in zip(varieties, traits)
        )
    parts: list[str] = []
    run_key, run = None, 0
    for key in list(varieties) + [None]:
        if key == run_key:
            run += 1
            continue
        if run_key is not None:
            v = find_variety(run_key)
            parts.append(v.de if run == 1 else f"{run} {v.de_plural}")
        run_key, run = key, 1
    return ", ".join(parts)


# ---- steps and scenes -------------------------------------------------------------------
@dataclass
class Step:
    """One step of a scene: an action (``text`` and parsed ``action``) or, when both are
    ``None``, narration only. ``refused`` is the rule ID a mistake step must be refused
    with (the table stays unchanged)."""

    index: int
    """1-based position in the scene (``state_at(index)`` is the table after it)."""
    line: int
    """Line of the step in its scene file."""
    text: str | None = None
    action: Action | None = None
    narration: str = ""
    rules: tuple[str, ...] = ()
    source: str = ""
    expect: list[Expectation] = field(default_factory=list)
    refused: str | None = None

    @property
    def is_narration(self) -> bool:
        return self.action is None

    @property
    def is_mistake(self) -> bool:
        return self.refused is not None


StepResult = Played
"""What playing one step did: the table afterwards, the refusal (if the engine said no),
the engine events, and ``error`` for anything unexpected (never raised)."""


@dataclass
class Scene:
    id: str
    title: str
    chapter_key: str
    ruleset: str
    initial: State
    steps: list[Step] = field(default_factory=list)
    sources: tuple[str, ...] = ()
    face_up: tuple[int, ...] = ()
    """Seats whose hands are shown face up."""
    intro: str = ""
    rules: tuple[str, ...] = ()
    """Rule IDs the scene is about (header ``Regeln:`` plus every step's)."""
    path: str = ""
    order: int = 0
    """Sort key within the chapter."""
    setup_expect: list[Expectation] = field(default_factory=list)
    """Expectations about the initial table (written before the first step)."""

    @property
    def chapter(self) -> str:
        """The chapter's German title, e.g. ``"Phase 2 & Handel"``."""
        return chapter_title(self.chapter_key)

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.initial.players]

    def __len__(self) -> int:
        return len(self.steps)

    @cached_property
    def game(self) -> Game:
        """The scene's legal steps as a game record (refused steps are not in its log)."""
        return self._played[0]

    @cached_property
    def _played(self) -> tuple[Game, list[StepResult]]:
        return play_script(self.initial, [step.action for step in self.steps])

    @property
    def _results(self) -> list[StepResult]:
        return self._played[1]

    def results(self) -> list[StepResult]:
        """One result per step, plus the initial table at index 0."""
        return [StepResult(r.state.copy(), r.refusal, list(r.events), r.error)
                for r in self._results]

    def result_at(self, i: int) -> StepResult:
        """The result of step ``i`` (0 = the initial table, no refusal)."""
        if not 0 <= i <= len(self.steps):
            raise IndexError(f"Schritt {i} gibt es nicht (0–{len(self.steps)}).")
        r = self._results[i]
        return StepResult(r.state.copy(), r.refusal, list(r.events), r.error)

    def states(self) -> list[State]:
        """The table before the first step and after each step (copies)."""
        return [r.state.copy() for r in self._results]

    def state_at(self, i: int) -> State:
        """The table after the first ``i`` steps (0 = the initial table)."""
        return self.result_at(i).state

    def __repr__(self) -> str:
        return f"<Scene {self.id!r} {self.chapter!r}: {len(self.steps)} Schritte>"


__all__ = [
    "CHAPTERS", "Expectation", "Scene", "Step", "StepResult", "chapter_title",
    "describe_cards",
]
