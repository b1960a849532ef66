"""Saved games: every tampered save is refused with a SaveFileError naming the field, by
the core (``Game.from_json``, plain Python) and by the schema entry point
(``bohnteach.savefile.parse_game``, msgspec first); a real save loads in both."""
from __future__ import annotations

import copy
import json
import typing
from typing import Callable

import pytest

from bohnteach import savefile
from bohnteach.game.actions import Accept, BuyField, EndPlanting, Offer, Plant
from bohnteach.game.engine import legal_actions
from bohnteach.game.record import Game
from bohnteach.game.savecheck import FORMAT, MAX_SAVE_CHARS, SaveFileError


def _game() -> Game:
    """An online game at 4 after a few turns, with an open offer at the end."""
    g = Game.new("online", 4, seed=5)
    while g.state.turn < 6:
        g.apply(legal_actions(g.state, offers=False)[-1])
    g.apply(Plant(g.state.active, 0)) if Plant(g.state.active, 0) in legal_actions(g.state) else None
    while type(legal_actions(g.state, offers=False)[-1]).__name__ != "EndTrading":
        g.apply(legal_actions(g.state, offers=False)[-1])
    active = g.state.active
    g.apply(Offer(active, (active + 1) % 4, (g.state.players[active].hand[0],)))
    return g


GAME = _game()
SAVE = GAME.to_dict()


def _both(data: object) -> list[SaveFileError]:
    """The refusal of both entry points (each must refuse with a SaveFileError)."""
    errors = []
    for load in (Game.from_json, savefile.parse_game):
        with pytest.raises(SaveFileError) as caught:
            load(json.dumps(data) if not isinstance(data, (str, bytes)) else data)
        assert caught.value.reason and caught.value.field
        assert "Traceback" not in str(caught.value)
        errors.append(caught.value)
    return errors


def test_the_state_with_its_open_offer_loads() -> None:
    d = {"format": FORMAT, "initial": GAME.state.to_dict(), "log": []}
    for load in (Game.from_json, savefile.parse_game):
        assert load(json.dumps(d)).state == GAME.state


def test_a_real_save_loads_in_both_entry_points() -> None:
    text = GAME.to_json()
    for load in (Game.from_json, savefile.parse_game):
        g = load(text)
        assert g.state == GAME.state and g.log == GAME.log
    assert SAVE["initial"]["offer"] is None and GAME.state.offer is not None


def _set(path: str, value: object) -> Callable[[dict], None]:
    def change(d: dict) -> None:
        *head, last = path.split("/")
        for key in head:
            d = d[int(key)] if key.isdigit() else d[key]
        if last.isdigit():
            d[int(last)] = value
        else:
            d[last] = value
    return change


def _card_in_two_hands(d: dict) -> None:
    d["initial"]["players"][1]["hand"].append(d["initial"]["players"][0]["hand"][0])


def _missing_card(d: dict) -> None:
    d["initial"]["deck_top_first"].pop()


def _mixed_field(d: dict) -> None:
    p = d["initial"]["players"][0]
    deck = d["initial"]["deck_top_first"]
    cards = d["initial"]["cards"]
    a = deck.pop()
    b = next(c for c in deck if cards[c][0] != cards[a][0])
    deck.remove(b)
    p["fields"][0] = [a, b]
    p["coins"] += p["fields"][1]  # keep each card once
    p["fields"][1] = []


def _five_fields(d: dict) -> None:
    d["initial"]["players"][0]["fields"] += [[], [], []]


def _offer_seat_9(d: dict) -> None:
    d["initial"]["offer"] = [9, 9, [], []]


def _offer_of_a_field_card(d: dict) -> None:
    """The table of GAME (with its open offer) as the initial state, offering a field card."""
    d["initial"] = json.loads(json.dumps(GAME.state.to_dict()))
    d["log"] = []
    active = GAME.state.active
    field_card = next(c for f in GAME.state.players[active].fields for c in f)
    d["initial"]["offer"] = [active, (active + 1) % 4, [field_card], []]


TAMPERED = {
    "offer of a field card": (_offer_of_a_field_card, "initial.offer"),
    "card in two hands": (_card_in_two_hands, "initial.players[1].hand"),
    "missing id": (_missing_card, "initial"),
    "id 999": (_set("initial/players/0/hand/0", 999), "initial.players[0].hand[0]"),
    "id -1": (_set("initial/players/0/hand/0", -1), "initial.players[0].hand[0]"),
    "float id": (_set("initial/players/0/hand/0", 3.0), "initial.players[0].hand[0]"),
    "five fields": (_five_fields, "initial.players[0].fields"),
    "mixed field": (_mixed_field, "initial.players[0].fields[0]"),
    "start player 9": (_set("initial/start_player", 9), "initial.start_player"),
    "negative turn": (_set("initial/turn", -4), "initial.turn"),
    "negative exhaustions": (_set("initial/exhaustions", -1), "initial.exhaustions"),
    "hand_plants 7": (_set("initial/hand_plants", 7), "initial.hand_plants"),
    "phase 9": (_set("initial/phase", 9), "initial.phase"),
    "ending true as 1": (_set("initial/ending", 1), "initial.ending"),
    "offer 9 to 9": (_offer_seat_9, "initial.offer"),
    "unknown ruleset": (_set("initial/ruleset", "poker"), "initial"),
    "no players": (_set("initial/players", []), "initial.players"),
    "player without hand": (lambda d: d["initial"]["players"][0].pop("hand"), "initial.players[0]"),
    "unknown key": (_set("initial/colour", "rot"), "initial"),
    "wrong format": (_set("format", "chess/1"), "format"),
    "log entry unknown": (_set("log/0", {"type": "Cheat", "player": 0}), "log[0]"),
    "log entry float": (_set("log/0/player", 0.0), "log[0]"),
    "log entry illegal": (lambda d: d["log"].insert(0, {"type": "Draw", "player": 0}), "log[0]"),
    "log not a list": (_set("log", {"0": 1}), "log"),
    "deck with ending": (_set("initial/ending", True), "initial.ending"),
    "scores before the end": (_set("initial/scores", [1, 2, 3, 4]), "initial.scores"),
    "face down not on the pile": (lambda d: d["initial"].__setitem__(
        "face_down", d["initial"]["players"][0]["hand"][:1]), "initial.face_down"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_a_tampered_save_names_its_field(name: str) -> None:
    change, field = TAMPERED[name]
    data = copy.deepcopy(SAVE)
    change(data)
    for error in _both(data):
        assert error.field.startswith(field), (name, error.field, error.reason)


@pytest.mark.parametrize("text", [
    "", "{", "[]", "null", "42", '"x"', "[" * 100_000 + "]" * 100_000,
    '{"format": "' + FORMAT + '", "initial": {}, "log": []}',
    '{"format": "' + FORMAT + '", "initial": ' + "1" * 5000 + ', "log": []}',
    b"\xff\xfe\x00",
])
def test_broken_json_is_a_save_file_error(text) -> None:
    _both(text)


def test_a_huge_text_is_refused_unread() -> None:
    errors = _both(" " * (MAX_SAVE_CHARS + 1))
    assert all(e.field == "spielstand" for e in errors)


def test_loading_a_file(tmp_path) -> None:
    path = tmp_path / "spiel.json"
    GAME.save(path)
    assert Game.load(path).state == GAME.state == savefile.load_game(path).state
    for load in (Game.load, savefile.load_game):
        with pytest.raises(SaveFileError, match="datei"):
            load(tmp_path / "fehlt.json")
        with pytest.raises(SaveFileError):
            load(tmp_path)  # a folder


def test_the_schema_names_the_core_format() -> None:
    hints = typing.get_type_hints(savefile.SaveGame)
    assert typing.get_args(hints["format"]) == (FORMAT,)
    assert "SaveGame" in json.dumps(savefile.json_schema())


def test_a_bought_field_and_its_face_down_coins_survive_a_save() -> None:
    g = Game.new("online", 4, seed=2)
    s = g.state
    s.players[0].coins = [s.deck.pop() for _ in range(3)]
    g = Game(s)
    g.apply(BuyField(0))
    for load in (Game.from_json, savefile.parse_game):
        again = load(g.to_json())
        assert again.state.face_down == g.state.face_down and len(again.state.players[0].fields) == 3


def test_every_state_of_a_played_game_passes_the_checks() -> None:
    """The checks refuse no state the engine reaches (here: each step of one game)."""
    g = Game.new("ladybohn", 3, seed=4)
    step = 0
    while legal_actions(g.state) and step < 400:
        actions = legal_actions(g.state)
        g.apply(actions[(step * 7) % len(actions)])
        if step % 20 == 0:
            Game.from_dict(Game(g.state).to_dict())
        step += 1
    assert Game.from_json(g.to_json()).state == g.state
    assert Accept and EndPlanting  # imported for the tamper helpers' readers


def test_a_baby_lift_saved_under_its_older_name_loads_as_the_plant_choice() -> None:
    """Saves written before the core said ``Plant.choice`` name a Ladybohn lift ``lift``."""
    from test_ladybohn import lift_table  # a baby in hand, females on field 1

    g = Game(lift_table(["Sojabohne w", "Sojabohne m", "Sojabohne w", "Sojabohne m"]))
    low = g.state.players[0].fields[0][0]
    g.apply(Plant(0, 0, None, (low, 1)))
    data = json.loads(g.to_json())
    entry = data["log"][-1]
    assert entry["choice"] == [low, 1]
    entry["lift"] = entry.pop("choice")  # the older file
    loaded = savefile.parse_game(json.dumps(data))
    assert loaded.log[-1] == Plant(0, 0, None, (low, 1)) and loaded.state.to_dict() == g.state.to_dict()
