"""What the planter and trader bots do with Indiana Bohnes' own actions (temple, carrier,
purchases, adventurer, Sabohntage), kept apart from their base-game strategy.

``edition_move(s, player)`` is asked first on each decision; None = nothing of the
edition is worth doing now, the bot plays its base-game move. The chances it uses come
from the draw pile's composition (which cards are still in it, never their order).
"""
from __future__ import annotations

from collections import Counter

from bohnteach.editions import indiana as indy
from bohnteach.game.actions import Action
from bohnteach.game.beans import meter_value
from bohnteach.game.engine import check
from bohnteach.game.state import Phase, State

VISIT_MIN_CHANCE = 0.45
"""Go to the temple only when at least this share of the pile would make the visit succeed."""


def success_chance(s: State) -> float:
    """Chance that a visit (without path card) gets its stack: the turned card is a temple
    variety other than the Schlangenbohne (indy.visit, indy.snake-*)."""
    kinds = Counter(s.variety[c] for c in s.deck if s.variety[c] != indy.SABOHNTAGE)
    total = sum(kinds.values())
    if not total:
        return 0.0
    good = sum(kinds[v] for v in indy.temple_stacks(s) if v != indy.SNAKE)
    return good / total


def _legal(s: State, actions: list[Action]) -> list[Action]:
    return [a for a in actions if check(s, a) is None]


def _gain(s: State, player: int, extra: int) -> int:
    """Coins the adventurer would bring with ``extra`` more cards of his top variety."""
    cards = s.players[player].extra[indy.ADVENTURER]
    if not cards:
        return 0
    meter = s.meter[cards[-1]]
    return meter_value(meter, len(indy.runs(s, cards)[-1]) + extra) if meter else 0


def edition_move(s: State, player: int) -> Action | None:
    """The Indiana action worth taking now, if any (always a legal one)."""
    if s.edition is not indy.INDIANA or s.phase is Phase.OVER or s.offer is not None:
        return None
    p = s.players[player]
    mine = player == s.active
    sale = indy.sale_coins(s, player)
    coins = len(p.coins)
    wanted: list[Action] = []
    if mine and p.extra[indy.SABOHNTAGE]:  # indy.sabohntage: on the richest co-player
        others = [q for q in range(len(s.players)) if q != player]
        wanted.append(indy.Sabotage(player, max(others, key=lambda q: len(s.players[q].coins))))
    if mine and s.exhaustions < 2:  # indy.buy: cheap help early in the game
        if not p.extra[indy.PATH] and coins >= indy.settings(s).path_cost + 1:
            wanted.append(indy.BuyCard(player, "path"))
        if not (p.extra[indy.CARRIER] or p.extra[indy.CARRIER_LAID]) and p.extra[indy.PATH] \
                and coins >= indy.settings(s).carrier_cost:
            wanted.append(indy.BuyCard(player, "carrier"))
    if mine and p.extra[indy.CARRIER]:
        wanted.append(indy.LayCarrier(player))
    if p.extra[indy.LOAD] and sale >= 1:  # unload the carrier through a sale
        wanted.append(indy.SellAdventurer(player))
    if indy.blocked(s, player):  # snakes from a field lift the blockade
        wanted += [indy.FieldToAdventurer(player, f) for f, cards in enumerate(p.fields)
                   if cards and s.variety[cards[0]] == indy.SNAKE]
    elif p.extra[indy.ADVENTURER]:
        top = indy.adventurer_variety(s, player)
        for f, cards in enumerate(p.fields):
            if cards and s.variety[cards[0]] == top and _gain(s, player, len(cards)) > sale:
                wanted.append(indy.FieldToAdventurer(player, f))
    if sale >= 3 or (sale >= 1 and mine and s.phase is Phase.TRADE and not indy.visits(s)):
        wanted.append(indy.SellAdventurer(player))
    if mine and s.phase is Phase.TRADE:
        stacks = indy.temple_stacks(s)
        loads = _legal(s, [indy.LoadCarrier(player, v) for v in stacks])
        if loads:
            return max(loads, key=lambda a: len(stacks[a.variety]))
        paths = _legal(s, [indy.VisitTemple(player, v, True) for v in stacks])
        if paths:
            return paths[0]
        if success_chance(s) >= VISIT_MIN_CHANCE:
            visits = _legal(s, [indy.VisitTemple(player, v) for v in stacks])
            visits = [a for a in visits if len(stacks[a.variety]) >= 2]
            if visits:
                wanted.append(max(visits, key=lambda a: len(stacks[a.variety])))
    found = _legal(s, wanted)
    return found[0] if found else None


__all__ = ["VISIT_MIN_CHANCE", "edition_move", "success_chance"]
