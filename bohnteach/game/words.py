"""The core's German words for cards: variety names with an edition's card trait.

The game core writes German refusals, so the words it needs live here, in the lowest
layer; ``bohnteach.render.words`` re-exports them next to the display-only words (phase
names, numbers), so every page, refusal and scene says the same thing. An edition that
gives cards a trait (``CardInfo.trait``) brings the trait's words (``Edition.trait_words``);
``register_edition`` adds them to ``TRAIT_WORDS``::

    card_label(s, 17)                    # "Blaue Bohne"
    card_label(s, 17, trait="word")      # the trait in words after the variety
    card_label(s, 17, trait="symbol")    # … as symbol and letter
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from bohnteach.game.beans import find_variety

if TYPE_CHECKING:
    from bohnteach.game.state import State

TraitStyle = Literal["", "word", "short", "symbol", "mark"]

TRAIT_WORDS: dict[str, dict[str, str]] = {"word": {}, "short": {}, "symbol": {}, "mark": {}}
"""Style -> trait -> German text, from every registered edition's ``trait_words``
(``symbol``: a symbol with the letter – never colour or symbol alone; ``mark``: the
symbol alone, for a card drawn next to the ``short`` word)."""


def add_trait_words(words: Mapping[str, Mapping[str, str]]) -> None:
    """Make an edition's trait words known (``register_edition`` calls it)."""
    for style, table in words.items():
        TRAIT_WORDS.setdefault(style, {}).update(table)


def trait_tag(trait: str | None, style: TraitStyle) -> str:
    """The trait in the given style (``""``: none), for the brackets after a variety."""
    return TRAIT_WORDS[style].get(trait or "", "") if style else ""


def variety_with_trait(variety: str, trait: str | None, style: TraitStyle = "") -> str:
    """``"Blaue Bohne"``, or with a ``style`` and a trait the variety with the trait in brackets."""
    name = find_variety(variety).de
    tag = trait_tag(trait, style)
    return f"{name} ({tag})" if tag else name


def card_label(s: State, card: int, *, trait: TraitStyle = "") -> str:
    """A card's variety and, with a ``trait`` style, its trait in brackets."""
    return variety_with_trait(s.variety[card], s.cards[card].trait, trait)


__all__ = ["TRAIT_WORDS", "TraitStyle", "add_trait_words", "card_label", "trait_tag", "variety_with_trait"]
