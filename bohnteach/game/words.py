"""The core's German words for cards: variety names with the card attribute ``sex``.

The game core writes German refusals, so the words it needs live here, in the lowest
layer; ``bohnteach.render.words`` re-exports them next to the display-only words (phase
names, numbers), so every page, refusal and scene says the same thing::

    card_label(s, 17)                  # "Blaue Bohne"
    card_label(s, 17, sex="word")      # "Blaue Bohne (weiblich)"
    card_label(s, 17, sex="symbol")    # "Blaue Bohne (♀ w)"
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from bohnteach.game.beans import find_variety

if TYPE_CHECKING:
    from bohnteach.game.state import State

SEX_WORDS = {"m": "männlich", "w": "weiblich", "B": "Baby"}
"""Ladybohn's card attribute ``sex`` in words."""
SEX_SHORT = {"m": "m", "w": "w", "B": "Baby"}
SEX_SYMBOLS = {"m": "♂", "w": "♀", "B": "B"}
"""Symbols go with the letter on buttons and notes (never colour or symbol alone)."""

SexStyle = Literal["", "word", "short", "symbol"]


def sex_word(sex: str | None) -> str:
    """``"männlich"``, ``"weiblich"``, ``"Baby"``; ``""`` for a card without sex."""
    return SEX_WORDS.get(sex or "", "")


def sex_short(sex: str | None, *, symbol: bool = False) -> str:
    """``"w"`` / ``"♀ w"`` (with ``symbol``), ``"Baby"``; ``""`` without sex."""
    if sex not in SEX_SHORT:
        return ""
    if symbol and sex != "B":
        return f"{SEX_SYMBOLS[sex]} {SEX_SHORT[sex]}"
    return SEX_SHORT[sex]


def sex_tag(sex: str | None, style: SexStyle) -> str:
    """The sex in the given style (``""``: none), for the brackets after a variety."""
    if style == "word":
        return sex_word(sex)
    if style in ("short", "symbol"):
        return sex_short(sex, symbol=style == "symbol")
    return ""


def variety_with_sex(variety: str, sex: str | None, style: SexStyle = "") -> str:
    """``"Blaue Bohne"``, or with a ``style`` and a sex ``"Blaue Bohne (♀ w)"``."""
    name = find_variety(variety).de
    tag = sex_tag(sex, style)
    return f"{name} ({tag})" if tag else name


def card_label(s: State, card: int, *, sex: SexStyle = "") -> str:
    """A card's variety and, with ``sex``, its Ladybohn sex in brackets."""
    return variety_with_sex(s.variety[card], s.cards[card].sex, sex)


__all__ = [
    "SEX_SHORT", "SEX_SYMBOLS", "SEX_WORDS", "SexStyle", "card_label", "sex_short", "sex_tag",
    "sex_word", "variety_with_sex",
]
