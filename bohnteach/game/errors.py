"""The one exception a refused action raises, and the rule catalogue it quotes.

Explanations live in ``data/rules.toml`` (German, written for learners), keyed by stable
rule IDs (listed in ``docs/rules.md``), so that the engine, scenes, site and tests share
one text. The rulebooks are named by the titles in ``data/sources.toml``; their seed file
names stay in the data for traceability and never reach a learner (:func:`readable_source`).
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


def _data(name: str) -> dict:
    return tomllib.loads(resources.files("bohnteach.data").joinpath(name).read_text("utf-8"))


_SOURCES = _data("sources.toml")
SEED_FILES: dict[str, str] = {letter: entry["file"] for letter, entry in _SOURCES.items()}
"""Letter of ``rules.toml`` -> seed file name (traceability)."""
SOURCE_TITLES: dict[str, str] = {entry["file"]: entry["title"] for entry in _SOURCES.values()}
"""Seed file name -> the rulebook's title as learners read it."""
SEED_FILE_NAME = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def source_title(seed_file: str) -> str:
    """The readable title of a rulebook, e.g. ``"Amigo-Spielregel"`` for its seed file."""
    return SOURCE_TITLES.get(seed_file.strip(), "Regelheft")


def readable_source(text: str) -> str:
    """``"000_….txt, „Phase 1: …“"`` -> ``"Amigo-Spielregel, „Phase 1: …“"``: every seed
    file name in ``text`` replaced by its rulebook's title."""
    return SEED_FILE_NAME.sub(lambda m: source_title(m.group(0)), text)


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    explanation: str
    source: str
    """Rulebook and section as a learner reads it, e.g. ``Amigo-Spielregel, „Phase 1: …“``."""
    interpretation: str = ""
    """Our decision (Auslegung; ``auslegung`` in the data) where the rulebooks are silent or ambiguous."""
    seed: str = ""
    """The same with the seed file name, e.g. ``000_2752a7130280637f.txt, „Phase 1: …“``
    (traceability: which text the rule was checked against)."""


@lru_cache(maxsize=1)
def rule_catalogue() -> dict[str, Rule]:
    """All rules the engine knows, by ID."""
    rules: dict[str, Rule] = {}
    for rule_id, entry in _data("rules.toml").items():
        letter, _, section = entry["source"].partition(":")
        seed = SEED_FILES.get(letter.strip(), letter.strip())
        where = f", „{section.strip()}“" if section.strip() else ""
        rules[rule_id] = Rule(
            id=rule_id,
            title=entry["title"],
            explanation=entry["explanation"].strip(),
            source=source_title(seed) + where,
            interpretation=entry.get("auslegung", "").strip(),
            seed=seed + where,
        )
    return rules


def add_rules(entries: Mapping[str, Mapping[str, str]]) -> None:
    """Rules an edition brings along (``Edition.own_rules``: id -> ``title``, ``explanation``,
    ``source`` as a learner reads it, optional ``auslegung``), added to the catalogue.
    ``ValueError`` for an ID the catalogue already gives another rule."""
    catalogue = rule_catalogue()
    for rule_id, entry in entries.items():
        rule = Rule(id=rule_id, title=entry["title"], explanation=entry["explanation"].strip(),
                    source=entry["source"], interpretation=entry.get("auslegung", "").strip(),
                    seed=entry["source"])
        if catalogue.get(rule_id, rule) != rule:
            raise ValueError(f"Die Regel-ID {rule_id!r} gibt es schon.")
        catalogue[rule_id] = rule


def find_rule(rule_id: str) -> Rule:
    try:
        return rule_catalogue()[rule_id]
    except KeyError:
        raise KeyError(f"Unbekannte Regel-ID {rule_id!r}") from None


class Term(str):
    """A word of the game among a refusal's parameters (a variety's name): the German word
    as a ``str``, and the catalogue context it is translated by where it is shown
    (``Term.variety("Blaue Bohne")``; ``None``: a text of the data without context, such as
    a rule set's title)."""

    context: str | None

    def __new__(cls, text: str, context: str | None = None) -> Term:
        term = super().__new__(cls, text)
        term.context = context
        return term

    @classmethod
    def variety(cls, name: str) -> Term:
        return cls(name, "variety")

    def __reduce__(self):
        return (Term, (str(self), self.context))


class Phrase(str):
    """A piece of a refusal's text with parameters of its own, among a refusal's parameters:
    the German text filled in as a ``str``, translated where it is shown like the refusal
    (``Phrase("Feld {field}", field=2)``)."""

    template: str
    params: dict

    def __new__(cls, template: str, /, **params: object) -> Phrase:
        phrase = super().__new__(cls, template.format(**params))
        phrase.template = template
        phrase.params = params
        return phrase

    def __reduce__(self):
        return (_phrase, (self.template, self.params))


def _phrase(template: str, params: dict) -> Phrase:
    return Phrase(template, **params)


class Terms(str):
    """Several words of the game among a refusal's parameters, joined by ``sep`` (each a
    :class:`Term`, :class:`Phrase` or plain value, translated one by one where shown):
    ``Terms([Term.variety("Blaue Bohne"), Term.variety("Sojabohne")])`` is
    ``"Blaue Bohne, Sojabohne"``."""

    items: tuple
    sep: str

    def __new__(cls, items, sep: str = ", ") -> Terms:
        found = tuple(items)
        terms = super().__new__(cls, sep.join(str(i) for i in found))
        terms.items = found
        terms.sep = sep
        return terms

    def __reduce__(self):
        return (Terms, (self.items, self.sep))


class RuleViolation(Exception):
    """A refused action: the rule ID, a German explanation for learners, and the source.

    ``detail`` says what exactly was wrong in this situation; ``explanation`` is the rule
    in general. The state the action was applied to is unchanged.

    The refusal itself is language-neutral: the rule ID, the detail's German ``template``
    and its ``params`` (names, numbers, :class:`Term` s); ``detail`` is the template filled
    in German, and a page shows it in the reader's language from the catalogue
    (``bohnteach.render.language.refusal_detail``)::

        RuleViolation("p1.empty-hand", "{name} hat keine Karte auf der Hand.", name="Anna")
    """

    def __init__(self, rule_id: str, detail: str = "", /, **params: object):
        rule = find_rule(rule_id)
        self.rule_id = rule_id
        self.rule = rule
        self.template = detail
        self.params = params
        self.detail = detail.format(**params) if params else detail
        self.explanation = rule.explanation
        self.source = rule.source
        super().__init__(self.message)

    @property
    def message(self) -> str:
        parts = [self.detail, self.explanation] if self.detail else [self.explanation]
        return " ".join(parts) + f" [{self.rule_id}]"

    def __reduce__(self):  # keep picklable despite the custom __init__
        return (_refusal, (self.rule_id, self.template, self.params))


def _refusal(rule_id: str, template: str, params: dict) -> RuleViolation:
    return RuleViolation(rule_id, template, **params)


class MeterFileError(ValueError):
    """A meter file (or meter table) that cannot be used: which file, which key, and why."""

    def __init__(self, path: object, key: str, reason: str):
        self.path = str(path)
        self.key = key
        self.reason = reason
        super().__init__(f"{self.path}, {key}: {reason}")
