"""Teacher notes of the lessons: complete for every lesson, shown only in teacher mode,
with the solutions of every exercise."""
from __future__ import annotations

import importlib

import pytest

from bohnteach.content.teacher_notes import LESSON_MINUTES, all_teacher_notes, teacher_notes
from bohnteach.lessons import LESSONS
from bohnteach.widgets import questions

MODULES = {"01_Bohnentreppe": "staircase", "02_Zwei_Karten_aufdecken": "two_cards",
           "03_Was_bringt_ein_Feld": "field_value",
           "04_Rechnen_oder_simulieren": "compute_or_simulate",
           "05_Handeln_lohnt_sich": "trading"}


@pytest.fixture(autouse=True)
def _students_view():
    questions.set_teacher_mode(False)
    yield
    questions.set_teacher_mode(False)


def test_every_lesson_has_goal_plan_and_misconceptions():
    assert set(all_teacher_notes()) == {name for name, _ in LESSONS} == set(MODULES)
    for name, _ in LESSONS:
        notes = teacher_notes(name)
        assert notes.goal and len(notes.misconceptions) >= 3
        assert sum(step.minutes for step in notes.plan) == LESSON_MINUTES
    with pytest.raises(KeyError, match="Keine Hinweise"):
        teacher_notes("99_Fehlt")


def test_notes_and_solutions_reach_the_page_only_in_teacher_mode():
    lesson = importlib.import_module("bohnteach.lessons.trading")
    top = lesson.start()
    banner = top.banner
    tasks = lesson.questions()
    assert banner.widget.value == "" and banner.widget.layout.display == "none"
    assert "application/vnd.jupyter.widget-view+json" in top._repr_mimebundle_()
    questions.set_teacher_mode(True)
    shown = banner.widget.value
    notes = teacher_notes("05_Handeln_lohnt_sich")
    assert banner.widget.layout.display == "flex"
    for text in ("Ziel der Stunde", "Ablauf in 45 Minuten", "Erwartete Fehlvorstellungen", "Lösungen"):
        assert text in shown
    assert all(step.part in shown for step in notes.plan)
    assert all(q._solution_html in shown for q in tasks if q._solution_html)
    questions.set_teacher_mode(False)
    assert banner.widget.value == ""


def test_lesson_5_asks_for_the_estimate_first_and_keeps_it_beside_the_result():
    from bohnteach.lessons.trading import TradeExperiment
    from bohnteach.render.words import de_percent

    experiment = TradeExperiment(games=4, seed=3)
    assert experiment.run() is None  # no estimate: no simulation, a German request instead
    assert "Schätze zuerst" in experiment.result.value and experiment.stats is None
    experiment.guess.value = "hundert"
    assert experiment.run() is None and "keine Zahl" in experiment.result.value
    experiment.guess.value = "150 %"
    assert experiment.run() is None and "zwischen 0 % und 100 %" in experiment.result.value
    experiment.guess.value = "40"  # read as 40 %
    stats = experiment.run()
    assert stats is not None
    shown = experiment.result.value
    assert "Deine Schätzung: <b>40 %</b>" in shown
    assert f"<b>{de_percent(stats.trader_wins, 0)}</b>" in shown
