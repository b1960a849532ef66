"""Bots: simple strategies that play whole games through the engine's public API.

Interface (the same for every bot)::

    bot = make_bot("trader", seed=1)
    while engine.actor(state) is not None:
        player = engine.actor(state)
        engine.apply_legal(state, bots[player].choose(state, player))  # chosen = legal

``Bot.choose(state, player)`` is called when ``engine.actor(state) == player``: the
active player in phases 1, 2 and 4, whoever still has to plant in phase 3, and the
addressee of an open offer (the bot then answers with ``Accept`` or ``Decline``). Bots
harvest only when they are asked to act (phase 3 gives every co-player that chance
before their received cards go onto a field), so a simulation needs nothing but
``actor``. A bot never changes the state itself and always returns a legal action; the
strategies below fall back to a legal one if their idea is refused.

The bots are written against ``legal_actions`` / ``check`` / ``harvest_coins`` /
``fitting_fields`` and the cards' own meters (``state.meter``), not against a fixed deck,
so they keep working for further rule sets (a plant an edition demands in the middle of
phase 2 is taken from ``legal_actions``; an edition's plant choices (``Plant.choice``) use
the engine's default).

Strategies (``BOTS``):

* ``random`` — :class:`RandomBot`: uniform among the actor's legal actions without
  offers (``legal_actions(state, player, offers=False)``), except that it harvests a
  field for 0 coins only when nothing else is allowed. It *does* propose trades, but only
  sparingly: as the active player in phase 2, with probability ``offer_rate`` (default
  0.25) it proposes one of the simple offers of ``legal_actions`` chosen uniformly
  instead (never a variety for the same variety), at most ``max_offers`` (default 2)
  per turn, and never while an edition makes a player plant first (``waiting_seats``:
  the engine refuses every offer then). It accepts an
  offer that helps it and answers any other uniformly. (Drawing from every listed offer
  at every step would make it offer ~100 times per turn.)
* ``planter`` — :class:`PlanterBot`: plants the front card on a field of the same
  variety (the bigger one), else on an empty field, else harvests the field that loses
  least (coins now against the progress towards the next coin and the cards still to
  plant; a field that pays before one that yields 0 coins, so a learner never sees a bot
  harvest for nothing by choice); plants an optional second card only if it fits without harvesting; makes no
  offers (ends phase 2 at once) but accepts every offer that raises its valuation by
  more than ``accept_margin`` – a gift that fits a field, a fair swap – and says why it
  declines the others (:class:`Reply`). It does not buy a third field unless made with
  ``buy_field=True`` (then as soon as it can during the first pass): in ``online``
  4-player games buying costs both the planter and the trader coins on average.
* ``trader`` — :class:`TraderBot`: plants and answers like the planter, and trades in
  phase 2: as the active player it offers revealed cards (and a front hand card that
  would force a harvest) that lower its position to players who grow that variety (then
  to players with an empty field), asking for a card from their hand that it can use
  (one for one, never of the same variety), and gives the card away if nobody pays; at
  most ``max_offers`` (default 8) offers per turn and never the same offer twice. When
  it declines an offer whose cards it wants, it proposes a counter-offer (the same cards
  for a card it can spare; ``Reply.counter``) – as the active player it makes that offer
  itself next.
* ``planner`` — :class:`PlannerBot`: trades like the trader, but values a position by
  planting its whole hand queue in order on the Bohnometer (:func:`queue_value`), so it
  also trades away cards further back in its hand that would force a harvest.

The valuation (:func:`position_value`) plants the cards a player will have to plant
(set-aside / revealed cards, then the next two hand cards) on a model of their fields
with the planter's policy and adds the coins from forced harvests to the fields'
*potential*: the coins a field yields now plus half the way to its next coin step
(:func:`field_potential`).
"""
from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from bohnteach.game.actions import (
    Accept, Action, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
)
from bohnteach.game.beans import Meter, meter_value
from bohnteach.game.engine import check, fitting_fields, harvest_coins, legal_actions, meter_coins, randbelow, to_plant
from bohnteach.game.state import Phase, State
from bohnteach.teaching import teaching_part

# Final: the mypyc build reads final module names from C statics, not the module's dict
PLANT: Final = Phase.PLANT
TRADE: Final = Phase.TRADE
PLANT_RECEIVED: Final = Phase.PLANT_RECEIVED
DRAW: Final = Phase.DRAW


def edition_move(s: State, player: int) -> Action | None:
    """The move the edition's teaching half picks among its own actions (its ``bot``
    part, ``bohnteach/teaching.py``), or None: then the bot plays its base-game move."""
    part = teaching_part(s.edition.name, "bot")
    return None if part is None else part.edition_move(s, player)


# ---- valuation -------------------------------------------------------------------------
GROWTH = 0.05
"""Value per card of a field that can still grow: a grown field reaches its next coin
with fewer new cards than a fresh one, so harvesting it at a coin step is not free.
(:func:`field_potential` keeps a table per meter: call ``_POTENTIALS.clear()`` after
changing this.)"""


_POTENTIALS: Final[dict[tuple[int, ...], tuple[float, ...]]] = {}
"""``field_potential`` by meter: the value for 0, 1, … up to the meter's last step; the
last entry holds for every bigger field (no further step: just its coins)."""


def field_potential(meter: Meter | None, cards: int) -> float:
    """Coins a field of ``cards`` beans under ``meter`` is worth now, plus half the way
    to the next coin step (a field halfway from 1 to 2 coins: 1.25), plus ``GROWTH`` per
    card while a further step exists. Read from a table built once per meter (cheaper
    than ``lru_cache``, which builds and hashes a key of both arguments)."""
    if not meter or cards <= 0:
        return 0.0
    table = _POTENTIALS.get(meter)
    if table is None:
        table = tuple(_potential(meter, n) for n in range(max(meter) + 1))
        _POTENTIALS[meter] = table
    return table[cards] if cards < len(table) else table[-1]


def _potential(meter: tuple[int, ...], cards: int) -> float:
    """``field_potential`` computed."""
    if cards <= 0:
        return 0.0
    coins = meter_value(meter, cards)
    prev_need = 0
    for step, need in enumerate(meter, start=1):
        if not need:
            continue
        if need > cards:
            gain = step - coins
            return coins + 0.5 * gain * (cards - prev_need) / (need - prev_need) + GROWTH * cards
        prev_need = need
    return float(coins)


class _Field:
    """A field as the model sees it: variety, number of cards, meter of the top card."""

    __slots__ = ("variety", "n", "meter")

    def __init__(self, variety: str | None, n: int, meter: Meter | None):
        self.variety, self.n, self.meter = variety, n, meter

    def potential(self) -> float:
        return field_potential(self.meter, self.n)

    def coins(self) -> int:
        return meter_value(self.meter, self.n) if self.meter else 0


def _model(s: State, player: int) -> list[_Field]:
    out = []
    for cards in s.players[player].fields:
        if cards:
            out.append(_Field(s.variety[cards[0]], len(cards), s.meter[cards[-1]]))
        else:
            out.append(_Field(None, 0, None))
    return out


def _harvest_key(f: _Field, demand: int) -> float:
    """Higher = better to harvest: coins now minus what the field still promises."""
    return f.coins() - f.potential() - 0.5 * demand


def _plant_all(s: State, fields: list[_Field], cards: list[int]) -> float:
    """Plant ``cards`` on the model with the planter's phase-3 policy; returns the coins
    banked by forced harvests. The model's fields change in place and ``cards`` is used up
    (callers pass a fresh list: no copy per call, this runs for every valuation)."""
    variety, meter = s.variety, s.meter
    rest = cards
    banked = 0.0
    while rest:
        pick = _pick_plant(variety, fields, rest)
        if pick is None:  # nothing fits: harvest (Bohnenschutzregel as in the base game)
            big = False
            for f in fields:
                if f.n > 1:
                    big = True
            # the field with the highest _harvest_key (the first one on a tie, as max());
            # a loop, not max() with a key closure: this runs in most valuations
            best: _Field | None = None
            best_key = 0.0
            for f in fields:
                if f.n and (f.n > 1 or not big):
                    demand = 0
                    for c in rest:
                        if variety[c] == f.variety:
                            demand += 1
                    key = _harvest_key(f, demand)
                    if best is None or key > best_key:
                        best, best_key = f, key
            if best is None:
                return banked - 10.0  # cannot happen in the base game; keep it costly
            banked += best.coins()
            best.variety, best.n, best.meter = None, 0, None
            continue
        card, i = pick
        rest.remove(card)
        f = fields[i]
        if f.n == 0:
            f.variety = variety[card]
        f.n += 1
        f.meter = meter[card]
    return banked


def _pick_plant(
    variety: tuple[str, ...], fields: list[_Field], cards: list[int]
) -> tuple[int, int] | None:
    """(card, field) to plant next without harvesting, or None: a card whose variety
    already grows (the biggest such field), else the most frequent variety on an empty
    field. (Loops, not max() with a key closure: this runs several times per valuation;
    a tuple, not any sequence, so that the mypyc build indexes it directly.)"""
    best: tuple[int, int] | None = None
    most = 0  # beans on the best field so far (fields do not change here)
    for card in cards:
        v = variety[card]
        i = 0
        for f in fields:
            if f.n > most and f.variety == v:
                best = (card, i)
                most = f.n
            i += 1
    if best is not None:
        return best
    i = 0
    for f in fields:  # the first empty field
        if not f.n:
            break
        i += 1
    else:
        return None
    if len(cards) == 1:
        return cards[0], i
    names = [variety[c] for c in cards]
    card, count = cards[0], 0  # the first card of the most frequent variety, as max()
    for c in cards:
        k = names.count(variety[c])
        if k > count:
            card, count = c, k
    return card, i


def position_value(
    s: State,
    player: int,
    pending: Sequence[int] | None = None,
    hand: Sequence[int] | None = None,
) -> float:
    """How good ``player``'s fields look after planting ``pending`` (default: what they
    must plant in phase 3) and then their next two hand cards: coins from forced
    harvests plus the fields' potential. Only differences of this value mean anything."""
    if pending is None:
        pending = to_plant(s, player)
    if hand is None:
        hand = s.players[player].hand
    fields = _model(s, player)
    banked = _plant_all(s, fields, list(pending))
    # the front card must be planted next turn; the second one usually is too
    banked += _plant_all(s, fields, list(hand[:1]))
    potential = sum(f.potential() for f in fields)
    if len(hand) > 1:  # the model is not needed afterwards: plant the second card on it
        extra = _plant_all(s, fields, [hand[1]])
        second = extra + sum(f.potential() for f in fields) - potential
        banked += 0.5 * max(0.0, second)
    return banked + potential


QUEUE_DEPTH = 5
"""Hand cards :func:`queue_value` plants ahead (the front card and four behind it)."""
QUEUE_DECAY = 0.6
"""Weight of each further hand card's effect in :func:`queue_value`: a card further back
is planted later, and trades or draws may change the plan before then."""


def queue_value(
    s: State, player: int, pending: Sequence[int], hand: Sequence[int],
    depth: int = QUEUE_DEPTH, decay: float = QUEUE_DECAY,
) -> float:
    """Like :func:`position_value`, but plants the hand in its order up to ``depth``
    cards (the rules make every hand card the front card in turn): the coins of forced
    harvests plus the fields' potential after the pending and the front card, plus each
    further card's change of that sum weighted by ``decay`` per position."""
    fields = _model(s, player)
    banked = _plant_all(s, fields, list(pending)) + _plant_all(s, fields, list(hand[:1]))
    prev = banked + sum(f.potential() for f in fields)
    total, weight = prev, 1.0
    for card in hand[1:depth]:
        weight *= decay
        banked += _plant_all(s, fields, [card])
        now = banked + sum(f.potential() for f in fields)
        total += weight * (now - prev)
        prev = now
    return total


# ---- the bots --------------------------------------------------------------------------
class Bot:
    """Common interface. Subclasses implement :meth:`decide`; :meth:`choose` makes sure
    the answer is legal (else falls back to a legal action)."""

    name = "bot"
    description = ""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(f"bohnteach-bot:{self.name}:{seed}")
        self.fallbacks = 0
        """How often the strategy's own idea was refused and a fallback was played."""
        self.reset()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    def reset(self) -> None:
        """Forget the per-turn memory (called automatically when the turn changes)."""
        self._turn_key: tuple[int, int, int] = (-1, 0, 0)  # (id of the state, seed, turn); -1: none yet
        self.attempted: set[Action] = set()
        self.offers_made = 0
        self.reply: Reply | None = None
        """The bot's last answer to an offer, with its reason (see :class:`Reply`)."""

    def _memory(self, s: State) -> None:
        state, seed, turn = self._turn_key
        if s.turn != turn or id(s) != state or s.seed != seed:  # turn first: it changes most
            self.reset()
            self._turn_key = (id(s), s.seed, s.turn)

    def choose(self, s: State, player: int) -> Action:
        """A legal action for ``player`` (call it when ``engine.actor(s) == player``)."""
        self._memory(s)
        action = self.decide(s, player)
        if action is not None and check(s, action) is None:
            return action
        self.fallbacks += 1
        return fallback_action(s, player)

    def decide(self, s: State, player: int) -> Action | None:  # pragma: no cover
        raise NotImplementedError


def fallback_action(s: State, player: int) -> Action:
    """Some legal action for ``player``, preferring ones that move the game on."""
    legal = legal_actions(s, player, offers=False)
    if not legal:
        raise RuntimeError(f"{s.players[player].name} hat keine erlaubte Aktion ({s!r}).")
    order = (Decline, Plant, EndPlanting, EndTrading, Draw, Accept, Harvest, BuyField)
    return min(legal, key=lambda a: order.index(type(a)) if type(a) in order else len(order))


def pointless(s: State, offer: Offer) -> bool:
    """An offer that swaps a variety for the same variety (it changes nobody's fields)."""
    variety = s.variety
    return bool({variety[c] for c in offer.give} & {variety[c] for c in offer.get})


@dataclass(frozen=True)
class Reply:
    """Why a bot answered an offer as it did, in terms a page can put into words without
    showing a hidden hand (``bohnteach.widgets.play_words.reply_text``).

    ``reason``: ``"gain"`` (accepted: the deal improves its fields), ``"keep"`` (it will
    not give up the asked-for ``variety``), ``"useless"`` (the offered ``variety`` does
    not help it), ``"little"`` (it wants the offered cards, but not at that price),
    ``"other"`` (the offer is addressed to somebody else). ``counter``: what it offers
    instead, or ``None``."""

    accept: bool
    reason: str
    variety: str | None = None
    counter: Offer | None = None


GAIN_REPLY: Final = Reply(True, "gain")
"""The answer to an offer that raises the valuation (immutable: one object serves all)."""
LITTLE_REPLY: Final = Reply(False, "little")
"""The random bot's refusal of an offer it does not value (one object serves all)."""


def _somebody_waits(s: State) -> bool:
    """The edition makes somebody act first (then every offer is refused)."""
    ed = s.hooks
    return ed is not None and ed.waiting_seats is not None and bool(ed.waiting_seats(s))


ACCEPT_MARGIN = 0.1
"""How much an offer must raise a bot's valuation before it says yes."""


def deal_gain(
    s: State, player: int, incoming: Sequence[int], outgoing: Sequence[int],
    value: Callable[..., float] = position_value,
) -> float:
    """Change of ``value`` (default :func:`position_value`) if ``player`` receives
    ``incoming`` and gives ``outgoing`` (hand or, for the active player, revealed cards)."""
    pending = to_plant(s, player)
    hand = s.players[player].hand
    before = value(s, player, pending, hand)
    out = set(outgoing)
    after = value(
        s, player,
        [c for c in pending if c not in out] + list(incoming),
        [c for c in hand if c not in out],
    )
    return after - before


def zero_harvest(s: State, action: Action) -> bool:
    """A harvest that yields no coin."""
    return type(action) is Harvest and harvest_coins(s, action.player, action.field) == 0


def without_zero_harvests(s: State, actions: list[Action]) -> list[Action]:
    """``actions`` without the harvests that yield no coin (``zero_harvest`` of each, with
    the type test first: most actions are no harvest)."""
    harvest = Harvest  # one global look-up per call, not one per action
    ed = s.hooks
    if ed is not None and ed.harvest_coins is not None:  # the edition counts coins: ask for each field
        return [
            a for a in actions
            if type(a) is not harvest or harvest_coins(s, a.player, a.field)  # type: ignore[union-attr]
        ]
    players = s.players  # the meter alone counts: the edition's hook is read once, not per harvest
    out: list[Action] = []
    for a in actions:
        if type(a) is harvest:
            cards = players[a.player].fields[a.field]  # type: ignore[union-attr]
            if not cards or not meter_coins(s, cards):
                continue
        out.append(a)
    return out


class RandomBot(Bot):
    """Uniform among the legal actions (offers only sometimes, see the module notes)."""

    name = "random"
    description = "zufällig unter den erlaubten Aktionen, bietet selten Tausch an"

    def __init__(self, seed: int = 0, offer_rate: float = 0.25, max_offers: int = 2):
        super().__init__(seed)
        self.offer_rate = offer_rate
        self.max_offers = max_offers

    def choose(self, s: State, player: int) -> Action:
        rng = self.rng
        self._memory(s)
        o = s.offer
        if o is not None and o.to == player and deal_gain(s, player, o.give, o.get) > ACCEPT_MARGIN:
            self.reply = GAIN_REPLY
            return Accept(player)
        if (
            s.phase is TRADE and o is None and player == s.active
            and self.offer_rate and not _somebody_waits(s)  # an edition's waiting seats
            and rng.random() < self.offer_rate
        ):
            if self.offers_made < self.max_offers:
                offer = self.random_offer(s, player)
                if offer is not None:
                    self.offers_made += 1
                    return offer
        legal = legal_actions(s, player, offers=False)
        if not legal:
            raise RuntimeError(f"{s.players[player].name} hat keine erlaubte Aktion ({s!r}).")
        # a harvest for nothing only when nothing else is allowed (a card must go down)
        legal = without_zero_harvests(s, legal) or legal
        action = legal[int(rng.random() * len(legal))]  # uniform; cheaper than rng.choice
        if o is not None and o.to == player:
            self.reply = GAIN_REPLY if type(action) is Accept else LITTLE_REPLY
        return action

    def random_offer(self, s: State, player: int) -> Offer | None:
        """One of the active player's simple offers of ``legal_actions`` (a gift of one
        card, or one card for one card), drawn uniformly without listing them all; ``None``
        when the draw is a variety for the same variety."""
        mine = s.players[player].hand + s.revealed
        others = [q for q in range(len(s.players)) if q != player]
        if not mine or not others:
            return None
        rng = self.rng
        # each co-player q has len(mine) * (1 + len(hand of q)) offers
        weights = [1 + len(s.players[q].hand) for q in others]
        # rng.choices(others, weights)[0], rng.choice(mine), rng.randrange(weight of q):
        # the same draws from the same stream, without three interpreted library calls
        cumulative = list(accumulate(weights))
        i = bisect_right(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(others) - 1)
        q = others[i]
        card = mine[randbelow(rng.getrandbits, len(mine))]
        k = randbelow(rng.getrandbits, weights[i])
        get = () if k == 0 else (s.players[q].hand[k - 1],)
        offer = Offer(player, q, (card,), get)
        return None if pointless(s, offer) else offer


class PlanterBot(Bot):
    """Plants sensibly, harvests what loses least, makes no offers but accepts good ones."""

    name = "planter"
    description = "pflanzt überlegt, erntet, was am wenigsten kostet, bietet nie an, nimmt Gutes an"
    counters = False
    """Whether a declined offer is answered with a counter-offer."""

    def __init__(self, seed: int = 0, buy_field: bool = False, accept_margin: float = ACCEPT_MARGIN):
        super().__init__(seed)
        self.buy_field = buy_field
        self.accept_margin = accept_margin

    def value(self, s: State, player: int, pending: Sequence[int], hand: Sequence[int]) -> float:
        """The strategy's valuation of ``player``'s position (:func:`position_value`)."""
        return position_value(s, player, pending, hand)

    def gain(self, s: State, player: int, incoming: Sequence[int], outgoing: Sequence[int]) -> float:
        """:func:`deal_gain` under this strategy's valuation."""
        return deal_gain(s, player, incoming, outgoing, self.value)

    def decide(self, s: State, player: int) -> Action | None:
        o = s.offer
        if o is not None:
            return self.answer(s, player, o)
        move = edition_move(s, player)  # an edition's own actions
        if move is not None:
            return move
        buy = self.buy(s, player)
        if buy is not None:
            return buy
        phase = s.phase
        if phase is PLANT:
            return self.plant_from_hand(s, player)
        if phase is TRADE:
            # an edition may demand a plant in the middle of trading (a card received in a
            # deal that goes onto its field at once)
            plants = [a for a in legal_actions(s, player, offers=False) if type(a) is Plant]
            if plants:
                fields = s.players[player].fields
                return max(plants, key=lambda a: (len(fields[a.field]), -a.field))
            return self.trade(s, player)
        if phase is PLANT_RECEIVED:
            return self.plant_received(s, player)
        if phase is DRAW:
            return Draw(player)
        return None

    # -- phase 1
    def plant_from_hand(self, s: State, player: int) -> Action | None:
        hand = s.players[player].hand
        card = hand[0]
        fits = fitting_fields(s, player, card)
        if s.hand_plants == 0:
            if fits:
                return Plant(player, self.best_field(s, player, card, fits))
            return self.best_harvest(s, player, hand[:3])
        if fits:  # p1.second-optional: only if it fits without harvesting
            return Plant(player, self.best_field(s, player, card, fits))
        return EndPlanting(player)

    # -- phase 2
    def trade(self, s: State, player: int) -> Action | None:
        return EndTrading(player) if player == s.active else None

    def answer(self, s: State, player: int, o: Offer) -> Action:
        """Accept an offer that raises the valuation by more than ``accept_margin`` (a
        gift that fits a field, a fair swap); else decline and say why (``self.reply``)."""
        self.reply = self.judge(s, player, o)
        return Accept(player) if self.reply.accept else Decline(player)

    def judge(self, s: State, player: int, o: Offer) -> Reply:
        """The answer to ``o`` with its reason and, for bots that counter, a counter-offer."""
        if player != o.to:
            return Reply(False, "other")
        margin = self.accept_margin
        if self.gain(s, player, o.give, o.get) > margin:
            return GAIN_REPLY
        variety = s.variety
        wanted = self.gain(s, player, o.give, ()) > margin
        if o.get and self.gain(s, player, (), o.get) < -margin and (wanted or not o.give):
            reply = Reply(False, "keep", variety[o.get[0]])
        elif not wanted and o.give:
            reply = Reply(False, "useless", variety[o.give[0]])
        else:
            reply = Reply(False, "little")
        if self.counters and wanted:
            counter = self.counter_offer(s, player, o)
            if counter is not None:
                reply = Reply(False, reply.reason, reply.variety, counter)
        return reply

    def counter_offer(self, s: State, player: int, o: Offer) -> Offer | None:
        """Instead of ``o``: the offered cards for one card of ``player``'s that it can
        spare best (the biggest gain above ``accept_margin``; never a card of an offered
        variety)."""
        mine = list(s.players[player].hand) + (list(s.revealed) if player == s.active else [])
        offered = {s.variety[c] for c in o.give}
        best, best_gain = None, self.accept_margin
        for card in mine:
            if card in o.get or s.variety[card] in offered:
                continue
            g = self.gain(s, player, o.give, (card,))
            if g > best_gain:
                best, best_gain = card, g
        if best is None:
            return None
        return Offer(player, o.player, (best,), tuple(o.give))

    # -- phase 3
    def plant_received(self, s: State, player: int) -> Action | None:
        cards = to_plant(s, player)
        pick = _pick_plant(s.variety, _model(s, player), cards)
        if pick is not None:
            card, field = pick
            return Plant(player, field, card)
        return self.best_harvest(s, player, cards + s.players[player].hand[:1])

    # -- any time
    def buy(self, s: State, player: int) -> Action | None:
        """With ``buy_field``: buy a third field during the first pass if the rule set
        sells one."""
        cost = s.setup.third_field_cost
        p = s.players[player]
        if self.buy_field and cost and s.exhaustions == 0 and len(p.fields) < 3 and len(p.coins) >= cost:
            return BuyField(player)
        return None

    # -- helpers
    @staticmethod
    def best_field(s: State, player: int, card: int, fits: list[int]) -> int:
        """The biggest field of the card's variety, else the first empty one."""
        fields = s.players[player].fields
        return max(fits, key=lambda i: (len(fields[i]), -i))

    @staticmethod
    def best_harvest(s: State, player: int, upcoming: Sequence[int] = ()) -> Action | None:
        """The legal harvest that loses least: coins now minus the field's potential,
        minus a penalty for each upcoming card of the field's variety. A harvest for 0
        coins only if no legal harvest yields a coin (a learner copies what a bot does:
        harvesting for nothing is what the rules force, never a choice)."""
        options = [a for a in legal_actions(s, player, offers=False)
                   if type(a) is Harvest and a.player == player]
        if not options:
            return None
        model = _model(s, player)
        wanted = [s.variety[c] for c in upcoming]

        def key(a: Harvest) -> tuple:
            f = model[a.field]
            coins = harvest_coins(s, player, a.field)
            return (coins > 0, _harvest_key(f, wanted.count(f.variety)), coins, -a.field)  # type: ignore[arg-type]

        return max(options, key=key)


class TraderBot(PlanterBot):
    """Plants like the planter and trades in phase 2 (offers, gifts, counter-offers)."""

    name = "trader"
    _candidates_key: tuple | None
    _candidates: Iterator[Offer]
    description = "pflanzt wie der Planter, tauscht unbrauchbare Karten weg, nimmt gute Angebote an"
    counters = True

    def __init__(
        self, seed: int = 0, max_offers: int = 8, accept_margin: float = ACCEPT_MARGIN,
        buy_field: bool = False,
    ):
        super().__init__(seed, buy_field, accept_margin)
        self.max_offers = max_offers

    # -- offering
    def trade(self, s: State, player: int) -> Action | None:
        if player != s.active:
            return None
        counter = self.reply.counter if self.reply is not None else None
        if counter is not None:  # it just declined an offer to it: now its counter-offer
            self.reply = None
            if counter not in self.attempted and check(s, counter) is None:
                self.attempted.add(counter)
                return counter
        if self.offers_made < self.max_offers:
            # the candidates change only when a deal went through: keep the generator
            # while the table looks the same (after a refusal it simply goes on)
            key = (
                id(s), s.turn, tuple(s.revealed), tuple(s.players[player].hand),
                tuple(c for p in s.players for c in p.set_aside),
                tuple(len(f) for p in s.players for f in p.fields),
            )
            if key != self._candidates_key:
                self._candidates_key = key
                self._candidates = self.candidate_offers(s, player)
            for offer in self._candidates:
                if offer in self.attempted:
                    continue
                self.attempted.add(offer)
                if check(s, offer) is None:
                    self.offers_made += 1
                    return offer
        return EndTrading(player)

    def reset(self) -> None:
        super().reset()
        self._candidates_key = None
        self._candidates = iter(())

    def unwanted(self, s: State, player: int, base: float) -> list[int]:
        """Cards ``player`` is better off without: revealed cards, and the front hand
        card when it would force a harvest next turn."""
        hand = s.players[player].hand
        pending = to_plant(s, player)
        out: list[int] = []
        for card in s.revealed:
            rest = [c for c in pending if c != card]
            if self.value(s, player, rest, hand) >= base - 1e-9:
                out.append(card)
        if hand:
            front = hand[0]
            if self.value(s, player, pending, hand[1:]) > base + 1e-9:
                out.append(front)
        return out

    def candidate_offers(self, s: State, player: int) -> Iterator[Offer]:
        """Offers worth trying, best first (generated lazily); never a variety for the
        same variety."""
        hand = s.players[player].hand
        pending = to_plant(s, player)
        base = self.value(s, player, pending, hand)
        variety = s.variety
        for card in self.unwanted(s, player, base):
            growers, empty = self.takers(s, player, card)
            rest_pending = [c for c in pending if c != card]
            rest_hand = [c for c in hand if c != card]
            without = self.value(s, player, rest_pending, rest_hand)
            gains: dict[tuple, float] = {}  # cards of one kind are worth the same
            for q in growers + empty:
                best, best_gain = None, 1e-9
                for d in s.players[q].hand:
                    if variety[d] == variety[card]:
                        continue
                    kind = (variety[d], s.meter[d])
                    gain = gains.get(kind)
                    if gain is None:
                        gain = self.value(s, player, rest_pending + [d], rest_hand) - without
                        gains[kind] = gain
                    if gain > best_gain:
                        best, best_gain = d, gain
                if best is not None:
                    yield Offer(player, q, (card,), (best,))
            if without > base + 1e-9:  # better off without it: give it away
                for q in growers + empty:
                    yield Offer(player, q, (card,), ())

    @staticmethod
    def takers(s: State, player: int, card: int) -> tuple[list[int], list[int]]:
        """Co-players growing the card's variety (biggest field first), and co-players
        with an empty field."""
        v = s.variety[card]
        growers, empty = [], []
        n = len(s.players)
        for k in range(1, n):
            q = (player + k) % n
            sizes = [len(f) for f in s.players[q].fields if f and s.variety[f[0]] == v]
            if sizes:
                growers.append((-max(sizes), k, q))
            elif any(not f for f in s.players[q].fields):
                empty.append(q)
        return [q for *_, q in sorted(growers)], empty


class PlannerBot(TraderBot):
    """Trades like the trader, planning with the Bohnometer and its whole hand queue."""

    name = "planner"
    description = "handelt wie der Händler und plant mit Bohnometer und ganzer Hand voraus"

    def __init__(self, seed: int = 0, max_offers: int = 16, accept_margin: float = 0.05,
                 buy_field: bool = False):
        # tuned on 40 self-play games (seed 1): 16 offers and margin 0.05 gave 13.8
        # coins, 8 offers and 0.1 gave 13.0
        super().__init__(seed, max_offers, accept_margin, buy_field)

    def value(self, s: State, player: int, pending: Sequence[int], hand: Sequence[int]) -> float:
        return queue_value(s, player, pending, hand)

    def unwanted(self, s: State, player: int, base: float) -> list[int]:
        """The trader's unwanted cards plus every hand card further back whose loss
        raises the plan's value (it would force a harvest when its turn comes)."""
        out = super().unwanted(s, player, base)
        hand = s.players[player].hand
        pending = to_plant(s, player)
        for k in range(1, min(len(hand), QUEUE_DEPTH)):
            if self.value(s, player, pending, hand[:k] + hand[k + 1:]) > base + 1e-9:
                out.append(hand[k])
        return out


BOTS: dict[str, type[Bot]] = {
    "random": RandomBot, "planter": PlanterBot, "trader": TraderBot, "planner": PlannerBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ``planter``, ``trader``, ``planner``)."""
    key = str(name).strip().lower()
    try:
        cls = BOTS[key]
    except KeyError:
        raise ValueError(
            f"Unbekannter Bot {name!r}. Bekannt sind: {', '.join(BOTS)}"
        ) from None
    return cls(seed)


BotFactory = Callable[[int], Bot]

__all__ = [
    "ACCEPT_MARGIN", "BOTS", "Bot", "PlannerBot", "PlanterBot", "RandomBot", "Reply", "TraderBot", "deal_gain",
    "fallback_action", "field_potential", "pointless", "without_zero_harvests", "zero_harvest",
    "make_bot", "position_value", "queue_value",
]
