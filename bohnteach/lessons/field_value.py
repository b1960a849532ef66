"""Lesson 3 – Was bringt ein Feld? The Bohnometer, Taler per card, expected value."""
from __future__ import annotations

from functools import partial
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from bohnteach.render import charts
from bohnteach.game.beans import find_variety, harvest_value, meter_value
from bohnteach.widgets.questions import (
    ChoiceQuestion,
    NumberQuestion,
    box_html,
    exercise_list,
)
from bohnteach.render.words import de_number, de_percent
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import (
    Pile,
    best_field_size,
    coins_per_card,
    count_distribution,
    deck_counts,
    meter_of,
)
from bohnteach.lessons import end, show_figure, start as lesson_start, swatch, table_html, variety_options

start = partial(lesson_start, "03_Was_bringt_ein_Feld")
"""The teacher banner of this lesson (first code cell)."""

F = facts_for("03_Was_bringt_ein_Feld")

__all__ = ["bohnometer", "calculator", "efficiency", "end", "exercises", "expectation", "per_card",
           "start"]


@guard()
def bohnometer() -> go.Figure:
    """Bohnometer curves of three varieties."""
    return charts.bohnometer_chart(["Stinkbohne", "Blaue Bohne", "Gartenbohne"], RULESET)


@guard()
def per_card() -> go.Figure:
    """Taler per card by field size (stars where a new step is reached)."""
    return charts.coins_per_card_chart(["Stinkbohne", "Blaue Bohne", "Rote Bohne", "Gartenbohne"],
                                       RULESET)


@guard()
def efficiency():
    """For every variety: its steps, the best field size and Taler per card there."""
    from bohnteach.widgets.figure import HTML

    rows = []
    for key in deck_counts(RULESET, PLAYERS):
        v = find_variety(key)
        meter = meter_of(v, RULESET)
        steps = " · ".join(f"{need} → {coins}" for coins, need in enumerate(meter, 1) if need)
        best = best_field_size(v, RULESET)
        rows.append((swatch(v.colour) + v.de, v.count, steps, best,
                     harvest_value(v, best),
                     de_number(coins_per_card(v, best, RULESET), 2, strip=False)))
    return HTML(table_html(
        ["Sorte", "Karten im Spiel", "Bohnometer: Karten → Taler", "beste Feldgröße",
         "Taler dort", "Taler pro Karte"],
        rows, numeric=(1, 3, 4, 5), raw=(0,),
        caption="Wo lohnt sich die Ernte am meisten? (kleinste Feldgröße mit den meisten Talern pro Karte)",
    ))


def expectation_rows(variety: str, field: int, k: int) -> tuple[list[tuple], Fraction]:
    """(rows j, P(j), field size, Taler, P·Taler) and the expected value, when every
    ``variety`` card among the next ``k`` cards joins a field of ``field`` cards (the
    field's cards are known, so they are not in the unknown pile)."""
    v = find_variety(variety)
    meter = meter_of(v, RULESET)
    dist = count_distribution(v, k, Pile(RULESET, PLAYERS, seen={v.key: field}))
    rows, total = [], Fraction(0)
    for j, p in dist.items():
        coins = meter_value(meter, field + j)
        total += p * coins
        rows.append((j, p, field + j, coins, p * coins))
    return rows, total


@guard()
def expectation(variety: str = "Stinkbohne", field: int = 4, k: int = 2):
    """The expected-value table of the lesson's example."""
    from bohnteach.widgets.figure import HTML

    v = find_variety(variety)
    rows, total = expectation_rows(variety, field, k)
    shown = [(j, f"{p.numerator}/{p.denominator}", de_number(p, 4), n, c,
              de_number(pc, 4)) for j, p, n, c, pc in rows]
    return HTML(table_html(
        [f"{v.de_plural} unter {k} Karten", "Wahrscheinlichkeit", "≈", "Karten im Feld", "Taler",
         "Wahrscheinlichkeit · Taler"],
        shown, numeric=(0, 1, 2, 3, 4, 5),
        footer=("Erwartungswert", "", "", "", "", f"{de_number(total, 4)}"),
        caption=f"Erwartete Taler: {field} {v.de_plural} im Feld, "
                f"{k} Karten abwarten",
    ))


# --------------------------------------------------------------------------- calculator


class WaitCalculator:
    """Harvest now or wait for the next k cards? Expected Taler for any variety."""

    def __init__(self, variety: str = "Stinkbohne", field: int = 4, k: int = 2):
        import ipywidgets as w

        row = {"label_width": "200px", "layout": {"width": "460px"}}
        self.variety = control(w.Dropdown, options=variety_options(deck_counts(RULESET, PLAYERS)),
                               value=find_variety(variety).de, description="Sorte:", **row)
        self.field = control(w.IntSlider, value=field, min=1, max=find_variety(variety).count,
                             description="Karten im Feld:", continuous_update=False, **row)
        self.k = control(w.IntSlider, value=k, min=1, max=8, description="Wie viele Karten abwarten?",
                         continuous_update=False, **row)
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "380px"})
        self.widget = w.VBox([self.variety, self.field, self.k, self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, self.field, self.k):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        v = find_variety(self.variety.value)
        self.field.max = v.count
        field, k = self.field.value, self.k.value
        rows, total = expectation_rows(v.de, field, k)
        now = harvest_value(v, field)
        verdict = ("Abwarten lohnt sich im Mittel." if total > now else
                   "Abwarten bringt im Mittel nichts mehr.")
        self.result.value = box_html(
            "info",
            f"Jetzt ernten: <b>{now} Taler</b>. {k} Karten abwarten: im Mittel "
            f"<b>{de_number(total, 2)} Taler</b> (+{de_number(total - now, 2)}). {verdict}",
        )
        coins: dict[int, Fraction] = {}
        for _j, p, _n, c, _pc in rows:
            coins[c] = coins.get(c, Fraction(0)) + p
        fig = go.Figure(go.Bar(
            x=[f"{c} Taler" for c in coins], y=[float(p) for p in coins.values()],
            text=[de_percent(p, 1) for p in coins.values()], textposition="outside",
            marker=dict(color=v.colour, line=dict(color="#222", width=1)),
            hovertext=[f"{c} Taler: {de_percent(p, 1)}" for c, p in coins.items()],
            hoverinfo="text",
        ))
        charts.chart_layout(
            fig, f"Wie viele Taler nach {k} Karten? ({field} {v.label(field)} im Feld)",
            "Taler beim Ernten", "Wahrscheinlichkeit", height=360,
            yaxis=dict(tickformat=".0%", range=[0, 1.12]),
        )
        show_figure(fig, self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator() -> WaitCalculator:
    return WaitCalculator()


# --------------------------------------------------------------------------- exercises


def questions() -> list[Any]:
    f = F
    return [
        NumberQuestion(
            f"Wie viele Taler bringt ein Feld mit {f.blau_sieben_karten} Blauen Bohnen?",
            answer=f.blau_sieben.value, unit="Taler",
            hint=f"Blaue Bohne: {f.blau_1} → 1, {f.blau_2} → 2, {f.blau_3} → 3, {f.blau_4} → 4 Taler.",
            mistakes={3: f"3 Taler gibt es erst ab {f.blau_3} Blauen Bohnen."},
            solution=(f"{f.blau_sieben_karten} Karten erreichen die Stufe „{f.blau_2} Karten → 2 Taler“, "
                      f"die nächste Stufe ({f.blau_3}) nicht: {f.blau_sieben} Taler."),
        ),
        NumberQuestion(
            f"Wie viele Taler bringt ein Feld mit {f.stink_sechs} Stinkbohnen?",
            answer=f.stink_sechs_wert.value, unit="Taler",
            hint=f"Stinkbohne: {f.stink_1} → 1, {f.stink_2} → 2, {f.stink_3} → 3, {f.stink_4} → 4 Taler.",
            solution=(f"{f.stink_sechs} liegt zwischen den Stufen {f.stink_2} (2 Taler) und "
                      f"{f.stink_3} (3 Taler): {f.stink_sechs_wert} Taler – die 6. Karte bringt nichts extra."),
        ),
        NumberQuestion(
            f"Wie viele Taler <b>pro Karte</b> bringt ein Feld mit {f.stink_4} Stinkbohnen?",
            answer=f.stink_acht_pro_karte.value, tolerance=Fraction(1, 100), unit="Taler pro Karte",
            hint="Taler beim Ernten geteilt durch die Karten im Feld.",
            solution=f"4 Taler / {f.stink_4} Karten = {f.stink_acht_pro_karte.dec(2)} Taler pro Karte.",
        ),
        ChoiceQuestion(
            "Bei welcher Feldgröße bringen Blaue Bohnen die meisten Taler <b>pro Karte</b>?",
            [f"{f.blau_1} Karten", f"{f.blau_2} Karten", f"{f.blau_3} Karten", f"{f.blau_4} Karten"],
            f"{f.blau_4} Karten",
            explanations=[
                "1/4 = 0,25 Taler pro Karte – das ist der schlechteste Wert.",
                "2/6 ≈ 0,33 Taler pro Karte.",
                "3/8 = 0,375 Taler pro Karte – gut, aber nicht am besten.",
                f"4/10 = {f.blau_zehn_pro_karte.fixed(2)} Taler pro Karte.",
            ],
            solution=(f"1/4, 2/6, 3/8, 4/10 = 0,25; 0,33; 0,375; {f.blau_zehn_pro_karte.fixed(2)} – "
                      f"bei {f.blau_4} Karten ist der Wert pro Karte am größten."),
        ),
        NumberQuestion(
            f"Du hast {f.stink_feld} Stinkbohnen im Feld; {f.n_stink_rest} Stinkbohnen stecken "
            f"noch unter den {f.n_rest} unbekannten Karten. Wie viele Stinkbohnen erwartest du "
            f"unter den {f.aufdecken} aufgedeckten Karten?",
            answer=f.e_stink_zwei.value, tolerance=Fraction(1, 100),
            hint="Jede der beiden Karten ist mit Wahrscheinlichkeit 12/100 eine Stinkbohne.",
            solution=f"2 · {f.n_stink_rest}/{f.n_rest} = {f.e_stink_zwei.dec(2)}.",
        ),
        NumberQuestion(
            f"Gleiche Lage: Jetzt geerntet bringen die {f.stink_feld} Stinkbohnen "
            f"{f.stink_feld_wert} Taler. Du wartest die {f.aufdecken} aufgedeckten Karten ab "
            f"und pflanzt jede Stinkbohne darunter dazu. Wie viele Taler bringt das Feld "
            f"<b>im Mittel</b>?",
            answer=f.erwartung_warten.value, tolerance=Fraction(1, 100), unit="Taler",
            hint=("Erwartungswert = Σ Wahrscheinlichkeit · Taler. Mit 0, 1 oder 2 Stinkbohnen "
                  "hat das Feld 4, 5 oder 6 Karten."),
            mistakes={
                f.e_stink_zwei.value: "Das ist die erwartete <i>Anzahl</i> Stinkbohnen – gefragt sind Taler.",
                2: "2 Taler gäbe es nur, wenn sicher eine Stinkbohne käme.",
                f.stink_feld_wert.value: "Das ist der Wert ohne Warten.",
            },
            solution=(f"{f.p_null.frac()} · 1 + {f.p_eins.frac()} · 2 + {f.p_zwei.frac()} · 2 = "
                      f"{f.erwartung_warten.frac()} ≈ {f.erwartung_warten.dec(2)} Taler, also im Mittel "
                      f"{f.gewinn_warten.dec(2)} Taler mehr als sofort."),
        ),
        NumberQuestion(
            f"Ein Feld hat schon {f.stink_4} Stinkbohnen. Wie viele Taler <b>mehr</b> bringt "
            f"die {f.stink_neun_karten}. Stinkbohne?",
            answer=f.stink_neunte.value, unit="Taler",
            hint=f"Ab {f.stink_4} Stinkbohnen gibt es 4 Taler – eine höhere Stufe gibt es nicht.",
            solution=(f"0 Taler: {f.stink_4} und {f.stink_neun_karten} Stinkbohnen bringen beide "
                      "4 Taler. Wer so ein Feld hat, sollte ernten."),
        ),
    ]


@guard()
def exercises():
    """The exercises of lesson 3 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions())
