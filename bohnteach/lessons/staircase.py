"""Lesson 1 – Die Bohnentreppe: absolute and relative frequency, Laplace probability."""
from __future__ import annotations

import random
from functools import partial
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from bohnteach.render import charts
from bohnteach.game.beans import find_variety
from bohnteach.widgets.questions import (
    ChoiceQuestion,
    NumberQuestion,
    exercise_list,
)
from bohnteach.i18n import Translator, _, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import integer, number, percent
from bohnteach.widgets.failure import guard
from bohnteach.widgets.classroom import classroom as classroom_panel
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import deck_counts
from bohnteach.lessons import end, show_figure, spoken, start as lesson_start, swatch, table_html

start = partial(lesson_start, "01_Bohnentreppe")
"""The teacher banner of this lesson (first code cell)."""

classroom = partial(classroom_panel, "01_Bohnentreppe")
"""The class panel, „Klassenraum“ (second code cell): a class's estimates and pooled draws."""

F = facts_for("01_Bohnentreppe")

__all__ = ["classroom", "end", "exercises", "experiment", "frequency_table", "staircase", "start"]


@guard()
@spoken
def staircase() -> go.Figure:
    """The deck of the base game as a staircase (charts.deck_chart)."""
    return charts.deck_chart(RULESET, PLAYERS)


@guard()
@spoken
def frequency_table():
    """Absolute and relative frequency of every variety, as a table."""
    from bohnteach.widgets.figure import HTML

    counts = deck_counts(RULESET, PLAYERS)
    total = sum(counts.values())
    rows = []
    for key, n in counts.items():
        v = find_variety(key)
        p = Fraction(n, total)
        rows.append((swatch(v.colour) + variety_word(v, 2), n, f"{n}/{total}",
                     f"{p.numerator}/{p.denominator}", _dec(p), _pct(p)))
    return HTML(table_html(
        [_("Sorte"), _("Karten (absolut)"), _("Anteil"), _("gekürzt"), _("als Dezimalzahl"), _("in Prozent")],
        rows, numeric=(1, 2, 3, 4, 5), raw=(0,),
        footer=(_("zusammen"), total, f"{total}/{total}", "1", "1", percent(1, 0)),
        caption=_("Relative Häufigkeit = Karten der Sorte geteilt durch alle Karten"),
    ))


def _dec(p: Fraction) -> str:
    return number(p, 4)


def _pct(p: Fraction) -> str:
    return percent(p, 1)


# --------------------------------------------------------------------------- experiment


def draw_counts(draws: int, seed: int | None = None) -> dict[str, int]:
    """Look at the top card of a freshly shuffled deck ``draws`` times; count the varieties."""
    counts = deck_counts(RULESET, PLAYERS)
    rng = random.Random(seed)
    keys = list(counts)
    seen = dict.fromkeys(keys, 0)
    for key in rng.choices(keys, weights=list(counts.values()), k=draws):
        seen[key] += 1
    return seen


def frequency_figure(seen: dict[str, int]) -> go.Figure:
    """Relative frequencies of a drawing experiment next to the Laplace probabilities."""
    counts = deck_counts(RULESET, PLAYERS)
    total, draws = sum(counts.values()), sum(seen.values())
    vs = [find_variety(k) for k in counts]
    exact = [Fraction(counts[v.key], total) for v in vs]
    rel = [seen[v.key] / draws for v in vs]
    names = [variety_word(v) for v in vs]
    of = _("{variety}: {seen} von {draws} = {share}")
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=names, y=[float(p) for p in exact], name=_("Laplace: Karten/104"),
        marker=dict(color=[v.colour for v in vs], line=dict(color="#222", width=1)),
        hovertext=[f"{name}: {counts[v.key]}/{total} = {_pct(p)}" for name, v, p in zip(names, vs, exact)],
        hoverinfo="text",
    ))
    fig.add_trace(go.Bar(
        x=names, y=rel, name=_("gezogen: relative Häufigkeit ({draws}×)").format(draws=integer(draws)),
        marker=dict(color="#BDBDBD", pattern_shape="/", line=dict(color="#222", width=1)),
        hovertext=[of.format(variety=name, seen=seen[v.key], draws=integer(draws),
                             share=_pct(Fraction(seen[v.key], draws)))
                   for name, v in zip(names, vs)],
        hoverinfo="text",
    ))
    worst = max(abs(r - float(p)) for r, p in zip(rel, exact))
    return charts.chart_layout(
        fig, _("{draws}-mal die oberste Karte angesehen – größte Abweichung von Laplace: "
               "{points} Prozentpunkte").format(
            draws=integer(draws), points=number(Fraction(worst).limit_denominator(10**6) * 100, 1, strip=False)),
        _("Bohnensorte"), _("Anteil"), barmode="group", yaxis=dict(tickformat=".0%"),
    )


class DrawExperiment:
    """Mix, look at the top card, put it back – many times; compare with Laplace."""

    CHOICES = (10, 100, 1_000, 10_000)
    """How many draws the dropdown offers (shown as „10-mal“, „1.000-mal“ in the reader's words)."""

    def __init__(self, draws: int = 100, seed: int | None = None, lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        self._rng = random.Random(seed)
        times = tr.gettext("{n}-mal")
        options = [(times.format(n=integer(n, tr)), n) for n in self.CHOICES]
        self.draws = control(w.Dropdown, options=options, value=draws,
                             description=tr.gettext("Wie oft ziehen?"),
                             label_width="initial", layout={"width": "240px"})
        self.button = control(w.Button, description=tr.gettext("Mischen und ziehen"), button_style="primary",
                              layout={"width": "auto"})
        self.output = control(w.Output, layout={"min_height": "420px"})
        self.error = html_part()
        self.widget = w.VBox([w.HBox([self.draws, self.button], layout=layout()), self.error, self.output],
                             layout=layout())
        run = guard(self.error)(self.run)
        self.button.on_click(lambda _b: run())
        run()

    def run(self) -> dict[str, int]:
        self.error.value = ""
        seen = draw_counts(self.draws.value, self._rng.getrandbits(32))
        with speaking(self.tr):
            show_figure(frequency_figure(seen), self.output)
        self.last = seen
        return seen

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def experiment(seed: int | None = 1, lang: str | Translator | None = None) -> DrawExperiment:
    """The drawing experiment (seeded first run; every click draws anew)."""
    return DrawExperiment(seed=seed, lang=lang)


# --------------------------------------------------------------------------- exercises


def questions(lang: str | Translator | None = None) -> list[Any]:
    """The exercises, worded in the reader's language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _questions(tr)


def _questions(tr: Translator) -> list[Any]:
    f = F
    blue, chili, stink, red = (variety_word(find_variety(k)) for k in ("blue", "chili", "stink", "red"))
    return [
        NumberQuestion(
            _("Wie viele Karten hat das Grundspiel? Zähle die Bohnentreppe zusammen."),
            answer=f.karten.value,
            hint=_("{f.sorten:int} Stufen, von {f.n_blau:int} bis {f.n_garten:int} – "
                   "im Mittel {f.mittel:int} Karten pro Sorte.").format(f=f),
            solution=_("{f.n_blau} + {f.n_feuer} + {f.n_stink} + {f.n_brech} + {f.n_soja} + "
                       "{f.n_augen} + {f.n_rot} + {f.n_garten} = {f.karten}. Schneller: "
                       "{f.sorten} Sorten, im Mittel ({f.n_blau} + {f.n_garten})/2 = {f.mittel} "
                       "Karten, also {f.sorten} · {f.mittel} = {f.karten}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Der Stapel ist gut gemischt. Wie wahrscheinlich ist es, dass die oberste Karte "
              "eine <b>Gartenbohne</b> ist?"),
            answer=f.p_garten.value, tolerance=Fraction(1, 1000), probability=True,
            hint=_("Laplace: günstige Karten geteilt durch alle Karten."),
            mistakes={f.p_falsch_sorten.value: _(
                "{f.p_falsch_sorten:frac} wäre richtig, wenn alle {f.sorten} Sorten gleich "
                "häufig wären. Gleich wahrscheinlich ist aber jede <i>Karte</i>, nicht jede "
                "Sorte – zähle die Gartenbohnen-Karten.").format(f=f)},
            solution=_("{f.n_garten} günstige von {f.karten} möglichen Karten: "
                       "{f.n_garten}/{f.karten} = {f.p_garten:frac} ≈ {f.p_garten:dec4} "
                       "≈ {f.p_garten:pct1}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie viel Mal so wahrscheinlich wie eine Gartenbohne ist eine <b>Blaue Bohne</b> "
              "als oberste Karte?"),
            answer=f.verhaeltnis_blau_garten.value, tolerance=Fraction(1, 100),
            hint=_("Teile die beiden Wahrscheinlichkeiten – die 104 kürzt sich weg."),
            solution=_("({f.n_blau}/{f.karten}) : ({f.n_garten}/{f.karten}) = "
                       "{f.n_blau}/{f.n_garten} = {f.verhaeltnis_blau_garten:frac} ≈ "
                       "{f.verhaeltnis_blau_garten:dec2}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie wahrscheinlich ist es, dass die oberste Karte eine <b>Blaue</b> oder eine "
              "<b>Rote Bohne</b> ist?"),
            answer=f.p_blau_oder_rot.value, tolerance=Fraction(1, 1000), probability=True,
            hint=_("Beide Sorten zusammen sind die günstigen Karten. Oben liegt nur eine Karte, "
                   "also können nicht beide zugleich eintreten."),
            mistakes={f.p_blau.value * Fraction(f.n_rot.value, f.karten.value): _(
                "Du hast multipliziert. „Oder“ bei Ereignissen, die nicht zusammen eintreten "
                "können, heißt: addieren.")},
            solution=_("({f.n_blau} + {f.n_rot})/{f.karten} = {f.n_blau_rot}/{f.karten} = "
                       "{f.p_blau_oder_rot:frac} ≈ {f.p_blau_oder_rot:dec4}.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("Welche Sorte ist <b>genau dreimal</b> so häufig wie die Gartenbohne?"),
            [blue, chili, stink, red], chili,
            explanations={
                blue: _("Fast: {f.n_blau}/{f.n_garten} ≈ {f.verhaeltnis_blau_garten:dec2}, "
                        "nicht genau 3.").format(f=f),
                chili: _("{f.n_feuer} = 3 · {f.n_garten}.").format(f=f),
                stink: _("{f.n_stink}/{f.n_garten} ist keine ganze Zahl.").format(f=f),
                red: _("{f.n_rot}/{f.n_garten} ist nicht einmal doppelt so viel.").format(f=f),
            },
            solution=_("Feuerbohne: {f.n_feuer} Karten = 3 · {f.n_garten} Gartenbohnen.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie wahrscheinlich gehört die oberste Karte zu einer der <b>vier häufigsten</b> "
              "Sorten?"),
            answer=f.p_top4.value, tolerance=Fraction(1, 1000), probability=True,
            hint=_("Zähle die Karten der vier höchsten Stufen zusammen."),
            solution=_("({f.n_blau} + {f.n_feuer} + {f.n_stink} + {f.n_brech})/{f.karten} = "
                       "{f.n_top4}/{f.karten} = {f.p_top4:frac} ≈ {f.p_top4:dec4} – "
                       "die obere Hälfte der Sorten hat fast zwei Drittel der Karten.").format(f=f),
            lang=tr,
        ),
    ]


@guard()
def exercises(lang: str | Translator | None = None):
    """The exercises of lesson 1 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions(lang))
