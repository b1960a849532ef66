"""An ipywidgets progress bar usable as the ``progress`` callback of the simulations.

ipywidgets is imported only when a bar is made, so importing this module stays cheap::

    bar = progress_bar("Simuliere 1.000 Partien …")
    display(bar.widget)
    simulate_reveal("Gartenbohne", runs=Runs(1_000_000, progress=bar))
"""
from __future__ import annotations

from typing import Any

from bohnteach.i18n import N_, Translator, reader


class ProgressBar:
    """Callable ``bar(fraction)`` that moves a ``FloatProgress`` and a percent label, in the
    reader's language (``lang``, else the page's when the bar is made; ``description`` is
    worded by the caller)."""

    def __init__(self, description: str | None = None, lang: str | Translator | None = None):
        import ipywidgets as widgets  # lazy: UI only

        from bohnteach.widgets.parts import control, layout

        self.tr = reader(lang)
        description = self.tr.gettext(RUNNING) if description is None else description
        self.bar = control(widgets.FloatProgress, value=0.0, min=0.0, max=1.0, description=description,
                           label_width="initial", layout={"width": "60%"})
        self.label = control(widgets.Label, value=self._percent(0))
        self.widget: Any = widgets.HBox([self.bar, self.label], layout=layout())

    def __call__(self, fraction: float) -> None:
        fraction = min(1.0, max(0.0, float(fraction)))
        self.bar.value = fraction
        self.label.value = self._percent(fraction)
        if fraction >= 1.0:
            self.bar.bar_style = "success"
            self.label.value = self.tr.gettext("{percent} – fertig").format(percent=self._percent(1))

    def _percent(self, fraction: float) -> str:
        """``"42 %"`` (German) / ``"42%"`` (English)."""
        from bohnteach.render.numbers import localized

        return localized(f"{fraction * 100:.0f} %", self.tr)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


RUNNING = N_("Simulation läuft …")
"""A bar's description when its caller gives none."""


def progress_bar(description: str | None = None, lang: str | Translator | None = None) -> ProgressBar:
    """A new bar: show ``bar.widget`` (or ``bar``) and pass ``bar`` as ``progress``."""
    return ProgressBar(description, lang)


__all__ = ["ProgressBar", "progress_bar"]
