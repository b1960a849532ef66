"""Editions plug in through ``game/edition.py``: hooks are called for the edition that has
them, never for the base rule sets; the core names no edition."""
from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pytest

from bohnteach import RuleViolation, State, apply, find_ruleset, legal_actions, new_game
from bohnteach.editions.ladybohn import LADYBOHN, Ladybohn
from bohnteach.game import edition as edition_mod
from bohnteach.game import engine
from bohnteach.game.actions import Draw, Plant
from bohnteach.game.edition import BASE, HOOKS, Edition, Zone, find_edition, register_edition
from bohnteach.game.rulesets import ruleset_from_toml
from bohnteach.maths.bots import RandomBot, make_bot
from bohnteach.maths.simulate import play_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_hook_list_is_what_the_docs_describe():
    assert "waiting_seats" in HOOKS and "harvest" in HOOKS and "setup" in HOOKS
    assert all(getattr(BASE, name) is None for name in HOOKS)
    doc = (ROOT / "docs" / "editions.md").read_text(encoding="utf-8")
    missing = [name for name in HOOKS if not re.search(rf"`{name}[`(]", doc)]
    assert not missing, f"docs/editions.md does not describe: {missing}"


EDITION_WORDS = re.compile(
    r"lady|\bindy\b|indiana|sex|bab(?:y|ies)|lift|female|weib|männ|maenn|active_first"
    r"|temple|tempel|snake|schlange|adventur|abenteu|carrier|träger|sabohntage|sweet home",
    re.IGNORECASE,
)
"""The editions' names and ideas (Ladybohn: sexes, babies, the lift, the phase-3 order;
Indiana Bohnes: temple, snakes, adventurers, carriers, sabotage, Home Sweet Home), as
their code and texts write them (docs/architecture.md, „Names“)."""


def edition_words(folder: Path) -> list[str]:
    """Every line (code, comment or docstring) of the ``.py`` files under ``folder`` that
    names an edition or one of its ideas."""
    return [
        f"{path.relative_to(folder)}:{number}: {line.strip()}"
        for path in sorted(folder.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if EDITION_WORDS.search(line)
    ]


CORE_LAYERS = ("game", "maths", "render", "content")
"""The layers below the editions' teaching that know card traits, choices and zones only as
the core names them: an edition's own words (Ladybohn's sexes, Indiana's temple) live in its
folder and are reached through the edition (its ``Edition``/``View`` and teaching parts)."""


@pytest.mark.parametrize("layer", CORE_LAYERS)
def test_the_core_names_no_edition_and_no_idea_of_one(layer: str):
    """game/, maths/, render/ and content/ know hooks, traits and choices, never what an
    edition makes of them (``Trait`` stays ``Trait``, never renamed after an edition's idea)."""
    assert edition_words(ROOT / "bohnteach" / layer) == []
    for path in (ROOT / "bohnteach" / layer).rglob("*.py"):
        assert "bohnteach.editions" not in path.read_text(encoding="utf-8"), path


def test_the_word_check_finds_an_edition_word(tmp_path: Path):
    """The check above can fail: a core line naming a baby or a temple is caught."""
    (tmp_path / "engine.py").write_text("x = 1\nif card.trait == 'B':  # a baby\nvisit_temple()\n")
    assert edition_words(tmp_path) == ["engine.py:2: if card.trait == 'B':  # a baby",
                                       "engine.py:3: visit_temple()"]


EDITION_NAMES = re.compile(r"lady|indiana|\bindy\b", re.IGNORECASE)
"""The editions' names and their rule-id prefixes (``lady.*``, ``indy.*``)."""


def code_naming_an_edition(path: Path) -> list[str]:
    """The lines of ``path`` whose code (names and strings; not comments, not docstrings)
    names an edition."""
    text = path.read_text(encoding="utf-8")
    docs = {line for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for line in range(node.lineno, node.end_lineno + 1)}
    lines = text.splitlines()
    hits = {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type not in (tokenize.COMMENT, tokenize.NL) and tok.start[0] not in docs
            and EDITION_NAMES.search(tok.string)}
    return [f"{path.name}:{n}: {lines[n - 1].strip()}" for n in sorted(hits)]


def test_outside_the_editions_no_code_names_an_edition():
    """Site, lessons, widgets, content, render, maths and the core reach an edition through
    the registries only (``game/edition.py``, ``bohnteach/teaching.py``, the data files):
    one edition, one folder (``bohnteach/editions/<name>/``)."""
    editions = ROOT / "bohnteach" / "editions"
    found = [hit for path in sorted((ROOT / "bohnteach").rglob("*.py")) if editions not in path.parents
             for hit in code_naming_an_edition(path)]
    assert found == []


def test_the_name_check_finds_code_but_not_prose(tmp_path: Path):
    """The check above can fail: code naming an edition is caught, a comment or docstring is not."""
    path = tmp_path / "x.py"
    path.write_text('"""Ladybohn in prose."""\nx = 1  # Indiana in a comment\n'
                    'if rules.edition == "indiana":\n    chips(["lady.sexes"])\n')
    assert code_naming_an_edition(path) == ['x.py:3: if rules.edition == "indiana":',
                                            'x.py:4: chips(["lady.sexes"])']


def test_teaching_parts_are_found_by_name_and_import_no_third_party_package():
    """``bohnteach/teaching.py`` loads an edition's part by name: the base game and an
    edition without that part answer None. A part loaded by name imports no third-party
    package (the static site's reach follows imports, not names)."""
    from bohnteach.editions.indiana.teaching import bot
    from bohnteach.teaching import PARTS, teaching_part

    assert teaching_part("indiana", "bot") is bot
    assert teaching_part("base", "bot") is None and teaching_part("ladybohn", "bot") is None
    with pytest.raises(ValueError, match="Unbekannter Teil"):
        teaching_part("indiana", "page")
    for folder in sorted(p for p in (ROOT / "bohnteach" / "editions").iterdir() if p.is_dir()):
        for part in PARTS:
            path = folder / "teaching" / f"{part}.py"
            if not path.exists():
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
                for name in names:
                    top = (name or "").split(".")[0]
                    assert top in sys.stdlib_module_names or top == "bohnteach", (path, name)


def test_rule_sets_name_their_edition_and_the_registry_finds_it():
    assert find_ruleset("amigo").edition == "base" and find_ruleset("online").edition == "base"
    assert find_ruleset("ladybohn").edition == "ladybohn"
    assert find_edition("ladybohn") is LADYBOHN and find_edition("base") is BASE
    assert find_ruleset("indiana").edition == "indiana" and find_edition("indiana").name == "indiana"
    with pytest.raises(ValueError, match="Unbekannte Edition 'atlantis'"):
        find_edition("atlantis")
    text = (ROOT / "bohnteach/data/rulesets/amigo.toml").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="Unbekannte Edition"):
        ruleset_from_toml(text.replace('edition = "base"', 'edition = "atlantis"'))
    with pytest.raises(ValueError, match="keine eigenen Einstellungen"):
        ruleset_from_toml(text + "\n[base]\nbaby_lift = 1\n")
    with pytest.raises(ValueError, match="kennt die Edition „Grundspiel“ nicht"):  # an order only an edition knows
        ruleset_from_toml(text.replace('phase3_order = "any"', 'phase3_order = "active_first"'))
    lady = (ROOT / "bohnteach/data/rulesets/ladybohn.toml").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="kennt baby_jump nicht"):
        ruleset_from_toml(lady.replace("baby_lift = 2", "baby_jump = 2"))


class _Calls:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def hit(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1


class Spy(Edition):
    """An edition that switches every hook on and changes nothing: each hook answers
    "not mine" (None, False, nothing waits), so games must run exactly as in amigo."""

    name = "spy"
    calls = _Calls()

    def setup(self, s):
        self.calls.hit("setup")

    def waiting_seats(self, s):
        self.calls.hit("waiting_seats")
        return []

    def waiting_cards(self, s, player):
        self.calls.hit("waiting_cards")
        return []

    def check_blocked(self, s):
        self.calls.hit("check_blocked")

    def check_plant_out_of_phase(self, s, a):
        self.calls.hit("check_plant_out_of_phase")
        return None

    def check_plant(self, s, player, field, card, lift):
        self.calls.hit("check_plant")
        if lift is not None:
            raise RuleViolation("lady.baby-lift", "keine Wahl")
        return None

    def after_plant(self, s, player, field, checked):
        self.calls.hit("after_plant")

    def plant_choices(self, s, seat, field, card):
        self.calls.hit("plant_choices")
        return []

    def check_harvest(self, s, player):
        self.calls.hit("check_harvest")

    def harvest_coins(self, s, player, field):
        self.calls.hit("harvest_coins")
        return None

    def harvest(self, s, player, field):
        self.calls.hit("harvest")
        return None

    def receive(self, s, player, card):
        self.calls.hit("receive")
        return False

    def after_deal(self, s, offer):
        self.calls.hit("after_deal")

    def legal_extra(self, s, seats):
        self.calls.hit("legal_extra")
        return []


@pytest.fixture()
def spy(monkeypatch):
    monkeypatch.setitem(edition_mod._REGISTRY, "spy", Spy())
    Spy.calls = _Calls()
    return replace(find_ruleset("amigo"), edition="spy")


def _random_games(rules, n: int = 6) -> list:
    """Random players and one trader (its offers go through ``check``; the simulation
    applies the chosen, legal actions on the fast path)."""
    return [play_game(rules, 4, seed, [RandomBot(seed * 8 + i, offer_rate=0.5) for i in range(3)]
                      + [make_bot("trader", seed * 8 + 3)])
            for seed in range(n)]


def test_a_registered_edition_gets_its_hooks_called_and_neutral_hooks_change_nothing(spy):
    with_spy = _random_games(spy)
    assert with_spy == _random_games("amigo")  # same seeds, same games
    called = set(Spy.calls.counts)
    expected = {"setup", "waiting_seats", "check_plant", "after_plant", "plant_choices",
                "check_harvest", "harvest", "receive", "after_deal", "legal_extra", "check_blocked"}
    assert expected <= called, expected - called


def test_base_rule_sets_never_call_an_edition_hook(spy, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("a base rule set called an edition hook")

    for name in HOOKS:  # any call of Ladybohn's hooks now fails loudly
        if getattr(Ladybohn, name, None) is not None:
            monkeypatch.setattr(Ladybohn, name, forbidden)
    for ruleset in ("amigo", "online"):
        for seed in range(4):
            play_game(ruleset, 4, seed, [make_bot(b, seed * 8 + i) for i, b in
                                         enumerate(("random", "planter", "trader", "random"))])
    assert Spy.calls.counts == {}


def test_only_an_edition_with_hooks_is_asked_at_the_hook_points():
    """``State.hooks``: None for the base game (the engine then reads no hook at all), the
    edition itself as soon as it defines one hook."""
    assert not BASE.hooked and new_game("amigo", 4).hooks is None
    assert new_game("online", 6).hooks is None
    lady = new_game("ladybohn", 4)
    assert lady.hooks is LADYBOHN and lady.copy().hooks is LADYBOHN
    assert new_game("indiana", 4).hooks is find_edition("indiana")

    class OneHook(Edition):
        name = "one-hook"

        def after_deal(self, s, o):
            """Defined, hence switched on; what it does does not matter here."""

    assert OneHook().hooked and not Edition().hooked


# ---- the hooks an edition like Indiana Bohnes needs: setup, zones, reveal, draw, actions ----
class TakeTemple(NamedTuple):
    """Dummy extra action: take the temple's top card into the hand."""

    player: int


def _check_take(s: State, a: TakeTemple) -> None:
    if s.phase is not engine.TRADE or a.player != s.active or not s.extra["temple"]:
        raise RuleViolation("input.unknown-card", "Im Tempel liegt nichts für dich.")


def _do_take(s: State, a: TakeTemple, _: None) -> None:
    card = s.extra["temple"].pop()
    s.players[a.player].hand.append(card)
    s.events.append(("temple", a.player, card))


class Temple(Edition):
    name = "temple-test"
    zones = (Zone("temple", per_player=False, title="Tempel"),
             Zone("adventurer", per_player=True, title="Abenteurer"))
    actions = {TakeTemple: (_check_take, _do_take)}

    def setup(self, s):
        s.extra["temple"].append(s.deck.pop())

    def reveal(self, s):
        card = s.deck.pop()  # one card only
        s.revealed.append(card)
        return [card]

    def draw(self, s, player):  # every player draws one card, from the active player on
        n = len(s.players)
        drawn = []
        for k in range(n):
            card = s.deck.pop()
            s.players[(player + k) % n].hand.append(card)
            drawn.append(card)
        return drawn

    def legal_extra(self, s, seats):
        return [TakeTemple(s.active)] if s.active in seats and s.extra["temple"] and \
            s.phase is engine.TRADE else []


def test_setup_zones_reveal_draw_and_extra_actions(monkeypatch):
    monkeypatch.setitem(edition_mod._REGISTRY, "temple-test", Temple())
    rules = replace(find_ruleset("amigo"), edition="temple-test")
    s = new_game(rules, 3, seed=4)
    temple = s.extra["temple"]
    assert len(temple) == 1 and all(p.extra == {"adventurer": []} for p in s.players)
    names = [name for name, _ in s.zones()]
    assert "temple" in names and "Anna.adventurer" in names
    assert State.from_dict(s.to_dict()) == s
    refused = s.to_dict()
    with pytest.raises(RuleViolation):
        apply(s, TakeTemple(0))  # phase 1: not listed, refused, nothing changed
    assert s.to_dict() == refused and TakeTemple(0) not in legal_actions(s)
    apply(s, Plant(0, 0))
    apply(s, engine.EndPlanting(0))
    assert len(s.revealed) == 1  # the edition's reveal
    assert TakeTemple(0) in legal_actions(s, 0)
    card = temple[-1]
    events = apply(s, TakeTemple(0))
    assert ("temple", 0, card) in events and s.players[0].hand[-1] == card and not temple
    apply(s, engine.EndTrading(0))
    while s.phase is engine.PLANT_RECEIVED:
        apply(s, legal_actions(s, engine.actor(s))[0])
    hands = [len(p.hand) for p in s.players]
    events = apply(s, Draw(0))
    assert [len(p.hand) for p in s.players] == [h + 1 for h in hands]
    assert events[0][0] == "draw" and len(events[0][2]) == 3


def test_a_plant_choice_is_refused_where_the_edition_has_none():
    s = new_game("amigo", 4, seed=1)
    before = s.to_dict()
    with pytest.raises(RuleViolation) as refused:
        apply(s, Plant(0, 0, None, (1, 1)))
    assert refused.value.rule_id == "lady.baby-lift" and s.to_dict() == before


def test_register_edition_returns_it_and_lists_it(monkeypatch):
    monkeypatch.setattr(edition_mod, "_REGISTRY", dict(edition_mod._REGISTRY))
    ed = register_edition(Temple())
    assert find_edition("temple-test") is ed and ed in edition_mod.all_editions()


# ---- the view apart from the rules (issue 31, point 3) --------------------------------------
VIEW_NAMES = ("offer_view", "offer_hides_cards", "hidden_offer", "zones_for_display",
              "table_zones_for_display", "choice_moves", "choice_note", "try_moves",
              "coin_place", "tryit_cases", "label", "comparison")


def test_what_a_viewer_sees_is_a_view_object_apart_from_the_rules():
    """The rules object (``Edition``) carries no viewer's words; each edition makes its own
    ``View`` (as OpenSpiel's observer), the base game the plain one."""
    from bohnteach.game.edition import View

    assert not [n for n in VIEW_NAMES if hasattr(Edition, n)]
    assert all(hasattr(View, n) for n in VIEW_NAMES)
    for name in ("ladybohn", "indiana"):
        edition = find_edition(name)
        assert isinstance(edition.view, View) and type(edition.view) is not View
        assert not [n for n in VIEW_NAMES if n in vars(type(edition))], name
    assert type(BASE.view) is View


def test_the_rules_never_ask_the_view(monkeypatch):
    """Games of both editions play exactly as before while every method of their views
    fails: the engine and the bots read no view."""
    def forbidden(*args, **kwargs):
        raise AssertionError("the rules asked the view")

    before = {name: [play_game(name, 4, seed, [make_bot(b, seed * 8 + i) for i, b in
                                               enumerate(("planter", "trader", "random", "random"))])
                     for seed in range(2)] for name in ("ladybohn", "indiana")}
    for name in ("ladybohn", "indiana"):
        for method in ("offer_view", "offer_hides_cards", "zones_for_display", "table_zones_for_display",
                       "choice_moves", "choice_note", "try_moves"):
            monkeypatch.setattr(type(find_edition(name).view), method, forbidden)
    after = {name: [play_game(name, 4, seed, [make_bot(b, seed * 8 + i) for i, b in
                                              enumerate(("planter", "trader", "random", "random"))])
                    for seed in range(2)] for name in ("ladybohn", "indiana")}
    assert after == before
