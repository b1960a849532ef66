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


# ---- no import cycles, imports inside functions included ---------------------------------


def _module_names(root: Path) -> dict[str, Path]:
    names = {}
    for path in (root / "bohnteach").rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package modules it imports anywhere in its code (at top level, inside
    functions and methods); ``if TYPE_CHECKING:`` blocks are left out, they never run.
    ``from a import b`` counts as an import of ``a.b`` when that is a module, else of ``a``."""
    modules = _module_names(root)

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        unrun = {
            id(inner) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for child in node.body for inner in ast.walk(child)
        }
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in unrun:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                targets = [f"{module}.{alias.name}" for alias in node.names] or [module]
            else:
                continue
            for target in targets:
                found = known(target) if target.startswith("bohnteach") else None
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(cycles)


def test_no_import_cycle_even_through_imports_inside_functions():
    """None at all: a State shows as a table through a formatter the render layer registers
    (``render.table.show_states_as_tables``), so the core has no display hook; the server and
    what it installs into Voilà name pages through ``site.addresses``."""
    assert import_cycles(import_graph()) == []


def test_the_cycle_walk_sees_imports_inside_functions(tmp_path: Path):
    """The walk above can fail: a circle closed by an import inside a function is found,
    one closed only under ``TYPE_CHECKING`` is not (it never runs)."""
    pkg = tmp_path / "bohnteach"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from bohnteach import b\n")
    (pkg / "b.py").write_text("def f():\n    from bohnteach.a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bohnteach import a\n")
    (pkg / "d.py").write_text("from . import c\n")
    graph = import_graph(tmp_path)
    assert graph["bohnteach.d"] == {"bohnteach.c"}
    assert import_cycles(graph) == [["bohnteach.a", "bohnteach.b"]]


def test_the_edition_contracts_list_every_edition_folder():
    """A new edition folder joins the contracts: independent of the others, its rules half
    (``rules.py`` and the other modules the core calls) kept apart from its teaching half."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    folders = sorted(
        f"bohnteach.editions.{p.name}" for p in (ROOT / "bohnteach" / "editions").iterdir()
        if (p / "__init__.py").exists()
    )
    independent = next(c for c in contracts if c["type"] == "independence")
    assert sorted(independent["modules"]) == folders
    rules_half = next(c for c in contracts if c["name"].startswith("An edition's rules half"))
    assert all(f"{folder}.rules" in rules_half["source_modules"] for folder in folders)
    assert all(f"{folder}.{half}" in rules_half["forbidden_modules"] for folder in folders
               for half in ("cases", "teaching"))


def test_a_state_left_as_a_cells_result_shows_as_its_table():
    """What ``State._repr_html_`` did, without the core importing the renderer: the render
    layer registers IPython's HTML formatter for ``State``."""
    from IPython.core.interactiveshell import InteractiveShell

    from bohnteach import new_game
    from bohnteach.render.table import render_table, show_states_as_tables

    shell = InteractiveShell.instance()
    try:
        state = new_game("amigo", 4, seed=1)
        show_states_as_tables()
        data, _ = shell.display_formatter.format(state)
        assert data["text/html"] == render_table(state)
        assert not hasattr(state, "_repr_html_")
    finally:
        InteractiveShell.clear_instance()
