"""Bot strength: mean coins and win shares of every strategy, in self-play and mixed tables.

    .venv/bin/python benchmarks/bots.py                       # 200 games per table
    .venv/bin/python benchmarks/bots.py --games 100 --only self
    /work/main/.venv/bin/python benchmarks/bots.py            # another checkout's bots

Self-play: four bots of one strategy (``bohnteach.maths.bots.BOTS``). Mixed: one bot of
strategy A among three of strategy B; the single bot sits in each of the four seats for a
quarter of the games (seat 1 starts every game), so its win share is comparable with the
fair share of 25 %. Every game is seeded (``run_games``), so the figures repeat exactly.

Targets (issue 13, section 5): the strongest strategy averages at least 13 coins in
4-player ``amigo`` self-play; in a mixed table a trading bot completes trades with
non-trading bots and wins clearly more than a quarter of the games (here: the lower end
of its 95 % interval lies above 25 %).
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import time

from bohnteach.maths.bots import BOTS
from bohnteach.maths.simulate import run_games

TARGET_SELF = 13.0
FAIR = 0.25


def self_play(strategy: str, ruleset: str, players: int, games: int, seed: int) -> tuple[float, float, float]:
    """(mean coins per player, trades per game, seconds) with every seat ``strategy``."""
    r = run_games(ruleset, players, games, seed, [strategy] * players)
    return sum(r.mean_scores) / players, r.mean_trades, r.seconds


def mixed(single: str, rest: str, ruleset: str, players: int, games: int, seed: int) -> dict[str, float]:
    """One ``single`` among ``players - 1`` ``rest`` bots, the single bot in every seat in
    turn: its mean coins, win share, the others' mean coins, and trades per game."""
    coins = wins = others = trades = 0.0
    played = 0
    per_seat = max(1, games // players)
    for seat in range(players):
        bots = [rest] * players
        bots[seat] = single
        r = run_games(ruleset, players, per_seat, seed + seat, bots)
        coins += r.mean_scores[seat] * per_seat
        wins += r.win_share[seat] * per_seat
        others += (sum(r.mean_scores) - r.mean_scores[seat]) / (players - 1) * per_seat
        trades += r.mean_trades * per_seat
        played += per_seat
    return {"coins": coins / played, "wins": wins / played, "others": others / played,
            "trades": trades / played, "games": played}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ruleset", default="amigo")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--only", choices=("self", "mixed"), default=None)
    ap.add_argument("--strategies", default=",".join(BOTS), help="comma-separated")
    args = ap.parse_args()
    names = [n for n in args.strategies.split(",") if n]
    print(f"# bots · {args.ruleset} · {args.players} players · {args.games} games per table · "
          f"seed {args.seed} · {os.cpu_count()} CPUs · Python {platform.python_version()}")
    start = time.process_time()
    best = ("", -1.0)
    if args.only in (None, "self"):
        print("\n## self-play: mean coins per player")
        print(f"{'strategy':<10} {'coins':>6} {'trades/game':>12} {'seconds':>8}")
        for name in names:
            coins, trades, secs = self_play(name, args.ruleset, args.players, args.games, args.seed)
            print(f"{name:<10} {coins:6.2f} {trades:12.1f} {secs:8.1f}")
            if coins > best[1]:
                best = (name, coins)
        verdict = "ok" if best[1] >= TARGET_SELF else "ZU SCHWACH"
        print(f"strongest: {best[0]} {best[1]:.2f} coins (target ≥ {TARGET_SELF:g}) {verdict}")
    if args.only in (None, "mixed"):
        print(f"\n## mixed: one bot among {args.players - 1} others, rotated through the seats")
        print(f"{'single':<10} {'others':<10} {'coins':>6} {'wins':>7} {'95 % interval':>15} "
              f"{'others coins':>13} {'trades/game':>12}")
        for single in names:
            for rest in names:
                if single == rest or "random" in (single, rest):
                    continue
                m = mixed(single, rest, args.ruleset, args.players, args.games, args.seed)
                half = 1.96 * math.sqrt(m["wins"] * (1 - m["wins"]) / m["games"])
                low, high = m["wins"] - half, m["wins"] + half
                mark = " clearly > 25 %" if low > FAIR else ""
                print(f"{single:<10} {rest:<10} {m['coins']:6.2f} {100 * m['wins']:6.1f}% "
                      f"{100 * low:6.1f}–{100 * high:5.1f} % {m['others']:13.2f} "
                      f"{m['trades']:12.1f}{mark}")
    print(f"\nCPU time: {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
