"""A widget's look as plain HTML: the preview a static page shows while Python starts.

On the static site (Voici) a page's Python runs in the visitor's browser and needs 10–15 s
to start; until then the page would show nothing. The build runs every page once, turns
each output into HTML here and puts it into the page as a preview that cannot be clicked
(``bohnteach.site.static``). The HTML mirrors the DOM that ipywidgets draws (its classes,
so the page's styles apply) with every control disabled; charts become a box of the
chart's height with its title, drawn for real once Python runs.

    snapshot(widget)          # one widget and its children
    outputs_html(outputs)     # a cell's or an Output widget's outputs (nbformat dicts)
"""
from __future__ import annotations

import html as html_lib
from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets as widgets

from bohnteach.i18n import _
from bohnteach.upstream.ipywidgets import live_widgets, option_labels
from bohnteach.widgets.figure import PLOTLY_MIME as PLOTLY
from bohnteach.widgets.figure import WIDGET_VIEW

CHART_HEIGHT = 360  # plotly's height when a figure names none (as the chart renderer)

_BOX_KIND = {widgets.HBox: "widget-hbox", widgets.VBox: "widget-vbox", widgets.GridBox: "widget-gridbox"}


def _esc(text: object) -> str:
    return html_lib.escape(str(text), quote=True)


def _layout_css(widget: widgets.DOMWidget) -> str:
    """The widget's ``Layout`` as inline CSS (ipywidgets maps each trait to the property of
    the same name, ``_`` → ``-``)."""
    layout = getattr(widget, "layout", None)
    if layout is None:
        return ""
    rules = []
    for name in layout.keys:
        if name.startswith("_") or name in ("keys", "comm", "log"):
            continue
        value = getattr(layout, name, None)
        if value not in (None, ""):
            rules.append(f"{name.replace('_', '-')}: {value}")
    return "; ".join(rules)


def _open(widget: widgets.DOMWidget, classes: str, tag: str = "div", extra: str = "") -> str:
    names = " ".join(["lm-Widget", "jupyter-widgets", classes, *getattr(widget, "_dom_classes", ())])
    style = _layout_css(widget)
    attrs = f' style="{_esc(style)}"' if style else ""
    return f'<{tag} class="{_esc(names)}"{attrs}{extra}>'


def _label(widget: widgets.DOMWidget) -> str:
    text = getattr(widget, "description", "") or ""
    width = getattr(getattr(widget, "style", None), "description_width", "") or ""
    style = f' style="width: {_esc(width)}"' if width else ""
    hidden = "" if text else ' style="display: none"'
    return f'<label class="widget-label"{style or hidden}>{_esc(text)}</label>'


def snapshot(widget: Any) -> str:
    """HTML of ``widget`` (and its children) as ipywidgets would draw it, controls disabled."""
    if isinstance(widget, widgets.DOMWidget) and getattr(widget.layout, "display", None) == "none":
        return ""
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath)):
        return (_open(widget, "widget-inline-hbox widget-html") + _label(widget)
                + f'<div class="widget-html-content">{widget.value}</div></div>')
    if isinstance(widget, widgets.Label):
        return _open(widget, "widget-label") + _esc(widget.value) + "</div>"
    if isinstance(widget, (widgets.Button, widgets.ToggleButton)):
        kind = "widget-toggle-button" if isinstance(widget, widgets.ToggleButton) else "widget-button"
        mod = f" mod-{widget.button_style}" if widget.button_style else ""
        active = " mod-active" if getattr(widget, "value", False) is True else ""
        return (_open(widget, f"jupyter-button {kind}{mod}{active}",
                      "button", ' type="button" disabled')
                + _esc(widget.description) + "</button>")
    if isinstance(widget, widgets.Output):
        return _open(widget, "widget-output") + outputs_html(widget.outputs) + "</div>"
    if isinstance(widget, widgets.Box):
        kind = next((c for k, c in _BOX_KIND.items() if isinstance(widget, k)), "")
        inner = "".join(snapshot(child) for child in widget.children)
        return _open(widget, f"widget-container widget-box {kind}") + inner + "</div>"
    if isinstance(widget, (widgets.Dropdown, widgets.Select)):
        options = "".join(
            f"<option{' selected' if label == widget.label else ''}>{_esc(label)}</option>"
            for label in option_labels(widget))
        return (_open(widget, "widget-inline-hbox widget-dropdown") + _label(widget)
                + f"<select disabled>{options}</select></div>")
    if isinstance(widget, (widgets.RadioButtons, widgets.ToggleButtons)):
        items = "".join(
            f'<label><input type="radio" disabled{" checked" if label == widget.label else ""}> '
            f"{_esc(label)}</label>" for label in option_labels(widget))
        return (_open(widget, "widget-inline-hbox widget-radio") + _label(widget)
                + f'<div class="widget-radio-box">{items}</div></div>')
    if isinstance(widget, (widgets.IntSlider, widgets.FloatSlider)):
        return (_open(widget, "widget-inline-hbox widget-slider widget-hslider") + _label(widget)
                + f'<input type="range" disabled min="{widget.min}" max="{widget.max}" '
                  f'value="{widget.value}" aria-label="{_esc(widget.description)}">'
                + f'<div class="widget-readout">{_esc(widget.value)}</div></div>')
    if isinstance(widget, (widgets.FloatProgress, widgets.IntProgress)):
        return (_open(widget, "widget-inline-hbox widget-progress") + _label(widget)
                + f'<progress max="{widget.max - widget.min}" value="{widget.value - widget.min}">'
                  "</progress></div>")
    if isinstance(widget, widgets.Textarea):
        return (_open(widget, "widget-inline-hbox widget-textarea") + _label(widget)
                + f"<textarea disabled>{_esc(widget.value)}</textarea></div>")
    if isinstance(widget, (widgets.Text, widgets.BoundedIntText, widgets.IntText)):
        placeholder = _esc(getattr(widget, "placeholder", "") or "")
        return (_open(widget, "widget-inline-hbox widget-text") + _label(widget)
                + f'<input type="text" disabled value="{_esc(widget.value)}" '
                  f'placeholder="{placeholder}"></div>')
    if isinstance(widget, widgets.Checkbox):
        return (_open(widget, "widget-inline-hbox widget-checkbox")
                + f'<label><input type="checkbox" disabled{" checked" if widget.value else ""}> '
                  f"{_esc(widget.description)}</label></div>")
    if isinstance(widget, widgets.DOMWidget):  # any other control: its description
        return _open(widget, "widget-inline-hbox") + _label(widget) + "</div>"
    return ""


def _chart(figure: Mapping[str, Any]) -> str:
    layout = figure.get("layout", {})
    title = layout.get("title", {})
    title = title.get("text", "") if isinstance(title, Mapping) else str(title or "")
    height = layout.get("height") or CHART_HEIGHT
    wait = _("Diagramm folgt …")
    return (f'<div class="bt-preview-chart" style="height: {int(height)}px">'
            f"<p>{title}</p><p class=\"bt-preview-chart-wait\">{wait}</p></div>")


def output_html(output: Mapping[str, Any]) -> str:
    """One nbformat output as HTML; a widget output is looked up by its model id among the
    widgets of this process."""
    data = output.get("data", {})
    if output.get("output_type") == "stream":
        return f'<pre class="bt-preview-text">{_esc(output.get("text", ""))}</pre>'
    if WIDGET_VIEW in data:
        model_id = data[WIDGET_VIEW].get("model_id", "")
        found = live_widgets().get(model_id)
        return snapshot(found) if found is not None else ""
    if PLOTLY in data:
        return _chart(data[PLOTLY])
    if "text/html" in data:
        text = data["text/html"]
        return "".join(text) if isinstance(text, list) else text
    if "text/plain" in data:
        text = data["text/plain"]
        return f'<pre class="bt-preview-text">{_esc("".join(text) if isinstance(text, list) else text)}</pre>'
    return ""


def outputs_html(outputs: Iterable[Mapping[str, Any]]) -> str:
    """The outputs one below another, in the boxes JupyterLab draws them in (an output area,
    a row per output): the page's styles lay each output out as a table cell, so outputs
    that were siblings would stand side by side in columns."""
    parts = [part for part in map(output_html, outputs) if part]
    if not parts:
        return ""
    rows = "".join(f'<div class="jp-OutputArea-child"><div class="jp-OutputArea-output">{part}</div></div>'
                   for part in parts)
    return f'<div class="jp-OutputArea">{rows}</div>'
