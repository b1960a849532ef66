"""Monte Carlo estimates (bohnteach.maths.montecarlo) against the exact answers.

Tolerance: every estimate must lie within 4 standard errors of the exact value (for
10,000 trials and p ≈ 0.11 that is ± 0.013). The seeds are fixed, so the tests are
deterministic; the 4-SE bound documents how far a fair simulation may stray.
"""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from bohnteach.maths import probability as P
from bohnteach.maths.probability import Pile
from bohnteach.maths.montecarlo import (
    Estimate,
    Runs,
    simulate_at_least_one,
    simulate_count,
    simulate_fits_fields,
    simulate_harvest_value,
    simulate_reveal,
    simulate_wait,
)

SIGMAS = 4


def close(estimate: Estimate, exact) -> bool:
    return abs(estimate.estimate - float(exact)) <= SIGMAS * estimate.standard_error


def test_reveal_garden_matches_exact_0_1126():
    est = simulate_reveal("Gartenbohne", runs=Runs(10_000, seed=1))
    assert est.is_probability
    assert close(est, P.p_in_reveal("Gartenbohne"))
    assert est.estimate == pytest.approx(0.1126, abs=0.013)
    assert est.standard_error == pytest.approx((0.1126 * 0.8874 / 10_000) ** 0.5, rel=0.1)


def test_same_seed_same_numbers_other_seed_other_numbers():
    a = simulate_reveal("blue", runs=Runs(2_000, seed=7))
    b = simulate_reveal("blue", runs=Runs(2_000, seed=7))
    c = simulate_reveal("blue", runs=Runs(2_000, seed=8))
    assert a == b
    assert a.running != c.running


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_quantities_within_tolerance(seed):
    runs = Runs(5_000, seed)
    pile = Pile(seen={"garden": 1, "blue": 5})
    assert close(simulate_at_least_one("red", 3, pile, runs), P.p_at_least_one("red", 3, pile))
    online = Pile("online", 6)
    assert close(
        simulate_fits_fields(["soy", "red"], 2, online, runs),
        P.p_fits_fields(["soy", "red"], 2, online),
    )
    count = simulate_count("Blaue Bohne", 5, runs=runs)
    assert close(count, P.expected_count("Blaue Bohne", 5))
    exact = P.count_distribution("Blaue Bohne", 5)
    for j, p in exact.items():
        assert count.distribution.get(j, 0.0) == pytest.approx(float(p), abs=0.025)
    wait = simulate_wait("Gartenbohne", runs=runs)
    assert close(wait, P.expected_wait("Gartenbohne"))
    assert wait.distribution[1] == pytest.approx(6 / 104, abs=0.015)
    harvest = simulate_harvest_value("blue", 5, 4, runs=runs)
    assert close(harvest, P.expected_harvest_value("blue", 5, 4))


def test_small_explicit_pile_and_edge_cases():
    pile = Pile(cards={"garden": 2, "red": 3, "blue": 1})
    assert close(simulate_at_least_one("garden", 2, pile, Runs(3_000)),
                 P.p_at_least_one("garden", 2, pile))
    # certain events are simulated exactly
    assert simulate_at_least_one("garden", 5, pile, Runs(100)).estimate == 1.0
    assert simulate_count("red", 6, pile, Runs(100)).distribution == {3: 1.0}
    wait = simulate_wait("blue", Pile(cards={"blue": 1}), Runs(50))
    assert wait.estimate == 1.0 and wait.std == 0.0


def test_running_estimates_for_the_convergence_chart():
    est = simulate_reveal("garden", runs=Runs(10_000, seed=3))
    assert len(est.checkpoints) == len(est.running)
    assert list(est.checkpoints[:100]) == list(range(1, 101))  # dense start for a log axis
    assert list(est.checkpoints) == sorted(set(est.checkpoints))
    assert est.checkpoints[-1] == 10_000
    assert est.running[-1] == est.estimate
    assert len(est.running) <= 1_200
    assert all(0.0 <= r <= 1.0 for r in est.running)
    assert sum(est.distribution.values()) == pytest.approx(1.0)


def test_progress_callback_goes_from_0_to_1():
    seen: list[float] = []
    simulate_reveal("garden", runs=Runs(50_000, seed=0, progress=seen.append))
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert seen == sorted(seen)
    assert len(seen) <= 110  # about every 1 %, not on every trial


def test_ten_thousand_reveals_take_less_than_a_second():
    start = time.perf_counter()
    simulate_reveal("garden", runs=Runs(10_000, seed=0))
    assert time.perf_counter() - start < 1.0


def test_bad_input_is_refused_in_german():
    for trials in (0, 2.5, True):
        with pytest.raises(ValueError, match="Anzahl der Durchläufe muss eine ganze Zahl ≥ 1 sein"):
            Runs(trials)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Durchläufe als Runs"):
        simulate_reveal("garden", runs=500)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nie"):
        simulate_wait("garden", Pile(seen={"garden": 6}))
    with pytest.raises(ValueError, match="nur 6 Karten"):
        simulate_at_least_one("garden", 7, Pile(cards={"garden": 6}))


def test_progress_bar_widget_follows_the_callback():
    from bohnteach.widgets.progress import progress_bar

    bar = progress_bar("Simuliere …")
    simulate_reveal("garden", runs=Runs(2_000, progress=bar))
    assert bar.bar.value == 1.0
    assert bar.bar.bar_style == "success"
    assert "100 %" in bar.label.value
    assert bar.bar.description == "Simuliere …"
    bar(0.25)
    assert bar.label.value == "25 %"


def test_pure_modules_import_no_ui():
    code = (
        "import sys, bohnteach.maths.probability, bohnteach.maths.montecarlo, bohnteach.widgets.progress;"
        "print(sorted(m for m in ('plotly', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
