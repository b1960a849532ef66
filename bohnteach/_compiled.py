"""An optional mypyc build of the hot modules (the engine's speed); pure Python is the default.

    make fast                                   # = python -m bohnteach._compiled build
    python -m bohnteach._compiled update        # build only if missing or stale (make test)
    BOHNTEACH_COMPILED=1 python benchmarks/engine.py

``build`` compiles ``MODULES`` with mypyc (the ``fast`` extra) into ``.compiled/`` beside
the package (a checkout or editable install) and records a hash of each source. With the
environment variable ``BOHNTEACH_COMPILED=1`` the package's ``__init__`` calls
``activate``: the compiled modules are imported instead of the ``.py`` files – only if
every hash still matches, so an edited source is never shadowed by a stale build (it warns
and stays pure Python). Without the variable nothing of the build is ever imported.

Not compiled: ``game/actions.py`` (its NamedTuples get their ``__eq__``/``__hash__`` set
after the class is made, which compiled functions do not bind) and ``game/edition.py``
(editions subclass it in interpreted code).
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

MODULES = (
    "bohnteach/game/beans.py",
    "bohnteach/game/rulesets.py",
    "bohnteach/game/state.py",
    "bohnteach/game/engine.py",
    "bohnteach/maths/bots.py",
    "bohnteach/maths/simulate.py",
)
ROOT = Path(__file__).resolve().parents[1]
"""The folder that holds the package (a checkout, or site-packages)."""
BUILD = ROOT / ".compiled"
STAMP = BUILD / "sources.json"
ENV = "BOHNTEACH_COMPILED"


def _hashes() -> dict[str, str]:
    return {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}


def build() -> None:
    """Compile ``MODULES`` into ``BUILD`` (a copy of the sources, so the checkout keeps no
    ``.so`` files that would shadow its ``.py`` files)."""
    sources = _hashes()  # of the files compiled, even if one is edited meanwhile
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.copytree(  # the package's Python files: mypyc reads their types
        ROOT / "bohnteach", BUILD / "bohnteach",
        ignore=lambda folder, names: [
            n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()
        ] + ["__pycache__"],
    )
    subprocess.run([sys.executable, "-m", "mypyc", *MODULES], cwd=BUILD, check=True)
    for path in sorted(BUILD.rglob("*"), reverse=True):  # keep only the compiled modules
        if path.is_file() and not path.name.endswith(".so"):
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    shutil.rmtree(BUILD / "build", ignore_errors=True)
    STAMP.write_text(json.dumps(sources, indent=1))


def missing() -> str | None:
    """Why the build cannot be used („kein Build“, „veraltet“), or None when it is current."""
    try:
        built = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return f"kein Build in {BUILD} (make fast)"
    if built != _hashes():
        return f"der Build in {BUILD} ist veraltet (make fast)"
    return None


def activate() -> bool:
    """Import the compiled modules from now on (call before any of them is imported).
    Returns False, with a warning, when there is no build or it is stale."""
    why = missing()
    if why:
        warnings.warn(f"{ENV}: {why} – reines Python", stacklevel=2)
        return False
    import bohnteach.game
    import bohnteach.maths

    sys.path.insert(0, str(BUILD))  # mypyc's shared support module
    for package in (bohnteach.game, bohnteach.maths):
        sub = BUILD / package.__name__.replace(".", "/")
        package.__path__.insert(0, str(sub))  # type: ignore[attr-defined]
    return True


def compiled() -> bool:
    """Whether the engine in use is the compiled one (benchmarks print it)."""
    from bohnteach.game import engine

    return not engine.__file__.endswith(".py")


if __name__ == "__main__":
    if sys.argv[1:] == ["build"]:
        build()
    elif sys.argv[1:] == ["update"]:  # make test: build only when there is no current build
        if missing():
            build()
    else:
        sys.exit("usage: python -m bohnteach._compiled build|update")
