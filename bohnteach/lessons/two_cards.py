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
from bohnteach.i18n import Translator, _, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import number, percent
from bohnteach.widgets.failure import guard
from bohnteach.widgets.classroom import classroom as classroom_panel
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PILE, PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import Pile, deck_counts, p_at_least_one
from bohnteach.lessons import end, headroom, show_figure, spoken, start as lesson_start, variety_options

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
@spoken
def tree(variety: str = "Gartenbohne") -> go.Figure:
    """Tree diagram for two revealed cards: hit / no hit at each step; the path
    "no hit, no hit" (the complement of "at least one") is highlighted."""
    v = find_variety(variety)
    counts = deck_counts(RULESET, PLAYERS)
    n, k = sum(counts.values()), counts[v.key]
    name = variety_word(v)
    yes, no = name, _("keine {variety}").format(variety=name)
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
        notes.append(dict(x=x1, y=pos1[a], text=_("<b>1. Karte:</b><br>{outcome}").format(outcome=labels1[a]),
                          showarrow=False, bgcolor=HIT if a == "G" else MISS,
                          font=dict(color="white", size=12), borderpad=4))
    leaf = {"GG": _("zwei {varieties}").format(varieties=variety_word(v, 2)),
            "GN": _("erst {variety},<br>dann keine").format(variety=name),
            "NG": _("erst keine,<br>dann {variety}").format(variety=name), "NN": no}
    for ab, y in pos2.items():
        num, den = second[ab]
        p = first[ab[0]] * Fraction(num, den)
        text = f"<b>{leaf[ab]}</b><br>{_frac(p)} ≈ {number(p, 4)}"
        notes.append(dict(x=x2 + 0.03, y=y, text=text, showarrow=False, xanchor="left", align="left",
                          font=dict(size=13, color=HIGHLIGHT if ab == "NN" else "#222")))
    notes.append(dict(x=0, y=0.5, text=_("<b>Start</b>"), showarrow=False, bgcolor="#444",
                      font=dict(color="white"), borderpad=4))
    for x, text in ((x1 / 2, _("1. Karte")), ((x1 + x2) / 2, _("2. Karte"))):
        notes.append(dict(x=x, y=1.05, text=f"<i>{text}</i>", showarrow=False,
                          font=dict(color="#555", size=13)))
    fig = go.Figure(lines, layout=dict(annotations=notes))
    none = first["N"] * Fraction(*second["NN"])
    return charts.chart_layout(
        fig, _("Baumdiagramm: zwei Karten aufdecken<br>"
               "<sup>Mindestens eine {variety} = 1 − P(keine {variety}) = 1 − {none} = "
               "{some} ≈ {value}</sup>").format(variety=name, none=_frac(none), some=_frac(1 - none),
                                                value=number(1 - none, 4)), "", "", height=430,
        xaxis=dict(visible=False, range=[-0.2, 2.75]), yaxis=dict(visible=False, range=[-0.05, 1.1]),
    )


@guard()
@spoken
def reveal() -> go.Figure:
    """P(at least one card of each variety among the 2 revealed cards)."""
    return charts.reveal_chart(PILE, k=F.aufdecken.value.numerator)


@guard()
@spoken
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
    return _(
        "Unbekannte Karten N = {n}, davon {varieties}: K = {hits}, aufgedeckt: k = {k}.<br>"
        "P(mindestens eine {variety}) = 1 − C({misses}, {k}) / C({n}, {k}) = "
        "1 − {none}/{all} = <b>{p} ≈ {percent}</b>"
    ).format(n=n, varieties=variety_word(v, 2), hits=hits, k=k, variety=variety_word(v), misses=n - hits,
             none=comb(n - hits, k), all=comb(n, k), p=number(p, 4), percent=percent(p, 1))


class Calculator:
    """Pick a variety, how many cards are turned up, how many of that variety are
    already out of the game → the exact chance and the distribution chart."""

    def __init__(self, variety: str = "Gartenbohne", k: int = 2, seen: int = 0,
                 lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        row = {"label_width": "260px", "layout": {"width": "520px"}}
        with speaking(tr):
            options = variety_options(deck_counts(RULESET, PLAYERS))
        self.variety = control(w.Dropdown, options=options,
                               value=find_variety(variety).de, description=tr.gettext("Sorte:"), **row)
        self.k = control(w.IntSlider, value=k, min=1, max=10, description=tr.gettext("Wie viele Karten aufdecken?"),
                         continuous_update=False, **row)
        self.seen = control(w.IntSlider, value=seen, min=0, max=find_variety(variety).count,
                            description=tr.gettext("Davon schon gesehen (abgelegt):"), continuous_update=False, **row)
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "420px"})
        self.widget = w.VBox([self.variety, self.k, self.seen, self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, self.k, self.seen):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        with speaking(self.tr):
            self._update()

    def _update(self) -> None:
        v = find_variety(self.variety.value)
        self.seen.max = deck_counts(RULESET, PLAYERS)[v.key]
        pile = Pile(RULESET, PLAYERS, seen={v.key: self.seen.value} if self.seen.value else None)
        self.result.value = box_html("info", at_least_one_text(v.de, self.k.value, self.seen.value))
        show_figure(headroom(charts.count_distribution_chart(v, self.k.value, pile)), self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator(lang: str | Translator | None = None) -> Calculator:
    return Calculator(lang=lang)


# --------------------------------------------------------------------------- exercises


def questions(lang: str | Translator | None = None) -> list[Any]:
    """The exercises, worded in the reader's language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _questions(tr)


def _questions(tr: Translator) -> list[Any]:
    f = F
    tol = Fraction(1, 1000)
    return [
        NumberQuestion(
            _("Zwei Karten werden aufgedeckt. Wie wahrscheinlich ist <b>keine</b> Gartenbohne dabei?"),
            answer=f.p_kein_garten_zwei.value, tolerance=tol, probability=True,
            hint=_("Erste Karte keine Gartenbohne: {f.n_nicht_garten}/{f.karten}. Danach sind "
                   "noch {f.n_nicht_garten_2} von {f.n_rest} Karten keine Gartenbohne.").format(f=f),
            mistakes={Fraction(f.n_nicht_garten.value, f.karten.value) ** 2: _(
                "Du hast zweimal mit 98/104 gerechnet. Die erste Karte ist aber weg – "
                "bei der zweiten sind es nur noch 103 Karten.")},
            solution=_("{f.n_nicht_garten}/{f.karten} · {f.n_nicht_garten_2}/{f.n_rest} = "
                       "C({f.n_nicht_garten}, 2)/C({f.karten}, 2) = {f.c_nicht_garten_2:frac}/"
                       "{f.c_alle_2:frac} ≈ {f.p_kein_garten_zwei:dec4}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie wahrscheinlich ist <b>mindestens eine</b> Gartenbohne unter den zwei "
              "aufgedeckten Karten?"),
            answer=f.p_garten_zwei.value, tolerance=tol, probability=True,
            hint=_("Gegenereignis: 1 minus die Wahrscheinlichkeit für keine Gartenbohne."),
            mistakes={f.falsch_addiert.value: _(
                "{f.n_falsch_zaehler}/{f.karten} ≈ {f.falsch_addiert:dec4} ist etwas zu groß: Beim "
                "Addieren zählst du den Fall „beide Karten sind Gartenbohnen“ doppelt. "
                "Rechne lieber über das Gegenereignis.").format(f=f)},
            solution=_("1 − C({f.n_nicht_garten}, 2)/C({f.karten}, 2) = 1 − "
                       "{f.c_nicht_garten_2:frac}/{f.c_alle_2:frac} = "
                       "{f.p_garten_zwei:frac} ≈ {f.p_garten_zwei:dec4} ≈ {f.p_garten_zwei:pct2}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Und wie wahrscheinlich ist mindestens eine <b>Blaue Bohne</b> unter den zwei Karten?"),
            answer=f.p_blau_zwei.value, tolerance=tol, probability=True,
            hint=_("Es gibt {f.n_blau} Blaue Bohnen, also {f.n_nicht_blau} andere Karten.").format(f=f),
            mistakes={2 * Fraction(f.n_blau.value, f.karten.value): _(
                "Addiert: Der Fall „zwei Blaue Bohnen“ ist doppelt gezählt. Nimm das Gegenereignis.")},
            solution=_("1 − C({f.n_nicht_blau}, 2)/C({f.karten}, 2) = 1 − "
                       "{f.c_nicht_blau_2:frac}/{f.c_alle_2:frac} = {f.p_blau_zwei:frac} "
                       "≈ {f.p_blau_zwei:dec4}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("In Phase 4 ziehst du 3 Karten. Wie wahrscheinlich ist <b>genau eine</b> Blaue "
              "Bohne dabei?"),
            answer=f.p_genau_ein_blau_drei.value, tolerance=tol, probability=True,
            hint=_("Hypergeometrisch: C(K, j) · C(N − K, k − j) / C(N, k) mit N = 104, K = 20, "
                   "k = 3, j = 1."),
            solution=_("C({f.n_blau}, 1) · C({f.n_nicht_blau}, 2) / C({f.karten}, 3) = "
                       "{f.n_blau} · {f.c_nicht_blau_2:frac} / {f.c_alle_3:frac} ≈ "
                       "{f.p_genau_ein_blau_drei:dec4}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Auf dem Ablagestapel liegen schon {f.n_garten_gesehen} Gartenbohnen. Alle anderen "
              "Karten sind unbekannt. Wie wahrscheinlich ist jetzt mindestens eine Gartenbohne "
              "unter den zwei aufgedeckten Karten?").format(f=f),
            answer=f.p_garten_zwei_gesehen.value, tolerance=tol, probability=True,
            hint=_("Unbekannt sind noch {f.n_unbekannt} Karten, davon {f.n_garten_rest} Gartenbohnen.").format(f=f),
            mistakes={f.p_garten_zwei.value: _(
                "Das ist der Wert für den vollen Stapel. Die abgelegten Karten kommen nicht mehr – "
                "rechne mit den Karten, die noch unbekannt sind.")},
            solution=_("1 − C({f.n_nicht_garten}, 2)/C({f.n_unbekannt}, 2) = "
                       "{f.p_garten_zwei_gesehen:frac} ≈ {f.p_garten_zwei_gesehen:dec4} – "
                       "gesehene Karten ändern die Wahrscheinlichkeit.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("Warum ist 6/104 + 6/104 = {f.n_falsch_zaehler}/{f.karten} <b>nicht</b> die "
              "Wahrscheinlichkeit für mindestens eine Gartenbohne unter zwei Karten?").format(f=f),
            [
                _("Weil die zweite Karte nie eine Gartenbohne sein kann."),
                _("Weil der Fall „beide sind Gartenbohnen“ doppelt gezählt wird."),
                _("Weil man Wahrscheinlichkeiten nie addieren darf."),
            ],
            1,
            explanations=[
                _("Doch, das kann sie – es gibt 6 Gartenbohnen."),
                _("Dieser Fall hat die Wahrscheinlichkeit {f.p_beide_garten:frac} ≈ "
                  "{f.p_beide_garten:dec4} – genau um so viel ist die Summe zu groß.").format(f=f),
                _("Addieren ist erlaubt, wenn die Ereignisse nicht zugleich eintreten können "
                  "(Lektion 1). Hier können sie es."),
            ],
            solution=_("{f.n_falsch_zaehler}/{f.karten} − {f.p_garten_zwei:frac} = "
                       "{f.p_beide_garten:frac} = P(beide Gartenbohnen).").format(f=f),
            lang=tr,
        ),
    ]


@guard()
def exercises(lang: str | Translator | None = None):
    """The exercises of lesson 2 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions(lang))
