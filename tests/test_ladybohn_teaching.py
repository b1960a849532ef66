"""Ladybohn teaching (seed 003): scene format with sexes, the chapter's scenes, the
table view, the sex-meter chart, the two „Mach du!“ cases, the site page, the CLI."""
from __future__ import annotations

import pytest

from bohnteach.game.engine import harvest_coins
from bohnteach.editions import ladybohn as lady
from bohnteach.game.actions import Plant
from bohnteach.game.notation import format_action, parse_action
from bohnteach.content.scenes import SceneFormatError, get_scene, list_scenes, parse_scene

HEAD = "Szene: t\nTitel: t\nKapitel: Ladybohn\nRegelwerk: ladybohn\nSpieler: Anna, Ben, Clara\n"


def sexes(s, cards):
    return [s.cards[c].trait for c in cards]


# ---- scene format: sexes in the set-up and in expectations -------------------------------
def test_setup_lists_pick_cards_of_the_named_sex_bottom_first():
    scene = parse_scene(HEAD + "Anna Feld 1: Feuerbohne (w), 2 Feuerbohnen (m), Feuerbohne (Baby)\n"
                        "Anna Hand: Blaue Bohne, weibliche Blaue Bohne\n")
    s = scene.initial
    assert sexes(s, s.players[0].fields[0]) == ["w", "m", "m", "B"]
    assert sexes(s, s.players[0].hand) == ["m", "w"]  # no sex given: a male


def test_setup_refuses_too_many_of_a_sex_and_sexes_outside_ladybohn():
    with pytest.raises(SceneFormatError, match=r"nur 1 Rote Bohnen \(weiblich\)"):
        parse_scene(HEAD + "Anna Feld 1: 2 Rote Bohnen (w)\n")
    amigo = HEAD.replace("ladybohn", "amigo").replace("Kapitel: Ladybohn", "Kapitel: Phase 1")
    with pytest.raises(SceneFormatError, match="kein Geschlecht"):
        parse_scene(amigo + "Anna Feld 1: Blaue Bohne (w)\n")


def test_expectations_compare_sexes_in_order_when_named():
    text = (HEAD + "Anna Feld 1: Feuerbohne (m), Feuerbohne (w)\nAnna Hand: Feuerbohne (Baby)\n"
            "Schritt: Anna pflanzt auf Feld 1\n"
            "Erwartet: Anna Feld 1 = Feuerbohne (m), Feuerbohne (Baby), Feuerbohne (w)\n"
            "Erwartet: Anna Feld 1 = 3 Feuerbohnen\n"
            "Erwartet: Anna Feld 1 = Feuerbohne, Feuerbohne (Baby), Feuerbohne\n")
    scene = parse_scene(text)
    after = scene.state_at(1)
    for e in scene.steps[0].expect:
        assert e.check(after) is None, e.text
    wrong = parse_scene(text.replace("Feuerbohne (m), Feuerbohne (Baby), Feuerbohne (w)",
                                     "Feuerbohne (w), Feuerbohne (m), Feuerbohne (Baby)"))
    problem = wrong.steps[0].expect[0].check(after)
    assert problem == ("erwartet Feuerbohne (w), Feuerbohne (m), Feuerbohne (Baby), tatsächlich "
                       "Feuerbohne (m), Feuerbohne (Baby), Feuerbohne (w)")


def test_unordered_expectations_with_sexes():
    scene = parse_scene(HEAD + "Phase: 3\nAnna quer: Sojabohne (w), Sojabohne\nAufgedeckt: Blaue Bohne\n"
                        "Erwartet: Anna quer = Sojabohne, Sojabohne (w)\n"
                        "Erwartet: Anna quer = Sojabohne (m), Sojabohne (w)\n"
                        "Erwartet: Anna quer = Sojabohne (w), Sojabohne (w)\n")
    results = [e.check(scene.initial) for e in scene.setup_expect]
    assert results[0] is None and results[1] is None and results[2] is not None


def test_a_waiting_baby_is_found_by_the_notation_and_round_trips():
    scene = get_scene("l-baby-handel")
    s = scene.state_at(2)  # Ben accepted: Anna's baby waits
    (baby,) = lady.pending(s, 0)
    a = parse_action(s, "Anna pflanzt Feuerbohne (Baby) auf Feld 1")
    assert a == Plant(0, 0, baby)
    assert parse_action(s, format_action(s, a)) == a
    default = Plant(0, 0)
    assert parse_action(s, format_action(s, default)) == default
    assert "Feuerbohne" in format_action(s, default)


# ---- the chapter's scenes -----------------------------------------------------------------
def test_chapter_holds_the_scenes_in_order_and_all_use_ladybohn():
    ids = [sc.id for sc in list_scenes("Ladybohn")]
    assert ids[:4] == ["l-timon-angebot", "l-ninas-handel", "l-phase3-reihenfolge", "l-keno-ernte"]
    assert len(ids) >= 11
    for sc in list_scenes("ladybohn"):
        assert sc.ruleset == "ladybohn"
        assert any("003_ad83c54c2d3b0d84.txt" in src for src in sc.sources), sc.id


def test_mistake_scenes_are_refused_with_their_lady_rule():
    wanted = {"l-fehler-lift": "lady.baby-lift", "l-fehler-baby-ernten": "lady.baby-trade-immediate",
              "l-fehler-phase3": "lady.p3-order"}
    for scene_id, rule in wanted.items():
        scene = get_scene(scene_id)
        refusals = [scene.result_at(i).refusal for i in range(1, len(scene) + 1)
                    if scene.steps[i - 1].refused]
        assert refusals and all(r is not None and r.rule_id == rule for r in refusals), scene_id


def test_beispiel_5_one_coin_two_to_the_discard():
    scene = get_scene("l-keno-ernte")
    s = scene.state_at(1)
    keno = s.player_index("Keno")
    assert len(s.players[keno].coins) == 1
    assert [s.variety[c] for c in s.discard] == ["chili", "chili"]


def test_baby_lift_puts_the_female_on_top_and_raises_the_yield():
    scene = get_scene("l-baby-lift")
    before, after = scene.state_at(0), scene.state_at(1)
    assert harvest_coins(before, 0, 0) == 1
    assert sexes(after, after.players[0].fields[0]) == ["m", "m", "m", "B", "w"]
    assert harvest_coins(after, 0, 0) == 2


def test_beispiel_3_hides_the_sex_until_the_deal():
    scene = get_scene("l-ninas-handel")
    s = scene.state_at(1)  # the offer is open
    view = lady.offer_view(s, s.player_index("Nina"))
    hidden = [c for c in view.give if c.hidden]
    assert len(hidden) == 1 and hidden[0].variety == "soy"  # Timon's hand card
    after = scene.result_at(2)
    assert any(e[0] == "sexes_shown" for e in after.events)


# ---- the table view -----------------------------------------------------------------------
def _text(html: str) -> str:
    import re
    from html import unescape

    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_table_names_each_sex_with_symbol_and_word_and_the_field_order():
    from bohnteach.render.table import render_table

    s = get_scene("l-baby-lift").state_at(1)
    out = _text(render_table(s))
    assert "unten → oben: ♂ m · ♂ m · ♂ m · B Baby · ♀ w (oben)" in out
    assert "Achtung, Annahme:" in out and "Bohnometer angenommen" in out


def test_offer_hides_the_sex_of_hand_cards_until_the_deal():
    from bohnteach.render.table import render_table

    scene = get_scene("l-ninas-handel")
    s = scene.state_at(1)
    out = _text(render_table(s))  # an onlooker hears it as Nina does
    assert "So hört es Nina" in out and "lady.offer-variety-only" in out
    assert out.count("nicht genannt") == 1  # Timon's hand Sojabohne; the revealed one lies open
    own = _text(render_table(s, perspective=s.player_index("Timon")))
    assert "So hört es Timon" in own
    assert own.count("nicht genannt") == 2  # Timon knows his cards, not Nina's two
    after = _text(render_table(scene.state_at(2)))
    assert "nicht genannt" not in after


def test_waiting_baby_zone_is_shown():
    from bohnteach.render.table import render_table

    s = get_scene("l-baby-handel").state_at(2)
    out = _text(render_table(s))
    assert "Sofort pflanzen – eingetauschte Babybohne, muss jetzt auf Feld 1" in out
    assert "lady.baby-trade-immediate" in out
    assert "Sofort pflanzen" not in _text(render_table(get_scene("l-baby-handel").state_at(3)))


# ---- „Mach du!“ (headless clicks) ----------------------------------------------------------
def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _labels(tryit):
    return [(getattr(w, "description", None) or "").removeprefix("✓ ") for w in _walk(tryit.controls)]


def _control(tryit, label):
    for w in _walk(tryit.controls):
        if (getattr(w, "description", None) or "").removeprefix("✓ ") == label:
            return w
    raise KeyError(f"{label!r} not among {_labels(tryit)}")


def _own_place(tryit) -> str:
    """The text of the learner's own place (drawn as controls, not in ``tryit.table``)."""
    return _text("".join(w.value for w in _walk(tryit.controls) if type(w).__name__ == "HTML"))


def test_lift_case_offers_every_lift_as_a_button_and_only_the_best_solves():
    pytest.importorskip("ipywidgets")
    from bohnteach.widgets.tryit import TryIt
    from bohnteach.content.tryit_cases import get_case, list_cases

    assert [c.id for c in list_cases("ladybohn")] == ["lady-lift", "lady-baby-handel"]
    t = TryIt(get_case("lady-lift"))
    lifts = [label for label in _labels(t) if label.startswith("Baby auf Feld 1")]
    assert lifts == [
        "Baby auf Feld 1: ♀ w (1. von unten) 1 Platz hoch",
        "Baby auf Feld 1: ♀ w (1. von unten) 2 Plätze hoch",
        "Baby auf Feld 1: ♀ w (4. von unten) 1 Platz hoch",
        "Baby auf Feld 1: ♀ w (4. von unten) 2 Plätze hoch",
    ]
    # the plain button would hide the choice: it is replaced for the baby's field
    assert "Auf Feld 1 pflanzen" not in _labels(t) and "Auf Feld 2 pflanzen" in _labels(t)
    _control(t, "Baby auf Feld 1: ♀ w (1. von unten) 2 Plätze hoch").click()
    assert not t.solved
    # the learner is told what the push did, and the log names the place, not a card id
    note = _text(t.feedback.value)
    assert "Das Baby hat geschoben" in note and "Oben auf Feld 1 liegt jetzt das Baby" in note
    assert "brächte 0 Taler" in note
    assert t.history[-1] == ("Anna pflanzt Blaue Bohne (Baby) auf Feld 1; die weibliche Bohne "
                             "(1. von unten) rückt 2 Plätze hoch", False)
    s = t.state
    assert sexes(s, s.players[0].fields[0]) == ["m", "m", "w", "w", "m", "B"]
    assert "Ernte jetzt: 0 Taler" in _own_place(t)
    t.restart_button.click()
    _control(t, "Hand 1: Blaue Bohne (Baby) (vorne)").value = True
    _control(t, "Baby auf Feld 1: ♀ w (4. von unten) 2 Plätze hoch").click()
    assert t.solved and "Geschafft" in _text(t.feedback.value)
    s = t.state
    assert sexes(s, s.players[0].fields[0]) == ["w", "m", "m", "m", "B", "w"]


def test_lift_too_far_is_refused_in_tryit():
    pytest.importorskip("ipywidgets")
    from bohnteach.widgets.tryit import TryIt, lift_moves

    scene = parse_scene(HEAD + "Phase: 1\nAnna Hand: Feuerbohne (Baby)\n"
                        "Anna Feld 1: Feuerbohne (m), Feuerbohne (w)\nBen Hand: 2 Karten\n")
    t = TryIt(scene.initial, learner="Anna", goal="Pflanze das Baby.")
    labels = [label for label, _ in lift_moves(t.state, 0)]
    assert labels == ["Baby auf Feld 1: ♀ w (2. von unten) 1 Platz hoch",
                      "Baby auf Feld 1: ♀ w (2. von unten) 2 Plätze hoch"]
    _control(t, labels[1]).click()  # directly under the baby: 2 places would pass the top
    assert "lady.baby-lift" in _text(t.feedback.value) and t.state == t.initial
    _control(t, labels[0]).click()
    assert sexes(t.state, t.state.players[0].fields[0]) == ["m", "B", "w"]


def test_baby_trade_case_refuses_the_harvest_then_plants_at_once():
    pytest.importorskip("ipywidgets")
    from bohnteach.widgets.tryit import TryIt
    from bohnteach.content.tryit_cases import get_case

    t = TryIt(get_case("lady-baby-handel"))
    assert "eine Feuerbohne" not in _labels(t)  # no partner chosen yet
    _control(t, "aufgedeckt: Blaue Bohne (♂ m)").value = True
    partner = next(w for w in _walk(t.controls) if type(w).__name__ == "ToggleButtons")
    partner.value = 1  # Ben
    _control(t, "eine Feuerbohne").value = True  # Ben's hand is secret: ask for the variety
    _control(t, "Anbieten / schenken an Ben").click()
    assert ("Anna bietet Ben Blaue Bohne (männlich) gegen Feuerbohne", False) in t.history
    assert ("Ben nimmt an", False) in t.history
    assert "sofort pflanzen: Feuerbohne (Baby)" in _labels(t)
    assert "Sofort pflanzen" in _own_place(t)
    _control(t, "Feld 1 ernten").click()
    assert "lady.baby-trade-immediate" in _text(t.feedback.value)
    assert not t.state.players[0].coins
    _control(t, "Handel beenden").click()
    assert t.refusals[-1].rule_id == "lady.baby-trade-immediate"
    _control(t, "Baby auf Feld 1: ♀ w (2. von unten) 2 Plätze hoch").click()
    assert t.solved and "Geschafft" in _text(t.feedback.value)
    assert sexes(t.state, t.state.players[0].fields[0]) == ["m", "m", "B", "w"]


def test_a_co_player_plants_a_baby_he_received_from_the_learner():
    pytest.importorskip("ipywidgets")
    from bohnteach.game.actions import Offer
    from bohnteach.widgets.tryit import TryIt

    scene = parse_scene(HEAD + "Phase: 2\nAnna Hand: Rote Bohne (Baby), Feuerbohne\n"
                        "Anna Feld 1: 2 Augenbohnen\nBen Hand: Stinkbohne\nBen Feld 1: 3 Rote Bohnen\n"
                        "Aufgedeckt: Augenbohne, Stinkbohne\n")
    t = TryIt(scene.initial, learner="Anna", answers={"Ben": "ja"})
    s = t.state
    baby = s.players[0].hand[0]
    t.play(Offer(0, 1, (baby,), (s.players[1].hand[0],)))
    assert lady.pending_seats(t.state) == []
    assert t.state.players[1].fields[0][-1] == baby
    assert ("Anna bietet Ben Rote Bohne (Baby) gegen Stinkbohne", False) in t.history


# ---- the chart ------------------------------------------------------------------------------
def test_sex_meter_chart_compares_male_and_female_per_variety():
    pytest.importorskip("plotly")
    from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart
    from bohnteach.game.rulesets import find_ruleset

    rs = find_ruleset("ladybohn")
    fig = sex_meter_chart()
    assert len(fig.data) == 2 * len(rs.trait_meters) == 16
    titles = [a.text for a in fig.layout.annotations]
    assert {"Blaue Bohne", "Gartenbohne"} <= set(titles)
    # the curves are the meters: male Stinkbohne printed 3/5/7/8, female assumed one cheaper
    stink = [t for t in fig.data if "Stinkbohne (männlich)" in t.hovertext[0]][0]
    assert list(stink.y[:9]) == [0, 0, 0, 1, 1, 2, 2, 3, 4]
    garden_w = [t for t in fig.data if "Gartenbohne (weiblich)" in t.hovertext[0]][0]
    assert list(garden_w.y[:4]) == [0, 2, 3, 3]
    # told apart by line, marker and name – not by colour alone
    m = next(t for t in fig.data if t.name.startswith("♂"))
    w = next(t for t in fig.data if t.name.startswith("♀"))
    assert (m.line.dash, m.marker.symbol) != (w.line.dash, w.marker.symbol)
    assert sum(t.showlegend is not False for t in fig.data) == 2
    # the assumption is marked on the figure, and babies are explained
    names = {a.name: a.text for a in fig.layout.annotations if a.name}
    assert "Annahme" in names["meter_assumption"] and "lady.baby-no-meter" in names["baby"]


def test_sex_meter_chart_with_own_values_and_errors(tmp_path):
    pytest.importorskip("plotly")
    from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart
    from bohnteach.game.rulesets import find_ruleset

    mine = find_ruleset("ladybohn").with_meters({"blue": {"w": (2, 4, 6, 8)}}, "test")
    fig = sex_meter_chart(mine, ["Blaue Bohne"])
    assert len(fig.data) == 2
    blue_w = next(t for t in fig.data if t.name.startswith("♀"))
    assert list(blue_w.y[:5]) == [0, 0, 1, 1, 2]
    assert "weiterhin angenommen" in {a.name: a.text for a in fig.layout.annotations if a.name}[
        "meter_assumption"].replace("<br>", " ")
    with pytest.raises(ValueError, match="kein Geschlecht"):
        sex_meter_chart("amigo")


# ---- the command line -------------------------------------------------------------------------
def test_cli_checks_the_ladybohn_scenes_and_simulates_ladybohn(capsys):
    from bohnteach.cli import main
    from bohnteach.content.scenes import scene_files

    files = [str(p) for p in scene_files() if p.name.startswith("l_")]
    assert len(files) >= 11
    assert main(["scene", "check", *files]) == 0
    capsys.readouterr()
    assert main(["simulate", "--ruleset", "ladybohn", "--players", "4", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "Anna" in out and "David" in out
