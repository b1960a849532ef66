"""German text form of actions, both ways: ``parse_action`` and ``format_action``.

Both need the ``State`` the action is played on: names are looked up among its players,
bean names become the ids of the cards that lie there, and field numbers are 1-based in
text (``Feld 1``) but 0-based in actions. ``format_action(state, a)`` is the sentence the
UI's log shows; call it with the table *before* the action. For every action ``a`` and
state ``s``: ``parse_action(s, format_action(s, a)) == a``.

Grammar (one sentence, the name of the acting person first; case does not matter, a
final full stop is ignored, articles such as „die“, „eine“, „ihre“ may be added)::

    Anna pflanzt auf Feld 1                      Plant(front card / next card)
    Anna pflanzt die vorderste Karte (Blaue Bohne) auf Feld 1   … with a check of the bean
    Anna pflanzt Sojabohne auf Feld 2            Plant(a named card)
    Anna beendet Phase 1                         EndPlanting
    Anna erntet Feld 1                           Harvest
    Anna erntet 2 Karten von Feld 1              Harvest(cards=2)  (refused: harvest.whole-field)
    Anna bietet Ben Blaue Bohne gegen Sojabohne  Offer
    Anna bietet Ben 2 Blaue Bohnen und Rote Bohne gegen Gartenbohne
    Anna schenkt Ben Rote Bohne                  Offer (gift: nothing back)
    Anna bittet Ben um Rote Bohne                Offer (asking for a gift)
    Ben nimmt an / Ben lehnt ab / Anna zieht zurück        Accept / Decline / Decline
    Anna beendet den Handel                      EndTrading
    Anna zieht 3 Karten   (or: Anna zieht, Anna zieht nach)   Draw
    Anna kauft ein drittes Feld                  BuyField
    Anna sortiert die Hand [: 3, 1, 2, …]        Reorder (always refused: hand.order)
    Anna nimmt Sojabohne auf die Hand            TakeIntoHand (always refused: trade.set-aside)

A card is ``[Anzahl] [Qualifier] Sorte [(Ort)] [#id]``: ``Blaue Bohne``, ``2 Blaue Bohnen``,
``aufgedeckte Blaue Bohne``, ``Blaue Bohne (Hand 3)``, ``Blaue Bohne (quer)``,
``Blaue Bohne (Feld 1)``, ``Blaue Bohne #17``. Cards in a list are separated by commas
or „und“. Without a qualifier the card is looked for, in this order: the acting person's
revealed cards (active person only), hand (front first), set-aside cards, fields; in
phase 1 planting takes the hand first, in phase 3 the cards still to plant.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from bohnteach.game.actions import (
    Accept, Action, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
    Reorder, TakeIntoHand,
)
from bohnteach.game.edition import all_editions, choice_owner
from bohnteach.game.beans import UnknownVarietyError, Variety, all_varieties, find_variety
from bohnteach.game.state import Phase, State
from bohnteach.game.words import card_label


class NotationError(ValueError):
    """A sentence that cannot be turned into an action; the message says why, in German."""


# ---- small helpers ----------------------------------------------------------------------
_ARTICLES = {
    "die", "der", "das", "den", "dem", "ein", "eine", "einen", "ihre", "ihren", "seine",
    "seinen", "ihr", "sein", "meine", "deine",
}
_NUMBER_WORDS = {
    "eine": 1, "ein": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
    "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "eins": 1,
}
_REVEALED_WORDS = ("aufgedeckte", "aufgedeckten", "aufgedeckter", "aufgedecktes")
_ASIDE_WORDS = (
    "quer liegende", "quer liegenden", "querliegende", "querliegenden", "erhaltene",
    "erhaltenen", "eingetauschte", "eingetauschten", "geschenkte", "geschenkten",
)


def _clean(text: str) -> str:
    text = " ".join(str(text).replace("\u00a0", " ").split())
    return text.rstrip(".!").strip()


def _quote(text: str, limit: int = 80) -> str:
    """``text`` in German quotes, cut to ``limit`` characters (never echo huge input)."""
    return f"„{text}“" if len(text) <= limit else f"„{text[:limit - 1]}…“"


def _variety_label(v: Variety, n: int = 1) -> str:
    return v.de if n == 1 else f"{n} {v.de_plural}"


def _find_player(s: State, text: str, sentence: str) -> tuple[int, str]:
    """The player whose name starts ``text`` (longest match) and the rest of the text."""
    low = text.casefold()
    best: tuple[int, int] | None = None
    for i, p in enumerate(s.players):
        name = p.name.casefold()
        if low == name or low.startswith(name + " "):
            if best is None or len(name) > best[1]:
                best = (i, len(name))
    if best is None:
        first = text.split(" ", 1)[0] if text else ""
        names = ", ".join(p.name for p in s.players)
        raise NotationError(
            f"{_quote(sentence)}: Eine Person {_quote(first)} sitzt nicht am Tisch "
            f"(am Tisch: {names})."
        )
    return best[0], text[best[1]:].strip()


MAX_DIGITS = 6
MAX_SENTENCE = 500
"""Longest number read from a sentence: no count, field or position in a game is larger."""


def _number(word: str) -> int | None:
    word = word.casefold()
    if word.isdigit():  # also „²“ or „٣“: only up to MAX_DIGITS ASCII digits are a number
        return int(word) if word.isascii() and len(word) <= MAX_DIGITS else None
    return _NUMBER_WORDS.get(word)


def _field_number(word: str, sentence: str) -> int:
    n = _number(word)
    if n is None:
        raise NotationError(f"{_quote(sentence)}: {_quote(word)} ist keine Feldnummer (Feld 1, 2, 3).")
    return n - 1


def _strip_articles(words: list[str]) -> list[str]:
    while words and words[0].casefold() in _ARTICLES:
        words = words[1:]
    return words


def _variety(name: str, sentence: str) -> Variety:
    name = name.strip()
    try:
        return find_variety(name)
    except UnknownVarietyError:
        pass
    words = name.split()
    if len(words) > 1 and words[0].endswith("n"):  # „Blauen Bohnen“ -> „Blaue Bohnen“
        try:
            return find_variety(" ".join([words[0][:-1], *words[1:]]))
        except UnknownVarietyError:
            pass
    known = ", ".join(v.de for v in all_varieties())
    raise NotationError(
        f"{_quote(sentence)}: Eine Bohnensorte {_quote(name)} kenne ich nicht "
        f"(bekannt: {known})."
    )


# ---- card references --------------------------------------------------------------------
class _Ref:
    """One card reference of a sentence: variety (or None for ``#id``), where, how many,
    and an edition's card trait."""

    __slots__ = ("text", "variety", "where", "pos", "card_id", "count", "trait")

    def __init__(self, text: str, variety: Variety | None, where: str | None,
                 pos: int | None, card_id: int | None, count: int, trait: str | None = None):
        self.text, self.variety, self.where = text, variety, where
        self.pos, self.card_id, self.count, self.trait = pos, card_id, count, trait


_PAREN = re.compile(r"\(([^)]*)\)\s*$")
_ID = re.compile(r"#\s*([0-9]{1,6})\s*$")
_WORDS: dict[str, tuple[tuple, dict[str, str]]] = {}


def _words(kind: str) -> dict[str, str]:
    """The card-trait words of every registered edition (``Edition.notation_words``):
    ``attribute`` in parentheses, ``adjective`` before the variety and ``label``, how a
    trait is written in parentheses after the variety."""
    editions = all_editions()
    cached = _WORDS.get(kind)
    if cached is None or cached[0] != editions:
        merged: dict[str, str] = {}
        for edition in editions:
            merged.update(edition.notation_words.get(kind, {}))
        cached = _WORDS[kind] = (editions, merged)
    return cached[1]


def trait_label(trait: str) -> str:
    """How a card's trait is written in parentheses after the variety."""
    return _words("label").get(trait, trait)


def _parse_ref(item: str, sentence: str) -> _Ref:
    text = item.strip()
    if not text:
        raise NotationError(f"{_quote(sentence)}: Eine Karte fehlt in der Aufzählung.")
    where: str | None = None
    pos: int | None = None
    card_id: int | None = None
    trait: str | None = None
    body = text
    m = _ID.search(body)
    if m:
        card_id = int(m.group(1))
        body = body[: m.start()].strip()
    m = _PAREN.search(body)
    if m:
        body = body[: m.start()].strip()
        for part in m.group(1).split(","):
            inner = " ".join(part.split()).casefold()
            hm = re.fullmatch(r"hand\s*(?:stelle\s*)?([0-9]{1,6})", inner)
            fm = re.fullmatch(r"feld\s*([0-9]{1,6})", inner)
            if hm:
                where, pos = "hand", int(hm.group(1))
            elif fm:
                where, pos = "field", int(fm.group(1))
            elif inner in ("aufgedeckt", "offen"):
                where = "revealed"
            elif inner in ("quer", "erhalten", "quer liegend"):
                where = "aside"
            elif inner == "hand":
                where = "hand"
            elif inner in _words("attribute"):
                trait = _words("attribute")[inner]
            else:
                hints = "".join(f" und {e.notation_hint}" for e in all_editions() if e.notation_hint)
                raise NotationError(
                    f"{_quote(sentence)}: {_quote('(' + m.group(1) + ')')} verstehe ich nicht; "
                    f"möglich sind (Hand 3), (Feld 1), (aufgedeckt), (quer){hints}."
                )
    if not body and card_id is None:
        raise NotationError(f"{_quote(sentence)}: Bei {_quote(text)} fehlt die Bohnensorte.")
    words = body.split()
    count = 1
    if words:
        n = _number(words[0])
        if n is not None and (len(words) > 1 or words[0].isdigit()):
            count, words = n, words[1:]
    words = _strip_articles(words)
    for _ in range(2):  # „aufgedeckte <trait adjective> Blaue Bohne“
        low = " ".join(words).casefold()
        if words and words[0].casefold() in _words("adjective"):
            trait, words = _words("adjective")[words[0].casefold()], words[1:]
            continue
        for q in _REVEALED_WORDS:
            if low.startswith(q + " "):
                where, words = "revealed", words[1:]
                break
        else:
            for q in _ASIDE_WORDS:
                if low.startswith(q + " "):
                    where, words = "aside", words[len(q.split()):]
                    break
    if count < 1:
        raise NotationError(f"{_quote(sentence)}: {_quote(text)}: mindestens eine Karte.")
    variety = _variety(" ".join(words), sentence) if words else None
    if card_id is not None and count != 1:
        raise NotationError(f"{_quote(sentence)}: Mit #Nummer ist genau eine Karte gemeint.")
    return _Ref(text, variety, where, pos, card_id, count, trait)


def _split_list(text: str) -> list[str]:
    """Items of a card list: separated by commas (outside parentheses), „und“, „sowie“."""
    text = text.strip()
    if text.casefold() in ("nichts", "keine karte", "keine karten", ""):
        return []
    items: list[str] = []
    depth, current = 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")" and depth > 0
        if ch == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += ch
    items.append(current)
    parts: list[str] = []
    for item in items:
        parts += re.split(r"\s+und\s+|\s+sowie\s+", item)
    return [p.strip() for p in parts if p.strip()]


def _waiting_cards(s: State, player: int) -> list[int]:
    """Cards the edition makes ``player`` plant before the usual ones (``waiting_cards``)."""
    hook = s.edition.waiting_cards
    return list(hook(s, player)) if hook is not None else []


def _candidates(s: State, player: int, purpose: str) -> list[int]:
    """Cards of ``player`` in the default search order for ``purpose``."""
    p = s.players[player]
    revealed = s.revealed if player == s.active else []
    fields = [c for f in p.fields for c in reversed(f)]
    if purpose == "plant":
        waiting = _waiting_cards(s, player)
        if s.phase is Phase.PLANT:
            return waiting + p.hand + revealed + p.set_aside
        return waiting + revealed + p.set_aside + p.hand
    if purpose == "take":
        return p.set_aside + revealed + p.hand
    return revealed + p.hand + p.set_aside + fields


def _resolve(s: State, player: int, ref: _Ref, used: set[int], purpose: str,
             sentence: str) -> list[int]:
    p = s.players[player]
    who = p.name
    if ref.card_id is not None:
        card = ref.card_id
        if not 0 <= card < len(s.cards):
            raise NotationError(f"{_quote(sentence)}: Eine Karte #{card} gibt es nicht.")
        if ref.variety is not None and s.variety[card] != ref.variety.key:
            raise NotationError(
                f"{_quote(sentence)}: Karte #{card} ist eine {card_label(s, card)}, "
                f"keine {ref.variety.de}."
            )
        return [card]
    v = ref.variety
    assert v is not None
    if ref.where == "hand" and ref.pos is not None:
        if not 1 <= ref.pos <= len(p.hand):
            raise NotationError(
                f"{_quote(sentence)}: {who} hat {len(p.hand)} Handkarten, "
                f"Stelle {ref.pos} gibt es nicht."
            )
        card = p.hand[ref.pos - 1]
        if s.variety[card] != v.key:
            raise NotationError(
                f"{_quote(sentence)}: An Stelle {ref.pos} von {who}s Hand steckt "
                f"{card_label(s, card)}, nicht {v.de}."
            )
        if ref.count != 1:
            raise NotationError(f"{_quote(sentence)}: (Hand {ref.pos}) meint genau eine Karte.")
        if ref.trait is not None and s.cards[card].trait != ref.trait:
            raise NotationError(
                f"{_quote(sentence)}: An Stelle {ref.pos} von {who}s Hand steckt keine "
                f"{v.de} ({trait_label(ref.trait)})."
            )
        return [card]
    if ref.where == "field" and ref.pos is not None:
        if not 1 <= ref.pos <= len(p.fields):
            raise NotationError(
                f"{_quote(sentence)}: {who} hat {len(p.fields)} Felder, Feld {ref.pos} gibt es nicht."
            )
        pool = list(reversed(p.fields[ref.pos - 1]))
        place = f"auf Feld {ref.pos}"
    elif ref.where == "revealed":
        pool = list(s.revealed)
        place = "unter den aufgedeckten Karten"
    elif ref.where == "aside":
        pool = list(p.set_aside)
        place = f"quer neben {who}s Feldern"
    elif ref.where == "hand":
        pool = list(p.hand)
        place = f"auf {who}s Hand"
    else:
        pool = _candidates(s, player, purpose)
        place = None
    found = [c for c in pool if c not in used and s.variety[c] == v.key
             and (ref.trait is None or s.cards[c].trait == ref.trait)]
    if ref.trait is not None:
        v_text = f"{v.de} ({trait_label(ref.trait)})"
    else:
        v_text = v.de
    if len(found) < ref.count:
        if place is None:
            if not found:
                raise NotationError(
                    f"{_quote(sentence)}: {who} hat keine {v_text} – weder auf der Hand noch "
                    "aufgedeckt, quer liegend oder auf einem Feld."
                )
            raise NotationError(
                f"{_quote(sentence)}: {who} hat nur {_variety_label(v, len(found))}, "
                f"nicht {ref.count}."
            )
        raise NotationError(
            f"{_quote(sentence)}: {place} liegt nicht {_variety_label(v, ref.count)}."
        )
    return found[: ref.count]


def _cards(s: State, player: int, text: str, purpose: str, sentence: str,
           used: set[int] | None = None) -> tuple[int, ...]:
    used = set() if used is None else used
    out: list[int] = []
    for item in _split_list(text):
        for card in _resolve(s, player, _parse_ref(item, sentence), used, purpose, sentence):
            if card in used:
                raise NotationError(f"{_quote(sentence)}: Karte #{card} steht doppelt da.")
            used.add(card)
            out.append(card)
    return tuple(out)


# ---- parsing ------------------------------------------------------------------------------
_FIELD_CORE = r"(?:(?:ihr|ihrem|sein|seinem|das|dem)\s+)?feld\s+(\S+)"
_FIELD = r"(?:(?:auf|von|aus)\s+)?" + _FIELD_CORE


def parse_action(state: State, text: str) -> Action:
    """The action a German sentence describes, e.g. ``"Anna erntet Feld 1"`` ->
    ``Harvest(0, 0)``. Raises ``NotationError`` (a ``ValueError``) with a German message."""
    if not isinstance(text, str):
        raise NotationError(f"Eine Aktion ist ein Satz, nicht {_quote(repr(text))}.")
    if len(text) > MAX_SENTENCE:
        raise NotationError(f"{_quote(text)}: {len(text)} Zeichen; ein Satz hat höchstens {MAX_SENTENCE}.")
    sentence = _clean(text)
    if not sentence:
        raise NotationError("Die Aktion ist leer.")
    s = state
    player, rest = _find_player(s, sentence, sentence)
    low = rest.casefold()

    def m(pattern: str) -> re.Match | None:
        return re.fullmatch(pattern, low, flags=re.IGNORECASE)

    # planting -----------------------------------------------------------------------
    if low.startswith("pflanzt"):
        if m(r"pflanzt\s+keine\s+(?:zweite\s+)?karte(?:\s+mehr)?"):
            return EndPlanting(player)
        owner = choice_owner()  # the edition whose plant choices the grammar reads
        tail = f"(?:{owner.choice_pattern})?" if owner is not None and owner.choice_pattern else ""
        hit = re.fullmatch(r"pflanzt\s*(.*?)\s*auf\s+" + _FIELD_CORE + tail, rest, flags=re.IGNORECASE)
        if not hit:
            raise NotationError(
                f"{_quote(sentence)}: Beim Pflanzen fehlt das Feld, z. B. „{s.players[player].name} "
                "pflanzt auf Feld 1“."
            )
        what, field_word = hit.group(1).strip(), hit.group(2)
        field = _field_number(field_word, sentence)
        card = _plant_card(s, player, what, sentence)
        if not tail or hit.group(3) is None or owner is None or owner.parse_plant_choice is None:
            return Plant(player, field, card)
        try:
            choice = owner.parse_plant_choice(s, player, field, hit.group(3), hit.group(4), sentence)
        except NotationError:
            raise
        except ValueError as error:
            raise NotationError(f"{_quote(sentence)}: {error}") from None
        return Plant(player, field, card, choice)
    if m(r"beendet\s+(?:die\s+)?phase\s+(?:1|eins)|beendet\s+das\s+pflanzen|h(?:ö|oe)rt\s+auf\s+zu\s+pflanzen"):
        return EndPlanting(player)
    # harvesting ---------------------------------------------------------------------
    if low.startswith("erntet"):
        hit = m(r"erntet\s+(\S+)\s+karten?\s+" + _FIELD)
        if hit:
            n = _number(hit.group(1))
            if n is None:
                raise NotationError(f"{_quote(sentence)}: {_quote(hit.group(1))} ist keine Anzahl.")
            return Harvest(player, _field_number(hit.group(2), sentence), n)
        hit = m(r"erntet\s+" + _FIELD + r"(?:\s+ab)?")
        if hit:
            return Harvest(player, _field_number(hit.group(1), sentence))
        raise NotationError(
            f"{_quote(sentence)}: Welches Feld? Z. B. „{s.players[player].name} erntet Feld 1“."
        )
    # trading ------------------------------------------------------------------------
    for verb in ("bietet", "schenkt", "bittet", "gibt"):
        if low.startswith(verb + " "):
            return _parse_offer(s, player, verb, rest[len(verb):].strip(), sentence)
    if m(r"(?:nimmt\s+(?:das\s+angebot\s+)?an|stimmt\s+zu|sagt\s+ja)"):
        return Accept(player)
    if m(r"(?:lehnt\s+(?:das\s+angebot\s+)?ab|sagt\s+nein)"):
        return Decline(player)
    if m(r"zieht\s+(?:das\s+|ihr\s+|sein\s+)?(?:angebot\s+)?zur(?:ü|ue)ck"):
        return Decline(player)
    if m(r"beendet\s+(?:den\s+handel|das\s+handeln|(?:die\s+)?phase\s+(?:2|zwei))"
         r"|h(?:ö|oe)rt\s+auf\s+zu\s+handeln|handelt\s+nicht\s+mehr"):
        return EndTrading(player)
    # drawing, buying ------------------------------------------------------------------
    hit = m(r"zieht(?:\s+(\S+)\s+karten?)?(?:\s+nach)?|zieht\s+nach")
    if hit:
        if hit.lastindex and hit.group(1):
            n = _number(hit.group(1))
            if n is None:
                raise NotationError(f"{_quote(sentence)}: {_quote(hit.group(1))} ist keine Anzahl.")
            if n != s.setup.draw:
                raise NotationError(
                    f"{_quote(sentence)}: In diesem Spiel zieht man in Phase 4 {s.setup.draw} Karten, "
                    f"nicht {n}."
                )
        return Draw(player)
    if m(r"kauft\s+(?:ein|das|einen)\s+(?:dritte[sn]?\s+)?(?:bohnen)?feld"):
        return BuyField(player)
    # the two mistakes -------------------------------------------------------------------
    hit = re.fullmatch(r"sortiert\s+(?:die|ihre|seine)\s+hand(?:\s*(?::|um|neu)\s*(.*))?",
                       rest, flags=re.IGNORECASE)
    if hit:
        return Reorder(player, _reorder(s, player, (hit.group(1) or "").strip(), sentence))
    hit = re.fullmatch(r"nimmt\s+(.+?)\s+(?:auf|in)\s+(?:die|ihre|seine)\s+hand",
                       rest, flags=re.IGNORECASE)
    if hit:
        cards = _cards(s, player, hit.group(1), "take", sentence)
        if len(cards) != 1:
            raise NotationError(f"{_quote(sentence)}: Genau eine Karte, bitte.")
        return TakeIntoHand(player, cards[0])
    try:  # the edition's own verbs
        found = s.edition.parse_action(s, player, rest)
    except ValueError as error:
        raise NotationError(f"{_quote(sentence)}: {error}") from None
    if found is not None:
        return found
    verb = rest.split(" ", 1)[0] if rest else ""
    raise NotationError(
        f"{_quote(sentence)}: Das Verb {_quote(verb)} kenne ich nicht. Möglich sind: pflanzt, "
        "beendet Phase 1, erntet, bietet, schenkt, bittet um, nimmt an, lehnt ab, zieht zurück, "
        "beendet den Handel, zieht, kauft ein Feld, sortiert die Hand, nimmt … auf die Hand."
    )


def _plant_card(s: State, player: int, what: str, sentence: str) -> int | None:
    words = _strip_articles(what.split())
    what = " ".join(words)
    low = what.casefold()
    hit = re.fullmatch(r"(?:vorderste|nächste|naechste|erste)\s+(?:hand)?karte(?:\s*\((.*)\))?", low)
    if not what or hit:
        named = hit.group(1) if hit and hit.group(1) else None
        if named:
            v = _variety(named, sentence)
            card = _default_plant(s, player)
            if card is not None and s.variety[card] != v.key:
                raise NotationError(
                    f"{_quote(sentence)}: Die Karte, die jetzt dran ist, ist "
                    f"{card_label(s, card)}, nicht {v.de}."
                )
        return None
    cards = _cards(s, player, what, "plant", sentence)
    if len(cards) != 1:
        raise NotationError(f"{_quote(sentence)}: Gepflanzt wird eine Karte nach der anderen.")
    return cards[0]


def _default_plant(s: State, player: int) -> int | None:
    """The card the engine plants for ``Plant(player, f, None)``."""
    waiting = _waiting_cards(s, player)  # the edition's waiting cards come first
    if waiting:
        return waiting[0]
    if s.phase is Phase.PLANT:
        hand = s.players[player].hand
        return hand[0] if hand else None
    cards = (s.revealed if player == s.active else []) + s.players[player].set_aside
    return cards[0] if cards else None


def _parse_offer(s: State, player: int, verb: str, rest: str, sentence: str) -> Offer:
    to, what = _find_player(s, rest, sentence)
    if verb in ("schenkt", "gibt"):
        if re.search(r"\s+gegen\s+", what, flags=re.IGNORECASE):
            verb = "bietet"
        else:
            give = _cards(s, player, what, "give", sentence)
            if not give:
                raise NotationError(f"{_quote(sentence)}: Was wird verschenkt?")
            return Offer(player, to, give, ())
    if verb == "bittet":
        hit = re.fullmatch(r"um\s+(.+)", what, flags=re.IGNORECASE)
        if not hit:
            raise NotationError(f"{_quote(sentence)}: „bittet … um …“, z. B. „Anna bittet Ben um Rote Bohne“.")
        return Offer(player, to, (), _cards(s, to, hit.group(1), "give", sentence))
    parts = re.split(r"\s+gegen\s+", what, maxsplit=1, flags=re.IGNORECASE)
    if len(parts) == 1:
        gift = re.fullmatch(r"(.+?)\s+an", what, flags=re.IGNORECASE)
        if gift:  # „Anna bietet Ben Rote Bohne an“: an offer for nothing in return
            return Offer(player, to, _cards(s, player, gift.group(1), "give", sentence), ())
        raise NotationError(
            f"{_quote(sentence)}: Ein Angebot braucht „gegen“, z. B. „Anna bietet Ben "
            "Blaue Bohne gegen Sojabohne“ (oder „schenkt“ für ein Geschenk)."
        )
    give = _cards(s, player, parts[0], "give", sentence)
    get = _cards(s, to, parts[1], "give", sentence)
    return Offer(player, to, give, get)


def _default_order(s: State, player: int) -> tuple[int, ...]:
    """What a beginner's sorting does: same varieties together, most cards first."""
    hand = s.players[player].hand
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, c in enumerate(hand):
        counts[s.variety[c]] = counts.get(s.variety[c], 0) + 1
        first.setdefault(s.variety[c], i)
    return tuple(sorted(hand, key=lambda c: (-counts[s.variety[c]], first[s.variety[c]])))


def _reorder(s: State, player: int, text: str, sentence: str) -> tuple[int, ...]:
    if not text:
        return _default_order(s, player)
    hand = s.players[player].hand
    order: list[int] = []
    used: set[int] = set()
    for item in _split_list(text):
        pos = _number(item.strip()) if item.strip().isdigit() else None
        if item.strip().isdigit() and pos is None:
            raise NotationError(f"{_quote(sentence)}: {_quote(item.strip())} ist keine Stelle der Hand.")
        if pos is not None:
            if not 1 <= pos <= len(hand):
                raise NotationError(
                    f"{_quote(sentence)}: {s.players[player].name} hat {len(hand)} Handkarten, "
                    f"Stelle {pos} gibt es nicht."
                )
            card = hand[pos - 1]
            if card in used:
                raise NotationError(f"{_quote(sentence)}: Stelle {pos} steht doppelt da.")
            used.add(card)
            order.append(card)
        else:
            order += _cards(s, player, item, "take", sentence, used)
    return tuple(order)


# ---- formatting ---------------------------------------------------------------------------
def _player(s: State, i: object) -> str:
    if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(s.players):
        return s.players[i].name
    return f"Person {i!r}"


def _with(label: str, parts: list[str]) -> str:
    return f"{label} ({', '.join(parts)})" if parts else label


def _ref_text(s: State, player: int, card: int, used: set[int], purpose: str) -> tuple[str, bool]:
    """The shortest text for ``card`` that the parser resolves back to it; and whether it
    is a plain variety name (so that runs can be grouped)."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(s.cards):
        return f"#{card}", False
    v = find_variety(s.variety[card])
    trait = s.cards[card].trait
    tags = [trait_label(trait)] if trait else []
    p = s.players[player] if isinstance(player, int) and 0 <= player < len(s.players) else None
    options: list[tuple[str, bool]] = [(_with(v.de, tags), True)]
    if card in s.revealed:
        options.append((_with(f"aufgedeckte {v.de}", tags), False))
    if p is not None and card in p.hand:
        options.append((_with(v.de, tags + [f"Hand {p.hand.index(card) + 1}"]), False))
    if p is not None and card in p.set_aside:
        options.append((_with(v.de, tags + ["quer"]), False))
    if p is not None:
        for k, f in enumerate(p.fields):
            if card in f:
                options.append((_with(v.de, tags + [f"Feld {k + 1}"]), False))
    for text, plain in options:
        try:
            got = _resolve(s, player, _parse_ref(text, text), used, purpose, text)
        except (NotationError, TypeError, IndexError):
            continue
        if got == [card]:
            return text, plain
    return f"{_with(v.de, tags)} #{card}", False


def _list_text(s: State, player: int, cards: Sequence[int], purpose: str) -> str:
    if not cards:
        return "nichts"
    used: set[int] = set()
    items: list[tuple[str, bool, int]] = []
    for card in cards:
        text, plain = _ref_text(s, player, card, used, purpose)
        used.add(card)
        items.append((text, plain, card))
    parts: list[str] = []
    i = 0
    while i < len(items):
        text, plain, card = items[i]
        j = i + 1
        if plain:
            while j < len(items) and items[j][1] and items[j][0] == text:
                j += 1
        n = j - i
        if n == 1:
            parts.append(text)
        else:
            trait = s.cards[card].trait
            label = _variety_label(find_variety(s.variety[card]), n)
            parts.append(_with(label, [trait_label(trait)] if trait else []))
        i = j
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " und " + parts[-1]


def format_action(state: State, action: Action) -> str:
    """A German sentence for ``action`` on ``state`` (the table before the action) that
    ``parse_action`` reads back to the same action."""
    s = state
    a = action
    who = _player(s, getattr(a, "player", None))
    if isinstance(a, Plant):
        where = f"auf Feld {a.field + 1}" if isinstance(a.field, int) else f"auf Feld {a.field}"
        if a.card is None:
            card = _default_plant(s, a.player) if _valid_player(s, a.player) else None
            if card is None:
                return f"{who} pflanzt {where}"
            which = "die vorderste Karte" if s.phase is Phase.PLANT else "die nächste Karte"
            return f"{who} pflanzt {which} ({card_label(s, card)}) {where}"
        if not _valid_player(s, a.player):
            return f"{who} pflanzt #{a.card} {where}"
        text, _ = _ref_text(s, a.player, a.card, set(), "plant")
        return f"{who} pflanzt {text} {where}{_choice_text(s, a)}"
    if isinstance(a, EndPlanting):
        return f"{who} beendet Phase 1"
    if isinstance(a, Harvest):
        field = a.field + 1 if isinstance(a.field, int) else a.field
        if a.cards is None:
            return f"{who} erntet Feld {field}"
        word = "Karte" if a.cards == 1 else "Karten"
        return f"{who} erntet {a.cards} {word} von Feld {field}"
    if isinstance(a, Offer):
        to = _player(s, a.to)
        if not _valid_player(s, a.player) or not _valid_player(s, a.to):
            return f"{who} bietet {to} etwas an"
        give = _list_text(s, a.player, a.give, "give")
        get = _list_text(s, a.to, a.get, "give")
        if a.give and not a.get:
            return f"{who} schenkt {to} {give}"
        if a.get and not a.give:
            return f"{who} bittet {to} um {get}"
        return f"{who} bietet {to} {give} gegen {get}"
    if isinstance(a, Accept):
        return f"{who} nimmt an"
    if isinstance(a, Decline):
        if s.offer is not None and s.offer.player == a.player:
            return f"{who} zieht das Angebot zurück"
        return f"{who} lehnt ab"
    if isinstance(a, EndTrading):
        return f"{who} beendet den Handel"
    if isinstance(a, Draw):
        return f"{who} zieht {s.setup.draw} Karten"
    if isinstance(a, BuyField):
        return f"{who} kauft ein drittes Feld"
    if isinstance(a, Reorder):
        if _valid_player(s, a.player) and tuple(a.order) == _default_order(s, a.player):
            return f"{who} sortiert die Hand"
        hand = s.players[a.player].hand if _valid_player(s, a.player) else []
        if all(c in hand for c in a.order) and len(set(a.order)) == len(a.order):
            return f"{who} sortiert die Hand: " + ", ".join(str(hand.index(c) + 1) for c in a.order)
        return f"{who} sortiert die Hand: " + ", ".join(
            f"{card_label(s, c)} #{c}" if _valid_card(s, c) else f"#{c}" for c in a.order
        )
    if isinstance(a, TakeIntoHand):
        if not _valid_player(s, a.player):
            return f"{who} nimmt #{a.card} auf die Hand"
        text, _ = _ref_text(s, a.player, a.card, set(), "take")
        return f"{who} nimmt {text} auf die Hand"
    return s.edition.format_action(s, a, who) or repr(a)


def _choice_text(s: State, a: Plant) -> str:
    """The tail of a plant sentence for ``Plant.choice``, written by the edition that has
    plant choices (``Edition.format_plant_choice``)."""
    choice = getattr(a, "choice", None)
    if choice is None:
        return ""
    owner = choice_owner()
    if owner is None or owner.format_plant_choice is None:
        return f" und wählt {choice!r}"
    return owner.format_plant_choice(s, a)


def _valid_player(s: State, i: object) -> bool:
    return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(s.players)


def _valid_card(s: State, c: object) -> bool:
    return isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(s.cards)


# ---- for an edition's own grammar (its actions, its plant choices) -----------------------
parse_card_ref = _parse_ref
"""``(text, sentence)``: one card reference (variety, where, ``#id``, trait, count)."""
read_number = _number
"""A number word or digits (``"zwei"`` → 2), or None."""
quoted = _quote
with_tags = _with
"""``(label, tags)``: ``"Blaue Bohne (Hand 2, w)"``."""


__all__ = ["NotationError", "format_action", "parse_action", "parse_card_ref", "quoted", "read_number",
           "trait_label", "with_tags"]
