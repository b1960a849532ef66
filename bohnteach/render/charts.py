"""Plotly figure builders for the lessons: data in, ``plotly.graph_objects.Figure`` out.

German labels; each variety drawn in its ``Variety.colour`` and always named (legend,
axis labels or hover text), never told apart by colour alone. Charts that read a
Bohnometer carry a visible note when the rule set's meters are an assumption
(``RuleSet.meter_assumption``). Shown with ``bohnteach.widgets.figure.show_figure``, never as a ``FigureWidget``.
"""
from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

import plotly.graph_objects as go

from bohnteach.game.beans import Variety, find_variety, meter_value
from bohnteach.maths.montecarlo import Estimate
from bohnteach.maths.probability import (
    Cards,
    Targets,
    VarietyLike,
    _target_keys,
    count_distribution,
    deck_counts,
    decimal_de,
    expected_count,
    expected_wait,
    meter_of,
    p_at_least_one,
    percent,
    target_label,
    waiting_time_distribution,
)
from bohnteach.game.rulesets import RuleSet, Sex, find_ruleset
from bohnteach.render.words import sex_word

RuleSets = str | RuleSet | Sequence[str | RuleSet]

_DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
_SYMBOLS = {None: "circle", "m": "square", "w": "diamond"}
NEUTRAL = "#555555"
SIMULATED = "#9E9E9E"


# --------------------------------------------------------------------------- helpers


def _rulesets(rulesets: RuleSets) -> list[RuleSet]:
    if isinstance(rulesets, (str, RuleSet)):
        return [find_ruleset(rulesets)]
    found = [find_ruleset(r) for r in rulesets]
    if not found:
        raise ValueError("Mindestens ein Regelwerk angeben.")
    return found


def short_title(ruleset: str | RuleSet) -> str:
    """``"Grundspiel (Amigo)"`` from ``"Bohnanza – Grundspiel (Amigo)"``."""
    return find_ruleset(ruleset).title.split(" – ", 1)[-1]


def int_de(n: int) -> str:
    """``10000`` → ``"10.000"``."""
    return f"{n:,}".replace(",", ".")


def coins_text(coins: int) -> str:
    return f"{coins} Taler"


def cards_text(variety: Variety, n: int) -> str:
    """``"7 Blaue Bohnen"``, ``"1 Blaue Bohne"``."""
    return f"{n} {variety.label(n)}"


def _varieties(varieties: Iterable[VarietyLike] | VarietyLike | None, rulesets: list[RuleSet]):
    if varieties is None:
        keys: list[str] = []
        for rs in rulesets:
            keys += [k for k in rs.varieties if k not in keys]
        return [find_variety(k) for k in keys]
    if isinstance(varieties, (str, Variety)):
        varieties = [varieties]
    return [find_variety(v) for v in varieties]


def _meter_series(varieties, rulesets: RuleSets, sex: Sex | Sequence[Sex]):
    """(rule set, variety, sex, meter, legend name, dash) for each curve to draw."""
    sets = _rulesets(rulesets)
    chosen = _varieties(varieties, sets)
    many = len(sets) > 1
    series = []
    for i, rs in enumerate(sets):
        dash = _DASHES[i % len(_DASHES)]
        for v in chosen:
            if v.key not in rs.varieties:
                continue
            own = [s for s in ("m", "w") if s in rs.sex_meters.get(v.key, {})]
            if not own:  # cards without sexes: one meter
                sexes: list[Sex] = [None]
            elif sex is not None:
                wanted = [sex] if isinstance(sex, str) else list(sex)
                sexes = [s for s in wanted if s in own]
            else:
                sexes = own
            for s in sexes:
                name = v.de
                if s is not None:
                    name += f" ({sex_word(s) or s})"
                if many:
                    name += f" – {short_title(rs)}"
                line_dash = "dot" if s == "w" and not many else dash
                series.append((rs, v, s, meter_of(v, rs, s), name, line_dash))
    if not series:
        names = ", ".join(v.de for v in chosen)
        titles = ", ".join(rs.title for rs in sets)
        raise ValueError(f"{names}: kommt in {titles} nicht vor.")
    return series


def _assumption_note(fig: go.Figure, rulesets: Iterable[RuleSet]) -> go.Figure:
    """Add a visible note under the plot for each rule set whose meters are assumed."""
    notes = []
    for rs in {rs.name: rs for rs in rulesets}.values():
        if rs.meter_assumption:
            text = f"Annahme ({short_title(rs)}): {rs.meter_assumption}"
            notes.append("<br>".join(textwrap.wrap(text, 110)))
    if not notes:
        return fig
    text = "<br>".join(notes)
    lines = text.count("<br>") + 1
    fig.add_annotation(
        text=f"⚠ {text}", xref="paper", yref="paper", x=0, y=0, yshift=-60,
        xanchor="left", yanchor="top", align="left", showarrow=False,
        font=dict(size=12, color="#8A4B00"), bgcolor="#FFF4E0", bordercolor="#8A4B00",
        name="meter_assumption",
    )
    fig.update_layout(margin=dict(b=80 + 18 * lines))
    return fig


def _layout(fig: go.Figure, title: str, x: str, y: str, **more) -> go.Figure:
    fig.update_layout(
        title=dict(text=title),
        xaxis_title_text=x,
        yaxis_title_text=y,
        template="plotly_white",
        separators=",.",
        hoverlabel=dict(namelength=-1),
        legend_title_text=more.pop("legend_title", None),
        **more,
    )
    return fig


def _target_style(targets: Targets) -> tuple[str, str, str]:
    """(singular label, plural label, colour) for one or more varieties."""
    keys = _target_keys(targets)
    colour = find_variety(next(iter(keys))).colour if len(keys) == 1 else NEUTRAL
    return target_label(targets), target_label(targets, plural=True), colour


def _seen_note(seen: Cards, pile) -> str:
    if pile is not None:
        return " (vorgegebener Stapel)"
    if seen:
        return " (ohne die gesehenen Karten)"
    return ""


# --------------------------------------------------------------------------- value side


def bohnometer_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    rulesets: RuleSets = "amigo",
    *,
    sex: Sex | Sequence[Sex] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Step curves "cards on the field → Taler" for the chosen varieties and rule sets.

    Default: every variety of the rule sets. Ladybohn-like rule sets get one curve per sex.
    """
    series = _meter_series(varieties, rulesets, sex)
    if max_cards is None:
        max_cards = max(max(m) for *_, m, _n, _d in series) + 1
    fig = go.Figure()
    xs = list(range(max_cards + 1))
    for _rs, v, s, meter, name, dash in series:
        ys = [meter_value(meter, n) for n in xs]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, name=name, mode="lines+markers", line_shape="hv",
            line=dict(color=v.colour, dash=dash, width=3),
            marker=dict(color=v.colour, symbol=_SYMBOLS.get(s, "circle"), size=7),
            hovertext=[f"{cards_text(v, n)} → {coins_text(c)}" for n, c in zip(xs, ys)],
            hoverinfo="text+name",
        ))
    _layout(
        fig, "Bohnometer: wie viele Taler bringt ein Feld?",
        "Karten auf dem Feld", "Taler beim Ernten", legend_title="Bohnensorte",
        yaxis=dict(dtick=1, rangemode="tozero"), xaxis=dict(dtick=1),
    )
    return _assumption_note(fig, [s[0] for s in series])


def coins_per_card_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    ruleset: RuleSets = "amigo",
    *,
    sex: Sex | Sequence[Sex] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Taler per card by field size; the sizes where a new step is reached are starred."""
    series = _meter_series(varieties, ruleset, sex)
    if max_cards is None:
        max_cards = max(max(m) for *_, m, _n, _d in series) + 1
    fig = go.Figure()
    xs = list(range(1, max_cards + 1))
    for _rs, v, s, meter, name, dash in series:
        coins = [meter_value(meter, n) for n in xs]
        steps = {need for need in meter if need}
        ys = [float(Fraction(c, n)) for n, c in zip(xs, coins)]
        hover = [
            f"{cards_text(v, n)} → {coins_text(c)} = {decimal_de(Fraction(c, n))} Taler pro Karte"
            + (" – neue Stufe erreicht" if n in steps else "")
            for n, c in zip(xs, coins)
        ]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, name=name, mode="lines+markers",
            line=dict(color=v.colour, dash=dash, width=2),
            marker=dict(
                color=v.colour,
                symbol=["star" if n in steps else _SYMBOLS.get(s, "circle") for n in xs],
                size=[14 if n in steps else 6 for n in xs],
            ),
            hovertext=hover, hoverinfo="text+name",
        ))
    _layout(
        fig, "Taler pro Karte: welche Feldgrößen lohnen sich? (★ = neue Stufe)",
        "Karten auf dem Feld", "Taler pro Karte", legend_title="Bohnensorte",
        xaxis=dict(dtick=1), yaxis=dict(rangemode="tozero"),
    )
    return _assumption_note(fig, [s[0] for s in series])


def marginal_value_chart(
    varieties: Iterable[VarietyLike] | VarietyLike | None = None,
    ruleset: RuleSets = "amigo",
    *,
    sex: Sex | Sequence[Sex] = None,
    max_cards: int | None = None,
) -> go.Figure:
    """Extra Taler from one more card on a field of n cards (value(n+1) − value(n))."""
    series = _meter_series(varieties, ruleset, sex)
    if max_cards is None:
        max_cards = max(max(m) for *_, m, _n, _d in series)
    fig = go.Figure()
    xs = list(range(max_cards))
    for _rs, v, s, meter, name, _dash in series:
        ys = [meter_value(meter, n + 1) - meter_value(meter, n) for n in xs]
        fig.add_trace(go.Bar(
            x=xs, y=ys, name=name,
            marker=dict(color=v.colour, line=dict(color="#222222", width=1),
                        pattern_shape="/" if s == "w" else ""),
            hovertext=[
                f"{cards_text(v, n)} + 1 Karte → {n + 1}: +{coins_text(g)}"
                for n, g in zip(xs, ys)
            ],
            hoverinfo="text+name",
        ))
    _layout(
        fig, "Was bringt eine Karte mehr? (Grenzwert einer Bohne)",
        "Karten auf dem Feld vor dem Pflanzen", "zusätzliche Taler", legend_title="Bohnensorte",
        barmode="group", xaxis=dict(dtick=1), yaxis=dict(dtick=1),
    )
    return _assumption_note(fig, [s[0] for s in series])


# --------------------------------------------------------------------------- decks


def deck_chart(ruleset: str | RuleSet = "amigo", players: int = 4) -> go.Figure:
    """The deck of one rule set and player count, most frequent variety first ("Bohnentreppe")."""
    rs = find_ruleset(ruleset)
    counts = deck_counts(rs, players)
    total = sum(counts.values())
    vs = [find_variety(k) for k in counts]
    fig = go.Figure(go.Bar(
        x=[v.de_plural for v in vs], y=list(counts.values()), name="Karten",
        marker=dict(color=[v.colour for v in vs], line=dict(color="#222222", width=1)),
        text=[str(n) for n in counts.values()], textposition="outside",
        hovertext=[
            f"{cards_text(v, n)} – {percent(Fraction(n, total))} des Stapels"
            for v, n in zip(vs, counts.values())
        ],
        hoverinfo="text",
    ))
    _layout(
        fig, f"Bohnentreppe: {total} Karten – {short_title(rs)}, {players} Personen",
        "Bohnensorte", "Karten im Spiel", showlegend=False,
    )
    steps = {a - b for a, b in zip(list(counts.values()), list(counts.values())[1:])}
    if len(steps) == 1 and len(counts) > 2:
        (d,) = steps
        fig.add_annotation(
            text=f"Jede Stufe hat genau {d} Karten weniger als die vorige.",
            xref="paper", yref="paper", x=1, y=1, xanchor="right", showarrow=False,
            name="treppe",
        )
    return fig


def deck_comparison_chart(
    decks: Sequence[tuple[str | RuleSet, int]] | None = None,
) -> go.Figure:
    """Stacked bars: the deck of each (rule set, player count), one colour per variety."""
    if decks is None:
        decks = [("amigo", 4), ("online", 3), ("online", 4), ("online", 6)]
    labels = [f"{short_title(r)}<br>{p} Personen" for r, p in decks]
    counts = [deck_counts(r, p) for r, p in decks]
    keys: list[str] = []
    for c in counts:
        keys += [k for k in c if k not in keys]
    fig = go.Figure()
    for key in keys:
        v = find_variety(key)
        ys = [c.get(key) or None for c in counts]
        fig.add_trace(go.Bar(
            x=labels, y=ys, name=v.de_plural, marker=dict(color=v.colour),
            text=[v.de_plural if y else None for y in ys], textposition="inside",
            insidetextanchor="middle",
            hovertext=[
                f"{label.replace('<br>', ', ')}: {cards_text(v, y)}" if y else None
                for label, y in zip(labels, ys)
            ],
            hoverinfo="text",
        ))
    for label, c in zip(labels, counts):
        fig.add_annotation(x=label, y=sum(c.values()), text=f"{sum(c.values())} Karten",
                           showarrow=False, yshift=12)
    _layout(
        fig, "Kartenverteilung je Regelwerk und Personenzahl",
        "Regelwerk und Personenzahl", "Karten im Spiel", legend_title="Bohnensorte",
        barmode="stack", legend=dict(traceorder="reversed"),
        uniformtext=dict(minsize=9, mode="hide"),
    )
    return fig


# --------------------------------------------------------------------------- probability


def reveal_chart(
    ruleset: str | RuleSet = "amigo",
    players: int = 4,
    *,
    k: int = 2,
    seen: Cards = None,
    pile: Mapping[VarietyLike, int] | None = None,
) -> go.Figure:
    """P(at least one card of each variety among the next ``k`` cards), one bar per variety."""
    counts = deck_counts(ruleset, players) if pile is None else dict(pile)
    vs = [find_variety(key) for key in counts]
    ps = [p_at_least_one(v, k, ruleset, players, seen=seen, pile=pile) for v in vs]
    fig = go.Figure(go.Bar(
        x=[v.de for v in vs], y=[float(p) for p in ps], name="exakt",
        marker=dict(color=[v.colour for v in vs], line=dict(color="#222222", width=1)),
        text=[percent(p) for p in ps], textposition="outside",
        hovertext=[
            f"mindestens eine {v.de} unter {k} Karten: {percent(p)}" for v, p in zip(vs, ps)
        ],
        hoverinfo="text",
    ))
    _layout(
        fig, f"Wie wahrscheinlich ist meine Sorte unter den nächsten {k} Karten?"
        + _seen_note(seen, pile),
        "Bohnensorte", "Wahrscheinlichkeit", showlegend=False,
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
    exact answer as a line and ±2 standard errors around it as a funnel."""
    xs = list(estimate.checkpoints)
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
            name="±2 Standardfehler", hoverinfo="skip",
        ))
    fig.add_trace(go.Scatter(
        x=xs, y=list(estimate.running), name=f"Simulation ({int_de(estimate.trials)} Durchläufe)",
        mode="lines", line=dict(color="#0072B2", width=2),
        hovertext=[f"nach {int_de(n)} Durchläufen: {fmt(r)}"
                   for n, r in zip(xs, estimate.running)],
        hoverinfo="text",
    ))
    if exact is not None:
        fig.add_trace(go.Scatter(
            x=[xs[0], xs[-1]], y=[float(exact)] * 2, name=f"exakt (gezählt): {fmt(exact)}",
            mode="lines", line=dict(color="#D55E00", dash="dash", width=2),
            hovertext=[f"exakt: {fmt(exact)}"] * 2, hoverinfo="text",
        ))
    yaxis = dict(tickformat=".1%") if estimate.is_probability else {}
    _layout(
        fig, title or estimate.quantity, "Anzahl Durchläufe (logarithmisch)",
        "Wahrscheinlichkeit" if estimate.is_probability else "Schätzung",
        xaxis=dict(type="log"), yaxis=yaxis,
    )
    return fig


def count_distribution_chart(
    variety: Targets,
    k: int,
    ruleset: str | RuleSet = "amigo",
    players: int = 4,
    *,
    seen: Cards = None,
    pile: Mapping[VarietyLike, int] | None = None,
    simulated: Estimate | None = None,
) -> go.Figure:
    """P(exactly j cards of ``variety`` among the next ``k``): exact bars, optionally
    next to simulated frequencies (from ``montecarlo.simulate_count``)."""
    one, many, colour = _target_style(variety)
    dist = count_distribution(variety, k, ruleset, players, seen=seen, pile=pile)
    xs = list(dist)
    fig = go.Figure(go.Bar(
        x=xs, y=[float(p) for p in dist.values()], name="exakt (gezählt)",
        marker=dict(color=colour, line=dict(color="#222222", width=1)),
        text=[percent(p) for p in dist.values()], textposition="outside",
        hovertext=[f"genau {j} × {one} unter {k} Karten: {percent(p)}" for j, p in dist.items()],
        hoverinfo="text",
    ))
    if simulated is not None:
        ys = [simulated.distribution.get(j, 0.0) for j in xs]
        fig.add_trace(go.Bar(
            x=xs, y=ys, name=f"Simulation ({int_de(simulated.trials)} Durchläufe)",
            marker=dict(color=SIMULATED, pattern_shape="/", line=dict(color="#222222", width=1)),
            hovertext=[f"simuliert: genau {j} × {one}: {percent(y)}" for j, y in zip(xs, ys)],
            hoverinfo="text",
        ))
    mean = expected_count(variety, k, ruleset, players, seen=seen, pile=pile)
    fig.add_vline(x=float(mean), line=dict(color="#222222", dash="dash"),
                  annotation_text=f"Erwartungswert: {decimal_de(mean)}",
                  annotation_position="top right")
    _layout(
        fig, f"Wie viele {many} unter den nächsten {k} Karten?" + _seen_note(seen, pile),
        f"Anzahl {many}", "Wahrscheinlichkeit", barmode="group",
        xaxis=dict(dtick=1), yaxis=dict(tickformat=".0%"),
    )
    return fig


def waiting_time_chart(
    variety: Targets,
    ruleset: str | RuleSet = "amigo",
    players: int = 4,
    *,
    seen: Cards = None,
    pile: Mapping[VarietyLike, int] | None = None,
    simulated: Estimate | None = None,
) -> go.Figure:
    """P(the next ``variety`` card is the j-th card), the cumulative chance "spätestens",
    and the expected position (N+1)/(K+1); optionally simulated frequencies."""
    one, many, colour = _target_style(variety)
    dist = waiting_time_distribution(variety, ruleset, players, seen=seen, pile=pile)
    if not dist:
        raise ValueError(f"Keine Karte ({one}) mehr im Stapel – sie kommt nie.")
    xs = list(dist)
    cumulative, acc = [], Fraction(0)
    for p in dist.values():
        acc += p
        cumulative.append(acc)
    fig = go.Figure(go.Bar(
        x=xs, y=[float(p) for p in dist.values()], name="genau an dieser Stelle (exakt)",
        marker=dict(color=colour, line=dict(color="#222222", width=0.5)),
        hovertext=[f"die nächste {one} ist die {j}. Karte: {percent(p)}" for j, p in dist.items()],
        hoverinfo="text",
    ))
    if simulated is not None:
        fig.add_trace(go.Scatter(
            x=xs, y=[simulated.distribution.get(j, 0.0) for j in xs], mode="markers",
            name=f"Simulation ({int_de(simulated.trials)} Durchläufe)",
            marker=dict(color=SIMULATED, symbol="x", size=7),
            hovertext=[f"simuliert: {j}. Karte: {percent(simulated.distribution.get(j, 0.0))}"
                       for j in xs],
            hoverinfo="text",
        ))
    fig.add_trace(go.Scatter(
        x=xs, y=[float(c) for c in cumulative], name="spätestens an dieser Stelle",
        mode="lines", line=dict(color="#222222", width=2), yaxis="y2",
        hovertext=[f"spätestens die {j}. Karte ist eine {one}: {percent(c)}"
                   for j, c in zip(xs, cumulative)],
        hoverinfo="text",
    ))
    mean = expected_wait(variety, ruleset, players, seen=seen, pile=pile)
    fig.add_vline(x=float(mean), line=dict(color="#D55E00", dash="dash"),
                  annotation_text=f"Erwartungswert: Position {decimal_de(mean, 1)}",
                  annotation_position="top right")
    last = next((j for j, c in zip(xs, cumulative) if c >= Fraction(99, 100)), xs[-1])
    _layout(
        fig, f"Wann kommt die nächste {one}?" + _seen_note(seen, pile),
        "Position im Nachziehstapel (1 = oberste Karte)", "Wahrscheinlichkeit",
        xaxis=dict(range=[0.5, last + 0.5]),
        yaxis=dict(tickformat=".0%", rangemode="tozero"),
        yaxis2=dict(title=dict(text="kumuliert"), overlaying="y", side="right",
                    range=[0, 1.02], tickformat=".0%", dtick=0.2, showgrid=False),
        legend=dict(orientation="h", y=-0.25),
    )
    return fig


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
    from plotly.subplots import make_subplots

    rs = find_ruleset(ruleset)
    if not rs.sex_meters:
        raise ValueError(f"{rs.title}: die Karten haben kein Geschlecht – hier gibt es "
                         "nur ein Bohnometer je Sorte (bohnometer_chart).")
    chosen = [v for v in _varieties(varieties, [rs]) if v.key in rs.sex_meters]
    if not chosen:
        raise ValueError(f"Keine dieser Sorten kommt in {rs.title} vor.")
    if max_cards is None:
        max_cards = max(max(m) for v in chosen for m in rs.sex_meters[v.key].values()) + 1
    columns = max(1, min(columns, len(chosen)))
    rows = -(-len(chosen) // columns)
    fig = make_subplots(
        rows=rows, cols=columns, subplot_titles=[v.de for v in chosen],
        shared_xaxes=True, shared_yaxes=True, vertical_spacing=min(0.3, 48 / (150 * rows)),
        horizontal_spacing=0.07,
    )
    xs = list(range(max_cards + 1))
    style = {"m": ("solid", "square", "♂ männlich oben"), "w": ("dot", "diamond", "♀ weiblich oben")}
    for i, v in enumerate(chosen):
        row, col = i // columns + 1, i % columns + 1
        for sex in ("m", "w"):
            meter = rs.sex_meters[v.key].get(sex)
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
                hovertext=[f"{v.de} ({sex_word(sex)}) oben: {cards_text(v, n)} → {coins_text(c)}"
                           f"<br>Bohnometer {steps}" for n, c in zip(xs, ys)],
                hoverinfo="text",
            ), row=row, col=col)
    # pixel layout that also fits a phone: title, legend, panels, then the notes below
    notes = ["Babybohne oben: kein Bohnometer, 0 Taler<br>(lady.baby-no-meter)"]
    if rs.meter_assumption:
        note = rs.meter_assumption.strip()
        if not note.casefold().startswith("annahme"):
            note = "Annahme: " + note
        notes.append("⚠ " + "<br>".join(textwrap.wrap(note, 52)))
    note_lines = sum(n.count("<br>") + 1 for n in notes)
    top, bottom = 110, 70 + 17 * note_lines
    height = 150 * rows + top + bottom
    plot_h = height - top - bottom
    _layout(fig, "Ladybohn: Bohnometer ♂ und ♀", "", "", height=height,
            margin=dict(t=top, b=bottom, l=55, r=15),
            legend=dict(orientation="h", x=0, y=1 + 48 / plot_h, yanchor="bottom"))
    fig.update_layout(title=dict(yref="container", y=1, yanchor="top", pad=dict(t=12)))
    fig.update_xaxes(dtick=2, range=[-0.3, max_cards + 0.3])
    top_coins = max(len(m) for v in chosen for m in rs.sex_meters[v.key].values())
    fig.update_yaxes(dtick=1, range=[-0.3, top_coins + 0.4])
    for row in range(1, rows + 1):
        fig.update_yaxes(title_text="Taler", row=row, col=1)
    fig.add_annotation(text="Karten auf dem Feld", xref="paper", yref="paper", x=0.5,
                       y=-24 / plot_h, yanchor="top", showarrow=False, name="x_title")
    y = -50 / plot_h
    for note in notes:
        warn = note.startswith("⚠")
        fig.add_annotation(
            text=note, xref="paper", yref="paper", x=0, y=y, xanchor="left", yanchor="top",
            align="left", showarrow=False, font=dict(size=12, color="#8A4B00" if warn else "#333333"),
            bgcolor="#FFF4E0" if warn else None, bordercolor="#8A4B00" if warn else None,
            name="meter_assumption" if warn else "baby",
        )
        y -= (17 * (note.count("<br>") + 1) + 8) / plot_h
    return fig


__all__ = [
    "bohnometer_chart",
    "coins_per_card_chart",
    "convergence_chart",
    "count_distribution_chart",
    "deck_chart",
    "deck_comparison_chart",
    "marginal_value_chart",
    "reveal_chart",
    "sex_meter_chart",
    "waiting_time_chart",
]
