"""Indiana Bohnes' chart: how a temple visit ends, per wanted stack (``teaching/temple.py``)."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import plotly.graph_objects as go

from bohnteach.editions.indiana import OUTCOME_DE
from bohnteach.editions.indiana.rules import SUCCESS
from bohnteach.editions.indiana.teaching.temple import OUTCOMES, VisitChances
from bohnteach.game.beans import find_variety
from bohnteach.i18n import N_, _
from bohnteach.render.charts import chart_layout
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import number, percent, separators

_OUTCOME_STYLE: dict[str, tuple[str, str]] = dict(zip(OUTCOMES, (
    ("#117733", ""), ("#44AA99", ""), ("#DDCC77", "/"), ("#CC6677", "x"), ("#882255", "x"), ("#AA4499", "x"),
)))
"""Colour and hatching per outcome: plain = the stack is taken, hatched = no stack."""


TITLE = N_("Tempelgang: Wie geht er aus?")


def temple_chart(rows: Sequence[VisitChances], pile: int, title: str = TITLE) -> go.Figure:
    """Indiana Bohnes: one stacked bar per wanted stack (``teaching/temple.temple_table``), cut
    into the exact chance of each outcome, labelled with the stack and the beans the
    adventurer gets on average. ``pile`` = bean cards in the draw pile (named in the
    subtitle). Outcomes are told apart by name, colour and hatching. Its words in the
    reader's language (:func:`bohnteach.i18n.current`); ``title`` is looked up too."""
    if not rows:
        raise ValueError(_("Im Tempel liegt kein Stapel: es gibt nichts zu wünschen."))
    labels = []
    for r in rows:
        stack = f"{r.stack} {variety_word(find_variety(r.wanted), r.stack)}"
        labels.append(_("{stack}<br>Ø {beans} Bohnen").format(stack=stack, beans=number(r.expected_beans, 2)))
    no_stack, with_stack = (_("{variety} gewünscht – {outcome} (kein Stapel): {chance} ({fraction})"),
                            _("{variety} gewünscht – {outcome}: {chance} ({fraction})"))
    fig = go.Figure()
    for o in OUTCOMES:
        ps = [r.chances.get(o, Fraction(0)) for r in rows]
        if not any(ps):
            continue
        colour, hatch = _OUTCOME_STYLE[o]
        outcome = _(OUTCOME_DE[o])
        hover = with_stack if o in SUCCESS else no_stack
        fig.add_bar(
            y=labels, x=[float(p) for p in ps], orientation="h", name=outcome,
            marker=dict(color=colour, line=dict(color="#222222", width=1), pattern_shape=hatch),
            text=[percent(p, 0) if p else "" for p in ps], textposition="inside",
            insidetextanchor="middle", textangle=0,
            hovertext=[
                hover.format(variety=variety_word(find_variety(r.wanted)), outcome=outcome, chance=percent(p),
                             fraction=f"{p.numerator}/{p.denominator}")
                for r, p in zip(rows, ps)
            ],
            hoverinfo="text",
        )
    height = 170 + 62 * len(rows)
    subtitle = _("{pile} Bohnenkarten im Nachziehstapel · schraffiert = kein Stapel").format(pile=pile)
    heading = _(title)
    chart_layout(
        fig, f"{heading}<br><sup>{subtitle}</sup>",
        _("Wahrscheinlichkeit"), "", barmode="stack", height=height,
        xaxis=dict(tickformat=".0%", range=[0, 1]), yaxis=dict(autorange="reversed"),
        legend=dict(traceorder="normal"), uniformtext=dict(minsize=10, mode="hide"),
        separators=separators(),
    )
    return fig


__all__ = ["temple_chart"]
