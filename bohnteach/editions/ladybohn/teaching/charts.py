"""Ladybohn's chart: male and female Bohnometer side by side (``lady.female-meter``)."""
from __future__ import annotations

from collections.abc import Iterable

import plotly.graph_objects as go

from bohnteach.game.beans import meter_value
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.maths.probability import VarietyLike
from bohnteach.render.charts import (
    assumption_texts, cards_text, coins_text, panel_layout, panels, set_layout, varieties_of,
)
from bohnteach.render.words import trait_tag


def sex_meter_chart(
    ruleset: str | RuleSet = "ladybohn",
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    *,
    columns: int = 2,
    max_cards: int | None = None,
) -> go.Figure:
    """Ladybohn (lady.female-meter): male and female Bohnometer of each variety side by
    side, one small panel per variety (cards on the field → Taler when that sex lies on
    top). Male: solid line, squares; female: dotted line, diamonds; both named in the
    legend and hover text, never told apart by colour alone. Assumed meters get the
    visible note of :func:`bohnometer_chart`; a baby on top is 0 Taler (a note says so).
    """
    rs = find_ruleset(ruleset)
    if not rs.trait_meters:
        raise ValueError(f"{rs.title}: die Karten haben kein Geschlecht – hier gibt es "
                         "nur ein Bohnometer je Sorte (bohnometer_chart).")
    chosen = [v for v in varieties_of(varieties, [rs]) if v.key in rs.trait_meters]
    if not chosen:
        raise ValueError(f"Keine dieser Sorten kommt in {rs.title} vor.")
    if max_cards is None:
        max_cards = max(max(m) for v in chosen for m in rs.trait_meters[v.key].values()) + 1
    fig, columns, rows = panels([v.de for v in chosen], columns)
    xs = list(range(max_cards + 1))
    style = {"m": ("solid", "square", "♂ männlich oben"), "w": ("dot", "diamond", "♀ weiblich oben")}
    for i, v in enumerate(chosen):
        row, col = i // columns + 1, i % columns + 1
        for sex in ("m", "w"):
            meter = rs.trait_meters[v.key].get(sex)
            if meter is None:
                continue
            dash, symbol, label = style[sex]
            ys = [meter_value(meter, n) for n in xs]
            steps = " · ".join(f"{need}→{coins}" for coins, need in enumerate(meter, 1) if need)
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines+markers", line_shape="hv",
                name=label, legendgroup=sex, showlegend=i == 0,
                line=dict(color=v.colour, dash=dash, width=3 if sex == "w" else 2),
                marker=dict(color=v.colour, symbol=symbol, size=7,
                            line=dict(color="#222222", width=1)),
                hovertext=[f"{v.de} ({trait_tag(sex, 'word')}) oben: {cards_text(v, n)} → {coins_text(c)}"
                           f"<br>Bohnometer {steps}" for n, c in zip(xs, ys)],
                hoverinfo="text",
            ), row=row, col=col)
    notes = [("Babybohne oben: kein Bohnometer, 0 Taler<br>(lady.baby-no-meter)", "baby")]
    notes += [(text, "meter_assumption") for text in assumption_texts([rs])]
    panel_layout(fig, rows, "Ladybohn: Bohnometer ♂ und ♀", "Karten auf dem Feld", "Taler", notes,
                  legend=True)
    top_coins = max(len(m) for v in chosen for m in rs.trait_meters[v.key].values())
    return set_layout(fig, xaxes=dict(dtick=2, range=[-0.3, max_cards + 0.3]),
                      yaxes=dict(dtick=1, range=[-0.3, top_coins + 0.4]))


__all__ = ["sex_meter_chart"]
