"""The rules: set up a game, check and apply actions, list the legal ones.

``apply`` validates completely before it changes anything, so a refused action
(``RuleViolation``) leaves the state exactly as it was. ``is_legal`` and
``legal_actions`` never raise. Behaviour that differs between rulebooks is read from the
state's ``RuleSet`` and its ``PlayerCountRules``; an edition's own rules come in through
the hooks of ``s.edition`` (``game/edition.py``), each called only when it is not None.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from bohnteach.game.actions import (
    Accept, Action, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
    Reorder, TakeIntoHand, plain, short_repr,
)
from bohnteach.game.beans import find_variety
from bohnteach.game.errors import RuleViolation, Term
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.game.state import CardInfo, Phase, State

DEFAULT_NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta")

# Final: the mypyc build reads final module names from C statics, not the module's dict
PLANT: Final = Phase.PLANT
TRADE: Final = Phase.TRADE
PLANT_RECEIVED: Final = Phase.PLANT_RECEIVED
DRAW: Final = Phase.DRAW
OVER: Final = Phase.OVER


# ---- set-up --------------------------------------------------------------------------
_DECKS: Final[dict[tuple[int, int], tuple[RuleSet, tuple[CardInfo, ...]]]] = {}


def make_cards(ruleset: RuleSet, players: int) -> tuple[CardInfo, ...]:
    """The deck of a rule set for a player count, ids 0…N-1 in variety order; built once
    per rule set and player count (card records are immutable), so that ``State`` can
    reuse its derived tables too."""
    key = (id(ruleset), players)
    hit = _DECKS.get(key)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    cards = tuple(CardInfo(i, v, s) for i, (v, s) in enumerate(ruleset.card_specs(players)))
    _DECKS[key] = (ruleset, cards)  # the rule set is kept, so its id is never reused
    return cards


def check_names(names: Sequence[str]) -> list[str]:
    clean = [str(n).strip() for n in names]
    if any(not n for n in clean):
        raise ValueError("Jede Person braucht einen Namen.")
    if len(set(clean)) != len(clean):
        raise ValueError(f"Die Namen müssen verschieden sein: {', '.join(clean)}")
    return clean


def new_game(
    ruleset: object = "amigo",
    players: object = 4,
    seed: object = 0,
    start_player: object = 0,
    shuffled: bool = True,
) -> State:
    """Shuffle with ``seed``, deal one card at a time (setup.deal), fields by player count.
    ``shuffled=False`` leaves the pile in id order, top = highest id (tests of the deal).

    ``ruleset``: a name or a ``RuleSet``; ``players``: a count or a list of names. Anything
    else is a ``ValueError`` (the arguments are typed ``object`` so that the compiled build
    does not raise ``TypeError`` first)."""
    rules = find_ruleset(ruleset)
    if type(seed) is not int or type(start_player) is not int:
        raise ValueError(f"Seed und Startspieler sind ganze Zahlen, nicht {seed!r} und {start_player!r}.")
    if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
        raise ValueError(f"Personen: eine Anzahl oder eine Liste von Namen, nicht {players!r}.")
    names = list(DEFAULT_NAMES[:players]) if isinstance(players, int) else check_names(players)
    if isinstance(players, int) and not 1 <= players <= len(DEFAULT_NAMES):
        raise ValueError(f"{players} Personen: möglich sind {rules.min_players}–{rules.max_players}.")
    setup = rules.for_players(len(names))
    if not 0 <= start_player < len(names):
        raise ValueError(f"Startspieler {start_player} gibt es nicht (0–{len(names) - 1}).")
    state = State(rules, names, make_cards(rules, len(names)), seed)
    deck = list(range(len(state.cards)))
    if shuffled:
        shuffle(deck, f"bohnteach:{seed}")
    state.deck = deck  # top of the pile = end of the list
    n = len(names)
    hands = [state.players[(start_player + k) % n].hand for k in range(n)]
    wanted = [setup.deal_for(k) for k in range(n)]
    for dealt in range(max(wanted)):  # one card at a time, round by round
        for hand, count in zip(hands, wanted):
            if dealt < count:
                hand.append(deck.pop())
    state.start_player = state.active = start_player
    ed = state.hooks
    if ed is not None and ed.setup is not None:
        ed.setup(state)
    return state


def shuffle(cards: list[int], seed: str) -> None:
    """``random.Random(seed).shuffle(cards)``: the same order (``random.shuffle`` draws
    each swap with ``_randbelow``, as ``randbelow`` does)."""
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        j = randbelow(getrandbits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """What ``random.Random._randbelow(n)`` returns (and ``choice``/``randrange(n)`` use),
    from the same stream: k = n's bit length bits, drawn again while ≥ n. n ≥ 1."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


# ---- small helpers -------------------------------------------------------------------
def _name(s: State, player: int) -> str:
    return s.players[player].name


def _label(s: State, card: int) -> str:
    return find_variety(s.variety[card]).de


def _term(s: State, card: int) -> Term:
    """A card's variety among a refusal's parameters (translated where it is shown)."""
    return Term.variety(find_variety(s.variety[card]).de)


def _check_player(s: State, player: object) -> None:
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(s.players):
        raise RuleViolation("input.unknown-player", "Person {player} gibt es nicht.", player=repr(player))


def _check_field(s: State, player: int, field: object) -> None:
    count = len(s.players[player].fields)
    if not isinstance(field, int) or isinstance(field, bool) or not 0 <= field < count:
        shown = field + 1 if isinstance(field, int) else field
        raise RuleViolation(
            "input.no-field", "{name} hat {count} Felder, Feld {field} gibt es nicht.",
            name=_name(s, player), count=count, field=shown,
        )


def fitting_fields(s: State, player: int, card: int) -> list[int]:
    """Fields where ``card`` may be planted: empty or growing the same variety."""
    variety = s.variety[card]
    return [
        i for i, f in enumerate(s.players[player].fields)
        if not f or s.variety[f[0]] == variety
    ]


def to_plant(s: State, player: int) -> list[int]:
    """Cards ``player`` still has to plant in phase 3 (revealed ones for the active player)."""
    cards = s.players[player].set_aside
    return s.revealed + cards if player == s.active else cards[:]


def _phase3_waiting_on(s: State, player: int) -> tuple[int, str] | None:
    """Phase 3 in an edition's order: (the earlier seat that must plant first, the rule)."""
    ed = s.hooks
    if ed is None or ed.phase3_first is None:
        return None
    return ed.phase3_first(s, player)


def actor(s: State) -> int | None:
    """Whose decision the game waits for (other players may still harvest any time)."""
    if s.phase is OVER:
        return None
    ed = s.hooks
    if ed is not None and ed.waiting_seats is not None:
        waiting = ed.waiting_seats(s)
        if waiting:
            return waiting[0]
    if s.offer is not None:
        return s.offer.to
    active = s.active
    if s.phase is PLANT_RECEIVED:
        if s.revealed:
            return active
        players = s.players
        n = len(players)
        for k in range(n):
            seat = (active + k) % n
            if players[seat].set_aside:  # to_plant(s, seat), without building the list
                return seat
    return active


# ---- the draw pile -------------------------------------------------------------------
def _draw_card(s: State) -> int | None:
    if not s.deck:
        return None
    card = s.deck.pop()
    if not s.deck:
        _exhausted(s)
    return card


def _top_cards(s: State, k: int) -> list[int] | None:
    """The top ``k`` cards of the draw pile in the order drawn, taken at once, when the pile
    holds more than ``k`` and the game is not ending (drawing them one by one would not
    exhaust the pile); otherwise None and nothing is taken (draw them one by one)."""
    deck = s.deck
    if len(deck) <= k or s.ending:
        return None
    cards = deck[-1:-k - 1:-1]
    del deck[-k:]
    return cards


def _exhausted(s: State) -> None:
    s.exhaustions += 1
    s.events.append(("exhausted", s.exhaustions))
    if s.exhaustions >= s.setup.exhaustions or not s.discard:
        s.ending = True  # end.third-exhaustion; Auslegung for an empty discard pile
        return
    cards, s.discard = s.discard, []
    s.face_down.clear()  # the whole discard pile becomes the new draw pile
    shuffle(cards, f"bohnteach:{s.seed}:{s.exhaustions}")
    s.deck = cards
    s.events.append(("reshuffle", s.exhaustions + 1))


draw_card = _draw_card
"""The top card of the draw pile (None when empty); counts and reshuffles when the pile
runs out. Public for editions that draw in their own hooks."""


# ---- phase changes -------------------------------------------------------------------
def _start_trading(s: State) -> None:
    s.phase = TRADE  # hand_plants stays until the next turn (p1.second-optional)
    ed = s.hooks
    if ed is not None and ed.reveal is not None:
        s.events.append(("reveal", tuple(ed.reveal(s))))
        return
    revealed = _top_cards(s, 2)  # p2.reveal-two
    if revealed is None:  # p2.reveal-one when the pile runs out for good
        revealed = []
        for _ in range(2):
            if s.ending:
                break
            card = _draw_card(s)
            if card is None:
                break
            revealed.append(card)
    s.revealed.extend(revealed)
    s.events.append(("reveal", tuple(revealed)))


def _after_trading(s: State) -> None:
    if any(to_plant(s, p) for p in range(len(s.players))):
        s.phase = PLANT_RECEIVED
    else:
        _before_drawing(s)


def _before_drawing(s: State) -> None:
    if s.ending:
        _end_game(s)
    else:
        s.phase = DRAW


def _next_turn(s: State) -> None:
    s.active = (s.active + 1) % len(s.players)
    s.turn += 1
    s.phase = PLANT
    s.hand_plants = 0
    s.events.append(("turn", s.active))
    if not s.players[s.active].hand:  # p1.empty-hand
        _start_trading(s)


def harvest_coins(s: State, player: int, field: int) -> int:
    """Coins a harvest of this field would bring now (top card's meter; none → 0)."""
    cards = s.players[player].fields[field]
    if not cards:
        return 0
    ed = s.hooks
    if ed is not None and ed.harvest_coins is not None:
        coins = ed.harvest_coins(s, player, field)
        if coins is not None:
            return coins
    return meter_coins(s, cards)


def meter_coins(s: State, cards: list[int]) -> int:
    """Coins a harvest of the non-empty field ``cards`` brings by its top card's meter,
    without asking the edition (``harvest_coins`` does; callers that check many fields read
    the edition's hook once and call this when it is None)."""
    steps = s.coin_steps[cards[-1]]  # beans.coin_steps: never more coins than cards
    n = len(cards)
    return steps[n] if n < len(steps) else steps[-1]


def _harvest(s: State, player: int, field: int) -> None:
    ed = s.hooks
    if ed is not None and ed.harvest is not None:
        ran_out = ed.harvest(s, player, field)
        if ran_out is not None:
            if ran_out and not s.ending:
                _exhausted(s)  # the draw pile ran out; the field already lies on the discard pile
            if s.face_down:  # coins taken from the discard pile are no longer on it
                s.face_down.intersection_update(s.discard)
            return
    p = s.players[player]
    cards = p.fields[field]
    coins = harvest_coins(s, player, field)
    keep = len(cards) - coins
    if coins:
        p.coins += cards[keep:]  # the top cards are turned to their coin side
        s.discard += cards[:keep]
    else:
        s.discard += cards
    p.fields[field] = []
    s.events.append(("harvest", player, field, len(cards), coins))


def _end_game(s: State) -> None:
    s.offer = None
    for player, p in enumerate(s.players):  # end.final-harvest
        for field, cards in enumerate(p.fields):
            if cards:
                _harvest(s, player, field)
    ed = s.hooks
    if ed is not None and ed.final_scoring is not None:  # the edition's zones that still count
        ed.final_scoring(s)
    s.scores = [len(p.coins) for p in s.players]
    s.winners = winners(s)
    s.phase = OVER
    s.events.append(("game_over", tuple(s.scores), tuple(s.winners)))


def winners(s: State) -> list[int]:
    """Highest coin count; ties by the rule set's tie-break (tie.clockwise / tie.hand-cards)."""
    scores = [len(p.coins) for p in s.players]
    best = max(scores)
    tied = [i for i, c in enumerate(scores) if c == best]
    if len(tied) == 1:
        return tied
    n = len(s.players)
    if s.ruleset.tie_break == "clockwise":
        return [max(tied, key=lambda i: (i - s.start_player) % n)]
    most = max(len(s.players[i].hand) for i in tied)
    return [i for i in tied if len(s.players[i].hand) == most]


# ---- validation (raises RuleViolation, never changes the state) ----------------------
def _not_over(s: State) -> None:
    if s.phase is OVER:
        raise RuleViolation("game.over")


def _check_plant(s: State, a: Plant) -> tuple[int, object]:
    """The card that would be planted, and what the edition's ``check_plant`` returned."""
    _not_over(s)
    _check_player(s, a.player)
    _check_field(s, a.player, a.field)
    p = s.players[a.player]
    name = p.name
    phase = s.phase
    if phase is PLANT:
        if a.player != s.active:
            raise RuleViolation(
                "turn.not-active", "In Phase 1 pflanzt nur {active}, nicht {name}.",
                active=_name(s, s.active), name=name,
            )
        if not p.hand:
            raise RuleViolation("p1.empty-hand", "{name} hat keine Karte auf der Hand.", name=name)
        front = p.hand[0]
        if a.card is not None and a.card != front:
            if a.card in p.hand:
                raise RuleViolation(
                    "p1.plant-front",
                    "Die {card} steckt an Stelle {place} deiner Hand; vorne liegt die {front}.",
                    card=_term(s, a.card), place=p.hand.index(a.card) + 1, front=_term(s, front),
                )
            raise RuleViolation("input.unknown-card", "Diese Karte hat {name} nicht auf der Hand.", name=name)
        card = front
        no_room_rule = "p1.no-room"
    elif phase is PLANT_RECEIVED:
        choices = to_plant(s, a.player)
        if a.card is None:
            if not choices:
                raise RuleViolation("p3.plant-all", "{name} hat in Phase 3 nichts mehr zu pflanzen.", name=name)
            card = choices[0]
        elif a.card in choices:
            card = a.card
        elif a.card in p.hand:
            raise RuleViolation(
                "p3.plant-all", "In Phase 3 kommen nur quer liegende und aufgedeckte Karten aufs Feld."
            )
        else:
            raise RuleViolation("input.unknown-card", "Diese Karte muss {name} nicht pflanzen.", name=name)
        first = _phase3_waiting_on(s, a.player)
        if first is not None:
            raise RuleViolation(first[1], "Erst pflanzt {first}, dann {name}.", first=_name(s, first[0]), name=name)
        no_room_rule = "p3.no-room"
    elif phase is TRADE and (
        (ed := s.hooks) is not None and ed.check_plant_out_of_phase is not None
        and (allowed := ed.check_plant_out_of_phase(s, a)) is not None
    ):  # a plant the edition allows in phase 2
        card, no_room_rule = allowed
    elif phase is TRADE:
        if a.player == s.active and s.hand_plants == 2 and (a.card is None or a.card in p.hand):
            raise RuleViolation("p1.second-optional", "Du hast in Phase 1 schon zwei Karten gepflanzt.")
        if a.card is not None and (a.card in s.revealed or a.card in p.set_aside):
            raise RuleViolation(
                "p3.plant-all", "Aufgedeckte und erhaltene Karten werden erst nach dem Handel gepflanzt."
            )
        raise RuleViolation("turn.wrong-phase", "Jetzt ist Phase 2: aufdecken und handeln.")
    else:
        raise RuleViolation("turn.wrong-phase", "Jetzt ist Phase 4: nachziehen.")
    target = p.fields[a.field]
    if target and s.variety[target[0]] != s.variety[card]:
        here = {"field": a.field + 1, "grows": _term(s, target[0]), "card": _term(s, card)}
        if not fitting_fields(s, a.player, card):
            raise RuleViolation(no_room_rule, "Auf Feld {field} wächst {grows}, die {card} passt nicht dazu. "
                                "Kein Feld ist frei.", **here)
        raise RuleViolation("field.one-variety", "Auf Feld {field} wächst {grows}, die {card} passt nicht dazu.",
                            **here)
    ed = s.hooks
    if ed is not None and ed.check_plant is not None:  # the edition checks its choice (Plant.choice)
        return card, ed.check_plant(s, a.player, a.field, card, a.choice)
    if a.choice is not None:
        s.edition.refuse_plant_choice(s, a)
    return card, None


def _check_end_planting(s: State, a: EndPlanting) -> None:
    _not_over(s)
    _check_player(s, a.player)
    if s.phase is not PLANT:
        if s.phase is TRADE and a.player == s.active:
            raise RuleViolation("turn.wrong-phase", "Phase 1 ist schon vorbei.")
        raise RuleViolation("turn.wrong-phase", "Phase 1 beenden kann man nur in Phase 1.")
    if a.player != s.active:
        raise RuleViolation("turn.not-active", "{active} ist am Zug.", active=_name(s, s.active))
    if s.hand_plants == 0 and s.players[a.player].hand:  # p1.empty-hand: nothing to plant
        raise RuleViolation("p1.plant-front", "Du hast die vorderste Karte noch nicht gepflanzt.")


def _check_harvest(s: State, a: Harvest) -> None:
    _not_over(s)
    _check_player(s, a.player)
    _check_field(s, a.player, a.field)
    fields = s.players[a.player].fields
    cards = fields[a.field]
    if not cards:
        raise RuleViolation("input.empty-field", "Feld {field} ist leer.", field=a.field + 1)
    if a.cards is not None and a.cards != len(cards):
        raise RuleViolation(
            "harvest.whole-field",
            "Auf Feld {field} liegen {count} Karten; nur {cards} zu ernten geht nicht.",
            field=a.field + 1, count=len(cards), cards=a.cards,
        )
    if len(cards) == 1:
        bigger = [i for i, f in enumerate(fields) if len(f) > 1]
        if bigger:
            raise RuleViolation(
                "harvest.protection",
                "Auf Feld {field} liegt nur eine Bohne, auf Feld {other} aber {count}.",
                field=a.field + 1, other=bigger[0] + 1, count=len(fields[bigger[0]]),
            )
    _check_harvest_extra(s, a)


def _check_blocked(s: State) -> None:
    """The edition's refusal while somebody must act first (offers, ending the trade)."""
    ed = s.hooks
    if ed is not None and ed.check_blocked is not None:
        ed.check_blocked(s)


def _check_harvest_extra(s: State, a: Harvest) -> None:
    """The edition's further harvest limits, after the core's."""
    ed = s.hooks
    if ed is not None and ed.check_harvest is not None:
        ed.check_harvest(s, a.player)


def _owner_check(s: State, owner: int, card: object, giving: bool) -> None:
    """``card`` may change hands from ``owner`` in a deal (trade.* rules)."""
    who = _name(s, owner)
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(s.cards):
        raise RuleViolation("input.unknown-card", "Karte {card} gibt es nicht.", card=repr(card))
    ed = s.hooks
    if ed is not None and ed.check_trade_card is not None:  # the edition's own reason comes first
        ed.check_trade_card(s, owner, card)
    p = s.players[owner]
    if card in p.hand:
        return
    if card in s.revealed:
        if owner == s.active:
            return
        raise RuleViolation(
            "p2.reveal-two",
            "Die aufgedeckte {card} gehört {active}, nicht {name}.",
            card=_term(s, card), active=_name(s, s.active), name=who,
        )
    for q, other in enumerate(s.players):
        if card in other.set_aside:
            if q == owner:
                raise RuleViolation(
                    "trade.no-retrade", "{name} hat die {card} gerade erst bekommen.",
                    name=who, card=_term(s, card),
                )
            break
        for f in other.fields:
            if card in f:
                if q == owner:
                    raise RuleViolation(
                        "trade.no-field-cards", "Die {card} liegt schon auf {name}s Feld.",
                        card=_term(s, card), name=who,
                    )
                break
    raise RuleViolation("input.unknown-card", "{name} hat diese Karte nicht auf der Hand.", name=who)


def _check_offer(s: State, a: Offer) -> None:
    _not_over(s)
    _check_player(s, a.player)
    _check_player(s, a.to)
    if s.phase is not TRADE:
        raise RuleViolation("trade.phase2-only", "Jetzt ist Phase {phase}.", phase=int(s.phase))
    _check_blocked(s)
    if s.offer is not None:
        o = s.offer
        raise RuleViolation(
            "trade.one-offer", "Offen ist das Angebot von {giver} an {taker}.",
            giver=_name(s, o.player), taker=_name(s, o.to),
        )
    if a.player == a.to:
        raise RuleViolation("trade.active-only", "Mit sich selbst kann man nicht handeln.")
    if s.active not in (a.player, a.to):
        raise RuleViolation(
            "trade.active-only",
            "{giver} und {taker} sind beide nicht am Zug; sie können nur mit {active} handeln.",
            giver=_name(s, a.player), taker=_name(s, a.to), active=_name(s, s.active),
        )
    give, get = tuple(a.give), tuple(a.get)
    if not give and not get:
        raise RuleViolation("trade.any-ratio", "Das Angebot enthält keine einzige Karte.")
    if len(set(give + get)) != len(give) + len(get):
        raise RuleViolation("input.unknown-card", "Eine Karte steht doppelt im Angebot.")
    for card in give:
        _owner_check(s, a.player, card, giving=True)
    for card in get:
        _owner_check(s, a.to, card, giving=False)


def _check_accept(s: State, a: Accept) -> Offer:
    _not_over(s)
    _check_player(s, a.player)
    o = s.offer
    if o is None:
        raise RuleViolation("trade.no-offer", "Gerade liegt kein Angebot auf dem Tisch.")
    if a.player != o.to:
        raise RuleViolation(
            "trade.no-offer", "Das Angebot richtet sich an {taker}, nicht an {name}.",
            taker=_name(s, o.to), name=_name(s, a.player),
        )
    return o


def _check_decline(s: State, a: Decline) -> None:
    _not_over(s)
    _check_player(s, a.player)
    o = s.offer
    if o is None:
        raise RuleViolation("trade.no-offer", "Gerade liegt kein Angebot auf dem Tisch.")
    if a.player not in (o.player, o.to):
        raise RuleViolation(
            "trade.no-offer", "Das Angebot geht nur {giver} und {taker} an.",
            giver=_name(s, o.player), taker=_name(s, o.to),
        )


def _check_end_trading(s: State, a: EndTrading) -> None:
    _not_over(s)
    _check_player(s, a.player)
    if s.phase is not TRADE:
        raise RuleViolation("turn.wrong-phase", "Jetzt ist Phase {phase}, nicht Phase 2.", phase=int(s.phase))
    if a.player != s.active:
        raise RuleViolation("trade.end", "Nur {active} kann den Handel beenden.", active=_name(s, s.active))
    _check_blocked(s)
    if s.offer is not None:
        raise RuleViolation("trade.end", "Es ist noch ein Angebot offen.")


def _check_draw(s: State, a: Draw) -> None:
    _not_over(s)
    _check_player(s, a.player)
    if s.phase is PLANT_RECEIVED:
        waiting = [p.name for i, p in enumerate(s.players) if to_plant(s, i)]
        raise RuleViolation(
            "p3.plant-all", "Erst müssen alle ihre Karten pflanzen (noch: {names}).", names=", ".join(waiting)
        )
    if s.phase is not DRAW:
        raise RuleViolation("p4.draw-three", "Jetzt ist Phase {phase}; nachgezogen wird in Phase 4.", phase=int(s.phase))
    if a.player != s.active:
        raise RuleViolation("turn.not-active", "Nachziehen darf nur {active}.", active=_name(s, s.active))


def _check_buy(s: State, a: BuyField) -> int:
    _not_over(s)
    _check_player(s, a.player)
    cost = s.setup.third_field_cost
    p = s.players[a.player]
    if not cost:
        if len(p.fields) >= 3:
            raise RuleViolation("field.buy-third", "Ihr spielt schon mit drei Feldern.")
        raise RuleViolation("field.buy-third", "In „{ruleset}“ kann man kein Feld kaufen.",
                            ruleset=Term(s.ruleset.title))
    if len(p.fields) >= 3:
        raise RuleViolation("field.buy-third", "{name} hat schon ein drittes Feld.", name=p.name)
    if len(p.coins) < cost:
        raise RuleViolation(
            "field.buy-third", "Das Feld kostet {cost} Taler, {name} hat nur {coins}.",
            cost=cost, name=p.name, coins=len(p.coins),
        )
    return cost


# ---- applying --------------------------------------------------------------------------
def _do_plant(s: State, a: Plant, checked: tuple[int, object]) -> None:
    card, choice = checked
    player = a.player
    p = s.players[player]
    phase = s.phase
    if phase is PLANT:
        p.hand.pop(0)
    elif phase is TRADE:  # planted out of phase (check_plant_out_of_phase)
        s.edition.take_planted(s, player, card)  # type: ignore[misc]  # set with that hook
    elif player == s.active and card in s.revealed:
        s.revealed.remove(card)
    else:
        p.set_aside.remove(card)
    p.fields[a.field].append(card)
    s.events.append(("plant", player, a.field, card))
    ed = s.hooks
    if ed is not None and ed.after_plant is not None:  # its choice, checked before
        ed.after_plant(s, player, a.field, choice)
    phase = s.phase
    if phase is PLANT:
        s.hand_plants += 1
        if s.hand_plants == 2 or not p.hand:
            _start_trading(s)
    elif phase is PLANT_RECEIVED and not s.revealed:
        for q in s.players:
            if q.set_aside:
                return
        _before_drawing(s)  # nobody has anything left to plant (to_plant is empty for all)


def _do_end_planting(s: State, a: EndPlanting, _: None) -> None:
    _start_trading(s)


def _do_harvest(s: State, a: Harvest, _: None) -> None:
    _harvest(s, a.player, a.field)


def _do_offer(s: State, a: Offer, _: None) -> None:
    s.offer = Offer(a.player, a.to, tuple(a.give), tuple(a.get))
    s.events.append(("offer", a.player, a.to, tuple(a.give), tuple(a.get)))


def _take(s: State, owner: int, card: int) -> None:
    hand = s.players[owner].hand
    if card in hand:
        hand.remove(card)  # trade.pull-on-agreement: the others keep their order
    else:
        s.revealed.remove(card)


def _receive(s: State, player: int, card: int) -> None:
    """A card received in a deal is set aside (trade.set-aside), unless the edition puts it
    elsewhere (``Edition.receive``)."""
    ed = s.hooks
    if ed is not None and ed.receive is not None and ed.receive(s, player, card):
        return
    s.players[player].set_aside.append(card)


def _do_accept(s: State, a: Accept, o: Offer) -> None:
    for card in o.give:
        _take(s, o.player, card)
    for card in o.get:
        _take(s, o.to, card)
    s.offer = None
    for card in o.give:
        _receive(s, o.to, card)
    for card in o.get:
        _receive(s, o.player, card)
    s.events.append(("trade", o.player, o.to, o.give, o.get))
    ed = s.hooks
    if ed is not None and ed.after_deal is not None:  # the edition's events after a deal
        ed.after_deal(s, o)


def _do_decline(s: State, a: Decline, _: None) -> None:
    s.events.append(("decline", a.player))
    s.offer = None


def _do_end_trading(s: State, a: EndTrading, _: None) -> None:
    _after_trading(s)


def _do_draw(s: State, a: Draw, _: None) -> None:
    ed = s.hooks
    if ed is not None and ed.draw is not None:
        taken = ed.draw(s, a.player)
        s.events.append(("draw", a.player, tuple(taken)))
        if s.ending:
            _end_game(s)
        else:
            _next_turn(s)
        return
    hand = s.players[a.player].hand
    drawn = _top_cards(s, s.setup.draw)  # p4.draw-three
    if drawn is None:  # the pile runs out on the way
        drawn = []
        for _card in range(s.setup.draw):
            card = _draw_card(s)
            if card is None:
                break
            drawn.append(card)
            if s.ending:
                break
    hand += drawn
    s.events.append(("draw", a.player, tuple(drawn)))
    if s.ending:
        _end_game(s)
    else:
        _next_turn(s)


def _do_buy(s: State, a: BuyField, cost: int) -> None:
    p = s.players[a.player]
    paid = p.coins[-cost:]
    del p.coins[-cost:]
    s.discard.extend(paid)  # G: the top coins go face down onto the discard pile
    s.face_down.update(paid)
    p.fields.append([])
    s.events.append(("buy", a.player, cost))


def _refuse_reorder(s: State, a: Reorder) -> None:
    _check_player(s, a.player)
    raise RuleViolation("hand.order", "Umsortieren ist nie erlaubt.")


def _refuse_take(s: State, a: TakeIntoHand) -> None:
    _check_player(s, a.player)
    raise RuleViolation("trade.set-aside", "Die Karte bleibt quer neben deinen Feldern liegen.")


def _never(s: State, a: object, _: None) -> None:
    raise AssertionError("refused actions are never applied")


# action type -> (checker, mutator); the mutator gets what the checker returned
_RULES: Final[dict[type, tuple[Callable[[State, Any], Any], Callable[[State, Any, Any], None]]]] = {
    Plant: (_check_plant, _do_plant),
    EndPlanting: (_check_end_planting, _do_end_planting),
    Harvest: (_check_harvest, _do_harvest),
    Offer: (_check_offer, _do_offer),
    Accept: (_check_accept, _do_accept),
    Decline: (_check_decline, _do_decline),
    EndTrading: (_check_end_trading, _do_end_trading),
    Draw: (_check_draw, _do_draw),
    BuyField: (_check_buy, _do_buy),
    Reorder: (_refuse_reorder, _never),
    TakeIntoHand: (_refuse_take, _never),
}


def _validate(s: State, action: object) -> tuple[Action, object]:
    """Run the checker of ``action`` in its plain form (``actions.plain``: ints, tuples);
    return that form and what the checker returned. Malformed input is a RuleViolation.
    An edition's own action types are checked by the edition's checker alone."""
    rules = _RULES.get(type(action)) or s.edition.actions.get(type(action))
    if rules is None:
        raise RuleViolation("input.unknown-card", "Unbekannte Aktion {action}.", action=short_repr(action))
    try:
        if type(action) in _RULES:
            action = plain(action)  # type: ignore[arg-type]
            checked = rules[0](s, action)
            ed = s.hooks
            if ed is not None and ed.check_action is not None:  # after the core's own rules
                ed.check_action(s, action)
            return action, checked  # type: ignore[return-value]
        return action, rules[0](s, action)  # type: ignore[return-value]
    except RuleViolation:
        raise
    except Exception as error:  # malformed input of any kind: refused, never a crash
        raise RuleViolation(
            "input.unknown-card", "Ungültige Aktion {action}: {error}",
            action=short_repr(action), error=short_repr(error),
        ) from None


def apply(s: State, action: object) -> list[tuple]:
    """Apply ``action`` in place and return what happened (events).

    Raises ``RuleViolation`` (state unchanged) when the action is refused: the whole
    check runs before anything is changed. ``action`` is typed ``object`` because any
    input is refused the same way (the mypyc build would raise TypeError for a
    non-action at the call already).
    """
    action, checked = _validate(s, action)
    s.events = []
    (_RULES.get(type(action)) or s.edition.actions[type(action)])[1](s, action, checked)
    return s.events


def check(s: State, action: object) -> RuleViolation | None:
    """Why ``action`` would be refused, or ``None`` if it is legal. Never raises."""
    try:
        _validate(s, action)
    except RuleViolation as refusal:
        return refusal
    return None


def is_legal(s: State, action: object) -> bool:
    return check(s, action) is None


# ---- the fast path: actions known to be legal ----------------------------------------------
def _fast_plant(s: State, a: Plant) -> None:
    phase = s.phase
    ed = s.hooks
    if (ed is not None and ed.check_plant is not None) or phase is TRADE:  # the edition decides: full check
        _do_plant(s, a, _check_plant(s, a))
        return
    if phase is PLANT:
        card = s.players[a.player].hand[0]
    elif a.card is not None:
        card = a.card
    else:
        card = to_plant(s, a.player)[0]
    _do_plant(s, a, (card, None))


# action type -> the mutator with what its checker would have returned (no checks)
_FAST: Final[dict[type, Callable[[State, Any], None]]] = {
    Plant: _fast_plant,
    EndPlanting: lambda s, a: _start_trading(s),
    Harvest: lambda s, a: _harvest(s, a.player, a.field),
    Offer: lambda s, a: _do_offer(s, a, None),
    Accept: lambda s, a: _do_accept(s, a, s.offer),  # type: ignore[arg-type]  # legal: one is open
    Decline: lambda s, a: _do_decline(s, a, None),
    EndTrading: lambda s, a: _after_trading(s),
    Draw: lambda s, a: _do_draw(s, a, None),
    BuyField: lambda s, a: _do_buy(s, a, s.setup.third_field_cost),
}


def apply_legal(s: State, action: Action) -> list[tuple]:
    """``apply`` for an action known to be legal – one of ``legal_actions(s)`` or one that
    ``check`` accepted – without checking it again (simulations, bots).

    Gives exactly the state and events ``apply`` gives (``tests/test_fast_path.py``). For
    an action that is not legal the result is undefined: use ``apply`` for anything a
    person typed or a program built without asking ``legal_actions``/``check``.
    """
    kind = type(action)
    if kind is Harvest:  # the two most frequent first, without a look-up
        s.events = []
        _harvest(s, action.player, action.field)  # type: ignore[union-attr]
    elif kind is Plant:
        s.events = []
        _fast_plant(s, action)  # type: ignore[arg-type]
    else:
        fast = _FAST.get(kind)
        if fast is None:  # an edition's own action type: the checked way
            return apply(s, action)
        s.events = []
        fast(s, action)
    return s.events


def step(s: State, k: int, player: int | None = None, offers: bool = True) -> list[tuple]:
    """Apply the ``k``-th of ``legal_actions(s, player, offers)`` (like OpenSpiel's
    ``apply_action(int)``); raises IndexError for a ``k`` out of range."""
    return apply_legal(s, legal_actions(s, player, offers)[k])


# ---- enumerating -----------------------------------------------------------------------
_CARD_IDS: Final = 256
"""More card ids than any built-in deck has (cached plants of a named card)."""


class _SeatActions:
    """The actions of one seat, each built once and then reused (actions are immutable
    values): the ones without a card, and plants of a named card (phase 3)."""

    __slots__ = (
        "seat", "harvest", "plant", "harvest_tables", "named_plants", "end_planting", "accept",
        "decline", "end_trading", "draw", "buy",
    )

    def __init__(self, seat: int):
        self.seat = seat
        self.harvest: list[Harvest] = []
        self.plant: list[Plant] = []
        self.harvest_tables: list[tuple[tuple[Harvest, ...], ...]] = []
        self.named_plants: list[list[Plant]] = []
        """``named_plants[field][card]``: ``Plant(seat, field, card)``, for every card id of
        the built-in decks (``named_plant`` for any other)."""
        self.end_planting = EndPlanting(seat)
        self.accept = Accept(seat)
        self.decline = Decline(seat)
        self.end_trading = EndTrading(seat)
        self.draw = Draw(seat)
        self.buy = BuyField(seat)
        self.fields(3)

    def fields(self, n: int) -> _SeatActions:
        """Make sure the per-field actions exist for ``n`` fields; returns self."""
        seat = self.seat
        while len(self.harvest) < n:
            field = len(self.harvest)
            self.harvest.append(Harvest(seat, field))
            self.plant.append(Plant(seat, field))
            self.named_plants.append([Plant(seat, field, card) for card in range(_CARD_IDS)])
        while len(self.harvest_tables) <= n:
            self.harvest_tables.append(self._harvest_table(len(self.harvest_tables)))
        return self

    def _harvest_table(self, n: int) -> tuple[tuple[Harvest, ...], ...]:
        """The harvests listed with ``n`` fields, by the fields' sizes capped at 2 (empty,
        one bean, more) read as a number in base 3, field 1 lowest (``_harvest_key``)."""
        table = []
        for key in range(3 ** n):
            sizes = [key // 3 ** i % 3 for i in range(n)]
            big = [self.harvest[i] for i in range(n) if sizes[i] == 2]
            # harvest.protection: single beans only when no field holds more
            table.append(tuple(big or [self.harvest[i] for i in range(n) if sizes[i] == 1]))
        return tuple(table)

    def named_plant(self, field: int, card: int) -> Plant:
        """``Plant(seat, field, card)``."""
        row = self.named_plants[field]
        return row[card] if 0 <= card < len(row) else Plant(self.seat, field, card)


_SEATS: Final = len(DEFAULT_NAMES)
_SEAT_ACTIONS: Final = [_SeatActions(seat) for seat in range(_SEATS)]
"""Filled for every usual table (up to three fields); others grow on demand."""


def _seat(seat: int, fields: int) -> _SeatActions:
    """The cached actions of ``seat`` with ``fields`` fields (grown on demand)."""
    while len(_SEAT_ACTIONS) <= seat:
        _SEAT_ACTIONS.append(_SeatActions(len(_SEAT_ACTIONS)))
    acts = _SEAT_ACTIONS[seat]
    return acts if fields < len(acts.harvest_tables) else acts.fields(fields)


def _harvest_key(fields: list[list[int]]) -> int:
    """The index into ``_SeatActions.harvest_tables[len(fields)]``."""
    key = 0
    weight = 1
    for f in fields:
        n = len(f)
        key += (n if n < 2 else 2) * weight
        weight *= 3
    return key


def _harvests(s: State, player: int) -> list[Action]:
    fields = s.players[player].fields
    ed = s.hooks
    if ed is not None and ed.check_harvest is not None:  # the edition may refuse a harvest now
        try:
            ed.check_harvest(s, player)
        except RuleViolation:
            return []
    return [*_seat(player, len(fields)).harvest_tables[len(fields)][_harvest_key(fields)]]


def is_legal_harvest_extra(s: State, player: int, field: int) -> bool:
    try:
        _check_harvest_extra(s, Harvest(player, field))
    except RuleViolation:
        return False
    return True


def legal_actions(s: State, player: int | None = None, offers: bool = True) -> list[Action]:
    """All legal actions (of ``player``, or of everybody). Never raises.

    Deals are combinatorial, so only the simple ones are listed: one card given away
    (a gift) and one card for one card, proposed by the active player or to them; any
    other ratio is legal too and can be checked with ``is_legal``.
    """
    phase = s.phase
    if phase is OVER:
        return []
    ed = s.hooks
    if not ((ed is None or ed.plain_listing) and type(player) is int and 0 <= player < len(s.players)):
        return _legal_listing(s, player, offers)
    # the edition adds nothing to the listing: one seat, written for speed (cached values)
    p = s.players[player]
    fields = p.fields
    n_fields = len(fields)
    acts = _SEAT_ACTIONS[player] if player < _SEATS else _seat(player, n_fields)
    tables = acts.harvest_tables
    if n_fields == 2:  # _harvest_key, written out for the usual two fields
        a, b = fields
        na = len(a)
        nb = len(b)
        result: list[Action] = [*tables[2][(na if na < 2 else 2) + 3 * (nb if nb < 2 else 2)]]
    else:
        if n_fields >= len(tables):
            tables = acts.fields(n_fields).harvest_tables
        result = [*tables[n_fields][_harvest_key(fields)]]
    o = s.offer
    if o is not None:
        if o.to == player:
            result += [acts.accept, acts.decline]
        if o.player == player:
            result.append(acts.decline)
        return result + _field_buys(s, (player,))
    if phase is PLANT:
        if s.active == player:
            hand = p.hand
            if hand:
                variety = s.variety
                v = variety[hand[0]]
                plant = acts.plant
                i = 0
                for f in fields:  # fitting_fields, written out
                    if not f or variety[f[0]] == v:
                        result.append(plant[i])
                    i += 1
            if s.hand_plants or not hand:  # p1.empty-hand: go on to phase 2
                result.append(acts.end_planting)
    elif phase is TRADE:
        if s.active == player:
            result.append(acts.end_trading)
        if offers:
            result += _simple_offers(s, (player,))
    elif phase is PLANT_RECEIVED:
        variety = s.variety
        named = acts.named_plants
        for card in _kinds_to_plant(s, player):
            v = variety[card]
            i = 0
            for f in fields:  # fitting_fields, written out
                if not f or variety[f[0]] == v:
                    result.append(named[i][card] if card < _CARD_IDS else acts.named_plant(i, card))
                i += 1
    elif phase is DRAW and s.active == player:
        result.append(acts.draw)
    cost = s.setup.third_field_cost
    if cost and n_fields < 3 and len(p.coins) >= cost:
        result.append(acts.buy)
    return result


def _legal_listing(s: State, player: int | None, offers: bool) -> list[Action]:
    """``legal_actions`` with the edition's hooks, for one seat or every seat."""
    result = _hooked_listing(s, player, offers)
    if s.edition.check_action is not None:  # the edition forbids some of the core's actions
        result = [a for a in result if type(a) not in _RULES or check(s, a) is None]
    return result


def _hooked_listing(s: State, player: int | None, offers: bool) -> list[Action]:
    """The listing of ``_legal_listing`` before the edition's ``check_action``."""
    seats = range(len(s.players)) if player is None else (player,)
    result: list[Action] = []
    for seat in seats:
        result += _harvests(s, seat)
    ed = s.edition
    waiting = ed.waiting_seats(s) if ed.waiting_seats is not None else None
    if waiting:  # only these plants (and the others' harvests)
        for seat in waiting:
            if seat in seats:
                for card, fields in ed.waiting_plants(s, seat):  # type: ignore[misc]
                    result += _plants(s, seat, card, fields, card)
        return result + _field_buys(s, seats)
    o = s.offer
    if o is not None:
        if o.to in seats:
            acts = _seat(o.to, 0)
            result += [acts.accept, acts.decline]
        if o.player in seats:
            result.append(_seat(o.player, 0).decline)
        return result + _field_buys(s, seats)
    active = s.active
    phase = s.phase
    if phase is PLANT:
        hand = s.players[active].hand
        if active in seats:
            if hand:
                plants = _plants(s, active, hand[0], fitting_fields(s, active, hand[0]), None)
                if ed.check_plant is not None:  # the edition may refuse more plants than the core
                    plants = [a for a in plants if check(s, a) is None]
                result += plants
            if s.hand_plants or not hand:  # p1.empty-hand: go on to phase 2
                result.append(_seat(active, 0).end_planting)
    elif phase is TRADE:
        if active in seats:
            result.append(_seat(active, 0).end_trading)
        if offers:
            result += _simple_offers(s, seats)
    elif phase is PLANT_RECEIVED:
        for seat in seats:
            for card in _kinds_to_plant(s, seat):
                result += _plants(s, seat, card, fitting_fields(s, seat, card), card)
    elif phase is DRAW and active in seats:
        result.append(_seat(active, 0).draw)
    result += _field_buys(s, seats)
    if ed.legal_extra is not None:
        result += ed.legal_extra(s, seats)
    return result


def _kinds_to_plant(s: State, seat: int) -> list[int]:
    """Phase 3: the first of each kind of card (variety and trait) ``seat`` may plant now."""
    cards = to_plant(s, seat)
    if not cards or _phase3_waiting_on(s, seat) is not None:
        return []
    if len(cards) == 1:
        return cards
    kind = s.kind
    seen: list[int] = []
    first: list[int] = []
    for card in cards:
        if kind[card] not in seen:
            seen.append(kind[card])
            first.append(card)
    return first


def _field_buys(s: State, seats: Sequence[int]) -> list[Action]:
    """field.buy-third: allowed at any moment of the game (also while an offer is open)."""
    cost = s.setup.third_field_cost
    if not cost:
        return []
    return [
        _seat(seat, 0).buy for seat in seats
        if len(s.players[seat].fields) < 3 and len(s.players[seat].coins) >= cost
    ]


def _plants(
    s: State, seat: int, card: int, fields: Sequence[int], named: int | None
) -> list[Action]:
    """Plant ``card`` on each of ``fields``; with the edition's choices one action per
    choice (``Plant.choice``; None, the default choice, is legal too but not listed)."""
    choices = s.edition.plant_choices
    if choices is None:  # hot path: no choices in this edition, one plant per field
        acts = _seat(seat, len(s.players[seat].fields))
        if named is None:
            return [acts.plant[f] for f in fields]
        return [acts.named_plant(f, named) for f in fields]
    out: list[Action] = []
    for f in fields:
        offered = choices(s, seat, f, card)
        if offered:
            out += [Plant(seat, f, named, choice) for choice in offered]
        else:
            out.append(Plant(seat, f, named))
    return out


def _simple_offers(s: State, seats: Sequence[int]) -> list[Action]:
    active = s.active
    mine = s.players[active].hand + s.revealed
    out: list[Action] = []
    for other in range(len(s.players)):
        if other == active:
            continue
        theirs = s.players[other].hand
        if active in seats:
            for c in mine:
                out.append(Offer(active, other, (c,), ()))
                out += [Offer(active, other, (c,), (d,)) for d in theirs]
        if other in seats:
            out += [Offer(other, active, (d,), ()) for d in theirs]
    return out


__all__ = [
    "actor", "apply", "apply_legal", "check", "draw_card", "fitting_fields", "harvest_coins", "is_legal", "legal_actions",
    "make_cards", "meter_coins", "new_game", "randbelow", "step", "to_plant", "winners",
]
