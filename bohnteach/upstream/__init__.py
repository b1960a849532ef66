"""The one boundary to upstream projects: every patch, subclass and private access of a
third-party package lives in one adapter module here, one per upstream project.

Each adapter names the versions it was checked against (``CHECKED``, the exact pins in
pyproject.toml) and has a ``check()`` that looks at everything it touches (attributes,
signatures, file patterns, versions) and returns what it found changed, one German line
each. ``bohnteach serve`` and ``bohnteach build-static`` run the checks of their adapters
first (:func:`refusal`) and refuse to start with one line naming package and version.
docs/upstream.md lists every contact point, why it exists, the test that guards it and
what to do at an upgrade; tests/test_upstream_boundary.py keeps private names of
third-party packages inside this folder.

The adapters import nothing of bohnteach (import-linter contract in pyproject.toml) and
their upstream packages only inside functions: a kernel that imports the widgets does not
pay for Voilà.
"""
from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path

#: The adapters' JavaScript: page scripts (``page``), Pyodide's (``pyodide``), JupyterLite's.
JS = Path(__file__).with_name("js")

#: The adapters ``bohnteach serve`` checks (the Voilà server and its kernels).
SERVE = ("jupyter", "voila", "ipywidgets", "plotly")
#: The adapters ``bohnteach build-static`` checks (Voici, JupyterLite, Pyodide in the browser).
STATIC = ("jupyterlite", "pyodide", "ipywidgets", "plotly")


def installed(package: str) -> str | None:
    """The installed version of distribution ``package``, or None."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def same_series(version: str | None, checked: str) -> bool:
    """Whether ``version`` is in the series (major.minor) of the ``checked`` version."""
    if version is None:
        return False
    return version.split(".")[:2] == checked.split(".")[:2]


def problem(package: str, what: str) -> str:
    """One line of a failed self-check: the package with its installed version, what changed."""
    return f"{package} {installed(package) or '(nicht installiert)'}: {what}"


def version_problems(checked: dict[str, str], exact: dict[str, str] | None = None) -> list[str]:
    """A line for each package of ``checked`` (name → version checked against) that is
    missing or installed in another series; for a package of ``exact`` (name → why), in
    another version at all: newer patch releases of those are known to break the site."""
    found = []
    for name, version in checked.items():
        have = installed(name)
        if exact and name in exact and have != version:
            found.append(problem(name, f"nur {version} ist geprüft: {exact[name]}"))
        elif not same_series(have, version):
            found.append(problem(name, f"geprüft ist {version} (bohnteach/upstream; docs/upstream.md)"))
    return found


def notes(adapters: Iterable[str]) -> list[str]:
    """The packages of the named adapters installed in another version than checked (within
    the series, which the checks let pass)."""
    found = []
    for name in adapters:
        checked = getattr(importlib.import_module(f"{__name__}.{name}"), "CHECKED", {})
        found += [f"ungeprüft: {package} {installed(package)} (geprüft {version})"
                  for package, version in checked.items()
                  if installed(package) not in (None, version)]
    return found


def problems(adapters: Iterable[str]) -> list[str]:
    """Every problem the ``check()`` of the named adapters finds."""
    found: list[str] = []
    for name in adapters:
        module = importlib.import_module(f"{__name__}.{name}")
        try:
            found += module.check()
        except Exception as error:  # noqa: BLE001 - a check that breaks is a finding, not a crash
            package = next(iter(getattr(module, "CHECKED", {name: ""})))
            found.append(problem(package, f"Selbstprüfung gescheitert ({type(error).__name__}: {error})"))
    return found


def refusal(adapters: Iterable[str]) -> str | None:
    """The one line a command refuses to start with, or None when every check passes."""
    found = problems(adapters)
    if not found:
        return None
    more = f" (und {len(found) - 1} weitere: docs/upstream.md)" if len(found) > 1 else ""
    return f"Abbruch – eine Abhängigkeit hat sich geändert: {found[0]}{more}"


def main() -> int:
    """``python -m bohnteach.upstream [adapter …]``: every problem of the named adapters
    (default: all), one a line; exit code 1 if there is one (``make upgrade-check``).
    ``--refusal adapter …``: only the one line a command refuses to start with, exit code 2."""
    import sys

    if sys.argv[1:2] == ["--refusal"]:
        line = refusal(sys.argv[2:])
        if line is not None:
            print(line)
        return 0 if line is None else 2
    names = sys.argv[1:] or list(dict.fromkeys(SERVE + STATIC))
    found = problems(names)
    for line in notes(names) + found:
        print(line)
    if not found:
        print(f"Selbstprüfungen bestanden: {', '.join(names)}")
    return 1 if found else 0


def script(path: str) -> str:
    """The text of an adapter's script (``js/<path>``): a page script, a worker's part, a
    Node program."""
    return (JS / path).read_text("utf-8")


def script_path(path: str) -> Path:
    """The file of an adapter's script (``js/<path>``), for a program that runs it (Node)."""
    return JS / path


def wrapped(config: Mapping[str, object], *parts: str, head: str = "") -> str:
    """One script of the ``parts`` (paths under ``js/``) in one strict function, where
    ``CONFIG`` is ``config`` (as JSON, safe inside an HTML ``<script>``): parameters are
    data, never formatted into code. ``head``: a comment before the function."""
    data = json.dumps(dict(config), ensure_ascii=False).replace("</", "<\\/")
    body = "\n".join(script(part) for part in parts)
    return f'{head}(function () {{\n"use strict";\nvar CONFIG = {data};\n{body}}})();\n'


def page_scripts() -> dict[str, str]:
    """The page scripts that reach into Voilà's, JupyterLite's or plotly.js's page (``js/page``,
    by name without ``.js``), which the site's template puts into every page."""
    return {path.stem: path.read_text("utf-8") for path in sorted((JS / "page").glob("*.js"))}
