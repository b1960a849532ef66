"""Lessons for classes (tutorials/) and the site chapter 12_Bohnometer.

1. Every number a lesson states is right: ``lesson_facts`` against an independent exact
   computation (math.comb, written out here), and every number in a notebook's markdown
   is one of that lesson's facts at the precision the prose shows – a typo fails.
2. Simulations agree with the exact answers within a stated tolerance.
3. The exercise widgets accept right answers in every format (fraction, comma, dot,
   percent) and reject wrong ones – through ``text.value`` + ``button.click()`` – and the
   teacher solutions are hidden by default.
4. The notebooks are thin, carry no outputs or widget state, and link where they should.

The notebooks themselves run under nbval:
``python -m pytest --nbval-lax tutorials/ notebooks/12_Bohnometer.ipynb``.
"""
from __future__ import annotations

import json
import math
import os
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from bohnteach.widgets import questions as ex
from bohnteach.render.words import de_number, de_percent
from bohnteach.widgets.failure import guard
from bohnteach.content.chapters import LESSONS
from bohnteach.content.lesson_facts import FACTS, SEED_FILE, facts_for
from bohnteach.game.errors import source_title

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = ROOT / "tutorials"
LESSON_FILES = [TUTORIALS / f"{name}.ipynb" for name, _title in LESSONS]
BOHNOMETER = ROOT / "notebooks" / "12_Bohnometer.ipynb"
ALL_NOTEBOOKS = [*LESSON_FILES, BOHNOMETER]

SOURCE = source_title(SEED_FILE)
"""The base-game rulebook as the lessons cite it."""


@pytest.fixture(autouse=True)
def student_mode(monkeypatch):
    """Every test starts in the students' view (no teacher mode from outside)."""
    monkeypatch.delenv("BOHNTEACH_LEHRKRAFT", raising=False)
    monkeypatch.delenv("BOHNTEACH_LEHRKRAFT_CODE", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setattr(ex, "_TEACHER", None)
    yield


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def markdown_of(path: Path) -> str:
    cells = load(path)["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


# --------------------------------------------------------------------------- 1a. facts


def F(lesson: str):
    return facts_for(lesson)


def test_lesson_facts_cover_every_lesson():
    assert [p.stem for p in LESSON_FILES] == [k for k in FACTS if k[0] == "0"]
    assert len(LESSON_FILES) >= 5


def test_staircase_facts():
    f = F("01_Bohnentreppe")
    stairs = [20, 18, 16, 14, 12, 10, 8, 6]
    got = [f[k].value for k in ("n_blau", "n_feuer", "n_stink", "n_brech", "n_soja",
                                "n_augen", "n_rot", "n_garten")]
    assert got == stairs
    assert f.karten.value == sum(stairs) == 104 and f.sorten.value == 8 and f.stufe.value == 2
    assert f.mittel.value == 13 == (20 + 6) / 2
    assert f.p_blau.value == Fraction(20, 104) and f.p_blau.dec(4) == "0,1923"
    assert f.p_garten.value == Fraction(6, 104) and f.p_garten.pct(1) == "5,8 %"
    assert f.p_feuer.value == Fraction(18, 104)
    assert f.verhaeltnis_blau_garten.value == Fraction(10, 3)
    assert f.verhaeltnis_feuer_garten.value == 3
    assert f.p_blau_oder_rot.value == Fraction(28, 104)
    assert f.p_top4.value == Fraction(20 + 18 + 16 + 14, 104)
    assert f.p_falsch_sorten.value == Fraction(1, 8)


def test_two_cards_facts():
    f = F("02_Zwei_Karten_aufdecken")
    assert f.c_alle_2.value == comb(104, 2) == 5356
    assert f.c_nicht_garten_2.value == comb(98, 2) == 4753
    p = 1 - Fraction(comb(98, 2), comb(104, 2))
    assert f.p_garten_zwei.value == p == Fraction(603, 5356)
    assert abs(float(p) - 0.1126) < 5e-5  # the number: ≈ 0.1126
    assert f.p_garten_zwei.dec(4) == "0,1126" and f.p_garten_zwei.pct(2) == "11,26 %"
    assert f.p_kein_garten_zwei.value == Fraction(98, 104) * Fraction(97, 103)
    assert f.falsch_addiert.value == Fraction(12, 104)
    # the naive sum counts "both cards are Gartenbohnen" twice
    assert f.falsch_addiert.value - f.p_garten_zwei.value == f.p_beide_garten.value
    assert f.p_beide_garten.value == Fraction(comb(6, 2), comb(104, 2))
    assert f.p_blau_zwei.value == 1 - Fraction(comb(84, 2), comb(104, 2))
    assert f.p_genau_ein_blau_drei.value == Fraction(20 * comb(84, 2), comb(104, 3))
    assert f.c_alle_3.value == comb(104, 3)
    assert f.p_kein_blau_start.value == Fraction(comb(84, 5), comb(104, 5))
    assert f.e_blau_start.value == Fraction(5 * 20, 104)
    assert f.p_garten_zwei_gesehen.value == 1 - Fraction(comb(98, 2), comb(102, 2))


def test_field_value_facts():
    f = F("03_Was_bringt_ein_Feld")
    # the Stinkbohne meter as the seed states it: 1–2 → 0, 3–4 → 1, 5–6 → 2, 7 → 3, 8+ → 4
    assert [f[f"stink_{i}"].value for i in range(1, 5)] == [3, 5, 7, 8]
    assert [f[f"blau_{i}"].value for i in range(1, 5)] == [4, 6, 8, 10]
    assert f.blau_sieben.value == 2 and f.stink_leer.value == 0 and f.stink_sechs_wert.value == 2
    assert f.stink_acht_pro_karte.value == Fraction(4, 8)
    assert f.blau_zehn_pro_karte.value == Fraction(4, 10)
    # expected value: 4 Stinkbohnen on the field, 12 of the 100 unknown cards are Stinkbohnen
    p0 = Fraction(comb(88, 2), comb(100, 2))
    p1 = Fraction(12 * 88, comb(100, 2))
    p2 = Fraction(comb(12, 2), comb(100, 2))
    assert (f.p_null.value, f.p_eins.value, f.p_zwei.value) == (p0, p1, p2)
    assert p0 + p1 + p2 == 1
    assert f.erwartung_warten.value == p0 * 1 + p1 * 2 + p2 * 2 == Fraction(92, 75)
    assert f.gewinn_warten.value == Fraction(92, 75) - 1
    assert f.e_stink_zwei.value == Fraction(2 * 12, 100)
    assert f.stink_neunte.value == 0


def test_compute_or_simulate_facts():
    f = F("04_Rechnen_oder_simulieren")
    p = 603 / 5356
    assert math.isclose(float(f.se.value), math.sqrt(p * (1 - p) / 10_000), rel_tol=1e-9)
    assert f.zwei_se.dec(4) == "0,0063"
    assert math.isclose(float(f.zwei_se_klein.value), 2 * math.sqrt(p * (1 - p) / 100), rel_tol=1e-9)
    assert f.fair.value == Fraction(1, 4)
    assert math.isclose(float(f.zwei_se_sieg.value), 2 * math.sqrt(0.25 * 0.75 / 200), rel_tol=1e-9)
    assert f.faktor_genauer.value ** 2 == f.faktor_n.value
    assert f.faktor_halb.value * f.durchlaeufe_viertel.value == f.durchlaeufe.value


def test_trading_facts():
    f = F("05_Handeln_lohnt_sich")
    stink = lambda n: sum(1 for need in (3, 5, 7, 8) if n >= need)  # noqa: E731
    red = lambda n: sum(1 for need in (2, 3, 4, 5) if n >= need)  # noqa: E731
    garden = lambda n: {0: 0, 1: 0, 2: 2}.get(n, 3)  # noqa: E731
    assert f.ben_gewinn.value == stink(5) - stink(4) == 1
    assert f.clara_gewinn.value == stink(6) - stink(5) == 0
    assert f.david_gewinn.value == stink(3) - stink(2) == 1
    assert f.anna_stink_wert.value == stink(1) == 0
    assert f.anna_gewinn.value == garden(3) - garden(2) == 1
    assert f.summe_gewinn.value == 2
    assert f.clara_rot_gewinn.value == red(4) - red(3) == 1
    assert f.ben_stink_klein_wert.value == stink(2) == 0
    assert (f.abstand_ohne.value, f.abstand_mit.value) == (-3, -1)


def test_bohnometer_page_facts():
    f = F("12_Bohnometer")
    assert [f[f"stink_{i}"].value for i in range(1, 5)] == [3, 5, 7, 8]
    assert f.blau_sieben.value == 2 and f.garten_1.value == 0


# --------------------------------------------------------------------------- 1b. prose

#: Numbers that label something instead of stating a quantity.
LABEL = re.compile(r"\b(Lektion|Lektionen|Aufgabe|Abschnitt|Phase|Phasen|Kapitel|Platz|Lernziel)\s+\d+(\s*(und|bis|–|-)\s*\d+)?")
BINOMIAL = re.compile(r"C\(\s*(\d+)\s*,\s*(\d+)\s*\)")
NUMBER = r"\d{1,3}(?:\.\d{3})+|\d+(?:,\d+)?"
FRACTION = re.compile(rf"(?<![\d,.)])({NUMBER})\s*/\s*({NUMBER})(?![\d,]|\s*\()")
TOKEN = re.compile(rf"(≈\s*|etwa\s+|ungefähr\s+|rund\s+)?(?<![\w,.])({NUMBER})(?!\w)\s*(%|Prozentpunkte?)?")


def _num(text: str) -> tuple[Fraction, int]:
    """German number text → (value, decimals shown)."""
    text = text.replace(".", "")
    whole, _, frac = text.partition(",")
    return Fraction(whole + ("." + frac if frac else "")), len(frac)


def _rounded(x: Fraction, digits: int) -> Fraction:
    """Round half up to ``digits`` decimals."""
    scale = 10 ** digits
    return Fraction(math.floor(abs(x) * scale + Fraction(1, 2)), scale)


def prose_numbers(markdown: str) -> list[tuple[str, str, object]]:
    """(kind, text, value) for every number in ``markdown`` that states a quantity.
    kind "int"/"dec": value = (Fraction, decimals, approx); "frac": (num, den)."""
    text = re.sub(r"`[^`]*`", " ", markdown)            # code spans: typed examples, file names
    text = re.sub(r"\]\([^)]*\)", "]", text)            # link targets
    text = re.sub(r"<[^>]+>", " ", text)                # HTML tags
    text = LABEL.sub(" ", text)
    found: list[tuple[str, str, object]] = []
    for m in BINOMIAL.finditer(text):
        found += [("int", m.group(1), (Fraction(m.group(1)), 0, False)),
                  ("int", m.group(2), (Fraction(m.group(2)), 0, False))]
    text = BINOMIAL.sub(" ", text)
    for m in FRACTION.finditer(text):
        found.append(("frac", m.group(0), (_num(m.group(1))[0], _num(m.group(2))[0])))
    text = FRACTION.sub(" ", text)
    for m in TOKEN.finditer(text):
        value, digits = _num(m.group(2))
        if m.group(3):  # percent or percentage points
            value, digits = value / 100, digits + 2
        kind = "dec" if digits else "int"
        found.append((kind, m.group(0).strip(), (value, digits, bool(m.group(1)))))
    return found


def matches(kind: str, value: object, facts: list[Fraction]) -> bool:
    if kind == "frac":
        num, den = value  # type: ignore[misc]
        return (den != 0 and num / den in facts) or (num in facts and den in facts)
    x, digits, approx = value  # type: ignore[misc]
    if kind == "int" and not approx:
        return any(abs(f) == x for f in facts)
    return any(_rounded(f, digits) == x for f in facts)


def test_number_parser_sees_what_it_should():
    found = prose_numbers("Lektion 2: 1 − C(98, 2)/C(104, 2) ≈ 0,1126 oder 11,26 % von "
                          "10.000 Durchläufen; 20/104 und `3/8`, 6,1 Prozentpunkte.")
    texts = [t for _k, t, _v in found]
    assert "98" in texts and "104" in texts and "20/104" in texts
    assert any(t.startswith("≈") and "0,1126" in t for t in texts)
    assert "11,26 %" in texts and "10.000" in texts and "6,1 Prozentpunkte" in texts
    assert not any("3/8" in t for t in texts)
    assert "2:" not in texts and all(t != "2" or True for t in texts)


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_number_in_the_prose_is_a_fact(path: Path):
    """A typo in a notebook's text (20/140, 0,1162, 11,3 % where 11,26 % is meant)
    fails here: each number must be a fact of the lesson at the precision shown."""
    facts = facts_for(path.stem).values_exact()
    wrong = [text for kind, text, value in prose_numbers(markdown_of(path))
             if not matches(kind, value, facts)]
    assert wrong == [], f"{path.name}: Zahlen im Text, die keine Fakten der Lektion sind: {wrong}"


def test_a_typo_in_prose_is_caught():
    facts = facts_for("02_Zwei_Karten_aufdecken").values_exact()
    for typo in ("1 − C(98, 2)/C(104, 2) ≈ 0,1162", "etwa 12,3 %", "20/140", "C(99, 2)"):
        bad = [t for k, t, v in prose_numbers(typo) if not matches(k, v, facts)]
        assert bad, typo
    good = "1 − C(98, 2)/C(104, 2) = 603/5356 ≈ 0,1126 ≈ 11,26 %"
    assert [t for k, t, v in prose_numbers(good) if not matches(k, v, facts)] == []


# --------------------------------------------------------------------------- 2. simulations

#: A seeded simulation must land within this many standard errors of the exact answer.
SE_TOLERANCE = 4


def test_simulated_reveal_agrees_with_exact():
    from bohnteach.maths.montecarlo import Runs, simulate_reveal

    exact = float(F("02_Zwei_Karten_aufdecken").p_garten_zwei.value)
    for seed in (0, 1, 2):
        est = simulate_reveal("Gartenbohne", runs=Runs(20_000, seed=seed))
        se = math.sqrt(exact * (1 - exact) / est.trials)
        assert abs(est.estimate - exact) <= SE_TOLERANCE * se, (seed, est.estimate)


def test_simulated_harvest_agrees_with_expected_value():
    from bohnteach.maths.montecarlo import Runs, simulate_harvest_value
    from bohnteach.maths.probability import Pile

    f = F("03_Was_bringt_ein_Feld")
    est = simulate_harvest_value("Stinkbohne", 4, 2, Pile(seen={"Stinkbohne": 4}), Runs(20_000, seed=3))
    assert abs(est.estimate - float(f.erwartung_warten.value)) <= SE_TOLERANCE * est.standard_error


def test_drawing_experiment_agrees_with_laplace():
    from bohnteach.lessons.staircase import draw_counts

    n = 20_000
    seen = draw_counts(n, seed=5)
    counts = {"blue": 20, "chili": 18, "stink": 16, "green": 14, "soy": 12, "blackeye": 10,
              "red": 8, "garden": 6}
    for key, c in counts.items():
        p = c / 104
        assert abs(seen[key] / n - p) <= SE_TOLERANCE * math.sqrt(p * (1 - p) / n), key


def test_lesson4_table_shows_the_funnel_closing():
    from bohnteach.lessons.compute_or_simulate import estimate_rows, reveal_estimate

    est = reveal_estimate(10_000, seed=1)
    rows = estimate_rows(est, Fraction(603, 5356))
    assert [r[0] for r in rows] == ["10", "100", "1.000", "10.000"]
    last_dev = float(rows[-1][2].replace(",", "."))
    last_band = float(rows[-1][3].strip("± ").replace(",", "."))
    assert last_band == pytest.approx(100 * float(F("04_Rechnen_oder_simulieren").zwei_se.value), abs=0.01)
    assert last_dev <= 2 * last_band


def test_whole_games_feed_the_lesson4_charts():
    from bohnteach.lessons import compute_or_simulate as L

    stats = L.run_whole_games(games=12, seed=0)
    r = stats.result
    assert r.games == 12 and sum(r.win_share) == pytest.approx(1.0)
    assert sum(b.y[i] for b in L.turns_figure(stats).data for i in range(len(b.y))) == 12
    seats = L.seats_figure(stats)
    assert list(seats.data[0].y) == pytest.approx(r.win_share)
    assert "Platz 1" in L.GameStats(r).summary_html()
    qs = L.questions(stats)
    reading = qs[-2]
    assert reading.submit(str(round(r.mean_turns))).correct or abs(round(r.mean_turns) - r.mean_turns) > 1


# --------------------------------------------------------------------------- 3. exercise widgets


def lesson_questions(name: str):
    from bohnteach.lessons import (
        compute_or_simulate,
        field_value,
        staircase,
        trading,
        two_cards,
    )

    module = {"01": staircase, "02": two_cards, "03": field_value, "04": compute_or_simulate,
              "05": trading}[name[:2]]
    return module.questions()


def typed_forms(q: ex.NumberQuestion) -> list[str]:
    """The right answer as a learner could type it (all must be accepted)."""
    a = q.answer
    forms = [f"{a.numerator}/{a.denominator}"]
    digits = 4 if q.tolerance else 6
    if a.denominator == 1:
        forms.append(str(a.numerator))
    else:
        comma = de_number(a, digits)
        forms += [comma, comma.replace(",", ".")]
    if q.probability:
        forms += [de_percent(a, 2), de_percent(a, 2).replace(",", ".").replace(" %", "%")]
    return forms


@pytest.mark.parametrize("lesson", [p.stem for p in LESSON_FILES])
def test_number_questions_accept_every_format_and_reject_wrong(lesson):
    numbers = [q for q in lesson_questions(lesson) if isinstance(q, ex.NumberQuestion)]
    assert numbers
    for q in numbers:
        for text in typed_forms(q):
            fb = q.submit(text)
            assert fb.correct, (lesson, q.prompt, text, fb.message)
            assert "Richtig!" in q.feedback.value
        wrong = q.answer + 10 * q.tolerance + Fraction(1, 20) + (1 if q.tolerance == 0 else 0)
        fb = q.submit(de_number(wrong, 4))
        assert fb.status == "wrong", (lesson, q.prompt)
        assert "Richtig" not in q.feedback.value


@pytest.mark.parametrize("lesson", [p.stem for p in LESSON_FILES])
def test_choice_questions_accept_only_the_right_option(lesson):
    for q in [q for q in lesson_questions(lesson) if isinstance(q, ex.ChoiceQuestion)]:
        for option in q.options:
            fb = q.submit(option)
            assert fb.correct == (option == q.correct), (lesson, option)


@pytest.mark.parametrize("lesson", [p.stem for p in LESSON_FILES])
def test_solutions_are_hidden_by_default_and_shown_to_teachers(lesson):
    qs = lesson_questions(lesson)
    assert all(q.solution is not None for q in qs)
    for q in qs:
        assert q.solution.hidden and q.solution.content.value == ""
        assert q.worked.value == ""  # not even the worked solution before a right answer
    ex.set_teacher_mode(True)
    try:
        for q in qs:
            assert not q.solution.hidden and q.solution.content.value == ""
            q.solution.toggle.value = True
            assert q.solution.shown and "bt-q-solution" in q.solution.content.value
        ex.set_teacher_mode(False)
        for q in qs:
            assert q.solution.hidden and not q.solution.shown
    finally:
        ex.set_teacher_mode(False)


def test_teacher_mode_from_the_page_address(monkeypatch):
    assert ex.teacher_mode_from_url("") is None and not ex.teacher_mode()
    assert ex.teacher_mode_from_url("lehrkraft=0") is None and not ex.teacher_mode()
    banner = ex.teacher_mode_from_url("?lehrkraft=1")
    assert banner is not None and "Lehrkraft-Ansicht" in banner.value and ex.teacher_mode()
    ex.set_teacher_mode(False)
    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "bohne7")
    assert not ex.teacher_wanted("lehrkraft=1")
    assert ex.teacher_wanted("lehrkraft=bohne7")
    monkeypatch.setenv("QUERY_STRING", "lehrkraft=bohne7")
    assert ex.teacher_mode_from_url() is not None  # outside Voilà: QUERY_STRING


def test_a_fresh_voila_kernel_reads_its_address_without_importing_voila():
    """Voilà puts the request into a fresh kernel's environment. Importing ``voila`` to read
    it cost every visitor's kernel 6-8 CPU s (jupyter_server → jsonschema → 38 lark grammars)."""
    import subprocess
    import sys

    code = ("import sys; from bohnteach.widgets.questions import request_query; "
            "print(request_query()); print(sorted(m for m in sys.modules if m.split('.')[0] "
            "in ('voila', 'jupyter_server', 'jsonschema')))")
    env = {**os.environ, "VOILA_KERNEL_ID": "k1", "VOILA_PREHEAT": "False",
           "QUERY_STRING": "lektion=01_Bohnentreppe&lehrkraft=1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=120).stdout.splitlines()
    assert out == ["lektion=01_Bohnentreppe&lehrkraft=1", "[]"]


def test_a_preheated_kernel_waits_for_its_visitors_address(monkeypatch):
    """A preheated kernel learns the address when Voilà hands it out: one JSON message on
    ``voila/query/<kernel id>`` (Voilà's RequestInfoSocketHandler); until then it waits."""
    import asyncio
    import json
    import threading

    from websockets.asyncio.server import serve

    asked: list[str] = []
    ready, stop = threading.Event(), threading.Event()
    port_box: list[int] = []

    async def answer(socket) -> None:
        asked.append(socket.request.path)
        await asyncio.sleep(0.3)  # the visitor comes a little later
        await socket.send(json.dumps({"QUERY_STRING": "kapitel=02_Phase_1&lehrkraft=1",
                                      "SCRIPT_NAME": "/"}))

    async def server() -> None:
        async with serve(answer, "127.0.0.1", 0) as running:
            port_box.append(running.sockets[0].getsockname()[1])
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=lambda: asyncio.run(server()), daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        for name, value in {"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "abc-1", "VOILA_APP_IP": "127.0.0.1",
                            "VOILA_APP_PORT": str(port_box[0]), "VOILA_SERVER_URL": "/"}.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
        for name in ("QUERY_STRING", "SCRIPT_NAME"):  # set by the answer; undone after the test
            monkeypatch.setenv(name, "")
        assert ex.request_query() == "kapitel=02_Phase_1&lehrkraft=1"
        assert asked == ["/voila/query/abc-1"] and os.environ["SCRIPT_NAME"] == "/"
        # asked again (a classroom widget on the page, after the last cell): the kernel knows
        # it; Voilà would not answer a second time and the kernel hung with every later click
        assert ex.request_query() == "kapitel=02_Phase_1&lehrkraft=1"
        assert asked == ["/voila/query/abc-1"]
        stop.set()
        thread.join(10)
        monkeypatch.setenv("VOILA_PREHEAT", "True")  # the server gone: no teacher mode, no error
        assert ex.request_query() == ""
    finally:
        stop.set()
        thread.join(10)


def test_teacher_mode_from_the_environment(monkeypatch):
    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT", "1")
    sol = ex.TeacherSolution("Lösung")
    assert not sol.hidden


def test_parse_answer_formats():
    third = Fraction(1, 3)
    assert ex.parse_answer("1/3") == [third]
    assert ex.parse_answer("0,125") == ex.parse_answer("0.125") == [Fraction(1, 8)]
    assert ex.parse_answer("12,5 %") == ex.parse_answer("12.5%") == [Fraction(1, 8)]
    assert ex.parse_answer("10.000") == [Fraction(10), Fraction(10_000)]  # both readings
    assert ex.parse_answer("10 000") == [Fraction(10_000)]
    assert ex.parse_answer("−2") == [Fraction(-2)]
    for bad in ("", "abc", "1/0", "%", "1,2,3"):
        with pytest.raises(ex.AnswerFormatError):
            ex.parse_answer(bad)


def test_helpful_hints():
    p = Fraction(603, 5356)
    q = ex.NumberQuestion("?", p, Fraction(1, 1000), probability=True, hint="Gegenereignis!",
                          mistakes={Fraction(12, 104): "doppelt gezählt"})
    assert "doppelt gezählt" in q.submit("12/104").message
    assert "Prozentzeichen" in q.submit("11,26").message       # forgot the %
    assert "Gegenwahrscheinlichkeit" in q.submit("0,8874").message
    assert "Gegenereignis!" in q.submit("0,5").message          # the hint after two tries
    assert q.submit("abc").status == "invalid" and q.attempts == 4
    assert "Tipp" in q.submit("0,6").message


def test_a_failing_callback_shows_a_friendly_box():
    import ipywidgets as w

    box = w.HTML()

    @guard(box)
    def broken():
        raise ValueError("Das geht so nicht.")

    assert broken() is None
    assert "bt-box bt-error" in box.value and "Das geht so nicht." in box.value
    out = w.HTML()
    guard(out)(lambda: 1 / 0)()
    assert "schiefgegangen" in out.value and "Traceback" not in out.value


def test_choice_widget_without_selection_asks_to_choose():
    q = ex.ChoiceQuestion("?", ["a", "b"], "a")
    q.button.click()
    assert q.last_feedback().status == "invalid"


# --------------------------------------------------------------------------- 3b. Bohnometer page


@pytest.fixture
def shown_figures(monkeypatch):
    shown: list = []  # displaying needs a kernel to land in the Output; record it instead
    monkeypatch.setattr("bohnteach.site.bohnometer_page.show_figure",
                        lambda fig, *a, **k: shown.append(fig))
    return shown


def test_coin_quiz_checks_with_harvest_value(shown_figures):
    from bohnteach.site import bohnometer_page as page
    from bohnteach.game.beans import find_variety, harvest_value
    from bohnteach.game.rulesets import find_ruleset

    quiz = page.CoinQuiz(seed=1)
    for key in find_ruleset("amigo").varieties:
        v = find_variety(key)
        for n in range(1, max(v.meter) + 2):
            quiz.new_task(v.de, n)
            right = harvest_value(v, n)
            assert "bt-q-wrong" in quiz.submit(str(right + 1))
            assert "Richtig!" in quiz.submit(str(right)), (v.de, n)
    assert quiz.right == quiz.asked > 0
    quiz.new_task()
    assert 1 <= quiz.cards <= max(quiz.variety.meter) + 1
    assert "bt-q-invalid" in quiz.submit("zwei")


def test_curve_picker_redraws_the_chosen_varieties(shown_figures):
    from bohnteach.site import bohnometer_page as page

    picker = page.CurvePicker()
    assert [t.name for t in shown_figures[-1].data] == ["Blaue Bohne", "Stinkbohne", "Gartenbohne"]
    picker.boxes["red"].value = True
    assert "Rote Bohne" in [t.name for t in shown_figures[-1].data]
    picker.none_button.click()
    assert "mindestens eine Sorte" in picker.message.value
    picker.ruleset.value = "online"
    assert "coffee" in picker.boxes
    picker.all_button.click()
    assert len(shown_figures[-1].data) == len(picker.boxes) == 11


# --------------------------------------------------------------------------- 4. notebooks


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_thin_and_stored_without_outputs(path: Path):
    nb = load(path)
    assert "widgets" not in nb.get("metadata", {}), "gespeicherter Widget-Zustand"
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert 3 <= len(code) <= 16
    for cell in code:
        assert cell.get("outputs") == [] and cell.get("execution_count") is None
        src = "".join(cell["source"])
        assert len(src.strip().splitlines()) <= 3, src
        assert "def " not in src and "ipywidgets" not in src and "lambda" not in src


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.stem)
def test_lessons_have_goals_sources_and_links(path: Path):
    text = markdown_of(path)
    first = "".join(load(path)["cells"][0]["source"])
    assert first.startswith(f"# Lektion {int(path.stem[:2])}: ")
    assert "## Lernziele" in text and "## Aufgaben" in text
    assert SOURCE in text, "die Quelle (Regelheft und Abschnitt) fehlt"
    links = re.findall(r"\]\(([^)]+\.ipynb)\)", text)
    assert "../notebooks/00_Start.ipynb" in links
    i = LESSON_FILES.index(path)
    if i > 0:
        assert LESSON_FILES[i - 1].name in links
    if i + 1 < len(LESSON_FILES):
        assert LESSON_FILES[i + 1].name in links
    for link in links:
        assert (path.parent / link).resolve().is_file(), link
    code = "".join("".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "code")
    assert "lesson.start()" in code and "lesson.exercises(" in code
    last = [c for c in load(path)["cells"] if c["cell_type"] == "code"][-1]
    assert "".join(last["source"]).strip() == "lesson.end()", "end() muss die letzte Zelle sein"


def test_bohnometer_page_matches_the_site():
    from bohnteach.site.pages import find_page

    nb = load(BOHNOMETER)
    first = "".join(nb["cells"][0]["source"]).strip()
    assert first == "# " + find_page("12_Bohnometer").title
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert 'page_header("12_Bohnometer")' in code and 'nav_links("12_Bohnometer")' in code
    assert code.index("overview()") < code.index("curves()")  # plain chart before the Output one
    assert SOURCE in markdown_of(BOHNOMETER)


def _run_cells(path: Path) -> list[object]:
    """Execute a notebook's code cells in this process (kernel cwd = the notebook's
    folder) and return the value of each cell's last expression."""
    import ast
    import os

    results: list[object] = []
    scope: dict = {}
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        for cell in load(path)["cells"]:
            if cell["cell_type"] != "code":
                continue
            tree = ast.parse("".join(cell["source"]))
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, str(path), "exec"), scope)
            if last is not None:
                results.append(eval(compile(ast.Expression(last.value), str(path), "eval"), scope))
    finally:
        os.chdir(here)
    return results


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_cells_build_without_error_boxes(path: Path, shown_figures):
    """nbval only sees exceptions; our builders turn failures into friendly boxes. So run
    the cells here and make sure no box says something went wrong."""
    import plotly.graph_objects as go

    for value in _run_cells(path):
        text = ""
        if hasattr(value, "data") and isinstance(value.data, str):
            text = value.data
        elif hasattr(value, "value") and isinstance(value.value, str):
            text = value.value
        assert not re.search(r'class="[^"]*\bbt-error\b', text), text[:500]
        assert not isinstance(value, go.FigureWidget)


def test_bot_statements_of_lessons_4_and_5_hold_for_the_bots():
    """Lesson 4: its bots „bieten nie etwas an“, so no trade happens and the coins stay
    low; lesson 5: the two bots that offer win clearly more than their half of the games,
    and the two that never offer still take offers that help them (trades happen)."""
    from bohnteach.lessons import compute_or_simulate, trading
    from bohnteach.maths.simulate import run_games

    quiet = run_games("amigo", 4, 40, 0, compute_or_simulate.BOTS)
    assert quiet.mean_trades == 0
    talk = run_games("amigo", 4, trading.TRADE_GAMES, 0, list(trading.TRADE_BOTS))
    traders = [i for i, b in enumerate(trading.TRADE_BOTS) if b == "trader"]
    assert sum(talk.win_share[i] for i in traders) > 0.7
    assert talk.mean_trades > 3
    assert min(talk.mean_scores[i] for i in traders) > max(quiet.mean_scores) + 2
