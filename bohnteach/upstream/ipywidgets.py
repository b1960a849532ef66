"""ipywidgets and IPython in the kernel: their registry of live widgets, a selection's
labels, the widget-view bundle made by hand, IPython's ``HTML`` without its file look,
and ``Output`` capturing without a kernel (the site's preview)."""
from __future__ import annotations

from typing import Any

from bohnteach.upstream import problem, version_problems

#: The versions this adapter was checked against (pinned so in pyproject.toml's [site]).
CHECKED = {"ipywidgets": "8.1.8", "jupyterlab_widgets": "3.0.16", "ipython": "9.18.1"}
#: Only the checked version will do (pyproject.toml's [site] says more).
EXACT = dict.fromkeys(("ipywidgets", "jupyterlab_widgets"),
                      "8.1.9/3.0.17 finden Widgets unter Last nicht („model not found“, ipywidgets#4033)")
#: The widget-view mime type and the version of it ipywidgets 8 writes.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
VIEW_VERSION = {"version_major": 2, "version_minor": 0}


def check() -> list[str]:
    """What of ipywidgets and IPython this adapter touches and finds changed."""
    found = version_problems(CHECKED, EXACT)
    if found:
        return found
    import ipywidgets as widgets
    from ipywidgets.widgets import widget as widget_module

    if not isinstance(getattr(widget_module, "_instances", None), dict):
        return [problem("ipywidgets", "ipywidgets.widgets.widget._instances fehlt")]
    if not hasattr(widgets.Dropdown, "_options_labels"):
        found.append(problem("ipywidgets", "Dropdown._options_labels fehlt"))
    button = widgets.Button()
    try:
        view = (button._repr_mimebundle_() or {}).get(WIDGET_VIEW, {})
    finally:
        button.close()
    if {key: view.get(key) for key in VIEW_VERSION} != VIEW_VERSION:
        found.append(problem("ipywidgets", f"Widget-Ansicht {view}: nicht Version 2.0"))
    for name in ("__enter__", "__exit__", "clear_output", "outputs"):
        if not hasattr(widgets.Output, name):
            found.append(problem("ipywidgets", f"Output.{name} fehlt"))
    from IPython.display import HTML

    shown = HTML("<b>x</b>")
    if [getattr(shown, name, "fehlt") for name in ("data", "url", "filename", "metadata")][:3] \
            != ["<b>x</b>", None, None]:
        found.append(problem("ipython", "IPython.display.HTML: data/url/filename geändert"))
    return found


def live_widgets() -> dict[str, Any]:
    """Every live widget model of this process, by model id (ipywidgets' own registry)."""
    from ipywidgets.widgets.widget import _instances

    return _instances


def option_labels(widget: Any) -> tuple[str, ...]:
    """The labels a selection widget (Dropdown, RadioButtons …) shows."""
    return tuple(widget._options_labels)


def view_bundle(widget: Any, text: str) -> dict[str, Any]:
    """The display bundle of ``widget``'s view with ``text`` as its plain text: what
    ``Widget._repr_mimebundle_`` gives, made without its look at the front end's version."""
    return {"text/plain": text, WIDGET_VIEW: {**VIEW_VERSION, "model_id": widget.model_id}}


def html_display(text: str) -> Any:
    """``IPython.display.HTML(text)`` for a text that is HTML, never a file name or an
    address: made without IPython's look at the file system."""
    from IPython.display import HTML

    out = HTML.__new__(HTML)
    out.data, out.url, out.filename, out.metadata = text, None, None, {}
    return out


def capture_output_widgets(to_output: Any) -> None:
    """Without a kernel ``with output:`` would leave what is displayed in the cell; here it
    goes into the ``Output`` widget, as in the browser: each captured display's data
    through ``to_output(data)`` (an nbformat output)."""
    import ipywidgets as widgets
    from IPython.utils.capture import capture_output

    def enter(self: Any) -> Any:
        self._bt_capture = capture_output(stdout=False, stderr=False)
        self._bt_captured = self._bt_capture.__enter__()
        return self

    def leave(self: Any, *exc: Any) -> None:
        self._bt_capture.__exit__(*exc)
        self.outputs = self.outputs + tuple(to_output(o.data) for o in self._bt_captured.outputs)

    def clear(self: Any, *args: Any, **kwargs: Any) -> None:
        self.outputs = ()

    widgets.Output.__enter__ = enter
    widgets.Output.__exit__ = leave
    widgets.Output.clear_output = clear
