"""bohnteach.widgets.figure: the chart bundle is plotly's own, without plotly's renderers."""
from __future__ import annotations

import subprocess
import sys

import plotly.graph_objects as go

from bohnteach.widgets.figure import PLOT_CONFIG, figure_bundle, show_figure, show_figures_cheaply


def _figure() -> go.Figure:
    return go.Figure(go.Bar(x=["Blaue Bohne", "Stinkbohne"], y=[20, 16]),
                     layout={"template": "plotly_white", "title": "Karten"})


def test_bundle_equals_plotlys_mimetype_renderer():
    from plotly.io._base_renderers import PlotlyRenderer

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
    show_figures_cheaply()
    assert shell.display_formatter.ipython_display_formatter.lookup(_figure()) is show_figure
