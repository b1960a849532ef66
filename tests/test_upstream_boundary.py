"""The boundary to upstream: private parts of third-party packages are touched only in the
adapters of ``bohnteach/upstream/`` (docs/upstream.md), whose self-checks then name what
changed at an upgrade.

What counts, outside ``bohnteach/upstream/`` (read with ``ast``, so statically: a name is
"third-party" when it was bound by an import of a package that is neither bohnteach nor the
standard library, in the same module):

1. importing a private name or module of a third-party package:
   ``from voila.app import _x``, ``from jupyter_server._tz import utcnow``, ``import x._y``;
2. reading or writing a private attribute of a third-party name: ``widget_module._instances``,
   ``TemplateExporter._create_environment``;
3. patching third-party code: assigning to an attribute of a third-party name that holds a
   class or function there (``voila_app.TornadoVoilaHandler = …``,
   ``widgets.Output.__enter__ = …``); setting a documented value (``pio.templates.default``)
   is fine;
4. subclassing a third-party class and overriding a private (``_x``) member it has
   (``_initialize``) — overriding public methods of a documented extension point is fine;
5. the private names the adapters hold (:data:`KNOWN_PRIVATE`) as an attribute or a string
   anywhere else, whatever the value's origin (``grid._grid_ref`` on a figure);
6. JavaScript that reaches into private parts of Pyodide, JupyterLite, Voilà's page or
   plotly.js (the names in :data:`PRIVATE_JS`), in a ``.js`` file, the template or a Python
   string; such scripts live in ``bohnteach/upstream/js``.

Rules 3 and 4 import the third-party module to see what the name holds.

Not counted: names of the documented protocols that are spelled with an underscore
(:data:`PROTOCOL`: IPython's display protocol, the traits every custom ipywidget declares),
dunder names, and what a value of unknown origin carries (``self.widget._repr_mimebundle_``
is not followed to its class). Tests may look into upstream's privates to test an adapter.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "bohnteach"
ADAPTERS = PACKAGE / "upstream"
#: Underscore names that are documented public protocols, not private parts.
PROTOCOL = frozenset({
    "_repr_mimebundle_", "_repr_html_", "_ipython_display_",
    "_model_name", "_model_module", "_model_module_version",
    "_view_name", "_view_module", "_view_module_version", "_dom_classes",
})
#: Private names of third-party objects the adapters reach (rule 5).
KNOWN_PRIVATE = frozenset({
    "_pools", "_kernels", "_initialize", "_init_resources", "_create_environment", "_tz",
    "_instances", "_options_labels", "_grid_ref", "_grid_str", "_fullLayout",
})
#: Private parts of Pyodide, JupyterLite, Voilà's page and plotly.js that page and worker
#: scripts could reach (rule 6).
PRIVATE_JS = ("._api", "MEMFS", "createNode", "makeMemorySnapshot", "_makeSnapshot", "_loadSnapshot",
              "pyodide-kernel-extension/static", "update_loading_text",
              "display_cells", "voila_process", "_fullLayout", "window.Worker")
#: Known contacts outside the adapters that another part of the code base still has to
#: move (path relative to bohnteach/ → the names); empty once it has.
PENDING: dict[str, set[str]] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) \
        and name not in PROTOCOL


def _third_party(module: str | None) -> bool:
    top = (module or "").split(".")[0]
    return bool(top) and top != "bohnteach" and top not in sys.stdlib_module_names


def _names(tree: ast.AST) -> dict[str, str]:
    """Local names bound to third-party imports (→ the module they came from)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name):
                    bound[(alias.asname or alias.name).split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _third_party(node.module):
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _resolve(dotted: str) -> object:
    """The object a dotted third-party name stands for, or None if it cannot be imported."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001 - not a module (or not installed): try a shorter prefix
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def _dotted(node: ast.expr, bound: dict[str, str]) -> str:
    """``voila_app.Voila`` → ``voila.app.Voila``."""
    text = ast.unparse(node)
    head, _, rest = text.partition(".")
    return bound[head] + ("." + rest if rest else "")


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def violations(path: Path) -> list[str]:
    """Every contact with a third-party private part in the module at ``path`` (rules 1-4)."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    bound = _names(tree)
    found: list[str] = []

    def say(node: ast.AST, what: str) -> None:
        where = path.relative_to(PACKAGE.parent) if PACKAGE in path.parents else path.name
        found.append(f"{where}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name) and any(_private(p) for p in alias.name.split(".")):
                    say(node, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _third_party(node.module):
            parts = (node.module or "").split(".") + [a.name for a in node.names]
            if any(_private(p) for p in parts):
                say(node, f"from {node.module} import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Attribute) and _root(node) in bound and _private(node.attr):
            say(node, f"{ast.unparse(node)} (privat)")
        elif isinstance(node, ast.Attribute) and node.attr in KNOWN_PRIVATE:
            say(node, f"{ast.unparse(node)} (privat, bekannt)")
        elif isinstance(node, ast.Constant) and node.value in KNOWN_PRIVATE:
            say(node, f"„{node.value}“ (privat, bekannt)")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in bound \
                        and callable(_resolve(_dotted(target, bound))):
                    say(node, f"{ast.unparse(target)} = … (gepatcht)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and node.args and _root(node.args[0]) in bound:
            say(node, f"setattr({ast.unparse(node.args[0])}, …) (gepatcht)")
        if isinstance(node, ast.ClassDef):
            bases = [_resolve(_dotted(base, bound)) for base in node.bases if _root(base) in bound]
            for item in node.body:
                names = [item.name] if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) else \
                    [t.id for t in getattr(item, "targets", [getattr(item, "target", None)])
                     if isinstance(t, ast.Name)]
                for name in names:
                    if _private(name) and any(hasattr(base, name) for base in bases):
                        say(item, f"class {node.name}: {name} überschreibt Privates")
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if ADAPTERS not in p.parents)


def test_no_private_upstream_name_outside_the_adapters():
    found = []
    for path in _modules():
        pending = PENDING.get(str(path.relative_to(PACKAGE)), set())
        found += [v for v in violations(path) if not any(name in v for name in pending)]
    assert found == [], "\n".join(found)


def _strings(path: Path) -> list[str]:
    """The string constants of a Python module, without its docstrings (prose may name
    what the adapters touch)."""
    tree = ast.parse(path.read_text("utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_script_reaches_into_upstream_pages_outside_the_adapters():
    """Rule 6. The labextensions are JupyterLab's plug-in format itself (a federated container
    in ``window._JUPYTERLAB``); their contacts are rows of docs/upstream.md."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if ADAPTERS in path.parents or "labextensions" in path.parts:
            continue
        if path.suffix == ".py":
            texts = _strings(path)
        elif path.suffix in (".js", ".mjs", ".j2", ".html"):
            texts = [path.read_text("utf-8")]
        else:
            continue
        found += [f"{path.relative_to(PACKAGE.parent)}: {name}" for name in PRIVATE_JS
                  if any(name in text for text in texts)]
    assert found == [], "\n".join(found)


def test_every_script_of_the_package_is_javascript():
    """The page, worker and build scripts are files Node can parse (no JavaScript left in
    Python strings to be checked only in a browser)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    assert node, "Node fehlt (make npm)"
    scripts = sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".js", ".mjs"))
    assert len(scripts) >= 20
    failed = []
    for path in scripts:
        done = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            failed.append(f"{path.relative_to(PACKAGE.parent)}: {done.stderr.strip()[-500:]}")
    assert failed == [], "\n".join(failed)


def test_wrapped_scripts_are_javascript_too(tmp_path):
    """What the build writes from those parts (parameters as JSON config) parses as well."""
    import shutil
    import subprocess

    from bohnteach.site import snapshot, static

    for name, text in {"start.js": snapshot.start_script(), "reader.js": snapshot.reader_script(),
                       "service-worker.js": static.service_worker_script(),
                       "early.js": snapshot.page_script("p").split("<script>", 1)[1].rsplit("</script>", 1)[0],
                       "query.js": static.query_to_kernel().split("<script>", 1)[1].rsplit("</script>", 1)[0]}.items():
        path = tmp_path / name
        path.write_text(text, "utf-8")
        done = subprocess.run([shutil.which("node"), "--check", str(path)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (name, done.stderr)
        assert "%(" not in text and "CONFIG" in text


@pytest.mark.parametrize("source, expected", [
    ("from voila.app import _x", 1),
    ("from jupyter_server._tz import utcnow", 1),
    ("import jupyter_server._tz", 1),
    ("from ipywidgets.widgets import widget\nwidget._instances", 1),
    ("from voila import app\napp.TornadoVoilaHandler = object", 1),
    ("import ipywidgets as w\nsetattr(w.Output, 'clear_output', None)", 1),
    ("from voila.exporter import VoilaExporter\nclass V(VoilaExporter):\n    def _init_resources(self): pass", 1),
    ("from voila.app import Voila\nclass V(Voila):\n    def _our_own(self): pass", 0),
    ("import plotly.io as pio\npio.templates.default = 'x'", 0),
    ("def f(grid):\n    return grid._grid_ref", 1),
    ("from voila.app import Voila\nclass V(Voila):\n    def launch(self): pass", 0),
    ("import ipywidgets as w\nclass W(w.DOMWidget):\n    _view_name = 'x'", 0),
    ("from os import _exit\nimport atexit\natexit._run_exitfuncs()", 0),  # the standard library
    ("from bohnteach.site import serve\nserve._run_voila([])", 0),  # our own
    ("x = object()\nx._y", 0),
])
def test_the_rule_sees_what_it_says(tmp_path, source, expected):
    path = tmp_path / "probe.py"
    path.write_text(source, "utf-8")
    assert len(violations(path)) == expected, violations(path)
