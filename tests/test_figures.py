"""bohnteach.widgets.figure: the chart bundle is plotly's own, without plotly's renderers."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import plotly.graph_objects as go

from bohnteach.render.charts import TRACES
from bohnteach.widgets.figure import (
    HTML,
    PLOT_CONFIG,
    PLOTLY_MIME,
    SITE_ENV,
    WIDGET_VIEW,
    display_cheaply,
    figure_bundle,
    show_figure,
)

ROOT = Path(__file__).resolve().parents[1]
#: what plotly.js's basic bundle draws, the one the site's chart renderer has
BASIC_TRACES = {kind.capitalize() for kind in TRACES}


def _figure() -> go.Figure:
    return go.Figure(go.Bar(x=["Blaue Bohne", "Stinkbohne"], y=[20, 16]),
                     layout={"template": "plotly_white", "title": "Karten"})


def test_bundle_equals_plotlys_mimetype_renderer(monkeypatch):
    """On the site (here: its flag) the bundle is plotly's JSON alone."""
    from plotly.io._base_renderers import PlotlyRenderer

    monkeypatch.setenv(SITE_ENV, "1")
    theirs = PlotlyRenderer(config=PLOT_CONFIG).to_mimebundle(_figure().to_dict())
    assert figure_bundle(_figure()) == theirs


def test_showing_a_chart_imports_neither_nbformat_nor_jsonschema():
    code = (
        "import sys, io, contextlib\n"
        "import plotly.graph_objects as go\n"
        "from bohnteach.widgets.figure import show_figure\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    show_figure(go.Figure(go.Bar(x=[1], y=[2])))\n"
        "print(sorted(m for m in ('nbformat', 'jsonschema', 'rfc3987_syntax') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_figure_left_as_cell_result_goes_through_show_figure():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    display_cheaply()
    assert shell.display_formatter.ipython_display_formatter.lookup(_figure()) is show_figure


def test_a_widget_is_displayed_without_its_text():
    """A widget's bundle names its view; ipywidgets' own also builds the text of every widget
    inside it (here: raises), which no page shows."""
    import ipywidgets as widgets
    from IPython.core.interactiveshell import InteractiveShell

    class Wordy(widgets.HTML):
        def __repr__(self) -> str:
            raise AssertionError("the text of a widget inside was built")

    shell = InteractiveShell.instance()
    display_cheaply()
    page = widgets.VBox([Wordy("<b>Bohne</b>"), widgets.HBox([Wordy("x")])])
    data, _metadata = shell.display_formatter.format(page)
    assert data == {"text/plain": "VBox(…)",
                    WIDGET_VIEW: {"version_major": 2, "version_minor": 0, "model_id": page.model_id}}
    # a widget without a view (a layout) keeps IPython's text
    layout = widgets.Layout(width="10px")
    assert shell.display_formatter.format(layout)[0]["text/plain"].startswith("Layout(")


def test_html_output_is_displayed_as_ipythons_without_looking_for_a_file(monkeypatch, tmp_path):
    """IPython's HTML takes its text for a file name if such a file exists (a stat each time,
    which on the static site waits for the page); ours is the same output without looking."""
    import os

    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import HTML as IPythonHTML

    text = "<hr>Bohnen"
    shell = InteractiveShell.instance()
    expected = shell.display_formatter.format(IPythonHTML(text))
    monkeypatch.chdir(tmp_path)
    (tmp_path / text).write_text("kein HTML")  # a file of that name: ours still shows the text
    looked: list[str] = []
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: looked.append(path) or real_stat(path, *a, **k))
    shown = HTML(text)
    assert shown.data == text and shell.display_formatter.format(shown) == expected
    assert looked == []
    assert IPythonHTML(text).data == "kein HTML" and looked  # what IPython's does


def test_charts_use_only_trace_types_of_the_basic_bundle() -> None:
    """Every ``go.<Trace>(`` in the package, the pages and the lessons is one the site's
    renderer can draw; plotly.express is not used (its traces are not named in the code)."""
    sources = [*ROOT.glob("bohnteach/**/*.py"), *ROOT.glob("notebooks/*.ipynb"),
               *ROOT.glob("tutorials/*.ipynb")]
    used: set[str] = set()
    for path in sources:
        text = path.read_text("utf-8")
        assert "plotly.express" not in text, path
        used |= set(re.findall(r"\bgo\.([A-Z]\w*)\(", text))
    assert {"Scatter", "Bar"} <= used
    assert used - {"Figure", "Layout"} <= BASIC_TRACES, used


def _outside_the_site(monkeypatch) -> None:
    """A teacher's own kernel: no site flag, no Voilà, not Pyodide; nothing sent yet."""
    from bohnteach.widgets import figure

    for name in (SITE_ENV, "VOILA_PREHEAT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(figure, "_sent_plotly_js", {"cell": False, "anywhere": False})
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)


def test_outside_the_site_a_chart_carries_its_html_form_and_plotly_js_once(monkeypatch):
    """JupyterLab without jupyterlab-plotly, VS Code, Colab and an HTML export draw the
    ``text/html`` form; the first chart brings plotly.js from the plotly package, no CDN."""
    from plotly.offline import get_plotlyjs

    _outside_the_site(monkeypatch)
    first, second = figure_bundle(_figure()), figure_bundle(_figure())
    assert set(first) == {PLOTLY_MIME, "text/html", "text/plain"}
    assert first["text/plain"] == "Diagramm: Karten"
    plotly_js = get_plotlyjs()
    assert plotly_js in first["text/html"] and plotly_js not in second["text/html"]
    for bundle in (first, second):
        html = bundle["text/html"]
        assert "Plotly.newPlot" in html and '"displaylogo": false' in html.replace('":false', '": false')
        assert not re.search(r"""src=["']https?://""", html), "no script from a CDN"


def test_a_chart_in_an_output_widget_does_not_spare_the_cells_plotly_js(monkeypatch):
    """A widget's output is lost in an HTML export: the first chart in a cell's own output
    brings plotly.js even when an Output widget's chart brought it before."""
    from plotly.offline import get_plotlyjs

    _outside_the_site(monkeypatch)
    plotly_js = get_plotlyjs()
    in_widget = figure_bundle(_figure(), in_cell=False)
    again_in_widget = figure_bundle(_figure(), in_cell=False)
    in_cell = figure_bundle(_figure())
    assert plotly_js in in_widget["text/html"]
    assert plotly_js not in again_in_widget["text/html"]
    assert plotly_js in in_cell["text/html"]


def test_in_colab_every_chart_brings_plotly_js(monkeypatch):
    """Colab shows each output in a frame of its own."""
    from plotly.offline import get_plotlyjs

    _outside_the_site(monkeypatch)
    monkeypatch.setitem(sys.modules, "google.colab", sys)
    assert all(get_plotlyjs() in figure_bundle(_figure())["text/html"] for _ in range(2))


def test_the_site_keeps_the_json_form_only(monkeypatch):
    """Voilà kernels (the site's and the app's) and the static site send no plotly.js."""
    _outside_the_site(monkeypatch)
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert list(figure_bundle(_figure())) == [PLOTLY_MIME]
    monkeypatch.delenv("VOILA_PREHEAT")
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert list(figure_bundle(_figure())) == [PLOTLY_MIME]
