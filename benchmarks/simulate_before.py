"""`bohnteach simulate` against an earlier commit, alternating; prints figures (not a test).

    python benchmarks/simulate_before.py c47f5cb [--rounds 4] [--games 3000] [--compiled]

A change that must not slow the engine down (issue 31: "random 4-player games/s within 5 %
of before in alternating runs") is measured here: the earlier commit is checked out into a
temporary git worktree, and both trees run ``bohnteach simulate --players 4 --games N
--json`` (random bots, ``amigo``) in turn, each in a Python of its own with its tree on
``PYTHONPATH`` and the same venv, so both see the same machine load. ``--compiled`` runs
both with their mypyc builds (``BOHNTEACH_COMPILED=1``; the earlier tree's build is made
first, which takes a few minutes). Prints games/s per round, the means and the change
against the earlier commit (target: within ±5 %), with the load average beside each figure.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.05

#: runs in the measured tree: checks which package (and build) it imports, then simulates
PROBE = """
import os, sys
import bohnteach, bohnteach.game.engine as engine
tree = os.environ["PYTHONPATH"]
assert bohnteach.__file__.startswith(tree), bohnteach.__file__
assert engine.__file__.endswith(".so") == bool(os.environ.get("BOHNTEACH_COMPILED")), engine.__file__
from bohnteach.cli import main
sys.argv = ["bohnteach", "simulate", "--players", "4", "--games", sys.argv[1], "--json"]
main()
"""


def games_per_second(tree: Path, games: int, compiled: bool) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("BOHNTEACH_COMPILED", None)
    if compiled:
        env["BOHNTEACH_COMPILED"] = "1"
    done = subprocess.run([sys.executable, "-c", PROBE, str(games)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["games_per_second"]


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the earlier commit (anything git rev-parse takes)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--compiled", action="store_true", help="both trees' mypyc builds")
    args = parser.parse_args(argv)
    print(f"# simulate against {args.before} — {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"{'mypyc' if args.compiled else 'pure Python'}, load average {load()}")
    with tempfile.TemporaryDirectory(prefix="bohnteach-before-") as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(before),
                        args.before], check=True)
        try:
            if args.compiled:
                for tree in (before, ROOT):
                    subprocess.run([sys.executable, "-m", "bohnteach._compiled", "update"], cwd=tree,
                                   env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                                   capture_output=True)
            figures: dict[str, list[float]] = {"before": [], "now": []}
            for n in range(1, args.rounds + 1):
                for name, tree in (("before", before), ("now", ROOT)):
                    gps = games_per_second(tree, args.games, args.compiled)
                    figures[name].append(gps)
                    print(f"  round {n} {name:6s} {gps:7.0f} games/s  (load {load()})", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                           check=False)
    mean_before, mean_now = (statistics.mean(figures[k]) for k in ("before", "now"))
    change = mean_now / mean_before - 1
    verdict = "ok" if abs(change) <= TARGET else ("ZU LANGSAM" if change < 0 else "schneller")
    print(f"mean: before {mean_before:.0f}, now {mean_now:.0f} games/s, change {change:+.1%} "
          f"(target within ±{TARGET:.0%}) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
