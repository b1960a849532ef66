"""Indiana Bohnes, the teaching half: scenes, sentences, table view, Mach du!, chapter parts.

The rules themselves are tested with the edition (tests of ``editions/indiana``); here: what
a learner sees of them. Browser test of the chapter: ``tests/test_indiana_site.py``."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from bohnteach.content.scenes import get_scene, list_scenes
from bohnteach.content.scenes.loader import SceneFormatError, load_scene, parse_scene
from bohnteach.editions import indiana as indy
from bohnteach.editions.indiana.rules import ADVENTURER, LayCarrier, VisitTemple
from bohnteach.game.engine import apply, check
from bohnteach.render.table import render_table, table_displays

# the rulebook's three refill examples, each outcome of a visit, the snake exceptions, the
# blockade and its release, carrier positions 1-3, the path card, the second visit, Sabohntage
REQUIRED = {
    "i-auffuellen-1", "i-auffuellen-2", "i-auffuellen-3", "i-nachziehen",
    "i-treffer", "i-andere-sorte", "i-fremde-sorte",
    "i-schlange-tempel", "i-schlange-abenteurer", "i-schlange-gewuenscht",
    "i-blockade", "i-blockade-aufheben",
    "i-traeger-1", "i-traeger-2", "i-traeger-3",
    "i-wegkarte", "i-zweiter-tempelgang", "i-sabohntage", "i-tempel-chancen",
}
DECIDED = {  # issue 32: each decision has a scene that quotes the rulebook's sentence it rests on
    "i-aufgedeckt-behalten": ("indy.visit-keep", "Er kann nicht mehr mit ihr handeln."),
    "i-blockade-traeger": ("indy.carrier-blocked", "noch in diesem Spielzug zum Abenteurer gelangen können"),
    "i-sabohntage-verkauf": ("indy.sabohntage", "legen und blockiert ihn somit"),
    "i-traeger-zweite-bohne": ("indy.carrier-plant", "wenn man sie in diesem Spielzug legt"),
}


def test_the_chapter_has_every_required_scene_and_each_plays_as_written():
    scenes = {s.id: s for s in list_scenes("indiana")}
    assert REQUIRED <= set(scenes), sorted(REQUIRED - set(scenes))
    assert len(scenes) >= 15
    for scene in scenes.values():
        assert scene.ruleset.startswith("indiana")
        assert any(r.startswith("indy.") for r in scene.rules), scene.id
        for i, step in enumerate(scene.steps, 1):
            result = scene.result_at(i)
            assert result.error is None, (scene.id, i)
            assert (result.refusal is not None) == step.is_mistake, (scene.id, i)
            if step.refused:
                assert result.refusal.rule_id == step.refused
                assert scene.state_at(i) == scene.state_at(i - 1)  # refused: table unchanged
            for e in step.expect:
                assert e.check(scene.state_at(i)) is None, (scene.id, i, e.text)


@pytest.mark.parametrize("scene_id", sorted(DECIDED))
def test_each_decision_has_a_scene_quoting_the_rulebook_and_refusing_with_its_rule(scene_id):
    rule, sentence = DECIDED[scene_id]
    scene = get_scene(scene_id)
    said = " ".join(" ".join(s.narration.split()) for s in scene.steps)
    quoted = re.findall(r"„([^“]+)“", said)
    assert any(sentence in q for q in quoted), quoted  # the rulebook's words, in quotation marks
    assert "Indiana" in said and ".txt" not in said  # cited by title and section, never the file
    assert rule in {s.refused for s in scene.steps}


def test_each_outcome_of_a_visit_has_a_scene():
    seen = {ev[3] for sc in list_scenes("indiana") for i in range(1, len(sc.steps) + 1)
            for ev in sc.result_at(i).events if ev[0] == "visit"}
    assert {"match", "other", "plant", "snake_temple", "snake_adventurer", "snake_wanted", "path"} <= seen


def test_refused_indiana_rules_each_have_a_scene():
    refused = {s.refused for sc in list_scenes("indiana") for s in sc.steps if s.refused}
    assert {"indy.two-visits", "indy.blockade", "indy.adventurer", "indy.path-card", "indy.carrier",
            "indy.sabohntage", "indy.visit-keep", "indy.carrier-blocked", "indy.carrier-plant"} <= refused


def test_carrier_positions_one_and_two_may_be_laid_three_not():
    for scene_id, laid in (("i-traeger-1", True), ("i-traeger-2", True), ("i-traeger-3", False)):
        scene = get_scene(scene_id)
        step = next(i for i, s in enumerate(scene.steps, 1) if isinstance(s.action, LayCarrier))
        assert (scene.result_at(step).refusal is None) == laid, scene_id


def test_a_wrong_sentence_in_a_scene_names_step_and_reason():
    with pytest.raises(SceneFormatError, match="Schritt 1"):
        parse_scene(get_scene_text("i_treffer").replace("geht zum Tempel (Sojabohne)", "geht zum Tempel (Goldbohne)"))


def get_scene_text(stem: str) -> str:
    from bohnteach.content.scenes import scene_files

    return next(p for p in scene_files() if p.stem == stem).read_text("utf-8")


def test_scene_zone_lines_fill_the_zones_and_an_unknown_zone_is_a_clear_error():
    s = get_scene("i-blockade").initial
    assert [s.variety[c] for c in s.players[0].extra[ADVENTURER]] == ["soy"] * 3
    text = get_scene_text("i_blockade").replace("Anna Abenteurer: 3 Sojabohnen", "Anna Rucksack: 3 Sojabohnen")
    with pytest.raises(SceneFormatError, match="Unbekannter Eintrag"):
        parse_scene(text)


# ---- the scene format's Indiana lines (docs/scenes.md) ---------------------------------------
def _carrier_text() -> str:
    return get_scene_text("i_traeger_zweite_bohne")


def test_scene_hand_line_places_the_carrier_and_the_turn_start_defaults_to_its_place():
    s = get_scene("i-traeger-zweite-bohne").initial
    assert indy.carrier_position(s, 0) == 2 and s.marks["carrier_start"] == 2
    assert all(s.variety[c] != "carrier" for c in s.players[0].hand)
    # in phase 2 after one bean: where it stood at the start = its place now + 1
    text = _carrier_text().replace("Phase: 1", "Phase: 2\nGepflanzt: 1").replace(
        "Anna Hand: Feuerbohne, Trägerkarte, Sojabohne", "Anna Hand: Trägerkarte, Sojabohne")
    s = parse_scene(text.split("\nSchritt:")[0].replace("Erwartet: Anna Trägerkarte Stelle = 2", "")).initial
    assert indy.carrier_position(s, 0) == 1 and s.marks["carrier_start"] == 2
    # said outright: from place 3 it may not be laid
    text = _carrier_text().replace("Phase: 1", "Phase: 1\nTrägerkarte zu Zugbeginn: 3")
    scene = parse_scene(text.split("\nSchritt: Anna pflanzt auf Feld 2")[0])
    assert scene.initial.marks["carrier_start"] == 3
    assert check(scene.state_at(1), LayCarrier(0)).rule_id == "indy.carrier"


@pytest.mark.parametrize("change,reason", [
    (("4 Trägerkarten, Sabohntagekarte\n", "3 Trägerkarten, Sabohntagekarte\nAnna Hand: Trägerkarte\n"),
     "nur eine Trägerkarte"),
    (("Phase: 1", "Phase: 1\nTrägerkarte zu Zugbeginn: 9"), "Stelle 9 gibt es nicht"),
    (("Phase: 1", "Phase: 1\nVariation: Schach"), "Möglich: Sabohntage, fünf Sorten"),
    (("Erwartet: Anna Trägerkarte Stelle = 2", "Erwartet: Anna Abenteurer blockiert = vielleicht"), "ja"),
    (("Phase: 1", "Phase: 1\nBohnometer-Datei: ../geheim.toml"), "im Ordner der Szene"),
    (("Phase: 1", "Phase: 1\nBohnometer-Datei: fehlt.toml"), "keine Datei"),
])
def test_scene_indiana_lines_refuse_with_line_and_reason(change, reason):
    with pytest.raises(SceneFormatError, match=reason):
        parse_scene(_carrier_text().replace(*change), "/tmp/keine/szene.scene")


def test_scene_expectations_name_blockade_sale_value_carrier_place_and_visits():
    scene = get_scene("i-blockade-traeger")
    holds = {e.text: e.check(scene.state_at(1)) for e in scene.steps[0].expect}
    assert all(v is None for v in holds.values()), holds
    wrong = parse_scene(get_scene_text("i_blockade_traeger").replace(
        "Erwartet: Anna Abenteurer blockiert = ja\nErwartet: Anna Abenteurer Ertrag = 1",
        "Erwartet: Anna Abenteurer blockiert = nein\nErwartet: Anna Abenteurer Ertrag = 2"))
    assert [e.check(wrong.initial) for e in wrong.setup_expect] == [
        "der Abenteurer ist blockiert", "erwartet 2, tatsächlich 1"]
    base = get_scene_text("q_handelsfall")
    for line in ("Erwartet: Tempelgänge = 0", "Variation: Sabohntage", "Trägerkarte zu Zugbeginn: 1"):
        with pytest.raises(SceneFormatError, match="nur bei Indiana"):
            parse_scene(base.replace("Rest: Stapel gemischt", line))


def test_scene_variation_picks_one_and_a_meter_file_beside_the_scene(tmp_path):
    sab = get_scene("i-sabohntage-verkauf").initial
    assert indy.settings_of(sab.ruleset).sabohntage and indy.settings_of(sab.ruleset).temple_slots == 4
    text = _carrier_text().replace("Phase: 1", "Phase: 1\nVariation: fünf Sorten").replace(
        "Vorrat (Weg- und Trägerkarten): 5 Wegkarten, 4 Trägerkarten, Sabohntagekarte",
        "Vorrat (Weg- und Trägerkarten): 5 Wegkarten, 4 Trägerkarten, Sabohntagekarte\n"
        "Bohnentempel, Stelle 5: Feuerbohne")
    five = parse_scene(text).initial
    assert indy.settings_of(five.ruleset).temple_slots == 5 and not indy.settings_of(five.ruleset).sabohntage
    (tmp_path / "meine_karten.toml").write_text("Schlangenbohne = [3, 6, 8, 10]\n", "utf-8")
    scene_path = tmp_path / "szene.scene"
    scene_path.write_text(_carrier_text().replace("Phase: 1", "Phase: 1\nBohnometer-Datei: meine_karten.toml"),
                          "utf-8")
    s = load_scene(scene_path).initial
    snake = next(c for c in range(len(s.cards)) if s.variety[c] == "snake")
    assert s.meter[snake] == (3, 6, 8, 10) and "meine_karten.toml" in s.ruleset.meter_source
    (tmp_path / "meine_karten.toml").write_text("Schlangenbohne = [3, 6]\n", "utf-8")
    with pytest.raises(SceneFormatError, match=r"szene.scene:\d+: meine_karten.toml, Schlangenbohne: .*4 Werte"):
        load_scene(scene_path)


# ---- the table view ------------------------------------------------------------------------
def _text(html: str) -> str:
    html = html.replace("<wbr>", "")
    return re.sub(r"\s+", " ", re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S))


def test_table_shows_temple_places_by_variety_and_empty_places():
    s = get_scene("i-auffuellen-3").initial
    shown = table_displays(s)
    assert [d.zone.key for d in shown] == [f"temple{i}" for i in range(1, 6)]
    text = _text(render_table(s))
    assert "Bohnentempel" in text and "Stelle 1 – 2 × Stinkbohne" in text
    assert text.count("leere Stelle") == 2
    # one card per variety with its count: a stack of three is one card „3 Karten“
    assert "Blaue Bohne 3 Karten" in text


def test_table_marks_a_blocked_adventurer_in_words_and_colour():
    html = render_table(get_scene("i-blockade").state_at(1))
    anna = html[html.index('data-player="0"'):html.index('data-player="1"')]
    assert "bt-blocked" in anna and "von Schlangenbohnen blockiert" in _text(anna)
    assert "Sojabohne 3 Karten" in _text(anna) and "Schlangen" in _text(anna)
    ben = html[html.index('data-player="1"'):]
    assert "bt-blocked" not in ben[: ben.index('data-player="2"')]


def test_table_shows_carrier_path_card_sabohntage_and_home():
    carrier = _text(render_table(get_scene("i-traeger-1").state_at(2)))
    assert "Trägerkarte über dem Abenteurer" in carrier and "Home Sweet Home" in carrier
    waiting = _text(render_table(get_scene("i-traeger-3").state_at(2)))
    assert "Trägerkarte auf der Hand – an Stelle 3 der Hand" in waiting
    path = _text(render_table(get_scene("i-wegkarte").state_at(1)))
    assert "Wegkarte Wegkarte" in path
    sab = _text(render_table(get_scene("i-sabohntage").state_at(1)))
    assert "Sabohntagekarte auf dem Abenteurer" in sab


def test_base_tables_draw_no_edition_box():
    html = render_table(get_scene("a-phase2").initial)
    assert "bt-center bt-table-zone" not in html and "Home Sweet Home" not in html


def _string_literals(path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings, with their line."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


@pytest.mark.parametrize("module", ["render/table.py", "render/words.py", "widgets/tryit.py"])
def test_table_view_and_mach_du_hold_no_indiana_words(module):
    """What the table and Mach du! say of Indiana comes from the edition (its zones' notes
    and css, ``coin_place``, ``table_zones_for_display``, ``try_moves``)."""
    from pathlib import Path

    import bohnteach

    words = ("blockiert", "home sweet home", "tempel", "abenteurer", "schlange", "träger", "indiana", "indy.")
    found = [(line, text) for line, text in _string_literals(Path(bohnteach.__file__).parent / module)
             if any(w in text.casefold() for w in words)]
    assert found == []


# ---- Mach du! --------------------------------------------------------------------------------
def test_tryit_visit_case_is_solved_by_the_biggest_stack_only():
    from bohnteach.content.tryit_cases import get_case
    from bohnteach.widgets.tryit import TryIt, edition_moves

    case = get_case("indy-tempelgang")
    state, _ = case.build()
    labels = [label for _, moves in edition_moves(state, 0) for label, _ in moves]
    assert "geht zum Tempel (Feuerbohne)" in labels and "geht zum Tempel (Sojabohne)" in labels
    wrong = TryIt(case)
    wrong.play(VisitTemple(0, "soy"))
    assert "Geschafft" not in wrong.feedback.value
    right = TryIt(case)
    assert right.play(VisitTemple(0, "chili")) is None
    assert "Geschafft" in right.feedback.value


def _press(t, label: str) -> None:
    """Click the one button of the Mach-du widget ``t`` with this label."""
    (hit,) = [b for b in _buttons(t) if b.description == label]
    hit.click()


def _refused(t, label: str, rule_id: str) -> str:
    """Press ``label``: the refusal box names ``rule_id`` with its German explanation and
    the table stays exactly as it was; returns the box's text."""
    from bohnteach.game.errors import find_rule

    before = t.state.to_dict()
    _press(t, label)
    box = t.feedback.value
    assert "bt-refusal" in box and f'data-rule="{rule_id}"' in box, (label, _text(box))
    assert find_rule(rule_id).explanation[:40] in box.replace("&quot;", '"')
    assert t.refusals[-1].rule_id == rule_id
    assert t.state.to_dict() == before
    return _text(box)


def test_tryit_offers_every_temple_stack_and_explains_the_wrong_wishes():
    """indy-blockade: the blocked adventurer's wishes the rules refuse are buttons too; each
    is refused with its rule, the table unchanged; the snakes then solve the case."""
    import ipywidgets as widgets

    from bohnteach.content.tryit_cases import get_case
    from bohnteach.widgets.tryit import TryIt

    t = TryIt(get_case("indy-blockade"))
    temple = [f"geht zum Tempel ({v})" for v in ("Sojabohne", "Schlangenbohne", "Stinkbohne", "Feuerbohne")]
    labels = [b.description for b in _buttons(t)]
    assert set(temple) <= set(labels)
    assert "Zum Tempel – welchen Stapel wünschst du dir?" in _text(
        "".join(w.value for w in _widgets(t, widgets.HTML)))
    assert "blockiert" in _refused(t, "geht zum Tempel (Sojabohne)", "indy.blockade")
    _refused(t, "verkauft den Abenteurer", "indy.blockade")
    # a revealed variety that is not in the temple: refused, named in German
    assert "kein Stapel Brechbohnen" in _refused(t, "geht zum Tempel (Brechbohne)", "indy.visit")
    assert "Geschafft" not in t.feedback.value
    _press(t, "geht zum Tempel (Schlangenbohne)")
    assert t.refusals[-1].rule_id == "indy.visit" and len(t.refusals) == 3
    # the blockade is lifted, but a second visit for the soy stack is still refused
    _refused(t, "geht zum Tempel (Sojabohne)", "indy.adventurer")
    _press(t, "verkauft den Abenteurer")
    assert "Geschafft" in t.feedback.value


def test_tryit_refuses_a_second_visit_after_a_failed_first():
    from bohnteach.widgets.tryit import TryIt

    scene = get_scene("i-zweiter-tempelgang")
    t = TryIt(scene.state_at(4), learner=0)  # the second visit turned up a foreign variety
    assert "Geschafft" not in t.feedback.value
    assert "nicht erfolgreich" in _refused(t, "geht zum Tempel (Blaue Bohne)", "indy.two-visits")


def test_tryit_refuses_the_carrier_from_the_third_place():
    from bohnteach.widgets.tryit import TryIt

    scene = get_scene("i-traeger-3")
    t = TryIt(scene.state_at(2), learner=0)
    assert "an Stelle 3" in _refused(t, "legt die Trägerkarte ab", "indy.carrier")


def test_tryit_carrier_case_needs_laying_and_both_beans():
    from bohnteach.content.tryit_cases import get_case
    from bohnteach.game.actions import Plant
    from bohnteach.widgets.tryit import TryIt

    t = TryIt(get_case("indy-traeger"))
    assert "legt die Trägerkarte ab" in [b.description for b in _buttons(t)]
    for action in (Plant(0, 0), LayCarrier(0)):
        assert t.play(action) is None
        assert "Geschafft" not in t.feedback.value
    assert t.play(Plant(0, 1)) is None
    assert "Geschafft" in t.feedback.value


def _widgets(widget, kind=None):
    """``widget`` and everything inside it of ``kind`` (default: buttons)."""
    import ipywidgets as widgets

    kind = kind or widgets.Button
    out, todo = [], [widget]
    while todo:
        w = todo.pop()
        if isinstance(w, kind):
            out.append(w)
        todo += list(getattr(w, "children", ()))
    return out


def _buttons(widget):
    return _widgets(widget)


# ---- the chapter's parts -----------------------------------------------------------------------
def test_chapter_parts_render_from_the_data():
    from bohnteach.editions.indiana.teaching import page as chapter
    from bohnteach.site import pages as site

    cards = chapter.show("karten").data
    assert "bt-box bt-error" not in cards and "Achtung, Annahme:" in cards
    assert "Schlangenbohne" in cards and "Buschbohne" in cards and "Wegkarte 2 Taler" in cards
    ausl = chapter.show("auslegungen").data
    assert 'data-rule="indy.temple-setup"' in ausl and 'data-rule="meter_assumption"' in ausl
    rules = site.rules_table(*chapter.rule_ids()).data
    assert "indy.visit" in rules and "indy.sabohntage" in rules
    assert "bt-box bt-error" in chapter.show("gibt-es-nicht").data


def test_own_meters_widget_takes_values_and_explains_mistakes():
    from bohnteach.editions.indiana.teaching.page import OwnMeters, example_meters

    own = OwnMeters()
    assert own.text.value == example_meters() and "Schlangenbohne = [4, 7, 9, 11]" in own.text.value
    assert own.apply().meter_source and "alle Werte sind deine" in own.message.value  # the example reads
    own.text.value = "Schlangenbohne = [3, 6, 8, 10]\n"
    rules = own.apply()
    assert rules.meter_for("snake", None) == (3, 6, 8, 10) and rules.meter_for("bush", None) == (5, 8, 10, 12)
    assert "3 · 6 · 8 · 10" in own.cards.value and "weiterhin angenommen: Buschbohne" in own.cards.value
    assert "Übernommen" in own.message.value
    own.text.value = "Schlangenbohne = [3, 6]\n"
    assert own.apply() is rules  # a mistake keeps the values that were there
    assert "bt-box bt-error" in own.message.value and "deine Werte, Schlangenbohne" in own.message.value
    assert "genau 4 Werte" in own.message.value and "/tmp" not in own.message.value
    own.reset()
    assert own.cards.value == "" and own.rules.name == "indiana" and own.rules.meter_source == ""


def test_question_checks_the_exact_chance_and_names_the_usual_mistake():
    from bohnteach.editions.indiana.teaching.page import QUESTION_WANTED, chance_rows, chance_table, question

    row = next(r for r in chance_rows(chance_table()) if r.wanted == QUESTION_WANTED)
    q = question()
    assert q.submit(f"{row.success.numerator}/{row.success.denominator}").status == "correct"
    wrong = q.submit(str(row.chances["match"]))
    assert wrong.status == "wrong" and "Treffer" in wrong.message
    assert row.success == Fraction(35, 96)  # the table of i-tempel-chancen (Saat 4)


def test_chart_is_drawn_on_demand(monkeypatch):
    from bohnteach.editions.indiana.teaching.page import chart_output
    from bohnteach.widgets import figure

    shown: list = []  # a shown chart needs a kernel to land in the Output; record it instead
    monkeypatch.setattr(figure, "figure_bundle", lambda fig, **_: shown.append(fig) or {})
    intro, box = chart_output().children
    assert "3 × Sojabohnen" in intro.value and "96 Bohnenkarten" in intro.value
    button, message, style, _out = box.children
    assert shown == []
    button.click()
    [fig] = shown
    assert len(fig.data[0].y) == 4 and message.value == "" and button.layout.display == "none"


def test_visit_through_the_engine_matches_its_scene():
    scene = get_scene("i-andere-sorte")
    s = scene.initial.copy()
    apply(s, VisitTemple(0, "soy"))
    assert s == scene.state_at(1)


def test_comparison_has_indiana_with_its_temple_row_and_links_the_chapter():
    import json
    from pathlib import Path

    from bohnteach.render.comparison import comparison_rows
    from bohnteach.site import pages as site

    rulesets, rows = comparison_rows()
    names = [r.name for r in rulesets]
    assert "indiana" in names
    temple = next(r for r in rows if r.topic == "Tempel und Abenteurer")
    assert "Tempel mit 4 Sorten" in temple.values[names.index("indiana")]
    assert temple.values[names.index("amigo")] == "—"
    deal = next(r for r in rows if r.topic == "Austeilen")
    assert "3/4/5/6" in deal.values[names.index("indiana")]
    page = site.find_page("15_Indiana_Bohnes")
    assert page.chapter == "indiana" and site.page_exists(page)
    assert f'href="{page.filename}"' in site.chapter_overview().data
    compare = json.loads((Path(__file__).parents[1] / "notebooks" / "10_Regelvergleich.ipynb").read_text("utf-8"))
    prose = " ".join("".join(c["source"]) for c in compare["cells"] if c["cell_type"] == "markdown")
    assert "(15_Indiana_Bohnes.ipynb)" in prose
