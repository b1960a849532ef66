"""The teacher view in the kernel (``bohnteach.widgets.teacher_view``): the code typed into
„Lehrkraft-Ansicht“ is checked here, wrong tries slow the next, the browser is told what to
keep. The browser's half: tests/test_teacher_view_browser.py."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from bohnteach.widgets import teacher_view
from bohnteach.widgets.questions import set_teacher_mode, teacher_mode


@pytest.fixture()
def coded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict]]:
    """A server with a teacher code; yields what the kernel tells the browser."""
    import ipywidgets

    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "bohne7")
    monkeypatch.setattr(teacher_view, "_TRIES", teacher_view._Tries())
    answers: list[dict] = []
    monkeypatch.setattr(teacher_view.BrowserLink, "send", lambda self, msg: answers.append(msg))
    set_teacher_mode(False)
    yield answers
    set_teacher_mode(False)
    ipywidgets.Widget.close_all()


def _type(switch: teacher_view.TeacherSwitch, code: str) -> None:
    switch._open()
    (field, enter) = switch._fields.children[1].children
    field.value = code
    enter.click()


def test_a_typed_code_is_checked_and_kept_by_the_browser(coded):
    switch = teacher_view.TeacherSwitch()
    assert switch.widget.children  # the entry „Lehrkraft-Ansicht …“
    _type(switch, "bohne8")
    assert "Dieser Lehrkraft-Code stimmt nicht." in switch.message.value and not teacher_mode()
    for wrong in ("bohne9", "bohne0"):  # three tries at once are checked, the fourth waits
        _type(switch, wrong)
        assert "Dieser Lehrkraft-Code stimmt nicht." in switch.message.value
    _type(switch, "bohne7")
    assert "Zu viele falsche Versuche" in switch.message.value and not teacher_mode()
    teacher_view._TRIES.next_try = 0  # the wait is over
    _type(switch, "  bohne7 ")
    assert teacher_mode() and coded == [{"keep": "bohne7", "reload": True}]
    assert "Lehrkraft-Ansicht verlassen" in [getattr(w, "description", "") for w in
                                             switch.widget.children[-2].children]


def test_leaving_forgets_and_reloads(coded):
    switch = teacher_view.TeacherSwitch()
    teacher_view.browser_link().enter("bohne7")
    (leave,) = switch.widget.children[-2].children
    leave.click()
    assert not teacher_mode() and coded[-1] == {"forget": True, "reload": True}


def test_without_a_code_there_is_no_entry_on_the_page(monkeypatch):
    monkeypatch.delenv("BOHNTEACH_LEHRKRAFT_CODE", raising=False)
    set_teacher_mode(False)
    assert teacher_view.TeacherSwitch().widget.children == ()


def test_a_browser_that_sends_nonsense_gets_no_teacher_view(coded):
    link = teacher_view.browser_link()
    for stored in ("kein json", "[1, 2]", '{"address": 7, "kept": ["x"]}'):
        link.loaded = False
        link.stored = stored
        link.loaded = True
        assert not teacher_mode()
