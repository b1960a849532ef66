"""Charts and widgets on a page: the one way the site and the lessons display a
``go.Figure``, and a widget's bundle without ipywidgets' text.

The figure goes out as plotly's own MIME bundle (``application/vnd.plotly.v1+json``, the
bundle of plotly's ``plotly_mimetype`` renderer), which the site's chart renderer
(``bohnteach/site/jupyter/labextensions/bohnteach-charts``) draws under Voilà and on the
static site alike. It has plotly.js's basic bundle: scatter, bar and pie traces only.
Never through ``fig.show()`` or plotly.io's renderers: they import nbformat → jsonschema →
``rfc3987_syntax``, which compiles 38 lark grammars (seconds of CPU in every kernel that
shows its first chart), and the static site's Python (Pyodide) cannot install nbformat at
all.

Outside the site the bundle also carries the chart as ``text/html`` (:func:`html_form`), so
that a front end without a plotly renderer draws it: JupyterLab or Notebook 7 without
jupyterlab-plotly, VS Code, Colab, an HTML export (nbconvert), nbviewer. The first chart of a
kernel carries plotly.js from the plotly package (4–5 MB, no CDN), later ones call the
``Plotly`` it left on the page (Colab gives each output a frame of its own: there every chart
carries it). The site (:func:`site_charts`) keeps the JSON only: its renderer draws that, and
plotly.js in a page's widget state would make every visit megabytes heavier.

A widget's own bundle (``Widget._repr_mimebundle_``) carries a text of the widget, built by
walking every trait of every widget inside it and then cut to 110 characters: a large
share of a chapter's Python in the browser, for a text no page shows.

HTML output (:func:`HTML`) is IPython's ``HTML`` without its check whether the text names a
file: a ``stat`` of the text as a path, which on the static site asks the page and waits for
it, once per output.
"""
from __future__ import annotations

import json
import os
import pkgutil
import sys
from functools import cache
from pathlib import Path
from typing import Any

from bohnteach.i18n import _

#: plotly.js options of every chart: no logo, no icon bar over the title on a phone,
#: resized with the page.
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "displayModeBar": False}
PLOTLY_MIME = "application/vnd.plotly.v1+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Set to ``1`` in a kernel's environment where the site's chart renderer draws the JSON form
#: (the site's page tests set it for kernels they run without Voilà).
SITE_ENV = "BOHNTEACH_SITE"
_PLOTLY_JS_TEMPLATE = Path(__file__).with_name("plotly_global.js")

_sent_plotly_js = {"cell": False, "anywhere": False}
"""Whether this kernel has sent plotly.js yet: in a cell's own output (what an HTML export
keeps: widgets' outputs need a widget manager there) and anywhere at all."""


def site_charts() -> bool:
    """True where the site draws charts from the JSON form alone: a Voilà kernel (Voilà sets
    ``VOILA_PREHEAT`` in every kernel it starts; its pages draw the JSON with the site's
    renderer, or jupyterlab-plotly, which plotly installs beside Voilà), the static site
    (Python on Pyodide) and :data:`SITE_ENV`. Read from the environment each time: a kernel
    Voilà preheats gets its visitor's variables later."""
    return (os.environ.get(SITE_ENV) == "1" or "VOILA_PREHEAT" in os.environ
            or sys.platform == "emscripten")


@cache
def plotly_js() -> str:
    """The plotly package's plotly.js inside ``plotly_global.js`` (one ``<script>`` text).
    Read from the package's data as ``plotly.offline.get_plotlyjs`` reads it, without
    importing plotly here: code that only hands figures on would otherwise count as reaching
    plotly on every page of the static site (:mod:`bohnteach.site.reach`), where this never
    runs (:func:`site_charts`); where it runs, the figure's maker imported plotly already."""
    bundle = pkgutil.get_data("plotly", "package_data/plotly.min.js")
    if bundle is None:  # a plotly without its bundle cannot draw outside a renderer
        raise FileNotFoundError("plotly.js fehlt im Paket plotly (package_data/plotly.min.js)")
    return _PLOTLY_JS_TEMPLATE.read_text("utf-8").replace("/*PLOTLY_JS*/", bundle.decode("utf-8"))


def html_form(fig: Any, *, in_cell: bool = True) -> str:
    """``fig`` as self-contained HTML: a ``<div>`` and the ``Plotly.newPlot`` call of the
    figure's own ``to_html``, after plotly.js if this kernel has not sent it yet (in a cell's own output:
    ``in_cell``; see the module's docstring)."""
    colab = "google.colab" in sys.modules
    script = colab or not _sent_plotly_js["cell" if in_cell else "anywhere"]
    div = fig.to_html(include_plotlyjs=False, full_html=False, config=PLOT_CONFIG, validate=False)
    if not script:
        return div
    _sent_plotly_js["anywhere"] = True
    if in_cell:
        _sent_plotly_js["cell"] = True
    return f'<script type="text/javascript">{plotly_js()}</script>{div}'


def figure_bundle(fig: Any, *, in_cell: bool = True) -> dict[str, Any]:
    """``{PLOTLY_MIME: figure as JSON data, with PLOT_CONFIG}`` for a ``go.Figure``, outside
    the site (:func:`site_charts`) with its ``text/html`` form and a ``text/plain`` line too
    (``in_cell``: shown in a cell's own output, not in an ``Output`` widget).
    The figure's own method (plotly.io's ``to_json``): no plotly import here, so code that
    only hands figures on does not count as reaching plotly (:mod:`bohnteach.site.reach`)."""
    data = json.loads(fig.to_json(validate=False, remove_uids=False))
    data["config"] = dict(PLOT_CONFIG)
    if site_charts():
        return {PLOTLY_MIME: data}
    title = (data.get("layout", {}).get("title") or {}).get("text") or ""
    plain = (_("Diagramm: {title}").format(title=title.split("<br>")[0]) if title
             else _("Diagramm"))  # the reader's language: the caller speaks it while it shows the chart
    return {PLOTLY_MIME: data, "text/html": html_form(fig, in_cell=in_cell), "text/plain": plain}


def show_figure(fig: Any, output: Any | None = None) -> None:
    """Display ``fig`` in the cell, or inside the ``Output`` widget ``output``, replacing
    what it showed before."""
    from IPython.display import display

    if output is None:
        display(figure_bundle(fig), raw=True)
        return
    with output:
        output.clear_output(wait=True)
        display(figure_bundle(fig, in_cell=False), raw=True)


def HTML(text: str) -> Any:  # noqa: N802 - stands in for IPython.display.HTML
    """``IPython.display.HTML(text)`` for a text that is HTML, never a file name or an
    address: made without IPython's look at the file system (see the module's docstring)."""
    from bohnteach.upstream.ipywidgets import html_display

    return html_display(text)


def widget_bundle(widget: Any) -> dict[str, Any] | None:
    """The bundle ipywidgets gives a widget with a view, with its class's name as the text;
    None for a widget without one (IPython then shows its text as before)."""
    from bohnteach.upstream.ipywidgets import view_bundle

    if widget._view_name is None:
        return None
    return view_bundle(widget, f"{type(widget).__name__}(…)")


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


__all__ = ["HTML", "PLOT_CONFIG", "PLOTLY_MIME", "SITE_ENV", "WIDGET_VIEW", "display_cheaply",
           "figure_bundle", "html_form", "plotly_js", "show_figure", "site_charts", "widget_bundle"]
