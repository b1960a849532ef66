"""A game is its initial state plus the log of applied actions: replay, undo, save, load.

:func:`play_script` plays a scripted list of actions (a scene) into a :class:`Game`.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bohnteach.game.actions import ACTION_TYPES, Action, action_from_dict, action_to_dict, plain
from bohnteach.game.engine import actor, apply, check, legal_actions, new_game
from bohnteach.game.errors import RuleViolation
from bohnteach.game.rulesets import RuleSet
from bohnteach.game.savecheck import (
    FORMAT, MAX_SAVE_CHARS, SaveFileError, check_game_dict, parse_save_text,
)
from bohnteach.game.state import State


class Game:
    """Initial state + action log. Only legal actions enter the log."""

    def __init__(self, initial: State, log: Iterable[Action] = ()):
        self.initial = initial.copy()
        self.state = initial.copy()
        self.log: list[Action] = []
        self.events: list[list[tuple]] = []
        for action in log:
            self.apply(action)

    @classmethod
    def new(
        cls,
        ruleset: str | RuleSet = "amigo",
        players: int | Sequence[str] = 4,
        seed: int = 0,
        start_player: int = 0,
    ) -> Game:
        return cls(new_game(ruleset, players, seed, start_player))

    def apply(self, action: Action) -> list[tuple]:
        """Apply and record; a refused action raises ``RuleViolation`` and is not recorded.
        The log keeps the action's plain form (``actions.plain``: tuples, ints)."""
        if type(action) in ACTION_TYPES:  # an edition's own types are checked by the edition
            action = plain(action)
        events = apply(self.state, action)
        self.log.append(action)
        self.events.append(events)
        return events

    def try_apply(self, action: Action) -> RuleViolation | None:
        """Like ``apply`` but returns the refusal instead of raising it."""
        try:
            self.apply(action)
        except RuleViolation as refusal:
            return refusal
        return None

    def state_at(self, step: int) -> State:
        """The table after the first ``step`` actions (0 = the initial state)."""
        if not 0 <= step <= len(self.log):
            raise IndexError(f"Schritt {step} gibt es nicht (0–{len(self.log)}).")
        state = self.initial.copy()
        for action in self.log[:step]:
            apply(state, action)
        return state

    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` actions (a replay of the rest)."""
        keep = max(0, len(self.log) - steps)
        self.state = self.state_at(keep)
        del self.log[keep:]
        del self.events[keep:]

    # ---- JSON --------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "initial": self.initial.to_dict(),
            "log": [action_to_dict(a) for a in self.log],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict, ruleset: RuleSet | None = None) -> Game:
        """The game of a ``to_dict`` form. Everything is checked first (``savecheck``:
        types, each card once, fields, seats, counters, the offer), then every logged
        action is replayed and must be legal. Raises ``SaveFileError`` naming the field."""
        initial_data, log_data = check_game_dict(data, ruleset)
        initial = State.from_dict(initial_data, ruleset)
        offer, initial.offer = initial.offer, None
        refusal = None if offer is None else check(initial, offer)
        if refusal is not None:  # the open offer must be one the engine accepts here
            raise SaveFileError("initial.offer", refusal.message)
        initial.offer = offer
        try:  # a safety net behind the checks: the engine must be able to go on from here
            legal_actions(initial)
            actor(initial)
        except Exception as error:  # noqa: BLE001 - any failure is a bad save, not a crash
            raise SaveFileError("initial", f"Mit diesem Stand kann die Engine nicht spielen "
                                f"({type(error).__name__}).") from None
        game = cls(initial)
        for i, raw in enumerate(log_data):
            try:
                game.apply(action_from_dict(raw, initial.edition.actions))
            except RuleViolation as refusal:
                raise SaveFileError(f"log[{i}]", f"Zug {i + 1} ist nicht erlaubt: {refusal.message}") from None
            except (TypeError, ValueError) as error:
                raise SaveFileError(f"log[{i}]", f"keine gültige Aktion ({str(error)[:80]}).") from None
        return game

    @classmethod
    def from_json(cls, text: str | bytes, ruleset: RuleSet | None = None) -> Game:
        """``from_dict`` of a JSON text; bad JSON is a ``SaveFileError`` too."""
        return cls.from_dict(parse_save_text(text), ruleset)  # type: ignore[arg-type]

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, ruleset: RuleSet | None = None) -> Game:
        """``from_json`` of a file; an unreadable or too large file is a ``SaveFileError``."""
        return cls.from_json(read_save_file(path), ruleset)


def read_save_file(path: str | Path) -> bytes:
    """A save file's bytes, reading at most ``MAX_SAVE_CHARS`` + 1 of them."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SAVE_CHARS + 1)
    except OSError as error:
        raise SaveFileError("datei", f"{path}: nicht lesbar ({error.strerror or error}).") from None
    if len(data) > MAX_SAVE_CHARS:
        raise SaveFileError("datei", f"{path}: größer als {MAX_SAVE_CHARS} Bytes.")
    return data


# ---- stepping through a script ---------------------------------------------------------------
@dataclass
class Played:
    """One scripted step played into a :class:`Game`: the table afterwards (a copy), the
    engine's events, its refusal (the table stays) or an unexpected ``error`` text."""

    state: State
    refusal: RuleViolation | None = None
    events: list[tuple] = field(default_factory=list)
    error: str | None = None


def play_script(initial: State, actions: Iterable[Action | None]) -> tuple[Game, list[Played]]:
    """Play ``actions`` in order into a new :class:`Game` and keep every table.

    ``None`` is a pause (narration only). A refused action is not recorded and leaves the
    table as it was; so does an unexpected exception, which is kept as text instead of
    raised (a scene with an engine bug still shows every other step). Returns the game
    and one :class:`Played` per position: index 0 is the initial table, index *i* the
    table after step *i*.
    """
    game = Game(initial)
    played = [Played(game.state.copy())]
    for action in actions:
        if action is None:
            played.append(Played(game.state.copy()))
            continue
        try:
            events = game.apply(action)
        except RuleViolation as refusal:
            played.append(Played(game.state.copy(), refusal=refusal))
        except Exception as error:  # noqa: BLE001 - reported per step, never raised
            game.state = game.state_at(len(game.log))  # the failed apply may have changed it
            played.append(Played(game.state.copy(), error=f"{type(error).__name__}: {error}"))
        else:
            played.append(Played(game.state.copy(), events=list(events)))
    return game, played
