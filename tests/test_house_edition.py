"""Issue 31, point 4 – the proof of the plug-in: a house-rule edition kept in one test
folder (``tests/house_edition/``) plugs in with its rule set, a hook and a refusal under
its own rule ID, shown by the table and by Mach du!, without a line outside its folder but
the one ``register_edition`` call."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from bohnteach import RuleViolation, apply, legal_actions, new_game
from bohnteach.game import edition as edition_mod
from bohnteach.game.actions import EndPlanting, Offer, Plant
from bohnteach.game.engine import check
from bohnteach.game.errors import rule_catalogue
from bohnteach.game.state import Phase, State
from bohnteach.render.table import render_refusal, render_table

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "house_edition"


@pytest.fixture
def house(monkeypatch):
    """The fixture edition, registered for one test; registry and rule catalogue restored."""
    monkeypatch.setattr(edition_mod, "_REGISTRY", dict(edition_mod._REGISTRY))
    rules = dict(rule_catalogue())
    sys.modules.pop("house_edition", None)
    try:
        yield importlib.import_module("house_edition")
    finally:
        sys.modules.pop("house_edition", None)
        rule_catalogue().clear()
        rule_catalogue().update(rules)


def trading(ruleset, seed: int = 3) -> State:
    """A 4-player game in phase 2 (the active player planted, then revealed)."""
    s = new_game(ruleset, 4, seed=seed)
    while s.phase is Phase.PLANT:
        apply(s, next(a for a in legal_actions(s, s.active) if isinstance(a, (Plant, EndPlanting))))
    assert s.phase is Phase.TRADE
    return s


def test_the_house_rule_plugs_in_with_its_rule_set_and_rule(house):
    assert house.RULESET.edition == "hausregel" and edition_mod.find_edition("hausregel") is house.EDITION
    assert house.EDITION.hooked and not house.EDITION.plain_listing  # its hook is seen
    rule = rule_catalogue()[house.RULE]
    assert rule.title == "Nichts verschenken" and rule.source == "Hausregel der Klasse, „Handeln“"


def test_a_gift_is_refused_under_the_house_rule_and_a_swap_allowed(house):
    s = trading(house.RULESET)
    me, other = s.active, (s.active + 1) % 4
    mine, theirs = s.players[me].hand[0], s.players[other].hand[0]
    before = s.to_dict()
    with pytest.raises(RuleViolation) as refused:
        apply(s, Offer(me, other, (mine,), ()))
    assert refused.value.rule_id == "haus.no-gifts" and s.to_dict() == before
    assert check(s, Offer(me, other, (), (theirs,))).rule_id == "haus.no-gifts"  # a request
    assert check(s, Offer(me, other, (mine,), (theirs,))) is None  # a swap
    listed = [a for a in legal_actions(s) if isinstance(a, Offer)]
    assert listed and all(a.give and a.get for a in listed)
    # the core's own rules still come first: an offer out of turn keeps its core reason
    assert check(s, Offer(other, (other + 1) % 4, (theirs,), ())).rule_id != "haus.no-gifts"


def test_the_base_game_still_allows_the_same_gift(house):
    s = trading("amigo")
    me, other = s.active, (s.active + 1) % 4
    gift = Offer(me, other, (s.players[me].hand[0],), ())
    assert check(s, gift) is None and gift in legal_actions(s)


def test_the_table_and_mach_du_show_the_house_refusal(house):
    from bohnteach.widgets.tryit import TryIt

    s = trading(house.RULESET)
    me, other = s.active, (s.active + 1) % 4
    gift = Offer(me, other, (s.players[me].hand[0],), ())
    html = render_refusal(check(s, gift))
    assert "Nichts verschenken" in html and "haus.no-gifts" in html and "Hausregel der Klasse" in html
    assert render_table(s) == render_table(trading("amigo"))  # the same table as Amigo's game
    widget = TryIt(s, learner=me, rule="haus.no-gifts", goal="Verschenke eine Karte.")
    before = widget.state.to_dict()
    refusal = widget.play(gift)
    assert refusal is not None and refusal.rule_id == "haus.no-gifts"
    assert "haus.no-gifts" in widget.feedback.value and "Nichts verschenken" in widget.feedback.value
    assert widget.state.to_dict() == before


def test_nothing_outside_its_folder_names_the_house_rule():
    """The edition's name and rule appear only in its folder and in this test."""
    named = []
    for path in [*ROOT.joinpath("bohnteach").rglob("*.py"), *ROOT.joinpath("bohnteach").rglob("*.toml"),
                 *ROOT.joinpath("tests").rglob("*.py")]:
        if FOLDER in path.parents or path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        if "hausregel" in text or "haus.no-gifts" in text or "house_edition" in text:
            named.append(str(path.relative_to(ROOT)))
    assert named == []
    assert sorted(p.name for p in FOLDER.iterdir() if p.name != "__pycache__") == ["__init__.py", "hausregel.toml"]
