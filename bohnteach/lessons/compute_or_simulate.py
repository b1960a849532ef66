"""Lesson 4 – Rechnen oder simulieren? The law of large numbers; whole games with bots."""
from __future__ import annotations

import dataclasses
import functools
import math
from collections import Counter
from functools import partial
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from bohnteach.render import charts
from bohnteach.widgets.questions import (
    ChoiceQuestion,
    NumberQuestion,
    box_html,
    exercise_list,
)
from bohnteach.i18n import Translator, _, reader, speaking
from bohnteach.render.numbers import integer, number, percent
from bohnteach.widgets.failure import guard
from bohnteach.widgets.classroom import classroom as classroom_panel
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PILE, PLAYERS, RULESET, facts_for
from bohnteach.maths.montecarlo import Estimate, Runs, simulate_reveal
from bohnteach.maths.probability import p_in_reveal
from bohnteach.widgets.progress import progress_bar
from bohnteach.lessons import end, show_figure, spoken, start as lesson_start, table_html
from bohnteach.lessons.stored import stored

start = partial(lesson_start, "04_Rechnen_oder_simulieren")
"""The teacher banner of this lesson (first code cell)."""

classroom = partial(classroom_panel, "04_Rechnen_oder_simulieren")
"""The class panel, „Klassenraum“ (second code cell): a class's estimates and pooled draws."""

F = facts_for("04_Rechnen_oder_simulieren")

GAMES = F.partien.value.numerator
"""Whole games simulated on the page (seeded)."""
BOTS = "planter"

__all__ = ["GameStats", "classroom", "convergence", "end", "estimates", "exercises", "experiment",
           "game_length", "play_games", "scores", "seats", "start"]


# --------------------------------------------------------------------------- reveals


def reveal_estimate(trials: int | None = None, seed: int = 1, progress=None) -> Estimate:
    """Simulated P(at least one Gartenbohne among the 2 revealed cards). Runs without a
    progress bar are cached: the chart and the table of the page share one simulation."""
    n = trials if trials is not None else F.durchlaeufe.value.numerator
    if progress is None:
        return _cached_estimate(n, seed)
    return simulate_reveal("Gartenbohne", PILE, Runs(n, seed, progress))


@functools.lru_cache(maxsize=16)
def _cached_estimate(trials: int, seed: int) -> Estimate:
    entry = STORED_REVEALS.get((trials, seed))
    if entry is not None:
        return entry.load()
    return _simulate_estimate(trials, seed)


def _simulate_estimate(trials: int, seed: int) -> Estimate:
    return simulate_reveal("Gartenbohne", PILE, Runs(trials, seed))


def _estimate_data(trials: int, seed: int) -> dict[str, Any]:
    data = dataclasses.asdict(_simulate_estimate(trials, seed))
    data["distribution"] = {str(k): v for k, v in data["distribution"].items()}  # JSON keys are text
    return data


def _estimate_from_data(data: dict[str, Any]) -> Estimate:
    return Estimate(**{**data, "checkpoints": tuple(data["checkpoints"]), "running": tuple(data["running"]),
                       "distribution": {int(k): v for k, v in data["distribution"].items()}})


STORED_REVEALS = {
    (n, seed): stored(f"04_aufdecken_{n}_seed{seed}", partial(_estimate_data, n, seed), _estimate_from_data)
    for n, seed in ((F.durchlaeufe.value.numerator, 1), (1_000, 7))
}
"""The simulations the page shows before anyone clicks (the chart and table: 10.000
durchläufe, seed 1; the experiment's first run: 1.000, seed 7), stored as data."""


@guard()
@spoken
def convergence(trials: int | None = None, seed: int = 1) -> go.Figure:
    """Running estimate against the number of trials, with the exact answer."""
    est = reveal_estimate(trials, seed)
    return charts.convergence_chart(
        est, p_in_reveal("Gartenbohne", PILE),
        title=_("Mindestens eine Gartenbohne unter 2 aufgedeckten Karten: Simulation gegen Rechnung"),
    )


def _quantity() -> str:
    """The experiment's question, as its chart's title (the stored results keep it in German)."""
    return _("P(mindestens eine Gartenbohne unter den nächsten 2 Karten)")


def estimate_rows(est: Estimate, exact: Fraction) -> list[tuple[str, str, str, str]]:
    """(trials, estimate, deviation, ±2 standard errors) at 10, 100, 1.000, … trials."""
    p = float(exact)
    rows = []
    marks = [n for n in (10, 100, 1_000, 10_000, 100_000, 1_000_000) if n <= est.trials]
    for n in marks:
        i = est.checkpoints.index(n) if n in est.checkpoints else None
        if i is None:
            continue
        value = est.running[i]
        band = 2 * math.sqrt(p * (1 - p) / n)
        rows.append((integer(n), _pct(value), _pp(abs(value - p)), f"± {_pp(band)}"))
    return rows


@guard()
@spoken
def estimates(trials: int | None = None, seed: int = 1):
    """Table: the estimate after 10, 100, 1.000, 10.000 trials next to the exact value."""
    from bohnteach.widgets.figure import HTML

    est = reveal_estimate(trials, seed)
    exact = p_in_reveal("Gartenbohne", PILE)
    return HTML(table_html(
        [_("Durchläufe"), _("Schätzung"), _("Abweichung (Prozentpunkte)"),
         _("typischer Spielraum: ±2 Standardfehler (Prozentpunkte)")],
        estimate_rows(est, exact), numeric=(0, 1, 2, 3),
        caption=_("Exakt (gezählt): {p}").format(p=percent(exact, 2)),
    ))


class RevealExperiment:
    """Choose the number of trials and a seed, simulate, see the funnel close."""

    CHOICES = (100, 1_000, 10_000, 100_000, 1_000_000)
    BAR_FROM = F.balken_ab.value.numerator
    """From this many trials (about a second here) a progress bar is shown."""

    def __init__(self, trials: int = 1_000, seed: int = 7, lang: str | Translator | None = None):
        import ipywidgets as w

        self.tr = tr = reader(lang)
        field = {"label_width": "initial", "layout": {"width": "220px"}}
        self.trials = control(w.Dropdown, options=[(integer(n, tr), n) for n in self.CHOICES], value=trials,
                              description=tr.gettext("Durchläufe:"), **field)
        self.seed = control(w.BoundedIntText, value=seed, min=0, max=10**9,
                            description=tr.gettext("Startwert (Seed):"), **field)
        self.button = control(w.Button, description=tr.gettext("Simulieren"), button_style="primary",
                              layout={"width": "auto"})
        self.progress_area = w.VBox(layout=layout(width="100%"))
        self.result = html_part()
        self.output = control(w.Output, layout={"min_height": "450px"})
        self.widget = w.VBox([
            w.HBox([self.trials, self.seed, self.button], layout=layout(flex_flow="row wrap")),
            self.progress_area, self.result, self.output,
        ], layout=layout())
        run = guard(self.result)(self.run)
        self.button.on_click(lambda _b: run())
        run()

    def run(self) -> Estimate:
        with speaking(self.tr):
            return self._run()

    def _run(self) -> Estimate:
        n, seed = self.trials.value, self.seed.value
        bar = None
        if n >= self.BAR_FROM:
            bar = progress_bar(_("Simuliere {n} Aufdeckungen …").format(n=integer(n)))
            self.progress_area.children = (bar.widget,)
        else:
            self.progress_area.children = ()
        est = reveal_estimate(n, seed, progress=bar)
        exact = p_in_reveal("Gartenbohne", PILE)
        band = 2 * est.std / math.sqrt(n)
        inside = abs(est.estimate - float(exact)) <= 2 * math.sqrt(float(exact * (1 - exact)) / n)
        verdict = (_("die Schätzung liegt darin.") if inside else
                   _("die Schätzung liegt ausnahmsweise daneben (das passiert etwa jedes 20. Mal)."))
        self.result.value = box_html("info", _(
            "Schätzung nach {n} Durchläufen: <b>{estimate}</b>, exakt: "
            "<b>{exact}</b>. Spielraum ±2 Standardfehler: ±{band} Prozentpunkte – {verdict}"
        ).format(n=integer(n), estimate=_pct(est.estimate), exact=percent(exact, 2), band=_pp(band),
                 verdict=verdict))
        show_figure(charts.convergence_chart(est, exact, title=_quantity()), self.output)
        self.last = est
        return est

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def _pct(x: float) -> str:
    return percent(Fraction(x).limit_denominator(10**9), 2)


def _pp(x: float) -> str:
    """A probability difference in percentage points, two decimals: ``0,63``."""
    return _num(x * 100, 2)


def _num(x: float, digits: int) -> str:
    return number(Fraction(x).limit_denominator(10**9), digits, strip=False)


@guard()
def experiment(lang: str | Translator | None = None) -> RevealExperiment:
    return RevealExperiment(lang=lang)


# --------------------------------------------------------------------------- whole games


class GameStats:
    """Whole games played by bots (``bohnteach.maths.simulate.run_games``) plus a summary,
    worded in the reader's language (``lang``, else the page's when the stats are made)."""

    def __init__(self, result: Any, lang: str | Translator | None = None):
        self.result = result
        self.tr = reader(lang)

    @property
    def games(self) -> int:
        return self.result.games

    def seat_names(self) -> list[str]:
        """``"Platz 1 (beginnt)"``, ``"Platz 2"``, … in the reader's language."""
        first, other = self.tr.gettext("Platz {n} (beginnt)"), self.tr.gettext("Platz {n}")
        return [(first if i == 0 else other).format(n=i + 1) for i in range(self.result.players)]

    def summary_html(self) -> str:
        with speaking(self.tr):
            return self._summary_html()

    def _summary_html(self) -> str:
        r = self.result
        rows = [(name, _num(m, 2), percent(Fraction(w).limit_denominator(10**6), 1))
                for name, m, w in zip(self.seat_names(), r.mean_scores, r.win_share)]
        intro = _("{games} Partien zu {players}, gespielt von Bots, die "
                  "nie etwas anbieten (Seed {seed}). Im Mittel dauerte eine Partie "
                  "<b>{turns} Züge</b>.").format(games=integer(r.games), players=r.players, seed=r.seed,
                                                 turns=_num(r.mean_turns, 1))
        return f"<p>{intro}</p>" + table_html([_("Platz"), _("Taler im Mittel"), _("Siegquote")], rows,
                                              numeric=(1, 2))

    def _repr_html_(self) -> str:
        return self.summary_html()


def run_whole_games(games: int = GAMES, seed: int = 0, bots: Any = BOTS, progress=None) -> GameStats:
    from bohnteach.maths.simulate import run_games  # lazy: the engine is only needed here

    return GameStats(run_games(RULESET, players=PLAYERS, games=games, seed=seed, bots=bots,
                               progress=progress))


def _games_data() -> dict[str, Any]:
    """The page's games as JSON data: every field but the (varying) seconds."""
    r = run_whole_games().result
    return {**{f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name not in ("seconds", "records")},
            "records": [dataclasses.asdict(rec) for rec in r.records]}


def _games_from_data(data: dict[str, Any]) -> GameStats:
    from bohnteach.maths.simulate import GameRecord, SimulationResult

    return GameStats(SimulationResult(**{**data, "seconds": 0.0,
                                         "records": [GameRecord(**rec) for rec in data["records"]]}))


STORED_GAMES = stored(f"04_partien_{GAMES}_seed0_{BOTS}", _games_data, _games_from_data)
"""The page's whole games (``GAMES`` games, seed 0, ``BOTS``), stored as data."""


@guard()
@spoken
def play_games(games: int = GAMES, seed: int = 0, bots: Any = BOTS) -> GameStats:
    """Play ``games`` whole games (a progress bar runs meanwhile); show a summary table.
    The page's own games (the defaults) come from stored data, the bar then shows them done."""
    from IPython.display import display

    bar = progress_bar(_("Spiele {n} Partien …").format(n=integer(games)))
    display(bar.widget)
    if (games, seed, bots) == (GAMES, 0, BOTS):
        bar(1.0)
        return STORED_GAMES.load()
    return run_whole_games(games, seed, bots, progress=bar)


def turns_figure(stats: GameStats) -> go.Figure:
    """Histogram: turns per game, with the mean."""
    r = stats.result
    counts = Counter(r.turns)
    xs = sorted(counts)
    lasted = _("{games} Partien dauerten {turns} Züge")
    fig = go.Figure(go.Bar(
        x=xs, y=[counts[x] for x in xs], name=_("Partien"),
        marker=dict(color="#6B8E23", line=dict(color="#222", width=1)),
        text=[str(counts[x]) for x in xs], textposition="outside",
        hovertext=[lasted.format(games=counts[x], turns=x) for x in xs], hoverinfo="text",
    ))
    mean = r.mean_turns
    return charts.chart_layout(fig, _("Wie lange dauert eine Partie? ({games} Partien)").format(games=integer(r.games)),
                   _("Züge bis zum Spielende (alle Personen zusammen)"), _("Anzahl Partien"),
                   xaxis=dict(dtick=1), yaxis=dict(range=[0, max(counts.values()) * 1.3]),
                   showlegend=False,
                   **charts.mean_line(mean, "#D55E00", _("Mittelwert: {mean} Züge").format(mean=_num(mean, 1))))


def scores_figure(stats: GameStats) -> go.Figure:
    """Histogram: final Taler of every player, and of the winners."""
    r = stats.result
    everyone = Counter(s for rec in r.records for s in rec.scores)
    winners = Counter(rec.scores[rec.winners[0]] for rec in r.records if rec.winners)
    xs = list(range(min(everyone), max(everyone) + 1))
    total_players = sum(everyone.values())
    times, wins = _("{times}-mal {coins} Taler"), _("{wins} Siege mit {coins} Talern")
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=xs, y=[everyone.get(x, 0) / total_players for x in xs], name=_("alle Personen"),
        marker=dict(color="#0072B2", line=dict(color="#222", width=1)),
        hovertext=[times.format(times=everyone.get(x, 0), coins=x) for x in xs], hoverinfo="text",
    ))
    fig.add_trace(go.Bar(
        x=xs, y=[winners.get(x, 0) / max(1, sum(winners.values())) for x in xs],
        name=_("nur die Sieger"), marker=dict(color="#E69F00", pattern_shape="/",
                                              line=dict(color="#222", width=1)),
        hovertext=[wins.format(wins=winners.get(x, 0), coins=x) for x in xs], hoverinfo="text",
    ))
    return charts.chart_layout(fig, _("Wie viele Taler hat man am Ende?"), _("Taler am Spielende"),
                   _("Anteil"), barmode="group", xaxis=dict(dtick=1),
                   yaxis=dict(tickformat=".0%"))


def seats_figure(stats: GameStats) -> go.Figure:
    """Win share per seat with ±2 standard errors and the fair share 1/players."""
    r = stats.result
    fair = 1 / r.players
    err = [2 * math.sqrt(max(w * (1 - w), 1e-12) / r.games) for w in r.win_share]
    names = stats.seat_names()
    points = _("{seat}: {share} ± {band} Prozentpunkte")
    fig = go.Figure(go.Bar(
        x=names, y=r.win_share, name=_("Siegquote"),
        marker=dict(color=["#CC79A7"] + ["#56B4E9"] * (r.players - 1),
                    line=dict(color="#222", width=1)),
        error_y=dict(type="data", array=err, visible=True, color="#333"),
        text=[percent(Fraction(w).limit_denominator(10**6), 1) for w in r.win_share],
        textposition="inside", insidetextanchor="start",
        hovertext=[points.format(seat=n, share=_pct(w), band=_pp(e)) for n, w, e in zip(names, r.win_share, err)],
        hoverinfo="text",
    ))
    fig.add_hline(y=fair, line=dict(color="#D55E00", dash="dash"),
                  annotation_text=_("fair: {share}").format(share=percent(Fraction(1, r.players), 0)),
                  annotation_position="top left")
    return charts.chart_layout(fig, _("Gewinnt der Startplatz öfter? (Siegquote ± 2 Standardfehler, "
                                      "{games} Partien)").format(games=integer(r.games)),
                   _("Sitzplatz"), _("Siegquote"), yaxis=dict(tickformat=".0%", rangemode="tozero"),
                   showlegend=False)


@guard()
@spoken
def game_length(stats: GameStats) -> go.Figure:
    return turns_figure(stats)


@guard()
@spoken
def scores(stats: GameStats) -> go.Figure:
    return scores_figure(stats)


@guard()
@spoken
def seats(stats: GameStats) -> go.Figure:
    return seats_figure(stats)


# --------------------------------------------------------------------------- exercises


def questions(stats: GameStats | None = None, lang: str | Translator | None = None) -> list[Any]:
    """The exercises, worded in the reader's language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _questions(stats, tr)


def _questions(stats: GameStats | None, tr: Translator) -> list[Any]:
    f = F
    qs: list[Any] = [
        NumberQuestion(
            _("Du machst {f.faktor_n}-mal so viele Durchläufe. Um welchen Faktor wird der "
              "Standardfehler kleiner?").format(f=f),
            answer=f.faktor_genauer.value,
            hint=_("Der Standardfehler ist √(p(1 − p)/n): n steht unter der Wurzel."),
            mistakes={f.faktor_n.value: _("Nicht ganz: n steht unter einer Wurzel.")},
            solution=_("√{f.faktor_n} = {f.faktor_genauer}: zehnmal genauer, nicht hundertmal.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Mit {f.durchlaeufe_viertel:int} Durchläufen ist der Spielraum der Schätzung "
              "zu groß. Wie viele Durchläufe brauchst du für den <b>halben</b> Standardfehler?").format(f=f),
            answer=f.durchlaeufe.value,
            hint=_("Halb so großer Standardfehler heißt: √n muss doppelt so groß werden."),
            mistakes={2 * f.durchlaeufe_viertel.value: _(
                "Doppelt so viele Durchläufe machen den Standardfehler nur um den Faktor "
                "√2 ≈ {root} kleiner.").format(root=number(Fraction(141, 100), 2))},
            solution=_("{f.faktor_halb}-mal so viele: {f.faktor_halb} · {f.durchlaeufe_viertel:int} = "
                       "{f.durchlaeufe:int}, denn √{f.faktor_halb} = 2.").format(f=f),
            lang=tr,
        ),
        NumberQuestion(
            _("Bei {f.personen} Personen und einem fairen Spiel: Welche Siegquote erwartest "
              "du für jeden Platz?").format(f=f),
            answer=f.fair.value, tolerance=Fraction(1, 1000), probability=True,
            hint=_("Alle Plätze haben dieselbe Chance, und genau einer gewinnt."),
            solution=_("1/{f.personen} = {f.fair:pct0}.").format(f=f),
            lang=tr,
        ),
        ChoiceQuestion(
            _("In {f.partien} Partien gewinnt ein Platz {high} statt {fair}. Was folgt daraus?").format(
                f=f, high=percent(Fraction(29, 100), 0), fair=percent(Fraction(25, 100), 0)),
            [
                _("Dieser Platz hat sicher einen Vorteil."),
                _("Noch nichts Sicheres: Bei dieser Zahl von Partien schwankt eine Siegquote "
                  "zufällig um etwa ± 6 Prozentpunkte."),
                _("Die Bots spielen falsch."),
            ],
            1,
            explanations=[
                _("4 Prozentpunkte liegen innerhalb von ±2 Standardfehlern "
                  "(≈ ±{points} Prozentpunkte) – das kann Zufall sein.").format(
                    points=number(f.zwei_se_sieg.value * 100, 1)),
                _("2 · √({quarter} · {three_quarters} / {f.partien}) ≈ {f.zwei_se_sieg:dec3}. Für einen Beweis "
                  "bräuchte man mehr Partien.").format(f=f, quarter=number(Fraction(1, 4), 2),
                                                       three_quarters=number(Fraction(3, 4), 2)),
                _("Dafür gibt es keinen Hinweis – Zufall reicht als Erklärung."),
            ],
            solution=_("±2 Standardfehler bei {f.partien} Partien: ±{f.zwei_se_sieg:pct1}. "
                       "{high} liegt darin – kein Beweis für einen Vorteil.").format(
                f=f, high=percent(Fraction(29, 100), 0)),
            lang=tr,
        ),
    ]
    if stats is not None and not hasattr(stats, "data"):
        r = stats.result
        qs += [
            NumberQuestion(
                _("Lies im Diagramm zur Spieldauer ab: Wie viele Züge dauerte eine Partie "
                  "im Mittel?"),
                answer=Fraction(r.mean_turns).limit_denominator(10**6), tolerance=1, unit=_("Züge"),
                hint=_("Die gestrichelte Linie zeigt den Mittelwert."),
                solution=_("Mittelwert aller {games} Partien: {mean} Züge.").format(
                    games=integer(r.games), mean=number(Fraction(r.mean_turns).limit_denominator(10**6), 2)),
                lang=tr,
            ),
            NumberQuestion(
                _("Lies im Diagramm zu den Sitzplätzen ab: Wie oft hat Platz 1 gewonnen?"),
                answer=Fraction(r.win_share[0]).limit_denominator(10**6),
                tolerance=Fraction(2, 100), probability=True,
                hint=_("Der erste Balken; die Zahl steht im Balken."),
                solution=_("Platz 1 hat {share} der Partien gewonnen.").format(share=_pct(r.win_share[0])),
                lang=tr,
            ),
        ]
    return qs


@guard()
def exercises(stats: GameStats | None = None, lang: str | Translator | None = None):
    """The exercises of lesson 4 as the page shows them: the widgets of :func:`questions`
    (two of them read the whole-game charts)."""
    return exercise_list(questions(stats, lang))
