"""Scenes: table situations from the rulebooks, written as text files (``docs/scenes.md``).

    from bohnteach.content.scenes import list_scenes, get_scene
    for scene in list_scenes("Phase 1"): print(scene.id, scene.title)
    scene = get_scene("handelsfall"); scene.state_at(2)
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from bohnteach.content.scenes.model import CHAPTERS, Expectation, Scene, Step, StepResult, chapter_title


def scene_files() -> list[Path]:
    """The scene files shipped with the package, sorted by name."""
    folder = resources.files("bohnteach.content.scenes").joinpath("files")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".scene"))


@lru_cache(maxsize=1)
def _catalogue() -> tuple[Scene, ...]:
    from bohnteach.content.scenes.loader import load_scene

    order = {key: i for i, (key, _) in enumerate(CHAPTERS)}
    scenes = [load_scene(p) for p in scene_files()]
    return tuple(sorted(scenes, key=lambda s: (order[s.chapter_key], s.order, s.id)))


def _chapter_key(chapter: str) -> str:
    wanted = chapter.strip().casefold()
    for key, title in CHAPTERS:
        if wanted in (key, title.casefold()):
            return key
    raise KeyError(f"Unbekanntes Kapitel {chapter!r}. Möglich: " + ", ".join(t for _, t in CHAPTERS))


def list_scenes(chapter: str | None = None) -> list[Scene]:
    """The shipped scenes in site order; only one chapter's (key or German title) if given."""
    scenes = list(_catalogue())
    if chapter is None:
        return scenes
    key = _chapter_key(chapter)
    return [s for s in scenes if s.chapter_key == key]


def get_scene(scene_id: str) -> Scene:
    """The shipped scene with this id."""
    for scene in _catalogue():
        if scene.id == scene_id:
            return scene
    raise KeyError(f"Keine Szene {scene_id!r}. Bekannt: " + ", ".join(s.id for s in _catalogue()))


def __getattr__(name: str):  # lazy, so that importing the model stays light
    if name in ("load_scene", "parse_scene", "SceneFormatError"):
        from bohnteach.content.scenes import loader

        return getattr(loader, name)
    if name == "check_main":
        from bohnteach.content.scenes.check import check_main

        return check_main
    raise AttributeError(name)


__all__ = [
    "CHAPTERS", "Expectation", "Scene", "SceneFormatError", "Step", "StepResult",
    "chapter_title", "check_main", "get_scene", "list_scenes", "load_scene", "parse_scene",
    "scene_files",
]
