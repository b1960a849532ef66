"""The glossary (``data/glossary.toml``): the game's terms in every language the site
speaks, and which of them are ours (no English edition) rather than the edition's."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Term:
    de: str
    en: str
    de_plural: str = ""
    en_plural: str = ""
    source: str = "edition"
    """``"edition"`` (the English edition's word) or ``"ours"`` (our own rendering)."""
    note: str = ""

    @property
    def ours(self) -> bool:
        return self.source == "ours"


def _data() -> dict:
    return tomllib.loads(resources.files("bohnteach.data").joinpath("glossary.toml").read_text("utf-8"))


@lru_cache(maxsize=1)
def glossary() -> tuple[Term, ...]:
    """Every term, in the order of the file."""
    return tuple(Term(**entry) for entry in _data()["term"])


@lru_cache(maxsize=1)
def phases() -> dict[str, str]:
    """The phase bar's German names -> English."""
    return {p["de"]: p["en"] for p in _data()["phase"]}


def find_term(de: str) -> Term | None:
    return next((t for t in glossary() if de in (t.de, t.de_plural)), None)


__all__ = ["Term", "find_term", "glossary", "phases"]
