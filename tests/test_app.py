"""The one-page app (``bohnteach.site.app``), headless: addresses, chapters shown from their
notebooks, teacher mode from the address, nothing piling up, failures as boxes.

The browser's half (links, Back/Forward, titles, one kernel) is ``test_app_browser.py``.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnteach.site import app as site_app
from bohnteach.site.app import App, Entry, entries, find_entry, notebook_cells, run_cell, show_notebook
from bohnteach.content.chapters import LESSONS
from bohnteach.site.pages import PAGES, START

from kernel_run import execute_notebook

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def shell() -> Iterator[object]:
    """An IPython shell for ``display`` (as in a kernel), removed afterwards with what an
    app leaves in the process: the address it showed, teacher mode, its widgets."""
    import ipywidgets
    from IPython.core.interactiveshell import InteractiveShell

    from bohnteach.widgets.questions import set_teacher_mode, use_address

    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()
    use_address(None)
    set_teacher_mode(False)
    ipywidgets.Widget.close_all()


def _captured(fn, *args):
    from IPython.utils.capture import capture_output

    with capture_output() as captured:
        fn(*args)
    return captured.outputs


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


# ---- addresses ---------------------------------------------------------------------------------
def test_every_chapter_and_lesson_has_an_address():
    """The app lists the registry (data/chapters.toml), in its order, each with its notebook."""
    assert [e.name for e in entries() if e.key == "kapitel"] == [p.name for p in PAGES]
    assert [e.name for e in entries() if e.key == "lektion"] == [name for name, _title in LESSONS]
    assert all(e.path.is_file() for e in entries())


@pytest.mark.parametrize(("query", "expected"), [
    ("", Entry("kapitel", START)),
    ("lehrkraft=1", Entry("kapitel", START)),
    ("kapitel=02_Phase_1", Entry("kapitel", "02_Phase_1")),
    ("?kapitel=02_Phase_1.ipynb", Entry("kapitel", "02_Phase_1")),
    ("lektion=01_Bohnentreppe&lehrkraft=1", Entry("lektion", "01_Bohnentreppe")),
    ("kapitel=99_Gibt_es_nicht", None),
    ("kapitel=../../etc/passwd", None),
    ("lektion=02_Phase_1", None),  # a chapter is no lesson
])
def test_find_entry(query, expected):
    assert find_entry(query) == expected


# ---- running a notebook -------------------------------------------------------------------------
def test_run_cell_displays_the_last_expression_as_jupyter_does(shell):
    ns: dict = {}
    out = _captured(run_cell, "x = 2\nx * 21", ns, "t")
    assert [o.data["text/plain"] for o in out] == ["42"]
    assert _captured(run_cell, "x * 2;", ns, "t") == []
    assert _captured(run_cell, "y = x", ns, "t") == [] and ns["y"] == 2
    assert _captured(run_cell, "None", ns, "t") == []


def test_a_failing_cell_shows_the_box_and_the_next_cells_still_run(shell, tmp_path):
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Titel"},
                    {"cell_type": "code", "metadata": {}, "source": "1 / 0", "outputs": []},
                    {"cell_type": "code", "metadata": {}, "source": "'danach'", "outputs": []}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "kaputt.ipynb"
    path.write_text(json.dumps(nb), "utf-8")
    out = _captured(show_notebook, json.loads(path.read_text("utf-8")), path.name)
    assert out[0].data["text/markdown"] == "# Titel"
    assert "bt-error" in out[1].data["text/html"] and "Traceback" not in out[1].data["text/html"]
    assert out[2].data["text/plain"] == "'danach'"


def test_markdown_and_code_cells_come_from_the_notebook():
    cells = notebook_cells(json.loads((ROOT / "notebooks" / "02_Phase_1.ipynb").read_text("utf-8")))
    assert cells[0][0] == "markdown" and cells[0][1].startswith("# Phase 1")
    assert ("code", 'pages.try_it("phase1")') in cells


# ---- the app -----------------------------------------------------------------------------------
def test_app_starts_on_the_start_page_and_follows_its_router(shell):
    app = App()
    assert app.entry == Entry("kapitel", START) and app.router.title == "Bohnanza lernen"
    shown = app.router.shown
    app.router.route = "kapitel=02_Phase_1"  # what the browser sets on a click
    assert app.entry == Entry("kapitel", "02_Phase_1")
    assert app.router.title == "Phase 1: Bohnen aus der Hand pflanzen – Bohnanza lernen"
    assert app.router.base == "notebooks/02_Phase_1.ipynb"
    assert app.router.shown == shown + 1
    app.router.route = "lektion=03_Was_bringt_ein_Feld"
    assert app.router.base == "tutorials/03_Was_bringt_ein_Feld.ipynb"


def test_unknown_address_shows_not_found_and_the_app_goes_on(shell):
    app = App()
    out = _captured(app.show_query, "kapitel=<script>alert(1)</script>")
    html = out[0].data["text/html"]
    assert "Seite nicht gefunden" in html and "<script>" not in html
    assert app.router.title.startswith("Seite nicht gefunden")
    app.router.route = "kapitel=09_FAQ"
    assert app.router.title.startswith("Häufige Fragen")


def test_teacher_mode_is_the_visitors_not_the_addresss(shell):
    """Entered once (an old address with ?lehrkraft=1), teacher mode stays on the pages the
    app shows next, whose addresses never carry it; leaving ends it."""
    from bohnteach.widgets.questions import teacher_mode

    app = App()
    app.router.route = "lektion=02_Zwei_Karten_aufdecken"
    assert not teacher_mode()
    app.router.route = "lektion=01_Bohnentreppe&lehrkraft=1"
    assert teacher_mode()
    app.router.route = "lektion=02_Zwei_Karten_aufdecken"
    assert teacher_mode(), "teacher mode is kept for the visitor"
    app.teacher.leave()
    assert not teacher_mode()


def _browser_says(app: App, monkeypatch, *, address=None, kept="") -> list[dict]:
    """What the app's browser memory (LehrkraftModel) tells the kernel; returns the
    kernel's answers to the browser."""
    answers: list[dict] = []
    monkeypatch.setattr(app.teacher, "send", answers.append)
    app.teacher.loaded = False  # a page of its own (the browser's model is made anew)
    app.teacher.stored = json.dumps({"address": address, "kept": kept})
    app.teacher.loaded = True
    return answers


def test_the_browsers_teacher_view_is_checked_by_the_kernel(shell, monkeypatch):
    from bohnteach.widgets import teacher_view
    from bohnteach.widgets.questions import teacher_mode

    monkeypatch.setattr(teacher_view, "_TRIES", teacher_view._Tries())
    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "bohne7")
    app = App()
    assert _browser_says(app, monkeypatch, kept="1") == [{"forget": True}]  # an old "1": forgotten
    assert not teacher_mode()

    monkeypatch.setattr(teacher_view, "_TRIES", teacher_view._Tries())
    assert _browser_says(app, monkeypatch, kept="bohne7") == [{"keep": "bohne7"}]
    assert teacher_mode()
    app.router.route = "kapitel=02_Phase_1"
    assert teacher_mode()


def test_a_wrong_code_from_the_address_opens_the_code_field(shell, monkeypatch):
    from bohnteach.widgets import teacher_view
    from bohnteach.widgets.questions import teacher_mode

    monkeypatch.setattr(teacher_view, "_TRIES", teacher_view._Tries())
    monkeypatch.setenv("BOHNTEACH_LEHRKRAFT_CODE", "bohne7")
    app = App()
    app.router.route = "lektion=01_Bohnentreppe"
    assert _browser_says(app, monkeypatch, address="1") == []
    assert not teacher_mode()
    (switch,) = [item for item in list(teacher_view.follow_teacher_mode.__globals__["_REGISTRY"])
                 if isinstance(item, teacher_view.TeacherSwitch) and item.entry]
    assert "braucht dafür den Lehrkraft-Code" in switch.message.value


def test_a_lessons_teacher_banner_shows_in_teacher_view(shell):
    """The banner at a lesson's top lives on after its cell ran (as Jupyter keeps a cell's
    result), so teacher mode, switched on at the page's end, shows it."""
    def banners() -> list[str]:
        return [w.value for w in list(site_app._instances().values())
                if "bt-teacher-notes" in getattr(w, "_dom_classes", ())]

    app = App()
    app.router.route = "lektion=01_Bohnentreppe"
    assert banners() == [""]
    app.router.route = "lektion=02_Zwei_Karten_aufdecken&lehrkraft=1"
    (banner,) = banners()
    assert "Lehrkraft-Ansicht" in banner


def test_nothing_piles_up_after_reading_everything_twice(shell):
    """Leaving a page closes its widgets: after every page twice the kernel holds the
    frame's and the shown page's widgets (as many as a fresh app showing that page), and
    its memory is within 30 MB of the first pass."""
    app = App()
    counts: dict[Entry, int] = {}
    for entry in entries():
        _captured(app.show, entry, entry.query)
        counts[entry] = app.live_widgets()
    first = _rss_mb()
    for entry in entries():
        _captured(app.show, entry, entry.query)
        assert app.live_widgets() == counts[entry], entry
    assert _rss_mb() - first <= 30
    import ipywidgets

    ipywidgets.Widget.close_all()
    for entry in (entries()[2], entries()[-1]):
        fresh = App()
        _captured(fresh.show, entry, entry.query)
        assert fresh.live_widgets() == counts[entry], "as many as a page shown first"
        ipywidgets.Widget.close_all()


def test_the_app_notebook_runs_in_a_kernel():
    """``notebooks/app.ipynb`` as Voilà runs it: the start page inside the frame, no error."""
    nb = execute_notebook(ROOT / "notebooks" / site_app.APP_NOTEBOOK)
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert [o for o in outputs if o["output_type"] in ("error", "stream")] == []
    state = json.dumps(nb.metadata["widgets"])
    assert "Bohnanza lernen" in state and "RouterModel" in state and "bt-box bt-error" not in state
