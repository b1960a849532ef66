"""Charts and widgets on a page: the one way the site and the lessons display a
``go.Figure``, and a widget's bundle without ipywidgets' text.

The figure goes out as plotly's own MIME bundle (``application/vnd.plotly.v1+json``, the
bundle of plotly's ``plotly_mimetype`` renderer), which the site's chart renderer
(``bohnteach/site/jupyter/labextensions/bohnteach-charts``) draws under Voilà and on the
static site alike. It has plotly.js's basic bundle: scatter, bar and pie traces only.
Never through ``fig.show()`` or plotly.io's renderers: they import nbformat → jsonschema →
``rfc3987_syntax``, which compiles 38 lark grammars (about 3 s of CPU in every kernel that
shows its first chart, benchmarks/README.md "Lessons"), and the static site's Python
(Pyodide) cannot install nbformat at all.

A widget's own bundle (``Widget._repr_mimebundle_``) carries a text of the widget, built by
walking every trait of every widget inside it and then cut to 110 characters: on the
Indiana chapter a sixth of the page's Python in the browser, for a text no page shows.

HTML output (:func:`HTML`) is IPython's ``HTML`` without its check whether the text names a
file: a ``stat`` of the text as a path, which on the static site asks the page and waits for
it (20–40 ms per output, 0.1–0.2 s of a chapter).
"""
from __future__ import annotations

import json
from typing import Any

#: plotly.js options of every chart: no logo, no icon bar over the title on a phone,
#: resized with the page.
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "displayModeBar": False}
PLOTLY_MIME = "application/vnd.plotly.v1+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def figure_bundle(fig: Any) -> dict[str, Any]:
    """``{PLOTLY_MIME: figure as JSON data, with PLOT_CONFIG}`` for a ``go.Figure``.
    The figure's own method (plotly.io's ``to_json``): no plotly import here, so code that
    only hands figures on does not count as reaching plotly (:mod:`bohnteach.site.reach`)."""
    data = json.loads(fig.to_json(validate=False, remove_uids=False))
    data["config"] = dict(PLOT_CONFIG)
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


def HTML(text: str) -> Any:  # noqa: N802 - stands in for IPython.display.HTML
    """``IPython.display.HTML(text)`` for a text that is HTML, never a file name or an
    address: made without IPython's look at the file system (see the module's docstring)."""
    from IPython.display import HTML as IPythonHTML

    out = IPythonHTML.__new__(IPythonHTML)
    out.data, out.url, out.filename, out.metadata = text, None, None, {}
    return out


def widget_bundle(widget: Any) -> dict[str, Any] | None:
    """The bundle ipywidgets gives a widget with a view, with its class's name as the text;
    None for a widget without one (IPython then shows its text as before)."""
    if widget._view_name is None:
        return None
    return {"text/plain": f"{type(widget).__name__}(…)",
            WIDGET_VIEW: {"version_major": 2, "version_minor": 0, "model_id": widget.model_id}}


def display_cheaply() -> None:
    """In a kernel (a no-op outside IPython): every plotly figure that is displayed or a
    cell's result goes through :func:`show_figure`, every widget through
    :func:`widget_bundle`. Registered by the classes' names, so a page without charts never
    imports plotly (nor preloads it on the static site)."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        formatter = shell.display_formatter
        formatter.ipython_display_formatter.for_type_by_name(
            "plotly.basedatatypes", "BaseFigure", show_figure)
        formatter.mimebundle_formatter.for_type_by_name(
            "ipywidgets.widgets.widget", "Widget", widget_bundle)


__all__ = ["HTML", "PLOT_CONFIG", "PLOTLY_MIME", "WIDGET_VIEW", "display_cheaply", "figure_bundle",
           "show_figure", "widget_bundle"]
