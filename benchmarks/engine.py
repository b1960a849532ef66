"""Speed of the rules engine; prints figures (not a test).

    python3 benchmarks/engine.py [--games 1000] [--repeat 3] [--seed 0]
    BOHNTEACH_COMPILED=1 python3 benchmarks/engine.py   # the mypyc build (make fast)

1. Whole random 4-player ``amigo`` games per second in one process, with the loop
   ``bohnteach.maths.simulate.run_games`` uses (``RandomBot`` in every seat, offers
   included; the fast path ``apply_legal``). Targets ≥ 1.000 games/s and ≥ 250.000
   decisions (applied actions) per second.
2. CPU microseconds per ``legal_actions`` call over states sampled from real games: the
   bots' call (``legal_actions(s, actor, offers=False)``) and the full listing of
   everybody's actions with offers (``legal_actions(s)``).
3. For comparison: ``check``, ``apply`` and ``apply_legal`` per action, and planter/trader
   games per second.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from bohnteach._compiled import compiled  # noqa: E402
from bohnteach.game import engine  # noqa: E402
from bohnteach.maths.bots import make_bot  # noqa: E402
from bohnteach.maths.simulate import run_games  # noqa: E402
from bohnteach.game.state import Phase  # noqa: E402

TARGET = 1000.0
TARGET_DECISIONS = 250_000.0


def num(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def bench_games(games: int, repeat: int, seed: int, bots=None) -> tuple[float, float, float, float]:
    """Best of ``repeat`` runs: games per second by the wall clock and by the CPU time of
    this process, decisions (applied actions) per CPU second, and decisions per game (the
    mean over all runs: it shows that the policy plays the same games). On a busy machine
    the wall-clock figure drops; the CPU figures are the engine's."""
    wall = cpu = decisions = 0.0
    acted_total = 0
    for i in range(repeat):
        start = time.process_time()
        r = run_games("amigo", 4, games=games, seed=seed + i, bots=bots)
        used = time.process_time() - start
        wall = max(wall, r.games_per_second)
        cpu = max(cpu, games / used if used > 0 else float("inf"))
        acted = sum(g.actions for g in r.records)
        acted_total += acted
        decisions = max(decisions, acted / used if used > 0 else float("inf"))
    return wall, cpu, decisions, acted_total / (games * repeat)


def sample_states(games: int = 20, every: int = 3, seed: int = 0) -> list:
    """State copies from random and trader games (every ``every``-th step)."""
    states = []
    for g in range(games):
        s = engine.new_game("amigo", 4, seed=seed + g)
        name = "random" if g % 2 else "trader"
        bots = [make_bot(name, g * 4 + i) for i in range(4)]
        step = 0
        while s.phase is not Phase.OVER:
            if step % every == 0:
                states.append(s.copy())
            p = engine.actor(s)
            engine.apply(s, bots[p].choose(s, p))
            step += 1
    return states


def per_call_us(fn, items: list, repeat: int = 3) -> float:
    """Best CPU microseconds per call over ``items``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return best / len(items) * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} Kerne, Last {num(load, 2)}")
    build = "mypyc-Build (.compiled/, make fast)" if compiled() else "reines Python"
    print(f"Gemessen: {build} – {engine.__file__}")
    gps, cpu, decisions, per_game = bench_games(args.games, args.repeat, args.seed)

    def verdict(x: float, target: float = TARGET) -> str:
        return "ok" if x >= target else "ZU LANGSAM"

    print(f"Zufallspartien (Amigo, 4 Personen, RandomBot), bestes von {args.repeat} × "
          f"{args.games}, Ziel ≥ {num(TARGET, 0)} Partien/s:")
    print(f"  Wanduhr:  {num(gps)} Partien/s – {verdict(gps)}")
    print(f"  CPU-Zeit: {num(cpu)} Partien/s – {verdict(cpu)}")
    print(f"  Entscheidungen: {num(decisions, 0)} pro CPU-Sekunde (Ziel ≥ {num(TARGET_DECISIONS, 0)}) – "
          f"{verdict(decisions, TARGET_DECISIONS)}; {num(per_game)} Entscheidungen pro Partie")
    if load > (os.cpu_count() or 1):
        print(f"  (die Maschine ist ausgelastet – Last {num(load, 1)} bei {os.cpu_count()} Kernen –, "
              "die Wanduhr-Zahl ist deshalb zu niedrig; ohne Last gilt etwa die CPU-Zahl)")

    states = sample_states(seed=args.seed)
    actors = [(s, engine.actor(s)) for s in states]
    bot_call = per_call_us(lambda sa: engine.legal_actions(sa[0], sa[1], offers=False), actors)
    full_call = per_call_us(engine.legal_actions, states)
    print(f"legal_actions(s, actor, offers=False): {num(bot_call, 2)} µs pro Aufruf "
          f"({len(states)} Zustände aus echten Partien)")
    print(f"legal_actions(s) (alle, mit Angeboten): {num(full_call, 1)} µs pro Aufruf")

    rng = random.Random(args.seed)
    pairs = []
    for s, p in actors:
        legal = engine.legal_actions(s, p, offers=False)
        if legal:
            pairs.append((s, rng.choice(legal)))
    check_call = per_call_us(lambda sa: engine.check(sa[0], sa[1]), pairs)

    def apply_copy(sa):
        engine.apply(sa[0].copy(), sa[1])

    copy_call = per_call_us(lambda sa: sa[0].copy(), pairs)
    def fast_copy(sa):
        engine.apply_legal(sa[0].copy(), sa[1])

    apply_call = per_call_us(apply_copy, pairs) - copy_call
    fast_call = per_call_us(fast_copy, pairs) - copy_call
    print(f"check: {num(check_call, 2)} µs, apply: {num(apply_call, 2)} µs, apply_legal: "
          f"{num(fast_call, 2)} µs pro Aktion (State.copy: {num(copy_call, 2)} µs)")

    for name in ("planter", "trader"):
        g, c, _, _ = bench_games(max(20, args.games // 10), 1, args.seed, bots=name)
        print(f"{name}-Partien (Amigo, 4 Personen): {num(g)} Partien/s (CPU-Zeit: {num(c)}/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
