"""Indiana Bohnes (Indiana-Bohnes-Regeltext; ``indy.*`` in docs/rules.md) as functions on a State.

The engine reaches these functions only through the ``Indiana`` edition object
(``editions/indiana/__init__.py``). Checkers (``check_*``) raise ``RuleViolation`` and
change nothing; mutators (``do_*``) rely on their checker and append events.

Zones (every card in exactly one; docs/indiana.md draws them):

* table: ``temple1`` … ``temple5`` – the temple's places, one stack of one variety each,
  an empty list = an empty place (``temple_slots`` of them are used); ``supply`` – path
  and carrier cards not bought yet, and the Sabohntage card when its variation is off.
* per player: ``adventurer`` (bottom first; two varieties only under a snake blockade),
  ``carrier`` (the carrier card while it travels in the hand), ``carrier_laid`` (laid
  over the adventurer this turn), ``load`` (the stack on the carrier), ``path`` (a bought
  path card), ``sabohntage`` (the card lying open before its holder), ``sabotaged`` (the
  card lying on this player's adventurer).

The carrier card is kept beside the hand list (the core plants, trades and counts hand
cards as beans); ``marks["ahead"][seat]`` names the hand cards in front of it, so its
place in the hand is ``carrier_position``. Other bookkeeping in ``State.marks``:
``visits`` (this turn's temple visits, as outcome codes) and ``carrier_start`` (where
the active player's carrier stood when the turn began; 0 = not in the hand) and ``keep``
(cards a failed visit forced on the active player this turn: never traded, indy.visit-keep).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from bohnteach.game.actions import _eq, _hash, _ne
from bohnteach.game.beans import find_variety, meter_value
from bohnteach.game.engine import draw_card
from bohnteach.game.edition import known_settings
from bohnteach.game.errors import RuleViolation, Term, Terms
from bohnteach.i18n import N_
from bohnteach.game.state import Phase, State

SNAKE = "snake"
NEW_VARIETIES = ("snake", "bush")
"""The varieties the expansion adds; their meters are assumed (indy.meters)."""
TEMPLE = tuple(f"temple{i}" for i in range(1, 6))
SUPPLY = "supply"
ADVENTURER, CARRIER, CARRIER_LAID, LOAD = "adventurer", "carrier", "carrier_laid", "load"
PATH, SABOHNTAGE, SABOTAGED = "path", "sabohntage", "sabotaged"
BUYABLE = ("path", "carrier")
"""Card kinds a player can buy (indy.buy); the third field is the core's ``BuyField``."""

MATCH, OTHER, PLANT, SNAKE_TEMPLE, SNAKE_ADVENTURER, SNAKE_WANTED, BY_PATH, LOADED = (
    "match", "other", "plant", "snake_temple", "snake_adventurer", "snake_wanted", "path", "load",
)
SUCCESS = frozenset({MATCH, OTHER, BY_PATH, LOADED})
"""Visit outcomes that count as successful (indy.two-visits)."""
OUTCOME_RULE = {
    MATCH: "indy.visit", OTHER: "indy.visit", PLANT: "indy.visit-plant",
    SNAKE_TEMPLE: "indy.snake-temple", SNAKE_ADVENTURER: "indy.snake-adventurer",
    SNAKE_WANTED: "indy.snake-wanted", BY_PATH: "indy.path-card", LOADED: "indy.carrier-load",
}


# ---- settings ----------------------------------------------------------------------------
@dataclass(frozen=True)
class IndianaSettings:
    """The ``[indiana]`` table of a rule set (data/rulesets/indiana.toml)."""

    temple_slots: int = 4
    """indy.temple-setup: varieties in a full temple; 5 = the variation indy.five-varieties."""
    max_visits: int = 2
    """indy.two-visits."""
    path_cost: int = 2
    """indy.path-card."""
    carrier_cost: int = 4
    """indy.carrier."""
    sabohntage: bool = False
    """indy.sabohntage: the variation with the Sabohntage card is played."""

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any], source: str) -> IndianaSettings:
        known = known_settings(cls, raw, source, "indiana")
        found = cls(**{k: raw[k] for k in known if k in raw})
        for name in ("temple_slots", "max_visits", "path_cost", "carrier_cost"):
            value = getattr(found, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{source}: [indiana].{name} muss eine ganze Zahl ≥ 1 sein, nicht {value!r}.")
        if found.temple_slots > len(TEMPLE):
            raise ValueError(f"{source}: [indiana].temple_slots: höchstens {len(TEMPLE)} Stellen.")
        if type(found.sabohntage) is not bool:
            raise ValueError(f"{source}: [indiana].sabohntage muss true oder false sein.")
        return found

    def with_variations(self, five_varieties: bool = False, sabohntage: bool = False) -> IndianaSettings:
        """These settings with the text's two variations switched on."""
        return replace(self, temple_slots=5 if five_varieties else self.temple_slots,
                       sabohntage=sabohntage or self.sabohntage)


OFF = IndianaSettings()


def settings(s: State) -> IndianaSettings:
    found = s.ruleset.settings
    return found if isinstance(found, IndianaSettings) else OFF


# ---- actions -----------------------------------------------------------------------------
class VisitTemple(NamedTuple):
    """indy.visit: name the wanted temple stack, then turn up the top card of the draw
    pile; ``path`` = use the path card instead (indy.path-card, a lone card only)."""

    player: int
    variety: str
    path: bool = False


class LoadCarrier(NamedTuple):
    """indy.carrier-load: after a successful visit, another stack onto the laid carrier."""

    player: int
    variety: str


class SellAdventurer(NamedTuple):
    """indy.adventurer-sell: the adventurer sells all his beans (then the carrier unloads)."""

    player: int


class FieldToAdventurer(NamedTuple):
    """indy.field-to-adventurer: a whole field joins the adventurer's beans."""

    player: int
    field: int


class BuyCard(NamedTuple):
    """indy.buy: buy a path card (``"path"``) or a carrier card (``"carrier"``)."""

    player: int
    kind: str


class LayCarrier(NamedTuple):
    """indy.carrier: lay the carrier card over the adventurer for this turn."""

    player: int


class Sabotage(NamedTuple):
    """indy.sabohntage: lay the Sabohntage card on ``target``'s adventurer."""

    player: int
    target: int


ACTIONS = (VisitTemple, LoadCarrier, SellAdventurer, FieldToAdventurer, BuyCard, LayCarrier, Sabotage)
for _cls in ACTIONS:  # as the core's actions: never equal to an action of another type
    _cls.__eq__ = _eq  # type: ignore[method-assign,assignment]
    _cls.__ne__ = _ne  # type: ignore[method-assign,assignment]
    _cls.__hash__ = _hash  # type: ignore[method-assign,assignment]


# ---- reading the table ---------------------------------------------------------------------
def _de(variety: str) -> str:
    return find_variety(variety).de


def _plural(variety: str) -> str:
    return find_variety(variety).de_plural


def _one(variety: str) -> Term:
    """A variety (or card kind) among a refusal's parameters, translated where shown."""
    return Term.variety(_de(variety))


def _many(variety: str) -> Term:
    """A variety in the plural among a refusal's parameters, translated where shown."""
    return Term(_plural(variety), "variety-plural")


def temple(s: State) -> list[list[int]]:
    """The temple's places in order (``temple_slots`` of them; empty list = empty place)."""
    return [s.extra[k] for k in TEMPLE[: settings(s).temple_slots]]


def temple_stacks(s: State) -> dict[str, list[int]]:
    """Variety -> its stack in the temple (places in order, empty ones left out)."""
    return {s.variety[stack[0]]: stack for stack in temple(s) if stack}


def is_bean(s: State, card: int) -> bool:
    return find_variety(s.variety[card]).bean


def beans_in_deck(s: State) -> int:
    """Bean cards left in the draw pile (the Sabohntage card does not count)."""
    return sum(1 for c in s.deck if s.variety[c] != SABOHNTAGE)


def runs(s: State, cards: list[int]) -> list[list[int]]:
    """Cards of an adventurer as runs of one variety, bottom first (two only under a blockade)."""
    out: list[list[int]] = []
    for c in cards:
        if out and s.variety[out[-1][0]] == s.variety[c]:
            out[-1].append(c)
        else:
            out.append([c])
    return out


def run_coins(s: State, run: list[int]) -> int:
    """Coins one run brings, read from the meter of its top card (never more than cards)."""
    meter = s.meter[run[-1]]
    return min(meter_value(meter, len(run)), len(run)) if meter else 0


def sale_coins(s: State, player: int) -> int:
    """Coins a sale of the adventurer would bring now: each run by its own meter."""
    return sum(run_coins(s, r) for r in runs(s, s.players[player].extra[ADVENTURER]))


def blocked(s: State, player: int) -> bool:
    """indy.blockade: snakes lie on another variety and would not yet bring one coin."""
    parts = runs(s, s.players[player].extra[ADVENTURER])
    return len(parts) > 1 and run_coins(s, parts[-1]) < 1


def snakes_needed(s: State, player: int) -> int:
    """How many snakes the blockade on ``player``'s adventurer needs to bring one coin."""
    top = s.players[player].extra[ADVENTURER][-1]
    return next(n for n in s.meter[top] if n)


def adventurer_variety(s: State, player: int) -> str | None:
    """The variety the adventurer takes more of (the top run's; snakes under a blockade)."""
    cards = s.players[player].extra[ADVENTURER]
    return s.variety[cards[-1]] if cards else None


def visits(s: State) -> tuple[str, ...]:
    return s.marks.get("visits", ())


def kept(s: State) -> tuple[int, ...]:
    """Cards failed visits of this turn forced on the active player (indy.visit-keep)."""
    return s.marks.get("keep", ())


def check_trade_card(s: State, owner: int, card: int) -> None:
    """indy.visit-keep: the card a failed visit turned up stays with its player."""
    if card in kept(s) and card in s.players[owner].set_aside:
        raise RuleViolation("indy.visit-keep", "Die {card} hat {name} beim Tempelgang aufgedeckt; sie muss sie "
                            "selbst anbauen und darf sie nicht weitergeben.",
                            card=_one(s.variety[card]), name=s.players[owner].name)


def carrier_position(s: State, player: int) -> int | None:
    """Where the carrier card stands in the hand (1 = front), None when it is not there."""
    if not s.players[player].extra[CARRIER]:
        return None
    ahead = set(_ahead(s)[player])
    front = 0
    for c in s.players[player].hand:
        if c not in ahead:
            break
        front += 1
    return front + 1


def _ahead(s: State) -> tuple[tuple[int, ...], ...]:
    found = s.marks.get("ahead", ())
    return found if len(found) == len(s.players) else ((),) * len(s.players)


def _set_ahead(s: State, player: int, cards: tuple[int, ...]) -> None:
    ahead = list(_ahead(s))
    ahead[player] = cards
    s.marks["ahead"] = tuple(ahead)


# ---- drawing with the temple check ------------------------------------------------------------
def next_bean(s: State, drawer: int) -> int | None:
    """The top card of the draw pile; the Sabohntage card is laid open before ``drawer``
    and replaced (indy.sabohntage). None when the pile is used up."""
    while True:
        card = draw_card(s)
        if card is None or s.variety[card] != SABOHNTAGE:
            return card
        s.players[drawer].extra[SABOHNTAGE].append(card)
        s.events.append(("sabohntage_drawn", drawer, card))


def temple_check(s: State, card: int) -> bool:
    """Put a freshly drawn card into the temple if the rules send it there: onto its
    variety's stack (indy.temple-reveal), else onto the first empty place
    (indy.temple-refill). False = it stays with whoever drew it."""
    variety = s.variety[card]
    places = temple(s)
    for stack in places:
        if stack and s.variety[stack[0]] == variety:
            stack.append(card)
            s.events.append(("temple", card))
            return True
    for stack in places:
        if not stack:
            stack.append(card)
            s.events.append(("temple", card))
            return True
    return False


def setup(s: State) -> None:
    """indy.temple-setup, indy.deal: in the rulebook's order – the temple is filled from
    the shuffled bean cards, the Sabohntage card is shuffled in (variation), then 3 / 4 /
    5 / 6 … cards are dealt one at a time from the start player on. The core's deal is
    taken back first (it dealt before the temple)."""
    n = len(s.players)
    cards = sorted(s.deck + [c for p in s.players for c in p.hand])
    for p in s.players:
        p.hand.clear()
    s.deck = [c for c in cards if is_bean(s, c)]
    others = [c for c in cards if not is_bean(s, c)]
    rng = random.Random(f"bohnteach:{s.seed}:indiana")
    rng.shuffle(s.deck)
    own = settings(s)
    while len(temple_stacks(s)) < own.temple_slots and s.deck:
        temple_check(s, s.deck.pop())
    sab = [c for c in others if s.variety[c] == SABOHNTAGE]
    if own.sabohntage and sab:
        others.remove(sab[0])
        s.deck.append(sab[0])
        rng.shuffle(s.deck)
    s.extra[SUPPLY][:] = others
    order = [(s.start_player + k) % n for k in range(n)]
    wanted = {seat: s.setup.deal_for(k) for k, seat in enumerate(order)}
    while any(len(s.players[seat].hand) < wanted[seat] for seat in order):
        for seat in order:
            if len(s.players[seat].hand) < wanted[seat]:
                card = next_bean(s, seat)
                if card is None:
                    return
                s.players[seat].hand.append(card)
    s.marks.update(visits=(), ahead=((),) * n, carrier_start=0, keep=())
    s.events.clear()


def _draw_beans(s: State, k: int) -> list[int]:
    """Up to ``k`` bean cards for the active player; none once the game is ending."""
    out: list[int] = []
    for _ in range(k):
        if s.ending:
            break
        card = next_bean(s, s.active)
        if card is None:
            break
        out.append(card)
    return out


def reveal(s: State) -> list[int]:
    """Phase 2 (indy.temple-reveal, indy.temple-refill): turn up two cards; in the order
    they came up each whose variety lies in the temple goes there, and a new variety fills
    an empty place. Each card that went to the temple is replaced once; the replacements
    stay whatever they are (the rulebook's examples 1–3)."""
    first = _draw_beans(s, 2)
    kept = [c for c in first if not temple_check(s, c)]
    kept += _draw_beans(s, len(first) - len(kept))
    s.revealed.extend(kept)
    return kept


def draw_round(s: State, player: int) -> list[int]:
    """Phase 4 (indy.draw-one): every player draws one card, the active one first; a card
    the temple takes is replaced once. Then the turn ends (``end_turn``). Returns the
    cards ``player`` kept."""
    n = len(s.players)
    mine: list[int] = []
    for k in range(n):
        seat = (s.active + k) % n
        if s.ending:
            break
        card = next_bean(s, seat)
        if card is not None and temple_check(s, card):
            card = None if s.ending else next_bean(s, seat)
        if card is None:
            break
        s.players[seat].hand.append(card)
        if card in _ahead(s)[seat]:  # back from the discard pile: now behind the carrier
            _set_ahead(s, seat, tuple(c for c in _ahead(s)[seat] if c != card))
        s.events.append(("indy_draw", seat, card))
        if seat == player:
            mine.append(card)
    end_turn(s)
    return mine


def end_turn(s: State) -> None:
    """After phase 4: the carrier goes back to the end of the hand and what it still
    carries to the discard pile (indy.carrier-load); a Sabohntage card on the active
    player's adventurer now belongs to them (indy.sabohntage); the next player's carrier
    position is noted for indy.carrier."""
    me = s.active
    p = s.players[me]
    if p.extra[CARRIER_LAID]:
        p.extra[CARRIER].extend(p.extra[CARRIER_LAID])
        p.extra[CARRIER_LAID].clear()
        _set_ahead(s, me, tuple(p.hand))
        if p.extra[LOAD]:
            s.discard.extend(p.extra[LOAD])
            s.events.append(("load_discarded", me, tuple(p.extra[LOAD])))
            p.extra[LOAD].clear()
    if p.extra[SABOTAGED]:
        p.extra[SABOHNTAGE].extend(p.extra[SABOTAGED])
        p.extra[SABOTAGED].clear()
        s.events.append(("sabohntage_back", me))
    following = (me + 1) % len(s.players)
    s.marks["visits"] = ()
    s.marks["keep"] = ()
    s.marks["carrier_start"] = carrier_position(s, following) or 0


# ---- refusals shared by the actions ---------------------------------------------------------
def _seat(s: State, player: object) -> int:
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(s.players):
        raise RuleViolation("input.unknown-player", "Person {player} gibt es nicht.", player=repr(player))
    if s.phase is Phase.OVER:
        raise RuleViolation("game.over")
    return player


def _quiet(s: State, rule: str) -> None:
    if s.offer is not None:
        raise RuleViolation(rule, "Erst muss das offene Angebot angenommen oder abgelehnt werden.")


_TRADING_TURN = {  # rule -> (not the active player, not phase 2): whole sentences, translated where shown
    "indy.visit": (N_("Zum Tempel geht nur {active}, die Person am Zug."),
                   N_("Zum Tempel geht nur in Phase 2 (Handeln / Tempel), jetzt ist Phase {phase}.")),
    "indy.carrier-load": (N_("Die Trägerkarte lädt nur {active}, die Person am Zug."),
                          N_("Die Trägerkarte lädt nur in Phase 2 (Handeln / Tempel), jetzt ist Phase {phase}.")),
}


def _my_trading_turn(s: State, player: int, rule: str) -> None:
    not_mine, not_now = _TRADING_TURN[rule]
    if player != s.active:
        raise RuleViolation(rule, not_mine, active=s.players[s.active].name)
    if s.phase is not Phase.TRADE:
        raise RuleViolation(rule, not_now, phase=int(s.phase))
    _quiet(s, rule)


def _sabotaged(s: State, player: int) -> None:
    """indy.sabohntage: the card blocks the adventurer (no visit, load, field bean or sale)."""
    if s.players[player].extra[SABOTAGED]:
        raise RuleViolation("indy.sabohntage", "Auf dem Abenteurer von {name} liegt die Sabohntagekarte und "
                            "blockiert ihn, bis diese Person am Zug war.", name=s.players[player].name)


def _temple_variety(s: State, wanted: object, rule: str = "indy.visit") -> str:
    stacks = temple_stacks(s)
    try:
        key = find_variety(wanted).key  # type: ignore[arg-type]
    except ValueError:
        key = ""
    if key not in stacks:
        if key:  # a variety of the game, just not in the temple: its name
            shown: str = _many(key)
        else:
            shown = repr(wanted) if isinstance(wanted, str) and len(wanted) < 40 else type(wanted).__name__
        if not stacks:
            raise RuleViolation(rule, "Im Tempel liegt kein Stapel {wanted}; dort liegen: nichts.", wanted=shown)
        raise RuleViolation(rule, "Im Tempel liegt kein Stapel {wanted}; dort liegen: {there}.",
                            wanted=shown, there=Terms(_one(v) for v in stacks))
    return key


def _visit_slots(s: State) -> None:
    done = visits(s)
    if done and done[-1] not in SUCCESS:
        raise RuleViolation("indy.two-visits", "Dein letzter Tempelgang war nicht erfolgreich.")
    if len(done) >= settings(s).max_visits:
        raise RuleViolation("indy.two-visits", "Du warst in diesem Zug schon {visits}-mal im Tempel.", visits=len(done))


# ---- the temple visit -----------------------------------------------------------------------
def outcome(temple_varieties: set[str] | dict, wanted: str, turned: str) -> str:
    """How a visit for ``wanted`` ends when ``turned`` comes up (the temple as it was)."""
    if turned == SNAKE:
        if wanted == SNAKE:
            return SNAKE_WANTED
        return SNAKE_TEMPLE if SNAKE in temple_varieties else SNAKE_ADVENTURER
    if turned == wanted:
        return MATCH
    return OTHER if turned in temple_varieties else PLANT


def check_visit(s: State, a: VisitTemple) -> str:
    player = _seat(s, a.player)
    _my_trading_turn(s, player, "indy.visit")
    _sabotaged(s, player)
    _visit_slots(s)
    key = _temple_variety(s, a.variety)
    if blocked(s, player) and key != SNAKE:
        raise RuleViolation("indy.blockade", "Dein Abenteurer ist von Schlangenbohnen blockiert; aus dem Tempel "
                            "holt er nur Schlangenbohnen, nicht die {wanted}.", wanted=_many(key))
    top = adventurer_variety(s, player)
    if top is not None and top != key:
        raise RuleViolation("indy.adventurer", "Bei deinem Abenteurer liegen schon {there}; verkaufe sie zuerst, "
                            "dann kann er {wanted} holen.", there=_many(top), wanted=_many(key))
    if type(a.path) is not bool:
        raise RuleViolation("input.unknown-card", "path = {path}: erwartet true oder false.", path=repr(a.path))
    if a.path:
        if not s.players[player].extra[PATH]:
            raise RuleViolation("indy.path-card", "Du hast keine Wegkarte.")
        size = len(temple_stacks(s)[key])
        if size != 1:
            raise RuleViolation("indy.path-card", "Im Tempel liegen {size} {wanted}; der Weg führt nur zu einer "
                                "einzelnen Karte.", size=size, wanted=_many(key))
    elif beans_in_deck(s) < 1:
        raise RuleViolation("indy.visit", "Der Nachziehstapel ist leer: Es gibt keine Karte zum Aufdecken.")
    return key


def do_visit(s: State, a: VisitTemple, key: str) -> None:
    p = s.players[a.player]
    stacks = temple_stacks(s)
    if a.path:
        result, card = BY_PATH, None
        p.extra[ADVENTURER].extend(stacks[key])
        stacks[key].clear()
    else:
        card = next_bean(s, a.player)
        assert card is not None, "check_visit made sure a bean card is there"
        turned = s.variety[card]
        result = outcome(stacks, key, turned)
        if result == MATCH:
            p.extra[ADVENTURER].extend(stacks[key] + [card])
            stacks[key].clear()
        elif result == OTHER:
            stacks[turned].append(card)
            p.extra[ADVENTURER].extend(stacks[key])
            stacks[key].clear()
        elif result in (SNAKE_TEMPLE, SNAKE_WANTED):
            stacks[SNAKE].append(card)
        elif result == SNAKE_ADVENTURER:
            p.extra[ADVENTURER].append(card)
        else:
            p.set_aside.append(card)  # indy.visit-plant: planted in phase 3
            s.marks["keep"] = kept(s) + (card,)  # indy.visit-keep: never traded
    s.marks["visits"] = visits(s) + (result,)
    s.events.append(("visit", a.player, key, result, card))


# ---- the carrier ----------------------------------------------------------------------------
def check_lay(s: State, a: LayCarrier) -> None:
    player = _seat(s, a.player)
    p = s.players[player]
    if player != s.active or s.phase not in (Phase.PLANT, Phase.TRADE):
        raise RuleViolation("indy.carrier", "Die Trägerkarte legt nur die Person am Zug ab, in Phase 1 oder 2.")
    _quiet(s, "indy.carrier")
    if not p.extra[CARRIER]:
        if p.extra[CARRIER_LAID]:
            raise RuleViolation("indy.carrier", "Die Trägerkarte liegt schon über dem Abenteurer.")
        raise RuleViolation("indy.carrier", "Die Trägerkarte hast du nicht.")
    start = s.marks.get("carrier_start", 0)
    if not start:
        raise RuleViolation("indy.carrier", "Zu Beginn des Zuges stand die Trägerkarte noch nicht auf deiner "
                            "Hand; ablegen darfst du sie nur von Stelle 1 oder 2.")
    if start not in (1, 2):
        raise RuleViolation("indy.carrier", "Zu Beginn des Zuges stand die Trägerkarte an Stelle {place} auf "
                            "deiner Hand; ablegen darfst du sie nur von Stelle 1 oder 2.", place=start)


def check_plant(s: State, player: int) -> None:
    """indy.carrier-plant: the second bean of phase 1 may not come from behind a carrier
    that still stands in the hand (the text: a second bean only „nach ihrem Legen“)."""
    if s.phase is Phase.PLANT and s.hand_plants == 1 and carrier_position(s, player) == 1:
        raise RuleViolation("indy.carrier-plant", "Vor dieser Bohne steht deine Trägerkarte. Eine zweite Bohne "
                            "pflanzt du erst, wenn du die Trägerkarte in diesem Zug abgelegt hast.")


def do_lay(s: State, a: LayCarrier, _: None) -> None:
    p = s.players[a.player]
    p.extra[CARRIER_LAID].extend(p.extra[CARRIER])
    p.extra[CARRIER].clear()
    _set_ahead(s, a.player, ())
    s.events.append(("carrier_laid", a.player))


def check_load(s: State, a: LoadCarrier) -> str:
    player = _seat(s, a.player)
    _my_trading_turn(s, player, "indy.carrier-load")
    p = s.players[player]
    if not p.extra[CARRIER_LAID]:
        raise RuleViolation("indy.carrier-load", "Deine Trägerkarte liegt in diesem Zug nicht über dem Abenteurer.")
    _sabotaged(s, player)
    done = visits(s)
    if not done or done[-1] not in SUCCESS:
        raise RuleViolation("indy.carrier-load", "Die Trägerkarte lädt nur direkt nach einem erfolgreichen Tempelgang.")
    _visit_slots(s)
    if p.extra[LOAD]:
        raise RuleViolation("indy.carrier-load", "Auf der Trägerkarte liegt schon ein Stapel.")
    key = _temple_variety(s, a.variety)
    if blocked(s, player):  # the blocked beans count for nothing: he cannot sell this turn
        raise RuleViolation("indy.carrier-blocked", "Dein Abenteurer ist von Schlangenbohnen blockiert und kann "
                            "in diesem Zug nicht verkaufen (erst ab {needed} Schlangenbohnen); die Bohnen der "
                            "Trägerkarte kämen nie zu ihm.", needed=snakes_needed(s, player))
    if sale_coins(s, player) < 1:
        raise RuleViolation("indy.carrier-load", "Die Bohnen am Abenteurer bringen noch keinen Taler; die "
                            "Bohnen der Trägerkarte kämen in diesem Zug nicht mehr zu ihm.")
    if done[-1] == BY_PATH and len(temple_stacks(s)[key]) != 1:
        raise RuleViolation("indy.path-card", "Nach dem Weg über die Wegkarte nimmt die Trägerkarte nur eine "
                            "Sorte, die allein im Tempel liegt.")
    return key


def do_load(s: State, a: LoadCarrier, key: str) -> None:
    stack = temple_stacks(s)[key]
    s.players[a.player].extra[LOAD].extend(stack)
    stack.clear()
    s.marks["visits"] = visits(s) + (LOADED,)
    s.events.append(("visit", a.player, key, LOADED, None))


# ---- the adventurer -------------------------------------------------------------------------
def check_sell(s: State, a: SellAdventurer) -> None:
    player = _seat(s, a.player)
    _quiet(s, "indy.adventurer-sell")
    _sabotaged(s, player)  # blocked like under snakes: no sale while the card lies there
    if not s.players[player].extra[ADVENTURER]:
        raise RuleViolation("indy.adventurer-sell", "Beim Abenteurer von {name} liegen keine Bohnen.",
                            name=s.players[player].name)
    if blocked(s, player):
        parts = runs(s, s.players[player].extra[ADVENTURER])
        raise RuleViolation("indy.blockade", "Die {blocked} sind von {snakes} Schlangenbohne(n) blockiert; erst "
                            "ab {needed} Schlangenbohnen bringt der Verkauf einen Taler.",
                            blocked=_many(s.variety[parts[0][0]]), snakes=len(parts[-1]),
                            needed=snakes_needed(s, player))


def sell(s: State, player: int) -> int:
    """Sell everything at the adventurer: of each run the top cards become coins (on the
    Home-Sweet-Home card), the rest goes to the discard pile; returns the coins."""
    p = s.players[player]
    coins = 0
    for run in runs(s, p.extra[ADVENTURER]):
        n = run_coins(s, run)
        s.discard.extend(run[: len(run) - n])
        p.coins.extend(run[len(run) - n:])
        coins += n
    s.events.append(("sell", player, len(p.extra[ADVENTURER]), coins))
    p.extra[ADVENTURER].clear()
    return coins


def unload(s: State, player: int) -> None:
    """After a sale the carrier's stack moves onto the adventurer (indy.carrier-load)."""
    p = s.players[player]
    if p.extra[LOAD] and not p.extra[ADVENTURER]:
        p.extra[ADVENTURER].extend(p.extra[LOAD])
        p.extra[LOAD].clear()
        s.events.append(("unload", player))


def do_sell(s: State, a: SellAdventurer, _: None) -> None:
    sell(s, a.player)
    unload(s, a.player)


def check_field(s: State, a: FieldToAdventurer) -> None:
    player = _seat(s, a.player)
    fields = s.players[player].fields
    if not isinstance(a.field, int) or isinstance(a.field, bool) or not 0 <= a.field < len(fields):
        raise RuleViolation("input.no-field", "Feld {field} gibt es nicht.", field=repr(a.field))
    _quiet(s, "indy.field-to-adventurer")
    cards = fields[a.field]
    if not cards:
        raise RuleViolation("indy.field-to-adventurer", "Feld {field} ist leer.", field=a.field + 1)
    _sabotaged(s, player)
    top = adventurer_variety(s, player)
    mine = s.variety[cards[0]]
    if top is not None and top != mine:
        raise RuleViolation("indy.field-to-adventurer", "Beim Abenteurer liegen {there}; {beans} passen nicht dazu.",
                            there=_many(top), beans=_many(mine))


def do_field(s: State, a: FieldToAdventurer, _: None) -> None:
    p = s.players[a.player]
    p.extra[ADVENTURER].extend(p.fields[a.field])
    s.events.append(("field_to_adventurer", a.player, a.field, len(p.fields[a.field])))
    p.fields[a.field] = []


def final_scoring(s: State) -> None:
    """indy.end: after the final harvest every adventurer sells (a blockade no longer
    matters: each variety by its own meter), then the carrier's stack moves to him and is
    sold too. Hand cards, path and carrier cards bring nothing."""
    for player, p in enumerate(s.players):
        for _ in range(2):
            if p.extra[ADVENTURER]:
                sell(s, player)
            unload(s, player)


# ---- purchases and the Sabohntage card ------------------------------------------------------------
def check_buy(s: State, a: BuyCard) -> tuple[str, int]:
    player = _seat(s, a.player)
    _quiet(s, "indy.buy")
    try:
        kind = find_variety(a.kind).key  # type: ignore[arg-type]
    except ValueError:
        kind = ""
    if kind not in BUYABLE:
        raise RuleViolation("indy.buy", "Kaufen kann man eine Wegkarte oder eine Trägerkarte, nicht {kind}.",
                            kind=repr(str(a.kind)[:40]))
    p = s.players[player]
    card = _one(kind)
    if p.extra[kind] or (kind == CARRIER and p.extra[CARRIER_LAID]):
        raise RuleViolation("indy.buy", "{name} hat schon eine {card}.", name=p.name, card=card)
    if not any(s.variety[c] == kind for c in s.extra[SUPPLY]):
        raise RuleViolation("indy.buy", "Es ist keine {card} mehr im Vorrat.", card=card)
    cost = settings(s).path_cost if kind == PATH else settings(s).carrier_cost
    if len(p.coins) < cost:
        raise RuleViolation("indy.buy", "Die {card} kostet {cost} Taler, {name} hat {coins}.",
                            card=card, cost=cost, name=p.name, coins=len(p.coins))
    return kind, cost


def do_buy(s: State, a: BuyCard, checked: tuple[str, int]) -> None:
    kind, cost = checked
    p = s.players[a.player]
    paid = p.coins[-cost:]
    del p.coins[-cost:]
    s.discard.extend(paid)  # as for a field: the coins go face down onto the discard pile
    s.face_down.update(paid)
    card = next(c for c in s.extra[SUPPLY] if s.variety[c] == kind)
    s.extra[SUPPLY].remove(card)
    p.extra[kind].append(card)
    if kind == CARRIER:  # indy.carrier: to the back of the hand
        _set_ahead(s, a.player, tuple(p.hand))
    s.events.append(("buy_card", a.player, kind, cost))


def check_sabotage(s: State, a: Sabotage) -> int:
    player = _seat(s, a.player)
    if not settings(s).sabohntage:
        raise RuleViolation("indy.sabohntage", "In „{rules}“ wird ohne Sabohntagekarte gespielt.",
                            rules=Term(s.ruleset.title))
    if player != s.active:
        raise RuleViolation("indy.sabohntage", "Die Sabohntagekarte legt man nur, wenn man am Zug ist.")
    _quiet(s, "indy.sabohntage")
    if not s.players[player].extra[SABOHNTAGE]:
        raise RuleViolation("indy.sabohntage", "{name} hat die Sabohntagekarte nicht.", name=s.players[player].name)
    target = a.target
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(s.players):
        raise RuleViolation("input.unknown-player", "Person {player} gibt es nicht.", player=repr(target))
    if target == player:
        raise RuleViolation("indy.sabohntage", "Die Sabohntagekarte kommt auf einen fremden Abenteurer.")
    return target


def do_sabotage(s: State, a: Sabotage, target: int) -> None:
    mine = s.players[a.player].extra[SABOHNTAGE]
    s.players[target].extra[SABOTAGED].extend(mine)
    mine.clear()
    s.events.append(("sabotage", a.player, target))


RULES = {
    VisitTemple: (check_visit, do_visit),
    LoadCarrier: (check_load, do_load),
    SellAdventurer: (check_sell, do_sell),
    FieldToAdventurer: (check_field, do_field),
    BuyCard: (check_buy, do_buy),
    LayCarrier: (check_lay, do_lay),
    Sabotage: (check_sabotage, do_sabotage),
}
"""Action type -> (checker, mutator), the edition's ``actions``."""


def candidates(s: State, seats) -> list:
    """Every edition action the seats might take now (``legal_extra`` keeps the legal ones)."""
    out: list = []
    active = s.active
    names = list(temple_stacks(s))
    for seat in seats:
        p = s.players[seat]
        out.append(SellAdventurer(seat))
        out += [FieldToAdventurer(seat, f) for f, cards in enumerate(p.fields) if cards]
        out += [BuyCard(seat, kind) for kind in BUYABLE if not p.extra[kind]]
        if seat != active:
            continue
        if p.extra[CARRIER]:
            out.append(LayCarrier(seat))
        if s.phase is Phase.TRADE:
            out += [VisitTemple(seat, v) for v in names]
            if p.extra[PATH]:
                out += [VisitTemple(seat, v, True) for v in names]
            if p.extra[CARRIER_LAID]:
                out += [LoadCarrier(seat, v) for v in names]
        if p.extra[SABOHNTAGE]:
            out += [Sabotage(seat, t) for t in range(len(s.players)) if t != seat]
    return out


def legal(s: State, seats) -> list:
    """The legal edition actions of ``seats`` (never raises)."""
    if s.phase is Phase.OVER or s.offer is not None:
        return []
    out = []
    for a in candidates(s, seats):
        try:
            RULES[type(a)][0](s, a)
        except RuleViolation:
            continue
        out.append(a)
    return out


__all__ = [
    "BY_PATH", "LOADED", "MATCH", "OFF", "OTHER", "PLANT", "RULES", "SNAKE_ADVENTURER", "SNAKE_TEMPLE",
    "SNAKE_WANTED", "candidates", "is_bean", "sell", "unload",
    "ACTIONS", "ADVENTURER", "BUYABLE", "BuyCard", "CARRIER", "CARRIER_LAID", "FieldToAdventurer",
    "IndianaSettings", "LOAD", "LayCarrier", "LoadCarrier", "NEW_VARIETIES", "OUTCOME_RULE", "PATH",
    "SABOHNTAGE", "SABOTAGED", "SNAKE", "SUCCESS", "SUPPLY", "Sabotage", "SellAdventurer", "TEMPLE",
    "VisitTemple", "adventurer_variety", "beans_in_deck", "blocked", "carrier_position", "check_plant",
    "check_trade_card", "draw_round", "kept", "end_turn", "final_scoring", "legal", "next_bean", "outcome", "reveal", "run_coins", "runs",
    "sale_coins", "settings", "setup", "snakes_needed", "temple", "temple_check", "temple_stacks", "visits",
]
