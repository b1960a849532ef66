"""German sentences for Indiana's actions, read back by ``game/notation.py`` through the
edition (``Indiana.format_action`` / ``parse_action``):

    Anna geht zum Tempel (Sojabohne)              VisitTemple(0, "soy")
    Anna geht mit der Wegkarte zum Tempel (Sojabohne)   VisitTemple(0, "soy", True)
    Anna lädt die Trägerkarte (Sojabohne)         LoadCarrier(0, "soy")
    Anna legt die Trägerkarte ab                  LayCarrier(0)
    Anna verkauft den Abenteurer                  SellAdventurer(0)
    Anna bringt Feld 1 zum Abenteurer             FieldToAdventurer(0, 0)
    Anna kauft eine Wegkarte / Trägerkarte        BuyCard(0, "path" / "carrier")
    Anna blockiert Ben mit der Sabohntagekarte    Sabotage(0, 1)
"""
from __future__ import annotations

import re

from bohnteach.editions.indiana.rules import (
    BuyCard, FieldToAdventurer, LayCarrier, LoadCarrier, Sabotage, SellAdventurer, VisitTemple,
)
from bohnteach.game.beans import find_variety
from bohnteach.game.state import State


def _name(variety: object) -> str:
    try:
        return find_variety(variety).de  # type: ignore[arg-type]
    except ValueError:
        return str(variety)


def format_action(s: State, a: object, who: str) -> str | None:
    if isinstance(a, VisitTemple):
        way = " mit der Wegkarte" if a.path is True else ""
        return f"{who} geht{way} zum Tempel ({_name(a.variety)})"
    if isinstance(a, LoadCarrier):
        return f"{who} lädt die Trägerkarte ({_name(a.variety)})"
    if isinstance(a, LayCarrier):
        return f"{who} legt die Trägerkarte ab"
    if isinstance(a, SellAdventurer):
        return f"{who} verkauft den Abenteurer"
    if isinstance(a, FieldToAdventurer):
        field = a.field + 1 if isinstance(a.field, int) and not isinstance(a.field, bool) else a.field
        return f"{who} bringt Feld {field} zum Abenteurer"
    if isinstance(a, BuyCard):
        return f"{who} kauft eine {_name(a.kind)}"
    if isinstance(a, Sabotage):
        target = a.target
        named = s.players[target].name if isinstance(target, int) and 0 <= target < len(s.players) else target
        return f"{who} blockiert {named} mit der Sabohntagekarte"
    return None


def parse_action(s: State, player: int, rest: str) -> object | None:
    low = " ".join(rest.split()).casefold()

    def m(pattern: str) -> re.Match | None:
        return re.fullmatch(pattern, low)

    hit = m(r"geht( mit der wegkarte)? zum tempel \((.+)\)")
    if hit:
        return VisitTemple(player, find_variety(hit.group(2)).key, hit.group(1) is not None)
    hit = m(r"l(?:ä|ae)dt die tr(?:ä|ae)gerkarte \((.+)\)")
    if hit:
        return LoadCarrier(player, find_variety(hit.group(1)).key)
    if m(r"legt die tr(?:ä|ae)gerkarte ab"):
        return LayCarrier(player)
    if m(r"verkauft (?:den|seinen|ihren) abenteurer"):
        return SellAdventurer(player)
    hit = m(r"bringt feld (\d{1,2}) zum abenteurer")
    if hit:
        return FieldToAdventurer(player, int(hit.group(1)) - 1)
    hit = m(r"kauft (?:eine )?(wegkarte|tr(?:ä|ae)gerkarte)")
    if hit:
        return BuyCard(player, find_variety(hit.group(1)).key)
    hit = m(r"blockiert (.+) mit der sabohntagekarte")
    if hit:
        for i, p in enumerate(s.players):
            if p.name.casefold() == hit.group(1):
                return Sabotage(player, i)
        raise ValueError(f"„{hit.group(1)}“ sitzt nicht am Tisch.")
    return None
