"""A „Mach du!“ exercise as data: the situation, the goal, the rule, the scripted answers.

The widget that plays it is :class:`bohnteach.widgets.tryit.TryIt`; the cases themselves
are in :mod:`bohnteach.content.tryit_cases`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bohnteach.game.actions import Offer
from bohnteach.game.beans import find_variety
from bohnteach.game.state import State

Check = Callable[[State], bool]


@dataclass(frozen=True)
class TryItCase:
    """A ready-made exercise, as data.

    ``table``: the situation in the scene-file format (``docs/scenes.md``) without the
    ``Szene/Titel/Kapitel`` header; ``Schritt:`` lines there are played before the learner
    starts. ``success``: expectations in the scene format (``"Anna Feld 1 = 3 Blaue
    Bohnen"``) that must all hold; empty = the goal is to *find* the move the engine
    refuses with ``rule``. ``answers``: how the other players answer offers — ``"ja"``,
    ``"nein"`` or ``"wenn: Blaue Bohne, Rote Bohne"`` (yes if they get one of these).
    """

    id: str
    title: str
    chapter: str
    learner: str
    table: str
    goal: str
    rule: str
    learned: str
    hints: tuple[str, ...] = ()
    success: tuple[str, ...] = ()
    answers: Mapping[str, str] = field(default_factory=dict)

    def build(self) -> tuple[State, tuple[int, ...]]:
        """The table the learner starts from and the seats whose hands are face up: as in
        the game only the learner's own, unless the table names them (``Offene Hände:``)
        because the exercise is about seeing them."""
        from bohnteach.content.scenes import parse_scene

        head = f"Szene: tryit\nTitel: {self.title}\nKapitel: {self.chapter}\n"
        scene = parse_scene(head + self.table, f"<Mach du: {self.id}>")
        state = scene.state_at(len(scene.steps))
        named = any(line.strip().casefold().startswith(("offene hände:", "offene haende:"))
                    for line in self.table.splitlines())
        face_up = tuple(scene.face_up) if named else (state.player_index(self.learner),)
        return state, face_up

    def checker(self, state: State) -> Check | None:
        if not self.success:
            return None
        from bohnteach.content.scenes.loader import edition_zone_names, parse_expectation

        names = [p.name for p in state.players]
        zones = edition_zone_names(state.edition)
        expectations = [parse_expectation(text, names, edition_zones=zones, edition=state.edition.name) for text in self.success]
        return lambda s: all(e.check(s) is None for e in expectations)


def wants(answer: str, state: State, offer: Offer) -> bool:
    """Does a scripted player accept ``offer``? (``ja`` / ``nein`` / ``wenn: Sorte, …``)."""
    text = " ".join(answer.casefold().split())
    if text in ("ja", "immer", "annehmen"):
        return True
    if text.startswith("wenn:") or text.startswith("wenn "):
        keys = {find_variety(name.strip()).key
                for name in text.split(":", 1)[-1].replace(" und ", ",").split(",") if name.strip()}
        return any(state.variety[c] in keys for c in offer.give)
    return False


__all__ = ["Check", "TryItCase", "wants"]
