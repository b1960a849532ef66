"""Ladybohn's chart: male and female Bohnometer side by side (``lady.female-meter``)."""
from __future__ import annotations

from collections.abc import Iterable

import plotly.graph_objects as go

from bohnteach.game.beans import meter_value
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.maths.probability import VarietyLike
from bohnteach.i18n import N_, _, ngettext
from bohnteach.render.charts import assumption_texts, panel_layout, panels, set_layout, varieties_of
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import separators
from bohnteach.render.words import trait_tag

_SEX_STYLE = {"m": ("solid", "square", N_("♂ männlich oben")), "w": ("dot", "diamond", N_("♀ weiblich oben"))}
"""Line, marker and legend entry (translated where shown) of each sex on top."""


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
    Its words in the reader's language (:func:`bohnteach.i18n.current`).
    """
    rs = find_ruleset(ruleset)
    if not rs.trait_meters:
        raise ValueError(_("{rules}: die Karten haben kein Geschlecht – hier gibt es nur ein Bohnometer je "
                           "Sorte (bohnometer_chart).").format(rules=_(rs.title)))
    chosen = [v for v in varieties_of(varieties, [rs]) if v.key in rs.trait_meters]
    if not chosen:
        raise ValueError(_("Keine dieser Sorten kommt in {rules} vor.").format(rules=_(rs.title)))
    if max_cards is None:
        max_cards = max(max(m) for v in chosen for m in rs.trait_meters[v.key].values()) + 1
    fig, columns, rows = panels([variety_word(v) for v in chosen], columns)
    xs = list(range(max_cards + 1))
    hover = _("{variety} ({sex}) oben: {cards} → {coins}<br>Bohnometer {steps}")
    for i, v in enumerate(chosen):
        row, col = i // columns + 1, i % columns + 1
        for sex in ("m", "w"):
            meter = rs.trait_meters[v.key].get(sex)
            if meter is None:
                continue
            dash, symbol, label = _SEX_STYLE[sex]
            ys = [meter_value(meter, n) for n in xs]
            steps = " · ".join(f"{need}→{coins}" for coins, need in enumerate(meter, 1) if need)
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines+markers", line_shape="hv",
                name=_(label), legendgroup=sex, showlegend=i == 0,
                line=dict(color=v.colour, dash=dash, width=3 if sex == "w" else 2),
                marker=dict(color=v.colour, symbol=symbol, size=7,
                            line=dict(color="#222222", width=1)),
                hovertext=[hover.format(variety=variety_word(v), sex=_(trait_tag(sex, "word")),
                                        cards=f"{n} {variety_word(v, n)}",
                                        coins=ngettext("{n} Taler", "{n} Taler", c).format(n=c), steps=steps)
                           for n, c in zip(xs, ys)],
                hoverinfo="text",
            ), row=row, col=col)
    notes = [(_("Babybohne oben: kein Bohnometer, 0 Taler<br>(lady.baby-no-meter)"), "baby")]
    notes += [(text, "meter_assumption") for text in assumption_texts([rs])]
    panel_layout(fig, rows, _("Ladybohn: Bohnometer ♂ und ♀"), _("Karten auf dem Feld"), _("Taler"), notes,
                 legend=True)
    top_coins = max(len(m) for v in chosen for m in rs.trait_meters[v.key].values())
    return set_layout(fig, dict(separators=separators()), xaxes=dict(dtick=2, range=[-0.3, max_cards + 0.3]),
                      yaxes=dict(dtick=1, range=[-0.3, top_coins + 0.4]))


__all__ = ["sex_meter_chart"]
