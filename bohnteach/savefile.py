"""Saved games checked against a schema: the format of ``Game.to_dict`` as msgspec types.

Why two places check a save: the game core (``bohnteach.game``) imports no third-party
package, so ``Game.from_dict``/``from_json`` check structure and meaning in plain Python
(``game/savecheck.py``) and are safe on their own. This module is the entry point for
the UI and the command line: it decodes with the msgspec schema first (exact types — no
float or bool for an int —, required and unknown keys, value ranges, a path to the first
bad field), then hands the plain data to ``Game.from_dict`` for what a schema cannot say
(each card once, the rule set's deck and field counts, the open offer, the replay of the
log). Both raise the same ``SaveFileError(field, reason)`` with a German reason;
``json_schema()`` publishes the format (docs/engine-api.md). The module is its own layer
just above the game core (pyproject.toml), so every layer above may load saves with it.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta, Struct

from bohnteach.game.record import Game, read_save_file
from bohnteach.game.rulesets import RuleSet
from bohnteach.game.savecheck import MAX_LOG, MAX_SAVE_CHARS, SaveFileError

# Bounds a schema can state; the deck size, seats and field counts of the actual rule set
# are checked semantically by ``savecheck`` afterwards.
Id = Annotated[int, Meta(ge=0, le=999)]
Seat = Annotated[int, Meta(ge=0, le=9)]
Cards = Annotated[list[Id], Meta(max_length=200)]
Count = Annotated[int, Meta(ge=0, le=200)]


class PlayerData(Struct, forbid_unknown_fields=True):
    name: Annotated[str, Meta(min_length=1, max_length=40)]
    hand: Cards
    fields: Annotated[list[Cards], Meta(max_length=3)]
    set_aside: Cards
    coins: Cards
    extra: dict[Annotated[str, Meta(max_length=40)], Cards] = {}
    """The edition's per-player zones (e.g. Ladybohn's ``immediate``)."""


class StateData(Struct, forbid_unknown_fields=True):
    ruleset: Annotated[str, Meta(min_length=1, max_length=40)]
    cards: Annotated[list[tuple[str, Literal["m", "w", "B"] | None]], Meta(max_length=200)]
    players: Annotated[list[PlayerData], Meta(min_length=1, max_length=10)]
    start_player: Seat
    active: Seat
    phase: Annotated[int, Meta(ge=1, le=5)]
    deck_top_first: Cards
    discard: Cards
    revealed: Annotated[list[Id], Meta(max_length=2)]
    offer: tuple[Seat, Seat, Cards, Cards] | None
    hand_plants: Annotated[int, Meta(ge=0, le=2)]
    exhaustions: Annotated[int, Meta(ge=0, le=9)]
    ending: bool
    seed: Annotated[int, Meta(ge=-(2**63) + 1, le=2**63 - 1)]
    turn: Annotated[int, Meta(ge=1, le=10 * MAX_LOG)]
    extra: dict[Annotated[str, Meta(max_length=40)], Cards] = {}
    scores: list[Count] | None = None
    winners: list[Seat] | None = None
    face_down: Cards = []
    marks: dict[Annotated[str, Meta(max_length=40)], Any] = {}
    """An edition's bookkeeping (Indiana: this turn's temple visits); checked by savecheck."""


class _Action(Struct, tag_field="type", forbid_unknown_fields=True):
    player: Seat


class PlantData(_Action, tag="Plant"):
    field: Seat
    card: Id | None = None
    choice: Annotated[list[Annotated[int, Meta(ge=-999, le=999)]], Meta(max_length=8)] | None = None
    """An edition's choice for this plant (``Plant.choice``: whole numbers it checks)."""
    lift: tuple[Id, Annotated[int, Meta(ge=-9, le=9)]] | None = None
    """The choice under its older name (files saved before the core said ``choice``)."""


class EndPlantingData(_Action, tag="EndPlanting"):
    pass


class HarvestData(_Action, tag="Harvest"):
    field: Seat
    cards: Count | None = None


class OfferData(_Action, tag="Offer"):
    to: Seat
    give: Cards = []
    get: Cards = []


class AcceptData(_Action, tag="Accept"):
    pass


class DeclineData(_Action, tag="Decline"):
    pass


class EndTradingData(_Action, tag="EndTrading"):
    pass


class DrawData(_Action, tag="Draw"):
    pass


class BuyFieldData(_Action, tag="BuyField"):
    pass


class ReorderData(_Action, tag="Reorder"):
    order: Cards


class TakeIntoHandData(_Action, tag="TakeIntoHand"):
    card: Id


Name = Annotated[str, Meta(max_length=40)]


# Indiana Bohnes (editions/indiana/rules.py): its own action types
class VisitTempleData(_Action, tag="VisitTemple"):
    variety: Name
    path: bool = False


class LoadCarrierData(_Action, tag="LoadCarrier"):
    variety: Name


class SellAdventurerData(_Action, tag="SellAdventurer"):
    pass


class FieldToAdventurerData(_Action, tag="FieldToAdventurer"):
    field: Seat


class BuyCardData(_Action, tag="BuyCard"):
    kind: Name


class LayCarrierData(_Action, tag="LayCarrier"):
    pass


class SabotageData(_Action, tag="Sabotage"):
    target: Seat


ActionData = Union[
    PlantData, EndPlantingData, HarvestData, OfferData, AcceptData, DeclineData,
    EndTradingData, DrawData, BuyFieldData, ReorderData, TakeIntoHandData,
    VisitTempleData, LoadCarrierData, SellAdventurerData, FieldToAdventurerData, BuyCardData,
    LayCarrierData, SabotageData,
]


class SaveGame(Struct, forbid_unknown_fields=True):
    format: Literal["bohnteach-game/1"]  # savecheck.FORMAT (a test keeps them equal)
    initial: StateData
    log: Annotated[list[ActionData], Meta(max_length=MAX_LOG)]


_DECODER = msgspec.json.Decoder(SaveGame)


# ---- msgspec's English messages, in German ----------------------------------------------
_TYPES = {"int": "eine ganze Zahl", "str": "einen Text", "array": "eine Liste",
          "object": "ein Objekt", "bool": "true oder false", "null": "null",
          "float": "eine Kommazahl"}
_REASONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"Expected `(\w+)`, got `(\w+)`"), "erwartet {0}, gefunden {1}."),
    (re.compile(r"Expected `(\w+)` >= (-?\d+)"), "erwartet {0} ≥ {1}."),
    (re.compile(r"Expected `(\w+)` <= (-?\d+)"), "erwartet {0} ≤ {1}."),
    (re.compile(r"Expected `(\w+)` of length >= (\d+)"), "erwartet {0} mit mindestens {1} Einträgen."),
    (re.compile(r"Expected `(\w+)` of length <= (\d+)"), "erwartet {0} mit höchstens {1} Einträgen."),
    (re.compile(r"Expected `(\w+)` of length (\d+)"), "erwartet {0} mit genau {1} Einträgen."),
    (re.compile(r"Object missing required field `(.{0,40})"), "Pflichtfeld „{0}“ fehlt."),
    (re.compile(r"Object contains unknown field `(.{0,40})"), "unbekanntes Feld „{0}“."),
    (re.compile(r"Invalid enum value (.{0,40})"), "ungültiger Wert {0}."),
    (re.compile(r"Invalid value (.{0,40})"), "ungültiger Wert {0}."),
]


def _german(error: msgspec.ValidationError) -> SaveFileError:
    text = str(error)
    message, _, where = text.partition(" - at `")
    field = where.rstrip("`").removeprefix("$").lstrip(".") or "spielstand"
    for pattern, template in _REASONS:
        m = pattern.search(message)
        if m:
            words = [_TYPES.get(g, g).rstrip("`") for g in m.groups()]
            return SaveFileError(field[:120], template.format(*words))
    return SaveFileError(field[:120], f"ungültig ({message[:80]}).")


# ---- entry points ------------------------------------------------------------------------
def parse_game(text: str | bytes, ruleset: RuleSet | None = None) -> Game:
    """The saved game in ``text``: schema first, then ``Game.from_dict`` (meaning, replay).
    Raises ``SaveFileError`` naming the field, never another exception type."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveFileError("spielstand", "erwartet JSON-Text.")
    if len(text) > MAX_SAVE_CHARS:
        raise SaveFileError("spielstand", f"{len(text)} Zeichen; höchstens {MAX_SAVE_CHARS}.")
    try:
        data = _DECODER.decode(text)
    except msgspec.ValidationError as error:
        raise _german(error) from None
    except (msgspec.DecodeError, RecursionError, UnicodeError) as error:
        raise SaveFileError("spielstand", f"kein gültiges JSON ({str(error)[:80]}).") from None
    raw = msgspec.to_builtins(data)
    for entry in raw["log"]:
        if entry["type"] == "Plant":  # an older file's ``lift`` is the plant's choice
            older = entry.pop("lift", None)
            if entry.get("choice") is None and older is not None:
                entry["choice"] = older
    return Game.from_dict(raw, ruleset)


def load_game(path: str | Path, ruleset: RuleSet | None = None) -> Game:
    """``parse_game`` of a file (at most ``MAX_SAVE_CHARS`` bytes are read)."""
    return parse_game(read_save_file(path), ruleset)


def json_schema() -> dict[str, Any]:
    """The save format as a JSON Schema (generated from the msgspec types)."""
    return msgspec.json.schema(SaveGame)


__all__ = ["SaveFileError", "SaveGame", "json_schema", "load_game", "parse_game"]
