"""Stored lesson results (bohnteach/lessons/stored.py) are current: each one is recomputed
(about 2 s of CPU in all) and must equal its file, and the page's objects built from the
files equal the live ones."""
from __future__ import annotations

import dataclasses

from bohnteach.lessons import compute_or_simulate, stored


def test_every_stored_result_is_current():
    entries = stored.all_entries()
    assert {"04_partien_200_seed0_planter", "04_aufdecken_10000_seed1"} <= set(entries)
    assert stored.stale(entries) == [], (
        "Gespeicherte Ergebnisse veraltet: python -m bohnteach.lessons.stored --write")


def test_stored_simulations_build_what_a_live_run_gives():
    for (trials, seed), entry in compute_or_simulate.STORED_REVEALS.items():
        assert entry.load() == compute_or_simulate._simulate_estimate(trials, seed)
    live = compute_or_simulate.run_whole_games().result
    page = compute_or_simulate.STORED_GAMES.load().result
    assert page.records == live.records
    assert page.to_dict(records=False) | {"seconds": 0, "games_per_second": 0} == \
        live.to_dict(records=False) | {"seconds": 0, "games_per_second": 0}


def test_a_stale_file_is_named(tmp_path, monkeypatch):
    entry = compute_or_simulate.STORED_REVEALS[(1_000, 7)]
    fake = tmp_path / f"{entry.name}.json"
    fake.write_text('{"estimate": 0.5}', "utf-8")
    monkeypatch.setattr(stored.Stored, "path", lambda self: tmp_path / f"{self.name}.json")
    missing = dataclasses.replace(entry, name="fehlt")
    assert stored.stale({entry.name: entry, "fehlt": missing}) == [entry.name, "fehlt"]
