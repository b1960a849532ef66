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
from bohnteach.render.words import de_number, de_percent, seat_label
from bohnteach.widgets.failure import guard
from bohnteach.widgets.classroom import classroom as classroom_panel
from bohnteach.widgets.parts import control, html as html_part, layout
from bohnteach.content.lesson_facts import PILE, PLAYERS, RULESET, facts_for
from bohnteach.maths.montecarlo import Estimate, Runs, simulate_reveal
from bohnteach.maths.probability import p_in_reveal
from bohnteach.widgets.progress import progress_bar
from bohnteach.lessons import end, show_figure, start as lesson_start, table_html
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
def convergence(trials: int | None = None, seed: int = 1) -> go.Figure:
    """Running estimate against the number of trials, with the exact answer."""
    est = reveal_estimate(trials, seed)
    return charts.convergence_chart(
        est, p_in_reveal("Gartenbohne", PILE),
        title="Mindestens eine Gartenbohne unter 2 aufgedeckten Karten: Simulation gegen Rechnung",
    )


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
        rows.append((charts.int_de(n), _pct(value), _pp(abs(value - p)), f"± {_pp(band)}"))
    return rows


@guard()
def estimates(trials: int | None = None, seed: int = 1):
    """Table: the estimate after 10, 100, 1.000, 10.000 trials next to the exact value."""
    from bohnteach.widgets.figure import HTML

    est = reveal_estimate(trials, seed)
    exact = p_in_reveal("Gartenbohne", PILE)
    return HTML(table_html(
        ["Durchläufe", "Schätzung", "Abweichung (Prozentpunkte)",
         "typischer Spielraum: ±2 Standardfehler (Prozentpunkte)"],
        estimate_rows(est, exact), numeric=(0, 1, 2, 3),
        caption=f"Exakt (gezählt): {de_percent(exact, 2)}",
    ))


class RevealExperiment:
    """Choose the number of trials and a seed, simulate, see the funnel close."""

    CHOICES = (("100", 100), ("1.000", 1_000), ("10.000", 10_000), ("100.000", 100_000),
               ("1.000.000", 1_000_000))
    BAR_FROM = F.balken_ab.value.numerator
    """From this many trials (about a second here) a progress bar is shown."""

    def __init__(self, trials: int = 1_000, seed: int = 7):
        import ipywidgets as w

        field = {"label_width": "initial", "layout": {"width": "220px"}}
        self.trials = control(w.Dropdown, options=self.CHOICES, value=trials, description="Durchläufe:",
                              **field)
        self.seed = control(w.BoundedIntText, value=seed, min=0, max=10**9,
                            description="Startwert (Seed):", **field)
        self.button = control(w.Button, description="Simulieren", button_style="primary",
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
        n, seed = self.trials.value, self.seed.value
        bar = None
        if n >= self.BAR_FROM:
            bar = progress_bar(f"Simuliere {charts.int_de(n)} Aufdeckungen …")
            self.progress_area.children = (bar.widget,)
        else:
            self.progress_area.children = ()
        est = reveal_estimate(n, seed, progress=bar)
        exact = p_in_reveal("Gartenbohne", PILE)
        band = 2 * est.std / math.sqrt(n)
        inside = abs(est.estimate - float(exact)) <= 2 * math.sqrt(float(exact * (1 - exact)) / n)
        self.result.value = box_html(
            "info",
            f"Schätzung nach {charts.int_de(n)} Durchläufen: <b>{_pct(est.estimate)}</b>, exakt: "
            f"<b>{de_percent(exact, 2)}</b>. Spielraum ±2 Standardfehler: ±{_pp(band)} Prozentpunkte – "
            + ("die Schätzung liegt darin." if inside else
               "die Schätzung liegt ausnahmsweise daneben (das passiert etwa jedes 20. Mal)."),
        )
        show_figure(charts.convergence_chart(est, exact), self.output)
        self.last = est
        return est

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def _pct(x: float) -> str:
    return de_percent(Fraction(x).limit_denominator(10**9), 2)


def _pp(x: float) -> str:
    """A probability difference in percentage points, two decimals: ``0,63``."""
    return _num(x * 100, 2)


def _num(x: float, digits: int) -> str:
    return de_number(Fraction(x).limit_denominator(10**9), digits, strip=False)


@guard()
def experiment() -> RevealExperiment:
    return RevealExperiment()


# --------------------------------------------------------------------------- whole games


class GameStats:
    """Whole games played by bots (``bohnteach.maths.simulate.run_games``) plus a summary."""

    def __init__(self, result: Any):
        self.result = result

    @property
    def games(self) -> int:
        return self.result.games

    def seat_names(self) -> list[str]:
        return [seat_label(i, starts=i == 0) for i in range(self.result.players)]

    def summary_html(self) -> str:
        r = self.result
        rows = [(name, _num(m, 2), de_percent(Fraction(w).limit_denominator(10**6), 1))
                for name, m, w in zip(self.seat_names(), r.mean_scores, r.win_share)]
        intro = (f"<p>{charts.int_de(r.games)} Partien zu {r.players}, gespielt von Bots, die "
                 f"nie etwas anbieten (Seed {r.seed}). Im Mittel dauerte eine Partie "
                 f"<b>{_num(r.mean_turns, 1)} Züge</b>.</p>")
        return intro + table_html(["Platz", "Taler im Mittel", "Siegquote"], rows, numeric=(1, 2))

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
def play_games(games: int = GAMES, seed: int = 0, bots: Any = BOTS) -> GameStats:
    """Play ``games`` whole games (a progress bar runs meanwhile); show a summary table.
    The page's own games (the defaults) come from stored data, the bar then shows them done."""
    from IPython.display import display

    bar = progress_bar(f"Spiele {charts.int_de(games)} Partien …")
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
    fig = go.Figure(go.Bar(
        x=xs, y=[counts[x] for x in xs], name="Partien",
        marker=dict(color="#6B8E23", line=dict(color="#222", width=1)),
        text=[str(counts[x]) for x in xs], textposition="outside",
        hovertext=[f"{counts[x]} Partien dauerten {x} Züge" for x in xs], hoverinfo="text",
    ))
    mean = r.mean_turns
    return charts.chart_layout(fig, f"Wie lange dauert eine Partie? ({charts.int_de(r.games)} Partien)",
                   "Züge bis zum Spielende (alle Personen zusammen)", "Anzahl Partien",
                   xaxis=dict(dtick=1), yaxis=dict(range=[0, max(counts.values()) * 1.3]),
                   showlegend=False,
                   **charts.mean_line(mean, "#D55E00", f"Mittelwert: {_num(mean, 1)} Züge"))


def scores_figure(stats: GameStats) -> go.Figure:
    """Histogram: final Taler of every player, and of the winners."""
    r = stats.result
    everyone = Counter(s for rec in r.records for s in rec.scores)
    winners = Counter(rec.scores[rec.winners[0]] for rec in r.records if rec.winners)
    xs = list(range(min(everyone), max(everyone) + 1))
    total_players = sum(everyone.values())
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=xs, y=[everyone.get(x, 0) / total_players for x in xs], name="alle Personen",
        marker=dict(color="#0072B2", line=dict(color="#222", width=1)),
        hovertext=[f"{everyone.get(x, 0)}-mal {x} Taler" for x in xs], hoverinfo="text",
    ))
    fig.add_trace(go.Bar(
        x=xs, y=[winners.get(x, 0) / max(1, sum(winners.values())) for x in xs],
        name="nur die Sieger", marker=dict(color="#E69F00", pattern_shape="/",
                                           line=dict(color="#222", width=1)),
        hovertext=[f"{winners.get(x, 0)} Siege mit {x} Talern" for x in xs], hoverinfo="text",
    ))
    return charts.chart_layout(fig, "Wie viele Taler hat man am Ende?", "Taler am Spielende",
                   "Anteil", barmode="group", xaxis=dict(dtick=1),
                   yaxis=dict(tickformat=".0%"))


def seats_figure(stats: GameStats) -> go.Figure:
    """Win share per seat with ±2 standard errors and the fair share 1/players."""
    r = stats.result
    fair = 1 / r.players
    err = [2 * math.sqrt(max(w * (1 - w), 1e-12) / r.games) for w in r.win_share]
    names = stats.seat_names()
    fig = go.Figure(go.Bar(
        x=names, y=r.win_share, name="Siegquote",
        marker=dict(color=["#CC79A7"] + ["#56B4E9"] * (r.players - 1),
                    line=dict(color="#222", width=1)),
        error_y=dict(type="data", array=err, visible=True, color="#333"),
        text=[de_percent(Fraction(w).limit_denominator(10**6), 1) for w in r.win_share],
        textposition="inside", insidetextanchor="start",
        hovertext=[f"{n}: {_pct(w)} ± {_pp(e)} Prozentpunkte" for n, w, e in zip(names, r.win_share, err)],
        hoverinfo="text",
    ))
    fig.add_hline(y=fair, line=dict(color="#D55E00", dash="dash"),
                  annotation_text=f"fair: {de_percent(Fraction(1, r.players), 0)}",
                  annotation_position="top left")
    return charts.chart_layout(fig, f"Gewinnt der Startplatz öfter? (Siegquote ± 2 Standardfehler, "
                        f"{charts.int_de(r.games)} Partien)",
                   "Sitzplatz", "Siegquote", yaxis=dict(tickformat=".0%", rangemode="tozero"),
                   showlegend=False)


@guard()
def game_length(stats: GameStats) -> go.Figure:
    return turns_figure(stats)


@guard()
def scores(stats: GameStats) -> go.Figure:
    return scores_figure(stats)


@guard()
def seats(stats: GameStats) -> go.Figure:
    return seats_figure(stats)


# --------------------------------------------------------------------------- exercises


def questions(stats: GameStats | None = None) -> list[Any]:
    f = F
    qs: list[Any] = [
        NumberQuestion(
            f"Du machst {f.faktor_n}-mal so viele Durchläufe. Um welchen Faktor wird der "
            "Standardfehler kleiner?",
            answer=f.faktor_genauer.value,
            hint="Der Standardfehler ist √(p(1 − p)/n): n steht unter der Wurzel.",
            mistakes={f.faktor_n.value: "Nicht ganz: n steht unter einer Wurzel."},
            solution=f"√{f.faktor_n} = {f.faktor_genauer}: zehnmal genauer, nicht hundertmal.",
        ),
        NumberQuestion(
            f"Mit {f.durchlaeufe_viertel.int()} Durchläufen ist der Spielraum der Schätzung "
            "zu groß. Wie viele Durchläufe brauchst du für den <b>halben</b> Standardfehler?",
            answer=f.durchlaeufe.value,
            hint="Halb so großer Standardfehler heißt: √n muss doppelt so groß werden.",
            mistakes={2 * f.durchlaeufe_viertel.value: (
                "Doppelt so viele Durchläufe machen den Standardfehler nur um den Faktor "
                "√2 ≈ 1,41 kleiner.")},
            solution=(f"{f.faktor_halb}-mal so viele: {f.faktor_halb} · {f.durchlaeufe_viertel.int()} = "
                      f"{f.durchlaeufe.int()}, denn √{f.faktor_halb} = 2."),
        ),
        NumberQuestion(
            f"Bei {f.personen} Personen und einem fairen Spiel: Welche Siegquote erwartest "
            "du für jeden Platz?",
            answer=f.fair.value, tolerance=Fraction(1, 1000), probability=True,
            hint="Alle Plätze haben dieselbe Chance, und genau einer gewinnt.",
            solution=f"1/{f.personen} = {f.fair.pct(0)}.",
        ),
        ChoiceQuestion(
            f"In {f.partien} Partien gewinnt ein Platz 29 % statt 25 %. Was folgt daraus?",
            [
                "Dieser Platz hat sicher einen Vorteil.",
                "Noch nichts Sicheres: Bei dieser Zahl von Partien schwankt eine Siegquote "
                "zufällig um etwa ± 6 Prozentpunkte.",
                "Die Bots spielen falsch.",
            ],
            1,
            explanations=[
                f"4 Prozentpunkte liegen innerhalb von ±2 Standardfehlern "
                f"(≈ ±{de_number(f.zwei_se_sieg.value * 100, 1)} Prozentpunkte) – das kann Zufall sein.",
                f"2 · √(0,25 · 0,75 / {f.partien}) ≈ {f.zwei_se_sieg.dec(3)}. Für einen Beweis "
                "bräuchte man mehr Partien.",
                "Dafür gibt es keinen Hinweis – Zufall reicht als Erklärung.",
            ],
            solution=(f"±2 Standardfehler bei {f.partien} Partien: ±{f.zwei_se_sieg.pct(1)}. "
                      "29 % liegt darin – kein Beweis für einen Vorteil."),
        ),
    ]
    if stats is not None and not hasattr(stats, "data"):
        r = stats.result
        qs += [
            NumberQuestion(
                "Lies im Diagramm zur Spieldauer ab: Wie viele Züge dauerte eine Partie "
                "im Mittel?",
                answer=Fraction(r.mean_turns).limit_denominator(10**6), tolerance=1, unit="Züge",
                hint="Die gestrichelte Linie zeigt den Mittelwert.",
                solution=(f"Mittelwert aller {charts.int_de(r.games)} Partien: "
                          f"{de_number(Fraction(r.mean_turns).limit_denominator(10**6), 2)} Züge."),
            ),
            NumberQuestion(
                "Lies im Diagramm zu den Sitzplätzen ab: Wie oft hat Platz 1 gewonnen?",
                answer=Fraction(r.win_share[0]).limit_denominator(10**6),
                tolerance=Fraction(2, 100), probability=True,
                hint="Der erste Balken; die Zahl steht im Balken.",
                solution=f"Platz 1 hat {_pct(r.win_share[0])} der Partien gewonnen.",
            ),
        ]
    return qs


@guard()
def exercises(stats: GameStats | None = None):
    """The exercises of lesson 4 as the page shows them: the widgets of :func:`questions`
    (two of them read the whole-game charts)."""
    return exercise_list(questions(stats))
