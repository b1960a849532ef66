"""Ladybohn (Ladybohn-Spielregel; ``lady.*`` in docs/rules.md): the edition's own rules as engine hooks.

Every function here reads the rule set's *data* – the ``[ladybohn]`` settings
(``LadybohnSettings``: ``baby_lift``, ``baby_trade_immediate``, ``female_garden_from_discard``,
``offer_names_variety_only``) and the per-sex meters (``RuleSet.traits``, ``trait_meters``) – and never asks for a rule set by name.
The engine reaches these functions only through the ``Ladybohn`` edition object
(``editions/ladybohn/__init__.py``, hooks of ``game/edition.py``); this module never
imports the engine (it raises ``RuleViolation`` and moves cards between the zones of a
``State``, nothing more).

Our readings of the rulebook (Auslegungen) are in ``data/rules.toml`` and
``docs/ladybohn.md``; in short:

* lady.baby-lift: "nach oben" = towards the top card (the end of the field list); the lift
  is obligatory when the field holds a female and goes 1 or 2 places ("bis zu zwei"),
  never past the top. ``Plant.choice = (female, positions)`` chooses; default: the female
  nearest the top, as far as allowed.
* lady.baby-trade-immediate: such a baby waits in the player's zone ``immediate`` and
  must be planted (``Plant`` during phase 2) before anything else happens in the turn;
  that player's harvests are refused meanwhile. Fields: any field already growing the
  variety (the player chooses if there are two).
* lady.female-garden: coins come from the top of the discard pile, then the draw pile;
  a draw pile emptied that way counts as running out (deck.reshuffle / game end), the
  reshuffle happens after the field lies on the discard pile.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bohnteach.game.beans import Meter, find_variety, meter_value
from bohnteach.game.edition import OfferedCard, OfferView, known_settings
from bohnteach.game.errors import Phrase, RuleViolation, Term
from bohnteach.game.words import TRAIT_WORDS
from bohnteach.game.words import card_label as _label

IMMEDIATE_ZONE = "immediate"
"""Key of the per-player zone (``Player.extra``) holding babies that must be planted at once."""


@dataclass(frozen=True)
class LadybohnSettings:
    """Ladybohn's own rules, from the rule set's ``[ladybohn]`` table (all off by default)."""

    baby_lift: int = 0
    """lady.baby-lift: planting a baby lifts one female of that field up to this many
    positions; 0 = no such rule."""
    baby_trade_immediate: bool = False
    """lady.baby-trade-immediate: a baby received in a deal whose variety the receiver has
    planted goes onto that field at once."""
    female_garden_from_discard: bool = False
    """lady.female-garden: a harvest under a female Gartenbohne takes its coins from the
    discard pile (then the draw pile) and discards the whole field."""
    offer_names_variety_only: bool = False
    """lady.offer-variety-only: offers show the variety only; sexes are shown after the deal."""

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any], source: str) -> LadybohnSettings:
        known_settings(cls, raw, source, "ladybohn")
        return cls(
            baby_lift=int(raw.get("baby_lift", 0)),
            baby_trade_immediate=bool(raw.get("baby_trade_immediate", False)),
            female_garden_from_discard=bool(raw.get("female_garden_from_discard", False)),
            offer_names_variety_only=bool(raw.get("offer_names_variety_only", False)),
        )


OFF = LadybohnSettings()


def settings(s) -> LadybohnSettings:
    """The Ladybohn settings of the state's rule set (all off for other editions)."""
    found = s.ruleset.settings
    return found if isinstance(found, LadybohnSettings) else OFF


# ---- cards ---------------------------------------------------------------------------
def sex(s, card: int) -> str | None:
    return s.cards[card].trait


def is_baby(s, card: int) -> bool:
    return s.cards[card].trait == "B"


def is_female(s, card: int) -> bool:
    return s.cards[card].trait == "w"


def card_label(s, card: int, with_sex: bool = True) -> str:
    """German name, e.g. ``"Sojabohne (weiblich)"``; without sex ``"Sojabohne"``."""
    return _label(s, card, trait="word" if with_sex else "")


def card_term(s, card: int, with_sex: bool = True) -> Term | Phrase:
    """:func:`card_label` among a refusal's parameters: translated where it is shown."""
    variety = Term.variety(find_variety(s.variety[card]).de)
    word = TRAIT_WORDS["word"].get(sex(s, card) or "", "") if with_sex else ""
    return Phrase("{variety} ({sex})", variety=variety, sex=Term(word)) if word else variety


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
    limit = settings(s).baby_lift
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


def no_lift_text(s) -> Phrase:
    """Why a baby lifts nothing in ``s``'s rule set (lady.baby-lift)."""
    return Phrase("In „{rules}“ gibt es keine Babybohnen, die etwas hochschieben.", rules=Term(s.ruleset.title))


def check_lift(s, player: int, field: int, card: int, lift: object) -> tuple[int, int] | None:
    """The lift planting ``card`` will do (``lift`` None = the default). Raises
    ``RuleViolation("lady.baby-lift")`` for a lift that is not allowed."""
    if lift is None:
        return default_lift(s, player, field, card)
    limit = settings(s).baby_lift
    if not limit:
        text = no_lift_text(s)
        raise RuleViolation("lady.baby-lift", text.template, **text.params)
    if not is_baby(s, card):
        raise RuleViolation(
            "lady.baby-lift", "Nur eine Babybohne schiebt eine weibliche Bohne hoch; die {card} nicht.",
            card=card_term(s, card),
        )
    if (
        not isinstance(lift, tuple) or len(lift) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in lift)
    ):
        raise RuleViolation(
            "lady.baby-lift", "Erwartet wird (weibliche Karte, Positionen), nicht {lift}.", lift=repr(lift)
        )
    female, positions = lift
    cards = s.players[player].fields[field]
    if female not in cards:
        raise RuleViolation("lady.baby-lift", "Diese Karte liegt nicht auf Feld {field}.", field=field + 1)
    if not is_female(s, female):
        raise RuleViolation(
            "lady.baby-lift",
            "Die {card} auf Feld {field} ist keine weibliche Bohne.", card=card_term(s, female), field=field + 1,
        )
    below_top = len(cards) - cards.index(female)  # places below the top once the baby lies there
    if not 1 <= positions <= limit:
        raise RuleViolation(
            "lady.baby-lift", "Um {positions} Positionen geht nicht: erlaubt sind 1 bis {limit}.",
            positions=positions, limit=limit,
        )
    if positions > below_top:
        raise RuleViolation(
            "lady.baby-lift",
            "Die {card} liegt {below} Position(en) unter der obersten Karte; um {positions} nach oben ginge "
            "über das Feld hinaus.", card=card_term(s, female), below=below_top, positions=positions,
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
def pending(s, player: int) -> list[int]:
    """Babies ``player`` received in a deal and must plant now."""
    return s.players[player].extra.get(IMMEDIATE_ZONE, [])


def pending_seats(s) -> list[int]:
    """Players with such babies, from the active player clockwise."""
    players = s.players
    n = len(players)
    for p in players:  # fast path: nobody waits (asked on every step)
        if p.extra.get(IMMEDIATE_ZONE):
            break
    else:
        return []
    return [seat for seat in ((s.active + k) % n for k in range(n)) if pending(s, seat)]


def immediate_fields(s, player: int, card: int) -> list[int]:
    """The fields that already grow the baby's variety."""
    variety = s.variety[card]
    return [i for i, f in enumerate(s.players[player].fields) if f and s.variety[f[0]] == variety]


def plants_at_once(s, player: int, card: int) -> bool:
    """A card received in a deal must go onto a field at once (not set aside)."""
    return (
        settings(s).baby_trade_immediate and is_baby(s, card)
        and bool(immediate_fields(s, player, card))
    )


def hold(s, player: int, card: int) -> None:
    s.players[player].extra[IMMEDIATE_ZONE].append(card)


def release(s, player: int, card: int) -> None:
    s.players[player].extra[IMMEDIATE_ZONE].remove(card)


def check_immediate_plant(s, player: int, field: int, card: int | None) -> int:
    """The pending baby ``player`` plants now on ``field``; raises lady.baby-trade-immediate."""
    cards = pending(s, player)
    name = s.players[player].name
    chosen = cards[0] if card is None else card
    if chosen not in cards:
        raise RuleViolation(
            "lady.baby-trade-immediate", "Erst pflanzt {name} die erhaltene Babybohne ({card}).",
            name=name, card=card_term(s, cards[0], False),
        )
    fields = immediate_fields(s, player, chosen)
    if field not in fields:
        raise RuleViolation(
            "lady.baby-trade-immediate",
            "Die Babybohne ({card}) kommt sofort auf das Feld, auf dem diese Sorte schon wächst: {where}.",
            card=card_term(s, chosen, False), where=field_list(fields),
        )
    return chosen


def field_list(fields: list[int]) -> Phrase | str:
    """``Feld 1``, ``Feld 1 oder Feld 2``, … (translated where shown)."""
    if not fields:
        return ""
    where = Phrase("Feld {field}", field=fields[0] + 1)
    for k in fields[1:]:
        where = Phrase("{fields} oder Feld {field}", fields=where, field=k + 1)
    return where


def check_nothing_pending(s) -> None:
    """Nothing else may happen while a received baby waits to be planted."""
    seats = pending_seats(s)
    if seats:
        seat = seats[0]
        raise RuleViolation(
            "lady.baby-trade-immediate", "Erst pflanzt {name} die erhaltene Babybohne ({card}).",
            name=s.players[seat].name, card=card_term(s, pending(s, seat)[0], False),
        )


def check_harvest(s, player: int) -> None:
    if pending(s, player):
        raise RuleViolation(
            "lady.baby-trade-immediate",
            "{name} hat eben eine Babybohne bekommen und muss sie sofort pflanzen; schnell noch ernten ist "
            "nicht erlaubt.", name=s.players[player].name,
        )


# ---- lady.female-garden ----------------------------------------------------------------
def coins_from_piles(s, player: int, field: int) -> bool:
    """The harvest of this field takes its coins from the discard/draw pile."""
    cards = s.players[player].fields[field]
    if not (settings(s).female_garden_from_discard and cards):
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
def visible_to(s, card: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see which exact card (and sex) this is during an offer.

    With ``offer_names_variety_only`` only the owner sees a hand card; revealed cards lie
    face up for everybody. ``viewer`` None is an onlooker who owns no card.
    """
    if not settings(s).offer_names_variety_only:
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
    if settings(s).offer_names_variety_only:
        s.events.append(("sexes_shown", tuple((c, sex(s, c)) for c in (*offer.give, *offer.get))))
    for seat in pending_seats(s):
        s.events.append(("plant_now", seat, tuple(pending(s, seat))))


__all__ = [
    "IMMEDIATE_ZONE",
    "LadybohnSettings",
    "OFF",
    "OfferView",
    "OfferedCard",
    "after_deal",
    "apply_lift",
    "assumed_female_meter",
    "card_label",
    "card_term",
    "check_harvest",
    "check_immediate_plant",
    "check_lift",
    "check_nothing_pending",
    "coins_from_piles",
    "default_lift",
    "field_list",
    "harvest_from_piles",
    "hold",
    "immediate_fields",
    "is_baby",
    "is_female",
    "lift_choices",
    "no_lift_text",
    "offer_view",
    "pending",
    "pending_seats",
    "pile_coins",
    "plants_at_once",
    "release",
    "settings",
    "sex",
    "visible_to",
]
