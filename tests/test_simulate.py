"""run_games and ``bohnteach simulate``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bohnteach.cli import main
from bohnteach.maths.simulate import GameRecord, SimulationResult, run_games

ROOT = Path(__file__).resolve().parents[1]


def comparable(result: SimulationResult) -> dict:
    data = result.to_dict()
    for timing in ("seconds", "games_per_second"):
        data.pop(timing)
    return data


def test_result_fields():
    r = run_games(ruleset="amigo", players=4, games=12, seed=0, bots=None)
    assert isinstance(r, SimulationResult)
    assert (r.ruleset, r.players, r.games, r.seed) == ("amigo", 4, 12, 0)
    assert r.bots == ["random"] * 4
    assert r.seconds > 0 and r.games_per_second == pytest.approx(12 / r.seconds)
    assert len(r.records) == 12 and all(isinstance(g, GameRecord) for g in r.records)
    for g in r.records:
        assert g.turns > 0 and g.actions >= g.turns
        assert len(g.scores) == 4 and g.winners and set(g.winners) <= {0, 1, 2, 3}
        assert all(g.scores[w] == max(g.scores) for w in g.winners)
    assert r.mean_turns == pytest.approx(sum(g.turns for g in r.records) / 12)
    assert r.turns == [g.turns for g in r.records]
    assert r.scores == [g.scores for g in r.records]
    assert len(r.mean_scores) == 4
    assert r.mean_scores[1] == pytest.approx(sum(g.scores[1] for g in r.records) / 12)
    assert len(r.win_share) == 4 and sum(r.win_share) == pytest.approx(1.0)
    assert all(0 <= w <= 1 for w in r.win_share)


def test_shared_wins_are_split():
    r = run_games("online", 3, games=30, seed=2, bots="planter")
    expected = [0.0, 0.0, 0.0]
    for g in r.records:
        for w in g.winners:
            expected[w] += 1 / len(g.winners) / 30
    assert r.win_share == pytest.approx(expected)


def test_deterministic_for_a_seed():
    a = run_games("amigo", 4, games=8, seed=5, bots=["trader", "random", "planter", "random"])
    b = run_games("amigo", 4, games=8, seed=5, bots=["trader", "random", "planter", "random"])
    assert comparable(a) == comparable(b)
    c = run_games("amigo", 4, games=8, seed=6, bots=["trader", "random", "planter", "random"])
    assert [g.scores for g in c.records] != [g.scores for g in a.records]


def test_bots_argument_forms():
    assert run_games("online", 6, games=2, bots="trader").bots == ["trader"] * 6
    assert run_games("amigo", 3, games=2, bots="planter,random,trader").bots == ["planter", "random", "trader"]
    assert run_games("amigo", 3, games=2, bots=["Random"]).bots == ["random"] * 3


def test_progress_callback():
    seen = []
    run_games("amigo", 4, games=7, seed=1, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) == 7


@pytest.mark.parametrize("kwargs,match", [
    ({"ruleset": "schach"}, "Unbekanntes Regelwerk"),
    ({"players": 6}, "für 6 Personen"),
    ({"players": 2}, "für 2 Personen"),
    ({"bots": ["random", "genius"]}, "Bots für 4 Personen"),
    ({"bots": "genius"}, "Unbekannter Bot"),
    ({"games": 0}, "Mindestens eine Partie"),
])
def test_bad_arguments_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_games(**{"games": 2, **kwargs})


def test_cli_table(capsys):
    assert main(["simulate", "--games", "5", "--seed", "3", "--bots", "trader,random,random,random"]) == 0
    out = capsys.readouterr().out
    assert "Partien/s" in out and "Züge pro Partie" in out
    assert "Taler (Mittel)" in out and "Siege" in out
    lines = out.splitlines()
    assert any(line.split()[:3] == ["1", "Anna", "trader"] for line in lines if line.strip())
    assert sum(" % " in line or line.endswith("%") for line in lines) == 4


def test_cli_json(capsys):
    assert main(["simulate", "--ruleset", "online", "--players", "6", "--games", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "online" and data["players"] == 6 and data["games"] == 3
    assert len(data["mean_scores"]) == 6 and sum(data["win_share"]) == pytest.approx(1)
    assert data["games_per_second"] > 0 and data["mean_turns"] > 0
    assert len(data["records"]) == 3 and set(data["records"][0]) >= {"turns", "scores", "winners"}


@pytest.mark.parametrize("args,word", [
    (["--ruleset", "schach"], "Regelwerk"),
    (["--players", "6"], "6 Personen"),
    (["--bots", "genius"], "Unbekannter Bot"),
    (["--bots", "random,random"], "2 Bots für 4 Personen"),
    (["--games", "0"], "--games"),
])
def test_cli_bad_arguments(capsys, args, word):
    assert main(["simulate", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and word in lines[0] and "Traceback" not in captured.err


def test_cli_meters_from_a_file(capsys, tmp_path):
    mine = tmp_path / "meine_karten.toml"
    mine.write_text("Schlangenbohne = [3, 6, 8, 10]\nBuschbohne = [5, 8, 10, 12]\n", "utf-8")
    assert main(["simulate", "--ruleset", "indiana", "--games", "2", "--bots", "trader",
                 "--meters", str(mine)]) == 0
    assert "Bohnometer: Werte aus meine_karten.toml" in capsys.readouterr().out
    mine.write_text("Schlangenbohne = [3, 6, 8, 10]\n", "utf-8")
    assert main(["simulate", "--ruleset", "indiana", "--games", "2", "--json", "--meters", str(mine)]) == 0
    assert "weiterhin angenommen: Buschbohne" in json.loads(capsys.readouterr().out)["meters"]


@pytest.mark.parametrize("text,word", [
    ("Schlangenbohne = [3, 6, 8]", "genau 4 Werte"),
    ("Blaue Bohne = [", "Kein gültiges TOML"),
    ('"Blaue Bohne" = [4, 6, 8, 10]', "nur für Schlangenbohne und Buschbohne"),
    (None, "gibt es nicht"),
])
def test_cli_bad_meter_file_one_german_line(capsys, tmp_path, text, word):
    mine = tmp_path / "meine_karten.toml"
    if text is not None:
        mine.write_text(text + "\n", "utf-8")
    assert main(["simulate", "--ruleset", "indiana", "--meters", str(mine)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and word in lines[0] and "meine_karten.toml" in lines[0]


def test_cli_subprocess_exit_codes():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run(
        [sys.executable, "-m", "bohnteach.cli", "simulate", "--games", "2", "--json"],
        check=False, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["games"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "bohnteach.cli", "simulate", "--ruleset", "amigo", "--players", "7"],
        check=False, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and "7 Personen" in bad.stderr
