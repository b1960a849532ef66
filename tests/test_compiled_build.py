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
