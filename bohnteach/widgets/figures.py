"""Showing a plotly figure on a page, cheaply.

``fig.show()`` and a figure left as a cell's result go through ``plotly.io._renderers``,
which imports nbformat → jsonschema → ``rfc3987_syntax``; that last one compiles 38 lark
grammars at import time: about 3 s of CPU in every kernel that shows its first chart
(measured: ``benchmarks/README.md``, "Lessons"). The page only needs plotly's JSON mime
type, which this module builds and displays itself: the same bundle as plotly's
``plotly_mimetype`` renderer, with :data:`PLOT_CONFIG`.
"""
from __future__ import annotations

import json
from typing import Any

#: plotly.js options for every chart on the site.
PLOT_CONFIG = {"displaylogo": False, "responsive": True}
PLOTLY_MIME = "application/vnd.plotly.v1+json"


def figure_bundle(fig: Any) -> dict[str, Any]:
    """``{PLOTLY_MIME: figure as JSON data, with PLOT_CONFIG}`` for a ``go.Figure``."""
    from plotly.io.json import to_json

    data = json.loads(to_json(fig, validate=False, remove_uids=False))
    data["config"] = dict(PLOT_CONFIG)
    return {PLOTLY_MIME: data}


def show_figure(fig: Any, output: Any | None = None) -> None:
    """Display a plotly ``go.Figure`` (never a FigureWidget), optionally inside an
    ``Output`` widget, replacing what it showed before."""
    from IPython.display import display

    if output is None:
        display(figure_bundle(fig), raw=True)
        return
    with output:
        output.clear_output(wait=True)
        display(figure_bundle(fig), raw=True)


def show_figures_cheaply() -> None:
    """In a kernel: display every plotly figure that is a cell's result with
    :func:`show_figure` (a no-op outside IPython)."""
    from IPython import get_ipython
    from plotly.basedatatypes import BaseFigure

    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.ipython_display_formatter.for_type(BaseFigure, show_figure)


__all__ = ["PLOT_CONFIG", "PLOTLY_MIME", "figure_bundle", "show_figure", "show_figures_cheaply"]
