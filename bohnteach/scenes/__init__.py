"""Scenes: table situations from the rulebooks, written as text files (``docs/scenes.md``)."""
from __future__ import annotations

from .model import CHAPTERS, Expectation, Scene, Step, StepResult, chapter_title

__all__ = ["CHAPTERS", "Expectation", "Scene", "Step", "StepResult", "chapter_title"]
