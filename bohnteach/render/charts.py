"""Plotly figure builders for the lessons: data in, ``plotly.graph_objects.Figure`` out.

Labels in the reader's language (the translator that holds while a chart is built,
:func:`bohnteach.i18n.current`; German outside :func:`bohnteach.i18n.speaking`), numbers in
its style (:mod:`bohnteach.render.numbers`); each variety drawn in its ``Variety.colour`` and always named (legend,
axis labels or hover text), never told apart by colour alone: every curve also has its own
line style and marker, and more than :data:`MAX_LINES` curves become small multiples (one
panel per variety). Every builder ends in :func:`chart_layout`, so all charts fit a 390 px
phone: wrapped title, legend as a row below the plot, slim margins. Charts that read a
Bohnometer carry a visible note when the rule set's meters are an assumption
(``RuleSet.meter_assumption``). Shown with ``bohnteach.widgets.figure.show_figure``, never as a
``FigureWidget``.
"""
from __future__ import annotations

import copy
import math
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import plotly.graph_objects as go

from bohnteach.game.beans import Variety, find_variety, meter_value
from bohnteach.maths.montecarlo import Estimate, Runs, simulate_at_least_one
from bohnteach.maths.probability import (
    Pile,
    Targets,
    VarietyLike,
    _pile,
    _target_keys,
    count_distribution,
    deck_counts,
    decimal_de,
    _ordered,
    expected_count,
    expected_wait,
    meter_of,
    p_at_least_one,
    percent,
    waiting_time_distribution,
)
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.game.rulesets import Trait
from bohnteach.i18n import _, current, ngettext
from bohnteach.render.language import assumption, variety_word
from bohnteach.render.numbers import integer, localized, separators
from bohnteach.render.words import trait_tag
from bohnteach.upstream.plotly import grid_figure

RuleSets = str | RuleSet | Sequence[str | RuleSet]

_DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
_MARKERS = ("circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "x",
            "pentagon", "hexagon", "triangle-left", "triangle-right", "hourglass")
NEUTRAL = "#555555"
SIMULATED = "#9E9E9E"
WARN_TEXT, WARN_BACK = "#8A4B00", "#FFF4E0"

BASE_HEIGHT = 450
"""Pixels of a chart without legend (plotly's default)."""
LEGEND_ROW = 20
"""Pixels of one legend row."""
TITLE_CHARS = 40
"""Characters of a title line that fit a 390 px phone; longer titles wrap."""
SUBTITLE = '<span style="font-size:12px">'
"""How a title's ``<sup>`` line is set (``wrap_lines``)."""
NOTE_CHARS = 52
"""Characters of a note line (12 px) that fit a 390 px phone."""
MAX_LINES = 4
"""More curves than this in one plot lie on top of each other: one panel per variety instead."""
TRACES = ("scatter", "bar", "pie")
"""The trace types the site draws: those of plotly.js's basic bundle, the one the site's chart
renderer has (``bohnteach/site/jupyter/labextensions/bohnteach-charts``)."""
TEMPLATE = "bohnteach"
"""The charts' plotly template (:func:`_use_template`)."""
_NOT_DRAWN = ("coloraxis", "colorscale", "geo", "mapbox", "polar", "scene", "ternary")


# --------------------------------------------------------------------------- helpers


def _rulesets(rulesets: RuleSets) -> list[RuleSet]:
    if isinstance(rulesets, (str, RuleSet)):
        return [find_ruleset(rulesets)]
    found = [find_ruleset(r) for r in rulesets]
    if not found:
        raise ValueError("Mindestens ein Regelwerk angeben.")
    return found


def short_title(ruleset: str | RuleSet) -> str:
    """``"Grundspiel (Amigo)"`` from ``"Bohnanza – Grundspiel (Amigo)"`` (the reader's language)."""
    return current().gettext(find_ruleset(ruleset).title).split(" – ", 1)[-1]


def _decimal(value: Fraction | float, digits: int = 2) -> str:
    """``decimal_de`` in the reader's style."""
    return localized(decimal_de(value, digits))


def _percent(value: Fraction | float, digits: int = 1) -> str:
    """``percent`` in the reader's style."""
    return localized(percent(value, digits))


def coins_text(coins: int) -> str:
    """``"3 Taler"`` / ``"3 coins"``."""
    return ngettext("{n} Taler", "{n} Taler", coins).format(n=coins)


def cards_text(variety: Variety, n: int) -> str:
    """``"7 Blaue Bohnen"``, ``"1 Blaue Bohne"`` (the reader's language)."""
    return f"{n} {variety_word(variety, n)}"


def target_words(targets: Targets, plural: bool = False) -> str:
    """The name(s) of ``targets`` in the reader's language: ``"Blaue Bohne oder Sojabohne"``."""
    names = [variety_word(find_variety(k), 2 if plural else 1) for k in _ordered(_target_keys(targets))]
    if len(names) == 1:
        return names[0]
    return _("{names} oder {last}").format(names=", ".join(names[:-1]), last=names[-1])


def varieties_of(varieties: Iterable[VarietyLike] | VarietyLike | None, rulesets: list[RuleSet]):
    if varieties is None:
        keys: list[str] = []
        for rs in rulesets:
            keys += [k for k in rs.varieties if k not in keys]
        return [find_variety(k) for k in keys]
    if isinstance(varieties, (str, Variety)):
        varieties = [varieties]
    return [find_variety(v) for v in varieties]


@dataclass(frozen=True)
class _Series:
    """One curve of a Bohnometer chart and how it is told apart from the others."""

    rs: RuleSet
    variety: Variety
    trait: Trait
    meter: tuple[int, ...]
    name: str  # "Blaue Bohne (<trait in words>) – Grundspiel (Amigo)"
    detail: str  # the name without the variety ("<trait in words> – Grundspiel (Amigo)"), or ""
    dash: str
    symbol: str
    trait_rank: int = 0
    """The trait's place among the variety's traits with a meter (0 without traits)."""


def _meter_series(varieties, rulesets: RuleSets, trait: Trait | Sequence[Trait]) -> list[_Series]:
    """Each curve to draw. Every curve gets its own pair of marker (by variety) and line
    style (by rule set, else by card trait, else by variety), so colour is never the only cue."""
    sets = _rulesets(rulesets)
    chosen = varieties_of(varieties, sets)
    many = len(sets) > 1
    series = []
    for i, rs in enumerate(sets):
        for j, v in enumerate(chosen):
            if v.key not in rs.varieties:
                continue
            own = list(rs.trait_meters.get(v.key, {}))  # the traits with a meter of their own
            if not own:  # cards without traits: one meter
                traits: list[Trait] = [None]
            elif trait is not None:
                wanted = [trait] if isinstance(trait, str) else list(trait)
                traits = [s for s in wanted if s in own]
            else:
                traits = own
            for s in traits:
                words = [current().gettext(trait_tag(s, "word")) or s] if s is not None else []
                rank = own.index(s) if s is not None else 0
                if many:
                    words.append(short_title(rs))
                    dash = _DASHES[i % len(_DASHES)]
                elif own:
                    dash = "dot" if rank else "solid"
                else:
                    dash = _DASHES[j % len(_DASHES)]
                name = variety_word(v) + (f" ({words[0]})" if s is not None else "")
                name += f" – {short_title(rs)}" if many else ""
                series.append(_Series(rs, v, s, meter_of(v, rs, s), name, " – ".join(words),
                                      dash, _MARKERS[j % len(_MARKERS)], rank))
    if not series:
        names = ", ".join(variety_word(v) for v in chosen)
        titles = ", ".join(current().gettext(rs.title) for rs in sets)
        raise ValueError(_("{names}: kommt in {titles} nicht vor.").format(names=names, titles=titles))
    return series


def assumption_texts(rulesets: Iterable[RuleSet]) -> list[str]:
    """``"⚠ Annahme (<rule set>): …"`` for each rule set whose meters are assumed, wrapped
    to fit a phone (the rule set's text through the catalogue, as the data has it)."""
    notes = []
    for rs in {rs.name: rs for rs in rulesets}.values():
        if rs.meter_assumption:
            note = _("⚠ Annahme ({ruleset}): {text}").format(ruleset=short_title(rs),
                                                             text=assumption(rs.meter_assumption))
            lines = wrap_lines(note, NOTE_CHARS)
            notes.append("<br>".join(lines))
    return notes


def _note(text: str, name: str, y: float, yanchor: str, warn: bool = True) -> dict[str, Any]:
    """A boxed note on the figure, as an annotation (``warn``: the orange box of an assumption)."""
    return dict(
        text=text, xref="paper", yref="paper", x=0, y=y, xanchor="left", yanchor=yanchor,
        align="left", showarrow=False, name=name,
        font=dict(size=12, color=WARN_TEXT if warn else "#333333"),
        bgcolor=WARN_BACK if warn else None, bordercolor=WARN_TEXT if warn else None,
    )


def _note_height(text: str) -> int:
    return 17 * (text.count("<br>") + 1) + 8


def annotations(fig: go.Figure) -> list[dict[str, Any]]:
    """The figure's annotations as data, to hand to :func:`set_layout` with more of them."""
    return [a.to_plotly_json() for a in fig.layout.annotations]


def mean_line(x: float, colour: str, text: str) -> dict[str, list[dict[str, Any]]]:
    """A dashed vertical line at ``x`` named by ``text`` at its top right, as layout data for
    :func:`chart_layout` (``{"shapes": […], "annotations": […]}``): what plotly's
    ``add_vline(…, annotation_position="top right")`` adds, without its two passes through
    plotly's updates."""
    return dict(
        shapes=[dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain",
                     line=dict(color=colour, dash="dash"))],
        annotations=[dict(text=text, x=x, xref="x", y=1, yref="y domain", xanchor="left",
                          yanchor="top", showarrow=False)],
    )


def _assumption_note(fig: go.Figure, rulesets: Iterable[RuleSet]) -> go.Figure:
    """The assumption notes between title and plot, where they are read first; the top
    margin grows by their height."""
    notes = assumption_texts(rulesets)
    if not notes:
        return fig
    text = "<br>".join(notes)
    grow = _note_height(text) + 6
    note = dict(_note(text, "meter_assumption", y=1, yanchor="bottom"), yshift=6)
    return set_layout(
        fig, annotations=[*annotations(fig), note], margin=dict(t=fig.layout.margin.t + grow),
        height=(fig.layout.height or BASE_HEIGHT) + grow,
    )


def wrap_lines(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters; ``<br>`` breaks stay breaks. A
    line in ``<sup>…</sup>`` (a subtitle) takes a third more characters and is set in
    smaller type on every line it wraps into (a span, not ``<sup>``: plotly.js raises a
    ``<sup>`` line above its baseline, which left a gap between two wrapped lines)."""
    lines = []
    for part in text.split("<br>"):
        if part.startswith("<sup>") and part.endswith("</sup>"):
            inner = textwrap.wrap(part[5:-6], width * 4 // 3) or [""]
            lines += [f"{SUBTITLE}{line}</span>" for line in inner]
        else:
            lines += textwrap.wrap(part, width) or [""]
    return lines


def _use_template() -> None:
    """Registers :data:`TEMPLATE` as plotly's default template: plotly's
    ``plotly_white`` for what the site draws — its page, axes, colours and fonts, and its
    defaults for the :data:`TRACES` — without its maps, 3-D scenes, colour scales and other
    trace types. Called when this module is imported, so every chart made afterwards has it.

    Why so: plotly copies and checks a template set on a figure, but takes the default one
    unchecked when it makes a figure; and a chart carries its whole template. Setting the
    full ``plotly_white`` on each chart was two thirds of a simple chart's build time (about
    a quarter second per chart in the static site's Python) and 5 KB of its JSON."""
    import plotly.io as pio

    white = pio.templates["plotly_white"].to_plotly_json()
    pio.templates[TEMPLATE] = go.layout.Template(
        layout={k: v for k, v in white["layout"].items() if k not in _NOT_DRAWN},
        data={k: v for k, v in white["data"].items() if k in TRACES},
    )
    pio.templates.default = TEMPLATE


_use_template()


_AXIS = re.compile(r"[xy]axis\d*")
_UNDERSCORED = frozenset({"paper_bgcolor", "plot_bgcolor"})
"""The only layout properties with an underscore in their name (plotly 6–7)."""


def _spelled_out(updates: Mapping[str, Any]) -> dict[str, Any]:
    """``updates`` as nested data: plotly's "magic underscore" keys spelled out at every level
    (``{"xaxis_title_text": "x"}`` → ``{"xaxis": {"title": {"text": "x"}}}``), plotly objects
    as their JSON."""
    out: dict[str, Any] = {}
    for key, value in updates.items():
        if hasattr(value, "to_plotly_json"):
            value = value.to_plotly_json()
        if isinstance(value, Mapping):
            value = _spelled_out(value)
        first, *rest = [key] if key in _UNDERSCORED else key.split("_")
        for part in reversed(rest):
            value = {part: value}
        _merge(out, {first: value})
    return out


def _merge(into: dict[str, Any], more: Mapping[str, Any]) -> dict[str, Any]:
    """``more`` merged into ``into`` as plotly's updates do: nested data merges key by key,
    anything else (a list of annotations, a number, None) replaces what was there."""
    for key, value in more.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
    return into


def set_layout(fig: go.Figure, updates: Mapping[str, Any] | None = None, *,
               xaxes: Mapping[str, Any] | None = None, yaxes: Mapping[str, Any] | None = None,
               **more: Any) -> go.Figure:
    """What ``fig.update_xaxes(**xaxes)``, ``fig.update_yaxes(**yaxes)`` and then
    ``fig.update_layout(updates, **more)`` do, in one step: the updates are merged into the
    layout's data, which the figure then takes at once (and checks once). A list
    (``annotations``, ``shapes``) replaces the figure's, as an assignment does; hand on
    :func:`annotations` with the new ones to add to them.

    Why so: plotly's own updates walk and check the figure's property tree again for every
    key, several times the cost of one merged update, most of all in the static site's
    Python (figures: benchmarks/README.md)."""
    layout = fig.layout.to_plotly_json()
    for letter, axes in (("x", xaxes), ("y", yaxes)):
        if axes:
            spelled = _spelled_out(axes)
            for key in {f"{letter}axis", *(k for k in layout if k[0] == letter and _AXIS.fullmatch(k))}:
                _merge(layout.setdefault(key, {}), copy.deepcopy(spelled))
    _merge(layout, _spelled_out({**(updates or {}), **more}))
    fig.layout = _unchecked_template(layout)
    return fig


def _unchecked_template(layout: dict[str, Any]) -> dict[str, Any]:
    """``layout`` without its template if that is plotly's default, which plotly then puts
    back unchecked: checking it again was a sixth of a layout's time."""
    import plotly.io as pio

    default = pio.templates[pio.templates.default]
    if id(default) not in _TEMPLATE_DATA:
        _TEMPLATE_DATA[id(default)] = default.to_plotly_json()
    if layout.get("template") == _TEMPLATE_DATA[id(default)]:
        del layout["template"]
    return layout


_TEMPLATE_DATA: dict[int, dict[str, Any]] = {}
"""A registered template's data by the template object's id, made once."""


def chart_layout(fig: go.Figure, title: str, x: str, y: str, **more: Any) -> go.Figure:
    """The layout every chart shares, readable from a 390 px phone to a projector.

    The title is wrapped and set flush left in a top margin sized for its lines (so nothing
    of it is cut off); the legend is a row pinned to the bottom edge of the figure, which
    pushes the plot up instead of squeezing it sideways or covering the axis title; slim
    margins that the axes widen as far as their labels need. Numbers in the reader's style.
    ``more`` is merged into the layout last (as ``update_layout`` would): a ``legend`` there
    adds to the default one, or replaces it if it sets its own ``y``; ``legend_title`` names it.
    """
    lines = wrap_lines(title, TITLE_CHARS)
    legend = _spelled_out(more.pop("legend", None) or {})
    if "y" not in legend:  # not placed by the caller: the row below the plot
        legend = _merge(dict(orientation="h", x=0, xanchor="left", yref="container", y=0,
                             yanchor="bottom", title=dict(side="top")), legend)
    legend_title = more.pop("legend_title", None)
    if legend_title:
        _merge(legend, {"title": {"text": legend_title}})
    if "height" not in more and more.get("showlegend", True):
        # a phone wraps the legend row into two columns: taller, so the plot keeps its room
        entries = sum(t.showlegend is not False for t in fig.data) if len(fig.data) > 1 else 0
        more["height"] = BASE_HEIGHT + LEGEND_ROW * -(-entries // 2)
    shared = dict(
        title=dict(text="<br>".join(lines), x=0.01, xanchor="left", yref="container", y=1,
                   yanchor="top", pad=dict(t=_title_pad(len(lines))), font=dict(size=16)),
        xaxis=dict(title=dict(text=x)),
        yaxis=dict(title=dict(text=y)),
        separators=separators(),
        hoverlabel=dict(namelength=-1),
        margin=dict(l=10, r=10, t=title_height(len(lines)), b=10),
        legend=legend,
    )
    # ticklabeloverflow "allow": the margins already make room for every tick label, so
    # plotly.js need not measure each label again to hide those past the chart's edge (on
    # lesson 4 that measuring was about a sixth of plotly.js's time on the page)
    axes = dict(automargin=True, ticklabeloverflow="allow")
    return set_layout(fig, _merge(shared, _spelled_out(more)), xaxes=axes, yaxes=axes)


def _title_pad(lines: int) -> int:
    """Space above the title; plotly.js sets a title of several lines 11 px higher than
    its ``yanchor="top"`` asks for (measured in Chromium), which would cut its first line."""
    return 10 if lines == 1 else 21


def title_height(lines: int) -> int:
    """Pixels from the top edge to the plot for a title of ``lines`` lines."""
    return _title_pad(lines) + 14 + 21 * lines


LOG_POINTS_PER_DECADE = 120
"""Points per decade that a curve on a log axis needs at most: about one per 2 px of a wide
chart (a decade takes 200–250 px). More only make the page heavier and slower to draw."""


def log_thin(xs: Sequence[float], per_decade: int = LOG_POINTS_PER_DECADE) -> list[int]:
    """Indices of the ascending, positive ``xs`` to draw on a log axis: the first and the
    last, and in between each one at least 1/``per_decade`` of a decade after the one kept
    before it. A simulation's 1,090 checkpoints (every trial to 100, then every 10th up to
    10.000) become about 250, and no point is more than that step from a kept one."""
    step = 1 / per_decade
    keep: list[int] = []
    last = -math.inf
    for i, x in enumerate(xs):
        at = math.log10(x)
        if at - last >= step or i == len(xs) - 1:
            keep.append(i)
            last = at
    return keep


def log_ticks(low: float, high: float) -> tuple[list[int], list[str]]:
    """Tick values and labels (the reader's style) for a log axis from ``low`` to ``high``: the powers of
    ten only (10, 100, 1.000, …), evenly spaced, so no two labels run into each other."""
    first, last = math.ceil(math.log10(max(low, 1))), math.floor(math.log10(max(high, 1)))
    values = [10 ** e for e in range(first, last + 1)]
    return values, [integer(v) for v in values]


def _target_style(targets: Targets) -> tuple[str, str, str]:
    """(singular label, plural label, colour) for one or more varieties."""
    keys = _target_keys(targets)
    colour = find_variety(next(iter(keys))).colour if len(keys) == 1 else NEUTRAL
    return target_words(targets), target_words(targets, plural=True), colour


def _seen_note(pile: Pile) -> str:
    if pile.cards is not None:
        return " " + _("(vorgegebener Stapel)")
    if pile.seen:
        return " " + _("(ohne die gesehenen Karten)")
    return ""


PANEL_HEIGHT = 150
"""Pixels of one small panel: two columns of them fit a phone."""


@cache
def _grid(rows: int, columns: int, count: int) -> go.Figure:
    """plotly's grid of ``rows`` × ``columns`` panels with shared axes and ``count`` titles
    (placeholders). Made once per shape and only copied: ``make_subplots`` costs about ten
    copies."""
    from plotly.subplots import make_subplots

    return make_subplots(
        rows=rows, cols=columns, subplot_titles=[str(i) for i in range(count)], shared_xaxes=True,
        shared_yaxes=True, vertical_spacing=min(0.3, 48 / (PANEL_HEIGHT * rows)),
        horizontal_spacing=0.07,
    )


def panels(titles: Sequence[str], columns: int) -> tuple[go.Figure, int, int]:
    """A grid of small panels with shared axes, one per title: (figure, columns, rows)."""
    columns = max(1, min(columns, len(titles)))
    rows = -(-len(titles) // columns)
    grid = _grid(rows, columns, len(titles))
    layout = grid.layout.to_plotly_json()
    for note, title in zip(layout["annotations"], titles):
        note["text"] = title
    fig = grid_figure(grid, _unchecked_template(layout))  # traces go in by row and column
    return fig, columns, rows


def panel_layout(fig: go.Figure, rows: int, title: str, x: str, y: str,
                  notes: Sequence[tuple[str, str]] = (), *, legend: bool) -> go.Figure:
    """Pixel layout of a panel grid that also fits a phone: title, the legend row (if any
    trace shows one), the panels, the x title, then the ``notes`` (text, name) below; a note
    starting with ⚠ is an assumption box."""
    lines = len(wrap_lines(title, TITLE_CHARS))
    top = title_height(lines) + (56 if legend else 20)
    bottom = 56 + sum(_note_height(text) for text, _name in notes)
    plot_h = PANEL_HEIGHT * rows
    added = [dict(text=x, xref="paper", yref="paper", x=0.5, y=-24 / plot_h, yanchor="top",
                  showarrow=False, name="x_title")]
    offset = -50 / plot_h
    for text, name in notes:
        added.append(_note(text, name, y=offset, yanchor="top", warn=text.startswith("⚠")))
        offset -= _note_height(text) / plot_h
    y_titles = {fig.get_subplot(row, 1).yaxis.plotly_name: dict(title=dict(text=y))
                for row in range(1, rows + 1)}
    return chart_layout(
        fig, title, "", "", height=plot_h + top + bottom, showlegend=legend,
        margin=dict(t=top, b=bottom, l=55, r=15),
        legend=dict(orientation="h", x=0, yref="paper", y=1 + 48 / plot_h, yanchor="bottom"),
        annotations=[*annotations(fig), *added], **y_titles,
    )


def _variety_chart(
    series: Sequence[_Series],
    trace: Callable[[_Series, str], go.Scatter | go.Bar],
    title: str, x: str, y: str, *, xaxis: dict, yaxis: dict, **more: Any,
) -> go.Figure:
    """The curves of ``series`` (``trace(series, name)`` draws one) in one plot with the
    legend below; more than :data:`MAX_LINES` as small multiples, one panel per variety
    named in its title, so that no two curves lie on top of each other."""
    rulesets = [s.rs for s in series]
    if len(series) <= MAX_LINES:
        fig = go.Figure([trace(s, s.name) for s in series])
        chart_layout(fig, title, x, y, legend_title=_("Bohnensorte"), xaxis=xaxis, yaxis=yaxis,
                     **more)
        return _assumption_note(fig, rulesets)
    groups: dict[str, list[_Series]] = {}
    for s in series:
        groups.setdefault(variety_word(s.variety), []).append(s)
    fig, columns, rows = panels(list(groups), 2)
    traces, cells = [], []
    for i, members in enumerate(groups.values()):
        for s in members:
            t = trace(s, s.detail or s.name)
            t.update(legendgroup=s.detail, showlegend=i == 0 and bool(s.detail))
            traces.append(t)
            cells.append(divmod(i, columns))
    fig.add_traces(traces, rows=[r + 1 for r, _c in cells], cols=[c + 1 for _r, c in cells])
    legend = any(s.detail for s in series)
    panel_layout(fig, rows, title, x, y, [(t, "meter_assumption") for t in assumption_texts(rulesets)],
                  legend=legend)
    return set_layout(fig, xaxes=xaxis, yaxes=yaxis, **more)


# --------------------------------------------------------------------------- value side


def bohnometer_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    rulesets: RuleSets = "amigo",
    *,
    trait: Trait | Sequence[Trait] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Step curves "cards on the field → Taler" for the chosen varieties and rule sets.

    Default: every variety of the rule sets (then one small panel per variety). Rule sets
    whose cards carry traits with meters of their own get one curve per trait (``trait``:
    only those).
    """
    series = _meter_series(varieties, rulesets, trait)
    if max_cards is None:
        max_cards = max(max(s.meter) for s in series) + 1
    xs = list(range(max_cards + 1))

    def trace(s: _Series, name: str) -> go.Scatter:
        ys = [meter_value(s.meter, n) for n in xs]
        return go.Scatter(
            x=xs, y=ys, name=name, mode="lines+markers", line_shape="hv",
            line=dict(color=s.variety.colour, dash=s.dash, width=3),
            marker=dict(color=s.variety.colour, symbol=s.symbol, size=7),
            hovertext=[f"{cards_text(s.variety, n)} → {coins_text(c)}" for n, c in zip(xs, ys)],
            hoverinfo="text+name",
        )

    return _variety_chart(
        series, trace, _("Bohnometer: wie viele Taler bringt ein Feld?"),
        _("Karten auf dem Feld"), _("Taler beim Ernten"),
        xaxis=dict(dtick=2 if len(series) > MAX_LINES else 1),
        yaxis=dict(dtick=1, rangemode="tozero"),
    )


def coins_per_card_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    ruleset: RuleSets = "amigo",
    *,
    trait: Trait | Sequence[Trait] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Taler per card by field size; the sizes where a new step is reached are starred."""
    series = _meter_series(varieties, ruleset, trait)
    if max_cards is None:
        max_cards = max(max(s.meter) for s in series) + 1
    xs = list(range(1, max_cards + 1))

    def trace(s: _Series, name: str) -> go.Scatter:
        v = s.variety
        coins = [meter_value(s.meter, n) for n in xs]
        steps = {need for need in s.meter if need}
        per_card, step = _("{cards} → {coins} = {per_card} Taler pro Karte"), _(" – neue Stufe erreicht")
        hover = [
            per_card.format(cards=cards_text(v, n), coins=coins_text(c), per_card=_decimal(Fraction(c, n)))
            + (step if n in steps else "")
            for n, c in zip(xs, coins)
        ]
        return go.Scatter(
            x=xs, y=[float(Fraction(c, n)) for n, c in zip(xs, coins)], name=name,
            mode="lines+markers", line=dict(color=v.colour, dash=s.dash, width=2),
            marker=dict(
                color=v.colour,
                symbol=["star" if n in steps else s.symbol for n in xs],
                size=[14 if n in steps else 6 for n in xs],
            ),
            hovertext=hover, hoverinfo="text+name",
        )

    return _variety_chart(
        series, trace, _("Taler pro Karte: welche Feldgrößen lohnen sich? (★ = neue Stufe)"),
        _("Karten auf dem Feld"), _("Taler pro Karte"),
        xaxis=dict(dtick=2 if len(series) > MAX_LINES else 1), yaxis=dict(rangemode="tozero"),
    )


def marginal_value_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    ruleset: RuleSets = "amigo",
    *,
    trait: Trait | Sequence[Trait] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Extra Taler from one more card on a field of n cards (value(n+1) − value(n))."""
    series = _meter_series(varieties, ruleset, trait)
    if max_cards is None:
        max_cards = max(max(s.meter) for s in series)
    xs = list(range(max_cards))
    patterns = ("", "/", ".", "x", "-", "|", "+", "\\")

    more = _("{cards} + 1 Karte → {n}: +{coins}")

    def trace(s: _Series, name: str) -> go.Bar:
        ys = [meter_value(s.meter, n + 1) - meter_value(s.meter, n) for n in xs]
        pattern = "/" if s.trait_rank == 1 else patterns[series.index(s) % len(patterns)]
        return go.Bar(
            x=xs, y=ys, name=name,
            marker=dict(color=s.variety.colour, line=dict(color="#222222", width=1),
                        pattern_shape=pattern),
            hovertext=[
                more.format(cards=cards_text(s.variety, n), n=n + 1, coins=coins_text(g))
                for n, g in zip(xs, ys)
            ],
            hoverinfo="text+name",
        )

    return _variety_chart(
        series, trace, _("Was bringt eine Karte mehr? (Grenzwert einer Bohne)"),
        _("Karten auf dem Feld vor dem Pflanzen"), _("zusätzliche Taler"),
        xaxis=dict(dtick=2 if len(series) > MAX_LINES else 1), yaxis=dict(dtick=1),
        barmode="group",
    )


# --------------------------------------------------------------------------- decks


def deck_chart(ruleset: str | RuleSet = "amigo", players: int = 4) -> go.Figure:
    """The deck of one rule set and player count, most frequent variety first ("Bohnentreppe")."""
    rs = find_ruleset(ruleset)
    counts = deck_counts(rs, players)
    total = sum(counts.values())
    vs = [find_variety(k) for k in counts]
    share = _("{cards} – {share} des Stapels")
    fig = go.Figure(go.Bar(
        x=[variety_word(v, 2) for v in vs], y=list(counts.values()), name=_("Karten"),
        marker=dict(color=[v.colour for v in vs], line=dict(color="#222222", width=1)),
        text=[str(n) for n in counts.values()], textposition="outside",
        hovertext=[
            share.format(cards=cards_text(v, n), share=_percent(Fraction(n, total)))
            for v, n in zip(vs, counts.values())
        ],
        hoverinfo="text",
    ))
    steps = {a - b for a, b in zip(list(counts.values()), list(counts.values())[1:])}
    notes = []
    if len(steps) == 1 and len(counts) > 2:
        (d,) = steps
        notes.append(dict(
            text=ngettext("Jede Stufe hat genau {d} Karte weniger als die vorige.",
                          "Jede Stufe hat genau {d} Karten weniger als die vorige.", d).format(d=d),
            xref="paper", yref="paper", x=1, y=1, xanchor="right", showarrow=False,
            name="treppe",
        ))
    return chart_layout(
        fig, _("Bohnentreppe: {total} Karten – {ruleset}, {players} Personen").format(
            total=total, ruleset=short_title(rs), players=players),
        _("Bohnensorte"), _("Karten im Spiel"), showlegend=False, annotations=notes,
    )


def deck_comparison_chart(
    decks: Sequence[tuple[str | RuleSet, int]] | None = None,
) -> go.Figure:
    """Stacked bars: the deck of each (rule set, player count), one colour per variety."""
    if decks is None:
        decks = [("amigo", 4), ("online", 3), ("online", 4), ("online", 6)]
    people = _("{ruleset}<br>{players} Personen")
    labels = [people.format(ruleset=short_title(r), players=p) for r, p in decks]
    counts = [deck_counts(r, p) for r, p in decks]
    keys: list[str] = []
    for c in counts:
        keys += [k for k in c if k not in keys]
    traces = []
    for key in keys:
        v = find_variety(key)
        ys = [c.get(key) or None for c in counts]
        traces.append(go.Bar(
            x=labels, y=ys, name=variety_word(v, 2), marker=dict(color=v.colour),
            text=[variety_word(v, 2) if y else None for y in ys], textposition="inside",
            insidetextanchor="middle",
            hovertext=[
                f"{label.replace('<br>', ', ')}: {cards_text(v, y)}" if y else None
                for label, y in zip(labels, ys)
            ],
            hoverinfo="text",
        ))
    return chart_layout(
        go.Figure(traces), _("Kartenverteilung je Regelwerk und Personenzahl"),
        _("Regelwerk und Personenzahl"), _("Karten im Spiel"), legend_title=_("Bohnensorte"),
        barmode="stack", legend=dict(traceorder="reversed"),
        uniformtext=dict(minsize=9, mode="hide"),
        annotations=[dict(x=label, y=sum(c.values()), text=_("{n} Karten").format(n=sum(c.values())),
                          showarrow=False, yshift=12) for label, c in zip(labels, counts)],
    )


# --------------------------------------------------------------------------- probability


def reveal_chart(pile: Pile | None = None, *, k: int = 2) -> go.Figure:
    """P(at least one card of each variety among the next ``k`` cards), one bar per variety
    of the pile (default: the base game's full deck)."""
    pile = _pile(pile)
    vs = [find_variety(key) for key in pile.counts]
    ps = [p_at_least_one(v, k, pile) for v in vs]
    hover = _("mindestens eine {variety} unter {k} Karten: {p}")
    fig = go.Figure(go.Bar(
        x=[variety_word(v) for v in vs], y=[float(p) for p in ps], name=_("exakt"),
        marker=dict(color=[v.colour for v in vs], line=dict(color="#222222", width=1)),
        text=[_percent(p) for p in ps], textposition="outside",
        hovertext=[
            hover.format(variety=variety_word(v), k=k, p=_percent(p)) for v, p in zip(vs, ps)
        ],
        hoverinfo="text",
    ))
    chart_layout(
        fig, _("Wie wahrscheinlich ist meine Sorte unter den nächsten {k} Karten?").format(k=k)
        + _seen_note(pile),
        _("Bohnensorte"), _("Wahrscheinlichkeit"), showlegend=False,
        yaxis=dict(tickformat=".0%", rangemode="tozero"),
    )
    return fig


def convergence_chart(
    estimate: Estimate,
    exact: Fraction | float | None = None,
    *,
    title: str | None = None,
    band: bool = True,
) -> go.Figure:
    """Running Monte Carlo estimate against the number of trials (log scale), with the
    exact answer as a line and ±2 standard errors around it as a funnel. The curve is drawn
    through the checkpoints :func:`log_thin` keeps. Without ``title`` the estimate's own
    ``quantity`` names it, which the simulation wrote in German (stored results keep it so):
    a page in another language passes its ``title``."""
    kept = log_thin(estimate.checkpoints)
    xs = [estimate.checkpoints[i] for i in kept]
    running = [estimate.running[i] for i in kept]
    fmt = percent if estimate.is_probability else decimal_de
    fig = go.Figure()
    if exact is not None and band and estimate.std > 0:
        e = float(exact)
        width = [2 * estimate.std / n ** 0.5 for n in xs]
        upper = [e + w for w in width]
        lower = [e - w for w in width]
        if estimate.is_probability:  # a probability stays within 0 … 1
            upper = [min(1.0, u) for u in upper]
            lower = [max(0.0, lo) for lo in lower]
        fig.add_trace(go.Scatter(
            x=xs + xs[::-1], y=upper + lower[::-1],
            fill="toself", fillcolor="rgba(120,120,120,0.18)", line=dict(width=0),
            name=_("±2 Standardfehler"), hoverinfo="skip",
        ))
    after = _("nach {n} Durchläufen: {value}")
    fig.add_trace(go.Scatter(
        x=xs, y=running, name=simulation_name(estimate.trials),
        mode="lines", line=dict(color="#0072B2", width=2),
        hovertext=[after.format(n=integer(n), value=fmt(r)) for n, r in zip(xs, running)],
        hoverinfo="text",
    ))
    if exact is not None:
        fig.add_trace(go.Scatter(
            x=[xs[0], xs[-1]], y=[float(exact)] * 2,
            name=_("exakt (gezählt): {value}").format(value=fmt(exact)),
            mode="lines", line=dict(color="#D55E00", dash="dash", width=2),
            hovertext=[_("exakt: {value}").format(value=fmt(exact))] * 2, hoverinfo="text",
        ))
    yaxis = dict(tickformat=".1%") if estimate.is_probability else {}
    tickvals, ticktext = log_ticks(xs[0], xs[-1])
    chart_layout(
        fig, title or estimate.quantity, _("Anzahl Durchläufe (logarithmisch)"),
        _("Wahrscheinlichkeit") if estimate.is_probability else _("Schätzung"),
        xaxis=dict(type="log", tickvals=tickvals, ticktext=ticktext), yaxis=yaxis,
    )
    return fig


def count_distribution_chart(
    variety: Targets,
    k: int,
    pile: Pile | None = None,
    *,
    simulated: Estimate | None = None,
) -> go.Figure:
    """P(exactly j cards of ``variety`` among the next ``k``): exact bars, optionally
    next to simulated frequencies (from ``montecarlo.simulate_count``)."""
    one, many, colour = _target_style(variety)
    pile = _pile(pile)
    dist = count_distribution(variety, k, pile)
    xs = list(dist)
    exactly = _("genau {j} × {variety} unter {k} Karten: {p}")
    fig = go.Figure(go.Bar(
        x=xs, y=[float(p) for p in dist.values()], name=_("exakt (gezählt)"),
        marker=dict(color=colour, line=dict(color="#222222", width=1)),
        text=[_percent(p) for p in dist.values()], textposition="outside",
        hovertext=[exactly.format(j=j, variety=one, k=k, p=_percent(p)) for j, p in dist.items()],
        hoverinfo="text",
    ))
    if simulated is not None:
        ys = [simulated.distribution.get(j, 0.0) for j in xs]
        fig.add_trace(go.Bar(
            x=xs, y=ys, name=simulation_name(simulated.trials),
            marker=dict(color=SIMULATED, pattern_shape="/", line=dict(color="#222222", width=1)),
            hovertext=[_("simuliert: genau {j} × {variety}: {p}").format(j=j, variety=one, p=_percent(y))
                       for j, y in zip(xs, ys)],
            hoverinfo="text",
        ))
    mean = expected_count(variety, k, pile)
    return chart_layout(
        fig, _("Wie viele {varieties} unter den nächsten {k} Karten?").format(varieties=many, k=k)
        + _seen_note(pile),
        _("Anzahl {varieties}").format(varieties=many), _("Wahrscheinlichkeit"), barmode="group",
        xaxis=dict(dtick=1), yaxis=dict(tickformat=".0%"),
        **mean_line(float(mean), "#222222", _("Erwartungswert: {value}").format(value=_decimal(mean))),
    )


def waiting_time_chart(
    variety: Targets,
    pile: Pile | None = None,
    *,
    simulated: Estimate | None = None,
) -> go.Figure:
    """P(the next ``variety`` card is the j-th card), the cumulative chance "spätestens",
    and the expected position (N+1)/(K+1); optionally simulated frequencies."""
    one, many, colour = _target_style(variety)
    pile = _pile(pile)
    dist = waiting_time_distribution(variety, pile)
    if not dist:
        raise ValueError(_("Keine Karte ({variety}) mehr im Stapel – sie kommt nie.").format(variety=one))
    xs = list(dist)
    cumulative, acc = [], Fraction(0)
    for p in dist.values():
        acc += p
        cumulative.append(acc)
    at = _("die nächste {variety} ist die {j}. Karte: {p}")
    fig = go.Figure(go.Bar(
        x=xs, y=[float(p) for p in dist.values()], name=_("genau an dieser Stelle (exakt)"),
        marker=dict(color=colour, line=dict(color="#222222", width=0.5)),
        hovertext=[at.format(variety=one, j=j, p=_percent(p)) for j, p in dist.items()],
        hoverinfo="text",
    ))
    if simulated is not None:
        fig.add_trace(go.Scatter(
            x=xs, y=[simulated.distribution.get(j, 0.0) for j in xs], mode="markers",
            name=simulation_name(simulated.trials),
            marker=dict(color=SIMULATED, symbol="x", size=7),
            hovertext=[_("simuliert: {j}. Karte: {p}").format(j=j, p=_percent(simulated.distribution.get(j, 0.0)))
                       for j in xs],
            hoverinfo="text",
        ))
    fig.add_trace(go.Scatter(
        x=xs, y=[float(c) for c in cumulative], name=_("spätestens an dieser Stelle"),
        mode="lines", line=dict(color="#222222", width=2), yaxis="y2",
        hovertext=[_("spätestens die {j}. Karte ist eine {variety}: {p}").format(j=j, variety=one, p=_percent(c))
                   for j, c in zip(xs, cumulative)],
        hoverinfo="text",
    ))
    mean = expected_wait(variety, pile)
    last = next((j for j, c in zip(xs, cumulative) if c >= Fraction(99, 100)), xs[-1])
    return chart_layout(
        fig, _("Wann kommt die nächste {variety}?").format(variety=one) + _seen_note(pile),
        _("Position im Nachziehstapel (1 = oberste Karte)"), _("Wahrscheinlichkeit"),
        xaxis=dict(range=[0.5, last + 0.5]),
        yaxis=dict(tickformat=".0%", rangemode="tozero"),
        yaxis2=dict(title=dict(text=_("kumuliert")), overlaying="y", side="right",
                    range=[0, 1.02], tickformat=".0%", dtick=0.2, showgrid=False),
        **mean_line(float(mean), "#D55E00", _("Erwartungswert: Position {value}").format(value=_decimal(mean, 1))),
    )


def simulation_name(trials: int) -> str:
    """The legend's name of a simulation: ``"Simulation (10.000 Durchläufe)"``."""
    return ngettext("Simulation ({n} Durchlauf)", "Simulation ({n} Durchläufe)", trials).format(
        n=integer(trials))


def warm_up() -> None:
    """Build and serialize one chart of each kind the site draws. Plotly imports the class of
    each property path, makes its validators and reads its template only on first use: 0.3 CPU
    s natively, about 1 s in the browser's Python, paid by a page's first chart. The static
    site's snapshot and the server's fork server call this once
    (:data:`bohnteach.site.snapshot.WARM`), so no visitor pays it."""
    variety = next(iter(deck_counts(find_ruleset("amigo"), 4)))
    estimate = simulate_at_least_one(variety, 2, runs=Runs(trials=200, seed=0))
    panel, _columns, rows = panels(("a", "b"), 2)
    panel.add_trace(go.Bar(x=[1], y=[1]), row=1, col=1)
    for fig in (bohnometer_chart(), coins_per_card_chart(), marginal_value_chart(), deck_chart(),
                deck_comparison_chart(), reveal_chart(), convergence_chart(estimate),
                count_distribution_chart(variety, 3, simulated=None),
                waiting_time_chart(variety),
                panel_layout(panel, rows, "Titel", "x", "y", legend=True)):
        fig.to_json(validate=False, remove_uids=False)


__all__ = [
    "MAX_LINES",
    "annotations",
    "TEMPLATE",
    "TRACES",
    "assumption_texts",
    "bohnometer_chart",
    "chart_layout",
    "coins_per_card_chart",
    "convergence_chart",
    "count_distribution_chart",
    "deck_chart",
    "deck_comparison_chart",
    "marginal_value_chart",
    "mean_line",
    "reveal_chart",
    "set_layout",
    "varieties_of",
    "warm_up",
    "log_thin",
    "log_ticks",
    "panel_layout",
    "panels",
    "waiting_time_chart",
    "wrap_lines",
]
