"""The game's words in the reader's language: refusals, rules, sources, varieties.

The engine and the data are German and language-neutral where it matters (a refusal is a
rule ID, a German template and parameters; ``bohnteach.game.errors``). These functions
make the words when they are shown, through the current translator
(:func:`bohnteach.i18n.current`; German outside :func:`bohnteach.i18n.speaking`)::

    with speaking("en"):
        refusal_detail(violation)     # "Field 1 grows Chili Bean; the Wax Bean does not fit. …"
        rule_words(find_rule("p1.no-room")).title
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bohnteach.game.beans import Variety
from bohnteach.game.errors import Phrase, Rule, Term, Terms, readable_source
from bohnteach.i18n import current
from bohnteach.render.words import de_number, de_percent

_QUOTED = re.compile(r"„[^“]*“")


def variety_word(variety: Variety, n: int = 1) -> str:
    """A variety's name (``n`` cards: the plural) in the reader's language."""
    tr = current()
    if n == 1:
        return tr.pgettext("variety", variety.de)
    return tr.pgettext("variety-plural", variety.de_plural)


def number(x: Any, digits: int = 4, *, strip: bool = True) -> str:
    """``x`` rounded as :func:`~bohnteach.render.words.de_number` does, written as the
    reader writes numbers: German ``10.000,5``, English ``10,000.5``."""
    text = de_number(x, digits, strip=strip)
    return text if current().is_source else text.translate(_POINT_AND_COMMA)


def percent(x: Any, digits: int = 1) -> str:
    """A share as a percentage for the reader: German ``11,3 %``, English ``11.3%``."""
    text = de_percent(x, digits)
    return text if current().is_source else text.translate(_POINT_AND_COMMA).replace(" %", "%")


_POINT_AND_COMMA = str.maketrans({".": ",", ",": "."})


def chart_separators() -> str:
    """plotly's ``separators`` (decimal, thousands) for the reader's numbers."""
    return ",." if current().is_source else ".,"


def term(value: Any) -> Any:
    """A refusal's parameter for the reader: a :class:`Term` translated, a :class:`Phrase`
    translated and filled in, each of :class:`Terms` so, the rest as is."""
    if isinstance(value, Terms):
        return value.sep.join(str(term(item)) for item in value.items)
    if isinstance(value, Phrase):
        tr = current()
        return tr.gettext(value.template).format(**{k: term(v) for k, v in value.params.items()})
    if isinstance(value, Term):
        tr = current()
        return tr.pgettext(value.context, str(value)) if value.context else tr.gettext(str(value))
    return value


def refusal_detail(violation: Any) -> str:
    """What exactly was wrong, in the reader's language. German: the refusal's own
    ``detail``. A detail the engine still writes as finished German text (no template
    with parameters) is left out in another language: the rule's explanation says the rest."""
    tr = current()
    detail = getattr(violation, "detail", "") or ""
    if tr.is_source or not detail:
        return detail
    template = getattr(violation, "template", detail) or detail
    if not tr.knows(template):
        tr.gettext(template)  # a strict translator raises here
        return ""
    params = getattr(violation, "params", None) or {}
    text = tr.gettext(template)
    return text.format(**{k: term(v) for k, v in params.items()}) if params else text


def source_words(source: str) -> str:
    """A rulebook citation (``"Amigo-Spielregel, „Vorbereitung“"`` or with a seed file
    name) for the reader: the book's title translated; the German section kept in „…“ as
    cited, with its rendering beside it in another language."""
    tr = current()
    readable = readable_source(source)
    if tr.is_source:
        return readable
    title, sep, rest = readable.partition(", „")
    if not sep:
        return tr.pgettext("source", readable.strip())
    section = rest.rstrip().removesuffix("“")
    # Only the parts printed in „…“ are the book's words; what the citation adds between
    # or after them ("Beispiel 1") is said in the reader's language, in the rendering.
    quoted = ", ".join(_QUOTED.findall(f"„{section}“"))
    return f"{tr.pgettext('source', title.strip())}, {quoted} ({tr.pgettext('section', section)})"


@dataclass(frozen=True)
class RuleWords:
    """A rule's texts in the reader's language."""

    id: str
    title: str
    explanation: str
    interpretation: str
    source: str


def rule_words(rule: Rule) -> RuleWords:
    tr = current()
    return RuleWords(rule.id, tr.gettext(rule.title), tr.prose(rule.explanation),
                     tr.prose(rule.interpretation), source_words(rule.source))


__all__ = ["RuleWords", "chart_separators", "number", "percent", "refusal_detail", "rule_words", "source_words",
           "term", "variety_word"]
