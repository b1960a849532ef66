"""The optional mypyc build (``bohnteach/_compiled.py``) is used only on request and only
while it matches the sources; the pure-Python package is the default."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bohnteach import _compiled


def test_pure_python_is_the_default():
    env = {k: v for k, v in os.environ.items() if k != _compiled.ENV}
    out = subprocess.run(
        [sys.executable, "-c", "import bohnteach._compiled as c; print(c.compiled())"],
        env=env, capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == "False"


def test_no_build_or_a_stale_one_is_never_imported(tmp_path, monkeypatch):
    monkeypatch.setattr(_compiled, "STAMP", tmp_path / "sources.json")
    with pytest.warns(UserWarning, match="kein Build"):
        assert _compiled.activate() is False
    stale = _compiled._hashes()
    stale[_compiled.MODULES[0]] = "0" * 64  # a source edited after the build
    (tmp_path / "sources.json").write_text(json.dumps(stale))
    with pytest.warns(UserWarning, match="veraltet"):
        assert _compiled.activate() is False


CONTRACT_TESTS = [
    "tests/test_boundaries.py", "tests/test_beans.py", "tests/test_fuzz.py",
    "tests/test_properties.py::test_check_never_raises_on_garbage",
    "tests/test_rules_phases.py::test_setup_deal_one_card_at_a_time",
    "tests/test_bots.py::test_registry_and_make_bot",
    "tests/test_rules_variants.py::test_online_six_players_deal_3_4_5_6_one_at_a_time",
    "tests/test_indiana.py::test_visit_refused_out_of_turn_phase_offer_or_unknown_stack",
    "tests/test_ladybohn.py::test_user_meter_file_partial_german_names_and_dashes",
]
"""Tests of the input contract (only the project's own errors, never a TypeError) and of
behaviour where mypyc differs from CPython (typed arguments, class docstrings)."""


def test_the_compiled_build_keeps_the_input_contract():
    """With a current build (make fast) the contract tests pass in the compiled build too:
    mypyc checks typed arguments itself, so public entry points take ``object``."""
    why = _compiled.missing()
    if why:
        pytest.skip(why)
    env = {**os.environ, _compiled.ENV: "1", "PYTHONPATH": str(_compiled.ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         *CONTRACT_TESTS],
        cwd=_compiled.ROOT, env=env, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stdout[-3000:]
