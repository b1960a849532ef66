"""The German words every page, widget, scene and lesson uses for the same things.

One place for phase names, card-trait labels, variety and seat labels and German number
formatting, so the table, the scenes, the trial game and the lessons never disagree::

    phase_label(Phase.TRADE)      # "Phase 2 (Aufdecken & Handeln)"
    trait_tag(card.trait, "word") # the card's trait in the edition's words (``trait_words``)
    de_number(Fraction(1, 8), 3)  # "0,125"
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from bohnteach.game.state import Phase
from bohnteach.i18n import N_
from bohnteach.game.words import (  # the core's card words, re-exported: one place
    TRAIT_WORDS, card_label, trait_tag, variety_with_trait,
)

Number = int | float | Fraction | Decimal

# ---- phases ------------------------------------------------------------------------------
PHASE_NAMES: dict[Phase, str] = {  # N_: translated where shown (bohnteach.i18n)
    Phase.PLANT: N_("Pflanzen"),
    Phase.TRADE: N_("Aufdecken & Handeln"),
    Phase.PLANT_RECEIVED: N_("Erhaltenes pflanzen"),
    Phase.DRAW: N_("Nachziehen"),
}
"""Short names of the four phases (the phase bar above the table)."""


def phase_label(phase: Phase) -> str:
    """``"Phase 1 (Pflanzen)"``; ``"Spielende"`` once the game is over."""
    if phase is Phase.OVER or phase not in PHASE_NAMES:
        return "Spielende"
    return f"Phase {phase.value} ({PHASE_NAMES[phase]})"


# ---- people ------------------------------------------------------------------------------
def seat_label(index: int, *, starts: bool = False) -> str:
    """``"Platz 1"`` for seat index 0; ``starts`` adds „(beginnt)“."""
    return f"Platz {index + 1}" + (" (beginnt)" if starts else "")


# ---- numbers -----------------------------------------------------------------------------
def _exact(x: Number) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(repr(x))  # the shortest text: 0.001 -> 1/1000, not a binary tail
    return Fraction(x)


def de_number(x: Number, digits: int = 4, *, strip: bool = True) -> str:
    """German text of ``x`` rounded to ``digits`` decimals (half up), e.g. ``0,1126``,
    ``10.000``; trailing zeros are dropped when ``strip``."""
    f = _exact(x)
    d = Decimal(f.numerator) / Decimal(f.denominator)
    q = d.quantize(Decimal(1).scaleb(-digits) if digits else Decimal(1), rounding=ROUND_HALF_UP)
    text = f"{q:,f}"
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace(",", "\u2009").replace(".", ",").replace("\u2009", ".")


def de_percent(x: Number, digits: int = 1) -> str:
    """``0.1126`` → ``"11,3 %"``."""
    return de_number(_exact(x) * 100, digits, strip=False) + " %"


__all__ = [
    "PHASE_NAMES", "TRAIT_WORDS", "card_label", "de_number", "de_percent",
    "phase_label", "seat_label", "trait_tag", "variety_with_trait",
]
