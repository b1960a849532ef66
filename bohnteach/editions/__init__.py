"""Editions that plug into the game core through ``game/edition.py`` (one folder each).

Importing this package registers every edition; ``bohnteach/__init__.py`` does so first
thing, so ``find_edition(ruleset.edition)`` finds them without the core naming any.
"""
from bohnteach.editions import ladybohn  # noqa: F401 - registers "ladybohn"
from bohnteach.editions import indiana  # noqa: F401 - registers "indiana"
