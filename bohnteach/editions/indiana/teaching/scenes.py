"""Indiana Bohnes' scene words: what scene files say about it beyond the zones
(docs/scenes.md, „Indiana Bohnes“); the teaching part ``scenes`` (``bohnteach/teaching.py``)
the scene loader asks for a rule set of this edition.

* ``Variation: Sabohntage`` / ``Variation: fünf Sorten`` (both: comma-separated) – the
  rule set ``indiana`` with that variation only (``indiana_ruleset``);
* the carrier card in a hand line (``Anna Hand: Feuerbohne, Trägerkarte, Sojabohne``) –
  its place in the hand (``hand_line``); ``Trägerkarte zu Zugbeginn: 2`` – its place when the active
  player's turn began (default: its place now plus the beans planted this turn);
* expectations ``Anna Abenteurer blockiert = ja``, ``Anna Abenteurer Ertrag = 1``,
  ``Anna Trägerkarte Stelle = 2``, ``Tempelgänge = 1`` (``SUBJECTS``, read by
  ``model.Expectation``, checked by ``check``).
"""
from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Callable, Mapping
from typing import Any

from bohnteach.editions.indiana import rules as indy
from bohnteach.editions.indiana import settings_of
from bohnteach.game.rulesets import RuleSet
from bohnteach.game.state import State

VARIATIONS = {"sabohntage": "sabohntage", "sabohntage-variation": "sabohntage",
              "fünf sorten": "five", "fuenf sorten": "five", "5 sorten": "five",
              "fünf sorten im tempel": "five", "fuenf sorten im tempel": "five"}
"""How a scene names the rulebook's two variations."""

SUBJECTS = {  # regex over the casefolded subject -> (subject, needs a player)
    r"(?P<name>.+?)\s+abenteurer\s+blockiert": "adventurer_blocked",
    r"(?P<name>.+?)\s+abenteurer\s+ertrag": "adventurer_yield",
    r"(?P<name>.+?)\s+trägerkarte\s+stelle": "carrier_place",
    r"(?P<name>.+?)\s+traegerkarte\s+stelle": "carrier_place",
    r"tempelgänge|tempelgaenge": "visits",
}
"""Indiana's expectation subjects (``Anna Abenteurer blockiert = ja`` …)."""
COUNTS = ("adventurer_yield", "carrier_place", "visits")
HEADERS = {"trägerkarte zu zugbeginn": "carrier_start", "traegerkarte zu zugbeginn": "carrier_start"}
"""Header words of an Indiana scene → the key ``finish`` reads."""


def with_variations(rules: RuleSet, value: str) -> RuleSet:
    """``rules`` (an Indiana rule set) with the named variations switched on; ValueError
    (German) for a name that is none of them or a rule set of another edition."""
    wanted = set()
    for word in (w.strip().casefold() for w in value.split(",")):
        if word not in VARIATIONS:
            raise ValueError(f"Variation {word[:40]!r}? Möglich: Sabohntage, fünf Sorten.")
        wanted.add(VARIATIONS[word])
    found = settings_of(rules).with_variations("five" in wanted, "sabohntage" in wanted)
    return replace(rules, settings=found)


def hand_line(s: State, player: int, cards: list[int]) -> tuple[list[int], tuple[int, ...] | None]:
    """A hand line's cards without the carrier card, and the hand cards in front of it (None
    when the line names none); the carrier goes to the player's carrier zone. ValueError
    (German) for a second carrier."""
    carriers = [c for c in cards if s.variety[c] == indy.CARRIER]
    if not carriers:
        return cards, None
    p = s.players[player]
    if len(carriers) > 1 or p.extra[indy.CARRIER] or p.extra[indy.CARRIER_LAID]:
        raise ValueError(f"{p.name} hat nur eine Trägerkarte.")
    place = cards.index(carriers[0])
    p.extra[indy.CARRIER].append(carriers[0])
    return [c for c in cards if c != carriers[0]], tuple(p.hand + cards[:place])


def finish(s: State, hand_marks: dict[int, tuple[int, ...]], headers: Mapping[str, str],
           number: Callable[[str, str, str], int]) -> tuple[str, str] | None:
    """The marks the scene starts with (``start_marks``); (header key, German problem)
    when ``Trägerkarte zu Zugbeginn`` cannot be. A scene starts a turn without temple
    visits; a non-empty marks dict is also one that State.copy copies (it shares an empty
    one, and the first visit would write into the scene's initial table)."""
    text = headers.get("carrier_start")
    place = None if text is None else number("carrier_start", text.casefold().removeprefix("stelle").strip(),
                                             "Trägerkarte zu Zugbeginn")
    start_marks(s, hand_marks, place)
    problem = None if place is None else start_problem(s, place)
    return ("carrier_start", problem) if problem else None


def start_marks(s: State, ahead: dict[int, tuple[int, ...]], start: int | None) -> None:
    """The marks an Indiana scene starts with: no visits yet, each carrier's place, and the
    active player's carrier place at the start of the turn (``start`` or the default)."""
    s.marks["visits"] = ()
    s.marks["keep"] = ()
    s.marks["ahead"] = tuple(ahead.get(seat, ()) for seat in range(len(s.players)))
    if start is None:
        now = indy.carrier_position(s, s.active)
        start = now + s.hand_plants if now else 0
    s.marks["carrier_start"] = start


def start_problem(s: State, start: int) -> str | None:
    """Why ``Trägerkarte zu Zugbeginn: start`` cannot be (German), or None."""
    p = s.players[s.active]
    if start and not p.extra[indy.CARRIER] and not p.extra[indy.CARRIER_LAID]:
        return f"{p.name} hat keine Trägerkarte (0 = keine)."
    if start > len(p.hand) + s.hand_plants + 1:
        return f"Stelle {start} gibt es nicht: {p.name} hatte höchstens {len(p.hand) + s.hand_plants} Karten."
    return None


def match_subject(low: str) -> tuple[str, str | None] | None:
    """``(subject, player name or None)`` when ``low`` is one of Indiana's expectations."""
    for pattern, subject in SUBJECTS.items():
        m = re.fullmatch(pattern, low)
        if m:
            return subject, m.groupdict().get("name")
    return None


def check(s: State, subject: str, player: int | None, value: Any) -> str | None:
    """None if the expectation ``subject = value`` holds, else what is there (German)."""
    got = actual(s, subject, player)
    if got == value:
        return None
    if subject == "adventurer_blocked":
        return "erwartet blockiert" if value else "der Abenteurer ist blockiert"
    return f"erwartet {value}, tatsächlich {got}"


def actual(s: State, subject: str, player: int | None) -> Any:
    """The value an Indiana expectation compares with."""
    if subject == "visits":
        return len(indy.visits(s))
    assert player is not None
    if subject == "adventurer_blocked":
        return indy.blocked(s, player) or bool(s.players[player].extra[indy.SABOTAGED])
    if subject == "adventurer_yield":
        return indy.sale_coins(s, player)
    return indy.carrier_position(s, player) or 0  # carrier_place


__all__ = ["COUNTS", "HEADERS", "SUBJECTS", "VARIATIONS", "actual", "check", "finish", "hand_line",
           "match_subject", "start_marks", "start_problem", "with_variations"]
