"""The table as one player sees it: own hand open, other hands and the draw pile hidden."""
from __future__ import annotations

from typing import Any

from bohnteach.game.edition import OfferedCard
from bohnteach.game.state import State


def _card(s: State, card: int) -> dict[str, Any]:
    info = s.cards[card]
    shown: dict[str, Any] = {"id": card, "variety": info.variety}
    if info.trait is not None:
        shown["trait"] = info.trait
    return shown


def _cards(s: State, cards: list[int]) -> list[dict[str, Any]]:
    return [_card(s, c) for c in cards]


def _pile(s: State, cards: list[int]) -> list[dict[str, Any]]:
    """The discard pile: coins paid for a field lie face down (G „Dritte Bohnenfelder“)."""
    hidden = s.face_down
    return [{"face_down": True} if c in hidden else _card(s, c) for c in cards]


def _offered(card: OfferedCard) -> dict[str, Any]:
    shown: dict[str, Any] = {"variety": card.variety}
    if not card.hidden:
        shown["id"] = card.card
        if card.trait is not None:
            shown["trait"] = card.trait
    return shown


def player_view(s: State, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or None for an onlooker) may know of the table.

    Public: fields (in order), set-aside cards, revealed cards, coin counts, the discard
    pile, the draw pile's size and pass number, phase, active and start player, scores.
    Hidden: other players' hands (only their size), the order of the draw pile and the
    coins paid for a field, which lie face down on the discard pile (``{"face_down": True}``).
    Open offers name the variety of hidden hand cards only (an edition may hide more: ``View.offer_view``).
    """
    players = []
    for seat, p in enumerate(s.players):
        entry: dict[str, Any] = {
            "name": p.name,
            "hand_size": len(p.hand),
            "fields": [_cards(s, f) for f in p.fields],
            "set_aside": _cards(s, p.set_aside),
            "coins": len(p.coins),
        }
        if seat == viewer:
            entry["hand"] = _cards(s, p.hand)
        players.append(entry)
    offer = s.edition.view.offer_view(s, viewer)
    return {
        "ruleset": s.ruleset.name,
        "viewer": viewer,
        "players": players,
        "start_player": s.start_player,
        "active": s.active,
        "phase": int(s.phase),
        "turn": s.turn,
        "deck_size": len(s.deck),
        "pass_number": s.pass_number,
        "discard": _pile(s, s.discard),
        "revealed": _cards(s, s.revealed),
        "waiting": {
            **{k: _cards(s, v) for k, v in s.extra.items()},
            **{f"{p.name}.{k}": _cards(s, v) for p in s.players for k, v in p.extra.items() if v},
        },
        "offer": None if offer is None else {
            "from": offer.player,
            "to": offer.to,
            "give": [_offered(c) for c in offer.give],
            "get": [_offered(c) for c in offer.get],
        },
        "scores": s.scores,
        "winners": s.winners,
    }
