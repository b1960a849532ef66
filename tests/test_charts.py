"""Chart builders (bohnteach.render.charts): what a reader of the chart relies on — the data,
the variety names and colours, German labels and hover texts, the assumption note."""
from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from bohnteach.render import charts
from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart
from bohnteach.game.beans import find_variety, harvest_value
from bohnteach.maths.montecarlo import Runs, simulate_count, simulate_reveal, simulate_wait
from bohnteach.maths.probability import Pile, count_distribution, p_in_reveal
from bohnteach.game.rulesets import ruleset_from_toml

AMIGO_DE = ["Blaue Bohne", "Feuerbohne", "Stinkbohne", "Brechbohne", "Sojabohne",
            "Augenbohne", "Rote Bohne", "Gartenbohne"]

LADY = ruleset_from_toml("""
name = "testlady"
title = "Bohnanza – Testbohn"
sources = ["003"]
varieties = ["blue", "garden"]
tie_break = "clockwise"
start_player = "chosen"
phase3_order = "any"
final_harvest_protection = false
meter_assumption = "Die Bohnometer der Weibchen sind eine Annahme, nicht gedruckt."
[defaults]
fields = 2
deal = [5]
draw = 3
exhaustions = 3
third_field_cost = 0
removed = []
[players.4]
[traits.blue]
m = 11
w = 5
B = 5
[traits.garden]
m = 3
w = 2
B = 1
[trait_meters.blue]
m = [4, 6, 8, 10]
w = [3, 5, 7, 9]
[trait_meters.garden]
m = [0, 2, 3, 0]
w = [0, 1, 2, 0]
""")


def by_name(fig: go.Figure) -> dict[str, go.BaseTraceType]:
    return {t.name: t for t in fig.data}


def title(fig: go.Figure) -> str:
    """The title as read: its line breaks (it wraps to fit a phone) are spaces."""
    return fig.layout.title.text.replace("<br>", " ")


def annotation_texts(fig: go.Figure) -> list[str]:
    return [a.text for a in fig.layout.annotations]


def check_plain_figure(fig) -> None:
    assert type(fig) is go.Figure  # never a FigureWidget
    json.loads(fig.to_json())  # serialisable: what show_figure() sends to the page
    assert fig.layout.title.text
    assert fig.layout.separators == ",."  # German decimal comma


# --------------------------------------------------------------------------- Bohnometer


def test_bohnometer_curves_for_amigo():
    fig = charts.bohnometer_chart()
    check_plain_figure(fig)
    assert [t.name for t in fig.data] == AMIGO_DE
    blue = by_name(fig)["Blaue Bohne"]
    assert blue.line.color == find_variety("blue").colour
    assert blue.line.shape == "hv"
    assert list(blue.y) == [harvest_value("blue", n) for n in blue.x]
    assert blue.hovertext[7] == "7 Blaue Bohnen → 2 Taler"
    assert blue.hovertext[1] == "1 Blaue Bohne → 0 Taler"
    assert by_name(fig)["Gartenbohne"].hovertext[2] == "2 Gartenbohnen → 2 Taler"
    # eight curves would overlap: one panel per variety, named in its title
    assert len({t.xaxis for t in fig.data}) == 8
    panel_titles = {(a.xref, a.text) for a in fig.layout.annotations if a.text in AMIGO_DE}
    assert len(panel_titles) == 8
    assert [a.text for a in fig.layout.annotations if a.name == "x_title"] == ["Karten auf dem Feld"]
    assert fig.layout.yaxis.title.text == "Taler beim Ernten"
    assert not [a for a in annotation_texts(fig) if "Annahme" in a]
    few = charts.bohnometer_chart(["Blaue Bohne", "Stinkbohne", "Gartenbohne"])
    assert {t.xaxis for t in few.data} == {None}  # a handful of curves share one plot
    assert few.layout.xaxis.title.text == "Karten auf dem Feld"


def test_bohnometer_selection_and_several_rulesets():
    fig = charts.bohnometer_chart(["Blaue Bohne", "Kaffeebohne"], ["amigo", "online"])
    names = [t.name for t in fig.data]
    # Kaffeebohne is not in the Amigo deck, so it appears once
    assert names == ["Blaue Bohne – Grundspiel (Amigo)",
                     "Blaue Bohne – Online-Regeln (3–7 Personen)",
                     "Kaffeebohne – Online-Regeln (3–7 Personen)"]
    assert fig.data[0].line.dash != fig.data[1].line.dash  # rule sets differ by line style
    assert max(fig.data[2].x) >= 12  # the whole Kaffeebohne meter is visible
    with pytest.raises(ValueError, match="kommt in"):
        charts.bohnometer_chart("Kaffeebohne", "amigo")


def test_assumed_meters_are_annotated_and_sexes_drawn():
    fig = charts.bohnometer_chart(rulesets=LADY)
    check_plain_figure(fig)
    assert [t.name for t in fig.data] == [
        "Blaue Bohne (männlich)", "Blaue Bohne (weiblich)",
        "Gartenbohne (männlich)", "Gartenbohne (weiblich)",
    ]
    notes = [a for a in annotation_texts(fig) if LADY.meter_assumption in a.replace("<br>", " ")]
    assert len(notes) == 1 and "Annahme" in notes[0]
    assert by_name(fig)["Blaue Bohne (weiblich)"].hovertext[3] == "3 Blaue Bohnen → 1 Taler"
    only_w = charts.bohnometer_chart("Blaue Bohne", LADY, trait="w")
    assert [t.name for t in only_w.data] == ["Blaue Bohne (weiblich)"]
    assert [t.name for t in charts.bohnometer_chart("Blaue Bohne", trait="w").data] == ["Blaue Bohne"]
    for build in (charts.coins_per_card_chart, charts.marginal_value_chart):
        assert any("Annahme" in t for t in annotation_texts(build(None, LADY)))
        assert not any("Annahme" in t for t in annotation_texts(build(None, "amigo")))


def test_coins_per_card_marks_efficient_sizes():
    fig = charts.coins_per_card_chart(["Blaue Bohne", "Gartenbohne"])
    check_plain_figure(fig)
    blue = by_name(fig)["Blaue Bohne"]
    assert blue.marker.color == find_variety("blue").colour
    assert list(blue.x)[0] == 1
    assert blue.y[list(blue.x).index(7)] == pytest.approx(2 / 7)
    stars = [n for n, sym in zip(blue.x, blue.marker.symbol) if sym == "star"]
    assert stars == [4, 6, 8, 10]
    assert blue.hovertext[list(blue.x).index(6)] == (
        "6 Blaue Bohnen → 2 Taler = 0,33 Taler pro Karte – neue Stufe erreicht"
    )
    assert fig.layout.yaxis.title.text == "Taler pro Karte"


def test_marginal_value_bars():
    fig = charts.marginal_value_chart("Stinkbohne")
    check_plain_figure(fig)
    (bars,) = fig.data
    assert bars.name == "Stinkbohne"
    assert list(bars.y) == [harvest_value("stink", n + 1) - harvest_value("stink", n)
                            for n in bars.x]
    assert sum(bars.y) == 4
    assert bars.hovertext[7] == "7 Stinkbohnen + 1 Karte → 8: +1 Taler"


# --------------------------------------------------------------------------- decks


def test_deck_chart_shows_the_bean_staircase():
    fig = charts.deck_chart("amigo", 4)
    check_plain_figure(fig)
    (bars,) = fig.data
    assert list(bars.x) == [find_variety(n).de_plural for n in AMIGO_DE]  # names on the axis
    assert list(bars.y) == [20, 18, 16, 14, 12, 10, 8, 6]
    assert list(bars.marker.color) == [find_variety(n).colour for n in AMIGO_DE]
    assert "104 Karten" in title(fig)
    assert any("genau 2 Karten weniger" in t for t in annotation_texts(fig))
    assert bars.hovertext[0] == "20 Blaue Bohnen – 19,2 % des Stapels"
    online = charts.deck_chart("online", 6)
    assert "144 Karten" in title(online)
    assert "Gartenbohnen" not in online.data[0].x


def test_deck_comparison_stacks_named_varieties():
    fig = charts.deck_comparison_chart([("amigo", 4), ("online", 3)])
    check_plain_figure(fig)
    assert fig.layout.barmode == "stack"
    coffee = by_name(fig)["Kaffeebohnen"]
    assert coffee.marker.color == find_variety("coffee").colour
    assert list(coffee.y) == [None, 24]  # not in Amigo, 24 in the online deck for 3
    assert coffee.hovertext[1] == "Online-Regeln (3–7 Personen), 3 Personen: 24 Kaffeebohnen"
    assert {"104 Karten", "150 Karten"} <= set(annotation_texts(fig))


# --------------------------------------------------------------------------- probability


def test_reveal_chart():
    fig = charts.reveal_chart(Pile("amigo", 4))
    check_plain_figure(fig)
    (bars,) = fig.data
    i = list(bars.x).index("Gartenbohne")
    assert bars.y[i] == pytest.approx(0.1126, abs=5e-5)
    assert bars.text[i] == "11,3 %"
    assert bars.hovertext[i] == "mindestens eine Gartenbohne unter 2 Karten: 11,3 %"
    seen = charts.reveal_chart(Pile(seen={"garden": 2}))
    assert seen.data[0].y[i] < bars.y[i]
    assert "gesehenen" in title(seen)


def test_convergence_chart_exact_vs_simulated():
    est = simulate_reveal("Gartenbohne", runs=Runs(10_000, seed=0))
    exact = p_in_reveal("Gartenbohne")
    fig = charts.convergence_chart(est, exact)
    check_plain_figure(fig)
    traces = by_name(fig)
    sim = traces["Simulation (10.000 Durchläufe)"]
    # drawn through a log-spaced part of the 1,090 checkpoints, each at its running estimate
    at = {n: i for i, n in enumerate(est.checkpoints)}
    assert list(sim.y) == [est.running[at[n]] for n in sim.x]
    assert (sim.x[0], sim.x[-1]) == (1, 10_000) and 200 < len(sim.x) < 400 < len(est.checkpoints)
    assert traces["exakt (gezählt): 11,3 %"].y[0] == pytest.approx(float(exact))
    band = traces["±2 Standardfehler"]
    assert min(band.y) >= 0.0 and max(band.y) <= 1.0
    assert fig.layout.xaxis.type == "log"
    assert title(fig) == est.quantity
    # without an exact answer: only the simulation
    assert [t.name for t in charts.convergence_chart(est).data] == [sim.name]


def test_log_thin_keeps_enough_points_for_a_log_axis():
    step = 1 / charts.LOG_POINTS_PER_DECADE
    xs = list(range(1, 101)) + list(range(110, 10_001, 10))
    kept = [xs[i] for i in charts.log_thin(xs)]
    assert kept[0] == 1 and kept[-1] == 10_000 and kept == sorted(set(kept))
    gaps = [math.log10(b / a) for a, b in itertools.pairwise(kept[:-1])]
    assert min(gaps) >= step - 1e-12  # thinned: no two closer than a step …
    assert all(min(abs(math.log10(x / k)) for k in kept) < step for x in xs)  # … none lost
    assert kept[:10] == list(range(1, 11))  # the wild start stays whole
    assert charts.log_thin([5]) == [0] and charts.log_thin([]) == []


def test_count_distribution_chart():
    sim = simulate_count("Blaue Bohne", 5, runs=Runs(2_000))
    fig = charts.count_distribution_chart("Blaue Bohne", 5, simulated=sim)
    check_plain_figure(fig)
    exact, simulated = fig.data
    assert exact.name == "exakt (gezählt)"
    assert simulated.name == "Simulation (2.000 Durchläufe)"
    assert exact.marker.color == find_variety("blue").colour
    dist = count_distribution("Blaue Bohne", 5)
    assert list(exact.y) == pytest.approx([float(p) for p in dist.values()])
    assert exact.hovertext[2] == "genau 2 × Blaue Bohne unter 5 Karten: 19,7 %"
    assert fig.layout.xaxis.title.text == "Anzahl Blaue Bohnen"
    assert any("Erwartungswert: 0,96" in t for t in annotation_texts(fig))


def test_waiting_time_chart():
    fig = charts.waiting_time_chart("Gartenbohne", simulated=simulate_wait("garden", runs=Runs(2_000)))
    check_plain_figure(fig)
    bars, sim, cumulative = fig.data
    assert bars.name == "genau an dieser Stelle (exakt)"
    assert sum(bars.y) == pytest.approx(1.0)
    assert bars.y[0] == pytest.approx(6 / 104)
    assert cumulative.y[1] == pytest.approx(float(p_in_reveal("garden")))
    assert cumulative.y[-1] == pytest.approx(1.0)
    assert any("Erwartungswert: Position 15,0" in t for t in annotation_texts(fig))
    assert bars.hovertext[0] == "die nächste Gartenbohne ist die 1. Karte: 5,8 %"
    with pytest.raises(ValueError, match="nie"):
        charts.waiting_time_chart("garden", Pile(seen={"garden": 6}))


def test_union_of_varieties_is_named_not_coloured():
    fig = charts.count_distribution_chart(["Sojabohne", "Blaue Bohne"], 3)
    assert "Blaue Bohnen oder Sojabohnen" in title(fig)
    assert fig.data[0].marker.color == charts.NEUTRAL


def test_every_chart_names_its_traces():
    figs = [
        charts.bohnometer_chart(), charts.coins_per_card_chart(), charts.marginal_value_chart(),
        charts.deck_comparison_chart(),
        charts.convergence_chart(simulate_reveal("red", runs=Runs(500)), Fraction(1, 7)),
        charts.count_distribution_chart("red", 4), charts.waiting_time_chart("red"),
    ]
    for fig in figs:
        for trace in fig.data:
            assert trace.name, f"unnamed trace in {fig.layout.title.text}"


# --------------------------------------------------------------------------- small screens


def all_figures() -> list[go.Figure]:
    est = simulate_reveal("red", runs=Runs(20_000, seed=1))
    return [
        charts.bohnometer_chart(), charts.bohnometer_chart(["Blaue Bohne", "Stinkbohne"]),
        charts.bohnometer_chart(["Blaue Bohne", "Kaffeebohne"], ["amigo", "online"]),
        charts.bohnometer_chart(rulesets=LADY), charts.coins_per_card_chart(),
        charts.coins_per_card_chart(["Blaue Bohne", "Gartenbohne"]),
        charts.marginal_value_chart(), charts.marginal_value_chart(["Stinkbohne", "Rote Bohne"]),
        charts.deck_chart(), charts.deck_comparison_chart(), charts.reveal_chart(),
        charts.convergence_chart(est, Fraction(1, 7)), charts.count_distribution_chart("red", 4),
        charts.waiting_time_chart("red"), sex_meter_chart(),
    ]


def plain(text: str) -> str:
    for tag in (charts.SUBTITLE, "</span>", "<b>", "</b>"):
        text = text.replace(tag, "")
    return text


def test_every_chart_fits_a_phone():
    for fig in all_figures():
        title = fig.layout.title.text
        # the title wraps instead of running off a 390 px screen
        assert all(len(plain(line)) <= charts.TITLE_CHARS * 4 // 3 for line in title.split("<br>")), title
        assert fig.layout.margin.t >= charts.title_height(title.count("<br>") + 1), title
        # no 80 px default margins: the axes take only what their labels need
        assert fig.layout.margin.l <= 55 and fig.layout.margin.r <= 15, title
        if len({t.xaxis for t in fig.data}) == 1 and fig.layout.showlegend is not False:
            legend = fig.layout.legend  # a row below the plot, never a column beside it
            assert (legend.orientation, legend.yref, legend.y, legend.yanchor) == (
                "h", "container", 0, "bottom"), title


def test_every_chart_looks_as_plotly_white_and_carries_only_what_it_draws():
    """The charts' template is plotly_white for every trace type the site draws (page, axes,
    colours, fonts, the traces' defaults); the rest of plotly_white (maps, 3-D scenes, other
    trace types) is not copied into each chart."""
    import plotly.io as pio

    white = pio.templates["plotly_white"].to_plotly_json()
    for fig in all_figures():
        sent = json.loads(fig.to_json())["layout"]["template"]  # what show_figure() sends
        assert set(sent["data"]) <= set(charts.TRACES), set(sent["data"])
        assert {t.type for t in fig.data} <= set(sent["data"]), fig.layout.title.text
        for kind in sent["data"]:
            assert sent["data"][kind] == white["data"][kind], kind
        assert {k: v for k, v in sent["layout"].items()} == {
            k: v for k, v in white["layout"].items() if k in sent["layout"]}
        for kept in ("colorway", "font", "paper_bgcolor", "plot_bgcolor", "xaxis", "yaxis", "hoverlabel"):
            assert kept in sent["layout"], kept
        assert not {"scene", "geo", "polar"} & set(sent["layout"])
        assert len(json.dumps(sent)) < len(json.dumps(white)) / 4


def test_wrap_lines_keeps_breaks_and_subtitles():
    assert charts.wrap_lines("Kurz<br>auch kurz", 40) == ["Kurz", "auch kurz"]
    long = "Wie wahrscheinlich ist meine Sorte unter den nächsten 2 Karten?"
    assert charts.wrap_lines(long, 40) == ["Wie wahrscheinlich ist meine Sorte unter",
                                           "den nächsten 2 Karten?"]
    sub = charts.wrap_lines("Titel<br><sup>" + "eins zwei drei " * 6 + "</sup>", 40)
    assert sub[0] == "Titel" and len(sub) == 3
    assert all(line.startswith(charts.SUBTITLE) and line.endswith("</span>") for line in sub[1:])


def test_log_axis_labels_do_not_run_into_each_other():
    est = simulate_reveal("red", runs=Runs(1_000_000 // 10, seed=2))
    fig = charts.convergence_chart(est, Fraction(1, 7))
    axis = fig.layout.xaxis
    assert axis.type == "log"
    assert list(axis.tickvals) == [1, 10, 100, 1_000, 10_000, 100_000][-len(axis.tickvals):]
    assert list(axis.ticktext)[-2:] == ["10.000", "100.000"]
    assert min(axis.tickvals) >= min(est.checkpoints) and max(axis.tickvals) <= est.trials
    # a 390 px phone leaves about 320 px of plot; a label needs ~7.5 px per character
    decades = math.log10(max(est.checkpoints) / min(est.checkpoints))
    per_decade = 320 / decades
    widest = max(len(t) for t in axis.ticktext) * 7.5
    assert per_decade >= widest + 8, (per_decade, widest)
    assert charts.log_ticks(3, 2_500) == ([10, 100, 1_000], ["10", "100", "1.000"])


def test_every_curve_has_more_than_its_colour():
    """Within one plot (panel), no two traces share line style, marker, pattern and the
    text written on them (stacked bars name their variety inside the bar)."""
    for fig in all_figures():
        panels: dict[str, list] = {}
        for t in fig.data:
            panels.setdefault(t.xaxis or "x", []).append(t)
        for traces in panels.values():
            looks = []
            for t in traces:
                line = getattr(t, "line", None)
                marker = t.marker
                symbol = getattr(marker, "symbol", None)
                symbol = symbol if isinstance(symbol, (str, type(None))) else tuple(symbol)
                pattern = marker.pattern.shape if getattr(marker, "pattern", None) else None
                looks.append((getattr(line, "dash", None), symbol, pattern, getattr(t, "yaxis", None),
                              getattr(t, "mode", None), type(t).__name__,
                              tuple(t.text) if isinstance(t.text, tuple) else t.text))
            assert len(set(looks)) == len(looks), (fig.layout.title.text, looks)


def test_pages_show_charts_without_the_icon_bar():
    from bohnteach.widgets.figure import PLOT_CONFIG, PLOTLY_MIME, figure_bundle

    assert PLOT_CONFIG["displayModeBar"] is False and PLOT_CONFIG["responsive"]
    assert figure_bundle(charts.deck_chart())[PLOTLY_MIME]["config"] == PLOT_CONFIG


def test_show_figure_sends_plotlys_mime_bundle_without_nbformat(monkeypatch):
    """The static site's Python has no nbformat (``fig.show()`` refuses to run there):
    ``show_figure`` must hand the frontend plotly's MIME bundle without it."""
    import IPython.display

    from bohnteach.widgets.figure import PLOT_CONFIG, PLOTLY_MIME, show_figure

    shown: list = []
    monkeypatch.setattr(sys, "platform", "emscripten")  # the static site's Python
    monkeypatch.setitem(sys.modules, "nbformat", None)  # import fails
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append((obj, raw)))
    fig = charts.bohnometer_chart(["Blaue Bohne"], "amigo")
    show_figure(fig)
    [(bundle, raw)] = shown
    assert raw and list(bundle) == [PLOTLY_MIME]
    data = bundle[PLOTLY_MIME]
    assert data["config"] == PLOT_CONFIG
    assert [t["name"] for t in data["data"]] == ["Blaue Bohne"]
    assert data["layout"]["title"]["text"] == fig.layout.title.text
    json.dumps(data)  # plain JSON, as the kernel sends it


WARM_THEN_DRAW = """
import sys
from bohnteach.site import bohnometer_page
from bohnteach.lessons import compute_or_simulate, staircase, two_cards
from bohnteach.render import charts
{warm}
before = set(sys.modules)
figures = [bohnometer_page.overview(), staircase.staircase(), two_cards.reveal(),
           compute_or_simulate.convergence()]
for fig in figures:
    fig = getattr(fig, "figure", fig)
    if hasattr(fig, "to_json"):
        fig.to_json(validate=False, remove_uids=False)
print(sorted(m for m in set(sys.modules) - before if m.startswith("plotly")))
"""


@pytest.mark.parametrize("warm", [True, False], ids=["warmed", "control"])
def test_after_the_warm_up_a_pages_first_chart_imports_nothing_more(warm: bool):
    """What the static site's snapshot and the server's fork server run once
    (``charts.warm_up``) leaves a page's first chart no plotly module to import; without
    it (the control) the first chart imports dozens."""
    code = WARM_THEN_DRAW.format(warm="charts.warm_up()" if warm else "")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    imported = json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))
    if warm:
        assert imported == []
    else:
        assert len(imported) > 20


def _plain_and_panel_figures() -> list[go.Figure]:
    from plotly.subplots import make_subplots

    plain = go.Figure([go.Bar(x=[1, 2], y=[3, 4]), go.Scatter(x=[1, 2], y=[1, 0], yaxis="y2")],
                      layout=dict(yaxis2=dict(overlaying="y"), annotations=[dict(text="a", x=1, y=1)]))
    grid = make_subplots(rows=2, cols=2, subplot_titles=["A", "B", "C"], shared_xaxes=True)
    grid.add_trace(go.Scatter(x=[0, 1], y=[1, 2]), row=2, col=1)
    return [plain, grid]


@pytest.mark.parametrize("updates, xaxes, yaxes", [
    (dict(xaxis_title_text="x", legend=dict(title_text="L", orientation="h")), None, None),
    (dict(margin=dict(t=5), title="Nur Text", paper_bgcolor="white"), dict(dtick=1, title_text="a"),
     dict(range=[0, 2], automargin=True)),
    (dict(annotations=[dict(text="neu", x=0, y=0)], yaxis=dict(title=dict(text="y")), height=None,
          xaxis2=dict(showgrid=False)), dict(showgrid=False), None),
    (dict(legend=go.layout.Legend(y=0.5), shapes=[dict(type="line", x0=0, x1=1, y0=0, y1=1)]),
     None, dict(tickformat=".0%")),
])
def test_set_layout_does_what_plotlys_updates_do(updates, xaxes, yaxes):
    """charts.set_layout is the fast path of update_xaxes → update_yaxes → update_layout:
    the same figure (magic underscores, merges, None, axes that exist), except that a list
    (annotations, shapes) replaces the figure's, as an assignment does."""
    lists = {k: v for k, v in updates.items() if isinstance(v, list)}
    for slow, fast in zip(_plain_and_panel_figures(), _plain_and_panel_figures()):
        if xaxes:
            slow.update_xaxes(**xaxes)
        if yaxes:
            slow.update_yaxes(**yaxes)
        slow.update_layout({k: v for k, v in updates.items() if k not in lists})
        for key, value in lists.items():
            slow.layout[key] = value
        charts.set_layout(fast, updates, xaxes=xaxes, yaxes=yaxes)
        assert fast.to_plotly_json() == slow.to_plotly_json()


def test_panels_keep_their_titles_and_take_traces_by_row_and_column():
    """Panel grids are copies of one made grid: each chart has its own titles, the grid made
    first is not changed by the next, and traces land in the panel asked for."""
    first, columns, rows = charts.panels(["Eins", "Zwei", "Drei"], 2)
    second, _c, _r = charts.panels(["Vier", "Fünf", "Sechs"], 2)
    second.add_trace(go.Scatter(x=[1], y=[1], name="unten"), row=2, col=1)
    assert (columns, rows) == (2, 2)
    assert [a.text for a in first.layout.annotations] == ["Eins", "Zwei", "Drei"]
    assert [a.text for a in second.layout.annotations] == ["Vier", "Fünf", "Sechs"]
    assert (second.data[0].xaxis, second.data[0].yaxis) == ("x3", "y3")
    assert not first.data
    import plotly.io as pio

    assert first.to_plotly_json()["layout"]["template"] == pio.templates[charts.TEMPLATE].to_plotly_json()
