"""A translator per reader (issue 56): German is the source and stays byte for byte,
English comes from the catalogue, a strict translator fails on any missing text, and a
refusal is its rule ID plus parameters, worded when shown."""
from __future__ import annotations

import pickle
import threading

import pytest

from bohnteach.content.scenes import get_scene
from bohnteach.game.actions import BuyField, Harvest, Plant
from bohnteach.game.engine import check
from bohnteach.game.errors import RuleViolation, Term
from bohnteach.i18n import MissingTranslation, current, speaking, translator
from bohnteach.render.language import refusal_detail, source_words
from bohnteach.render.table import render_refusal


def test_german_is_the_source_even_for_texts_no_catalogue_has():
    tr = translator("de", strict=True)
    assert tr.gettext("Irgendein neuer Satz.") == "Irgendein neuer Satz."
    assert tr.pgettext("variety", "Blaue Bohne") == "Blaue Bohne"
    assert tr.ngettext("Karte", "Karten", 2) == "Karten"
    assert translator(None).lang == "de"


def test_english_comes_from_the_catalogue_with_its_context_and_plural():
    tr = translator("en")
    assert tr.gettext("Kein Platz? Erst ernten") == "No room? Harvest first"
    assert tr.pgettext("variety", "Feuerbohne") == "Chili Bean"
    assert tr.pgettext("variety-plural", "Feuerbohnen") == "Chili Beans"
    assert tr.gettext("Feuerbohne") == "Feuerbohne", "a context is part of the key"
    assert [tr.ngettext("Taler", "Taler", n) for n in (1, 2)] == ["coin", "coins"]


def test_a_missing_text_stays_german_and_a_strict_translator_refuses_it():
    assert translator("en").gettext("Ganz neu hier.") == "Ganz neu hier."
    with pytest.raises(MissingTranslation, match="Ganz neu hier"):
        translator("en", strict=True).gettext("Ganz neu hier.")


def test_an_unknown_language_is_a_clear_german_error():
    with pytest.raises(ValueError, match="Die Sprache 'xx' gibt es hier nicht"):
        translator("xx")


def test_the_language_of_a_render_is_scoped_to_it():
    """speaking() holds for the block only, and only in its own thread: two readers in
    two languages at once never see each other's words."""
    assert current().lang == "de"
    seen = {}

    def other_reader():
        seen["other"] = current().lang

    with speaking("en"):
        assert current().lang == "en"
        with speaking("de"):
            assert current().lang == "de"
        assert current().lang == "en"
        t = threading.Thread(target=other_reader)
        t.start()
        t.join(timeout=60)
    assert current().lang == "de" and seen == {"other": "de"}


def _refusal(scene_id: str, step: int, action) -> RuleViolation:
    refusal = check(get_scene(scene_id).state_at(step), action)
    assert refusal is not None
    return refusal


def test_a_refusal_is_its_rule_id_a_german_template_and_parameters():
    """g-spieler-3, step 2: Anna's Wax Bean fits neither field – the German message is
    exactly what it always was; the parameters stay language-neutral."""
    refusal = _refusal("g-spieler-3", 2, Plant(0, 0))
    assert refusal.rule_id == "p1.no-room"
    assert refusal.detail == ("Auf Feld 1 wächst Kaffeebohne, die Wachsbohne passt nicht dazu. "
                              "Kein Feld ist frei.")
    assert refusal.template.startswith("Auf Feld {field} wächst {grows}")
    assert refusal.params["field"] == 1 and isinstance(refusal.params["card"], Term)
    assert refusal.message == (refusal.detail + " Passt die Sorte auf keines deiner Felder und ist keines "
                               "leer, musst du zuerst ein Feld abernten und kannst dann auf dem freien Feld "
                               "pflanzen. [p1.no-room]")
    again = pickle.loads(pickle.dumps(refusal))
    assert (again.rule_id, again.detail, again.params) == (refusal.rule_id, refusal.detail, refusal.params)


def test_a_refusal_is_worded_in_the_readers_language_when_shown():
    refusal = _refusal("g-spieler-3", 2, Plant(0, 0))
    with speaking(translator("en", strict=True)):
        assert refusal_detail(refusal) == ("Field 1 grows Coffee Bean; the Wax Bean does not fit there. "
                                           "No field is free.")
        box = render_refusal(refusal)
    assert "Not allowed: No room? Harvest first" in box
    assert "Amigo rulebook, „Phase 1: Bohnenkarten aus der Hand pflanzen“ (Phase 1: planting" in box
    german = render_refusal(refusal)
    assert "Nicht erlaubt: Kein Platz? Erst ernten" in german and refusal.detail in german


def test_every_refusal_the_first_chapter_shows_has_english_words():
    """The chapter's mistake steps: buying a third bean field (twice), no room, bean protection."""
    cases = [("g-spieler-3", 0, BuyField(0)), ("g-spieler-4-5", 0, BuyField(0)),
             ("g-spieler-3", 2, Plant(0, 0)), ("g-spieler-3", 8, Harvest(0, 1))]
    with speaking(translator("en", strict=True)):
        for scene_id, step, action in cases:
            refusal = _refusal(scene_id, step, action)
            assert refusal_detail(refusal), (scene_id, refusal.rule_id)


def test_a_detail_still_written_as_finished_german_is_left_out_in_english():
    """An edition's refusal not yet written as template + parameters: English shows the
    rule's explanation without the German sentence; strict tests see the gap."""
    refusal = RuleViolation("indy.buy", f"Die {'Wegkarte'} kostet {2} Taler, Anna hat {0}.")
    with speaking("en"):
        assert refusal_detail(refusal) == ""
    with speaking(translator("en", strict=True)), pytest.raises(MissingTranslation):
        refusal_detail(refusal)
    assert refusal_detail(refusal) == "Die Wegkarte kostet 2 Taler, Anna hat 0."


def test_a_citation_keeps_the_german_section_and_renders_it_beside():
    with speaking("en"):
        assert source_words("Online-Regeln, „SPIELVARIANTEN“") == "Online rules, „SPIELVARIANTEN“ (GAME VARIANTS)"
        assert source_words("001_cd0bfb58e4129994.txt, „Dritte Bohnenfelder“") == (
            "Online rules, „Dritte Bohnenfelder“ (Third bean fields)")
    assert source_words("001_cd0bfb58e4129994.txt, „Dritte Bohnenfelder“") == "Online-Regeln, „Dritte Bohnenfelder“"


def test_the_runtime_translator_imports_only_the_standard_library():
    """It runs in Pyodide (the static site): no Babel, nothing but the standard library
    and itself (Babel is the catalogue tools' business, bohnteach/catalogues.py)."""
    import ast
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "bohnteach" / "i18n"
    foreign = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            foreign += [f"{path.name}: {n}" for n in names
                        if n.split(".")[0] not in sys.stdlib_module_names and not n.startswith("bohnteach.i18n")]
    assert foreign == []
