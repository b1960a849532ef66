"""Plotly charts on a page: the one way the site and the lessons display a ``go.Figure``.

The figure goes out as plotly's MIME bundle (``application/vnd.plotly.v1+json``), which
JupyterLab's plotly renderer draws under Voilà and on the static site alike. Not
``fig.show()``: plotly then insists on ``nbformat``, which the browser's Python of the
static site (Pyodide) lacks and cannot get as pure Python (jsonschema needs rpds-py).
"""
from __future__ import annotations

import json
from typing import Any

from bohnteach.render.charts import PLOT_CONFIG  # plotly.js options of every chart

PLOTLY_MIME = "application/vnd.plotly.v1+json"


def figure_bundle(fig: Any) -> dict[str, Any]:
    """``fig`` (a ``go.Figure``) as the MIME bundle plotly's renderer draws."""
    data = json.loads(fig.to_json())  # plotly's encoder: numbers, dates, arrays
    data["config"] = PLOT_CONFIG
    return {PLOTLY_MIME: data}


def show_figure(fig: Any, output: Any | None = None) -> None:
    """Display ``fig`` in the cell, or inside the ``Output`` widget ``output``, replacing
    what it showed before."""
    from IPython.display import display

    if output is None:
        display(figure_bundle(fig), raw=True)
        return
    with output:
        output.clear_output(wait=True)
        display(figure_bundle(fig), raw=True)
