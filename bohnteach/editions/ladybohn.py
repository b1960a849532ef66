"""Ladybohn (Ladybohn-Spielregel; ``lady.*`` in docs/rules.md): the edition's own rules as engine hooks.

Every function here reads rule-set *data* (``baby_lift``, ``baby_trade_immediate``,
``female_garden_from_discard``, ``offer_names_variety_only``, the per-sex meters) and
never asks for a rule set by name, so another edition can switch a rule on in its TOML.
The engine imports this module; this module never imports the engine (it raises
``RuleViolation`` and moves cards between the zones of a ``State``, nothing more).

Our readings of the rulebook (Auslegungen) are in ``data/rules.toml`` and
``docs/ladybohn.md``; in short:

* lady.baby-lift: "nach oben" = towards the top card (the end of the field list); the lift
  is obligatory when the field holds a female and goes 1 or 2 places ("bis zu zwei"),
  never past the top. ``Plant.lift = (female, positions)`` chooses; default: the female
  nearest the top, as far as allowed.
* lady.baby-trade-immediate: such a baby waits in the zone ``lady.immediate.<seat>`` and
  must be planted (``Plant`` during phase 2) before anything else happens in the turn;
  that player's harvests are refused meanwhile. Fields: any field already growing the
  variety (the player chooses if there are two).
* lady.female-garden: coins come from the top of the discard pile, then the draw pile;
  a draw pile emptied that way counts as running out (deck.reshuffle / game end), the
  reshuffle happens after the field lies on the discard pile.
"""
from __future__ import annotations

from dataclasses import dataclass

from bohnteach.game.beans import Meter, find_variety, meter_value
from bohnteach.game.errors import RuleViolation

SEX_DE = {"m": "männlich", "w": "weiblich", "B": "Baby"}
IMMEDIATE_ZONE = "lady.immediate."
"""Prefix of the ``State.extra`` zone holding babies that must be planted at once."""


# ---- cards ---------------------------------------------------------------------------
def sex(s, card: int) -> str | None:
    return s.cards[card].sex


def is_baby(s, card: int) -> bool:
    return s.cards[card].sex == "B"


def is_female(s, card: int) -> bool:
    return s.cards[card].sex == "w"


def card_label(s, card: int, with_sex: bool = True) -> str:
    """German name, e.g. ``"Sojabohne (weiblich)"``; without sex ``"Sojabohne"``."""
    name = find_variety(s.variety[card]).de
    kind = s.cards[card].sex
    return f"{name} ({SEX_DE[kind]})" if with_sex and kind in SEX_DE else name


def assumed_female_meter(male: Meter) -> Meter:
    """The documented assumption for a female meter: every printed threshold one card
    lower, never below 1, thresholds kept strictly increasing; unprinted steps stay 0."""
    out: list[int] = []
    last = 0
    for need in male:
        if not need:
            out.append(0)
            continue
        value = max(need - 1, 1, last + 1)
        out.append(value)
        last = value
    return tuple(out)  # type: ignore[return-value]


# ---- lady.baby-lift -------------------------------------------------------------------
def lift_choices(s, player: int, field: int, card: int) -> list[tuple[int, int]]:
    """Every ``(female, positions)`` the planting of ``card`` on that field allows, best
    first (female nearest the top, furthest move); empty when no lift happens."""
    limit = s.ruleset.baby_lift
    if not limit or not is_baby(s, card):
        return []
    cards = s.players[player].fields[field]
    top = len(cards)  # the index of the top card once the baby lies on the field
    choices = []
    for index in range(len(cards) - 1, -1, -1):
        if is_female(s, cards[index]):
            for k in range(min(limit, top - index), 0, -1):
                choices.append((cards[index], k))
    return choices


def default_lift(s, player: int, field: int, card: int) -> tuple[int, int] | None:
    choices = lift_choices(s, player, field, card)
    return choices[0] if choices else None


def check_lift(s, player: int, field: int, card: int, lift: object) -> tuple[int, int] | None:
    """The lift planting ``card`` will do (``lift`` None = the default). Raises
    ``RuleViolation("lady.baby-lift")`` for a lift that is not allowed."""
    if lift is None:
        return default_lift(s, player, field, card)
    limit = s.ruleset.baby_lift
    if not limit:
        raise RuleViolation(
            "lady.baby-lift", f"In „{s.ruleset.title}“ gibt es keine Babybohnen, die etwas hochschieben."
        )
    if not is_baby(s, card):
        raise RuleViolation(
            "lady.baby-lift", f"Nur eine Babybohne schiebt eine weibliche Bohne hoch; die {card_label(s, card)} nicht."
        )
    if (
        not isinstance(lift, tuple) or len(lift) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in lift)
    ):
        raise RuleViolation(
            "lady.baby-lift", f"Erwartet wird (weibliche Karte, Positionen), nicht {lift!r}."
        )
    female, positions = lift
    cards = s.players[player].fields[field]
    if female not in cards:
        raise RuleViolation("lady.baby-lift", f"Diese Karte liegt nicht auf Feld {field + 1}.")
    if not is_female(s, female):
        raise RuleViolation(
            "lady.baby-lift",
            f"Die {card_label(s, female)} auf Feld {field + 1} ist keine weibliche Bohne.",
        )
    below_top = len(cards) - cards.index(female)  # places below the top once the baby lies there
    if not 1 <= positions <= limit:
        raise RuleViolation(
            "lady.baby-lift", f"Um {positions} Positionen geht nicht: erlaubt sind 1 bis {limit}."
        )
    if positions > below_top:
        raise RuleViolation(
            "lady.baby-lift",
            f"Die {card_label(s, female)} liegt {below_top} Position(en) unter der obersten "
            f"Karte; um {positions} nach oben ginge über das Feld hinaus.",
        )
    return female, positions


def apply_lift(s, player: int, field: int, lift: tuple[int, int] | None) -> None:
    """Move the female up (towards the end of the field list) after the baby was planted."""
    if lift is None:
        return
    female, positions = lift
    cards = s.players[player].fields[field]
    index = cards.index(female)
    cards.pop(index)
    cards.insert(index + positions, female)
    s.events.append(("lift", player, field, female, positions))


# ---- lady.baby-trade-immediate ----------------------------------------------------------
def _zone(player: int) -> str:
    return f"{IMMEDIATE_ZONE}{player}"


def pending(s, player: int) -> list[int]:
    """Babies ``player`` received in a deal and must plant now."""
    if not s.extra:  # fast path: no edition zone at all (the engine asks on every step)
        return []
    return s.extra.get(_zone(player), [])


def pending_seats(s) -> list[int]:
    """Players with such babies, from the active player clockwise."""
    if not s.extra:  # fast path, as in ``pending``
        return []
    n = len(s.players)
    return [seat for seat in ((s.active + k) % n for k in range(n)) if pending(s, seat)]


def immediate_fields(s, player: int, card: int) -> list[int]:
    """The fields that already grow the baby's variety."""
    variety = s.variety[card]
    return [i for i, f in enumerate(s.players[player].fields) if f and s.variety[f[0]] == variety]


def plants_at_once(s, player: int, card: int) -> bool:
    """A card received in a deal must go onto a field at once (not set aside)."""
    return (
        s.ruleset.baby_trade_immediate and is_baby(s, card)
        and bool(immediate_fields(s, player, card))
    )


def hold(s, player: int, card: int) -> None:
    s.extra.setdefault(_zone(player), []).append(card)


def release(s, player: int, card: int) -> None:
    cards = s.extra[_zone(player)]
    cards.remove(card)
    if not cards:
        del s.extra[_zone(player)]


def check_immediate_plant(s, player: int, field: int, card: int | None) -> int:
    """The pending baby ``player`` plants now on ``field``; raises lady.baby-trade-immediate."""
    cards = pending(s, player)
    name = s.players[player].name
    chosen = cards[0] if card is None else card
    if chosen not in cards:
        raise RuleViolation(
            "lady.baby-trade-immediate",
            f"Erst pflanzt {name} die erhaltene Babybohne ({card_label(s, cards[0], False)}).",
        )
    fields = immediate_fields(s, player, chosen)
    if field not in fields:
        where = " oder ".join(f"Feld {i + 1}" for i in fields)
        raise RuleViolation(
            "lady.baby-trade-immediate",
            f"Die Babybohne ({card_label(s, chosen, False)}) kommt sofort auf das Feld, auf dem "
            f"diese Sorte schon wächst: {where}.",
        )
    return chosen


def check_nothing_pending(s) -> None:
    """Nothing else may happen while a received baby waits to be planted."""
    seats = pending_seats(s)
    if seats:
        seat = seats[0]
        raise RuleViolation(
            "lady.baby-trade-immediate",
            f"Erst pflanzt {s.players[seat].name} die erhaltene Babybohne "
            f"({card_label(s, pending(s, seat)[0], False)}).",
        )


def check_harvest(s, player: int) -> None:
    if pending(s, player):
        raise RuleViolation(
            "lady.baby-trade-immediate",
            f"{s.players[player].name} hat eben eine Babybohne bekommen und muss sie sofort "
            "pflanzen; schnell noch ernten ist nicht erlaubt.",
        )


# ---- lady.female-garden ----------------------------------------------------------------
def coins_from_piles(s, player: int, field: int) -> bool:
    """The harvest of this field takes its coins from the discard/draw pile."""
    cards = s.players[player].fields[field]
    if not (s.ruleset.female_garden_from_discard and cards):
        return False
    top = cards[-1]
    return s.variety[top] == "garden" and is_female(s, top)


def pile_coins(s, player: int, field: int) -> int:
    """Coins such a harvest brings: the meter's value, at most what both piles hold."""
    cards = s.players[player].fields[field]
    owed = meter_value(s.meter[cards[-1]], len(cards))
    return min(owed, len(s.discard) + len(s.deck))


def harvest_from_piles(s, player: int, field: int) -> bool:
    """Take the coins from the top of the discard pile, then of the draw pile; then the
    whole field goes onto the discard pile. Returns True when the draw pile ran out
    (the engine then counts it and reshuffles, with the field already discarded)."""
    p = s.players[player]
    cards = p.fields[field]
    owed = pile_coins(s, player, field)
    taken: list[int] = []
    from_deck = 0
    while len(taken) < owed and s.discard:
        taken.append(s.discard.pop())
    while len(taken) < owed and s.deck:
        taken.append(s.deck.pop())
        from_deck += 1
    p.coins.extend(taken)
    s.discard.extend(cards)
    p.fields[field] = []
    s.events.append(("harvest", player, field, len(cards), len(taken)))
    s.events.append(("coins_from_piles", player, len(taken) - from_deck, from_deck))
    return from_deck > 0 and not s.deck


# ---- lady.offer-variety-only -----------------------------------------------------------
@dataclass(frozen=True)
class OfferedCard:
    """One card of an offer as a viewer sees it; ``sex`` and ``card`` are None when hidden."""

    variety: str
    sex: str | None
    card: int | None

    @property
    def hidden(self) -> bool:
        return self.card is None

    @property
    def label(self) -> str:
        name = find_variety(self.variety).de
        return f"{name} ({SEX_DE[self.sex]})" if self.sex in SEX_DE else name


@dataclass(frozen=True)
class OfferView:
    player: int
    to: int
    give: tuple[OfferedCard, ...]
    get: tuple[OfferedCard, ...]


def visible_to(s, card: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see which exact card (and sex) this is during an offer.

    With ``offer_names_variety_only`` only the owner sees a hand card; revealed cards lie
    face up for everybody. ``viewer`` None is an onlooker who owns no card.
    """
    if not s.ruleset.offer_names_variety_only:
        return True
    owners = [i for i, p in enumerate(s.players) if card in p.hand]
    return not owners or owners[0] == viewer


def offer_view(s, viewer: int | None, offer=None) -> OfferView | None:
    """The open offer (or ``offer``) as ``viewer`` sees it: variety always, sex and card
    id only for the viewer's own cards and face-up cards (lady.offer-variety-only)."""
    o = offer if offer is not None else s.offer
    if o is None:
        return None

    def shown(cards: tuple[int, ...]) -> tuple[OfferedCard, ...]:
        return tuple(
            OfferedCard(s.variety[c], sex(s, c), c) if visible_to(s, c, viewer)
            else OfferedCard(s.variety[c], None, None)
            for c in cards
        )

    return OfferView(o.player, o.to, shown(tuple(o.give)), shown(tuple(o.get)))


def after_deal(s, offer) -> None:
    """Events after a deal: the sexes of the cards that changed hands, now face up
    (``("sexes_shown", ((card, sex), …))``), and each player who must plant a received
    baby at once (``("plant_now", player, (card, …))``)."""
    if s.ruleset.offer_names_variety_only:
        s.events.append(("sexes_shown", tuple((c, sex(s, c)) for c in (*offer.give, *offer.get))))
    for seat in pending_seats(s):
        s.events.append(("plant_now", seat, tuple(pending(s, seat))))


__all__ = [
    "IMMEDIATE_ZONE", "OfferView", "OfferedCard", "assumed_female_meter", "card_label",
    "check_lift", "coins_from_piles", "default_lift", "lift_choices", "offer_view", "pending",
    "pending_seats", "visible_to",
]
