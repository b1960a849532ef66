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
from bohnteach.i18n import Translator, _, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import number, percent
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
from bohnteach.lessons import end, show_figure, spoken, start as lesson_start, swatch, table_html, variety_options

start = partial(lesson_start, "03_Was_bringt_ein_Feld")
"""The teacher banner of this lesson (first code cell)."""

F = facts_for("03_Was_bringt_ein_Feld")

__all__ = ["bohnometer", "calculator", "efficiency", "end", "exercises", "expectation", "per_card",
           "start"]


@guard()
@spoken
def bohnometer() -> go.Figure:
    """Bohnometer curves of three varieties."""
    return charts.bohnometer_chart(["Stinkbohne", "Blaue Bohne", "Gartenbohne"], RULESET)


@guard()
@spoken
def per_card() -> go.Figure:
    """Taler per card by field size (stars where a new step is reached)."""
    return charts.coins_per_card_chart(["Stinkbohne", "Blaue Bohne", "Rote Bohne", "Gartenbohne"],
                                       RULESET)


@guard()
@spoken
def efficiency():
    """For every variety: its steps, the best field size and Taler per card there."""
    from bohnteach.widgets.figure import HTML

    rows = []
    for key in deck_counts(RULESET, PLAYERS):
        v = find_variety(key)
        meter = meter_of(v, RULESET)
        steps = " · ".join(f"{need} → {coins}" for coins, need in enumerate(meter, 1) if need)
        best = best_field_size(v, RULESET)
        rows.append((swatch(v.colour) + variety_word(v), v.count, steps, best,
                     harvest_value(v, best),
                     number(coins_per_card(v, best, RULESET), 2, strip=False)))
    return HTML(table_html(
        [_("Sorte"), _("Karten im Spiel"), _("Bohnometer: Karten → Taler"), _("beste Feldgröße"),
         _("Taler dort"), _("Taler pro Karte")],
        rows, numeric=(1, 3, 4, 5), raw=(0,),
        caption=_("Wo lohnt sich die Ernte am meisten? (kleinste Feldgröße mit den meisten Talern pro Karte)"),
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
@spoken
def expectation(variety: str = "Stinkbohne", field: int = 4, k: int = 2):
    """The expected-value table of the lesson's example."""
    from bohnteach.widgets.figure import HTML

    v = find_variety(variety)
    rows, total = expectation_rows(variety, field, k)
    shown = [(j, f"{p.numerator}/{p.denominator}", number(p, 4), n, c,
              number(pc, 4)) for j, p, n, c, pc in rows]
    return HTML(table_html(
        [_("{varieties} unter {k} Karten").format(varieties=variety_word(v, 2), k=k), _("Wahrscheinlichkeit"),
         "≈", _("Karten im Feld"), _("Taler"), _("Wahrscheinlichkeit · Taler")],
        shown, numeric=(0, 1, 2, 3, 4, 5),
        footer=(_("Erwartungswert"), "", "", "", "", number(total, 4)),
        caption=_("Erwartete Taler: {field} {varieties} im Feld, {k} Karten abwarten").format(
            field=field, varieties=variety_word(v, 2), k=k),
    ))


# --------------------------------------------------------------------------- calculator


class WaitCalculator:
    """Harvest now or wait for the next k cards? Expected Taler for any variety."""

    def __init__(self, variety: str = "Stinkbohne", field: int = 4, k: int = 2,
                 lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        row = {"label_width": "200px", "layout": {"width": "460px"}}
        with speaking(tr):
            options = variety_options(deck_counts(RULESET, PLAYERS))
        self.variety = control(w.Dropdown, options=options,
                               value=find_variety(variety).de, description=tr.gettext("Sorte:"), **row)
        self.field = control(w.IntSlider, value=field, min=1, max=find_variety(variety).count,
                             description=tr.gettext("Karten im Feld:"), continuous_update=False, **row)
        self.k = control(w.IntSlider, value=k, min=1, max=8, description=tr.gettext("Wie viele Karten abwarten?"),
                         continuous_update=False, **row)
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "380px"})
        self.widget = w.VBox([self.variety, self.field, self.k, self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, self.field, self.k):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        with speaking(self.tr):
            self._update()

    def _update(self) -> None:
        v = find_variety(self.variety.value)
        self.field.max = v.count
        field, k = self.field.value, self.k.value
        rows, total = expectation_rows(v.de, field, k)
        now = harvest_value(v, field)
        verdict = (_("Abwarten lohnt sich im Mittel.") if total > now else
                   _("Abwarten bringt im Mittel nichts mehr."))
        self.result.value = box_html("info", _(
            "Jetzt ernten: <b>{now} Taler</b>. {k} Karten abwarten: im Mittel "
            "<b>{mean} Taler</b> (+{gain}). {verdict}"
        ).format(now=now, k=k, mean=number(total, 2), gain=number(total - now, 2), verdict=verdict))
        coins: dict[int, Fraction] = {}
        for _j, p, _n, c, _pc in rows:
            coins[c] = coins.get(c, Fraction(0)) + p
        fig = go.Figure(go.Bar(
            x=[charts.coins_text(c) for c in coins], y=[float(p) for p in coins.values()],
            text=[percent(p, 1) for p in coins.values()], textposition="outside",
            marker=dict(color=v.colour, line=dict(color="#222", width=1)),
            hovertext=[f"{charts.coins_text(c)}: {percent(p, 1)}" for c, p in coins.items()],
            hoverinfo="text",
        ))
        charts.chart_layout(
            fig, _("Wie viele Taler nach {k} Karten? ({cards} im Feld)").format(
                k=k, cards=charts.cards_text(v, field)),
            _("Taler beim Ernten"), _("Wahrscheinlichkeit"), height=360,
            yaxis=dict(tickformat=".0%", range=[0, 1.12]),
        )
        show_figure(fig, self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator(lang: str | Translator | None = None) -> WaitCalculator:
    return WaitCalculator(lang=lang)


# --------------------------------------------------------------------------- exercises


def questions(lang: str | Translator | None = None) -> list[Any]:
    """The exercises, worded in the reader's language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _questions(tr)


def _questions(tr: Translator) -> list[Any]:
    f = F
    coins, per_card = _("Taler"), _("Taler pro Karte")
    sizes = [_("{n} Karten").format(n=n) for n in (f.blau_1, f.blau_2, f.blau_3, f.blau_4)]
    return [
        NumberQuestion(
            _("Wie viele Taler bringt ein Feld mit {f.blau_sieben_karten} Blauen Bohnen?").format(f=f),
            answer=f.blau_sieben.value, unit=coins,
            hint=_("Blaue Bohne: {f.blau_1} → 1, {f.blau_2} → 2, {f.blau_3} → 3, {f.blau_4} → 4 Taler.").format(f=f),
            mistakes={3: _("3 Taler gibt es erst ab {f.blau_3} Blauen Bohnen.").format(f=f)},
            solution=_("{f.blau_sieben_karten} Karten erreichen die Stufe „{f.blau_2} Karten → 2 Taler“, "
                       "die nächste Stufe ({f.blau_3}) nicht: {f.blau_sieben} Taler.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie viele Taler bringt ein Feld mit {f.stink_sechs} Stinkbohnen?").format(f=f),
            answer=f.stink_sechs_wert.value, unit=coins,
            hint=_("Stinkbohne: {f.stink_1} → 1, {f.stink_2} → 2, {f.stink_3} → 3, {f.stink_4} → 4 Taler.").format(f=f),
            solution=_("{f.stink_sechs} liegt zwischen den Stufen {f.stink_2} (2 Taler) und "
                       "{f.stink_3} (3 Taler): {f.stink_sechs_wert} Taler – die 6. Karte bringt nichts extra.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Wie viele Taler <b>pro Karte</b> bringt ein Feld mit {f.stink_4} Stinkbohnen?").format(f=f),
            answer=f.stink_acht_pro_karte.value, tolerance=Fraction(1, 100), unit=per_card,
            hint=_("Taler beim Ernten geteilt durch die Karten im Feld."),
            solution=_("4 Taler / {f.stink_4} Karten = {f.stink_acht_pro_karte:dec2} Taler pro Karte.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("Bei welcher Feldgröße bringen Blaue Bohnen die meisten Taler <b>pro Karte</b>?"),
            sizes, sizes[3],
            explanations=[
                _("1/4 = 0,25 Taler pro Karte – das ist der schlechteste Wert."),
                _("2/6 ≈ 0,33 Taler pro Karte."),
                _("3/8 = 0,375 Taler pro Karte – gut, aber nicht am besten."),
                _("4/10 = {f.blau_zehn_pro_karte:fixed2} Taler pro Karte.").format(f=f),
            ],
            solution=_("1/4, 2/6, 3/8, 4/10 = 0,25; 0,33; 0,375; {f.blau_zehn_pro_karte:fixed2} – "
                       "bei {f.blau_4} Karten ist der Wert pro Karte am größten.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Du hast {f.stink_feld} Stinkbohnen im Feld; {f.n_stink_rest} Stinkbohnen stecken "
              "noch unter den {f.n_rest} unbekannten Karten. Wie viele Stinkbohnen erwartest du "
              "unter den {f.aufdecken} aufgedeckten Karten?").format(f=f),
            answer=f.e_stink_zwei.value, tolerance=Fraction(1, 100),
            hint=_("Jede der beiden Karten ist mit Wahrscheinlichkeit 12/100 eine Stinkbohne."),
            solution=_("2 · {f.n_stink_rest}/{f.n_rest} = {f.e_stink_zwei:dec2}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Gleiche Lage: Jetzt geerntet bringen die {f.stink_feld} Stinkbohnen "
              "{f.stink_feld_wert} Taler. Du wartest die {f.aufdecken} aufgedeckten Karten ab "
              "und pflanzt jede Stinkbohne darunter dazu. Wie viele Taler bringt das Feld "
              "<b>im Mittel</b>?").format(f=f),
            answer=f.erwartung_warten.value, tolerance=Fraction(1, 100), unit=coins,
            hint=_("Erwartungswert = Σ Wahrscheinlichkeit · Taler. Mit 0, 1 oder 2 Stinkbohnen "
                   "hat das Feld 4, 5 oder 6 Karten."),
            mistakes={
                f.e_stink_zwei.value: _("Das ist die erwartete <i>Anzahl</i> Stinkbohnen – gefragt sind Taler."),
                2: _("2 Taler gäbe es nur, wenn sicher eine Stinkbohne käme."),
                f.stink_feld_wert.value: _("Das ist der Wert ohne Warten."),
            },
            solution=_("{f.p_null:frac} · 1 + {f.p_eins:frac} · 2 + {f.p_zwei:frac} · 2 = "
                       "{f.erwartung_warten:frac} ≈ {f.erwartung_warten:dec2} Taler, also im Mittel "
                       "{f.gewinn_warten:dec2} Taler mehr als sofort.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Ein Feld hat schon {f.stink_4} Stinkbohnen. Wie viele Taler <b>mehr</b> bringt "
              "die {f.stink_neun_karten}. Stinkbohne?").format(f=f),
            answer=f.stink_neunte.value, unit=coins,
            hint=_("Ab {f.stink_4} Stinkbohnen gibt es 4 Taler – eine höhere Stufe gibt es nicht.").format(f=f),
            solution=_("0 Taler: {f.stink_4} und {f.stink_neun_karten} Stinkbohnen bringen beide "
                       "4 Taler. Wer so ein Feld hat, sollte ernten.").format(f=f),
            lang=tr,
        ),
    ]


@guard()
def exercises(lang: str | Translator | None = None):
    """The exercises of lesson 3 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions(lang))
