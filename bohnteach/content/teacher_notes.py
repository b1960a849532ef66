"""The teacher notes of the lessons (``bohnteach/data/teacher_notes.toml``): the goal, a
45-minute plan and the expected misconceptions of each lesson.

    notes = teacher_notes("05_Handeln_lohnt_sich")
    notes.goal, notes.plan[0].minutes, notes.misconceptions

The data file's keys are German (``ziel``, ``plan``, ``fehlvorstellungen``): teachers write
it; the fields here are English like every identifier. Its texts are German, extracted into
the ``classroom`` catalogue (:mod:`bohnteach.catalogues`); ``teacher_notes(name, lang)`` or
:meth:`TeacherNotes.translated` gives them in a reader's language.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from bohnteach.i18n import Translator, as_translator

#: Minutes of one lesson: every plan adds up to exactly this.
LESSON_MINUTES = 45


@dataclass(frozen=True)
class Step:
    """One part of the plan: how long, what it is called, what happens."""

    minutes: int
    part: str
    what: str


@dataclass(frozen=True)
class TeacherNotes:
    """Goal, plan and misconceptions of one lesson."""

    name: str
    goal: str
    """What the class can do at the end (``ziel``)."""
    plan: tuple[Step, ...]
    misconceptions: tuple[str, ...]
    """Expected misconceptions and how to meet them (``fehlvorstellungen``)."""

    def translated(self, lang: str | Translator | None) -> TeacherNotes:
        """The same notes in ``lang``'s words (German: these notes, unchanged)."""
        tr = as_translator(lang)
        if tr.is_source:
            return self
        return TeacherNotes(
            self.name, tr.prose(self.goal),
            tuple(Step(s.minutes, tr.prose(s.part), tr.prose(s.what)) for s in self.plan),
            tuple(tr.prose(m) for m in self.misconceptions))


@cache
def all_teacher_notes() -> dict[str, TeacherNotes]:
    """Every lesson's notes by notebook name; raises ``ValueError`` (German) for a plan
    that does not fill :data:`LESSON_MINUTES` or a lesson listed twice."""
    raw = tomllib.loads(files("bohnteach.data").joinpath("teacher_notes.toml").read_text("utf-8"))
    notes: dict[str, TeacherNotes] = {}
    for entry in raw["lektion"]:
        plan = tuple(Step(int(m), str(p), str(w)) for m, p, w in entry["plan"])
        total = sum(step.minutes for step in plan)
        if total != LESSON_MINUTES:
            raise ValueError(f"Stundenplan von {entry['name']}: {total} statt {LESSON_MINUTES} Minuten.")
        if entry["name"] in notes:
            raise ValueError(f"Hinweise zu {entry['name']} stehen zweimal in teacher_notes.toml.")
        notes[entry["name"]] = TeacherNotes(entry["name"], entry["ziel"], plan,
                                            tuple(entry["fehlvorstellungen"]))
    return notes


def teacher_notes(name: str, lang: str | Translator | None = None) -> TeacherNotes:
    """The notes of lesson ``name`` (``"01_Bohnentreppe"``) in ``lang``'s words (German
    without one); ``KeyError`` (German) if none."""
    try:
        notes = all_teacher_notes()[name]
    except KeyError:
        raise KeyError(f"Keine Hinweise für Lehrkräfte zu {name!r}.") from None
    return notes.translated(lang)
