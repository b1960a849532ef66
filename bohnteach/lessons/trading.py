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
from bohnteach.render.words import de_number, de_percent, seat_label
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PLAYERS, RULESET, facts_for
from bohnteach.maths.probability import deck_counts, marginal_value
from bohnteach.widgets.progress import progress_bar
from bohnteach.lessons import end, show_figure, start as lesson_start, table_html, variety_options

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
    labels = [f"{name}<br>({n} im Feld)" for name, n in fields.items()]
    fig = go.Figure(go.Bar(
        x=labels, y=gains, marker=dict(color=v.colour, line=dict(color="#222", width=1)),
        text=[f"+{g} Taler" if g else "0 Taler" for g in gains], textposition="outside",
        hovertext=[f"{name}: {n} → {n + 1} {v.de_plural}: {harvest_value(v, n)} → "
                   f"{harvest_value(v, n + 1)} Taler" for name, n in fields.items()],
        hoverinfo="text",
    ))
    return charts.chart_layout(
        fig, f"Was bringt dieselbe {v.de} wem? (Taler mehr beim Ernten)",
        f"Person ({v.de_plural} schon im Feld)", "Taler mehr", showlegend=False, height=380,
        yaxis=dict(dtick=1, range=[0, max(2, max(gains) + 1)]),
    )


@guard()
def same_card() -> go.Figure:
    """The lesson's example: one Stinkbohne, four people."""
    f = F
    return same_card_figure("Stinkbohne", {
        "Anna": 0, "Ben": f.ben_stink.value.numerator, "Clara": f.clara_stink.value.numerator,
        "David": f.david_stink.value.numerator,
    })


@guard()
def marginal_values() -> go.Figure:
    """Marginal value bars for three varieties (charts.marginal_value_chart)."""
    return charts.marginal_value_chart(["Stinkbohne", "Rote Bohne", "Gartenbohne"], RULESET)


@guard()
def swap():
    """Anna (active) and Ben swap a Stinkbohne for a Gartenbohne: both gain."""
    from bohnteach.widgets.figure import HTML

    f = F
    a0, b0 = f.anna_garten.value.numerator, f.ben_stink.value.numerator
    rows = [
        ("Anna", "Stinkbohne (aufgedeckt)", "Gartenbohne",
         f"{a0} → {a0 + 1} Gartenbohnen", f"{harvest_value('Gartenbohne', a0)} → "
         f"{harvest_value('Gartenbohne', a0 + 1)}", f"+{f.anna_gewinn}"),
        ("Ben", "Gartenbohne (aus der Hand)", "Stinkbohne",
         f"{b0} → {b0 + 1} Stinkbohnen", f"{harvest_value('Stinkbohne', b0)} → "
         f"{harvest_value('Stinkbohne', b0 + 1)}", f"+{f.ben_gewinn}"),
    ]
    return HTML(table_html(
        ["Person", "gibt", "bekommt", "Feld", "Taler beim Ernten", "Gewinn"],
        rows, numeric=(4, 5), footer=("zusammen", "", "", "", "", f"+{f.summe_gewinn}"),
        caption="Ein Tausch, bei dem beide gewinnen",
    ))


@guard()
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
        ("ohne Geschenk: Ben muss ein Feld zu früh ernten und verliert 1 Taler",
         *[_signed(without[n]) for n in others], _signed(sum(without.values()))),
        ("mit Geschenk: Clara bekommt 1 Taler mehr",
         *[_signed(with_gift[n]) for n in others], _signed(sum(with_gift.values()))),
    ]
    return HTML(table_html(
        ["", *[f"Bens Abstand zu {n}" for n in others], "zusammen"],
        rows, numeric=(1, 2, 3, 4),
        caption="Ein Geschenk, das sich lohnt: Abstand in Talern, verglichen mit „nichts passiert“",
    ))


def _signed(n: int) -> str:
    return "0" if n == 0 else f"{n:+d}".replace("-", "−")


# --------------------------------------------------------------------------- calculator


class MarginalExplorer:
    """Choose a variety and everyone's field size: who would pay most for one card?"""

    def __init__(self, variety: str = "Stinkbohne", fields: tuple[int, ...] = (0, 4, 5, 2)):
        import ipywidgets as w

        self.variety = control(w.Dropdown, options=variety_options(deck_counts(RULESET, PLAYERS)),
                               value=find_variety(variety).de, description="Sorte:",
                               label_width="60px", layout={"width": "360px"})
        self.sliders = [
            control(w.IntSlider, value=n, min=0, max=12, description=f"{name}:", label_width="60px",
                    continuous_update=False, layout={"width": "280px"})
            for name, n in zip(NAMES, fields)
        ]
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "380px"})
        grid = w.HBox(self.sliders, layout=layout(flex_flow="row wrap"))
        self.widget = w.VBox([self.variety, html_part("<b>Karten dieser Sorte im Feld von …</b>"), grid,
                              self.result, self.output], layout=layout())
        update = guard(self.result)(self.update)
        for changed in (self.variety, *self.sliders):
            changed.observe(lambda _c: update(), "value")
        update()

    def update(self) -> None:
        v = find_variety(self.variety.value)
        for s in self.sliders:
            s.max = v.count
        fields = {name: s.value for name, s in zip(NAMES, self.sliders)}
        gains = {name: marginal_value(v, n, RULESET) for name, n in fields.items()}
        best = max(gains.values())
        if best == 0:
            text = f"Eine {v.de} bringt gerade niemandem einen Taler mehr."
        else:
            who = [n for n, g in gains.items() if g == best]
            text = (f"Eine {v.de} ist am meisten wert für <b>{' und '.join(who)}</b> "
                    f"(+{best} Taler). Wer sie übrig hat, sollte mit {'ihnen' if len(who) > 1 else 'dieser Person'} handeln.")
        self.result.value = box_html("info", text)
        show_figure(same_card_figure(v.de, fields), self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def calculator() -> MarginalExplorer:
    return MarginalExplorer()


# --------------------------------------------------------------------------- whole games


class TradeStats:
    def __init__(self, result: Any):
        self.result = result

    def figure(self) -> go.Figure:
        r = self.result
        colours = {"trader": "#E69F00", "planter": "#56B4E9"}
        label = {"trader": "bietet an", "planter": "bietet nie an"}
        xs = [f"{seat_label(i)}<br>({label.get(b, b)})" for i, b in enumerate(r.bots)]
        fig = go.Figure()
        fig.add_trace(go.Bar(
            x=xs, y=r.mean_scores, name="Taler im Mittel",
            marker=dict(color=[colours.get(b, "#999") for b in r.bots],
                        line=dict(color="#222", width=1)),
            text=[de_number(Fraction(m).limit_denominator(10**6), 1, strip=False) for m in r.mean_scores],
            textposition="outside",
            hovertext=[f"{seat_label(i)} ({label.get(b, b)}): im Mittel "
                       f"{de_number(Fraction(m).limit_denominator(10**6), 2)} Taler, "
                       f"Siegquote {de_number(Fraction(w * 100).limit_denominator(10**6), 1)} %"
                       for i, (b, m, w) in enumerate(zip(r.bots, r.mean_scores, r.win_share))],
            hoverinfo="text",
        ))
        return charts.chart_layout(
            fig, f"Zwei Bots bieten an, zwei nie: Taler am Ende ({r.games} Partien)", "",
            "Taler im Mittel", showlegend=False, height=400, yaxis=dict(rangemode="tozero"),
        )

    @property
    def trader_wins(self) -> Fraction:
        """Share of games won by one of the two trading bots."""
        r = self.result
        return Fraction(sum(w for w, b in zip(r.win_share, r.bots) if b == "trader")).limit_denominator(10**6)

    def summary_html(self, estimate: Fraction | None = None) -> str:
        """The result; with the learner's ``estimate`` (a share) beside it."""
        r = self.result
        guess = ""
        if estimate is not None:
            gap = (estimate - self.trader_wins) * 100
            side = "über" if gap > 0 else "unter"
            guess = (f"<br>Deine Schätzung: <b>{de_percent(estimate, 0)}</b> – "
                     + (f"{de_number(abs(gap), 0)} Prozentpunkte {side} dem Ergebnis."
                        if round(abs(gap)) else "fast genau das Ergebnis."))
        return box_html(
            "info",
            f"In {r.games} Partien gewannen die beiden anbietenden Bots zusammen "
            f"<b>{de_percent(self.trader_wins, 0)}</b> "
            f"der Partien; im Mittel gab es {de_number(Fraction(r.mean_trades).limit_denominator(10**6), 1)} "
            f"Tausche oder Geschenke pro Partie.{guess}",
        )

    def _repr_html_(self) -> str:
        return self.summary_html()


class TradeExperiment:
    """A button that plays whole games (two trading bots, two that never offer) with a
    live progress bar, then shows the chart and a summary. It runs on request only, so
    the page loads fast; the class watches the bar."""

    def __init__(self, games: int = TRADE_GAMES, seed: int = 0):
        import ipywidgets as w

        self.games, self.seed = games, seed
        self.guess = control(w.Text, description="Deine Schätzung:", placeholder="z. B. 50 %",
                             label_width="initial", layout={"width": "16em"},
                             _dom_classes=("bt-estimate",))
        self.button = control(w.Button, description=f"{games} Partien simulieren", button_style="primary",
                              layout={"width": "auto"})
        self.note = html_part('<span style="color:#555;padding-left:10px">dauert einige Sekunden</span>')
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
            raise AnswerFormatError("Schätze zuerst: Trag ein, wie oft die Händler gewinnen, "
                                    "z. B. 50 %. Dann startet die Simulation.")
        share = parse_number(text)
        if "%" not in text and share > 1:
            share /= 100  # "50" means 50 %
        if not 0 <= share <= 1:
            raise AnswerFormatError("Eine Schätzung liegt zwischen 0 % und 100 %.")
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
            bar = progress_bar(f"Spiele {self.games} Partien …")
            self.progress_area.children = (bar.widget,)
            self.result.value = ""
            result = run_games(RULESET, PLAYERS, self.games, self.seed, list(TRADE_BOTS),
                               progress=bar)
            self.stats = TradeStats(result)
            self.result.value = self.stats.summary_html(estimate)
            show_figure(self.stats.figure(), self.output)
            self.seed += 1  # the next click plays new games
            return self.stats
        finally:
            self.button.disabled = False

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def trading_game(games: int = TRADE_GAMES, seed: int = 0) -> TradeExperiment:
    """Two trading bots against two that never offer – on a button click."""
    return TradeExperiment(games, seed)


# --------------------------------------------------------------------------- exercises


def questions() -> list[Any]:
    f = F
    return [
        NumberQuestion(
            f"Ben hat {f.ben_stink} Stinkbohnen im Feld. Wie viele Taler <b>mehr</b> bringt "
            "ihm eine weitere Stinkbohne?",
            answer=f.ben_gewinn.value, unit="Taler",
            hint=f"Stinkbohne: {f.stink_1} → 1, {f.stink_2} → 2, {f.stink_3} → 3, {f.stink_4} → 4 Taler.",
            solution=(f"{f.ben_stink} Stinkbohnen: {harvest_value('Stinkbohne', 4)} Taler; "
                      f"{f.ben_stink_neu}: {harvest_value('Stinkbohne', 5)} Taler. Also +{f.ben_gewinn}."),
        ),
        NumberQuestion(
            f"Clara hat {f.clara_stink} Stinkbohnen im Feld. Wie viele Taler mehr bringt "
            "<i>ihr</i> dieselbe Karte?",
            answer=f.clara_gewinn.value, unit="Taler",
            hint=f"Wann ist die nächste Stufe erreicht? ({f.stink_3} Karten)",
            solution=(f"{f.clara_stink} und {f.clara_stink.value + 1} Stinkbohnen bringen beide "
                      f"2 Taler: +{f.clara_gewinn}. Erst die {f.stink_3}. Karte bringt wieder etwas."),
        ),
        NumberQuestion(
            f"Anna hat {f.anna_garten} Gartenbohnen im Feld. Wie viele Taler mehr bringt ihr "
            "eine dritte?",
            answer=f.anna_gewinn.value, unit="Taler",
            hint=f"Gartenbohne: {f.garten_2} Karten → 2 Taler, {f.garten_3} Karten → 3 Taler.",
            solution=f"2 → 3 Taler: +{f.anna_gewinn}.",
        ),
        NumberQuestion(
            "Anna gibt Ben ihre Stinkbohne und bekommt dafür seine Gartenbohne. Wie viele "
            "Taler gewinnen <b>beide zusammen</b>?",
            answer=f.summe_gewinn.value, unit="Taler",
            hint="Zähle Annas Gewinn und Bens Gewinn zusammen.",
            mistakes={0: "Beim Tausch wechseln zwar nur Karten den Besitzer – aber jede Karte "
                         "landet dort, wo sie mehr wert ist."},
            solution=f"Anna +{f.anna_gewinn}, Ben +{f.ben_gewinn}: zusammen +{f.summe_gewinn} Taler.",
        ),
        ChoiceQuestion(
            "Warum können bei einem Tausch <b>beide</b> gewinnen?",
            [
                "Weil beim Tausch neue Karten ins Spiel kommen.",
                "Weil dieselbe Karte für verschiedene Personen verschieden viel wert ist.",
                "Weil die aktive Person immer mehr bekommt.",
            ],
            1,
            explanations=[
                "Nein, es wechseln nur Karten den Besitzer.",
                "Der Grenzwert einer Karte hängt davon ab, was schon im Feld liegt.",
                "Das stimmt nicht – im Beispiel gewinnen beide gleich viel.",
            ],
            solution=("Der Wert einer Karte ist, was sie <i>zusätzlich</i> bringt (Grenzwert). "
                      "Für Ben ist die Stinkbohne +1 Taler wert, für Anna nichts; bei der "
                      "Gartenbohne ist es umgekehrt."),
        ),
        NumberQuestion(
            f"Clara hat {f.clara_rot} Rote Bohnen im Feld. Was bringt ihr eine weitere Rote Bohne?",
            answer=f.clara_rot_gewinn.value, unit="Taler",
            hint=f"Rote Bohne: {f.rot_1} → 1, {f.rot_2} → 2, {f.rot_3} → 3, {f.rot_4} → 4 Taler.",
            solution=f"{f.clara_rot} → {f.rot_3} Rote Bohnen: 2 → 3 Taler, also +{f.clara_rot_gewinn}.",
        ),
        ChoiceQuestion(
            "Ben müsste für eine Rote Bohne ein Feld zu früh abernten. Er schenkt sie lieber "
            "Clara, die dadurch 1 Taler gewinnt. War das klug?",
            [
                "Nein: Mitspielern hilft man nie.",
                f"Ja: Ohne Geschenk fällt Ben gegenüber allen {f.gegner} anderen zurück, mit "
                "Geschenk nur gegenüber Clara.",
                "Nur wenn Clara ihm später etwas zurückgibt.",
            ],
            1,
            explanations=[
                "Es zählt, wer am Ende vorne liegt – nicht, ob jemand anderes etwas bekommt.",
                f"Abstand zu den anderen zusammen: {f.abstand_mit} statt {f.abstand_ohne}.",
                "Eine Gegenleistung wäre schön, ist aber nicht nötig: Das Geschenk lohnt sich schon so.",
            ],
            solution=(f"Ohne Geschenk: −1 Taler gegenüber {f.gegner} Personen = {f.abstand_ohne}. "
                      f"Mit Geschenk: nur Clara rückt 1 Taler näher = {f.abstand_mit}."),
        ),
    ]


@guard()
def exercises():
    """The exercises of lesson 5 as the page shows them: the widgets of :func:`questions`."""
    return exercise_list(questions())
