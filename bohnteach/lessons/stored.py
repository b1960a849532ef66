"""Results a lesson would compute the same way on every visit (fixed seeds), stored as data.

A lesson page that simulates seeded games while it loads spends the same kernel time on
every visit for the same numbers (lesson 4: about 1,5 s of CPU). Such results are computed
once and kept as JSON in ``bohnteach/data/lesson_results/``; the page reads them. A lesson
module declares each one with :func:`stored` (a name, the computation, how to turn the
JSON back into the object). Buttons that run a *new* simulation still compute live.

    python -m bohnteach.lessons.stored --write   # after a change to the engine, bots, Monte Carlo
    python -m bohnteach.lessons.stored           # check only: names the stale files, exit 1

``tests/test_stored_results.py`` recomputes every entry and fails when a file is stale or
missing, so old numbers cannot stay on a page unnoticed.
"""
from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

PACKAGE = "bohnteach.data"
FOLDER = "lesson_results"


@dataclass(frozen=True)
class Stored(Generic[T]):
    """One stored result: ``compute()`` gives JSON data (dicts, lists, numbers, text),
    ``build(data)`` the object a page uses."""

    name: str
    compute: Callable[[], Any]
    build: Callable[[Any], T]

    def path(self) -> Path:
        """Where the data lives in a checkout (for writing)."""
        return Path(str(resources.files(PACKAGE))) / FOLDER / f"{self.name}.json"

    def data(self) -> Any:
        """The stored data; computed (and not written) if the file is missing."""
        try:
            text = resources.files(PACKAGE).joinpath(FOLDER).joinpath(f"{self.name}.json").read_text("utf-8")
        except FileNotFoundError:
            return self.fresh()
        return json.loads(text)

    def load(self) -> T:
        return self.build(self.data())

    def fresh(self) -> Any:
        """A new computation, in the form it has after a trip through JSON."""
        return json.loads(json.dumps(self.compute()))

    def write(self) -> None:
        self.path().parent.mkdir(parents=True, exist_ok=True)
        self.path().write_text(json.dumps(self.compute(), ensure_ascii=False, separators=(",", ":"))
                               + "\n", "utf-8")


REGISTRY: dict[str, Stored[Any]] = {}


def stored(name: str, compute: Callable[[], Any], build: Callable[[Any], T]) -> Stored[T]:
    """Declare a stored result (a lesson module does it at import; names are unique)."""
    REGISTRY[name] = entry = Stored(name, compute, build)
    return entry


def all_entries() -> dict[str, Stored[Any]]:
    """Every declared entry: imports each lesson module (they declare theirs at import)."""
    import bohnteach.lessons as lessons

    for info in pkgutil.iter_modules(lessons.__path__):
        importlib.import_module(f"{lessons.__name__}.{info.name}")
    return dict(REGISTRY)


def stale(entries: dict[str, Stored[Any]] | None = None) -> list[str]:
    """Names whose stored file is missing or differs from a fresh computation."""
    out = []
    for name, entry in (entries or all_entries()).items():
        try:
            text = entry.path().read_text("utf-8")
        except FileNotFoundError:
            out.append(name)
            continue
        if json.loads(text) != entry.fresh():
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Gespeicherte Ergebnisse der Lektionen prüfen oder neu schreiben.")
    ap.add_argument("--write", action="store_true", help="alle neu berechnen und schreiben")
    args = ap.parse_args(argv)
    entries = all_entries()
    if args.write:
        for entry in entries.values():
            entry.write()
            print(f"geschrieben: {entry.path()}")
        return 0
    old = stale(entries)
    for name in old:
        print(f"veraltet oder fehlend: {name} (neu schreiben: python -m bohnteach.lessons.stored --write)")
    if not old:
        print(f"{len(entries)} gespeicherte Ergebnisse, alle aktuell.")
    return 1 if old else 0


__all__ = ["REGISTRY", "Stored", "all_entries", "main", "stale", "stored"]

if __name__ == "__main__":
    # the package's module, not this __main__ copy: the lessons register into its REGISTRY
    from bohnteach.lessons.stored import main as package_main

    sys.exit(package_main())
