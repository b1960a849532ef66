"""Indiana Bohnes' chart: how a temple visit ends, per wanted stack (``teaching/temple.py``)."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import plotly.graph_objects as go

from bohnteach.editions.indiana import OUTCOME_DE
from bohnteach.editions.indiana.rules import SUCCESS
from bohnteach.editions.indiana.teaching.temple import OUTCOMES, VisitChances
from bohnteach.game.beans import find_variety
from bohnteach.render.charts import cards_text, chart_layout
from bohnteach.render.words import de_number, de_percent

_OUTCOME_STYLE: dict[str, tuple[str, str]] = dict(zip(OUTCOMES, (
    ("#117733", ""), ("#44AA99", ""), ("#DDCC77", "/"), ("#CC6677", "x"), ("#882255", "x"), ("#AA4499", "x"),
)))
"""Colour and hatching per outcome: plain = the stack is taken, hatched = no stack."""


def temple_chart(rows: Sequence[VisitChances], pile: int, title: str = "Tempelgang: Wie geht er aus?") -> go.Figure:
    """Indiana Bohnes: one stacked bar per wanted stack (``teaching/temple.temple_table``), cut
    into the exact chance of each outcome, labelled with the stack and the beans the
    adventurer gets on average. ``pile`` = bean cards in the draw pile (named in the
    subtitle). Outcomes are told apart by name, colour and hatching."""
    if not rows:
        raise ValueError("Im Tempel liegt kein Stapel: es gibt nichts zu wünschen.")
    labels = [
        f"{cards_text(find_variety(r.wanted), r.stack)}<br>Ø {de_number(r.expected_beans, 2)} Bohnen"
        for r in rows
    ]
    fig = go.Figure()
    for o in OUTCOMES:
        ps = [r.chances.get(o, Fraction(0)) for r in rows]
        if not any(ps):
            continue
        colour, hatch = _OUTCOME_STYLE[o]
        fig.add_bar(
            y=labels, x=[float(p) for p in ps], orientation="h", name=OUTCOME_DE[o],
            marker=dict(color=colour, line=dict(color="#222222", width=1), pattern_shape=hatch),
            text=[de_percent(p, 0) if p else "" for p in ps], textposition="inside",
            insidetextanchor="middle", textangle=0,
            hovertext=[
                f"{find_variety(r.wanted).de} gewünscht – {OUTCOME_DE[o]}"
                f"{'' if o in SUCCESS else ' (kein Stapel)'}: {de_percent(p)} ({p.numerator}/{p.denominator})"
                for r, p in zip(rows, ps)
            ],
            hoverinfo="text",
        )
    height = 170 + 62 * len(rows)
    chart_layout(
        fig, f"{title}<br><sup>{pile} Bohnenkarten im Nachziehstapel · schraffiert = kein Stapel</sup>",
        "Wahrscheinlichkeit", "", barmode="stack", height=height,
        xaxis=dict(tickformat=".0%", range=[0, 1]), yaxis=dict(autorange="reversed"),
        legend=dict(traceorder="normal"), uniformtext=dict(minsize=10, mode="hide"),
    )
    return fig


__all__ = ["temple_chart"]
