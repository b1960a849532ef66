"""Every change on a scene's table is told: as far as it can be checked mechanically, a
step that changes a zone names the change in its action sentence or its text."""
from __future__ import annotations

import re

import pytest

from bohnteach.content.scenes import list_scenes
from bohnteach.game.state import State

REVEAL = re.compile(r"aufgedeckt|aufdeck|deckt\b.*?\bauf\b", re.I | re.S)
DRAW = re.compile(r"zieht|gezogen|nachzieh", re.I)
SCENES = list_scenes()


def unnarrated(said: str, before: State, after: State) -> list[str]:
    """The changes from ``before`` to ``after`` that ``said`` does not mention."""
    missing = []
    if set(after.revealed) - set(before.revealed) and not REVEAL.search(said):
        missing.append("Karten werden aufgedeckt")
    for b, a in zip(before.players, after.players):
        if (set(a.hand) - set(b.hand)) & set(before.deck) and not DRAW.search(said):
            missing.append(f"{a.name} zieht Karten")
    return missing


@pytest.mark.parametrize("scene", SCENES, ids=[s.id for s in SCENES])
def test_every_reveal_and_draw_is_narrated(scene):
    for i, step in enumerate(scene.steps):
        said = f"{step.text or ''} {step.narration}"
        missing = unnarrated(said, scene.state_at(i), scene.state_at(i + 1))
        assert not missing, f"{scene.path}:{step.line}: Schritt {i + 1} sagt nicht: {missing}"


def test_the_check_catches_a_silent_reveal():
    scene = next(s for s in SCENES if s.id == "a-phase1")
    i = next(k for k in range(len(scene.steps))
             if scene.state_at(k + 1).revealed and not scene.state_at(k).revealed)
    assert unnarrated("Anna pflanzt auf Feld 1", scene.state_at(i), scene.state_at(i + 1))


def test_start_scene_table_could_occur_in_a_game():
    """The first scene on the start page: everybody holds cards, and the others' fields
    show that they have played before."""
    scene = next(s for s in SCENES if s.id == "a-phase1")
    for p in scene.initial.players:
        assert p.hand, f"{p.name} hat keine Handkarten"
        assert any(p.fields), f"{p.name} hat noch nie gepflanzt"
