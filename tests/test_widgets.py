"""ScenePlayer and TryIt, headless: programmatic clicks, no browser."""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

import bohnteach as b  # noqa: E402
from bohnteach.content.tryit_case import TryItCase  # noqa: E402
from bohnteach.game.errors import find_rule  # noqa: E402
from bohnteach.content.tryit_cases import CASES, get_case  # noqa: E402
from bohnteach.widgets.tryit import TryIt, make_tryit  # noqa: E402
from bohnteach.widgets.failure import guard, setup_server_log  # noqa: E402
from bohnteach.widgets.scene_player import ScenePlayer  # noqa: E402


def text(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S).replace("<wbr>", "")
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def control(tryit: TryIt, label: str) -> Any:
    for w in walk(tryit.controls):
        if (getattr(w, "description", None) or "").removeprefix("✓ ") == label:
            return w
    raise KeyError(f"{label!r} not among {[getattr(w, 'description', '') for w in walk(tryit.controls)]}")


# ---- a minimal scene (the protocol) and a real one -------------------------------------------
@dataclass
class MiniStep:
    action: Any
    narration: str
    rules: tuple[str, ...] = ()
    source: str = ""
    refused: str | None = None


@dataclass
class MiniScene:
    title: str
    initial: b.State
    steps: list[MiniStep] = field(default_factory=list)


@pytest.fixture
def mini() -> MiniScene:
    s = b.new_game("amigo", ["Anna", "Ben", "Clara"], seed=3)
    second = s.players[0].hand[1]
    return MiniScene("Phase 1 zum Anschauen", s, [
        MiniStep(b.Plant(0, 0), "Anna pflanzt ihre vorderste Karte.", ("p1.plant-front",), "A"),
        MiniStep(b.Plant(0, 1, s.players[0].hand[2]), "Darf sie die dritte Karte nehmen? Nein.",
                 ("p1.plant-front",), refused="p1.plant-front"),
        MiniStep(None, "Nur eine Erklärung."),
        MiniStep(b.EndPlanting(0), "Anna hört auf."),
    ]) if second is not None else None


def test_scene_player_steps_and_back(mini):
    p = ScenePlayer(mini)
    assert "Schritt 0 / 4" in text(p.label.value)
    start = p.table.value
    assert p.prev_button.disabled and not p.next_button.disabled
    p.next_button.click()
    assert "Schritt 1 / 4" in text(p.label.value)
    assert p.table.value != start
    assert "bt-changed" in p.table.value.split("</style>")[1]
    assert "Anna pflanzt ihre vorderste Karte." in text(p.narration.value)
    assert "p1.plant-front" in text(p.narration.value)
    assert find_rule("p1.plant-front").title in text(p.narration.value)
    p.first_button.click()
    assert "Schritt 0 / 4" in text(p.label.value) and p.table.value == start
    p.last_button.click()
    assert "Schritt 4 / 4" in text(p.label.value) and p.next_button.disabled


def test_scene_player_mistake_step_shows_refusal(mini):
    p = ScenePlayer(mini)
    p.go(1)
    after_first = p.table.value
    p.next_button.click()
    out = text(p.feedback.value)
    assert "Nicht erlaubt" in out and "p1.plant-front" in out
    assert "Ein Fehler, den man oft macht" in text(p.narration.value)
    # the table is the one before the refused step, without marks
    assert p._frames[2].state == p._frames[1].state
    body = p.table.value.split("</style>")[1]
    assert "bt-changed" not in body and "bt-zchanged" not in body
    assert text(after_first).replace("neu", "") == text(p.table.value).replace("neu", "")
    p.next_button.click()
    assert p.feedback.value == ""


def test_scene_player_on_a_shipped_scene_is_fast():
    scenes = pytest.importorskip("bohnteach.content.scenes")
    scene = scenes.list_scenes()[0]
    p = ScenePlayer(scene)
    times = []
    for _ in range(len(scene.steps)):
        t = time.perf_counter()
        p.next_button.click()
        times.append(time.perf_counter() - t)
    assert max(times) < 0.15
    assert f"Schritt {len(scene.steps)} / {len(scene.steps)}" in text(p.label.value)
    assert p.feedback.value == "" or "Nicht erlaubt" in text(p.feedback.value)


def test_scene_player_shows_the_handelsfall_mistake():
    from bohnteach.content.scenes import get_scene

    scene = get_scene("q-handelsfall")
    p = ScenePlayer(scene)
    mistakes = [s.index for s in scene.steps if s.refused]
    assert mistakes
    p.go(mistakes[0])
    assert "Nicht erlaubt" in text(p.feedback.value)
    refused = scene.steps[mistakes[0] - 1].refused
    assert f'data-rule="{refused}"' in p.feedback.value and refused in text(p.feedback.value)


def test_scene_player_flags_a_mistake_the_engine_allows(mini):
    mini.steps[0].refused = "p1.plant-front"  # wrong on purpose: the step is legal
    p = ScenePlayer(mini)
    p.next_button.click()
    assert "bt-box bt-error" in p.feedback.value and "Szene passt nicht" in text(p.feedback.value)


# ---- TryIt --------------------------------------------------------------------------------
def test_refused_move_explained_and_state_unchanged():
    t = TryIt(get_case("p1-vorderste"))
    before = t.state.copy()
    table = t.table.value
    control(t, "Hand 2: Blaue Bohne").value = True
    control(t, "Auf Feld 1 pflanzen").click()
    out = text(t.feedback.value)
    assert "Nicht erlaubt" in out and "vorderste Karte" in out and "p1.plant-front" in out
    assert t.state == before and t.table.value == table
    assert t.history == [("Anna pflanzt Blaue Bohne auf Feld 1", True)]
    assert "abgelehnt" in text(t.log_box.value)


def test_choosing_a_card_marks_its_legal_fields():
    """Two steps on the board: tap a card, the fields it may go onto are marked (class,
    tooltip and words); a card that may go nowhere marks none, and says so."""
    t = TryIt(get_case("p1-vorderste"))
    tiles = {f"Feld {k + 1}": tile for k, tile in enumerate(t._tiles)}
    assert not any("bt-target" in tile._dom_classes for tile in tiles.values())
    front = control(t, "Hand 1: Feuerbohne (vorne)")
    assert {"bt-pick", "bt-v-chili"} <= set(front._dom_classes)
    front.value = True
    assert "bt-picked" in front._dom_classes and front.description.startswith("✓ ")
    assert [name for name, tile in tiles.items() if "bt-target" in tile._dom_classes] == ["Feld 2"]
    plant2 = control(t, "Auf Feld 2 pflanzen")
    assert "bt-target" in plant2._dom_classes and "hier pflanzbar" in plant2.tooltip
    assert "hier pflanzbar" in text(tiles["Feld 2"].children[1].value)
    assert "bt-target" not in control(t, "Auf Feld 1 pflanzen")._dom_classes
    assert "Pflanzbar auf Feld 2" in text(t.pick_status.value)
    front.value = False
    control(t, "Hand 2: Blaue Bohne").value = True  # not in front: no field is legal
    assert not any("bt-target" in tile._dom_classes for tile in tiles.values())
    assert "auf keinem Feld pflanzbar" in text(t.pick_status.value)


def test_wrong_field_is_clickable_refused_and_the_table_stays():
    t = TryIt(get_case("p1-vorderste"))
    before = t.state.copy()
    control(t, "Hand 1: Feuerbohne (vorne)").value = True
    control(t, "Auf Feld 1 pflanzen").click()  # not marked, still clickable
    assert "Nicht erlaubt" in text(t.feedback.value) and "field.one-variety" in text(t.feedback.value)
    assert t.state == before and not t.solved
    assert control(t, "Hand 1: Feuerbohne (vorne)").value  # still chosen: try another field
    assert "bt-target" in t._tiles[1]._dom_classes
    control(t, "Auf Feld 2 pflanzen").click()
    assert t.state.players[0].fields[1][-1] == before.players[0].hand[0]


def test_after_a_refusal_the_next_tap_replaces_the_chosen_card():
    """Issue 34 §2: the Blue Bean is refused on field 1 (it is not in front); tapping the
    front card then chooses that one instead of both, the status line says so, and field
    2 takes it – no „Eine Karte, bitte“."""
    t = TryIt(get_case("p1-vorderste"))
    control(t, "Hand 2: Blaue Bohne").value = True
    control(t, "Auf Feld 1 pflanzen").click()
    assert "p1.plant-front" in text(t.feedback.value)
    assert "Gewählt: Hand 2: Blaue Bohne." in text(t.pick_status.value)  # kept: try another field
    control(t, "Hand 1: Feuerbohne (vorne)").value = True
    assert not control(t, "Hand 2: Blaue Bohne").value
    assert t._selected == {t.state.players[0].hand[0]}
    status = text(t.pick_status.value)
    assert "Gewählt: Hand 1: Feuerbohne (vorne). Pflanzbar auf Feld 2." == status
    front = t.state.players[0].hand[0]
    control(t, "Auf Feld 2 pflanzen").click()
    assert "Eine Karte, bitte" not in text(t.feedback.value)
    assert t.state.players[0].fields[1][-1] == front and t.history[-1] == (
        "Anna pflanzt Feuerbohne auf Feld 2", False)


def test_a_tap_on_a_card_of_the_board_before_the_redraw_counts_on_the_new_one():
    """A tap that reaches the kernel from a toggle the last redraw replaced (the learner
    was quicker than the browser) picks the card on the board as it is now: shown ✓,
    and still one card at a time."""
    t = TryIt(get_case("p1-vorderste"))
    old_front = control(t, "Hand 1: Feuerbohne (vorne)")
    control(t, "Hand 2: Blaue Bohne").value = True
    control(t, "Auf Feld 1 pflanzen").click()  # refused: the board is drawn anew
    assert control(t, "Hand 1: Feuerbohne (vorne)") is not old_front
    old_front.value = True
    front = control(t, "Hand 1: Feuerbohne (vorne)")
    assert front.value and "bt-picked" in front._dom_classes
    assert not control(t, "Hand 2: Blaue Bohne").value
    assert t._selected == {t.state.players[0].hand[0]}


def test_trading_choice_says_what_the_card_does_in_a_trade():
    """Issue 34 §4: in phase 2 a chosen card is for an offer – the status line says what
    it can do in the deal, never where it could be planted; a field's card may be tried
    and is called what it is (not for trading)."""
    t = TryIt(get_case("p2-aufgedeckt-loswerden"))
    control(t, "aufgedeckt: Blaue Bohne").value = True
    status = text(t.pick_status.value)
    assert "pflanzbar" not in status and "probier es trotzdem" not in status
    assert status.startswith("Gewählt: aufgedeckt: Blaue Bohne. Im Handel kannst du sie anbieten")
    assert "als Geschenk" in status and "aufgedeckte Karte, die du behältst" in status
    control(t, "Hand 3: Stinkbohne").value = True  # an offer may hold several cards
    assert control(t, "aufgedeckt: Blaue Bohne").value
    status = text(t.pick_status.value)
    assert "Blaue Bohne, Hand 3: Stinkbohne" in status and "sie zusammen anbieten" in status
    assert not any("bt-target" in tile._dom_classes for tile in t._tiles)
    u = TryIt(get_case("handel-tausch"))
    control(u, "Feld 1: Sojabohne").value = True
    status = text(u.pick_status.value)
    assert "Anbieten geht damit gerade nicht" in status and "pflanzbar" not in status


def test_own_place_is_the_board_and_other_hands_stay_face_down():
    t = TryIt(get_case("p1-vorderste"))
    table = text(t.table.value)
    assert "Anna" not in table.split("Ben", 1)[1] and "Ben" in table and "Clara" in table
    assert table.count("verdeckt") == 2  # Ben's and Clara's hands
    head = text(t.controls.children[0].children[0].value)
    assert head.startswith("Anna du ▶ am Zug") and "Phase" not in head.split("Taler")[0]


def test_correct_sequence_shows_success():
    t = TryIt(get_case("p1-vorderste"))
    control(t, "Auf Feld 2 pflanzen").click()
    assert not t.solved
    control(t, "Auf Feld 1 pflanzen").click()
    assert t.solved
    out = text(t.feedback.value)
    assert "Geschafft" in out and "Phase 1: die vorderste Karte muss aufs Feld" in out


def test_third_plant_refused_after_success():
    t = TryIt(get_case("p1-vorderste"))
    control(t, "Auf Feld 2 pflanzen").click()
    control(t, "Auf Feld 1 pflanzen").click()
    state = t.state.copy()
    control(t, "Auf Feld 3 pflanzen").click()
    assert "p1.second-optional" in text(t.feedback.value) and t.state == state


def test_harvest_protection_then_success():
    t = TryIt(get_case("ernte-bohnenschutz"))
    control(t, "Feld 1 ernten").click()
    assert "Bohnenschutzregel" in text(t.feedback.value)
    control(t, "Feld 2 ernten").click()
    control(t, "Auf Feld 2 pflanzen").click()
    assert t.solved and len(t.state.players[0].coins) == 1


def test_trade_with_toggles_and_scripted_answer():
    t = TryIt(get_case("handel-tausch"))
    control(t, "Feld 1: Sojabohne").value = True
    partner = next(w for w in walk(t.controls) if type(w).__name__ == "ToggleButtons")
    partner.value = 2  # Clara
    control(t, "Anbieten / schenken an Clara").click()
    assert "trade.no-field-cards" in text(t.feedback.value)
    blue = control(t, "aufgedeckt: Blaue Bohne")
    blue.value = True
    assert blue.description == "✓ aufgedeckt: Blaue Bohne"
    control(t, "eine Sojabohne").value = True  # her hand is secret: ask for a variety
    control(t, "Anbieten / schenken an Clara").click()
    assert ("Clara nimmt an", False) in t.history
    assert t.solved and "Geschafft" in text(t.feedback.value)


def test_exercises_keep_the_other_hands_secret():
    """As in the game, an exercise shows only the learner's hand, and the trade asks for a
    variety instead of picking a card out of a hand the learner cannot see."""
    from bohnteach.content.tryit_cases import CASES

    for case in CASES:
        state, face_up = case.build()
        if not any(line.strip().casefold().startswith("offene hände:") for line in case.table.splitlines()):
            assert face_up == (state.player_index(case.learner),), case.id
    t = TryIt(get_case("handel-tausch"))
    clara = t.state.players[2]
    table = text(t.table.value)
    assert "Sojabohne" not in table.split("Clara", 1)[1].split("David", 1)[0]  # her hand: backs
    next(w for w in walk(t.controls) if type(w).__name__ == "ToggleButtons").value = 2
    labels = [w.description for w in walk(t.controls) if hasattr(w, "description")]
    assert not [x for x in labels if x.startswith("Clara, Hand")]
    assert f"Clara hat {len(clara.hand)} Karten verdeckt auf der Hand." in text(
        next(w.value for w in walk(t.controls) if "verdeckt auf der Hand" in str(getattr(w, "value", ""))))
    control(t, "aufgedeckt: Blaue Bohne").value = True
    control(t, "eine Gartenbohne").value = True  # Clara has none
    control(t, "Anbieten / schenken an Clara").click()
    assert "Clara hat keine Gartenbohne" in text(t.feedback.value)
    assert t.state == t.initial and not t.solved


def test_gift_declined_by_scripted_player():
    t = TryIt(get_case("p2-aufgedeckt-loswerden"))
    control(t, "aufgedeckt: Blaue Bohne").value = True
    next(w for w in walk(t.controls) if type(w).__name__ == "ToggleButtons").value = 3  # David
    control(t, "Anbieten / schenken an David").click()
    assert ("David lehnt ab", False) in t.history and len(t.state.revealed) == 2


def test_phase3_and_phase4_cases():
    t = TryIt(get_case("p3-alles-pflanzen"))
    assert t.state.players[1].set_aside == []  # Ben planted his card by himself
    control(t, "Hand 1: Blaue Bohne (vorne)").value = True
    control(t, "Auf Feld 3 pflanzen").click()
    assert "p3.plant-all" in text(t.feedback.value)
    control(t, "Quer liegende Karte auf die Hand").click()
    assert "trade.set-aside" in text(t.feedback.value)
    for label, k in (("quer: Sojabohne", 1), ("aufgedeckt: Rote Bohne", 2), ("quer: Augenbohne", 3)):
        control(t, label).value = True
        control(t, f"Auf Feld {k} pflanzen").click()
    assert t.solved
    d = TryIt(get_case("p4-nachziehen"))
    control(d, "Hand sortieren").click()
    assert "hand.order" in text(d.feedback.value)
    control(d, "Nachziehen").click()
    assert d.solved and d.state.active == 1


def test_hint_and_restart():
    t = TryIt(get_case("ernte-bohnenschutz"))
    t.hint_button.click()
    assert "Tipp 1 von 3" in text(t.hint_box.value)
    t.hint_button.click()
    assert "Tipp 2 von 3" in text(t.hint_box.value)
    control(t, "Feld 2 ernten").click()
    assert t.state != t.initial
    t.restart_button.click()
    assert t.state == t.initial and t.history == [] and t.feedback.value == ""


def test_goal_by_rule_id_is_reached_by_the_refusal():
    s = b.new_game("amigo", ["Anna", "Ben", "Clara"], seed=3)
    t = TryIt(s, learner="Anna", goal="Finde heraus, was verboten ist.", rule="hand.order")
    control(t, "Hand sortieren").click()
    assert t.solved and "Die Handreihenfolge bleibt" in text(t.feedback.value)


@pytest.fixture
def widget_log(caplog, monkeypatch):
    """caplog for the guard's log, even after an in-process Jupyter app (run by other tests)
    called logging.config.dictConfig and disabled existing loggers."""
    logger = logging.getLogger("bohnteach.widgets.failure")
    monkeypatch.setattr(logger, "disabled", False)
    monkeypatch.setattr(logger, "propagate", True)
    # the guard routes the package's logs to the server log and stops them at the
    # "bohnteach" logger (propagate=False); let them reach caplog as well
    setup_server_log()
    monkeypatch.setattr(logging.getLogger("bohnteach"), "propagate", True)
    return caplog


def test_callback_that_raises_shows_error_box(widget_log):
    caplog = widget_log
    t = TryIt(get_case("p4-nachziehen"))

    def boom() -> None:
        raise ValueError("kaputt")

    t.play = lambda action: boom()  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="bohnteach.widgets.failure"):
        control(t, "Nachziehen").click()
    assert "bt-box bt-error" in t.feedback.value and "kaputt" in text(t.feedback.value)
    assert any("Nachziehen" in r.getMessage() for r in caplog.records)


def test_guard_returns_none_and_logs(widget_log):
    caplog = widget_log
    shown: list[str] = []

    @guard(shown.append, "test")
    def bad() -> None:
        raise RuntimeError("nein")

    with caplog.at_level(logging.ERROR, logger="bohnteach.widgets.failure"):
        assert bad() is None
    assert shown and "RuntimeError" in shown[0] and caplog.records


def test_scene_player_error_in_click_is_shown(mini):
    p = ScenePlayer(mini)
    p._frames[1] = None  # type: ignore[call-overload]  # break a cached frame on purpose
    p.next_button.click()
    assert "bt-box bt-error" in p.feedback.value and "Schritt 0 / 4" in text(p.label.value)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_case_starts_cleanly(case: TryItCase):
    t = TryIt(case)
    assert t.feedback.value == "" and not t.solved
    assert case.rule in b.rule_catalogue()
    assert case.hints and case.goal and case.learned


def test_make_tryit_by_chapter_and_id():
    assert isinstance(make_tryit("p4-nachziehen"), TryIt)
    box = make_tryit("phase2")
    assert len(box.children) == 2
    with pytest.raises(KeyError):
        make_tryit("gibt-es-nicht")


def test_parts_share_one_layout_and_style_per_setting():
    """Alike parts load as one model in the browser, not one each; a part closed with
    ``Widget.close_all()`` (a new page in the same kernel) is made again, not reused dead."""
    from bohnteach.widgets import parts

    a, b = parts.button("A"), parts.button("B", style="primary")
    assert a.layout is b.layout and a.style is b.style
    assert parts.html("x").layout is parts.html("y").layout
    assert parts.html("x").layout is not parts.html("y", width="100%").layout
    wide = parts.layout(width="100%")
    wide.close()
    again = parts.layout(width="100%")
    assert again is not wide and again.comm is not None
