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
from bohnteach.i18n import N_, current

_QUOTED = re.compile(r"„[^“]*“")


def variety_word(variety: Variety, n: int = 1) -> str:
    """A variety's name (``n`` cards: the plural) in the reader's language."""
    tr = current()
    if n == 1:
        return tr.pgettext("variety", variety.de)
    return tr.pgettext("variety-plural", variety.de_plural)


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


def said(text: Any) -> str:
    """A word an edition (or a rule set) shows through another layer, for the reader: a
    :class:`Phrase`, :class:`Term` or :class:`Terms` as :func:`term` words it, a text marked
    ``N_("…")`` (or a data text, wrapped or not) through the catalogue. German: as given."""
    if isinstance(text, (Phrase, Term, Terms)):
        return str(term(text))
    return current().prose(text) if text else text


def assumption(text: Any) -> str:
    """A rule set's meter assumption (``RuleSet.meter_assumption``) for the reader, without
    the „Annahme:“ it may begin with: the box or note that shows it says it is one."""
    words = said(text).strip()
    for label in dict.fromkeys(("Annahme:", current().gettext(N_("Annahme:")))):
        if words.casefold().startswith(label.casefold()):
            return words[len(label):].strip()
    return words


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


__all__ = ["RuleWords", "assumption", "refusal_detail", "rule_words", "said", "source_words",
           "term", "variety_word"]
