"""Lesson 5 – Handeln lohnt sich: marginal value, trades where both gain, gifts."""
from __future__ import annotations

import html
from functools import partial
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from bohnteach.render import charts
from bohnteach.game.beans import find_variety, harvest_value
from bohnteach.widgets.questions import (
    AnswerFormatError,
    parse_number,
    ChoiceQuestion,
    NumberQuestion,
    box_html,
    exercise_list,
)
from bohnteach.i18n import N_, Translator, _, ngettext, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.render.numbers import localized, number, percent
from bohnteach.render.words import de_number
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import deck_counts, marginal_value
from bohnteach.widgets.progress import progress_bar
from bohnteach.lessons import end, show_figure, spoken, start as lesson_start, table_html, variety_options

start = partial(lesson_start, "05_Handeln_lohnt_sich")
"""The teacher banner of this lesson (first code cell)."""

F = facts_for("05_Handeln_lohnt_sich")

NAMES = ("Anna", "Ben", "Clara", "David")
TRADE_GAMES = 30
"""Whole games in the trading experiment (two trading bots, two that never offer)."""
TRADE_BOTS = ("trader", "trader", "planter", "planter")

__all__ = ["calculator", "end", "exercises", "gift", "marginal_values", "same_card", "start",
           "swap", "trading_game"]


def same_card_figure(variety: str, fields: dict[str, int]) -> go.Figure:
    """What one more card of ``variety`` brings each person, given their field sizes."""
    v = find_variety(variety)
    gains = [marginal_value(v, n, RULESET) for n in fields.values()]
    in_field, hover = _("{name}<br>({n} im Feld)"), _("{name}: {n} → {more} {varieties}: {before} → {after} Taler")
    labels = [in_field.format(name=name, n=n) for name, n in fields.items()]
    fig = go.Figure(go.Bar(
        x=labels, y=gains, marker=dict(color=v.colour, line=dict(color="#222", width=1)),
        text=["+" + charts.coins_text(g) if g else charts.coins_text(0) for g in gains], textposition="outside",
        hovertext=[hover.format(name=name, n=n, more=n + 1, varieties=variety_word(v, 2),
                                before=harvest_value(v, n), after=harvest_value(v, n + 1))
                   for name, n in fields.items()],
        hoverinfo="text",
    ))
    return charts.chart_layout(
        fig, _("Was bringt dieselbe {variety} wem? (Taler mehr beim Ernten)").format(variety=variety_word(v)),
        _("Person ({varieties} schon im Feld)").format(varieties=variety_word(v, 2)), _("Taler mehr"),
        showlegend=False, height=380,
        yaxis=dict(dtick=1, range=[0, max(2, max(gains) + 1)]),
    )


@guard()
@spoken
def same_card() -> go.Figure:
    """The lesson's example: one Stinkbohne, four people."""
    f = F
    return same_card_figure("Stinkbohne", {
        "Anna": 0, "Ben": f.ben_stink.value.numerator, "Clara": f.clara_stink.value.numerator,
        "David": f.david_stink.value.numerator,
    })


@guard()
@spoken
def marginal_values() -> go.Figure:
    """Marginal value bars for three varieties (charts.marginal_value_chart)."""
    return charts.marginal_value_chart(["Stinkbohne", "Rote Bohne", "Gartenbohne"], RULESET)


@guard()
@spoken
def swap():
    """Anna (active) and Ben swap a Stinkbohne for a Gartenbohne: both gain."""
    from bohnteach.widgets.figure import HTML

    f = F
    a0, b0 = f.anna_garten.value.numerator, f.ben_stink.value.numerator
    stink, garden = find_variety("Stinkbohne"), find_variety("Gartenbohne")
    rows = [
        ("Anna", _("Stinkbohne (aufgedeckt)"), variety_word(garden),
         f"{a0} → {a0 + 1} {variety_word(garden, 2)}", f"{harvest_value(garden, a0)} → "
         f"{harvest_value(garden, a0 + 1)}", f"+{f.anna_gewinn}"),
        ("Ben", _("Gartenbohne (aus der Hand)"), variety_word(stink),
         f"{b0} → {b0 + 1} {variety_word(stink, 2)}", f"{harvest_value(stink, b0)} → "
         f"{harvest_value(stink, b0 + 1)}", f"+{f.ben_gewinn}"),
    ]
    return HTML(table_html(
        [_("Person"), _("gibt"), _("bekommt"), _("Feld"), _("Taler beim Ernten"), _("Gewinn")],
        rows, numeric=(4, 5), footer=(_("zusammen"), "", "", "", "", f"+{f.summe_gewinn}"),
        caption=_("Ein Tausch, bei dem beide gewinnen"),
    ))


@guard()
@spoken
def gift():
    """Ben gives a Rote Bohne to Clara: comparing the gaps to the other players."""
    from bohnteach.widgets.figure import HTML

    f = F
    others = [n for n in NAMES if n != "Ben"]
    without = {n: -1 for n in others}
    with_gift = {n: (-1 if n == "Clara" else 0) for n in others}
    if (sum(without.values()), sum(with_gift.values())) != (f.abstand_ohne.value, f.abstand_mit.value):
        raise ValueError("Geschenk-Beispiel passt nicht zu lesson_facts.")
    rows = [
        (_("ohne Geschenk: Ben muss ein Feld zu früh ernten und verliert 1 Taler"),
         *[_signed(without[n]) for n in others], _signed(sum(without.values()))),
        (_("mit Geschenk: Clara bekommt 1 Taler mehr"),
         *[_signed(with_gift[n]) for n in others], _signed(sum(with_gift.values()))),
    ]
    gap = _("Bens Abstand zu {name}")
    return HTML(table_html(
        ["", *[gap.format(name=n) for n in others], _("zusammen")],
        rows, numeric=(1, 2, 3, 4),
        caption=_("Ein Geschenk, das sich lohnt: Abstand in Talern, verglichen mit „nichts passiert“"),
    ))


def _signed(n: int) -> str:
    return "0" if n == 0 else f"{n:+d}".replace("-", "−")


# --------------------------------------------------------------------------- calculator


class MarginalExplorer:
    """Choose a variety and everyone's field size: who would pay most for one card?"""

    def __init__(self, variety: str = "Stinkbohne", fields: tuple[int, ...] = (0, 4, 5, 2),
                 lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        with speaking(tr):
            options = variety_options(deck_counts(RULESET, PLAYERS))
        self.variety = control(w.Dropdown, options=options,
                               value=find_variety(variety).de, description=tr.gettext("Sorte:"),
                               label_width="60px", layout={"width": "360px"})
        self.sliders = [
            control(w.IntSlider, value=n, min=0, max=12, description=f"{name}:", label_width="60px",
                    continuous_update=False, layout={"width": "280px"})
            for name, n in zip(NAMES, fields)
        ]
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "380px"})
        grid = w.HBox(self.sliders, layout=layout(flex_flow="row wrap"))
        self.widget = w.VBox([self.variety, html_part(tr.gettext("<b>Karten dieser Sorte im Feld von …</b>")), grid,
                              self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, *self.sliders):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        with speaking(self.tr):
            self._update()

    def _update(self) -> None:
        v = find_variety(self.variety.value)
        for s in self.sliders:
            s.max = v.count
        fields = {name: s.value for name, s in zip(NAMES, self.sliders)}
        gains = {name: marginal_value(v, n, RULESET) for name, n in fields.items()}
        best = max(gains.values())
        name = variety_word(v)
        if best == 0:
            text = _("Eine {variety} bringt gerade niemandem einen Taler mehr.").format(variety=name)
        else:
            who = [n for n, g in gains.items() if g == best]
            if len(who) > 1:
                text = ngettext("Eine {variety} ist am meisten wert für <b>{names}</b> "
                                "(+{coins} Taler). Wer sie übrig hat, sollte mit ihnen handeln.",
                                "Eine {variety} ist am meisten wert für <b>{names}</b> "
                                "(+{coins} Taler). Wer sie übrig hat, sollte mit ihnen handeln.", best)
            else:
                text = ngettext("Eine {variety} ist am meisten wert für <b>{names}</b> "
                                "(+{coins} Taler). Wer sie übrig hat, sollte mit dieser Person handeln.",
                                "Eine {variety} ist am meisten wert für <b>{names}</b> "
                                "(+{coins} Taler). Wer sie übrig hat, sollte mit dieser Person handeln.", best)
            text = text.format(variety=name, names=_(" und ").join(who), coins=best)
        self.result.value = box_html("info", text)
        show_figure(same_card_figure(v.de, fields), self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator(lang: str | Translator | None = None) -> MarginalExplorer:
    return MarginalExplorer(lang=lang)


# --------------------------------------------------------------------------- whole games


class TradeStats:
    """The trading experiment's games, worded in the reader's language (``lang``, else the page's)."""

    LABELS = {"trader": N_("bietet an"), "planter": N_("bietet nie an")}

    def __init__(self, result: Any, lang: str | Translator | None = None):
        self.result = result
        self.tr = reader(lang)

    def figure(self) -> go.Figure:
        with speaking(self.tr):
            return self._figure()

    def _figure(self) -> go.Figure:
        r = self.result
        colours = {"trader": "#E69F00", "planter": "#56B4E9"}
        label = {b: _(text) for b, text in self.LABELS.items()}
        seat, hover = _("Platz {n}"), _("{seat} ({bot}): im Mittel {mean} Taler, Siegquote {share}")
        xs = [f"{seat.format(n=i + 1)}<br>({label.get(b, b)})" for i, b in enumerate(r.bots)]
        fig = go.Figure()
        fig.add_trace(go.Bar(
            x=xs, y=r.mean_scores, name=_("Taler im Mittel"),
            marker=dict(color=[colours.get(b, "#999") for b in r.bots],
                        line=dict(color="#222", width=1)),
            text=[number(Fraction(m).limit_denominator(10**6), 1, strip=False) for m in r.mean_scores],
            textposition="outside",
            hovertext=[hover.format(seat=seat.format(n=i + 1), bot=label.get(b, b),
                                    mean=number(Fraction(m).limit_denominator(10**6), 2),
                                    share=localized(de_number(Fraction(w * 100).limit_denominator(10**6), 1)
                                                    + " %"))
                       for i, (b, m, w) in enumerate(zip(r.bots, r.mean_scores, r.win_share))],
            hoverinfo="text",
        ))
        return charts.chart_layout(
            fig, _("Zwei Bots bieten an, zwei nie: Taler am Ende ({games} Partien)").format(games=r.games), "",
            _("Taler im Mittel"), showlegend=False, height=400, yaxis=dict(rangemode="tozero"),
        )

    @property
    def trader_wins(self) -> Fraction:
        """Share of games won by one of the two trading bots."""
        r = self.result
        return Fraction(sum(w for w, b in zip(r.win_share, r.bots) if b == "trader")).limit_denominator(10**6)

    def summary_html(self, estimate: Fraction | None = None) -> str:
        """The result; with the learner's ``estimate`` (a share) beside it."""
        with speaking(self.tr):
            return self._summary_html(estimate)

    def _summary_html(self, estimate: Fraction | None) -> str:
        r = self.result
        guess = ""
        if estimate is not None:
            gap = (estimate - self.trader_wins) * 100
            if not round(abs(gap)):
                verdict = _("fast genau das Ergebnis.")
            elif gap > 0:
                verdict = _("{points} Prozentpunkte über dem Ergebnis.").format(points=number(abs(gap), 0))
            else:
                verdict = _("{points} Prozentpunkte unter dem Ergebnis.").format(points=number(abs(gap), 0))
            guess = "<br>" + _("Deine Schätzung: <b>{estimate}</b> – {verdict}").format(
                estimate=percent(estimate, 0), verdict=verdict)
        return box_html("info", _(
            "In {games} Partien gewannen die beiden anbietenden Bots zusammen <b>{share}</b> "
            "der Partien; im Mittel gab es {trades} Tausche oder Geschenke pro Partie."
        ).format(games=r.games, share=percent(self.trader_wins, 0),
                 trades=number(Fraction(r.mean_trades).limit_denominator(10**6), 1)) + guess)

    def _repr_html_(self) -> str:
        return self.summary_html()


class TradeExperiment:
    """A button that plays whole games (two trading bots, two that never offer) with a
    live progress bar, then shows the chart and a summary. It runs on request only, so
    the page loads fast; the class watches the bar."""

    def __init__(self, games: int = TRADE_GAMES, seed: int = 0, lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        self.games, self.seed = games, seed
        self.guess = control(w.Text, description=tr.gettext("Deine Schätzung:"),
                             placeholder=tr.gettext("z. B. 50 %"),
                             label_width="initial", layout={"width": "16em"},
                             _dom_classes=("bt-estimate",))
        self.button = control(w.Button, description=tr.gettext("{games} Partien simulieren").format(games=games),
                              button_style="primary", layout={"width": "auto"})
        takes = tr.gettext("dauert einige Sekunden")
        self.note = html_part(f'<span style="color:#555;padding-left:10px">{takes}</span>')
        self.progress_area = w.VBox(layout=layout(width="100%"))
        self.result = html_part()
        self.output = control(w.Output)
        self.widget = w.VBox([w.HBox([self.guess, self.button, self.note],
                                     layout=layout(align_items="center", flex_flow="row wrap")),
                              self.progress_area, self.result, self.output], layout=layout())
        run = guard(self.result)(self.run)
        self.button.on_click(lambda _b: run())
        self.stats: TradeStats | None = None

    def estimate(self) -> Fraction:
        """The learner's estimate as a share: ``50 %``, ``50`` (read as percent) or ``0,5``.
        Raises :class:`AnswerFormatError` (German) when there is none or it is no share."""
        text = self.guess.value.strip()
        if not text:
            raise AnswerFormatError(self.tr.gettext("Schätze zuerst: Trag ein, wie oft die Händler gewinnen, "
                                                    "z. B. 50 %. Dann startet die Simulation."))
        with speaking(self.tr):
            share = parse_number(text)
        if "%" not in text and share > 1:
            share /= 100  # "50" means 50 %
        if not 0 <= share <= 1:
            raise AnswerFormatError(self.tr.gettext("Eine Schätzung liegt zwischen 0 % und 100 %."))
        return share

    def run(self) -> TradeStats | None:
        """Check the estimate, play the games, show the result beside the estimate."""
        from bohnteach.maths.simulate import run_games

        try:
            estimate = self.estimate()
        except AnswerFormatError as exc:
            self.result.value = box_html("invalid", html.escape(str(exc)))
            return None
        self.button.disabled = True
        try:
            bar = progress_bar(self.tr.gettext("Spiele {n} Partien …").format(n=self.games), self.tr)
            self.progress_area.children = (bar.widget,)
            self.result.value = ""
            result = run_games(RULESET, PLAYERS, self.games, self.seed, list(TRADE_BOTS),
                               progress=bar)
            self.stats = TradeStats(result, self.tr)
            self.result.value = self.stats.summary_html(estimate)
            show_figure(self.stats.figure(), self.output)
            self.seed += 1  # the next click plays new games
            return self.stats
        finally:
            self.button.disabled = False

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def trading_game(games: int = TRADE_GAMES, seed: int = 0,
                 lang: str | Translator | None = None) -> TradeExperiment:
    """Two trading bots against two that never offer – on a button click."""
    return TradeExperiment(games, seed, lang)


# --------------------------------------------------------------------------- exercises


def questions(lang: str | Translator | None = None) -> list[Any]:
    """The exercises, worded in the reader's language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _questions(tr)


def _questions(tr: Translator) -> list[Any]:
    f = F
    coins = _("Taler")
    return [
        NumberQuestion(
            _("Ben hat {f.ben_stink} Stinkbohnen im Feld. Wie viele Taler <b>mehr</b> bringt "
              "ihm eine weitere Stinkbohne?").format(f=f),
            answer=f.ben_gewinn.value, unit=coins,
            hint=_("Stinkbohne: {f.stink_1} → 1, {f.stink_2} → 2, {f.stink_3} → 3, {f.stink_4} → 4 Taler.").format(f=f),
            solution=_("{f.ben_stink} Stinkbohnen: {four} Taler; "
                       "{f.ben_stink_neu}: {five} Taler. Also +{f.ben_gewinn}.").format(
                f=f, four=harvest_value("Stinkbohne", 4), five=harvest_value("Stinkbohne", 5)),
            lang=tr,
        ),
        NumberQuestion(
            _("Clara hat {f.clara_stink} Stinkbohnen im Feld. Wie viele Taler mehr bringt "
              "<i>ihr</i> dieselbe Karte?").format(f=f),
            answer=f.clara_gewinn.value, unit=coins,
            hint=_("Wann ist die nächste Stufe erreicht? ({f.stink_3} Karten)").format(f=f),
            solution=_("{f.clara_stink} und {more} Stinkbohnen bringen beide "
                       "2 Taler: +{f.clara_gewinn}. Erst die {f.stink_3}. Karte bringt wieder etwas.").format(
                f=f, more=f.clara_stink.value + 1),
            lang=tr,
        ),
        NumberQuestion(
            _("Anna hat {f.anna_garten} Gartenbohnen im Feld. Wie viele Taler mehr bringt ihr "
              "eine dritte?").format(f=f),
            answer=f.anna_gewinn.value, unit=coins,
            hint=_("Gartenbohne: {f.garten_2} Karten → 2 Taler, {f.garten_3} Karten → 3 Taler.").format(f=f),
            solution=_("2 → 3 Taler: +{f.anna_gewinn}.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Anna gibt Ben ihre Stinkbohne und bekommt dafür seine Gartenbohne. Wie viele "
              "Taler gewinnen <b>beide zusammen</b>?"),
            answer=f.summe_gewinn.value, unit=coins,
            hint=_("Zähle Annas Gewinn und Bens Gewinn zusammen."),
            mistakes={0: _("Beim Tausch wechseln zwar nur Karten den Besitzer – aber jede Karte "
                           "landet dort, wo sie mehr wert ist.")},
            solution=_("Anna +{f.anna_gewinn}, Ben +{f.ben_gewinn}: zusammen +{f.summe_gewinn} Taler.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("Warum können bei einem Tausch <b>beide</b> gewinnen?"),
            [
                _("Weil beim Tausch neue Karten ins Spiel kommen."),
                _("Weil dieselbe Karte für verschiedene Personen verschieden viel wert ist."),
                _("Weil die aktive Person immer mehr bekommt."),
            ],
            1,
            explanations=[
                _("Nein, es wechseln nur Karten den Besitzer."),
                _("Der Grenzwert einer Karte hängt davon ab, was schon im Feld liegt."),
                _("Das stimmt nicht – im Beispiel gewinnen beide gleich viel."),
            ],
            solution=_("Der Wert einer Karte ist, was sie <i>zusätzlich</i> bringt (Grenzwert). "
                       "Für Ben ist die Stinkbohne +1 Taler wert, für Anna nichts; bei der "
                       "Gartenbohne ist es umgekehrt."),
            lang=tr,
        ),
        NumberQuestion(
            _("Clara hat {f.clara_rot} Rote Bohnen im Feld. Was bringt ihr eine weitere Rote Bohne?").format(f=f),
            answer=f.clara_rot_gewinn.value, unit=coins,
            hint=_("Rote Bohne: {f.rot_1} → 1, {f.rot_2} → 2, {f.rot_3} → 3, {f.rot_4} → 4 Taler.").format(f=f),
            solution=_("{f.clara_rot} → {f.rot_3} Rote Bohnen: 2 → 3 Taler, also +{f.clara_rot_gewinn}.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("Ben müsste für eine Rote Bohne ein Feld zu früh abernten. Er schenkt sie lieber "
              "Clara, die dadurch 1 Taler gewinnt. War das klug?"),
            [
                _("Nein: Mitspielern hilft man nie."),
                _("Ja: Ohne Geschenk fällt Ben gegenüber allen {f.gegner} anderen zurück, mit "
                  "Geschenk nur gegenüber Clara.").format(f=f),
                _("Nur wenn Clara ihm später etwas zurückgibt."),
            ],
            1,
            explanations=[
                _("Es zählt, wer am Ende vorne liegt – nicht, ob jemand anderes etwas bekommt."),
                _("Abstand zu den anderen zusammen: {f.abstand_mit} statt {f.abstand_ohne}.").format(f=f),
                _("Eine Gegenleistung wäre schön, ist aber nicht nötig: Das Geschenk lohnt sich schon so."),
            ],
            solution=_("Ohne Geschenk: −1 Taler gegenüber {f.gegner} Personen = {f.abstand_ohne}. "
                       "Mit Geschenk: nur Clara rückt 1 Taler näher = {f.abstand_mit}.").format(f=f),
            lang=tr,
        ),
    ]


@guard()
def exercises(lang: str | Translator | None = None):
    """The exercises of lesson 5 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions(lang))
