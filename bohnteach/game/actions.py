"""Small immutable action types. Players and fields are 0-based indices; cards are ids.

Two actions of different types never compare equal (unlike plain named tuples), so
``action in legal_actions(state)`` is safe. German text forms live in ``notation.py``.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any, NamedTuple

from bohnteach.game.edition import choice_owner, choice_rule
from bohnteach.game.errors import RuleViolation


class Plant(NamedTuple):
    """Plant a card on a field: phase 1 the front hand card (``card`` None or the front
    card's id), phase 3 a set-aside or revealed card (``card`` None = the first one).

    ``choice``: an edition's choice that goes with this plant, as whole numbers (card ids,
    places), checked by the edition's ``check_plant`` hook; ``None`` = the default choice.
    Where a rule set offers no choice, one is refused (``edition.choice_rule``)."""

    player: int
    field: int
    card: int | None = None
    choice: tuple[int, ...] | None = None


class EndPlanting(NamedTuple):
    """Phase 1: stop after the first card instead of planting a second one."""

    player: int


class Harvest(NamedTuple):
    """Harvest a field. ``cards`` (optional) is how many cards the player wants to take;
    anything but the whole field is refused (harvest.whole-field)."""

    player: int
    field: int
    cards: int | None = None


class Offer(NamedTuple):
    """Propose a deal: ``player`` gives ``give`` and wants ``get`` from ``to``.
    A gift is an offer with ``get`` empty."""

    player: int
    to: int
    give: tuple[int, ...] = ()
    get: tuple[int, ...] = ()


class Accept(NamedTuple):
    """The addressee of the open offer agrees; the cards change hands (set aside)."""

    player: int


class Decline(NamedTuple):
    """The addressee rejects the open offer, or its author withdraws it."""

    player: int


class EndTrading(NamedTuple):
    """The active player ends phase 2."""

    player: int


class Draw(NamedTuple):
    """Phase 4: the active player draws (3 cards; 4 in some variants)."""

    player: int


class BuyField(NamedTuple):
    """Buy a third field where the rule set allows it."""

    player: int


class Reorder(NamedTuple):
    """Sort the hand into a new order of card ids — always refused (hand.order);
    it exists so that the beginner mistake can be tried and explained."""

    player: int
    order: tuple[int, ...]


class TakeIntoHand(NamedTuple):
    """Put a received card into the hand — always refused (trade.set-aside)."""

    player: int
    card: int


ACTION_TYPES: tuple[type, ...] = (
    Plant, EndPlanting, Harvest, Offer, Accept, Decline, EndTrading, Draw, BuyField,
    Reorder, TakeIntoHand,
)
Action = (
    Plant | EndPlanting | Harvest | Offer | Accept | Decline | EndTrading | Draw | BuyField
    | Reorder | TakeIntoHand
)


def _eq(self: tuple, other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[arg-type]


def _ne(self: tuple, other: object) -> bool:
    return not _eq(self, other)


def _hash(self: tuple) -> int:
    return hash((type(self).__name__, tuple(self)))


for _cls in ACTION_TYPES:
    _cls.__eq__ = _eq  # type: ignore[method-assign,assignment]
    _cls.__ne__ = _ne  # type: ignore[method-assign,assignment]
    _cls.__hash__ = _hash  # type: ignore[method-assign,assignment]


MAX_CARDS_IN_ACTION = 200
"""More cards than any deck has: a longer card list in an action is refused unread."""

# per action type, the kind of each field: a seat, a field index, an optional card id or
# count, an optional edition choice (whole numbers), or a list of card ids
_KINDS: dict[type, tuple[str, ...]] = {
    Plant: ("seat", "field", "card?", "choice?"),
    EndPlanting: ("seat",),
    Harvest: ("seat", "field", "count?"),
    Offer: ("seat", "seat", "cards", "cards"),
    Accept: ("seat",),
    Decline: ("seat",),
    EndTrading: ("seat",),
    Draw: ("seat",),
    BuyField: ("seat",),
    Reorder: ("seat", "cards"),
    TakeIntoHand: ("seat", "card"),
}
_RULE_OF_KIND = {"seat": "input.unknown-player", "field": "input.no-field"}


def _whole(value: object) -> int | None:
    """``value`` as a plain int, or None if it is no whole number (bool and float are not)."""
    if type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)  # an int subclass such as IntEnum: its plain value
    return None


def _card_ids(value: object) -> tuple[int, ...] | None:
    """A list of card ids read once (a generator is consumed here, not by later checks)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        return None
    items = tuple(islice(value, MAX_CARDS_IN_ACTION + 1))  # type: ignore[call-overload]
    if len(items) > MAX_CARDS_IN_ACTION:
        return None
    ids = tuple(_whole(c) for c in items)
    return None if None in ids else ids  # type: ignore[return-value]


def _fits_choice(numbers: tuple[int, ...]) -> bool:
    """A plant choice has as many numbers as the choices of the edition that has them."""
    owner = choice_owner()
    return owner is not None and len(numbers) == owner.choice_size


def plain(action: Action) -> Action:
    """``action`` with plain field types: ints for seats, fields and cards, tuples for
    card lists (any iterable is read exactly once). Returns ``action`` itself when it is
    already plain. Raises ``RuleViolation`` (input.*) for a field of the wrong type, so
    that a float card id, a bool seat or a string card list never reaches the table."""
    kinds = _KINDS.get(type(action))
    if kinds is None:
        raise RuleViolation("input.unknown-card", "Unbekannte Aktion {action}.", action=short_repr(action))
    values: list[Any] = list(action)
    changed = False
    for i, (kind, value) in enumerate(zip(kinds, values)):
        if value is None and kind.endswith("?"):
            continue
        if kind in ("cards", "choice?"):
            if type(value) is tuple and all(type(c) is int for c in value) and (
                _fits_choice(value) if kind == "choice?" else len(value) <= MAX_CARDS_IN_ACTION
            ):
                continue
        elif type(value) is int:
            continue
        if kind in ("seat", "field", "card", "card?", "count?"):
            new: object = _whole(value)
        elif kind == "cards":
            new = _card_ids(value)
        else:  # choice?: as many whole numbers as the edition's choices have
            numbers = _card_ids(value)
            new = numbers if numbers is not None and _fits_choice(numbers) else None
        if new is None:
            name = type(action)._fields[i]
            rule = choice_rule() if kind == "choice?" else _RULE_OF_KIND.get(kind, "input.unknown-card")
            raise RuleViolation(
                rule,
                "{action}: {name} = {value} ist keine gültige Angabe.",
                action=type(action).__name__, name=name, value=short_repr(value),
            )
        if new is not value:
            values[i], changed = new, True
    return type(action)(*values) if changed else action


def short_repr(value: object, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters, so that a message never echoes huge input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def action_to_dict(action: Action) -> dict:
    """JSON form: ``{"type": "Plant", "player": 0, "field": 1, "card": null}``."""
    data: dict[str, Any] = {"type": type(action).__name__}
    for key, value in action._asdict().items():
        data[key] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_dict(data: dict, extra: Iterable[type] = ()) -> Action:
    """The action of an ``action_to_dict`` form; ``extra``: an edition's own action types."""
    types = {cls.__name__: cls for cls in (*ACTION_TYPES, *extra)}
    try:
        cls = types[data["type"]]
    except KeyError:
        raise ValueError(f"Unbekannte Aktion {data.get('type')!r}") from None
    kwargs = {
        k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "type"
    }
    return cls(**kwargs)
