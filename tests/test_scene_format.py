"""The scene file format: loader errors name file and line, expectations are checked,
the replay leaves the table unchanged on refused steps, and notation round-trips."""
from __future__ import annotations

import io

import pytest

import bohnteach as b
from bohnteach.content.scenes import get_scene, list_scenes
from bohnteach.content.scenes.check import check_file, check_main, check_scene
from bohnteach.game.notation import format_action, parse_action
from bohnteach.content.scenes.loader import SceneFormatError, parse_scene

HEADER = """\
Szene: probe
Titel: Probe
Kapitel: Phase 1
Regelwerk: amigo
Spieler: Anna, Ben, Clara, David
"""

GOOD = HEADER + """\
Startspieler: Anna
Phase: 1
Anna Hand: Blaue Bohne, Rote Bohne
Anna Feld 1: 2 Blaue Bohnen
Anna Taler: 2
Stapel: Feuerbohne, Sojabohne
Rest: Stapel gemischt
Einleitung: Erste Zeile,
  zweite Zeile.

Schritt: Anna pflanzt auf Feld 1
Text: Pflicht.
Regeln: p1.plant-front
Erwartet: Anna Feld 1 = 3 Blaue Bohnen
Erwartet: Anna Hand = Rote Bohne

Schritt: Anna erntet 2 Karten von Feld 1
Text: Geht nicht.
Abgelehnt: harvest.whole-field
Erwartet: Anna Feld 1 = 3 Blaue Bohnen

Schritt:
Text: Nur Erzählung.

Schritt: Anna pflanzt auf Feld 2
Erwartet: Phase = 2
Erwartet: Aufgedeckt = Feuerbohne, Sojabohne
"""


def test_good_scene_loads_and_holds():
    scene = parse_scene(GOOD, "probe.scene")
    assert scene.id == "probe" and scene.chapter == "Phase 1" and scene.ruleset == "amigo"
    assert scene.intro == "Erste Zeile,\nzweite Zeile."
    assert [s.index for s in scene.steps] == [1, 2, 3, 4]
    assert scene.steps[0].action == b.Plant(0, 0) and scene.steps[0].line == 16
    assert scene.steps[1].refused == "harvest.whole-field" and scene.steps[1].is_mistake
    assert scene.steps[2].is_narration and scene.steps[2].narration == "Nur Erzählung."
    assert "p1.plant-front" in scene.rules and "harvest.whole-field" in scene.rules
    assert check_scene(scene) == []


def test_every_card_is_in_exactly_one_zone():
    s = parse_scene(GOOD, "probe.scene").initial
    cards = [c for _, zone in s.zones() for c in zone]
    assert sorted(cards) == list(range(104))
    assert len(s.players[0].coins) == 2
    assert [s.variety[c] for c in s.deck[-2:]] == ["soy", "chili"]  # top = end of the list


def test_rest_can_go_to_discard_or_box():
    s = parse_scene(GOOD.replace("Rest: Stapel gemischt", "Rest: Schachtel"), "x").initial
    assert len(s.deck) == 2 and len(s.extra["box"]) == 104 - 2 - 2 - 2 - 2
    s = parse_scene(GOOD.replace("Rest: Stapel gemischt", "Rest: Ablage"), "x").initial
    assert len(s.deck) == 2 and len(s.discard) == 96


def test_replay_refused_step_leaves_table_unchanged():
    scene = parse_scene(GOOD, "probe.scene")
    states = scene.states()
    assert len(states) == len(scene.steps) + 1
    assert states[0] == scene.initial
    assert states[2] == states[1]  # the refused harvest
    assert scene.result_at(2).refusal.rule_id == "harvest.whole-field"
    assert scene.result_at(1).refusal is None and scene.result_at(1).events
    assert scene.state_at(4).phase is b.Phase.TRADE
    with pytest.raises(IndexError):
        scene.state_at(5)
    scene.state_at(1).players[0].hand.clear()  # copies: the scene stays intact
    assert scene.state_at(1).players[0].hand


# ---- malformed files: file, line and reason --------------------------------------------
@pytest.mark.parametrize("change, line, words", [
    (("Anna Feld 1: 2 Blaue Bohnen", "Anna Feld 1 2 Blaue Bohnen"), 9, ["Doppelpunkt"]),
    (("Startspieler: Anna", "Startspielr: Anna"), 6, ["Unbekannter Eintrag", "Startspielr"]),
    (("Startspieler: Anna", "Startspieler: Zora"), 6, ["Zora", "nicht am Tisch"]),
    (("Anna Hand: Blaue Bohne, Rote Bohne", "Anna Hand: Blaue Bohne, Zauberbohne"), 8, ["Zauberbohne"]),
    (("Anna Hand: Blaue Bohne, Rote Bohne", "Anna Hand: 9 Gartenbohnen"), 8, ["nur 6 Gartenbohnen"]),
    (("Anna Hand: Blaue Bohne, Rote Bohne", "Anna Hand: Kaffeebohne"), 8, ["Kaffeebohne", "nicht zum Spiel"]),
    (("Anna Feld 1: 2 Blaue Bohnen", "Anna Feld 1: Blaue Bohne, Rote Bohne"), 9, ["nur eine Sorte"]),
    (("Anna Feld 1: 2 Blaue Bohnen", "Anna Feld 3: 2 Blaue Bohnen"), 9, ["nur 2 Felder"]),
    (("Regeln: p1.plant-front", "Regeln: p1.erfunden"), 18, ["p1.erfunden"]),
    (("Abgelehnt: harvest.whole-field", "Abgelehnt: nix"), 24, ["nix"]),
    (("Schritt: Anna pflanzt auf Feld 1", "Schritt: Anna tanzt auf Feld 1"), 16, ["Schritt 1", "tanzt"]),
    (("Schritt: Anna pflanzt auf Feld 2", "Schritt: Anna schenkt Ben Kakaobohne"), 30, ["Schritt 4", "Kakaobohne"]),
    (("Erwartet: Phase = 2", "Erwartet: Phase 2"), 31, ["="]),
    (("Erwartet: Phase = 2", "Erwartet: Zora Taler = 2"), 31, ["Zora"]),
    (("Kapitel: Phase 1", "Kapitel: Phase 9"), 3, ["Kapitel"]),
    (("Regelwerk: amigo", "Regelwerk: monopoly"), 4, ["monopoly"]),
    (("Spieler: Anna, Ben, Clara, David", "Spieler: Anna, Ben"), 5, ["2 Personen"]),
    (("Phase: 1", "Phase: 7"), 7, ["Phase"]),
    (("Rest: Stapel gemischt", "Rest: Mülleimer"), 12, ["Rest"]),
    (("Text: Pflicht.", "Titel: doppelt"), 17, ["gehört nicht in einen Schritt"]),
])
def test_malformed_files_name_file_line_and_reason(change, line, words):
    old, new = change
    assert old in GOOD
    with pytest.raises(SceneFormatError) as e:
        parse_scene(GOOD.replace(old, new, 1), "kaputt.scene")
    err = e.value
    assert err.path == "kaputt.scene" and err.line == line, str(err)
    assert str(err).startswith(f"kaputt.scene:{line}: ")
    for w in words:
        assert w in str(err)


def test_missing_header_is_reported_for_the_file():
    with pytest.raises(SceneFormatError, match="Titel"):
        parse_scene("Szene: x\nKapitel: FAQ\nRegelwerk: amigo\nSpieler: A, B, C\n", "f.scene")
    with pytest.raises(SceneFormatError, match="Regelwerk"):
        parse_scene("Szene: x\nTitel: t\nKapitel: FAQ\nSpieler: A, B, C\n", "f.scene")


# ---- expectations and step outcomes are reported, with lines ---------------------------
def _problems(text: str) -> list[str]:
    return [str(p) for p in check_scene(parse_scene(text, "p.scene"))]


def test_failing_expectations_are_reported():
    bad = GOOD.replace("Erwartet: Anna Feld 1 = 3 Blaue Bohnen\nErwartet: Anna Hand",
                       "Erwartet: Anna Feld 1 = 4 Blaue Bohnen\nErwartet: Anna Hand")
    problems = _problems(bad)
    assert len(problems) == 1
    assert problems[0].startswith("p.scene:19: Schritt 1 („Anna pflanzt auf Feld 1“)")
    assert "erwartet 4 Blaue Bohnen, tatsächlich 3 Blaue Bohnen" in problems[0]


@pytest.mark.parametrize("expect, fragment", [
    ("Anna Taler = 5", "erwartet 5, tatsächlich 2"),
    ("Phase = 3", "Phase 3"),
    ("Am Zug = Ben", "Ben"),
    ("Stapel = 9 Karten", "erwartet 9"),
    ("Aufgedeckt = Rote Bohne", "Rote Bohne"),
    ("Spielende = ja", "Spielende"),
    ("Sieger = Ben", "Ben"),
    ("Durchgang = 2", "erwartet 2"),
    ("Anna Feld 1 Ertrag = 3", "erwartet 3, tatsächlich 0"),
    ("Ablage oben = Blaue Bohne", "Blaue Bohne"),
    ("Angebot = offen", "Angebot"),
    ("Anna quer = Sojabohne", "Sojabohne"),
    ("Anna Felder = 3", "erwartet 3"),
])
def test_each_kind_of_expectation_can_fail(expect, fragment):
    text = GOOD.replace("Erwartet: Phase = 2\n", f"Erwartet: {expect}\n")
    problems = _problems(text)
    assert problems and all(p.startswith("p.scene:31: Schritt 4") for p in problems)
    assert fragment in problems[0]


def test_refusal_expectations_are_checked():
    legal_but_marked = GOOD.replace("Schritt: Anna erntet 2 Karten von Feld 1", "Schritt: Anna erntet Feld 1")
    assert "sollte mit harvest.whole-field abgelehnt werden" in _problems(legal_but_marked)[0]
    wrong_id = GOOD.replace("Abgelehnt: harvest.whole-field", "Abgelehnt: harvest.protection")
    assert "abgelehnt mit harvest.whole-field statt harvest.protection" in _problems(wrong_id)[0]
    unmarked = GOOD.replace("Abgelehnt: harvest.whole-field\n", "")
    assert "von der Engine abgelehnt" in _problems(unmarked)[0]
    assert _problems(unmarked)[0].startswith("p.scene:22:")


def test_check_main_reports_and_never_raises(tmp_path):
    good = tmp_path / "gut.scene"
    good.write_text(GOOD, encoding="utf-8")
    bad = tmp_path / "kaputt.scene"
    bad.write_text(GOOD.replace("Anna Taler: 2", "Anna Taler: zwei Bohnen?"), encoding="utf-8")
    binary = tmp_path / "binär.scene"
    binary.write_bytes(b"\xff\xfe\x00")
    out = io.StringIO()
    assert check_main([str(good)], out=out) == 0
    out = io.StringIO()
    assert check_main([str(good), str(bad), str(binary), str(tmp_path / "fehlt.scene")], out=out) == 1
    text = out.getvalue()
    assert f"{bad}:10:" in text and "nicht lesbar" in text and "Traceback" not in text
    assert len(check_file(bad)) == 1


# ---- notation round trip on every shipped scene ----------------------------------------
def test_format_and_parse_round_trip_on_every_scene_step():
    n = 0
    for scene in list_scenes():
        for step in scene.steps:
            if step.action is None:
                continue
            before = scene.state_at(step.index - 1)
            text = format_action(before, step.action)
            assert parse_action(before, text) == step.action, (scene.id, step.index, text)
            n += 1
    assert n > 100


def test_catalogue_lookup():
    assert get_scene("q-handelsfall").chapter == "Phase 2 & Handel"
    assert {s.id for s in list_scenes("Anfängerfehler")} == {s.id for s in list_scenes("fehler")}
    with pytest.raises(KeyError):
        list_scenes("Kochen")
    with pytest.raises(KeyError):
        get_scene("gibt-es-nicht")


def test_the_complete_example_in_the_docs_holds():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenes.md").read_text(encoding="utf-8")
    example = doc.split("## Ein vollständiges Beispiel", 1)[1].split("```", 2)[1]
    scene = parse_scene(example, "docs/scenes.md")
    assert check_scene(scene) == []
    assert scene.steps[-1].is_narration


def test_scenes_step_through_their_game_record():
    """A scene's positions come from one game record: refused steps are not in its log,
    and replaying the log reaches the scene's last table."""
    from bohnteach.content.scenes import list_scenes

    for scene in list_scenes():
        legal = [r for step, r in zip(scene.steps, scene.results()[1:])
                 if step.action is not None and r.refusal is None and r.error is None]
        game = scene.game
        assert len(game.log) == len(legal), scene.id
        assert game.state_at(len(game.log)).to_dict() == scene.state_at(len(scene)).to_dict(), scene.id
        if any(step.refused for step in scene.steps):
            assert len(game.log) < sum(step.action is not None for step in scene.steps), scene.id
