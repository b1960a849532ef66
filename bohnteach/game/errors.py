"""The one exception a refused action raises, and the rule catalogue it quotes.

Explanations live in ``data/rules.toml`` (German, written for learners), keyed by the
stable rule IDs of RULES.md, so that the engine, scenes, site and tests share one text.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

SEED_FILES = {
    "A": "000_2752a7130280637f.txt",
    "G": "001_cd0bfb58e4129994.txt",
    "Q": "002_879428c668d50930.txt",
    "L": "003_ad83c54c2d3b0d84.txt",
    "I": "004_2138814a4dd4b935.txt",
}


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    explanation: str
    source: str
    """Seed file and section, e.g. ``000_2752a7130280637f.txt, „Phase 1: …“``."""
    auslegung: str = ""
    """Our decision where the rulebooks are silent or ambiguous."""


@lru_cache(maxsize=1)
def rule_catalogue() -> dict[str, Rule]:
    """All rules the engine knows, by ID."""
    raw = tomllib.loads(
        resources.files("bohnteach.data").joinpath("rules.toml").read_text("utf-8")
    )
    rules: dict[str, Rule] = {}
    for rule_id, entry in raw.items():
        seed, _, section = entry["source"].partition(":")
        source = SEED_FILES.get(seed.strip(), seed.strip())
        if section.strip():
            source += f", „{section.strip()}“"
        rules[rule_id] = Rule(
            id=rule_id,
            title=entry["title"],
            explanation=entry["explanation"].strip(),
            source=source,
            auslegung=entry.get("auslegung", "").strip(),
        )
    return rules


def find_rule(rule_id: str) -> Rule:
    try:
        return rule_catalogue()[rule_id]
    except KeyError:
        raise KeyError(f"Unbekannte Regel-ID {rule_id!r}") from None


class RuleViolation(Exception):
    """A refused action: the rule ID, a German explanation for learners, and the source.

    ``detail`` says what exactly was wrong in this situation; ``explanation`` is the rule
    in general. The state the action was applied to is unchanged.
    """

    def __init__(self, rule_id: str, detail: str = ""):
        rule = find_rule(rule_id)
        self.rule_id = rule_id
        self.rule = rule
        self.detail = detail
        self.explanation = rule.explanation
        self.source = rule.source
        super().__init__(self.message)

    @property
    def message(self) -> str:
        parts = [self.detail, self.explanation] if self.detail else [self.explanation]
        return " ".join(parts) + f" [{self.rule_id}]"

    def __reduce__(self):  # keep picklable despite the custom __init__
        return (RuleViolation, (self.rule_id, self.detail))
