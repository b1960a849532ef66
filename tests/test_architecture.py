"""The package's layers hold: import-linter's contracts (pyproject.toml) and a stdlib-only core."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "bohnteach" / "game"


def test_import_contracts_are_kept():
    """`lint-imports` fails on any import that runs upward through the layers."""
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    done = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout


def test_game_core_imports_only_the_standard_library_and_itself():
    """The core runs anywhere Python runs: no third-party import, at top level or inside a function."""
    foreign = []
    for path in sorted(GAME.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "bohnteach":
                    foreign.append(f"{path.relative_to(ROOT)}: {name}")
    assert foreign == []
