"""Ladybohn (Ladybohn-Spielregel; ``lady.*`` in docs/rules.md): deck, meters, the user's own
meter file, every lady.* rule allowed and refused, and random full games.

Cards are written ``"Sojabohne w"`` (variety name + m/w/B; without a sex: m).
"""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from bohnteach import (
    Accept, Decline, Draw, EndPlanting, EndTrading, Game, Harvest, Offer, Phase, Plant, State,
    actor, apply, check, find_rule, find_ruleset, find_variety, legal_actions, new_game,
)
from bohnteach.game.engine import harvest_coins
from bohnteach.editions.ladybohn import (
    IMMEDIATE_ZONE, assumed_female_meter, lift_choices, offer_view, pending,
)
from bohnteach.game.beans import meter_value
from bohnteach.editions.ladybohn.meters import load_meter_file
from bohnteach.game.rulesets import MeterFileError, check_meter, load_ruleset_with_meters
from tables import SEED_FILE, allow, assert_one_zone, refuse

LADY = find_ruleset("ladybohn")
L_SEED = "003_ad83c54c2d3b0d84.txt"
RULES_MD = Path("/work/shared/design/RULES.md")

COUNTS = {  # L: „Die Bohnensorten“
    "blue": (11, 5, 5), "chili": (10, 4, 5), "stink": (9, 4, 4), "green": (9, 3, 3),
    "soy": (8, 2, 3), "blackeye": (7, 2, 2), "red": (5, 1, 2), "garden": (4, 1, 1),
}


# ---- building exact Ladybohn tables ----------------------------------------------------
def spec(text: str) -> tuple[str, str]:
    name, _, sex = text.rpartition(" ")
    if sex in ("m", "w", "B"):
        return find_variety(name).key, sex
    return find_variety(text).key, "m"


def lady_table(
    players: int = 4,
    *,
    hands: Mapping[int, Sequence[str]] = {},
    fields: Mapping[int, Sequence[Sequence[str]]] = {},
    set_aside: Mapping[int, Sequence[str]] = {},
    revealed: Sequence[str] = (),
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    phase: Phase = Phase.PLANT,
    active: int = 0,
    exhaustions: int = 0,
    rest: str = "box",
    ruleset=LADY,
) -> State:
    """Like ``tables.table`` but cards by variety *and* sex; ``deck`` top first,
    ``discard`` bottom first; the other cards go to ``extra["box"]`` or under the deck."""
    s = new_game(ruleset, players, seed=0)
    free: dict[tuple[str, str], list[int]] = {}
    for c in s.cards:
        free.setdefault((c.variety, c.trait), []).append(c.id)

    def take(names: Sequence[str]) -> list[int]:
        keys = [spec(n) if ruleset.traits else (spec(n)[0], None) for n in names]
        return [free[key].pop(0) for key in keys]

    for i, p in enumerate(s.players):
        p.hand = take(hands.get(i, ()))
        p.fields = [take(f) for f in fields.get(i, [[]] * len(p.fields))]
        p.set_aside = take(set_aside.get(i, ()))
        p.coins = []
    s.revealed = take(revealed)
    s.deck = take(deck)[::-1]
    s.discard = take(discard)
    left = sorted(c for ids in free.values() for c in ids)
    s.extra = {}
    if rest == "box" and left:
        s.extra["box"] = left
    elif rest == "deck":
        s.deck = left + s.deck
    s.phase, s.active, s.exhaustions, s.ending, s.events = phase, active, exhaustions, False, []
    assert_one_zone(s)
    return s


def names(s: State, cards: Sequence[int]) -> list[str]:
    return [f"{s.variety[c]} {s.cards[c].trait}" for c in cards]


def field(s: State, player: int, index: int) -> list[str]:
    return names(s, s.players[player].fields[index])


# ---- §1: deck, set-up, meters ------------------------------------------------------------
@pytest.mark.parametrize("players,fields", [(3, 3), (4, 2), (5, 2)])
def test_deck_110_cards_per_variety_and_sex(players: int, fields: int) -> None:
    s = new_game("ladybohn", players, seed=players)
    assert len(s.cards) == 110
    by = Counter((c.variety, c.trait) for c in s.cards)
    for variety, (m, w, b) in COUNTS.items():
        assert (by[variety, "m"], by[variety, "w"], by[variety, "B"]) == (m, w, b), variety
    assert Counter(c.trait for c in s.cards) == {"m": 63, "w": 22, "B": 25}
    assert [len(p.fields) for p in s.players] == [fields] * players  # setup.fields
    assert [len(p.hand) for p in s.players] == [5] * players  # setup.deal
    assert len(s.deck) == 110 - 5 * players
    assert_one_zone(s)


def test_ruleset_data() -> None:
    setup = LADY.for_players(4)
    assert (LADY.min_players, LADY.max_players) == (3, 5)
    assert (setup.draw, setup.exhaustions, setup.third_field_cost) == (3, 3, 0)
    assert LADY.tie_break == "clockwise" and LADY.phase3_order == "active_first"
    lady = LADY.settings  # the edition's own settings (editions/ladybohn, game/edition.py)
    assert LADY.edition == "ladybohn"
    assert lady.baby_lift == 2 and lady.baby_trade_immediate
    assert lady.female_garden_from_discard and lady.offer_names_variety_only
    amigo = find_ruleset("amigo")
    assert amigo.edition == "base" and amigo.settings is None
    with pytest.raises(ValueError):
        new_game("ladybohn", 6)


def test_meters_are_marked_as_an_assumption_and_follow_the_documented_rule() -> None:
    assert "Annahme" in LADY.meter_assumption and "deiner Karten" in LADY.meter_assumption
    assert LADY.meter_source == ""
    assert LADY.meter_for("stink", "m") == (3, 5, 7, 8)  # the one meter the seed prints
    for variety in COUNTS:
        male, female = LADY.meter_for(variety, "m"), LADY.meter_for(variety, "w")
        assert male == find_variety(variety).meter
        assert female == assumed_female_meter(male)
        assert LADY.meter_for(variety, "B") is None
        # lady.female-meter: never worse, sometimes better
        gains = [meter_value(female, n) - meter_value(male, n) for n in range(15)]
        assert min(gains) >= 0 and max(gains) > 0, variety
    assert LADY.meter_for("garden", "w") == (0, 1, 2, 0)


def test_assumed_female_meter_rule() -> None:
    assert assumed_female_meter((4, 6, 8, 10)) == (3, 5, 7, 9)
    assert assumed_female_meter((0, 2, 3, 0)) == (0, 1, 2, 0)
    assert assumed_female_meter((1, 2, 3, 4)) == (1, 2, 3, 4)  # never below 1, still rising
    assert assumed_female_meter((1, 3, 0, 4)) == (1, 2, 0, 3)


def test_rule_catalogue_has_every_lady_id_of_rules_md() -> None:
    wanted = ["lady.sexes", "lady.top-card", "lady.female-meter", "lady.baby-no-meter",
              "lady.baby-lift", "lady.offer-variety-only", "lady.baby-trade-immediate",
              "lady.female-garden", "lady.p3-order", "lady.end"]
    if RULES_MD.exists():
        section = RULES_MD.read_text("utf-8").split("## 4.")[1].split("## 5.")[0]
        assert re.findall(r"^\| (lady\.[a-z0-9-]+) \|", section, re.M) == wanted
    for rule_id in wanted:
        rule = find_rule(rule_id)
        assert rule.seed.startswith(L_SEED) and SEED_FILE.search(rule.seed)
        assert rule.source.startswith("Ladybohn-Spielregel")
        assert len(rule.explanation) > 60 and rule.title
    for rule_id in ["lady.female-meter", "lady.baby-lift", "lady.offer-variety-only",
                    "lady.baby-trade-immediate", "lady.female-garden"]:
        assert find_rule(rule_id).interpretation, rule_id


# ---- the user's own meters ---------------------------------------------------------------
FULL = "\n".join(
    f"[{v}]\nm = {list(find_variety(v).meter)}\nw = {list(assumed_female_meter(find_variety(v).meter))}"
    for v in COUNTS
)


def write(tmp_path: Path, text: str, name: str = "meine_karten.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_meter_file_replaces_every_assumption(tmp_path: Path) -> None:
    text = FULL.replace("[blue]\nm = [4, 6, 8, 10]\nw = [3, 5, 7, 9]", "[blue]\nm = [4, 6, 8, 10]\nw = [2, 4, 6, 8]")
    rules = load_ruleset_with_meters("ladybohn", write(tmp_path, text))
    assert rules.meter_assumption == ""
    assert rules.meter_source == "Werte aus meine_karten.toml"
    assert rules.meter_for("blue", "w") == (2, 4, 6, 8)
    assert LADY.meter_for("blue", "w") == (3, 5, 7, 9)  # the built-in rule set is untouched
    with pytest.raises(AttributeError):
        rules.settings = None  # type: ignore[misc]  (frozen)
    # the engine uses them: 2 Blaue Bohnen with a female on top bring 1 Taler now
    s = lady_table(fields={0: [["Blaue Bohne m", "Blaue Bohne w"], []]}, ruleset=rules)
    assert harvest_coins(s, 0, 0) == 1
    allow(s, Harvest(0, 0))
    assert len(s.players[0].coins) == 1
    # a saved game keeps working when loaded with the same rule set
    g = Game(s)
    assert Game.from_json(g.to_json(), rules).state.meter == s.meter


def test_user_meter_file_partial_german_names_and_dashes(tmp_path: Path) -> None:
    path = write(tmp_path, '["Blaue Bohne"]\nw = [3, 5, 7, 9]\n\n[Gartenbohnen]\nw = ["–", 1, 3, "-"]\n')
    meters = load_meter_file(path)
    assert meters == {"blue": {"w": (3, 5, 7, 9)}, "garden": {"w": (0, 1, 3, 0)}}
    rules = load_ruleset_with_meters(LADY, path)
    assert rules.meter_for("garden", "w") == (0, 1, 3, 0)
    assert rules.meter_for("garden", "m") == (0, 2, 3, 0)  # not in the file: still assumed
    assert rules.meter_assumption.startswith("Werte aus meine_karten.toml; weiterhin angenommen:")
    assert "Blaue Bohne (m)" in rules.meter_assumption
    assert "Blaue Bohne (w)" not in rules.meter_assumption
    assert "Gartenbohne (w)" not in rules.meter_assumption
    # with_meters directly
    assert LADY.with_meters({"red": {"w": [1, 2, 3, 4]}}, "Test").meter_source == "Werte aus Test"


@pytest.mark.parametrize("text,key,why", [
    ("[kaffee]\nw = [1, 2, 3, 4]", "[kaffee]", "Unbekannte Bohnensorte"),
    ("[coffee]\nw = [1, 2, 3, 4]", "[coffee]", "kommt in Ladybohn"),
    ("[blue]\nw = [3, 5, 7]", "[blue].w", "genau 4 Werte"),
    ("[blue]\nw = [3, 5, 7, 9, 11]", "[blue].w", "genau 4 Werte"),
    ("[blue]\nw = [3, 5, 5, 9]", "[blue].w", "steigen"),
    ("[blue]\nw = [6, 5, 7, 9]", "[blue].w", "steigen"),
    ("[garden]\nw = [0, 3, 2, 0]", "[garden].w", "steigen"),
    ("[blue]\nw = [0, 0, 0, 0]", "[blue].w", "Mindestens eine"),
    ("[blue]\nw = [3, -5, 7, 9]", "[blue].w", "ganze Zahl"),
    ("[blue]\nw = [3, 5.5, 7, 9]", "[blue].w", "ganze Zahl"),
    ("[blue]\nw = [true, 5, 7, 9]", "[blue].w", "ganze Zahl"),
    ("[blue]\nw = 3", "[blue].w", "Liste"),
    ("[blue]\nB = [1, 2, 3, 4]", "[blue].B", "Babybohnen haben kein Bohnometer"),
    ("[blue]\nx = [1, 2, 3, 4]", "[blue].x", "nur m (männlich) und w"),
    ("[blue]\n", "[blue]", "leer"),
    ("blue = [1, 2, 3, 4]", "blue", "Tabelle"),
    ("[blue]\nw = [3, 5, 7, 9]\n[\"Blaue Bohne\"]\nm = [4, 6, 8, 10]", "[Blaue Bohne]", "schon unter [blue]"),
    ("[blue\nw = 1", "(TOML)", "Kein gültiges TOML"),
    ("", "(Datei)", "keine Bohnometer"),
])
def test_broken_meter_files_say_file_key_and_why(tmp_path: Path, text: str, key: str, why: str) -> None:
    path = write(tmp_path, text, "kaputt.toml")
    with pytest.raises(MeterFileError) as info:
        load_ruleset_with_meters("ladybohn", path)
    error = info.value
    assert error.key == key
    assert why in error.reason
    assert "kaputt.toml" in str(error) and key in str(error)
    assert isinstance(error, ValueError)


def test_meter_file_missing_and_wrong_ruleset(tmp_path: Path) -> None:
    with pytest.raises(MeterFileError, match="gibt es nicht"):
        load_meter_file(tmp_path / "fehlt.toml")
    with pytest.raises(MeterFileError, match="keine m/w/B"):
        load_meter_file(write(tmp_path, FULL), "amigo")
    with pytest.raises(ValueError):
        find_ruleset("amigo").with_meters({"blue": {"m": (4, 6, 8, 10)}})
    with pytest.raises(MeterFileError, match="Babybohnen"):
        LADY.with_meters({"blue": {"B": (1, 2, 3, 4)}})
    assert check_meter(["–", 2, 3, "—"]) == (0, 2, 3, 0)


# ---- lady.sexes, lady.top-card, lady.female-meter, lady.baby-no-meter ---------------------
def test_sexes_share_a_field() -> None:
    s = lady_table(hands={0: ["Sojabohne w", "Sojabohne B", "Blaue Bohne"]},
                   fields={0: [["Sojabohne m"], ["Rote Bohne w"]]})
    allow(s, Plant(0, 0))
    allow(s, Plant(0, 0, choice=None))
    assert field(s, 0, 0) == ["soy m", "soy B", "soy w"]  # the baby lifted the female on top
    s = lady_table(hands={0: ["Sojabohne w"]}, fields={0: [["Rote Bohne m"], ["Rote Bohne w"]]})
    refuse(s, Plant(0, 0), "p1.no-room")
    s = lady_table(hands={0: ["Sojabohne w"]}, fields={0: [["Rote Bohne m"], []]})
    refuse(s, Plant(0, 0), "field.one-variety")


def test_top_card_meter_decides() -> None:
    s = lady_table(fields={0: [["Sojabohne m", "Sojabohne m", "Sojabohne w"], ["Sojabohne w", "Sojabohne m", "Sojabohne m"]]})
    assert harvest_coins(s, 0, 0) == 2  # female soy (1/3/5/6): 3 cards → 2
    assert harvest_coins(s, 0, 1) == 1  # male soy (2/4/6/7): 3 cards → 1
    events = allow(s, Harvest(0, 0))
    assert ("harvest", 0, 0, 3, 2) in events
    assert names(s, s.players[0].coins) == ["soy m", "soy w"]  # the top cards turn to coins
    assert names(s, s.discard) == ["soy m"]


def test_stink_meter_worked_example() -> None:
    """L „Die Bohnenernte“: a male Stinkbohne on top: 1–2 → 0, 3–4 → 1, 5–6 → 2, 7 → 3, 8+ → 4."""
    for n, coins in [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (8, 4)]:
        s = lady_table(fields={0: [["Stinkbohne m"] * n, []]})
        assert harvest_coins(s, 0, 0) == coins


def test_baby_on_top_yields_nothing() -> None:
    s = lady_table(fields={0: [["Blaue Bohne m"] * 6 + ["Blaue Bohne B"], []]})
    baby = s.players[0].fields[0][-1]
    assert s.meter[baby] is None
    assert harvest_coins(s, 0, 0) == 0
    events = allow(s, Harvest(0, 0))
    assert ("harvest", 0, 0, 7, 0) in events
    assert s.players[0].coins == [] and len(s.discard) == 7
    refuse(s, Harvest(0, 0), "input.empty-field")


# ---- lady.baby-lift ----------------------------------------------------------------------
def lift_table(field0: Sequence[str], hand: Sequence[str] = ("Sojabohne B",)) -> State:
    return lady_table(hands={0: list(hand) + ["Rote Bohne"]}, fields={0: [list(field0), []]},
                      deck=["Blaue Bohne"] * 4)


def test_baby_lift_default_moves_the_top_female_as_far_as_possible() -> None:
    s = lift_table(["Sojabohne w", "Sojabohne m"])
    female = s.players[0].fields[0][0]
    events = allow(s, Plant(0, 0))
    assert field(s, 0, 0) == ["soy m", "soy B", "soy w"]  # up two places: on top again
    assert ("lift", 0, 0, female, 2) in events
    s = lift_table(["Sojabohne m", "Sojabohne w"])
    allow(s, Plant(0, 0))
    assert field(s, 0, 0) == ["soy m", "soy B", "soy w"]  # only one place to go


def test_baby_lift_player_chooses_female_and_distance() -> None:
    s = lift_table(["Sojabohne w", "Sojabohne m", "Sojabohne w", "Sojabohne m"])
    low, high = s.players[0].fields[0][0], s.players[0].fields[0][2]
    baby = s.players[0].hand[0]
    choices = lift_choices(s, 0, 0, baby)
    assert choices == [(high, 2), (high, 1), (low, 2), (low, 1)]
    plants = [a for a in legal_actions(s, 0) if isinstance(a, Plant) and a.field == 0]
    assert plants == [Plant(0, 0, None, c) for c in choices]
    allow(s, Plant(0, 0, choice=(low, 1)))
    assert field(s, 0, 0) == ["soy m", "soy w", "soy w", "soy m", "soy B"]


def test_baby_lift_in_phase_3_from_set_aside() -> None:
    s = lady_table(fields={1: [["Blaue Bohne w", "Blaue Bohne m"], []]},
                   set_aside={1: ["Blaue Bohne B"]}, phase=Phase.PLANT_RECEIVED, deck=["Rote Bohne"] * 3)
    baby = s.players[1].set_aside[0]
    female = s.players[1].fields[0][0]
    allow(s, Plant(1, 0, baby, (female, 1)))
    assert field(s, 1, 0) == ["blue m", "blue w", "blue B"]
    assert s.phase is Phase.DRAW


def test_baby_without_female_lifts_nothing() -> None:
    s = lift_table(["Sojabohne m", "Sojabohne m"])
    assert [a for a in legal_actions(s, 0) if isinstance(a, Plant)] == [Plant(0, 0), Plant(0, 1)]
    events = allow(s, Plant(0, 0))
    assert field(s, 0, 0) == ["soy m", "soy m", "soy B"]
    assert not [e for e in events if e[0] == "lift"]
    s = lift_table([])
    allow(s, Plant(0, 0))
    assert field(s, 0, 0) == ["soy B"]


def test_baby_lift_refusals_leave_the_table_unchanged() -> None:
    s = lift_table(["Sojabohne w", "Sojabohne m", "Sojabohne m"])
    female, male = s.players[0].fields[0][0], s.players[0].fields[0][1]
    for lift in [(male, 1), (female, 0), (female, 3), (female, -1), (female, True)]:
        refuse(s, Plant(0, 0, choice=lift), "lady.baby-lift")
    refuse(s, Plant(0, 0, choice=(s.players[0].hand[1], 1)), "lady.baby-lift")  # not on the field
    refuse(s, Plant(0, 0, choice=(female,)), "lady.baby-lift")  # malformed
    refuse(s, Plant(0, 0, choice="oben"), "lady.baby-lift")
    s = lift_table(["Sojabohne m", "Sojabohne w"])
    top_female = s.players[0].fields[0][1]
    error = refuse(s, Plant(0, 0, choice=(top_female, 2)), "lady.baby-lift")  # past the top
    assert "über das Feld hinaus" in error.detail
    s = lift_table(["Sojabohne w"], hand=["Sojabohne m"])  # only a baby lifts
    refuse(s, Plant(0, 0, choice=(s.players[0].fields[0][0], 1)), "lady.baby-lift")
    amigo = lady_table(ruleset=find_ruleset("amigo"), hands={0: ["Sojabohne"]},
                       fields={0: [["Sojabohne"], []]})
    refuse(amigo, Plant(0, 0, choice=(amigo.players[0].fields[0][0], 1)), "lady.baby-lift")


# ---- lady.offer-variety-only -----------------------------------------------------------
def trade_table(**changes) -> State:
    """Anna (0) is active in phase 2, revealed Blue w + Red m; Ben and Clara hold cards."""
    spec_ = dict(
        hands={0: ["Gartenbohne w", "Sojabohne B"], 1: ["Sojabohne w", "Sojabohne B", "Feuerbohne B"],
               2: ["Blaue Bohne B"]},
        fields={0: [["Sojabohne m", "Sojabohne w"], ["Feuerbohne m"]], 1: [["Blaue Bohne m"], []]},
        revealed=["Blaue Bohne w", "Rote Bohne m"], phase=Phase.TRADE, deck=["Brechbohne"] * 6,
    )
    spec_.update(changes)
    return lady_table(**spec_)


def test_offer_names_the_variety_only_until_the_deal() -> None:
    s = trade_table()
    soy_w = s.players[1].hand[0]
    blue_w, _ = s.revealed
    garden_w = s.players[0].hand[0]
    allow(s, Offer(1, 0, give=(soy_w,), get=(blue_w, garden_w)))
    mine = offer_view(s, 1)
    assert [(c.variety, c.trait, c.card) for c in mine.give] == [("soy", "w", soy_w)]
    assert [c.label for c in mine.give] == ["Sojabohne (weiblich)"]
    # Ben sees the revealed Blaue Bohne (face up) but not Anna's hand card
    assert [(c.variety, c.trait, c.hidden) for c in mine.get] == [("blue", "w", False), ("garden", None, True)]
    theirs = offer_view(s, 0)
    assert [(c.variety, c.trait, c.card) for c in theirs.give] == [("soy", None, None)]
    assert theirs.give[0].label == "Sojabohne"
    assert theirs.get[1].trait == "w"  # her own card
    onlooker = offer_view(s, 2)
    assert [c.hidden for c in onlooker.give + onlooker.get] == [True, False, True]
    events = allow(s, Accept(0))
    assert ("sexes_shown", ((soy_w, "w"), (blue_w, "w"), (garden_w, "w"))) in events
    assert offer_view(s, 2) is None


def test_offers_show_everything_without_the_rule() -> None:
    s = lady_table(ruleset=find_ruleset("amigo"), hands={0: ["Sojabohne"], 1: ["Blaue Bohne"]},
                   phase=Phase.TRADE, deck=["Rote Bohne"] * 3)
    allow(s, Offer(0, 1, give=(s.players[0].hand[0],)))
    assert not offer_view(s, 1).give[0].hidden
    events = allow(s, Accept(1))
    assert not [e for e in events if e[0] == "sexes_shown"]


# ---- lady.baby-trade-immediate -----------------------------------------------------------
def test_received_baby_of_a_planted_variety_is_planted_at_once() -> None:
    s = trade_table()
    soy_b = s.players[1].hand[1]
    allow(s, Offer(1, 0, give=(soy_b,)))  # a gift
    events = allow(s, Accept(0))
    assert pending(s, 0) == [soy_b] and s.players[0].extra[IMMEDIATE_ZONE] == [soy_b]
    assert s.players[0].set_aside == []
    assert ("plant_now", 0, (soy_b,)) in events
    assert actor(s) == 0
    before = s.to_dict()
    assert State.from_dict(before) == s  # the waiting zone survives saving
    mine = [a for a in legal_actions(s, 0)]
    female = s.players[0].fields[0][1]
    assert mine == [Plant(0, 0, soy_b, (female, 1))]  # no harvest, no trading, no other field
    assert Harvest(1, 0) in legal_actions(s)  # the others may still harvest
    # nothing else may come in between
    refuse(s, Harvest(0, 0), "lady.baby-trade-immediate")
    refuse(s, EndTrading(0), "lady.baby-trade-immediate")
    refuse(s, Offer(0, 2, give=(s.revealed[0],)), "lady.baby-trade-immediate")
    refuse(s, Offer(2, 0, give=(s.players[2].hand[0],)), "lady.baby-trade-immediate")
    refuse(s, Plant(0, 1, soy_b), "lady.baby-trade-immediate")  # Feuerbohnen field
    refuse(s, Plant(0, 0, s.players[0].hand[1]), "lady.baby-trade-immediate")  # a hand card
    refuse(s, Plant(1, 0), "lady.baby-trade-immediate")
    refuse(s, Plant(0, 0, soy_b, (s.players[0].fields[0][0], 1)), "lady.baby-lift")  # a male
    events = allow(s, Plant(0, 0, soy_b))
    assert field(s, 0, 0) == ["soy m", "soy B", "soy w"]  # planted, and the female lifted
    assert ("lift", 0, 0, female, 1) in events
    assert s.phase is Phase.TRADE and actor(s) == 0 and s.players[0].extra[IMMEDIATE_ZONE] == []
    allow(s, EndTrading(0))  # trading goes on normally


def test_received_baby_two_fields_of_the_variety_and_other_cards() -> None:
    s = trade_table(fields={0: [["Sojabohne m"], ["Sojabohne m"]], 1: [["Blaue Bohne m"], []]})
    soy_w, soy_b, chili_b = s.players[1].hand
    blue_w, red = s.revealed
    allow(s, Offer(1, 0, give=(soy_w, soy_b, chili_b), get=(blue_w,)))
    allow(s, Accept(0))
    # the female Soja goes aside as usual, the Feuerbohnen baby too (no Feuerbohnen field
    # any more); Ben's new Blaue Bohne is no baby: aside as well
    assert names(s, s.players[0].set_aside) == ["soy w", "chili B"]
    assert names(s, s.players[1].set_aside) == ["blue w"]
    assert pending(s, 0) == [soy_b]
    assert [a for a in legal_actions(s, 0)] == [Plant(0, 0, soy_b), Plant(0, 1, soy_b)]
    allow(s, Plant(0, 1, soy_b))
    assert field(s, 0, 1) == ["soy m", "soy B"]


def test_babies_to_both_sides_of_a_deal() -> None:
    """Anna's Blue baby goes to Ben (Blue field), Ben's Soja baby to Anna (Soja field):
    both wait for their Plant, in any order, and trading goes on only afterwards."""
    s = trade_table(hands={0: ["Blaue Bohne B"], 1: ["Sojabohne B", "Feuerbohne B"]})
    blue_b, soy_b = s.players[0].hand[0], s.players[1].hand[0]
    allow(s, Offer(0, 1, give=(blue_b,), get=(soy_b,)))
    events = allow(s, Accept(1))
    assert ("plant_now", 0, (soy_b,)) in events and ("plant_now", 1, (blue_b,)) in events
    assert actor(s) == 0
    assert {a.player for a in legal_actions(s) if isinstance(a, Plant)} == {0, 1}
    allow(s, Plant(1, 0, blue_b))
    assert field(s, 1, 0) == ["blue m", "blue B"]
    refuse(s, EndTrading(0), "lady.baby-trade-immediate")
    allow(s, Plant(0, 0))  # card None: the waiting baby
    assert field(s, 0, 0) == ["soy m", "soy B", "soy w"]
    allow(s, EndTrading(0))


def test_without_the_rule_a_received_baby_is_set_aside() -> None:
    rules = find_ruleset("ladybohn")
    from dataclasses import replace
    relaxed = replace(rules, settings=replace(rules.settings, baby_trade_immediate=False))
    s = trade_table(ruleset=relaxed)
    soy_b = s.players[1].hand[1]
    allow(s, Offer(1, 0, give=(soy_b,)))
    allow(s, Accept(0))
    assert s.players[0].set_aside == [soy_b] and pending(s, 0) == []


# ---- lady.female-garden ------------------------------------------------------------------
def garden_table(**changes) -> State:
    spec_ = dict(
        fields={0: [["Gartenbohne m", "Gartenbohne w"], ["Blaue Bohne m"]]},
        discard=["Rote Bohne", "Augenbohne", "Brechbohne", "Sojabohne"],
        deck=["Feuerbohne", "Feuerbohne", "Stinkbohne"],
        phase=Phase.DRAW,
    )
    spec_.update(changes)
    return lady_table(**spec_)


def test_female_garden_takes_coins_from_the_discard_pile() -> None:
    s = garden_table()
    garden = list(s.players[0].fields[0])
    top3 = s.discard[-3:]
    assert harvest_coins(s, 0, 0) == 3  # w Gartenbohne (–, 1, 2, –): 2 cards → 3 Taler
    events = allow(s, Harvest(0, 0))
    assert ("harvest", 0, 0, 2, 3) in events and ("coins_from_piles", 0, 3, 0) in events
    assert sorted(s.players[0].coins) == sorted(top3)
    assert s.discard[-2:] == garden and len(s.discard) == 1 + 2  # the field goes back into play
    assert s.players[0].fields[0] == []


def test_female_garden_takes_the_rest_from_the_draw_pile() -> None:
    s = garden_table(discard=["Rote Bohne"])
    deck_top = s.deck[-2:]
    allow(s, Harvest(0, 0))
    assert names(s, s.players[0].coins)[0] == "red m"
    assert set(s.players[0].coins[1:]) == set(deck_top)
    assert len(s.deck) == 1 and names(s, s.discard) == ["garden m", "garden w"]


def test_female_garden_empties_the_draw_pile_reshuffle_after_the_field() -> None:
    s = garden_table(discard=[], deck=["Rote Bohne", "Rote Bohne"])
    assert harvest_coins(s, 0, 0) == 2  # only two cards in both piles
    events = allow(s, Harvest(0, 0))
    assert ("exhausted", 1) in events and ("reshuffle", 2) in events
    assert names(s, s.players[0].coins) == ["red m", "red m"]
    assert sorted(names(s, s.deck)) == ["garden m", "garden w"] and s.discard == []
    assert s.exhaustions == 1 and not s.ending


def test_female_garden_third_exhaustion_ends_the_game_after_the_turn() -> None:
    s = garden_table(discard=[], deck=["Rote Bohne"], exhaustions=2, phase=Phase.PLANT,
                     hands={0: ["Blaue Bohne", "Sojabohne"], 1: ["Rote Bohne"]})
    events = allow(s, Harvest(0, 0))
    assert ("exhausted", 3) in events and s.ending and s.phase is Phase.PLANT
    assert names(s, s.discard) == ["garden m", "garden w"]
    allow(s, Plant(0, 1))
    events = allow(s, EndPlanting(0))
    assert ("reveal", ()) in events  # nothing is revealed any more
    events = allow(s, EndTrading(0))
    assert s.phase is Phase.OVER and events[-1][0] == "game_over"
    # 1 coin from the last draw-pile card (owed 3); 2 male Blaue Bohnen bring nothing
    assert s.scores == [1, 0, 0, 0]


def test_male_garden_on_top_harvests_normally() -> None:
    s = garden_table(fields={0: [["Gartenbohne w", "Gartenbohne m"], []]})
    discard = list(s.discard)
    events = allow(s, Harvest(0, 0))
    assert ("harvest", 0, 0, 2, 2) in events and s.discard == discard
    assert not [e for e in events if e[0] == "coins_from_piles"]


def test_female_garden_in_the_final_harvest() -> None:
    s = garden_table(fields={0: [["Gartenbohne w"], []]}, deck=["Rote Bohne"], exhaustions=2,
                     discard=["Sojabohne", "Sojabohne"])
    allow(s, Draw(0))
    assert s.phase is Phase.OVER
    assert s.scores[0] == 2  # 1 female Gartenbohne → 2 Taler from the discard pile
    assert_one_zone(s)


# ---- lady.p3-order -----------------------------------------------------------------------
@pytest.mark.parametrize("active", [0, 2])
def test_phase3_active_player_first_then_clockwise(active: int) -> None:
    n = 4
    s = lady_table(set_aside={(active + 1) % n: ["Rote Bohne"], (active + 3) % n: ["Sojabohne"]},
                   revealed=["Blaue Bohne"], phase=Phase.PLANT_RECEIVED, active=active,
                   deck=["Brechbohne"] * 3)
    first, second = (active + 1) % n, (active + 3) % n
    error = refuse(s, Plant(first, 0), "lady.p3-order")
    assert s.players[active].name in error.detail
    refuse(s, Plant(second, 0), "lady.p3-order")
    assert actor(s) == active
    assert {a.player for a in legal_actions(s) if isinstance(a, Plant)} == {active}
    allow(s, Plant(active, 0))
    refuse(s, Plant(second, 0), "lady.p3-order")
    assert actor(s) == first
    allow(s, Plant(first, 0))
    allow(s, Plant(second, 0))
    assert s.phase is Phase.DRAW


def test_phase3_any_order_without_the_rule() -> None:
    s = lady_table(ruleset=find_ruleset("amigo"), set_aside={1: ["Rote Bohne"]},
                   revealed=["Blaue Bohne"], phase=Phase.PLANT_RECEIVED, deck=["Brechbohne"] * 3)
    allow(s, Plant(1, 0))


# ---- lady.end -------------------------------------------------------------------------
@pytest.mark.parametrize("left", [1, 2])
def test_game_ends_at_third_exhaustion_also_with_one_revealed_card(left: int) -> None:
    s = lady_table(hands={0: ["Blaue Bohne", "Sojabohne"], 1: ["Sojabohne w"]},
                   fields={1: [["Rote Bohne m", "Rote Bohne w"], []]},
                   deck=["Feuerbohne"] * left, exhaustions=2, discard=["Brechbohne"] * 3)
    allow(s, Plant(0, 0))
    events = allow(s, Plant(0, 1))
    assert [e for e in events if e[0] == "reveal"] == [("reveal", tuple(s.revealed))]
    assert len(s.revealed) == left and s.ending and ("exhausted", 3) in events
    assert s.phase is Phase.TRADE  # phase 2 is still played …
    allow(s, Offer(0, 1, give=(s.revealed[0],), get=(s.players[1].hand[0],)))
    allow(s, Accept(1))
    allow(s, EndTrading(0))
    assert s.phase is Phase.PLANT_RECEIVED  # … and phase 3
    while s.phase is Phase.PLANT_RECEIVED:  # plant, or harvest where nothing fits
        mine = legal_actions(s, actor(s))
        allow(s, next((a for a in mine if isinstance(a, Plant)), mine[0]))
    assert s.phase is Phase.OVER and s.scores is not None
    assert all(f == [] for p in s.players for f in p.fields)  # end.final-harvest
    refuse(s, Draw(0), "game.over")


# ---- random full games -------------------------------------------------------------------
def play(players: int, seed: int, limit: int = 6000) -> tuple[Game, Counter]:
    """A seeded game: random legal actions, deals and harvests a bit less often."""
    rng = random.Random(seed)
    game = Game.new("ladybohn", players, seed=seed, start_player=seed % players)
    seen: Counter = Counter()
    s = game.state
    while s.phase is not Phase.OVER and len(game.log) < limit:
        actions = legal_actions(s)
        assert actions, "a running game always has a legal action"
        plain = [a for a in actions if not isinstance(a, (Offer, Decline, Harvest))]
        deals = [a for a in actions if isinstance(a, Offer)]
        roll = rng.random()
        if roll < 0.25 and deals:
            pool = deals
        elif roll < 0.40 or not plain:
            pool = actions
        else:
            pool = plain
        action = rng.choice(pool)
        assert check(s, action) is None, (action, check(s, action))
        before = s.to_dict()
        events = game.apply(action)
        for e in events:
            seen[e[0]] += 1
        # card conservation: every card in exactly one zone after every step
        zones = sorted(c for _, cards in s.zones() for c in cards)
        assert zones == list(range(110)), (seed, len(game.log), action)
        assert before != s.to_dict(), action
        if s.phase is not Phase.OVER:
            assert actor(s) is not None
    return game, seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_full_games_keep_every_card(players: int) -> None:
    total: Counter = Counter()
    for seed in range(6):
        game, seen = play(players, 100 * players + seed)
        s = game.state
        assert s.phase is Phase.OVER, f"seed {seed}: not over after {len(game.log)} actions"
        assert s.scores == [len(p.coins) for p in s.players]
        assert s.exhaustions >= 1
        total += seen
        if seed == 0:  # exact replay from the log
            assert game.state_at(len(game.log)) == s
            assert Game.from_json(game.to_json()).state == s
    assert total["lift"] > 0 and total["plant_now"] > 0 and total["sexes_shown"] > 0
    assert total["game_over"] == 6


def test_random_games_exercise_female_garden_harvests() -> None:
    """Across seeds some harvests take their coins from the piles; cards still add up."""
    harvests = 0
    for seed in range(12):
        _, seen = play(3 + seed % 3, 7000 + seed)
        harvests += seen["coins_from_piles"]
    assert harvests > 0


def test_documented_meter_template_loads_and_matches_the_assumption() -> None:
    template = Path(__file__).resolve().parent.parent / "docs" / "ladybohn-bohnometer.toml"
    rules = load_ruleset_with_meters("ladybohn", template)
    assert rules.meter_assumption == ""
    assert rules.meter_source == "Werte aus ladybohn-bohnometer.toml"
    assert rules.trait_meters == LADY.trait_meters
