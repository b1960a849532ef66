"""``bohnteach scene check FILE…``: play scene files through the engine and report.

Exit 0 when every step and expectation of every file holds; otherwise one line per
problem (``file:line: Schritt n („…“): why``) and exit 1. Never a traceback: anything
that goes wrong with a file is reported as a problem of that file.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bohnteach.content.scenes.loader import SceneFormatError, load_scene
from bohnteach.content.scenes.model import Scene


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    reason: str
    step: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}"


def _step_label(scene: Scene, index: int) -> str:
    step = scene.steps[index - 1]
    what = f" („{step.text}“)" if step.text else ""
    return f"Schritt {index}{what}"


def check_scene(scene: Scene) -> list[Problem]:
    """Everything in ``scene`` that does not hold, in file order."""
    problems: list[Problem] = []
    path = scene.path or scene.id
    initial = scene.state_at(0)
    for e in scene.setup_expect:
        why = e.check(initial)
        if why:
            problems.append(Problem(path, e.line, f"Aufbau: {e.text}: {why}", 0))
    for step in scene.steps:
        i = step.index
        label = _step_label(scene, i)
        result = scene.result_at(i)
        if result.error:
            problems.append(Problem(path, step.line, f"{label}: Fehler in der Engine: {result.error}", i))
        elif step.action is not None:
            r = result.refusal
            if step.refused and r is None:
                problems.append(Problem(
                    path, step.line, f"{label}: sollte mit {step.refused} abgelehnt werden, "
                    "die Engine hat den Zug aber erlaubt.", i))
            elif step.refused and r is not None and r.rule_id != step.refused:
                problems.append(Problem(
                    path, step.line, f"{label}: abgelehnt mit {r.rule_id} statt {step.refused}: "
                    f"{r.message}", i))
            elif not step.refused and r is not None:
                problems.append(Problem(
                    path, step.line, f"{label}: von der Engine abgelehnt: {r.message} "
                    "(ist das ein Fehler-Schritt? Dann „Abgelehnt: <Regel-ID>“ angeben.)", i))
        for e in step.expect:
            try:
                why = e.check(result.state)
            except Exception as error:  # noqa: BLE001 - report, never crash
                why = f"nicht prüfbar ({type(error).__name__}: {error})"
            if why:
                problems.append(Problem(path, e.line, f"{label}: {e.text}: {why}", i))
    return problems


def check_file(path: str | Path) -> list[Problem]:
    """Load and check one file; a malformed file is one problem, never an exception."""
    try:
        scene = load_scene(path)
    except SceneFormatError as error:
        return [Problem(error.path, error.line, error.reason)]
    except Exception as error:  # noqa: BLE001
        return [Problem(str(path), 0, f"unerwarteter Fehler beim Lesen: {type(error).__name__}: {error}")]
    try:
        return check_scene(scene)
    except Exception as error:  # noqa: BLE001
        return [Problem(str(path), 0, f"unerwarteter Fehler beim Prüfen: {type(error).__name__}: {error}")]


def check_main(files: list[str], out: TextIO | None = None) -> int:
    """Check every file; print problems (or a short OK per file). 0 = all good, 1 = not."""
    out = out or sys.stdout
    if not files:
        print("Keine Szenendatei angegeben.", file=out)
        return 1
    bad = 0
    for name in files:
        problems = check_file(name)
        if problems:
            bad += 1
            for problem in problems:
                print(problem, file=out)
        else:
            print(f"{name}: in Ordnung", file=out)
    if bad:
        print(f"{bad} von {len(files)} Szenendatei(en) mit Problemen.", file=out)
        return 1
    return 0


__all__ = ["Problem", "check_file", "check_main", "check_scene"]
