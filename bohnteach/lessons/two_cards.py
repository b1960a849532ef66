"""Lesson 2 – Zwei Karten aufdecken: complement events, tree diagrams, hypergeometric
distribution."""
from __future__ import annotations

from functools import partial
from fractions import Fraction
from math import comb
from typing import Any

import plotly.graph_objects as go

from bohnteach.render import charts
from bohnteach.game.beans import find_variety
from bohnteach.widgets.questions import (
    ChoiceQuestion,
    NumberQuestion,
    box_html,
    exercise_list,
)
from bohnteach.render.words import de_number, de_percent
from bohnteach.widgets.failure import guard
from bohnteach.widgets.classroom import classroom as classroom_panel
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PILE, PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import Pile, deck_counts, p_at_least_one
from bohnteach.lessons import end, headroom, show_figure, start as lesson_start, variety_options

start = partial(lesson_start, "02_Zwei_Karten_aufdecken")
"""The teacher banner of this lesson (first code cell)."""

classroom = partial(classroom_panel, "02_Zwei_Karten_aufdecken")
"""The class panel, „Klassenraum“ (second code cell): a class's estimates and pooled draws."""

F = facts_for("02_Zwei_Karten_aufdecken")

__all__ = ["calculator", "classroom", "end", "exercises", "reveal", "start", "starting_hand",
           "tree"]

HIT = "#CC79A7"
MISS = "#0072B2"
HIGHLIGHT = "#D55E00"


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


@guard()
def tree(variety: str = "Gartenbohne") -> go.Figure:
    """Tree diagram for two revealed cards: hit / no hit at each step; the path
    "no hit, no hit" (the complement of "at least one") is highlighted."""
    v = find_variety(variety)
    counts = deck_counts(RULESET, PLAYERS)
    n, k = sum(counts.values()), counts[v.key]
    yes, no = v.de, f"keine {v.de}"
    first = {"G": Fraction(k, n), "N": Fraction(n - k, n)}
    second = {
        "GG": (k - 1, n - 1), "GN": (n - k, n - 1), "NG": (k, n - 1), "NN": (n - k - 1, n - 1),
    }
    pos1 = {"G": 0.78, "N": 0.22}
    x1, x2 = 0.75, 1.5  # the steps close together: the leaves' labels need the room on a phone
    pos2 = {"GG": 0.95, "GN": 0.62, "NG": 0.38, "NN": 0.05}
    # collected first and handed to the figure at once: each add_annotation() checks every
    # annotation before it again (17 of them: half a second in the static site's Python)
    lines: list[go.Scatter] = []
    notes: list[dict] = []

    def edge(x0, y0, x1, y1, text, colour, width):
        lines.append(go.Scatter(x=[x0, x1], y=[y0, y1], mode="lines", hoverinfo="skip",
                                line=dict(color=colour, width=width), showlegend=False))
        notes.append(dict(x=(x0 + x1) / 2, y=(y0 + y1) / 2, text=text, showarrow=False,
                          bgcolor="white", font=dict(size=13)))

    for a in "GN":
        hot = a == "N"
        edge(0, 0.5, x1, pos1[a], f"{k if a == 'G' else n - k}/{n}",
             HIGHLIGHT if hot else "#888", 4 if hot else 2)
        for b in "GN":
            num, den = second[a + b]
            hot2 = a + b == "NN"
            edge(x1, pos1[a], x2, pos2[a + b], f"{num}/{den}", HIGHLIGHT if hot2 else "#888",
                 4 if hot2 else 2)
    # nodes
    labels1 = {"G": yes, "N": no}
    for a in "GN":
        notes.append(dict(x=x1, y=pos1[a], text=f"<b>1. Karte:</b><br>{labels1[a]}",
                          showarrow=False, bgcolor=HIT if a == "G" else MISS,
                          font=dict(color="white", size=12), borderpad=4))
    leaf = {"GG": f"zwei {v.de_plural}", "GN": f"erst {v.de},<br>dann keine",
            "NG": f"erst keine,<br>dann {v.de}", "NN": f"keine {v.de}"}
    for ab, y in pos2.items():
        num, den = second[ab]
        p = first[ab[0]] * Fraction(num, den)
        text = f"<b>{leaf[ab]}</b><br>{_frac(p)} ≈ {de_number(p, 4)}"
        notes.append(dict(x=x2 + 0.03, y=y, text=text, showarrow=False, xanchor="left", align="left",
                          font=dict(size=13, color=HIGHLIGHT if ab == "NN" else "#222")))
    notes.append(dict(x=0, y=0.5, text="<b>Start</b>", showarrow=False, bgcolor="#444",
                      font=dict(color="white"), borderpad=4))
    for x, text in ((x1 / 2, "1. Karte"), ((x1 + x2) / 2, "2. Karte")):
        notes.append(dict(x=x, y=1.05, text=f"<i>{text}</i>", showarrow=False,
                          font=dict(color="#555", size=13)))
    fig = go.Figure(lines, layout=dict(annotations=notes))
    none = first["N"] * Fraction(*second["NN"])
    return charts.chart_layout(
        fig, (f"Baumdiagramm: zwei Karten aufdecken<br>"
              f"<sup>Mindestens eine {v.de} = 1 − P(keine {v.de}) = 1 − {_frac(none)} = "
              f"{_frac(1 - none)} ≈ {de_number(1 - none, 4)}</sup>"), "", "", height=430,
        xaxis=dict(visible=False, range=[-0.2, 2.75]), yaxis=dict(visible=False, range=[-0.05, 1.1]),
    )


@guard()
def reveal() -> go.Figure:
    """P(at least one card of each variety among the 2 revealed cards)."""
    return charts.reveal_chart(PILE, k=F.aufdecken.value.numerator)


@guard()
def starting_hand(variety: str = "Blaue Bohne") -> go.Figure:
    """Distribution of the number of ``variety`` cards in a starting hand of 5."""
    return headroom(charts.count_distribution_chart(variety, F.handkarten.value.numerator, PILE))


# --------------------------------------------------------------------------- calculator


def at_least_one_text(variety: str, k: int, seen: int = 0) -> str:
    """The formula 1 − C(N−K, k)/C(N, k) with the numbers filled in (HTML)."""
    v = find_variety(variety)
    counts = deck_counts(RULESET, PLAYERS)
    n = sum(counts.values()) - seen
    hits = counts[v.key] - seen
    p = p_at_least_one(v, k, Pile(RULESET, PLAYERS, seen={v.key: seen} if seen else None))
    return (
        f"Unbekannte Karten N = {n}, davon {v.de_plural}: K = {hits}, aufgedeckt: k = {k}.<br>"
        f"P(mindestens eine {v.de}) = 1 − C({n - hits}, {k}) / C({n}, {k}) = "
        f"1 − {comb(n - hits, k)}/{comb(n, k)} = <b>{de_number(p, 4)} ≈ {de_percent(p, 1)}</b>"
    )


class Calculator:
    """Pick a variety, how many cards are turned up, how many of that variety are
    already out of the game → the exact chance and the distribution chart."""

    def __init__(self, variety: str = "Gartenbohne", k: int = 2, seen: int = 0):
        import ipywidgets as w

        row = {"label_width": "260px", "layout": {"width": "520px"}}
        self.variety = control(w.Dropdown, options=variety_options(deck_counts(RULESET, PLAYERS)),
                               value=find_variety(variety).de, description="Sorte:", **row)
        self.k = control(w.IntSlider, value=k, min=1, max=10, description="Wie viele Karten aufdecken?",
                         continuous_update=False, **row)
        self.seen = control(w.IntSlider, value=seen, min=0, max=find_variety(variety).count,
                            description="Davon schon gesehen (abgelegt):", continuous_update=False, **row)
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "420px"})
        self.widget = w.VBox([self.variety, self.k, self.seen, self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, self.k, self.seen):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        v = find_variety(self.variety.value)
        self.seen.max = deck_counts(RULESET, PLAYERS)[v.key]
        pile = Pile(RULESET, PLAYERS, seen={v.key: self.seen.value} if self.seen.value else None)
        self.result.value = box_html("info", at_least_one_text(v.de, self.k.value, self.seen.value))
        show_figure(headroom(charts.count_distribution_chart(v, self.k.value, pile)), self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator() -> Calculator:
    return Calculator()


# --------------------------------------------------------------------------- exercises


def questions() -> list[Any]:
    f = F
    tol = Fraction(1, 1000)
    return [
        NumberQuestion(
            "Zwei Karten werden aufgedeckt. Wie wahrscheinlich ist <b>keine</b> Gartenbohne dabei?",
            answer=f.p_kein_garten_zwei.value, tolerance=tol, probability=True,
            hint=f"Erste Karte keine Gartenbohne: {f.n_nicht_garten}/{f.karten}. Danach sind "
                 f"noch {f.n_nicht_garten_2} von {f.n_rest} Karten keine Gartenbohne.",
            mistakes={Fraction(f.n_nicht_garten.value, f.karten.value) ** 2: (
                "Du hast zweimal mit 98/104 gerechnet. Die erste Karte ist aber weg – "
                "bei der zweiten sind es nur noch 103 Karten.")},
            solution=(f"{f.n_nicht_garten}/{f.karten} · {f.n_nicht_garten_2}/{f.n_rest} = "
                      f"C({f.n_nicht_garten}, 2)/C({f.karten}, 2) = {f.c_nicht_garten_2.frac()}/"
                      f"{f.c_alle_2.frac()} ≈ {f.p_kein_garten_zwei.dec(4)}."),
        ),
        NumberQuestion(
            "Wie wahrscheinlich ist <b>mindestens eine</b> Gartenbohne unter den zwei "
            "aufgedeckten Karten?",
            answer=f.p_garten_zwei.value, tolerance=tol, probability=True,
            hint="Gegenereignis: 1 minus die Wahrscheinlichkeit für keine Gartenbohne.",
            mistakes={f.falsch_addiert.value: (
                f"{f.n_falsch_zaehler}/{f.karten} ≈ {f.falsch_addiert.dec(4)} ist etwas zu groß: Beim "
                "Addieren zählst du den Fall „beide Karten sind Gartenbohnen“ doppelt. "
                "Rechne lieber über das Gegenereignis.")},
            solution=(f"1 − C({f.n_nicht_garten}, 2)/C({f.karten}, 2) = 1 − "
                      f"{f.c_nicht_garten_2.frac()}/{f.c_alle_2.frac()} = "
                      f"{f.p_garten_zwei.frac()} ≈ {f.p_garten_zwei.dec(4)} ≈ {f.p_garten_zwei.pct(2)}."),
        ),
        NumberQuestion(
            "Und wie wahrscheinlich ist mindestens eine <b>Blaue Bohne</b> unter den zwei Karten?",
            answer=f.p_blau_zwei.value, tolerance=tol, probability=True,
            hint=f"Es gibt {f.n_blau} Blaue Bohnen, also {f.n_nicht_blau} andere Karten.",
            mistakes={2 * Fraction(f.n_blau.value, f.karten.value): (
                "Addiert: Der Fall „zwei Blaue Bohnen“ ist doppelt gezählt. Nimm das Gegenereignis.")},
            solution=(f"1 − C({f.n_nicht_blau}, 2)/C({f.karten}, 2) = 1 − "
                      f"{f.c_nicht_blau_2.frac()}/{f.c_alle_2.frac()} = {f.p_blau_zwei.frac()} "
                      f"≈ {f.p_blau_zwei.dec(4)}."),
        ),
        NumberQuestion(
            "In Phase 4 ziehst du 3 Karten. Wie wahrscheinlich ist <b>genau eine</b> Blaue "
            "Bohne dabei?",
            answer=f.p_genau_ein_blau_drei.value, tolerance=tol, probability=True,
            hint="Hypergeometrisch: C(K, j) · C(N − K, k − j) / C(N, k) mit N = 104, K = 20, "
                 "k = 3, j = 1.",
            solution=(f"C({f.n_blau}, 1) · C({f.n_nicht_blau}, 2) / C({f.karten}, 3) = "
                      f"{f.n_blau} · {f.c_nicht_blau_2.frac()} / {f.c_alle_3.frac()} ≈ "
                      f"{f.p_genau_ein_blau_drei.dec(4)}."),
        ),
        NumberQuestion(
            f"Auf dem Ablagestapel liegen schon {f.n_garten_gesehen} Gartenbohnen. Alle anderen "
            f"Karten sind unbekannt. Wie wahrscheinlich ist jetzt mindestens eine Gartenbohne "
            f"unter den zwei aufgedeckten Karten?",
            answer=f.p_garten_zwei_gesehen.value, tolerance=tol, probability=True,
            hint=f"Unbekannt sind noch {f.n_unbekannt} Karten, davon {f.n_garten_rest} Gartenbohnen.",
            mistakes={f.p_garten_zwei.value: (
                "Das ist der Wert für den vollen Stapel. Die abgelegten Karten kommen nicht mehr – "
                "rechne mit den Karten, die noch unbekannt sind.")},
            solution=(f"1 − C({f.n_nicht_garten}, 2)/C({f.n_unbekannt}, 2) = "
                      f"{f.p_garten_zwei_gesehen.frac()} ≈ {f.p_garten_zwei_gesehen.dec(4)} – "
                      "gesehene Karten ändern die Wahrscheinlichkeit."),
        ),
        ChoiceQuestion(
            f"Warum ist 6/104 + 6/104 = {f.n_falsch_zaehler}/{f.karten} <b>nicht</b> die "
            "Wahrscheinlichkeit für mindestens eine Gartenbohne unter zwei Karten?",
            [
                "Weil die zweite Karte nie eine Gartenbohne sein kann.",
                "Weil der Fall „beide sind Gartenbohnen“ doppelt gezählt wird.",
                "Weil man Wahrscheinlichkeiten nie addieren darf.",
            ],
            1,
            explanations=[
                "Doch, das kann sie – es gibt 6 Gartenbohnen.",
                f"Dieser Fall hat die Wahrscheinlichkeit {f.p_beide_garten.frac()} ≈ "
                f"{f.p_beide_garten.dec(4)} – genau um so viel ist die Summe zu groß.",
                "Addieren ist erlaubt, wenn die Ereignisse nicht zugleich eintreten können "
                "(Lektion 1). Hier können sie es.",
            ],
            solution=(f"{f.n_falsch_zaehler}/{f.karten} − {f.p_garten_zwei.frac()} = "
                      f"{f.p_beide_garten.frac()} = P(beide Gartenbohnen)."),
        ),
    ]


@guard()
def exercises():
    """The exercises of lesson 2 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions())
