"""The package built as an index gets it: ``python -m build`` once per test run, shared by
the tests that check the distribution (test_release.py) and install it (test_installed_browser.py)."""
from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def built_dist() -> Path:
    """A folder with the sdist and the wheel of the working tree (built in isolation:
    pyproject's build backend from PyPI, as on a release)."""
    out = Path(tempfile.mkdtemp(prefix="bohnteach-dist-"))
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True, timeout=900)
    return out


def wheel() -> Path:
    [found] = built_dist().glob("bohnteach-*.whl")
    return found
