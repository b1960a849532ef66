"""German sentences for Indiana Bohnes' own actions, read and written (scenes, Mach du!).

The core's notation (``game/notation.py``) knows the base game's verbs; until it reads an
edition's verbs, scenes and the Mach-du buttons use these. Every sentence written by
``format_edition_action`` is read back by ``parse_edition_action`` to the same action
(``tests/test_indiana_teaching.py``)::

    Anna geht zum Tempel: Sojabohnen            VisitTemple(0, "soy")
    Anna geht mit der Wegkarte zum Tempel: Sojabohnen   VisitTemple(0, "soy", path=True)
    Anna lädt Sojabohnen auf die Trägerkarte     LoadCarrier(0, "soy")
    Anna verkauft beim Abenteurer                SellAdventurer(0)
    Anna gibt Feld 1 dem Abenteurer              FieldToAdventurer(0, 0)
    Anna kauft eine Wegkarte / Trägerkarte       BuyCard(0, "path") / BuyCard(0, "carrier")
    Anna legt die Trägerkarte ab                 LayCarrier(0)
    Anna legt die Sabohntagekarte auf Ben        Sabotage(0, 1)
"""
from __future__ import annotations

import re
from typing import Any

from bohnteach.editions.indiana.rules import (
    BuyCard, FieldToAdventurer, LayCarrier, LoadCarrier, Sabotage, SellAdventurer, VisitTemple,
)
from bohnteach.game.beans import UnknownVarietyError, find_variety
from bohnteach.game.notation import NotationError, _clean, _find_player, _number
from bohnteach.game.state import State

_ARTICLE = r"(?:die\s+|den\s+|der\s+|eine\s+|einen\s+)?"


def _variety_key(name: str, sentence: str) -> str:
    try:
        return find_variety(re.sub(r"^(?:die|den|der)\s+", "", name.strip(), flags=re.IGNORECASE)).key
    except UnknownVarietyError:
        raise NotationError(f"„{sentence[:80]}“: {name.strip()[:40]!r} ist keine Bohnensorte.") from None


def parse_edition_action(state: State, text: str) -> Any | None:
    """The Indiana action ``text`` describes, or None when it is no Indiana sentence (then
    the core's error stands). Raises ``NotationError`` for a known verb with a bad part."""
    if state.edition.name != "indiana":
        return None
    sentence = _clean(text)
    try:
        player, rest = _find_player(state, sentence, sentence)
    except NotationError:
        return None
    low = " ".join(rest.split()).casefold()

    if hit := re.fullmatch(r"geht\s+(mit\s+der\s+wegkarte\s+)?zum\s+tempel\s*[:(]\s*(.+?)\)?", low):
        return VisitTemple(player, _variety_key(hit.group(2), sentence), bool(hit.group(1)))
    if hit := re.fullmatch(r"lädt\s+(.+?)\s+auf\s+die\s+trägerkarte", low):
        return LoadCarrier(player, _variety_key(hit.group(1), sentence))
    if re.fullmatch(r"verkauft\s+beim\s+abenteurer", low):
        return SellAdventurer(player)
    if hit := re.fullmatch(r"gibt\s+feld\s+(\S+)\s+dem\s+abenteurer", low):
        n = _number(hit.group(1))
        if n is None or n < 1:
            raise NotationError(f"„{sentence[:80]}“: {hit.group(1)!r} ist keine Feldnummer (Feld 1, 2, 3).")
        return FieldToAdventurer(player, n - 1)
    if hit := re.fullmatch(r"kauft\s+" + _ARTICLE + r"(wegkarte|trägerkarte)", low):
        return BuyCard(player, "path" if hit.group(1) == "wegkarte" else "carrier")
    if re.fullmatch(r"legt\s+die\s+trägerkarte\s+ab", low):
        return LayCarrier(player)
    if hit := re.fullmatch(r"legt\s+die\s+sabohntagekarte\s+auf\s+(.+)", low):
        target, _ = _find_player(state, hit.group(1), sentence)
        return Sabotage(player, target)
    return None


def format_edition_action(state: State, action: Any) -> str | None:
    """The German sentence for an Indiana action (None for any other action)."""
    name = getattr(action, "player", None)
    who = state.players[name].name if isinstance(name, int) and 0 <= name < len(state.players) else str(name)

    def plural(variety: str) -> str:
        try:
            return find_variety(variety).de_plural
        except (UnknownVarietyError, TypeError):
            return str(variety)

    if isinstance(action, VisitTemple):
        how = " mit der Wegkarte" if action.path else ""
        return f"{who} geht{how} zum Tempel: {plural(action.variety)}"
    if isinstance(action, LoadCarrier):
        return f"{who} lädt {plural(action.variety)} auf die Trägerkarte"
    if isinstance(action, SellAdventurer):
        return f"{who} verkauft beim Abenteurer"
    if isinstance(action, FieldToAdventurer):
        field = action.field + 1 if isinstance(action.field, int) else action.field
        return f"{who} gibt Feld {field} dem Abenteurer"
    if isinstance(action, BuyCard):
        kind = {"path": "Wegkarte", "carrier": "Trägerkarte"}.get(action.kind, str(action.kind))
        return f"{who} kauft eine {kind}"
    if isinstance(action, LayCarrier):
        return f"{who} legt die Trägerkarte ab"
    if isinstance(action, Sabotage):
        t = action.target
        target = state.players[t].name if isinstance(t, int) and 0 <= t < len(state.players) else str(t)
        return f"{who} legt die Sabohntagekarte auf {target}"
    return None


__all__ = ["format_edition_action", "parse_edition_action"]
