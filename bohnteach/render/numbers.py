"""Numbers in the reader's language: the one place that decides how a language writes them.

German writes ``0,1126``, ``10.000`` and ``11,3 %``; English ``0.1126``, ``10,000`` and
``11.3%``. Every number the lessons, charts and exercises show is first written the German
way (:func:`bohnteach.render.words.de_number`, the exact half-up rounding the tests check)
and then put into the reader's style here, so German stays byte for byte what it was::

    with speaking("en"):
        number(Fraction(1, 3))       # "0.3333"
        percent(Fraction(1, 8), 2)   # "12.50%"
        integer(10_000)              # "10,000"

A language not in :data:`STYLES` writes numbers the German way until someone adds it.
"""
from __future__ import annotations

from fractions import Fraction

from bohnteach.i18n import Translator, current
from bohnteach.render.words import de_number, de_percent

Number = int | float | Fraction

STYLES: dict[str, tuple[str, str, str]] = {
    "de": (",", ".", " %"),
    "en": (".", ",", "%"),
}
"""Language -> (decimal mark, thousands separator, how a percent sign follows the number)."""


def _style(tr: Translator | None) -> tuple[str, str, str]:
    return STYLES.get((tr or current()).lang, STYLES["de"])


def localized(german: str, tr: Translator | None = None) -> str:
    """A number written the German way (``"10.000,5"``, ``"11,3 %"``) in the reader's style
    (``tr``, else the current translator)."""
    decimal, thousands, pct = _style(tr)
    if (decimal, thousands, pct) == STYLES["de"]:
        return german
    swap = {ord(","): decimal, ord("."): thousands}
    return german.replace(" %", pct).translate(swap)


def number(x: Number, digits: int = 4, *, strip: bool = True, tr: Translator | None = None) -> str:
    """``x`` rounded to ``digits`` decimals (half up), trailing zeros dropped when ``strip``."""
    return localized(de_number(x, digits, strip=strip), tr)


def percent(x: Number, digits: int = 1, tr: Translator | None = None) -> str:
    """``0.1126`` -> ``"11,3 %"`` / ``"11.3%"``."""
    return localized(de_percent(x, digits), tr)


def in_percent(x: Number, digits: int = 1, tr: Translator | None = None) -> str:
    """A value already in percent (a typed estimate): ``12.5`` -> ``"12,5 %"`` / ``"12.5%"``."""
    return localized(de_number(x, digits) + " %", tr)


def integer(n: int, tr: Translator | None = None) -> str:
    """``10000`` -> ``"10.000"`` / ``"10,000"``."""
    return localized(f"{n:,}".replace(",", "."), tr)


def separators(tr: Translator | None = None) -> str:
    """plotly's ``layout.separators`` (decimal mark, then thousands separator)."""
    decimal, thousands, _pct = _style(tr)
    return decimal + thousands


__all__ = ["STYLES", "in_percent", "integer", "localized", "number", "percent", "separators"]
