"""The lessons and the Bohnometer chapter in a real browser (Voilà + Debian's chromium).

Uses the session's ``site_url`` (``tests/conftest.py``): the site served exactly like
``bohnteach serve`` – ``notebooks/`` and ``tutorials/`` side by side, every page preheated
(so ``lesson.end()`` really waits for the visitor's request to read ``?lehrkraft=1``).

Charts are drawn by bohnteach's own renderer (``labextensions/bohnteach-charts``) with
plotly.js's basic bundle, each once; jupyterlab-plotly's file with the full plotly.js is
never fetched. The console must stay free of errors after the charts are drawn.
"""
from __future__ import annotations

import re

import pytest
from browser_helpers import open_page, visible_errors
from playwright.sync_api import expect

from bohnteach.content import chapters

LESSONS = [name for name, _title in chapters.LESSONS]
WIDGETS_RENDERED = """() => [...document.querySelectorAll('.jp-OutputArea-output.lm-Panel')]
  .every(e => e.querySelector('.jupyter-widgets'))"""
CHARTS_DRAWN = """() => [...document.querySelectorAll('.jp-RenderedPlotly')]
  .every(e => e.querySelector('.main-svg'))"""

#: Records the width of each chart's box when the renderer asks plotly.js to draw it
#: (plotly.js is caught as its script sets ``window.Plotly``). 0 means the box was hidden
#: or not yet in the page: plotly.js then lays the chart out at its default 700 px and
#: again at the real width.
DRAW_WIDTHS_INIT = """(() => {
  window.btDrawWidths = [];
  Object.defineProperty(window, 'Plotly', {configurable: true, get() { return undefined; },
    set(plotly) {
      const react = plotly.react;
      plotly.react = function (node) { window.btDrawWidths.push(node.clientWidth); return react.apply(this, arguments); };
      Object.defineProperty(window, 'Plotly', {value: plotly, writable: true, configurable: true});
    }});
})();"""

HIDDEN_TICK_LABELS = """() => [...document.querySelectorAll('.js-plotly-plot .xtick text, .js-plotly-plot .ytick text')]
  .filter(t => getComputedStyle(t).display === 'none').map(t => t.textContent)"""


def _open(page, url: str, name: str, query: str = "") -> list[str]:
    errors = open_page(page, url, name, query=query, timeout_ms=300_000)
    page.wait_for_function(WIDGETS_RENDERED, timeout=240_000, polling=200)
    return errors


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_page_loads_for_students(page, site_url, name):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.add_init_script(DRAW_WIDTHS_INIT)
    errors = _open(page, site_url, f"tutorials/{name}")
    assert visible_errors(page) == []
    expect(page.locator(".bt-box.bt-error")).to_have_count(0)
    expect(page.get_by_role("heading", level=1).first).to_have_text(
        re.compile(rf"^\s*Lektion {int(name[:2])}: "), use_inner_text=True)
    expect(page).to_have_title(re.compile(rf"^Lektion {int(name[:2])}: .+ – Bohnanza lernen$"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.locator(".bt-exercise").count() >= 4
    # students: no teacher toggle, no solution text in the page
    expect(page.locator(".bt-teacher-toggle:visible")).to_have_count(0)
    expect(page.locator(".bt-q-solution")).to_have_count(0)
    expect(page.locator('a[href="/?kapitel=00_Start"]').first).to_be_attached()  # into the app
    body = page.inner_text("#rendered_cells")
    assert "lesson.exercises" not in body and "Traceback" not in body
    # the charts are drawn by bohnteach's renderer, each once, with plotly.js's basic bundle
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)
    assert page.evaluate("window.btChartDraws") == page.locator(".js-plotly-plot").count()
    # each drawn once its box has a width (a chart in a widget is rendered before it is
    # attached): never laid out at a default size first
    widths = page.evaluate("window.btDrawWidths")
    assert len(widths) == page.evaluate("window.btChartDraws") and min(widths) > 0, widths
    # every tick label shows, the last one of a log axis („10.000“) too: plotly.js hid a
    # label that ran past the chart's edge, the margins now make room for it
    assert page.evaluate(HIDDEN_TICK_LABELS) == []
    plotly_files = [url for url in requested if "plotly" in url]
    assert len(plotly_files) == 1 and "/bohnteach-charts/static/plotly-basic-" in plotly_files[0], \
        plotly_files
    assert errors == []


def test_typed_answer_is_checked_in_the_browser(page, site_url):
    _open(page, site_url, "tutorials/02_Zwei_Karten_aufdecken")
    task = page.locator(".bt-exercise").nth(1)
    field = task.locator("input[type=text]")
    field.fill("12/104")
    task.get_by_role("button", name="Prüfen").click()
    expect(task.locator(".bt-q-wrong")).to_contain_text("doppelt")
    field.fill("11,26 %")
    task.get_by_role("button", name="Prüfen").click()
    expect(task.locator(".bt-q-correct")).to_contain_text("Richtig!")


def test_teacher_sees_solutions_with_lehrkraft_in_the_address(page, site_url):
    errors = _open(page, site_url, "tutorials/01_Bohnentreppe", query="?lehrkraft=1")
    exercises = page.locator(".bt-exercise")
    assert exercises.count() >= 4
    expect(page.locator(".bt-teacher-toggle:visible")).to_have_count(exercises.count())
    first = exercises.first
    first.get_by_role("button", name="Lösung zeigen (Lehrkraft)").click()
    expect(first.locator(".bt-q-solution")).to_contain_text("104")
    assert errors == []


def test_bohnometer_quiz_and_picker(page, site_url):
    errors = _open(page, site_url, "notebooks/12_Bohnometer")
    assert visible_errors(page) == []
    quiz = page.locator(".bt-quiz")
    quiz.locator("input[type=text]").fill("99")
    quiz.get_by_role("button", name="Prüfen").click()
    expect(quiz.locator(".bt-q-wrong")).to_be_attached()
    curves = page.locator(".bt-curves")
    curves.get_by_text("Rote Bohne").click()
    expect(curves.locator(".legendtext").filter(has_text="Rote Bohne").first).to_be_attached(
        )
    assert errors == []
