"""The class panel (bohnteach.widgets.classroom) in a kernel, on a real SQLite store:
the teacher starts a class, two pupils join and submit, the projector shows both; bad input
gets a German message and stores nothing; a reload finds the member again; who gets the
controls (only the browser holding the class's key: not a pupil who adds ``lehrkraft``);
panels that follow what was done elsewhere; asking before deleting; the projector view."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bohnteach.classroom.store import Store
from bohnteach.widgets.classroom import (
    Classroom, Projector, class_link, classroom, local_time, projector_address, qr_svg,
)

LESSON = "04_Rechnen_oder_simulieren"
#: The class's QR code as the panel shows it (its join link; the stylesheet names the class too).
QR = 'class="bt-klasse-qr"'
CONTROL_LABELS = ("Klasse schließen", "Wieder öffnen", "Klasse beenden (alles löschen)",
                  "Auflösen", "Auflösung verbergen", "Abgaben löschen", "PIN für ein zweites Gerät")


@pytest.fixture
def store(tmp_path: Path):
    s = Store(f"sqlite:///{tmp_path / 'klassen.sqlite3'}")
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_teacher_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOHNTEACH_LEHRKRAFT", "BOHNTEACH_LEHRKRAFT_CODE", "HTTP_X_BOHNTEACH_CLIENT",
                 "BOHNTEACH_ZEITZONE", "SERVER_NAME", "SERVER_PORT"):
        monkeypatch.delenv(name, raising=False)


def _texts(widget) -> str:
    """Every HTML shown below ``widget`` (HTML widgets' values, button labels; not what is
    typed into a text field)."""
    import ipywidgets as w

    out = [_texts(child) for child in getattr(widget, "children", ())]
    if isinstance(widget, w.HTML):
        out.append(widget.value)
    if isinstance(widget, w.Button):
        out.append(widget.description)
    return "\n".join(out)


def _buttons(widget, label: str) -> list:
    import ipywidgets as w

    found = []
    if isinstance(widget, w.Button) and widget.description == label:
        found.append(widget)
    for child in getattr(widget, "children", ()):
        found.extend(_buttons(child, label))
    return found


def _click(widget, label: str) -> None:
    (found,) = _buttons(widget, label)
    found.click()


def _texts_inputs(widget) -> list:
    import ipywidgets as w

    found = [widget] if isinstance(widget, w.Text) else []
    for child in getattr(widget, "children", ()):
        found.extend(_texts_inputs(child))
    return found


def _until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait for a polling thread to bring about ``check`` (generous: a busy machine)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "nicht eingetreten"
        time.sleep(0.05)


def _remembering(panel, role: str, code: str, token: str):
    """The browser answers with what it remembered (as the KlasseModel does on a reload)."""
    panel.remembered.stored = json.dumps({role: {"code": code, "token": token}})
    panel.remembered.loaded = True
    return panel


def _teacher(store: Store, query: str = f"lektion={LESSON}&lehrkraft=1") -> Classroom:
    panel = Classroom(LESSON, store, query=query)
    _click(panel.widget, "Klasse starten")
    assert panel.code and panel.token
    return panel


def _teacher_again(store: Store, teacher: Classroom, query: str = f"lektion={LESSON}&lehrkraft=1"):
    """The teacher's browser reloads (or opens a second tab): it holds code and key."""
    return _remembering(Classroom(LESSON, store), "lehrkraft", teacher.code, teacher.token) \
        if query is None else _decided(Classroom(LESSON, store), query, teacher)


def _decided(panel: Classroom, query: str, teacher: Classroom | None) -> Classroom:
    from bohnteach.widgets import questions

    questions.use_address(query)
    try:
        if teacher is None:
            panel.remembered.loaded = True
        else:
            _remembering(panel, "lehrkraft", teacher.code, teacher.token)
    finally:
        questions.use_address(None)
    return panel


def _join(store: Store, code: str, nick: str = "", via_link: bool = True) -> Classroom:
    query = f"lektion={LESSON}" + (f"&klasse={code}" if via_link else "")
    panel = Classroom(LESSON, store, query=query)
    code_in, nick_in = _texts_inputs(panel.widget)[:2]
    if not via_link:
        code_in.value = code
    nick_in.value = nick
    _click(panel.widget, "Beitreten")
    return panel


def _stop(*panels) -> None:
    for panel in panels:
        panel._stop.set()


def test_without_a_store_the_lesson_says_there_is_no_server(monkeypatch) -> None:
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DIR", raising=False)
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DB", raising=False)
    assert "ohne Server" in classroom(LESSON).value


def test_teacher_starts_pupils_submit_projector_shows_both(store: Store) -> None:
    teacher = _teacher(store)
    try:
        text = _texts(teacher.widget)
        assert f"{teacher.code[:3]} {teacher.code[3:]}" in text and QR in text
        anna = _join(store, teacher.code, "Anna")
        ben = _join(store, teacher.code.lower(), via_link=False)
        assert "Du bist in der Klasse" in _texts(anna.widget) and "Anna" in _texts(anna.widget)
        for pupil, guess in ((anna, "12,5"), (ben, "20 %")):
            field = _texts_inputs(pupil.widget)[0]
            field.value = guess
            _buttons(pupil.widget, "Tipp abschicken")[0].click()
            assert "Dein Tipp ist angekommen" in _texts(pupil.widget)
        _buttons(anna.widget, "100 Runden ziehen")[0].click()
        assert "in <b>100</b> Runden" in _texts(anna.widget)
        tipp = teacher._views[0]
        _until(lambda: "2 Abgaben" in tipp.summary.value)  # the projector's thread
        assert "2 in der Klasse, 2 Abgaben" in tipp.summary.value
        assert "Mittelwert der Klasse: <b>16,3 %</b>" in tipp.summary.value
        assert tipp.chart.outputs[0]["data"]["application/vnd.plotly.v1+json"]["data"][0]["y"][2:5] == [1, 0, 1]
        _buttons(tipp.widget, "Auflösen")[0].click()
        assert "Exakt: <b>" in tipp.summary.value
        _buttons(teacher.widget, "Klasse schließen")[0].click()
        field = _texts_inputs(ben.widget)[0]
        field.value = "50"
        _buttons(ben.widget, "Tipp abschicken")[0].click()
        assert "geschlossen" in _texts(ben.widget)
        assert [e.value for e in store.pool(teacher.code, teacher.token, "04_tipp").entries] == [12.5, 20.0]
    finally:
        _stop(teacher, anna, ben)


@pytest.mark.parametrize("typed, words", [
    ("", "Bitte gib zuerst eine Zahl ein"),
    ("abc", "keine Zahl"),
    ("120", "von 0 bis 100"),
    ("-3", "von 0 bis 100"),
    ("12 %%", "keine Zahl"),
    ("1" * 29, "viel zu groß"),
    ("1" * 40, "zu lang"),
    ("1e400", "keine Zahl"),
    ("<b>5</b>", "keine Zahl"),
])
def test_bad_estimates_get_a_german_message_and_store_nothing(store: Store, typed, words) -> None:
    made = store.create_class()
    pupil = _join(store, made.code)
    _texts_inputs(pupil.widget)[0].value = typed
    _click(pupil.widget, "Tipp abschicken")
    assert words in _texts(pupil.widget)
    assert "<b>5</b>" not in _texts(pupil.widget)  # shown escaped, if at all
    assert store.pool(made.code, made.key, "04_tipp").entries == ()
    _stop(pupil)


@pytest.mark.parametrize("typed, stored", [
    ("12", 12), ("12 %", 12), ("12%", 12), ("12 Prozent", 12), ("12,5", 12.5),
    ("3/8", 37.5), ("0,375", 37.5), ("0.375", 37.5), ("0,15", 15), ("0,5", 50),
    ("1", 1), ("0", 0), ("0,5 %", 0.5), ("100", 100), ("ca. 20", 20),
])
def test_an_estimate_is_read_as_the_exercises_read_it_and_shown_first(store: Store, typed: str,
                                                                    stored: float) -> None:
    """Percent or probability, one rule (parse_estimate's docstring); the reading stands
    under the field before anything is sent."""
    from bohnteach.render.words import de_number
    from fractions import Fraction

    made = store.create_class()
    pupil = _join(store, made.code)
    field = _texts_inputs(pupil.widget)[0]
    field.value = typed
    shown = de_number(Fraction(stored), 1)
    assert f"Dein Tipp: <b>{shown} %</b>" in _texts(pupil.widget)
    assert store.pool(made.code, made.key, "04_tipp").entries == ()  # not yet sent
    _click(pupil.widget, "Tipp abschicken")
    assert store.mine(made.code, pupil.token, "04_tipp") == (stored, None)
    _stop(pupil)


def test_wrong_code_and_markup_nickname_are_refused(store: Store) -> None:
    made = store.create_class()
    code = made.code
    wrong = _join(store, "ACDEFH" if code != "ACDEFH" else "ACDEFJ", via_link=False)
    assert "keine Klasse" in _texts(wrong.widget)
    markup = Classroom(LESSON, store, query=f"klasse={code}")
    _texts_inputs(markup.widget)[1].value = "<img src=x onerror=alert(1)>"
    _click(markup.widget, "Beitreten")
    assert "nur Buchstaben" in _texts(markup.widget)
    assert "<img" not in _texts(markup.widget)
    assert store.pool(code, made.key, "04_tipp").members == 0


def test_wrong_codes_are_slowed_down_also_after_a_reload(store: Store, monkeypatch) -> None:
    monkeypatch.setenv("HTTP_X_BOHNTEACH_CLIENT", "192.0.2.44")
    for _ in range(5):  # five kernels: every reload a fresh one
        panel = Classroom(LESSON, store, query="")
        _texts_inputs(panel.widget)[0].value = "ACDEFH"
        _click(panel.widget, "Beitreten")
        assert "keine Klasse" in _texts(panel.widget)
    panel = Classroom(LESSON, store, query="")
    _texts_inputs(panel.widget)[0].value = "ACDEFH"
    _click(panel.widget, "Beitreten")
    assert "Zu viele falsche Versuche" in _texts(panel.widget)


def test_a_reload_finds_the_member_again(store: Store) -> None:
    made = store.create_class()
    first = _join(store, made.code, "Anna")
    _texts_inputs(first.widget)[0].value = "15"
    _click(first.widget, "Tipp abschicken")
    # the reloaded page: the browser sends back what it remembered for the role
    again = _remembering(Classroom(LESSON, store), "schueler", first.remembered.code,
                         first.remembered.token)
    text = _texts(again.widget)
    assert "Du bist in der Klasse" in text and "Anna" in text and "15 %" in text
    assert store.pool(made.code, made.key, "04_tipp").members == 1
    _stop(first, again)


def test_class_link_and_qr_carry_no_secret(store: Store, monkeypatch) -> None:
    monkeypatch.setenv("SERVER_NAME", "schule.example")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "geheim")
    assert class_link(LESSON, "ACD479") == \
        f"http://schule.example:8866/?lektion={LESSON}&klasse=ACD479"
    assert projector_address(LESSON) == f"http://schule.example:8866/?beamer={LESSON}"
    assert qr_svg("http://x/?klasse=ACD479").count("<svg") == 1
    teacher = _teacher(store, f"lektion={LESSON}&lehrkraft=geheim")
    head = teacher.body.children[0].value
    assert f"klasse={teacher.code}" in head and "lehrkraft" not in head.lower()
    assert "geheim" not in head and teacher.token not in _texts(teacher.widget)
    _stop(teacher)


def test_draws_add_up_and_start_again_after_the_teacher_clears(store: Store) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    pupil = _join(store, code)
    draw = _buttons(pupil.widget, "100 Runden ziehen")[0]
    draw.click()
    draw.click()
    (entry,) = store.pool(code, key, "04_experiment").entries
    assert entry.trials == 200 and 0 <= entry.value <= 200
    assert f"<b>{int(entry.value)}</b> Treffer in <b>200</b> Runden" in _texts(pupil.widget)
    store.clear_activity(code, key, "04_experiment")
    _until(lambda: "von vorn" in _texts(pupil.widget))  # the pupil's own total follows
    draw.click()
    assert [e.trials for e in store.pool(code, key, "04_experiment").entries] == [100]
    _stop(pupil)


# --------------------------------------------------------------------------- who controls


@pytest.mark.parametrize("secret", ["", "geheim"])
def test_a_pupil_who_adds_lehrkraft_to_the_address_gets_no_control(store: Store, monkeypatch,
                                                                     secret: str) -> None:
    """The code is read aloud; ``&lehrkraft=1`` (or the server's secret, where one is set)
    gives teacher mode – the solutions – but neither the class's controls nor its data."""
    if secret:
        monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", secret)
    teacher = _teacher(store, f"lektion={LESSON}&lehrkraft={secret or 1}")
    anna = _join(store, teacher.code, "Anna")
    _texts_inputs(anna.widget)[0].value = "12"
    _click(anna.widget, "Tipp abschicken")
    query = f"lektion={LESSON}&klasse={teacher.code}&lehrkraft={secret or 1}"
    intruder = _decided(Classroom(LESSON, store), query, None)
    text = _texts(intruder.widget)
    assert "nicht in diesem Browser gestartet" in text and "Klasse starten" in text
    assert not any(_buttons(intruder.widget, label) for label in CONTROL_LABELS)
    # neither the pupils' words, nor the class's join code (its QR code), nor the count
    assert "Anna" not in text and QR not in text and "Abgaben." not in text
    assert store.get_class(teacher.code).is_open
    _stop(teacher, anna, intruder)


def test_the_teachers_browser_gets_its_class_back_and_no_other(store: Store) -> None:
    teacher = _teacher(store)
    again = _decided(Classroom(LESSON, store), f"lektion={LESSON}&lehrkraft=1", teacher)
    assert _buttons(again.widget, "Klasse schließen") and again.code == teacher.code
    other = _teacher(store)
    mixed = _decided(Classroom(LESSON, store), f"lektion={LESSON}&lehrkraft=1&klasse={other.code}",
                     teacher)
    text = _texts(mixed.widget)
    assert "nicht in diesem Browser gestartet" in text and mixed.code == teacher.code
    _stop(teacher, again, other, mixed)


def test_a_teacher_whose_class_ended_is_told_so(store: Store) -> None:
    teacher = _teacher(store)
    store.end_class(teacher.code, teacher.token)
    again = _decided(Classroom(LESSON, store), f"lektion={LESSON}&lehrkraft=1", teacher)
    text = _texts(again.widget)
    assert "ist beendet oder abgelaufen" in text and _buttons(again.widget, "Klasse starten")
    assert again.remembered.code == "" and again.remembered.token == ""
    _stop(teacher, again)


def test_a_second_device_takes_over_with_the_pin(store: Store) -> None:
    teacher = _teacher(store)
    _click(teacher.widget, "PIN für ein zweites Gerät")
    import re

    pin = re.search(r'class="bt-klasse-pin">(\d{3}) (\d{3})<', teacher.pin.value)
    assert pin and "Uhr" in teacher.pin.value
    laptop = _decided(Classroom(LESSON, store), f"lektion={LESSON}&lehrkraft=1", None)
    code_in, pin_in = _texts_inputs(laptop.widget)[:2]
    code_in.value, pin_in.value = teacher.code, "".join(pin.groups())
    _click(laptop.widget, "Übernehmen")
    assert laptop.code == teacher.code and laptop.remembered.token not in ("", teacher.token)
    assert _buttons(laptop.widget, "Klasse schließen")
    _stop(teacher, laptop)


# --------------------------------------------------------------------------- stale panels


def test_panels_follow_what_was_done_elsewhere(store: Store) -> None:
    """Two views of one class (two tabs): closed in one, the other's button does not
    reopen; ended in one, every button of the other and a pupil's draws say so – no crash."""
    first = _teacher(store)
    second = _decided(Classroom(LESSON, store), f"lektion={LESSON}&lehrkraft=1", first)
    pupil = _join(store, first.code)
    _click(first.widget, "Klasse schließen")
    _click(second.widget, "Klasse schließen")  # still showing „offen“
    assert "inzwischen an einem anderen Gerät geschlossen" in _texts(second.widget)
    assert not store.get_class(first.code).is_open
    assert _buttons(second.widget, "Wieder öffnen")
    _click(second.widget, "Wieder öffnen")
    _click(first.widget, "Klasse beenden (alles löschen)")
    assert store.get_class(first.code).is_open  # asked first: nothing deleted yet
    assert "nicht rückgängig" in _texts(first.widget)
    _click(first.widget, "Abbrechen")
    _click(first.widget, "Klasse beenden (alles löschen)")
    _click(first.widget, "Ja, beenden und löschen")
    assert "Daten sind gelöscht" in _texts(first.widget)
    tipp = _buttons(second.widget, "Auflösen")[0]
    tipp.click()
    text = _texts(second.widget)
    assert "gibt es nicht mehr" in text and "Hoppla" not in text
    _click(pupil.widget, "100 Runden ziehen")
    text = _texts(pupil.widget)
    assert "gibt es nicht mehr" in text and "Hoppla" not in text
    assert _texts_inputs(pupil.widget)[0].value == ""  # no dead code offered
    _stop(first, second, pupil)


def test_clearing_asks_first_and_the_pupil_sees_it(store: Store) -> None:
    teacher = _teacher(store)
    pupil = _join(store, teacher.code)
    _texts_inputs(pupil.widget)[0].value = "20"
    _click(pupil.widget, "Tipp abschicken")
    view = teacher._views[0]
    _click(view.widget, "Abgaben löschen")
    assert store.mine(teacher.code, pupil.token, "04_tipp") == (20, None)  # not yet
    _click(view.widget, "Ja, Abgaben löschen")
    assert store.mine(teacher.code, pupil.token, "04_tipp") is None
    _until(lambda: "hat die Abgaben gelöscht" in _texts(pupil.widget))
    _stop(teacher, pupil)


def test_a_revealed_estimate_is_locked_and_the_pupil_is_told(store: Store) -> None:
    teacher = _teacher(store)
    pupil = _join(store, teacher.code)
    _texts_inputs(pupil.widget)[0].value = "20"
    _click(pupil.widget, "Tipp abschicken")
    _click(teacher._views[0].widget, "Auflösen")
    _until(lambda: "Tipps zählen jetzt nicht mehr" in _texts(pupil.widget))
    assert _buttons(pupil.widget, "Tipp abschicken")[0].disabled
    assert store.mine(teacher.code, pupil.token, "04_tipp") == (20, None)
    _stop(teacher, pupil)


def test_a_pupil_who_reloads_after_the_end_is_told(store: Store) -> None:
    made = store.create_class()
    pupil = _join(store, made.code, "Anna")
    store.end_class(made.code, made.key)
    again = _remembering(Classroom(LESSON, store, ), "schueler", made.code, pupil.token)
    assert "gibt es nicht mehr" in _texts(again.widget)
    assert _texts_inputs(again.widget)[0].value == ""
    # the same address again, the browser remembering nothing (or another browser)
    link = _decided(Classroom(LESSON, store), f"lektion={LESSON}&klasse={made.code}", None)
    assert "keine Klasse" in _texts(link.widget) and made.code[:3] in _texts(link.widget)
    assert _texts_inputs(link.widget)[0].value == ""
    _stop(pupil, again, link)


# --------------------------------------------------------------------------- the projector


def test_the_projector_shows_the_class_and_nothing_else(store: Store) -> None:
    teacher = _teacher(store)
    anna = _join(store, teacher.code, "Anna")
    _texts_inputs(anna.widget)[0].value = "3/8"
    _click(anna.widget, "Tipp abschicken")
    beamer = _remembering(Projector(LESSON, store), "lehrkraft", teacher.code, teacher.token)
    text = _texts(beamer.widget)
    assert f"{teacher.code[:3]} {teacher.code[3:]}" in text and QR in text
    _until(lambda: "Mittelwert der Klasse: <b>37,5 %</b>" in _texts(beamer.widget))
    for label in ("Abgaben löschen", "Klasse beenden (alles löschen)", "Klasse schließen",
                  "PIN für ein zweites Gerät", "Lösung zeigen (Lehrkraft)"):
        assert not _buttons(beamer.widget, label)
    _click(beamer._views[0].widget, "Auflösen")
    assert store.revealed(teacher.code, "04_tipp")
    nobody = _remembering(Projector(LESSON, store), "lehrkraft", teacher.code, "geraten")
    text = _texts(nobody.widget)
    assert "PIN" in text and "Anna" not in text and QR not in text
    assert not _buttons(nobody.widget, "Auflösen")
    _stop(teacher, anna, beamer, nobody)


def test_times_are_shown_in_the_servers_zone(monkeypatch) -> None:
    assert local_time(0) == "01.01.1970 um 01:00"  # Europe/Berlin by default
    assert local_time(15_552_000) == "30.06.1970 um 01:00"  # CET all year 1970
    monkeypatch.setenv("BOHNTEACH_ZEITZONE", "America/New_York")
    assert local_time(0) == "31.12.1969 um 19:00"
    monkeypatch.setenv("BOHNTEACH_ZEITZONE", "Mond/Krater")
    assert local_time(0) == "01.01.1970 um 01:00"


def test_one_bar_per_member_whatever_the_names() -> None:
    """Two members without a nickname (and any two alike) are two bars, keyed by their
    number and labelled with the name; an empty estimates chart starts at 0."""
    from fractions import Fraction

    from bohnteach.classroom.activities import ACTIVITIES
    from bohnteach.classroom.store import ClassInfo, Entry, Pool
    from bohnteach.widgets.classroom import pool_figure

    info = ClassInfo("ACD479", 0, 1, "open")
    entries = (Entry("#1", 1, None, 12, 100, 1), Entry("#2", 2, None, 14, 100, 2),
               Entry("#3", 3, "Mia", 9, 100, 3))
    fig = pool_figure(ACTIVITIES["04_experiment"], Pool(info, False, entries, 3), Fraction(1, 9))
    assert list(fig.data[0].x) == [1, 2, 3] and list(fig.data[0].y) == [12, 14, 9]
    assert list(fig.layout.xaxis.ticktext) == ["#1", "#2", "Mia"]
    empty = pool_figure(ACTIVITIES["04_tipp"], Pool(info, False, (), 0), Fraction(1, 9))
    assert empty.layout.yaxis.range[0] == 0


def test_a_store_that_went_away_is_shown_and_taken_back_without_a_reload(store: Store, monkeypatch) -> None:
    """The store unreachable (PostgreSQL restarting: the driver's OperationalError): the
    teacher's and a pupil's polling panels say so; once it answers they take it back."""
    from sqlalchemy.exc import OperationalError

    teacher = _teacher(store)
    pupil = _join(store, teacher.code, "Ida")
    away = "Der Klassenraum ist gerade nicht erreichbar"
    real_connect = store.engine.connect

    def refused(*_a, **_k):
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(store.engine, "connect", refused)
    _until(lambda: away in _texts(teacher.widget) and away in _texts(pupil.widget))
    monkeypatch.setattr(store.engine, "connect", real_connect)
    _until(lambda: away not in _texts(teacher.widget) and away not in _texts(pupil.widget))
    assert "Du bist in der Klasse" in _texts(pupil.widget)
    _stop(teacher, pupil)
