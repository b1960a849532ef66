"""Scene files have limits (size, line length, counts, numbers) checked before anything is
allocated, and impossible setups are refused with file, line and a short reason."""
from __future__ import annotations

import io
import time
import tracemalloc

import pytest

from bohnteach.content.scenes.check import check_file, check_main
from bohnteach.content.scenes.loader import (
    MAX_FILE_BYTES, MAX_LINE_CHARS, QUOTE_CHARS, SceneFormatError, load_scene, parse_scene,
)
from bohnteach.game.engine import new_game
from bohnteach.game.notation import NotationError, parse_action

HEADER = """\
Szene: probe
Titel: Probe
Kapitel: Phase 1
Regelwerk: {ruleset}
Spieler: Anna, Ben, Clara, David
"""
SETUP = """\
Phase: 1
Anna Hand: Blaue Bohne, Rote Bohne
Stapel: Feuerbohne, Sojabohne
"""


def scene(extra: str = "", ruleset: str = "amigo", setup: str = SETUP, steps: str = "") -> str:
    return HEADER.format(ruleset=ruleset) + setup + extra + "\n" + steps


def refused(text: str, line: int | None = None, words: str = "") -> SceneFormatError:
    """``text`` is refused quickly, without allocating much, with a short message."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(SceneFormatError) as caught:
            parse_scene(text, "probe.scene")
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.perf_counter() - started < 5
    assert peak < 20_000_000 + 3 * len(text), f"{peak / 1e6:.0f} MB"
    error = caught.value
    if line is not None:
        assert error.line == line, (error.line, error.reason)
    assert words in error.reason, error.reason
    assert len(str(error)) < 400, f"message of {len(str(error))} characters"
    return error


def test_the_base_scene_loads() -> None:
    parse_scene(scene(), "probe.scene")


# ---- counts and numbers, before allocation --------------------------------------------
@pytest.mark.parametrize("extra, words", [
    ("Anna Felder: 5000000\n", "zu groß"),
    ("Anna Felder: 7\n", "zu groß"),
    ("Anna Taler: 100000000\n", "zu groß"),
    ("Anna Taler: 105\n", "zu groß"),
    ("Ben Hand: 100000000 Karten\n", ""),
    ("Ben Hand: 300 Karten\n", "höchstens 200"),
    ("Ben Hand: 300 Blaue Bohnen\n", "höchstens 200"),
    ("Ben Hand: 150 Karten, 150 Karten\n", "höchstens 200"),
    ("Ben Hand: ² Karten\n", "keine Anzahl"),
    ("Ben Hand: ٣ Karten\n", "keine Anzahl"),
    ("Ben Hand: " + "9" * 5000 + " Karten\n", "Zeichen"),  # the line limit comes first
    ("Ben Hand: " + "9" * 400 + " Karten\n", "keine Anzahl"),
    ("Saat: " + "9" * 300 + "\n", "zu groß"),
    ("Zug: 99999\n", "zu groß"),
    ("Gepflanzt: 9\n", "zu groß"),
])
def test_numbers_and_counts_have_limits(extra: str, words: str) -> None:
    refused(scene(extra), words=words)


def test_a_bought_third_field_is_possible_only_where_it_can_be_bought() -> None:
    parse_scene(scene("Anna Felder: 3\n", ruleset="online"), "probe.scene")
    refused(scene("Anna Felder: 3\n"), 9, "zu groß")  # amigo at four: no third field
    refused(scene("Anna Felder: 4\n", ruleset="online"), 9, "zu groß")
    refused(scene("Anna Felder: 1\n", ruleset="online"), 9, "keine Zahl ≥ 2")


# ---- impossible setups ------------------------------------------------------------------
def test_at_most_two_revealed_cards() -> None:
    setup = "Phase: 2\nAnna Hand: Blaue Bohne\nStapel: Feuerbohne\n"
    parse_scene(scene("Aufgedeckt: 2 Karten\n", setup=setup), "p")
    refused(scene("Aufgedeckt: 6 Karten\n", setup=setup), 9, "aufgedeckte")


def test_an_exhausted_pile_holds_no_cards() -> None:
    refused(scene("Stapel aufgebraucht: ja\n"), 9, "noch")
    setup = "Phase: 1\nAnna Hand: Blaue Bohne\nRest: Schachtel\n"
    parse_scene(scene("Stapel aufgebraucht: ja\n", setup=setup), "p")


# ---- size, lines, messages --------------------------------------------------------------
def test_a_huge_line_is_refused_and_not_echoed() -> None:
    error = refused(scene("Anna Hand: " + "Blaue Bohne, " * 5000 + "\n"), 9, "Zeichen")
    assert len(error.reason) < 200
    refused(scene("Anna Hand: " + "Blaue Bohne, " * 400_000 + "\n"), 0, "Zeichen")  # 4 MB


def test_a_line_without_colon_is_cut_in_the_message() -> None:
    error = refused(scene("x" * (MAX_LINE_CHARS - 10) + "\n"), 9, "ohne Doppelpunkt")
    assert len(error.reason) < QUOTE_CHARS + 150


def test_a_huge_text_is_refused_before_reading_it() -> None:
    refused("Szene: x\n" + "# Kommentar\n" * (MAX_FILE_BYTES // 10), 0, "höchstens")


def test_load_reads_no_more_than_the_limit(tmp_path) -> None:
    started = time.perf_counter()
    with pytest.raises(SceneFormatError, match="größer"):
        load_scene("/dev/zero")
    problems = check_file("/dev/zero")
    assert len(problems) == 1 and "größer" in problems[0].reason
    assert time.perf_counter() - started < 5
    bad = tmp_path / "kaputt.scene"
    bad.write_bytes(b"Szene: x\n\xff\xfe")
    assert "UTF-8" in check_file(bad)[0].reason
    out = io.StringIO()
    assert check_main([str(tmp_path)], out) == 1  # a folder: a problem, not a traceback


def test_a_long_unknown_rule_set_name_is_cut() -> None:
    refused(scene(ruleset="9" * 450), 4, "Regelwerk")


def test_a_scene_with_too_many_steps() -> None:
    steps = "Schritt:\nText: nur Text.\n" * 201
    refused(scene(steps=steps), words="Schritte")


# ---- parse_action: numbers never leak ValueError or OverflowError ------------------------
@pytest.mark.parametrize("sentence", [
    "Anna erntet Feld ²",
    "Anna erntet Feld " + "9" * 5000,
    "Anna erntet " + "9" * 5000 + " Karten von Feld 1",
    "Anna pflanzt Blaue Bohne #" + "9" * 5000 + " auf Feld 1",
    "Anna pflanzt Blaue Bohne (Hand " + "9" * 5000 + ") auf Feld 1",
    "Anna sortiert ihre Hand: ², 1",
    "Anna sortiert ihre Hand: " + "9" * 5000,
    "Anna pflanzt " + "Blaue Bohne, " * 100_000 + " auf Feld 1",
])
def test_parse_action_refuses_odd_numbers_with_a_notation_error(sentence: str) -> None:
    s = new_game("amigo", 4, seed=1)
    with pytest.raises(NotationError) as caught:
        parse_action(s, sentence)
    assert len(str(caught.value)) < 400


def test_the_shipped_scenes_are_far_inside_the_limits() -> None:
    from bohnteach.content.scenes import scene_files

    for path in scene_files():
        data = path.read_bytes()
        assert len(data) < MAX_FILE_BYTES / 10
        assert max(len(line) for line in data.decode().splitlines()) < MAX_LINE_CHARS / 2
