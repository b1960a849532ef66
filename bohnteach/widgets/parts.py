"""Widget parts that share their ``Layout`` and style models.

Every ipywidget brings a ``Layout`` model and a style model of its own unless it is given
one, and the browser must load every model before a page's widgets appear; on a page with
„Mach du!“ boards and scene pickers those models are a large part of its widget state, nearly
all alike. The parts built here share one ``Layout`` per set of settings and one style per
kind.

A shared ``Layout`` must never be changed: a widget shown and hidden later gets another
shared one assigned (``w.layout = layout(display="none")``), a widget changed in other ways
a ``widgets.Layout`` of its own.

A widget's CSS classes are given when it is made (``classes=``), not added afterwards: each
``add_class`` on a widget already sent to the page is one more message to the browser, and
on the static site more work for the page's Python.

    html("<b>Hallo</b>", classes=("bt-x",))  # HTML with the shared layout and style
    button("▶ weiter", style="primary")      # a phone-sized button
    flow([a, b, c])                          # a row that wraps
    box(widgets.VBox, [a, b], "bt-board", width="100%")  # a box with classes and a shared layout
    control(widgets.IntSlider, max=12, label_width="60px", layout={"width": "280px"})
    widgets.VBox(children, layout=layout(width="100%"))

A widget that speaks its reader's language keeps its translator as ``self.tr`` (given at
construction, ``bohnteach.i18n.reader``); its methods that draw are marked ``@speaks``, so
they word everything in that language whenever they are called – from the page's cell or
from a click long after it.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bohnteach.i18n import speaking

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle

_SHARED: dict[tuple[Any, ...], Any] = {}
W = TypeVar("W", bound=widgets.DOMWidget)
B = TypeVar("B", bound=widgets.Box)
M = TypeVar("M", bound=Callable[..., Any])


def speaks(method: M) -> M:
    """A widget's method that runs in the widget's language (``self.tr``, see above)."""

    @functools.wraps(method)
    def spoken(self: Any, *args: Any, **kwargs: Any) -> Any:
        with speaking(self.tr):
            return method(self, *args, **kwargs)

    return spoken  # type: ignore[return-value]


def _shared(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """The shared model for ``key``, made again if it was closed (``Widget.close_all``)."""
    model = _SHARED.get(key)
    if model is None or model.comm is None:
        model = _SHARED[key] = make()
    return model


def layout(**settings: str) -> widgets.Layout:
    """One shared ``Layout`` per set of settings — never to be changed afterwards."""
    return _shared(("layout", *sorted(settings.items())), lambda: widgets.Layout(**settings))


def style_of(kind: type, **settings: str) -> Any:
    """One shared style model of ``kind`` (e.g. ``widgets.ButtonStyle``) per set of settings."""
    return _shared((kind, *sorted(settings.items())), lambda: kind(**settings))


def html(value: str = "", *, classes: Sequence[str] = (), **settings: str) -> widgets.HTML:
    """An ``HTML`` widget with a shared layout (``settings``) and the shared style."""
    return widgets.HTML(value, layout=layout(**settings), style=style_of(HTMLStyle),
                        _dom_classes=tuple(classes))


def button(label: str, tooltip: str = "", *, style: str = "", width: str = "auto",
           classes: Sequence[str] = (), disabled: bool = False) -> widgets.Button:
    """A button sized for phones (content width, wraps in a flex row)."""
    return widgets.Button(
        description=label, tooltip=tooltip or label, button_style=style, disabled=disabled,
        layout=layout(width=width, min_width="44px", height="auto"),
        style=style_of(widgets.ButtonStyle), _dom_classes=tuple(classes),
    )


def box(kind: type[B], children: Sequence[Any], *classes: str, **settings: str) -> B:
    """A ``kind`` box (``VBox``, ``HBox``, ``Box``) of ``children`` with ``classes`` and a
    shared layout (``settings``)."""
    return kind(list(children), layout=layout(**settings), _dom_classes=classes)


def flow(children: Sequence[Any], *classes: str) -> widgets.HBox:
    """A row that wraps on narrow screens."""
    return box(widgets.HBox, children, *classes, flex_flow="row wrap", align_items="center",
               width="100%")


def control(kind: type[W], *args: Any, label_width: str = "", **kwargs: Any) -> W:
    """A ``kind`` widget (``Dropdown``, ``IntSlider``, ``Text``, ``Output``, …) whose
    ``layout`` (a dict of settings, as ipywidgets takes it) and style — if the kind has one;
    ``label_width``: its description's width — are shared models."""
    kwargs["layout"] = layout(**kwargs.get("layout", {}))
    style = kind.class_traits().get("style")
    if style is not None:
        kwargs["style"] = style_of(style.klass, **({"description_width": label_width} if label_width else {}))
    return kind(*args, **kwargs)
