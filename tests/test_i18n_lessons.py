"""The lessons in English (issue 56): every builder and widget of the five lessons, driven as
a learner drives it, with a strict translator (a missing message fails) and scanned for
German (tests/german_scan.py): widget texts and HTML, and the charts' figure JSON (titles,
axis titles, hovers, legend names, annotations). German output is held by the lessons'
own tests (tests/test_lessons.py, test_charts.py); here German is checked where English
changed the code path (numbers, the translator kept by a widget)."""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from bohnteach.i18n import speaking, translator
from german_scan import german_words, html_to_text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _en():
    return translator("en", strict=True)


def widget_texts(widget: Any) -> list[str]:
    """What a reader sees of an ipywidgets tree: values, labels, placeholders, options."""
    found: list[str] = []
    chooser = bool(getattr(widget, "_options_labels", None))  # its value is a key; its labels are seen
    for attr in ("description", "placeholder", "tooltip") if chooser else ("value", "description",
                                                                         "placeholder", "tooltip"):
        value = getattr(widget, attr, None)
        if isinstance(value, str) and value:
            found.append(html_to_text(value))
    labels = getattr(widget, "_options_labels", None)
    if labels:
        found += list(labels)
    for child in getattr(widget, "children", ()) or ():
        found += widget_texts(child)
    return found


SPOKEN = frozenset({"text", "name", "hovertext", "hovertemplate", "ticktext", "x", "y"})
"""The keys of a figure's JSON whose strings a reader sees (titles and annotations are
``{"text": …}``; categories are the x or y values)."""


def figure_texts(fig: Any) -> list[str]:
    """Every string a reader sees in a figure: titles, axis titles, legend names, hovers,
    bar texts, annotations, tick and category labels (not plotly's enumerations)."""
    data = fig.to_plotly_json()
    data.get("layout", {}).pop("template", None)
    found: list[str] = []

    def walk(node: Any, spoken: bool) -> None:
        if isinstance(node, str):
            if spoken:
                found.append(html_to_text(node))
        elif isinstance(node, dict):
            for key, value in node.items():
                walk(value, key in SPOKEN or (spoken and key not in ("font", "line", "marker")))
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value, spoken)

    walk(data, False)
    assert found, "a chart without any words"
    return found


def no_german(texts: list[str]) -> list[str]:
    return [f"{w!r} in {t[:120]!r}" for t in texts for w in german_words(t)]


@pytest.fixture
def shown(monkeypatch):
    """The figures the lessons' widgets show in their Output areas (no kernel here)."""
    figures: list = []
    from bohnteach.lessons import compute_or_simulate, field_value, staircase, trading, two_cards

    for module in (staircase, two_cards, field_value, compute_or_simulate, trading):
        monkeypatch.setattr(module, "show_figure", lambda fig, *a, **k: figures.append(fig))
    return figures


def _drive_questions(questions: list[Any]) -> list[str]:
    """Answer every exercise wrong twice (so its hint shows), then right; return what it showed."""
    from bohnteach.widgets.questions import ChoiceQuestion, NumberQuestion

    texts: list[str] = []
    for q in questions:
        if isinstance(q, NumberQuestion):
            wrong = q.answer + 10 * q.tolerance + Fraction(1, 20) + (1 if q.tolerance == 0 else 0)
            for _ in range(2):
                assert q.submit(f"{float(wrong):.4f}").status == "wrong"
                texts += widget_texts(q.widget)
            assert q.submit("abc").status == "invalid"
            texts += widget_texts(q.widget)
            exact = f"{q.answer.numerator}/{q.answer.denominator}"
            fb = q.submit(exact)
            assert fb.correct, (q.prompt, fb.message)
        else:
            assert isinstance(q, ChoiceQuestion)
            for option in q.options:
                q.submit(option)
                texts += widget_texts(q.widget)
            assert q.submit(q.correct).correct
        texts += widget_texts(q.widget)
        assert "Right!" in q.feedback.value
    return texts


def _lesson(name: str):
    from bohnteach import lessons  # noqa: F401 – the package first
    import importlib

    return importlib.import_module(f"bohnteach.lessons.{name}")


LESSONS = ["staircase", "two_cards", "field_value", "compute_or_simulate", "trading"]


@pytest.mark.parametrize("name", LESSONS)
def test_each_lessons_exercises_speak_english(name):
    from bohnteach.widgets.questions import exercise_list

    module = _lesson(name)
    questions = module.questions(lang=_en()) if name != "compute_or_simulate" else \
        module.questions(module.play_games(lang=_en()), lang=_en())
    box = exercise_list(questions)
    texts = widget_texts(box) + _drive_questions(questions)
    texts += [html_to_text(q._solution_html or "") for q in questions]
    assert questions[0].title == "Exercise 1."
    assert no_german(texts) == []


def test_lesson1_staircase_table_and_experiment_in_english(shown):
    s = _lesson("staircase")
    texts = figure_texts(s.staircase(lang=_en()))
    table = s.frequency_table(lang=_en()).data
    assert "0.0577" in table and "5.8%" in table and "100%" in table  # English numbers
    texts.append(html_to_text(table))
    exp = s.experiment(seed=3, lang=_en())
    assert [label for label, _n in exp.draws.options][2] == "1,000 times"
    exp.draws.value = 10  # small run
    exp.button.click()     # the callback, outside any speaking(): the widget's own translator
    texts += widget_texts(exp.widget) + [t for fig in shown for t in figure_texts(fig)]
    assert shown and "Looked at the top card 10 times" in shown[-1].layout.title.text
    assert no_german(texts) == []


def test_lesson2_tree_calculator_and_charts_in_english(shown):
    t = _lesson("two_cards")
    texts = figure_texts(t.tree(lang=_en())) + figure_texts(t.reveal(lang=_en()))
    texts += figure_texts(t.starting_hand(lang=_en()))
    calc = t.calculator(lang=_en())
    calc.k.value = 3
    calc.seen.value = 1
    texts += widget_texts(calc.widget) + [t for fig in shown for t in figure_texts(fig)]
    assert "Garden Bean" in calc.result.value
    assert re.search(r"<b>0\.\d{2,4} ≈ \d+\.\d%</b>", calc.result.value)  # English numbers
    assert no_german(texts) == []


def test_lesson3_tables_calculator_and_charts_in_english(shown):
    f = _lesson("field_value")
    texts = figure_texts(f.bohnometer(lang=_en())) + figure_texts(f.per_card(lang=_en()))
    texts += [html_to_text(f.efficiency(lang=_en()).data), html_to_text(f.expectation(lang=_en()).data)]
    calc = f.calculator(lang=_en())
    calc.variety.value = "Blaue Bohne"
    calc.k.value = 3
    texts += widget_texts(calc.widget) + [t for fig in shown for t in figure_texts(fig)]
    assert "Harvest now" in calc.result.value
    assert no_german(texts) == []


def test_lesson4_simulation_and_whole_games_in_english(shown):
    c = _lesson("compute_or_simulate")
    texts = figure_texts(c.convergence(lang=_en()))
    texts.append(html_to_text(c.estimates(lang=_en()).data))
    exp = c.experiment(lang=_en())
    exp.trials.value = 100  # a small run
    exp.seed.value = 3
    exp.button.click()
    texts += widget_texts(exp.widget) + [t for fig in shown for t in figure_texts(fig)]
    assert "Estimate after 100 runs" in exp.result.value
    stats = c.play_games(lang=_en())
    texts.append(html_to_text(stats.summary_html()))
    for chart in (c.game_length, c.scores, c.seats):
        texts += figure_texts(chart(stats, lang=_en()))
    assert no_german(texts) == []


def test_lesson5_trading_parts_in_english(shown):
    tr = _lesson("trading")
    texts = figure_texts(tr.same_card(lang=_en())) + figure_texts(tr.marginal_values(lang=_en()))
    texts += [html_to_text(tr.swap(lang=_en()).data), html_to_text(tr.gift(lang=_en()).data)]
    explorer = tr.calculator(lang=_en())
    explorer.sliders[0].value = 2
    texts += widget_texts(explorer.widget)
    game = tr.trading_game(games=2, lang=_en())
    game.button.click()  # no estimate yet: asked for one, in English
    assert "Estimate first" in game.result.value
    game.guess.value = "40%"
    game.button.click()
    texts += widget_texts(game.widget) + [t for fig in shown for t in figure_texts(fig)]
    assert game.stats is not None and "Your estimate" in game.result.value
    assert no_german(texts) == []


def test_the_teacher_banner_and_solutions_speak_the_lessons_language():
    from bohnteach.lessons import notes_html
    from bohnteach.widgets.questions import TeacherSolution, set_teacher_mode

    set_teacher_mode(True)
    try:
        solution = TeacherSolution("x", lang="en")
        assert solution.toggle.description == "Show solution (teacher)"
        solution.toggle.value = True
        assert solution.toggle.description == "Hide solution"
        with speaking("en"):
            notes = notes_html("01_Bohnentreppe")
        assert "Goal of the lesson" in notes and "Ziel der Stunde" not in notes
        # asked for by name, outside any page's language: its headings English too
        by_name = notes_html("01_Bohnentreppe", lang="en")
        assert "Goal of the lesson" in by_name and "Ziel der Stunde" not in by_name
        from bohnteach.content.teacher_notes import teacher_notes

        own = teacher_notes("01_Bohnentreppe", "en")  # the notes themselves (data/teacher_notes.toml)
        assert html_to_text(f"<p>{own.goal}</p>").strip() in html_to_text(notes)
        assert no_german([own.goal, *own.misconceptions, *(f"{s.part} {s.what}" for s in own.plan)]) == []
    finally:
        set_teacher_mode(False)


def test_the_rule_set_comparison_in_english():
    from bohnteach.render.comparison import comparison_html

    page = comparison_html(["amigo", "online"], lang=_en())
    assert 'lang="en"' in page and 'data-topic="Drittes Feld"' in page  # German keys stay for scripts
    assert no_german([html_to_text(page)]) == []
    german = comparison_html(["amigo", "online"])
    assert 'lang="de"' in german and "Drittes Feld</th>" in german.replace('<span class="bt-ids">', "</th>")


def test_every_chart_of_the_lessons_in_english():
    from bohnteach.maths.montecarlo import Runs, simulate_count, simulate_wait
    from bohnteach.render import charts

    with speaking(_en()):
        figures = [
            charts.bohnometer_chart(), charts.coins_per_card_chart(), charts.marginal_value_chart(),
            charts.deck_chart(), charts.deck_comparison_chart(), charts.reveal_chart(),
            charts.count_distribution_chart("Blaue Bohne", 3,
                                            simulated=simulate_count("Blaue Bohne", 3, runs=Runs(200, 1))),
            charts.waiting_time_chart(["Blaue Bohne", "Sojabohne"],
                                      simulated=simulate_wait("Blaue Bohne", runs=Runs(200, 1))),
        ]
    texts = [t for fig in figures for t in figure_texts(fig)]
    assert no_german(texts) == []
    assert all(fig.layout.separators == ".," for fig in figures)


def test_numbers_in_the_readers_style_and_german_unchanged():
    from bohnteach.content.lesson_facts import facts_for
    from bohnteach.render.numbers import integer, number, percent

    f = facts_for("02_Zwei_Karten_aufdecken")
    assert "{f.p_garten_zwei:dec4} {f.p_garten_zwei:pct2} {f.c_alle_2:int}".format(f=f) == "0,1126 11,26 % 5.356"
    with speaking("en"):
        assert "{f.p_garten_zwei:dec4} {f.p_garten_zwei:pct2} {f.c_alle_2:int}".format(f=f) == "0.1126 11.26% 5,356"
        assert (number(Fraction(12345, 10), 1), percent(Fraction(1, 8), 0), integer(10_000)) == \
            ("1,234.5", "13%", "10,000")
    assert (number(Fraction(12345, 10), 1), percent(Fraction(1, 8), 0), integer(10_000)) == \
        ("1.234,5", "13 %", "10.000")


def test_english_answers_are_read_with_a_decimal_point():
    from bohnteach.widgets.questions import NumberQuestion

    q = NumberQuestion("x", answer=Fraction(3, 8), tolerance=Fraction(1, 1000), probability=True, lang="en")
    assert q.submit("0.375").correct and q.submit("37.5%").correct
    fb = q.submit("abc")
    assert fb.status == "invalid" and "is not a number" in fb.message and "0.375" in fb.message
    assert "±0.001" in q.note.value


def test_the_beanometer_chapters_picker_and_quiz_in_english(monkeypatch):
    """The beanometer chapter's curve picker and coin quiz (site/bohnometer_page.py): a
    strict translator, every kind of answer (empty, unreadable, wrong twice with the hint,
    right), the chart; and the German quiz as it was."""
    from bohnteach.site import bohnometer_page as chapter

    figures: list = []
    monkeypatch.setattr(chapter, "show_figure", lambda fig, *a, **k: figures.append(fig))
    picker = chapter.CurvePicker(lang=_en())
    texts = widget_texts(picker.widget)
    picker._set_all(False)
    texts += widget_texts(picker.widget)
    assert "Choose at least one variety." in picker.message.value
    picker._set_all(True)
    quiz = chapter.CoinQuiz(seed=1, lang=_en())
    for cards in (1, 6):  # no step reached, then a step
        quiz.new_task("stink", cards)
        texts += [quiz.submit(""), quiz.submit("zwei?")]
        for wrong in ("17", "18"):
            texts.append(quiz.submit(wrong))
        assert "Hint:" in quiz.feedback.value
        assert "Right!" in quiz.submit(str(quiz.answer))
        texts += widget_texts(quiz.widget)
    assert figures, "the chart was drawn"
    texts += [t for fig in figures for t in figure_texts(fig)]
    assert no_german([html_to_text(t) for t in texts]) == []
    german = chapter.CoinQuiz(seed=1)
    german.new_task("stink", 6)
    german.submit("2")
    assert "6 Stinkbohnen erreichen die Stufe „5 → 2“: 2 Taler. Weiter mit „Neue Aufgabe“." in german.feedback.value
