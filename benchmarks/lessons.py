"""Speed of the lesson simulations; prints figures (not a test).

    python3 benchmarks/lessons.py

1. 10,000 simulated two-card reveals (target < 1 s).
2. 1,000 full 4-player games with bots via ``bohnteach.maths.simulate.run_games`` (target < 10 s).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from bohnteach.maths.montecarlo import Runs, simulate_reveal  # noqa: E402
from bohnteach.maths.probability import Pile, p_in_reveal, percent  # noqa: E402


def verdict(seconds: float, target: float) -> str:
    return "ok" if seconds < target else "ZU LANGSAM"


def bench_reveals(trials: int = 10_000, repeat: int = 5) -> float:
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        est = simulate_reveal("Gartenbohne", Pile("amigo", 4), Runs(trials, seed=i))
        times.append(time.perf_counter() - start)
    exact = p_in_reveal("Gartenbohne")
    line = (
        f"{trials:,} Zwei-Karten-Aufdeckungen: {min(times):.4f} s (bestes von {repeat}), "
        f"{max(times):.4f} s (langsamstes) – Ziel < 1 s: {verdict(max(times), 1.0)}"
    )
    print(line.replace(",", ".", 1))
    print(f"  Schätzung {percent(est.estimate, 2)}, exakt {percent(exact, 2)}")
    return max(times)


def bench_games(games: int = 1_000) -> float | None:
    import importlib

    try:
        simulate = importlib.import_module("bohnteach.maths.simulate")
    except ModuleNotFoundError as err:
        if err.name != "bohnteach.maths.simulate":
            raise  # the module exists but something it needs is missing: show it
        simulate = None
    run_games = getattr(simulate, "run_games", None)
    if run_games is None:
        print(f"{games:,} ganze Partien: übersprungen – bohnteach.maths.simulate.run_games gibt es "
              "noch nicht".replace(",", ".", 1))
        return None
    start = time.perf_counter()
    result = run_games(ruleset="amigo", players=4, games=games, seed=0, bots=None)
    seconds = time.perf_counter() - start
    print(
        f"{games:,} ganze Partien (Amigo, 4 Personen, Bots): {seconds:.2f} s – Ziel < 10 s: "
        f"{verdict(seconds, 10.0)}".replace(",", ".", 1)
    )
    print(f"  Ergebnis: {result!r}"[:300])
    return seconds


def main() -> int:
    bench_reveals()
    bench_games()
    return 0


if __name__ == "__main__":
    sys.exit(main())
