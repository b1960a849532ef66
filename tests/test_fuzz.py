"""A short, seeded run of benchmarks/fuzz.py (the full run: ≥ 100,000 actions, see its
docstring): mixed legal, illegal and malformed actions in every rule set and player
count, tampered save files and scene texts — no invariant break, no foreign exception."""
from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz.py"


def _fuzz():
    spec = importlib.util.spec_from_file_location("bohnteach_fuzz", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_a_short_fuzz_run_breaks_nothing() -> None:
    fuzz = _fuzz()
    started = time.perf_counter()
    report = fuzz.run(actions=3000, saves=150, scenes=150, seed=11)
    assert time.perf_counter() - started < 60 * 3  # ≤ 60 s on an idle machine; shared ones are slower
    assert report.breaks == {} and report.foreign == {}, report.examples
    assert report.actions["legal applied"] > 1000
    assert report.actions["illegal refused"] > 500 and report.actions["malformed refused"] > 200
    assert report.saves["refused"] > 100 and report.scenes["refused"] > 50
    assert report.scenes["loaded, holds"] > 10


def test_the_fuzzer_sees_a_broken_invariant() -> None:
    """The checks can fail: a state with a card in two zones and a float id is reported."""
    fuzz = _fuzz()
    from bohnteach.game.engine import new_game

    s = new_game("amigo", 4, seed=1)
    s.players[0].hand.append(s.players[1].hand[0])
    s.players[2].hand[0] = float(s.players[2].hand[0])
    report = fuzz.Report()
    fuzz.check_state(s, report, "test")
    assert report.breaks["card in two zones"] == 1
    assert report.breaks["card id not a plain int"] == 1
    assert not report.ok
