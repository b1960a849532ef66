"""Which third-party modules a notebook's code can import, read from the sources.

The static build (``bohnteach build-static``) preloads for every page only the packages
its code can reach, so a page without charts does not unpack plotly in the browser.
Reading whole modules is too coarse: ``bohnteach.site.pages`` imports the chart code
lazily, inside the one function that draws a chart, and every page imports ``pages``.
So reachability is followed per *definition*: a module's top-level code, and each of its
top-level functions and classes (a class as a whole, every method included).

A definition reaches what its code names: the modules its imports load (function bodies
included: a lazy import still runs on the click that needs it), the functions and classes
of its own module it names, and ``module.name`` or ``from module import name`` of another
bohnteach module. That is an over-approximation at function level (a function that is
named counts as called), never an under-approximation, as long as the code does not
import by computed names (``importlib.import_module``). bohnteach does so in one place,
``bohnteach/teaching.py``, for an edition's parts that import no third-party package
(``tests/test_editions.py`` checks it), so the reach stays right.
"""
from __future__ import annotations

import ast
import functools
import importlib.util
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: The package whose modules are followed; every other import counts as third-party.
OWN = "bohnteach"

#: A definition: (module, top-level name), the name ``None`` for the module's own code.
Unit = tuple[str, str | None]


@dataclass
class _Refs:
    """What one piece of code names: modules it imports, and names it reads."""

    modules: set[str] = field(default_factory=set)
    from_names: set[tuple[str, str]] = field(default_factory=set)  # from m import n
    names: set[str] = field(default_factory=set)  # bare names read
    attrs: set[tuple[str, str]] = field(default_factory=set)  # x.y with x a bare name
    bindings: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """Import-bound names: ``import a.b as x`` → (a.b, None); ``from m import n`` → (m, n)."""


@dataclass
class _Module:
    top: _Refs
    defs: dict[str, _Refs]


def _absolute(module: str | None, level: int, package: str) -> str:
    if not level:
        return module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - level + 1])
    return f"{base}.{module}" if module else base


def _collect(nodes: Iterable[ast.AST], package: str) -> _Refs:
    refs = _Refs()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    refs.modules.add(alias.name)
                    if alias.asname:
                        refs.bindings[alias.asname] = (alias.name, None)
                    else:
                        top = alias.name.split(".")[0]
                        refs.bindings[top] = (top, None)
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(node.module, node.level, package)
                refs.modules.add(module)
                for alias in node.names:
                    refs.from_names.add((module, alias.name))
                    refs.bindings[alias.asname or alias.name] = (module, alias.name)
            elif isinstance(node, ast.Name):
                refs.names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                refs.attrs.add((node.value.id, node.attr))
    return refs


def _split(source: str, package: str) -> _Module:
    """A module's top-level code and each top-level definition's code, apart."""
    tree = ast.parse(source)
    top: list[ast.AST] = []
    defs: dict[str, _Refs] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # decorators, defaults, bases and annotations run when the module loads
            top.extend(getattr(stmt, "decorator_list", []))
            if isinstance(stmt, ast.ClassDef):
                top.extend([*stmt.bases, *stmt.keywords])
            else:
                top.extend([*stmt.args.defaults, *stmt.args.kw_defaults])
            defs[stmt.name] = _collect([stmt], package)
        else:
            top.append(stmt)
    return _Module(top=_collect([n for n in top if n is not None], package), defs=defs)


@functools.lru_cache(maxsize=None)
def _find(name: str) -> tuple[Path, bool] | None:
    """(source file, is package) of one of bohnteach's modules, without importing it."""
    if name != OWN and not name.startswith(OWN + "."):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin), spec.submodule_search_locations is not None


@functools.lru_cache(maxsize=None)
def _module(name: str) -> _Module | None:
    found = _find(name)
    if found is None:
        return None
    path, is_pkg = found
    package = name if is_pkg else name.rpartition(".")[0]
    return _split(path.read_text("utf-8"), package)


class _Walk:
    def __init__(self) -> None:
        self.seen: set[Unit] = set()
        self.todo: list[tuple[_Refs, str | None]] = []  # (code, its module; None: notebook)
        self.third_party: set[str] = set()
        self.third_party_modules: set[str] = set()  # as imported: ``plotly.graph_objects``

    def module(self, name: str) -> None:
        """Importing ``a.b.c`` runs ``a``, ``a.b`` and ``a.b.c``."""
        parts = name.split(".")
        if parts[0] != OWN:
            self.third_party.add(parts[0])
            self.third_party_modules.add(name)
            return
        for i in range(1, len(parts) + 1):
            self.unit((".".join(parts[:i]), None))

    def unit(self, unit: Unit) -> None:
        if unit in self.seen:
            return
        self.seen.add(unit)
        name, attr = unit
        mod = _module(name)
        if mod is None:
            return
        if attr is None:
            self.todo.append((mod.top, name))
        elif attr in mod.defs:
            self.todo.append((mod.defs[attr], name))
        elif attr in mod.top.bindings:  # a name the module imported: follow it there
            self.binding(mod.top.bindings[attr])

    def binding(self, target: tuple[str, str | None]) -> None:
        module, attr = target
        if attr is None:
            self.module(module)
        elif _find(f"{module}.{attr}") is not None:
            self.module(f"{module}.{attr}")
        else:
            self.module(module)
            self.unit((module, attr))

    def code(self, refs: _Refs, module: str | None) -> None:
        bindings = dict(refs.bindings)
        if module is not None:
            mod = _module(module)
            assert mod is not None
            bindings = {**mod.top.bindings, **bindings}
        for name in refs.modules:
            self.module(name)
        for target in refs.from_names:
            self.binding(target)
        for name in refs.names:
            if module is not None and name in _module(module).defs:  # type: ignore[union-attr]
                self.unit((module, name))
            elif name in bindings:
                self.binding(bindings[name])
        for base, attr in refs.attrs:
            target = bindings.get(base)
            if target is None:
                continue
            mod_name = target[0] if target[1] is None else f"{target[0]}.{target[1]}"
            if _find(mod_name) is not None:
                self.binding((mod_name, attr))

    def run(self) -> set[str]:
        while self.todo:
            self.code(*self.todo.pop())
        return self.third_party


def _walked(sources: Iterable[str]) -> _Walk:
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except SyntaxError:  # e.g. a cell magic; it imports nothing of ours
            continue
    walk = _Walk()
    walk.todo.append((_collect(trees, ""), None))
    walk.run()
    return walk


def notebook_sources(path: Path) -> list[str]:
    """The code cells of the notebook at ``path``, the sources the functions below read."""
    nb = json.loads(path.read_text("utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


def reached_top_levels(sources: Iterable[str]) -> set[str]:
    """Top-level names of the modules that ``sources`` (a notebook's code cells, run as
    one script) can import, bohnteach's own followed per definition; ``bohnteach`` itself
    is among them whenever it is imported."""
    walk = _walked(sources)
    own = {OWN} if any(name == OWN for name, _ in walk.seen) else set()
    return walk.third_party | own


def reached_modules(sources: Iterable[str]) -> set[str]:
    """The full names of the modules ``sources`` can import, as :func:`reached_top_levels`
    follows them: bohnteach's own (``bohnteach.site.app``) and the others as their code
    names them (``plotly.graph_objects``)."""
    walk = _walked(sources)
    own = {name for name, attr in walk.seen if attr is None and _find(name) is not None}
    return own | walk.third_party_modules
