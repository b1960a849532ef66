"""The table: cards as ids, zones as ordered lists, phases. Pure data, no rules.

Orders: a hand is front first; a field is bottom first (the last planted card is on top,
at the end); the draw pile, the discard pile and a coin pile keep their top at the end
(the JSON form lists the draw pile top first, as people read it).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final, Iterator

from bohnteach.game.actions import Offer
from bohnteach.game.beans import Meter, coin_steps
from bohnteach.game.edition import Edition, find_edition
from bohnteach.game.rulesets import PlayerCountRules, RuleSet, Trait, find_ruleset


class Phase(IntEnum):
    PLANT = 1
    TRADE = 2
    PLANT_RECEIVED = 3
    DRAW = 4
    OVER = 5


@dataclass(frozen=True)
class CardInfo:
    id: int
    variety: str
    trait: Trait = None
    """An edition's mark on the card that sets its meter and kind (``RuleSet.traits``);
    None in a deck without traits."""


class Player:
    __slots__ = ("name", "hand", "fields", "set_aside", "coins", "extra")

    def __init__(self, name: str = "", fields: int = 0, zones: tuple[str, ...] = ()):
        # defaults: ``copy`` makes a blank one (a compiled class runs __init__ in __new__)
        self.name = name
        self.hand: list[int] = []
        self.fields: list[list[int]] = [[] for _ in range(fields)]
        self.set_aside: list[int] = []
        self.coins: list[int] = []
        self.extra: dict[str, list[int]] = {key: [] for key in zones}
        """The edition's per-player zones (``Edition.zones``), by key."""

    def copy(self) -> Player:
        other = Player.__new__(Player)
        other.name = self.name
        other.hand = self.hand[:]
        other.fields = [f[:] for f in self.fields]
        other.set_aside = self.set_aside[:]
        other.coins = self.coins[:]
        other.extra = {k: v[:] for k, v in self.extra.items()} if self.extra else {}
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": self.hand[:],
            "fields": [f[:] for f in self.fields],
            "set_aside": self.set_aside[:],
            "coins": self.coins[:],
        } | ({"extra": {k: v[:] for k, v in self.extra.items()}} if self.extra else {})


_TABLES: dict[tuple[int, int], tuple] = {}

CardTables = tuple[
    tuple[CardInfo, ...], tuple[str, ...], tuple[Meter | None, ...], tuple[tuple[int, ...], ...],
    tuple[int, ...],
]


def _card_tables(ruleset: RuleSet, cards: Sequence[CardInfo]) -> CardTables:
    """Per card id: its record, variety, meter, coins by field size (``beans.coin_steps``)
    and kind (one number per variety and trait). Remembered for a deck given as a tuple (the
    shared one of ``engine.make_cards``), so a new game does not rebuild them."""
    key = (id(ruleset), id(cards))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is ruleset and hit[1] is cards:
        return hit[2]
    info = tuple(cards)
    meters: dict[tuple, Meter | None] = {}  # one look-up per kind of card, not per card
    for c in info:
        if (c.variety, c.trait) not in meters:
            meters[c.variety, c.trait] = ruleset.meter_for(c.variety, c.trait)
    kinds = {k: i for i, k in enumerate(meters)}
    steps = {k: coin_steps(m) for k, m in meters.items()}
    tables = (
        info, tuple(c.variety for c in info), tuple(meters[c.variety, c.trait] for c in info),
        tuple(steps[c.variety, c.trait] for c in info), tuple(kinds[c.variety, c.trait] for c in info),
    )
    if isinstance(cards, tuple):  # immutable: safe to share (ruleset and deck kept alive)
        _TABLES[key] = (ruleset, cards, tables)
    return tables


def _listed(value: Any) -> Any:
    """``marks`` in JSON form: tuples become lists."""
    if isinstance(value, dict):
        return {k: _listed(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_listed(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    """``marks`` back from JSON: lists become tuples again."""
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


_STATE_SLOTS: Final = (
    "ruleset", "edition", "hooks", "setup", "cards", "variety", "meter", "players", "start_player",
    "active", "phase", "deck", "discard", "revealed", "offer", "hand_plants",
    "exhaustions", "ending", "seed", "turn", "extra", "scores", "winners", "events",
    "face_down", "marks", "coin_steps", "kind",
)
"""``State``'s attributes (a module constant: ``copy`` reads it, also when compiled)."""


class State:
    """Everything on the table at one moment. Mutated only by ``engine.apply``."""

    __slots__ = _STATE_SLOTS

    def __init__(
        self, ruleset: RuleSet | None = None, names: Sequence[str] = (),
        cards: Sequence[CardInfo] = (), seed: int = 0,
    ):
        if ruleset is None:  # a blank one for ``copy`` (a compiled class runs __init__ in __new__)
            return
        self.ruleset = ruleset
        self.edition: Edition = find_edition(ruleset.edition)
        self.hooks: Edition | None = self.edition if self.edition.hooked else None
        """The edition when it switches a hook on, else None: the engine's hook points ask
        this slot first (``Edition.hooked``), so the base game never looks a hook up."""
        self.setup: PlayerCountRules = ruleset.for_players(len(names))
        self.cards, self.variety, self.meter, self.coin_steps, self.kind = _card_tables(ruleset, cards)
        """Per card id (shared, immutable): record, variety, meter, coins for a harvest of
        n beans with it on top (``beans.coin_steps``), kind (same variety and trait)."""
        own = tuple(z.key for z in self.edition.zones if z.per_player)
        self.players = [Player(n, self.setup.fields, own) for n in names]
        self.start_player = 0
        self.active = 0
        self.phase = Phase.PLANT
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.revealed: list[int] = []
        self.offer: Offer | None = None
        self.hand_plants = 0
        self.exhaustions = 0
        self.ending = False
        self.seed = seed
        self.turn = 1
        self.extra: dict[str, list[int]] = {
            z.key: [] for z in self.edition.zones if not z.per_player
        }
        """Table-wide zones: the edition's, and ``box`` (cards a scene leaves out)."""
        self.scores: list[int] | None = None
        self.winners: list[int] | None = None
        self.events: list[tuple] = []
        self.face_down: set[int] = set()
        """Cards lying face down on the discard pile (coins paid for a field)."""
        self.marks: dict[str, Any] = {}
        """An edition's bookkeeping that is no card (visits counted this turn);
        values are immutable (ints, strings, tuples), so a shallow copy suffices."""

    # ---- reading -------------------------------------------------------------------
    @property
    def pass_number(self) -> int:
        """Which pass through the draw pile this is (1 before the first reshuffle)."""
        return self.exhaustions + 1

    @property
    def n_players(self) -> int:
        return len(self.players)

    def field_variety(self, player: int, field: int) -> str | None:
        cards = self.players[player].fields[field]
        return self.variety[cards[0]] if cards else None

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """Every zone with its cards; each card of the game is in exactly one."""
        yield "deck", self.deck
        yield "discard", self.discard
        yield "revealed", self.revealed
        for p in self.players:
            yield f"{p.name}.hand", p.hand
            for i, f in enumerate(p.fields):
                yield f"{p.name}.field{i + 1}", f
            yield f"{p.name}.set_aside", p.set_aside
            yield f"{p.name}.coins", p.coins
            for key, cards in p.extra.items():
                yield f"{p.name}.{key}", cards
        for name, cards in self.extra.items():
            yield name, cards

    def copy(self) -> State:
        other = State.__new__(State)
        for slot in _STATE_SLOTS:
            setattr(other, slot, getattr(self, slot))
        other.players = [p.copy() for p in self.players]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.revealed = self.revealed[:]
        other.extra = {k: v[:] for k, v in self.extra.items()}
        other.scores = None if self.scores is None else self.scores[:]
        other.winners = None if self.winners is None else self.winners[:]
        other.events = []
        other.face_down = set(self.face_down)
        other.marks = dict(self.marks) if self.marks else {}  # never share: a copy writes its own
        return other

    # ---- JSON ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "cards": [[c.variety, c.trait] for c in self.cards],
            "players": [p.to_dict() for p in self.players],
            "start_player": self.start_player,
            "active": self.active,
            "phase": int(self.phase),
            "deck_top_first": self.deck[::-1],
            "discard": self.discard[:],
            "revealed": self.revealed[:],
            "offer": None if self.offer is None else [
                self.offer.player, self.offer.to, list(self.offer.give), list(self.offer.get)
            ],
            "hand_plants": self.hand_plants,
            "exhaustions": self.exhaustions,
            "ending": self.ending,
            "seed": self.seed,
            "turn": self.turn,
            "extra": {k: v[:] for k, v in self.extra.items()},
            "scores": self.scores,
            "winners": self.winners,
            "face_down": sorted(self.face_down),
        } | ({"marks": _listed(self.marks)} if self.marks else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any], ruleset: RuleSet | None = None) -> State:
        rules = ruleset or find_ruleset(data["ruleset"])
        cards = [CardInfo(i, v, s) for i, (v, s) in enumerate(data["cards"])]
        state = cls(rules, [p["name"] for p in data["players"]], cards, data["seed"])
        for player, raw in zip(state.players, data["players"]):
            player.hand = list(raw["hand"])
            player.fields = [list(f) for f in raw["fields"]]
            player.set_aside = list(raw["set_aside"])
            player.coins = list(raw["coins"])
            for key, cards in raw.get("extra", {}).items():
                player.extra[key] = list(cards)
        state.start_player = data["start_player"]
        state.active = data["active"]
        state.phase = Phase(data["phase"])
        state.deck = list(data["deck_top_first"])[::-1]
        state.discard = list(data["discard"])
        state.revealed = list(data["revealed"])
        offer = data.get("offer")
        state.offer = None if offer is None else Offer(
            offer[0], offer[1], tuple(offer[2]), tuple(offer[3])
        )
        state.hand_plants = data["hand_plants"]
        state.exhaustions = data["exhaustions"]
        state.ending = data["ending"]
        state.turn = data["turn"]
        state.extra.update({k: list(v) for k, v in data.get("extra", {}).items()})
        state.scores = data.get("scores")
        state.winners = data.get("winners")
        state.face_down = set(data.get("face_down", ()))
        state.marks = _tupled(data.get("marks", {}))
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State {self.ruleset.name} turn {self.turn} phase {int(self.phase)} "
            f"active {self.players[self.active].name}>"
        )
