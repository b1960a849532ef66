"""An edition's teaching half, found by the edition's name (docs/editions.md, „Teaching“).

An edition folder ``bohnteach/editions/<name>/`` has two halves: its rules (``rules.py``
and what ``__init__.py`` registers: the part the game core calls) and its teaching
(``teaching/``: bots, charts, exact odds, the chapter page, the scene words). The layers
below the site never import an edition; where one of them needs an edition's part it
asks here, by the rule set's edition name and a part's fixed module name, as python-chess
finds a variant by name. An edition without that module (the base game, a house rule
written as a test fixture) answers ``None``, and the layer goes on without it.

=========  ====================  ===================================================
part       asked by              defines
=========  ====================  ===================================================
``bot``    ``maths.bots``        ``edition_move(s, player) -> Action | None``: the
                                 bots' move among the edition's own actions
``scenes`` ``content.scenes``    the edition's scene words: its headers,
                                 subjects and card-trait words (``scene_words``
                                 in ``content/scenes/loader.py``)
=========  ====================  ===================================================

The chapter page (``teaching/page.py``) is imported by the chapter's notebook itself.
A part loaded here imports no third-party package (the static site's reach, which reads
imports, does not follow a name; ``tests/test_architecture.py`` checks it).
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType

PARTS = ("bot", "scenes")
"""The teaching modules an edition may have that other layers load by name."""

_LOADED: dict[tuple[str, str], ModuleType | None] = {}


def teaching_part(edition: str, part: str) -> ModuleType | None:
    """The module ``bohnteach.editions.<edition>.teaching.<part>``, or None when the
    edition has none (loaded once, then remembered)."""
    key = (edition, part)
    if key not in _LOADED:
        if part not in PARTS:
            raise ValueError(f"Unbekannter Teil {part!r} (bekannt: {', '.join(PARTS)}).")
        name = f"bohnteach.editions.{edition}.teaching.{part}"
        try:
            _LOADED[key] = import_module(name)
        except ModuleNotFoundError as error:
            if error.name is None or not name.startswith(error.name):
                raise  # the part exists but one of its own imports is missing
            _LOADED[key] = None
    return _LOADED[key]


__all__ = ["PARTS", "teaching_part"]
