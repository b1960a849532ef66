"""The class room in English (issue 56): the teacher's panel, the projector and the pupil's
panel built and driven with a strict English translator (a missing message fails), every
word they show scanned for German (tests/german_scan.py); a class whose teacher reads
German and whose pupil reads English; the store's refusals worded where shown; the teacher
switch, the teacher notes and the teacher guide in English. The German panels are the
business of tests/test_classroom_panel.py (unchanged)."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from bohnteach.classroom.store import WORDS as REFUSALS, ClassInfo, ClassroomError, Entry, Pool, Store
from bohnteach.i18n import translator
from bohnteach.widgets.classroom import (
    Classroom, Projector, class_link, classroom, local_time, parse_estimate, pool_figure,
    projector_address, summary_html,
)
from german_scan import german_words, html_to_text
from test_classroom_panel import (  # noqa: F401 - store and _no_teacher_mode are fixtures here too
    LESSON, _buttons, _click, _no_teacher_mode, _remembering, _texts_inputs, _until, store)

ROOT = Path(__file__).resolve().parents[1]
STRICT = translator("en", strict=True)
TEACHER = f"lektion={LESSON}&lehrkraft=1"


def _shown(widget) -> str:
    """Everything a reader sees or hears of a panel: HTML, button labels and tooltips, the
    fields' labels and placeholders, the charts' titles, axes, legends and notes."""
    import ipywidgets as w

    out = [_shown(child) for child in getattr(widget, "children", ())]
    if isinstance(widget, w.HTML):
        out.append(" ".join(html_to_text(widget.value).split()))
    if isinstance(widget, w.Button):
        out += [widget.description, widget.tooltip or ""]
    if isinstance(widget, w.Text):
        out += [widget.description, widget.placeholder]
    if isinstance(widget, w.Output):
        for output in widget.outputs:
            out.append(_figure_words(output.get("data", {}).get("application/vnd.plotly.v1+json", {})))
    return "\n".join(out)


def _figure_words(spec: dict) -> str:
    layout = spec.get("layout", {})
    words = [str(layout.get("title", {}).get("text", ""))]
    words += [str(layout.get(axis, {}).get("title", {}).get("text", "")) for axis in ("xaxis", "yaxis")]
    words += [str(trace.get("name", "")) for trace in spec.get("data", [])]
    words += [str(note.get("text", "")) for note in layout.get("annotations", [])]
    return "\n".join(words)


def _no_german(*panels, addresses: tuple[str, ...] = ()) -> str:
    """The panels' words, asserted free of German. Addresses (the class link, the
    projector's address: parameters, not words) are taken out first."""
    text = "\n".join(_shown(p.widget) for p in panels)
    for address in addresses:
        text = text.replace(address, " ")
    assert german_words(text) == [], text
    return text


def _stop(*panels) -> None:
    for panel in panels:
        panel._stop.set()


def _english_teacher(store: Store, lang=STRICT) -> Classroom:
    panel = Classroom(LESSON, store, query=TEACHER, lang=lang)
    _click(panel.widget, "Start a class" if lang is STRICT else "Klasse starten")
    assert panel.code and panel.token
    return panel


def _english_pupil(store: Store, code: str, nick: str = "", via_link: bool = True) -> Classroom:
    pupil = Classroom(LESSON, store, query=f"lektion={LESSON}" + (f"&klasse={code}" if via_link else ""),
                      lang=STRICT)
    code_in, nick_in = _texts_inputs(pupil.widget)[:2]
    if not via_link:
        code_in.value = code
    nick_in.value = nick
    _click(pupil.widget, "Join")
    return pupil


def test_a_class_in_english_from_start_to_end(store: Store) -> None:
    """Start, join (link and typed code), estimate, draw, the projector with „Nur Ergebnisse
    zeigen“, reveal, close, end – every word English, also what the polling threads write."""
    teacher = _english_teacher(store)
    link = class_link(LESSON, teacher.code)
    addresses = (link, projector_address(LESSON))
    anna = _english_pupil(store, teacher.code, "Anna")
    ben = _english_pupil(store, teacher.code.lower(), via_link=False)
    beamer = _remembering(Projector(LESSON, store, lang=STRICT), "lehrkraft", teacher.code, teacher.token)
    try:
        text = _no_german(teacher, anna, ben, beamer, addresses=addresses)
        assert "Class code" in text and "Open the projector view" in text and "PIN for a second device" in text
        assert "You are in the class" in text and " as Anna ." in text
        assert "Projector view: " in text and "Join in: open the link" in text
        _texts_inputs(anna.widget)[0].value = "12.5"
        assert "Your guess: 12.5%" in _shown(anna.widget)
        _click(anna.widget, "Send your guess")
        assert "Your guess has arrived: 12.5%" in _shown(anna.widget)
        _click(ben.widget, "Draw 100 rounds")
        assert "hits in 100 rounds" in _shown(ben.widget) and "sent to the class" in _shown(ben.widget)
        guess, experiment = teacher._views
        _until(lambda: "2 in the class, 1 answer." in guess.summary.value)
        _until(lambda: "Class average: <b>12.5%</b>" in _texts_of(beamer))
        _until(lambda: "Whole class: <b>" in _texts_of(beamer))
        _click(beamer.widget, "Show results only")
        assert "Show how to join again" in _shown(beamer.widget)
        assert "Class code" in beamer.state.value and "<b>open</b>" in beamer.state.value
        _click(guess.widget, "Reveal")
        assert "Exact: <b>" in guess.summary.value
        _until(lambda: "Revealed: guesses no longer count. Your guess was <b>12.5%</b>." in _texts_of(anna))
        _click(teacher.widget, "Close the class")
        assert "The class is <b>closed</b>" in teacher.state.value
        _texts_inputs(ben.widget)[0].value = "40"
        _click(ben.widget, "Send your guess")
        assert "The class is closed: your teacher is not taking any more answers." in _shown(ben.widget)
        _until(lambda: "<b>closed</b>" in beamer.state.value)
        _no_german(teacher, anna, ben, beamer, addresses=addresses)
        _click(teacher.widget, "End the class (delete everything)")
        assert "End the class? All members and answers will be deleted" in _shown(teacher.widget)
        _click(teacher.widget, "Yes, end and delete")
        assert "The class has ended; all its data has been deleted." in _shown(teacher.widget)
        _until(lambda: "no longer exists" in _texts_of(anna))
        _until(lambda: "This class no longer exists" in _texts_of(beamer))
        _no_german(teacher, anna, ben, beamer, addresses=addresses)
    finally:
        _stop(teacher, anna, ben, beamer)


def _texts_of(panel) -> str:
    """The raw HTML of a panel (what the assertions above look for)."""
    import ipywidgets as w

    def walk(widget) -> list[str]:
        out = [x for child in getattr(widget, "children", ()) for x in walk(child)]
        if isinstance(widget, w.HTML):
            out.append(widget.value)
        return out

    return "\n".join(walk(panel.widget))


def test_a_wrong_code_a_pupil_who_must_wait_and_a_pin_in_english(store: Store, monkeypatch) -> None:
    made = store.create_class()
    monkeypatch.setenv("HTTP_X_BOHNTEACH_CLIENT", "192.0.2.7")
    wrong = "ACDEFH" if made.code != "ACDEFH" else "ACDEFJ"
    for _ in range(5):
        pupil = _english_pupil(store, wrong, via_link=False)
        assert "There is no class with this code (or it has expired)." in _shown(pupil.widget)
    pupil = _english_pupil(store, wrong, via_link=False)
    text = _no_german(pupil)
    assert re.search(r"Too many wrong tries\. Please wait \d+ s and then try again\.", text)
    link = Classroom(LESSON, store, query=f"lektion={LESSON}&klasse={wrong}", lang=STRICT)
    assert "The link names the class" in _no_german(link)
    monkeypatch.setenv("HTTP_X_BOHNTEACH_CLIENT", "192.0.2.8")  # another pupil's device
    badly = _english_pupil(store, "AB", via_link=False)
    assert "is not a class code: a class code has 6 characters from" in _no_german(badly)
    nick = _english_pupil(store, made.code, "<b>x</b>")
    assert "A nickname may only have letters, digits, spaces and . - _ !" in _no_german(nick)
    # the PIN: shown to the teacher, refused when wrong, taken by the projector when right
    teacher = _english_teacher(store)
    _click(teacher.widget, "PIN for a second device")
    assert re.search(r"PIN for a second device: \d{3} \d{3} – valid until \d\d:\d\d, and only once",
                     _no_german(teacher, addresses=(class_link(LESSON, teacher.code), projector_address(LESSON))))
    pin = re.search(r'bt-klasse-pin">(\d{3} \d{3})<', teacher.pin.value).group(1)
    beamer = Projector(LESSON, store, query="", lang=STRICT)
    assert "<b>Projector view.</b>" in _texts_of(beamer)
    code_in, pin_in = _texts_inputs(beamer.widget)[:2]
    code_in.value, pin_in.value = teacher.code, "000000" if pin != "000 000" else "111111"
    _click(beamer.widget, "Take over")
    assert "That PIN is wrong (or it has expired)." in _no_german(beamer)
    pin_in.value = "12"
    _click(beamer.widget, "Take over")
    assert "The PIN has 6 digits." in _shown(beamer.widget)
    pin_in.value = pin
    _click(beamer.widget, "Take over")
    assert beamer.code == teacher.code and _buttons(beamer.widget, "Reveal")
    _no_german(beamer, addresses=(class_link(LESSON, teacher.code),))
    _stop(teacher, beamer)


@pytest.mark.parametrize("typed, words", [
    ("", "Please type in a number first."),
    ("abc", "I can’t read “abc” as a number. For example: 15, 15%, 0.15 or 3/8."),
    ("120", "Please type in a number from 0 to 100 %."),
    ("1" * 29, "That number is far too big."),
    ("1" * 40, "That is too long for a number."),
])
def test_bad_estimates_are_refused_in_english(store: Store, typed: str, words: str) -> None:
    made = store.create_class()
    pupil = _english_pupil(store, made.code)
    _texts_inputs(pupil.widget)[0].value = typed
    _click(pupil.widget, "Send your guess")
    assert words in _no_german(pupil)
    assert store.pool(made.code, made.key, "04_tipp").entries == ()
    _stop(pupil)


@pytest.mark.parametrize("typed, stored", [("12 percent", 12), ("12%", 12), ("0.375", 37.5), ("3/8", 37.5)])
def test_an_english_reader_types_an_estimate_as_english_readers_do(typed: str, stored: float) -> None:
    from bohnteach.classroom.activities import ACTIVITIES

    assert parse_estimate(typed, ACTIVITIES["04_tipp"]) == stored


def test_a_german_teacher_and_an_english_pupil_share_one_class(store: Store) -> None:
    """Each member's panel speaks its reader's language; the store holds numbers, no words."""
    teacher = _english_teacher(store, lang="de")
    pupil = _english_pupil(store, teacher.code, "Mia")
    try:
        _texts_inputs(pupil.widget)[0].value = "0,375"
        _click(pupil.widget, "Send your guess")
        assert "Your guess has arrived: <b>37.5%</b>" in _texts_of(pupil)
        guess = teacher._views[0]
        _until(lambda: "Mittelwert der Klasse: <b>37,5 %</b>" in guess.summary.value)
        assert "1 in der Klasse, 1 Abgabe." in guess.summary.value and "Mia" in guess.summary.value
        _click(guess.widget, "Auflösen")
        _until(lambda: "Revealed: guesses no longer count. Your guess was <b>37.5%</b>." in _texts_of(pupil))
        assert "Exakt: <b>" in guess.summary.value and "Auflösung verbergen" in _shown(teacher.widget)
        _no_german(pupil, addresses=(class_link(LESSON, teacher.code),))
        assert store.pool(teacher.code, teacher.token, "04_tipp").entries[0].value == 37.5
    finally:
        _stop(teacher, pupil)


def test_without_a_server_the_english_lesson_says_so(monkeypatch) -> None:
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DIR", raising=False)
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DB", raising=False)
    text = html_to_text(classroom(LESSON, lang=STRICT).value)
    assert "this version of the site runs without a server" in text and german_words(text) == []


_PARAMS = {"code": "XY", "alphabet": "A C D", "seconds": 8, "n": 100_000, "nick": "Mia",
           "low": 0.0, "high": 100.0, "unit": " %", "typed": "abc"}
_DETAIL = "„abc“ ist keine Zahl."
"""What the exercises' number reader says (German): German shows it for a typed estimate."""


@pytest.mark.parametrize("reason", sorted(REFUSALS))
def test_every_refusal_of_the_store_is_worded_in_english_and_stays_german_in_german(reason: str) -> None:
    read = reason in ("empty", "unreadable")
    err = ClassroomError(reason, **_PARAMS, **({"detail": _DETAIL} if read else {}))
    english = err.words(STRICT)
    assert english and german_words(english) == [] and "{" not in english
    german = REFUSALS[reason].format(**{**_PARAMS, "n": "100.000", "low": "0", "high": "100"})
    assert str(err) == err.words("de") == (_DETAIL if read else german)


def test_the_refusals_german_numbers_are_what_they_were() -> None:
    assert str(ClassroomError("trials", n=100_000)) == "Die Anzahl der Durchläufe muss zwischen 1 und 100.000 liegen."
    assert ClassroomError("trials", n=100_000).words("en") == "The number of runs must be between 1 and 100,000."
    assert str(ClassroomError("range", low=0.0, high=100.0, unit=" %")) == "Bitte gib eine Zahl von 0 bis 100 % ein."


def test_charts_and_numbers_in_english() -> None:
    from bohnteach.classroom.activities import ACTIVITIES

    info = ClassInfo("ACD479", 0, 1, "open")
    entries = (Entry("#1", 1, None, 12.5, None, 1), Entry("#2", 2, "Mia", 40, None, 2))
    pool = Pool(info, True, entries, 3)
    tipp = ACTIVITIES["04_tipp"]
    exact = Fraction(3, 8)
    text = _figure_words(pool_figure(tipp, pool, exact, lang=STRICT).to_plotly_json())
    assert "The class’s guesses" in text and "Guess (percent)" in text and "exact: 37.5%" in text
    summary = " ".join(html_to_text(summary_html(tipp, pool, exact, lang=STRICT)).split())
    assert "3 in the class, 2 answers." in summary and "Class average: 26.3%" in summary and "Who" in summary
    draws = (Entry("#1", 1, None, 40, 100, 1), Entry("#2", 2, None, 1234, 2000, 2))
    drawn = Pool(info, True, draws, 2)
    text += _figure_words(pool_figure(ACTIVITIES["04_experiment"], drawn, exact, big=True, lang=STRICT).to_plotly_json())
    summary += " ".join(html_to_text(summary_html(ACTIVITIES["04_experiment"], drawn, exact, lang=STRICT)).split())
    assert "Whole class: 1274 hits in 2100 rounds = 60.7%" in summary
    assert german_words(text + summary) == []
    assert local_time(0, STRICT) == "1 January 1970 at 01:00" and local_time(0) == "01.01.1970 um 01:00"


def test_the_teacher_switch_in_english(monkeypatch) -> None:
    import ipywidgets

    from bohnteach.widgets import teacher_view
    from bohnteach.widgets.questions import set_teacher_mode

    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "bohne7")
    monkeypatch.setattr(teacher_view, "_TRIES", teacher_view._Tries())
    monkeypatch.setattr(teacher_view.BrowserLink, "send", lambda self, msg: None)
    set_teacher_mode(False)
    try:
        switch = teacher_view.TeacherSwitch(lang=STRICT)
        assert "Teacher view …" in _shown(switch.widget)
        switch._open()
        (field, enter) = switch._fields.children[1].children
        enter.click()
        assert "Please type in the teacher code." in switch.message.value
        for _ in range(4):
            field.value = "bohne8"
            enter.click()
        assert "Too many wrong tries – please try again in" in switch.message.value
        text = _shown(switch.widget)
        assert "For teachers:" in text and "Teacher code" in text and german_words(text) == []
        teacher_view._TRIES.next_try = 0
        field.value = "bohne7"
        enter.click()
        text = _shown(switch.widget)
        assert "Leave the teacher view" in text and german_words(text) == []
        on = _shown(teacher_view.TeacherSwitch(lang=STRICT).widget)
        assert "Teacher view." in on and german_words(on) == []
    finally:
        set_teacher_mode(False)
        ipywidgets.Widget.close_all()


def test_the_teacher_notes_of_every_lesson_in_english() -> None:
    from bohnteach.content.teacher_notes import all_teacher_notes, teacher_notes

    for name, german in all_teacher_notes().items():
        assert teacher_notes(name) == german == teacher_notes(name, "de")
        english = teacher_notes(name, STRICT)
        assert [s.minutes for s in english.plan] == [s.minutes for s in german.plan]
        text = "\n".join([english.goal, *(f"{s.part} {s.what}" for s in english.plan), *english.misconceptions])
        assert german_words(text) == [], name


def test_the_english_teacher_guide_is_made_from_the_german_one() -> None:
    """tutorials/README.en.md is what the German guide and the catalogue make now (no
    second copy to keep); its prose has no German (code spans – file names, addresses,
    settings – are not prose)."""
    from bohnteach import catalogues
    from bohnteach.i18n.notebooks import translate_markdown

    german = ROOT / "tutorials" / "README.md"
    english = ROOT / "tutorials" / "README.en.md"
    assert catalogues.document_path(german, "en") == english
    assert english.read_text("utf-8") == catalogues.translated_document(german, "en"), \
        "run `make i18n-update`"
    translate_markdown(german.read_text("utf-8"), STRICT)  # every block has its English
    prose = re.sub(r"`[^`]*`", " ", english.read_text("utf-8"))
    assert german_words(prose) == []


@pytest.mark.parametrize("lang, label", [("de", "Beamer-Ansicht öffnen"), (STRICT, "Open the projector view")])
def test_the_teachers_projector_button_says_what_it_does(store: Store, lang, label: str) -> None:
    """(Its word once shared a key with the projector's „offen“, and the button said „<b>offen</b>“.)"""
    import html

    teacher = _english_teacher(store, lang=lang)
    try:
        assert f'class="bt-klasse-form-button">{html.escape(label)}</button>' in _texts_of(teacher)
    finally:
        _stop(teacher)


def test_every_word_of_the_class_room_has_a_key_of_its_own() -> None:
    """A word table written with a key twice silently keeps the last (as the projector
    button's did): the sources' dicts name each key once."""
    import ast

    for path in ("bohnteach/classroom/words.py", "bohnteach/classroom/store.py",
                 "bohnteach/widgets/teacher_view.py"):
        for node in ast.walk(ast.parse((ROOT / path).read_text("utf-8"))):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                assert len(keys) == len(set(keys)), (path, sorted({k for k in keys if keys.count(k) > 1}))
