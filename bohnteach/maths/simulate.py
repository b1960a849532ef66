"""Whole games played by bots, for lessons and the ``bohnteach simulate`` command.

    >>> r = run_games("amigo", players=4, games=100, seed=0, bots=["trader", "random", "random", "random"])
    >>> r.games_per_second, r.mean_turns, r.mean_scores, r.win_share
    >>> [g.scores for g in r.records]        # per game, e.g. for a histogram

The same ``seed`` gives the same games (game seeds and bot seeds are derived from it);
only ``seconds`` differs between runs. Seat 0 starts every game (``start_player=0``), so
``win_share`` also shows what the seat order is worth.
"""
from __future__ import annotations

import gc
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from bohnteach.game.actions import Accept
from bohnteach.maths.bots import BOTS, Bot, make_bot
from bohnteach.game.engine import DEFAULT_NAMES, actor, apply_legal, new_game
from bohnteach.game.rulesets import RuleSet, find_ruleset, load_ruleset_with_meters
from bohnteach.game.state import Phase

MAX_ACTIONS: Final = 50_000
"""Safety net: a game with more actions than this is a bug (a bot that never stops)."""

BotSpec = str | Callable[[int], Bot]


@dataclass
class GameRecord:
    """One finished game."""

    seed: int
    turns: int
    actions: int
    trades: int
    scores: list[int]
    winners: list[int]


@dataclass
class SimulationResult:
    ruleset: str
    players: int
    bots: list[str]
    seed: int
    games: int
    seconds: float
    records: list[GameRecord] = field(repr=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def mean_turns(self) -> float:
        return sum(r.turns for r in self.records) / len(self.records)

    @property
    def mean_actions(self) -> float:
        return sum(r.actions for r in self.records) / len(self.records)

    @property
    def mean_trades(self) -> float:
        return sum(r.trades for r in self.records) / len(self.records)

    @property
    def mean_scores(self) -> list[float]:
        """Mean coins per seat."""
        n = len(self.records)
        return [sum(r.scores[i] for r in self.records) / n for i in range(self.players)]

    @property
    def win_share(self) -> list[float]:
        """Share of games won per seat; a shared win (the engine lists several winners)
        counts 1/k for each of the k winners, so the shares add up to 1."""
        share = [0.0] * self.players
        for r in self.records:
            for w in r.winners:
                share[w] += 1 / len(r.winners)
        return [x / len(self.records) for x in share]

    @property
    def turns(self) -> list[int]:
        return [r.turns for r in self.records]

    @property
    def scores(self) -> list[list[int]]:
        return [r.scores for r in self.records]

    def to_dict(self, records: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "mean_turns": self.mean_turns,
            "mean_actions": self.mean_actions,
            "mean_trades": self.mean_trades,
            "mean_scores": self.mean_scores,
            "win_share": self.win_share,
        }
        if records:
            data["records"] = [asdict(r) for r in self.records]
        return data

    def table(self) -> str:
        """A small German summary table."""
        title = find_ruleset(self.ruleset).title
        lines = [
            f"{title} · {self.players} Personen · {_int(self.games)} Partien · Seed {self.seed}",
            f"Tempo: {_num(self.games_per_second, 1)} Partien/s ({_num(self.seconds, 2)} s)",
            f"Züge pro Partie im Mittel: {_num(self.mean_turns, 1)} · "
            f"Tausche pro Partie im Mittel: {_num(self.mean_trades, 1)}",
            "",
        ]
        names = DEFAULT_NAMES
        header = ("Sitz", "Name", "Bot", "Taler (Mittel)", "Siege")
        rows = [
            (str(i + 1), names[i] if i < len(names) else f"P{i + 1}", self.bots[i],
             _num(self.mean_scores[i], 2), f"{_num(100 * self.win_share[i], 1)} %")
            for i in range(self.players)
        ]
        widths = [max(len(r[k]) for r in (header, *rows)) for k in range(len(header))]
        right = {0, 3, 4}
        for row in (header, *rows):
            cells = [c.rjust(w) if k in right else c.ljust(w) for k, (c, w) in enumerate(zip(row, widths))]
            lines.append("  ".join(cells).rstrip())
        lines.append("Sitz 1 beginnt jede Partie; Gleichstand nach den Regeln des Regelwerks.")
        return "\n".join(lines)


def _num(x: float, digits: int) -> str:
    return f"{x:.{digits}f}".replace(".", ",")


def _int(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _bot_specs(bots: Sequence[BotSpec] | str | None, players: int) -> list[BotSpec]:
    if bots is None:
        specs: list[BotSpec] = ["random"]
    elif isinstance(bots, str):
        specs = [b for b in (x.strip() for x in bots.split(",")) if b]
    else:
        specs = list(bots)
    if not specs:
        raise ValueError("Keine Bots angegeben.")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(
            f"{len(specs)} Bots für {players} Personen: gib einen Bot für alle oder genau "
            f"{players} an."
        )
    for spec in specs:
        if isinstance(spec, str):
            make_bot(spec)  # raises ValueError with the known names
        elif not callable(spec):
            raise ValueError(f"Bot {spec!r} ist weder ein Name ({', '.join(BOTS)}) noch aufrufbar.")
    return specs


def _bot_name(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return spec.strip().lower()
    return str(getattr(spec, "name", getattr(spec, "__name__", "bot")))


def run_games(
    ruleset: str | RuleSet = "amigo",
    players: int = 4,
    games: int = 100,
    seed: int = 0,
    bots: Sequence[BotSpec] | str | None = None,
    progress: Callable[[float], Any] | None = None,
) -> SimulationResult:
    """Play ``games`` whole games with bots (one bot name per seat; ``None`` = all
    ``random``; one name = every seat). Deterministic for ``seed``.

    Raises ``ValueError`` (German, one line) for an unknown rule set or bot, a player
    count the rule set has no rules for, or fewer than one game.
    """
    rules = find_ruleset(ruleset)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"Personenzahl muss eine ganze Zahl sein, nicht {players!r}.")
    rules.for_players(players)  # ValueError: no rules for this player count
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"Mindestens eine Partie, nicht {games!r}.")
    specs = _bot_specs(bots, players)
    seeder = random.Random(f"bohnteach-simulate:{seed}")
    records: list[GameRecord] = []
    every = max(1, games // 100)
    over = Phase.OVER
    collecting = gc.isenabled()
    gc.disable()  # games build no reference cycles; the collector would only scan the heap
    start = time.perf_counter()
    try:
        for g in range(games):
            game_seed = seeder.getrandbits(32)
            seat_bots = [
                make_bot(spec, game_seed * 8 + i) if isinstance(spec, str) else spec(game_seed * 8 + i)
                for i, spec in enumerate(specs)
            ]
            records.append(play_game(rules, players, game_seed, seat_bots, over))
            if progress is not None and ((g + 1) % every == 0 or g + 1 == games):
                progress((g + 1) / games)
    finally:
        if collecting:
            gc.enable()
    seconds = time.perf_counter() - start
    return SimulationResult(
        ruleset=rules.name, players=players, bots=[_bot_name(s) for s in specs], seed=seed,
        games=games, seconds=seconds, records=records,
    )


def play_game(
    rules: str | RuleSet, players: int, seed: int, bots: Sequence[Bot], _over: Phase = Phase.OVER
) -> GameRecord:
    """One game from ``new_game(rules, players, seed)`` to the end; bots by seat."""
    s = new_game(rules, players, seed=seed)
    actions = trades = 0
    accept = Accept  # one global look-up per game, not one per action
    while s.phase is not _over:
        p: int = actor(s)  # type: ignore[assignment]  # None only once the game is over
        action = bots[p].choose(s, p)
        apply_legal(s, action)  # a bot's choice is legal (Bot.choose checks it): no second check
        actions += 1
        if type(action) is accept:
            trades += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"Partie (Seed {seed}) endet nicht nach {MAX_ACTIONS} Aktionen.")
    return GameRecord(seed, s.turn, actions, trades, list(s.scores or ()), list(s.winners or ()))


# ---- command line ------------------------------------------------------------------------
def simulate_main(args: Any) -> int:
    """``bohnteach simulate``: table (or ``--json``); bad arguments → one line, exit 2."""
    try:
        rules = find_ruleset(args.ruleset)
        if getattr(args, "meters", None):  # MeterFileError is a ValueError: one line, exit 2
            rules = load_ruleset_with_meters(rules, args.meters)
        rules.for_players(args.players)
        if args.games < 1:
            raise ValueError(f"--games muss mindestens 1 sein, nicht {args.games}.")
        specs = _bot_specs(args.bots, args.players)
    except ValueError as error:
        print(f"bohnteach simulate: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    result = run_games(rules, args.players, args.games, args.seed, specs)
    meters = rules.meter_source and (rules.meter_assumption or rules.meter_source)  # the user's file
    if getattr(args, "json", False):
        print(json.dumps(result.to_dict() | ({"meters": meters} if meters else {}), ensure_ascii=False))
    else:
        print(result.table() + (f"\nBohnometer: {meters}" if meters else ""))
    return 0


__all__ = ["GameRecord", "SimulationResult", "play_game", "run_games", "simulate_main"]
