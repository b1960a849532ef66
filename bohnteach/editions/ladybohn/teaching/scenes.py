"""Ladybohn's scene words: how a scene file names a card's sex (docs/scenes.md); the
teaching part ``scenes`` (``bohnteach/teaching.py``) the scene loader asks.

A card in a set-up or an expectation may carry its sex in brackets after the variety,
``Feuerbohne (w)``, ``(m)``, ``(Baby)`` (the notation's words, ``Ladybohn.notation_words``);
the loader's refusals name them with these words.
"""
from __future__ import annotations

TRAIT_LABELS = ("w", "m", "Baby")
"""The bracket words a scene writes after a variety, in the order the refusals list them."""
WITHOUT_TRAIT = "haben die Bohnen kein Geschlecht"
"""What a refusal says of a rule set whose cards carry none (after „Bei „<rule set>““)."""
