"""An ipywidgets progress bar usable as the ``progress`` callback of the simulations.

ipywidgets is imported only when a bar is made, so importing this module stays cheap::

    bar = progress_bar("Simuliere 1.000 Partien …")
    display(bar.widget)
    simulate_reveal("Gartenbohne", runs=Runs(1_000_000, progress=bar))
"""
from __future__ import annotations

from typing import Any

from bohnteach.i18n import N_, _

RUNNING = N_("Simulation läuft …")
"""The bar's label unless the caller gives one (translated where shown)."""


class ProgressBar:
    """Callable ``bar(fraction)`` that moves a ``FloatProgress`` and a percent label."""

    def __init__(self, description: str | None = None):
        """``description``: already in the reader's language; none: „Simulation läuft …“ in it."""
        import ipywidgets as widgets  # lazy: UI only

        from bohnteach.widgets.parts import control, layout

        self.done = _("100 % – fertig")  # made in the page's language: the bar fills later
        self.bar = control(widgets.FloatProgress, value=0.0, min=0.0, max=1.0,
                           description=_(RUNNING) if description is None else description,
                           label_width="initial", layout={"width": "60%"})
        self.label = control(widgets.Label, value="0 %")
        self.widget: Any = widgets.HBox([self.bar, self.label], layout=layout())

    def __call__(self, fraction: float) -> None:
        fraction = min(1.0, max(0.0, float(fraction)))
        self.bar.value = fraction
        self.label.value = f"{fraction * 100:.0f} %"
        if fraction >= 1.0:
            self.bar.bar_style = "success"
            self.label.value = self.done

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def progress_bar(description: str | None = None) -> ProgressBar:
    """A new bar: show ``bar.widget`` (or ``bar``) and pass ``bar`` as ``progress``."""
    return ProgressBar(description)


__all__ = ["ProgressBar", "progress_bar"]
