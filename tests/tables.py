"""Build exact Bohnanza tables for rule tests, from variety names.

    s = table("amigo", 4,
              hands={0: ["Blaue Bohne", "Rote Bohne"]},
              fields={1: [["Sojabohne", "Sojabohne"], []]},
              deck=["Gartenbohne", "Brechbohne"],      # top first
              coins={2: 3}, phase=2, revealed=["Blaue Bohne"])

Every card of the rule set ends up in exactly one zone: the named cards where they are
asked for, all others in ``extra["box"]`` (``rest="box"``, the default), under the
discard pile (``rest="discard"``) or under the draw pile (``rest="deck"``).

``refuse(s, action, rule_id)`` applies an action that must be refused and checks the
rule ID, the German explanation and source, and that the table did not change at all.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Union

from bohnteach import RuleViolation, apply, check, find_variety, new_game
from bohnteach.game.actions import Offer
from bohnteach.game.state import Phase, State

PerPlayer = Union[Mapping[int, object], Sequence[object], None]

SEED_FILE = re.compile(r"\b00[0-4]_[0-9a-f]{16}\.txt\b")


def _per_player(value: PerPlayer, n: int, default: object) -> list:
    if value is None:
        return [default] * n
    if isinstance(value, Mapping):
        return [value.get(i, default) for i in range(n)]
    value = list(value)
    assert len(value) <= n, f"{len(value)} entries for {n} players"
    return value + [default] * (n - len(value))


class _Pool:
    """Unused card ids by variety key."""

    def __init__(self, s: State):
        self.s = s
        self.free: dict[str, list[int]] = {}
        for card in s.cards:
            self.free.setdefault(card.variety, []).append(card.id)

    def take(self, name: str) -> int:
        key = find_variety(name).key
        ids = self.free.get(key)
        if ids is None:
            raise ValueError(f"{name}: not in the deck of {self.s.ruleset.name}/{self.s.n_players}")
        if not ids:
            raise ValueError(f"{name}: all {find_variety(name).count} cards are used already")
        return ids.pop(0)

    def take_many(self, names: Iterable[str]) -> list[int]:
        return [self.take(n) for n in names]

    def take_any(self, count: int) -> list[int]:
        """``count`` cards of whatever varieties are most plentiful (for coin piles)."""
        out = []
        for _ in range(count):
            key = max(self.free, key=lambda k: len(self.free[k]))
            out.append(self.free[key].pop())
        return out

    def rest(self) -> list[int]:
        return sorted(c for ids in self.free.values() for c in ids)


def table(
    ruleset: str = "amigo",
    players: int | Sequence[str] = 4,
    *,
    hands: PerPlayer = None,
    fields: PerPlayer = None,
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    coins: PerPlayer = None,
    revealed: Sequence[str] = (),
    set_aside: PerPlayer = None,
    phase: int | Phase = Phase.PLANT,
    active: int = 0,
    start_player: int = 0,
    hand_plants: int = 0,
    exhaustions: int = 0,
    offer: Offer | None = None,
    rest: str = "box",
) -> State:
    """A state with exactly these cards in these zones (see the module docstring).

    hands/fields/coins/set_aside: per player, as a list or ``{player: value}``. A hand is
    front first, a field bottom first (list of fields; more fields than the rule set
    gives = a bought 3rd field). ``coins`` is a number of coin cards or a list of names.
    ``deck`` is top first, ``discard`` bottom first (the last name is on top).
    """
    s = new_game(ruleset, players, seed=0, start_player=start_player)
    n = s.n_players
    pool = _Pool(s)
    for p in s.players:
        p.hand, p.set_aside, p.coins = [], [], []
        p.fields = [[] for _ in p.fields]
    for p, names in zip(s.players, _per_player(hands, n, [])):
        p.hand = pool.take_many(names)
    for p, flds in zip(s.players, _per_player(fields, n, None)):
        if flds is None:
            continue
        flds = list(flds)
        while len(p.fields) < len(flds):
            p.fields.append([])
        for i, names in enumerate(flds):
            p.fields[i] = pool.take_many(names)
    for p, names in zip(s.players, _per_player(set_aside, n, [])):
        p.set_aside = pool.take_many(names)
    s.revealed = pool.take_many(revealed)
    top_first = pool.take_many(deck)
    s.deck = top_first[::-1]
    s.discard = pool.take_many(discard)
    for p, c in zip(s.players, _per_player(coins, n, 0)):
        if not isinstance(c, int):
            p.coins = pool.take_many(c)  # type: ignore[arg-type]
    for p, c in zip(s.players, _per_player(coins, n, 0)):
        if isinstance(c, int):
            p.coins = pool.take_any(c)
    leftover = pool.rest()
    s.extra = {}
    if rest == "box":
        if leftover:
            s.extra["box"] = leftover
    elif rest == "discard":
        s.discard = leftover + s.discard
    elif rest == "deck":
        s.deck = leftover + s.deck  # under the named cards: drawn last
    else:
        raise ValueError(rest)
    s.phase = Phase(phase)
    s.active = active
    s.start_player = start_player
    s.hand_plants = hand_plants
    s.exhaustions = exhaustions
    s.offer = offer
    s.ending = False
    s.events = []
    assert_one_zone(s)
    return s


# ---- reading ---------------------------------------------------------------------------
def keys(s: State, cards: Iterable[int]) -> list[str]:
    """Variety keys of card ids, in order (``["blue", "red"]``)."""
    return [s.variety[c] for c in cards]


def k(*names: str) -> list[str]:
    """Variety keys of names: ``k("Blaue Bohne", "Rote Bohne") == ["blue", "red"]``."""
    return [find_variety(n).key for n in names]


def fields_of(s: State, player: int) -> list[list[str]]:
    return [keys(s, f) for f in s.players[player].fields]


def deck_top_first(s: State) -> list[str]:
    return keys(s, s.deck[::-1])


def assert_one_zone(s: State) -> None:
    """Every card of the game lies in exactly one zone."""
    seen: dict[int, str] = {}
    for zone, cards in s.zones():
        for c in cards:
            assert c not in seen, f"card {c} in {seen[c]} and {zone}"
            seen[c] = zone
    assert sorted(seen) == list(range(len(s.cards))), "cards missing from every zone"


# ---- refusals --------------------------------------------------------------------------
def refuse(s: State, action: object, rule_id: str) -> RuleViolation:
    """``action`` is refused with ``rule_id`` and leaves ``s`` exactly as it was."""
    before = s.to_dict()
    checked = check(s, action)
    assert checked is not None, f"{action} should be refused ({rule_id}) but check() allows it"
    assert checked.rule_id == rule_id, f"check(): {checked.rule_id} ({checked.message}), not {rule_id}"
    try:
        apply(s, action)  # type: ignore[arg-type]
    except RuleViolation as refusal:
        error = refusal
    else:
        raise AssertionError(f"{action} was applied, expected a refusal by {rule_id}")
    assert error.rule_id == rule_id, f"{error.rule_id} ({error.message}), expected {rule_id}"
    assert error.explanation.strip(), f"{rule_id}: no German explanation"
    assert error.source.strip() and not SEED_FILE.search(error.source), f"{rule_id}: source {error.source!r}"
    assert SEED_FILE.search(error.rule.seed), f"{rule_id}: seed {error.rule.seed!r}"
    assert error.message.endswith(f"[{rule_id}]")
    assert s.to_dict() == before, f"{action} was refused but changed the table"
    return error


def allow(s: State, action: object) -> list[tuple]:
    """``action`` is legal (``check`` agrees) and is applied; returns the events."""
    refusal = check(s, action)
    assert refusal is None, f"{action} refused: {refusal and refusal.message}"
    events = apply(s, action)  # type: ignore[arg-type]
    assert_one_zone(s)
    return events
