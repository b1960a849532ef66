"""The words the play widgets (Mach du!, the trial game) say about cards and moves, in the
reader's language (:func:`bohnteach.i18n.current`; the widget says which one holds).

German keeps the game's own notation (``notation.format_action``, the sentence the scene
files use and ``parse_action`` reads back); another language gets the same moves told in
its words, from the templates here (one per kind of move)::

    with speaking("en"):
        action_words(state, Plant(0, 1, None))   # "Anna plants on field 2"
        offer_words("Anna", "Ben", ["Blue Bean"], [])   # "Anna gives Ben Blue Bean"
        reply_text("Ben", "keep", "red")         # "Ben does not want to give away a Red Bean."
"""
from __future__ import annotations

from collections.abc import Sequence

from bohnteach.game.actions import (
    Accept, Action, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
    Reorder, TakeIntoHand,
)
from bohnteach.game.beans import find_variety
from bohnteach.game.notation import format_action
from bohnteach.game.state import State
from bohnteach.game.words import TraitStyle, card_label, trait_tag
from bohnteach.i18n import _, current, ngettext
from bohnteach.render.language import said, variety_word


def variety_name(variety: str, n: int = 1) -> str:
    """A variety (its key or German name) in the reader's language; ``n``: how many."""
    return variety_word(find_variety(variety), n)


def card_name(state: State, card: int, trait: TraitStyle = "") -> str:
    """A card's variety (and, with a ``trait`` style, its trait in brackets) in the reader's
    language; German: ``card_label`` exactly."""
    if current().is_source:
        return card_label(state, card, trait=trait)
    name = variety_name(state.variety[card])
    tag = trait_tag(state.cards[card].trait, trait)
    return "{name} ({tag})".format(name=name, tag=_(tag)) if tag else name


def joined(items: Sequence[str]) -> str:
    """``"A"``, ``"A und B"``, ``"A, B und C"`` in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} und {last}").format(items=", ".join(items[:-1]), last=items[-1])


def offer_words(who: str, to: str, give: Sequence[str], get: Sequence[str]) -> str:
    """An offer by variety names only, as the table hears it (never a hand position):
    ``"Anna bietet Ben Blaue Bohne gegen Gartenbohne"``, ``"Anna schenkt Ben Rote Bohne"``,
    ``"Anna bittet Ben um Gartenbohne"``."""
    gives, gets = ", ".join(give), ", ".join(get)
    if give and not get:
        return _("{who} schenkt {to} {give}").format(who=who, to=to, give=gives)
    if get and not give:
        return _("{who} bittet {to} um {get}").format(who=who, to=to, get=gets)
    return _("{who} bietet {to} {give} gegen {get}").format(who=who, to=to, give=gives, get=gets)


def reply_text(name: str, reason: str, variety: str | None = None) -> str:
    """Why ``name`` answered an offer so (``bohnteach.maths.bots.Reply``), in words that
    never reveal a hidden hand – the same sentence whether or not ``name`` holds the card:
    ``"Ben möchte keine Rote Bohne abgeben."``, ``"Ben braucht keine Rote Bohne."``."""
    bean = variety_name(variety) if variety else ""
    if reason == "gain":
        return _("{name} nimmt an: Das hilft den eigenen Feldern.").format(name=name)
    if reason == "keep" and bean:
        return _("{name} möchte keine {bean} abgeben.").format(name=name, bean=bean)
    if reason == "useless" and bean:
        return _("{name} braucht keine {bean}.").format(name=name, bean=bean)
    return _("Das Angebot ist {name} zu wenig.").format(name=name)


def action_words(state: State, action: Action) -> str:
    """The sentence for ``action`` on ``state`` (the table before it). German: the game's
    notation (``format_action``); another language: the move in its words (an edition's
    own action in its ``View.action_phrase``)."""
    if current().is_source:
        return format_action(state, action)
    s, a = state, action
    who = s.players[a.player].name if 0 <= getattr(a, "player", -1) < s.n_players else "?"
    if isinstance(a, Plant):
        field = a.field + 1
        if a.card is None:
            return _("{who} pflanzt auf Feld {field}").format(who=who, field=field)
        return _("{who} pflanzt {card} auf Feld {field}").format(
            who=who, card=card_name(s, a.card, "word"), field=field)
    if isinstance(a, EndPlanting):
        return _("{who} beendet Phase 1").format(who=who)
    if isinstance(a, Harvest):
        if a.cards is None:
            return _("{who} erntet Feld {field}").format(who=who, field=a.field + 1)
        return ngettext("{who} erntet {n} Karte von Feld {field}", "{who} erntet {n} Karten von Feld {field}",
                        a.cards).format(who=who, n=a.cards, field=a.field + 1)
    if isinstance(a, Offer):
        to = s.players[a.to].name
        return offer_words(who, to, [card_name(s, c) for c in a.give], [card_name(s, c) for c in a.get])
    if isinstance(a, Accept):
        return _("{who} nimmt an").format(who=who)
    if isinstance(a, Decline):
        if s.offer is not None and s.offer.player == a.player:
            return _("{who} zieht das Angebot zurück").format(who=who)
        return _("{who} lehnt ab").format(who=who)
    if isinstance(a, EndTrading):
        return _("{who} beendet den Handel").format(who=who)
    if isinstance(a, Draw):
        n = s.setup.draw
        return ngettext("{who} zieht {n} Karte", "{who} zieht {n} Karten", n).format(who=who, n=n)
    if isinstance(a, BuyField):
        return _("{who} kauft ein drittes Feld").format(who=who)
    if isinstance(a, Reorder):
        return _("{who} sortiert die Hand").format(who=who)
    if isinstance(a, TakeIntoHand):
        return _("{who} nimmt {card} auf die Hand").format(who=who, card=card_name(s, a.card, "word"))
    own = s.edition.view.action_phrase(s, a)  # an edition's own action (Indiana's temple visit)
    if own is not None:
        return _("{who} {move}").format(who=who, move=said(own))
    return format_action(state, action)


__all__ = ["action_words", "card_name", "joined", "offer_words", "reply_text", "variety_name"]
