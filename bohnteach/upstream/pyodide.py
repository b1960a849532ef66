"""Pyodide in the browser (fetched from npm at the version the build names): its private
snapshot API (``_makeSnapshot``, ``_loadSnapshot``, ``py._api``), its file systems (MEMFS,
JupyterLite's DriveFS) and its lock file, which the build rewrites. The scripts that use them
are the static site's start and reader scripts (bohnteach/site/snapshot.py); this module holds
the version they were checked against."""
from __future__ import annotations

#: The Pyodide series whose private snapshot API the snapshot scripts were checked against.
CHECKED_SERIES = "0.29."
#: The lock file's fields the build rewrites (``packages``: name → file_name, sha256, …).
LOCK_FIELDS = ("info", "packages")


def check() -> list[str]:
    """Nothing installed in Python to look at: Pyodide's version is checked when the build
    fetches it (:func:`version_problem`), its lock when the build reads it (:func:`lock_problem`)."""
    return []


def version_problem(version: str) -> str | None:
    """The line that stops the build for Pyodide ``version``, or None for a checked one."""
    if version.startswith(CHECKED_SERIES):
        return None
    return (f"Pyodide {version}: das Abbild nutzt Pyodides private API, geprüft mit "
            f"{CHECKED_SERIES}x (bohnteach/upstream/pyodide.py); erst dort prüfen.")


def lock_problem(lock: dict) -> str | None:
    """The line that stops the build for a ``pyodide-lock.json`` of another shape."""
    missing = [field for field in LOCK_FIELDS if field not in lock]
    if missing or not all("file_name" in entry for entry in lock.get("packages", {}).values()):
        return f"pyodide-lock.json: andere Felder als geprüft ({', '.join(missing) or 'file_name'})"
    return None
