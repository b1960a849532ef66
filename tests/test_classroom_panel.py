"""The class panel (bohnteach.widgets.classroom) in a kernel, on a real SQLite store:
the teacher starts a class, two pupils join and submit, the projector shows both; bad input
gets a German message and stores nothing; a reload finds the member again."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from bohnteach.classroom.store import Store
from bohnteach.widgets import classroom as panel_module
from bohnteach.widgets.classroom import Classroom, class_link, classroom, qr_svg

LESSON = "04_Rechnen_oder_simulieren"


@pytest.fixture
def store(tmp_path: Path):
    s = Store(f"sqlite:///{tmp_path / 'klassen.sqlite3'}")
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _fresh_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panel_module, "_ATTEMPTS", panel_module.CodeAttempts())


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


def _texts_inputs(widget) -> list:
    import ipywidgets as w

    found = [widget] if isinstance(widget, w.Text) else []
    for child in getattr(widget, "children", ()):
        found.extend(_texts_inputs(child))
    return found


def _teacher(store: Store) -> Classroom:
    panel = Classroom(LESSON, store, query=f"lektion={LESSON}&lehrkraft=1")
    _buttons(panel.widget, "Klasse starten")[0].click()
    assert panel.code
    return panel


def _join(store: Store, code: str, nick: str = "", via_link: bool = True) -> Classroom:
    query = f"lektion={LESSON}" + (f"&klasse={code}" if via_link else "")
    panel = Classroom(LESSON, store, query=query)
    code_in, nick_in = _texts_inputs(panel.widget)[:2]
    if not via_link:
        code_in.value = code
    nick_in.value = nick
    _buttons(panel.widget, "Beitreten")[0].click()
    return panel


def test_without_a_store_the_lesson_says_there_is_no_server(monkeypatch) -> None:
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DIR", raising=False)
    monkeypatch.delenv("BOHNTEACH_KLASSEN_DB", raising=False)
    assert "ohne Server" in classroom(LESSON).value


def test_teacher_starts_pupils_submit_projector_shows_both(store: Store) -> None:
    teacher = _teacher(store)
    try:
        text = _texts(teacher.widget)
        assert f"{teacher.code[:3]} {teacher.code[3:]}" in text and "<svg" in text
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
        deadline = time.monotonic() + 2.0  # the projector's thread, within 2 s
        tipp = teacher._views[0]
        while "2 Abgaben" not in tipp.summary.value and time.monotonic() < deadline:
            time.sleep(0.05)
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
        assert [e.value for e in store.pool(teacher.code, "04_tipp").entries] == [12.5, 20.0]
    finally:
        teacher._stop.set()


@pytest.mark.parametrize("typed, words", [
    ("", "Bitte gib zuerst eine Zahl ein"),
    ("abc", "keine Zahl"),
    ("120", "von 0 bis 100"),
    ("-3", "von 0 bis 100"),
    ("1" * 40, "zu lang"),
    ("1e400", "keine Zahl"),
    ("<b>5</b>", "keine Zahl"),
])
def test_bad_estimates_get_a_german_message_and_store_nothing(store: Store, typed, words) -> None:
    code = store.create_class().code
    pupil = _join(store, code)
    _texts_inputs(pupil.widget)[0].value = typed
    _buttons(pupil.widget, "Tipp abschicken")[0].click()
    assert words in _texts(pupil.widget)
    assert "<b>5</b>" not in _texts(pupil.widget)  # shown escaped, if at all
    assert store.pool(code, "04_tipp").entries == ()


def test_wrong_code_and_markup_nickname_are_refused(store: Store) -> None:
    code = store.create_class().code
    wrong = _join(store, "ACDEFH" if code != "ACDEFH" else "ACDEFJ", via_link=False)
    assert "keine Klasse" in _texts(wrong.widget)
    markup = Classroom(LESSON, store, query=f"klasse={code}")
    _texts_inputs(markup.widget)[1].value = "<img src=x onerror=alert(1)>"
    panel_module._ATTEMPTS.succeeded()
    _buttons(markup.widget, "Beitreten")[0].click()
    assert "nur Buchstaben" in _texts(markup.widget)
    assert "<img" not in _texts(markup.widget)
    assert store.pool(code, "04_tipp").members == 0


def test_wrong_codes_are_slowed_down(store: Store) -> None:
    panel = Classroom(LESSON, store, query="")
    _texts_inputs(panel.widget)[0].value = "ACDEFH"
    _buttons(panel.widget, "Beitreten")[0].click()
    assert "keine Klasse" in _texts(panel.widget)
    _buttons(panel.widget, "Beitreten")[0].click()
    assert "Zu viele falsche Codes" in _texts(panel.widget)


def test_a_reload_finds_the_member_again(store: Store) -> None:
    code = store.create_class().code
    first = _join(store, code, "Anna")
    _texts_inputs(first.widget)[0].value = "15"
    _buttons(first.widget, "Tipp abschicken")[0].click()
    # the reloaded page: the browser sends back what it remembered for the role
    again = Classroom(LESSON, store)
    again.remembered.stored = ('{"schueler": {"code": "%s", "token": "%s"}}'
                               % (first.remembered.code, first.remembered.token))
    again.remembered.loaded = True
    text = _texts(again.widget)
    assert "Du bist in der Klasse" in text and "Anna" in text and "15 %" in text
    assert store.pool(code, "04_tipp").members == 1


def test_class_link_and_qr(monkeypatch) -> None:
    monkeypatch.setenv("SERVER_NAME", "schule.example")
    monkeypatch.setenv("SERVER_PORT", "8866")
    assert class_link(LESSON, "ACD479") == \
        f"http://schule.example:8866/?lektion={LESSON}&klasse=ACD479"
    assert qr_svg("http://x/?klasse=ACD479").count("<svg") == 1


def test_draws_add_up_and_start_again_after_the_teacher_clears(store: Store) -> None:
    code = store.create_class().code
    pupil = _join(store, code)
    draw = _buttons(pupil.widget, "100 Runden ziehen")[0]
    draw.click()
    draw.click()
    (entry,) = store.pool(code, "04_experiment").entries
    assert entry.trials == 200 and 0 <= entry.value <= 200
    assert f"<b>{int(entry.value)}</b> Treffer in <b>200</b> Runden" in _texts(pupil.widget)
    store.clear_activity(code, "04_experiment")
    draw.click()
    assert [e.trials for e in store.pool(code, "04_experiment").entries] == [100]
