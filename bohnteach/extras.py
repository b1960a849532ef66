"""The package's extras (pyproject.toml) and the one German line for a missing one.

``pip install bohnteach`` brings what a teacher's own notebook needs: engine, scenes,
widgets, charts, lessons. The rest comes by purpose: ``[site]`` (``bohnteach serve``: Voilà,
the fork server), ``[klasse]`` (the class room's store and QR code), ``[static]``
(``bohnteach build-static``). A feature whose extra is missing says so in one line, on the
command line (:func:`require`, ``bohnteach.cli``) and on a page (:func:`missing_extra`, read by
``render.failure.friendly_message`` for an ``ImportError`` of one of these modules).

Imports nothing: the command line asks before it imports the feature.
"""
from __future__ import annotations

import importlib.util

#: Each extra and the modules whose absence means it is not installed (top-level names).
EXTRAS: dict[str, tuple[str, ...]] = {
    "site": ("voila", "jupyter_server", "jupyter_client", "ipykernel", "setproctitle"),
    "klasse": ("sqlalchemy", "psycopg", "segno"),
    "static": ("voici_core", "jupyterlite_core", "jupyterlite_pyodide_kernel", "voila"),
}

#: What a page calls a feature whose extra is missing (the command line names its command).
FEATURES = {
    "site": "die Lernseite",
    "klasse": "den Klassenraum",
    "static": "den statischen Bau",
}

MISSING = "Für {feature} fehlt das Extra [{extra}]: pip install 'bohnteach[{extra}]'"


class MissingExtra(ImportError):
    """A feature was asked for whose extra is not installed; ``str()`` is the German line."""

    def __init__(self, extra: str, feature: str | None = None) -> None:
        self.extra = extra
        self.message = MISSING.format(feature=feature or FEATURES[extra], extra=extra)
        super().__init__(self.message)


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def require(extra: str, feature: str | None = None) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` is there.
    ``feature``: what the line names (``"`bohnteach serve`"``; default: :data:`FEATURES`)."""
    if missing_modules(extra):
        raise MissingExtra(extra, feature)


def missing_extra(error: BaseException) -> str | None:
    """The German line for an ``ImportError`` of a module that belongs to an extra, else
    ``None`` (the error is something else)."""
    if isinstance(error, MissingExtra):
        return error.message
    if not isinstance(error, ImportError) or not error.name:
        return None
    top = error.name.split(".")[0]
    for extra, modules in EXTRAS.items():
        if top in modules:
            return MISSING.format(feature=FEATURES[extra], extra=extra)
    return None


__all__ = ["EXTRAS", "FEATURES", "MISSING", "MissingExtra", "missing_extra", "missing_modules", "require"]
