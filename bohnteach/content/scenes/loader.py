"""Read a scene file (the text format of ``docs/scenes.md``) into a ``Scene``.

A malformed file raises ``SceneFormatError`` naming the file, the line and the reason.
Whether the steps *hold* (legal where they should be, refused where they should be,
expectations true) is checked by ``check.py``; the loader only needs the engine to
replay the steps, because every action sentence is read against the table it is
played on.

Limits, checked before anything is built from the text (docs/scenes.md, „Grenzen“):

* a file has at most ``MAX_FILE_BYTES`` bytes (only that many are read), ``MAX_LINES``
  lines of at most ``MAX_LINE_CHARS`` characters, and at most ``MAX_STEPS`` steps;
* a number has at most ``notation.MAX_DIGITS`` ASCII digits, and each key its own range:
  ``Felder`` what the rule set allows, ``Taler`` at most the cards of the game,
  ``Gepflanzt`` 0–2 (0–1 in phase 1), ``Zug`` at most ``MAX_TURN``, ``Durchgang`` at most
  the rule set's passes;
* a card list names at most ``MAX_CARDS_PER_LINE`` cards (``N Karten`` is refused before
  the N cards are made), ``Aufgedeckt`` at most 2;
* messages quote at most ``QUOTE_CHARS`` characters of the file.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bohnteach.game.beans import find_variety
from bohnteach.game.edition import Edition, Zone, all_editions, find_edition
from bohnteach.game.engine import apply, make_cards, to_plant
from bohnteach.game.errors import RuleViolation, rule_catalogue
from bohnteach.game.notation import (
    MAX_DIGITS, NotationError, _clean, _number, _parse_ref, _split_list, parse_action,
)
from bohnteach.game.rulesets import MeterFileError, RuleSet, find_ruleset, load_ruleset_with_meters
from bohnteach.game.state import Phase, State
from bohnteach.game.words import trait_tag
from bohnteach.content.scenes.model import CHAPTERS, Expectation, Scene, Step
from bohnteach.teaching import teaching_part


MAX_FILE_BYTES = 100_000
"""Largest scene file (the largest shipped one has ~3 kB)."""
MAX_LINES = 2_000
MAX_LINE_CHARS = 500
MAX_STEPS = 200
MAX_CARDS_PER_LINE = 200
"""More cards than any rule set has."""
MAX_TURN = 10_000
QUOTE_CHARS = 60
MAX_REASON = 300
MAX_METER_BYTES = 10_000
"""A scene's meter file (``Bohnometer-Datei: meine_karten.toml``) is read only up to this size."""


def _cut(text: str, limit: int = QUOTE_CHARS) -> str:
    """``repr(text)`` of at most ``limit`` characters, for messages."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 2] + "…'"


class SceneFormatError(ValueError):
    """A scene file that cannot be read: ``path``, ``line`` (1-based, 0 = whole file)
    and ``reason`` (German)."""

    def __init__(self, path: str, line: int, reason: str):
        self.path = path
        self.line = line
        # whatever a message quotes (a notation error, a rule set's name): never a huge line
        self.reason = reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 1] + "…"
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {self.reason}")


# ---- raw lines ------------------------------------------------------------------------------
@dataclass
class _Entry:
    line: int
    key: str
    value: str
    raw_key: str


_HEADER_KEYS = {
    "szene": "id", "id": "id", "titel": "title", "kapitel": "chapter",
    "reihenfolge": "order", "quelle": "source", "quellen": "source", "regelwerk": "ruleset",
    "regeln": "rules", "spieler": "players", "startspieler": "start", "am zug": "active",
    "phase": "phase", "zug": "turn", "offene hände": "face_up", "offene haende": "face_up",
    "saat": "seed", "durchgang": "pass", "gepflanzt": "hand_plants",
    "stapel aufgebraucht": "ending", "aufgedeckt": "revealed", "stapel": "deck",
    "ablage": "discard", "ablagestapel": "discard", "nachziehstapel": "deck", "rest": "rest",
    "einleitung": "intro", "erwartet": "expect", "schritt": "step",
    "bohnometer-datei": "meters", "bohnometerdatei": "meters", "variation": "variations", "variationen": "variations",
}


def scene_words(edition: str) -> Any:
    """The edition's scene words (its teaching part ``scenes``), or None. Such a module may
    define ``HEADERS`` (header words → key), ``with_variations(rules, text)``,
    ``hand_line(s, player, cards)``, ``finish(s, hand_marks, headers, number)``,
    ``match_subject(text)`` with ``COUNTS``, and ``check(s, subject, player, value)``
    (docs/scenes.md; an edition's ``editions/<name>/teaching/scenes.py``)."""
    return teaching_part(edition, "scenes")


def _owners(has: str) -> list[Edition]:
    """The registered editions whose scene words define ``has``."""
    return [e for e in all_editions() if getattr(scene_words(e.name), has, None) is not None]


def _edition_headers() -> dict[str, tuple[str, Edition]]:
    """Header words the editions' scene words add: word → (key, the edition)."""
    return {word: (key, e) for e in _owners("HEADERS") for word, key in scene_words(e.name).HEADERS.items()}


def _only_at(editions: list[Edition]) -> str:
    return " oder ".join(e.view.label for e in editions) or "keinem Regelwerk"


_STEP_KEYS = {
    "text": "text", "erzählung": "text", "erzaehlung": "text", "erklärung": "text",
    "regeln": "rules", "quelle": "source", "erwartet": "expect", "abgelehnt": "refused",
    "schritt": "step",
}
_TEXT_KEYS = {"einleitung", "text", "erzählung", "erzaehlung", "erklärung", "titel"}
_PLAYER_ZONE = re.compile(
    r"^(?P<name>.+?)\s+(?P<zone>hand|feld\s+\S+(?:\s+ertrag)?|quer|taler|felder)$", re.IGNORECASE
)


def _is_key(key: str) -> bool:
    key = " ".join(key.split())
    low = key.casefold()
    return low in _HEADER_KEYS or low in _edition_headers() or low in _STEP_KEYS or bool(_PLAYER_ZONE.match(key))


def edition_zone_names(edition: Edition) -> dict[str, Zone]:
    """How a scene names the edition's zones (``Edition.zones``): the German title and the
    key, case-insensitive (``<title>:`` for a zone of the table, ``Anna <title>:`` for a player's)."""
    names: dict[str, Zone] = {}
    for zone in edition.zones:
        for name in (zone.title, zone.key):
            names[" ".join(name.split()).casefold()] = zone
    return names


def _edition_zone(raw_key: str, names: list[str], zones: dict[str, Zone]) -> tuple[Zone, int | None] | None:
    """``(zone, player)`` when ``raw_key`` names an edition zone: a table zone by itself
    (player None), a per-player zone after a player's name."""
    low = " ".join(raw_key.split()).casefold()
    zone = zones.get(low)
    if zone is not None and not zone.per_player:
        return zone, None
    for seat, name in enumerate(names):
        head = name.casefold() + " "
        if low.startswith(head):
            zone = zones.get(low[len(head):].strip())
            if zone is not None and zone.per_player:
                return zone, seat
    return None


def _lines(text: str, path: str) -> list[_Entry]:
    """Key/value entries. An indented line that does not start with a known key continues
    the text value above it (narration, intro); a blank line there is a paragraph break."""
    entries: list[_Entry] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE_CHARS:
            raise SceneFormatError(path, number, f"Die Zeile hat {len(raw)} Zeichen, höchstens "
                                   f"{MAX_LINE_CHARS} sind erlaubt: {_cut(raw.strip())}")
        raw = raw.rstrip()
        in_text = bool(entries) and entries[-1].key in _TEXT_KEYS
        if not raw.strip():
            if in_text:
                entries[-1].value += "\n"
            continue
        if raw.lstrip().startswith("#"):
            continue
        key, sep, value = raw.strip().partition(":")
        if raw[0] in " \t" and in_text and not (sep and _is_key(key)):
            entries[-1].value += "\n" + raw.strip()
            continue
        if not sep:
            raise SceneFormatError(
                path, number, f"Zeile ohne Doppelpunkt: {_cut(raw.strip())}. Jede Zeile hat die Form "
                "„Schlüssel: Wert“; Fortsetzungen von Text werden eingerückt."
            )
        entries.append(_Entry(number, " ".join(key.split()).casefold(), value.strip(),
                              " ".join(key.split())))
    for e in entries:
        e.value = re.sub(r"\n{3,}", "\n\n", e.value).strip()
    return entries


# ---- the setup ------------------------------------------------------------------------------
_CHAPTER_INDEX = {k: k for k, _ in CHAPTERS}
_CHAPTER_INDEX.update({t.casefold(): k for k, t in CHAPTERS})


def _chapter(value: str, path: str, line: int) -> str:
    key = _CHAPTER_INDEX.get(value.strip().casefold())
    if key is None:
        raise SceneFormatError(path, line, f"Unbekanntes Kapitel {_cut(value)}. Möglich: "
                               + ", ".join(t for _, t in CHAPTERS))
    return key


def _rule_ids(value: str, path: str, line: int) -> tuple[str, ...]:
    ids = tuple(x.strip() for x in re.split(r"[,\s]+", value) if x.strip())
    known = rule_catalogue()
    for rid in ids:
        if rid not in known:
            raise SceneFormatError(path, line, f"Unbekannte Regel-ID {_cut(rid)} (siehe docs/rules.md).")
    return ids


def _int(value: str, path: str, line: int, what: str, low: int = 0, high: int = 10**MAX_DIGITS - 1) -> int:
    """A number from ``low`` to ``high`` (at most ``MAX_DIGITS`` digits: no huge ints)."""
    word = value.strip().split(" ")[0] if value.strip() else ""
    n = _number(word)
    if n is None and word.isascii() and word.isdigit():
        raise SceneFormatError(path, line, f"{what}: {_cut(word)} ist zu groß (höchstens {high}).")
    if n is None or n < low:
        raise SceneFormatError(path, line, f"{what}: {_cut(value)} ist keine Zahl ≥ {low}.")
    if n > high:
        raise SceneFormatError(path, line, f"{what}: {n} ist zu groß (höchstens {high}).")
    return n


def _yes(value: str, path: str, line: int) -> bool:
    v = value.strip().casefold()
    if v in ("ja", "yes", "wahr", "1"):
        return True
    if v in ("nein", "no", "falsch", "0"):
        return False
    raise SceneFormatError(path, line, f"Erwartet „ja“ oder „nein“, nicht {_cut(value)}.")


def _card_list(value: str, path: str, line: int) -> list[str | None]:
    """Varieties of a zone in reading order; ``None`` = any card (``3 Karten``)."""
    return [None if item is None else item[0] for item in _card_items(value, path, line)]


def _card_items(value: str, path: str, line: int) -> list[tuple[str, str | None] | None]:
    """(variety, trait) of each card of a zone in reading order; the trait is the one the
    edition's notation words name in brackets (``Blaue Bohne (w)``) or None (any);
    ``None`` = any card."""
    out: list[tuple[str, str | None] | None] = []
    try:
        items = _split_list(value)
    except NotationError as error:
        raise SceneFormatError(path, line, str(error)) from None
    if value.strip().casefold() in ("leer",):
        return []
    def room(n: int) -> int:  # refuse a count before its cards are made
        if len(out) + n > MAX_CARDS_PER_LINE:
            raise SceneFormatError(path, line, f"{len(out) + n} Karten in einer Zeile; so viele "
                                   f"hat kein Regelwerk (höchstens {MAX_CARDS_PER_LINE}).")
        return n

    for item in items:
        words = item.split()
        if len(words) in (1, 2) and words[0].isdigit() and _number(words[0]) is None:
            raise SceneFormatError(path, line, f"{_cut(words[0])} ist keine Anzahl (höchstens "
                                   f"{MAX_DIGITS} Ziffern 0–9).")
        if len(words) == 2 and _number(words[0]) is not None and words[1].casefold() in (
            "karte", "karten", "beliebige", "taler",
        ):
            out += [None] * room(_number(words[0]))  # type: ignore[arg-type]
            continue
        if len(words) == 1 and words[0].isdigit():
            out += [None] * room(_number(words[0]))  # type: ignore[arg-type]
            continue
        try:
            ref = _parse_ref(item, item)
        except NotationError as error:
            raise SceneFormatError(path, line, str(error).replace(f"„{item}“: ", "")) from None
        if ref.variety is None or ref.where or ref.card_id is not None:
            raise SceneFormatError(path, line, f"{_cut(item)}: im Aufbau nur „Anzahl Sorte“{_trait_forms()}.")
        out += [(ref.variety.key, ref.trait)] * room(ref.count)
    return out


@dataclass
class _Setup:
    path: str
    header: dict[str, _Entry] = field(default_factory=dict)
    zones: list[tuple[_Entry, str, int | None, int | None]] = field(default_factory=list)
    """(entry, zone kind, player, field) in file order."""


def _trait_forms() -> str:
    """`` (bei <edition> auch „Anzahl Sorte (w)“, „(m)“, …)`` from the scene words of the
    editions whose cards carry a trait (``TRAIT_LABELS``); empty without one."""
    return "".join(
        f" (bei {owner.view.label} auch „Anzahl Sorte ({labels[0]})“"
        + "".join(f", „({label})“" for label in labels[1:]) + ")"
        for owner in _owners("TRAIT_LABELS")
        for labels in [scene_words(owner.name).TRAIT_LABELS]
    )


def _no_trait(rules: RuleSet) -> str:
    """Why a card of ``rules`` cannot carry a trait, in the words of the editions whose cards do."""
    owners = _owners("TRAIT_LABELS")
    words = scene_words(owners[0].name) if owners else None
    without = words.WITHOUT_TRAIT if words else "tragen die Bohnen kein Merkmal"
    labels = ", ".join(f"({label})" for label in words.TRAIT_LABELS) if words else "Merkmale"
    return f"Bei „{rules.title}“ {without}; {labels} gibt es nur bei {_only_at(owners)}."


def _player_of(names: list[str], name: str) -> int | None:
    for i, n in enumerate(names):
        if n.casefold() == name.strip().casefold():
            return i
    return None


def _need_player(names: list[str], name: str, path: str, line: int) -> int:
    i = _player_of(names, name)
    if i is None:
        raise SceneFormatError(path, line, f"{_cut(name.strip())} sitzt nicht am Tisch "
                               f"(Spieler: {', '.join(names)}).")
    return i


def _build_state(path: str, header: dict[str, _Entry], zones: list[_Entry]) -> tuple[State, tuple[int, ...]]:
    def get(key: str) -> _Entry | None:
        return header.get(key)

    e = get("ruleset")
    if e is None:
        raise SceneFormatError(path, 0, "Es fehlt „Regelwerk: amigo“ (oder online, …).")
    try:
        rules = find_ruleset(e.value)
    except ValueError as error:
        raise SceneFormatError(path, e.line, str(error)) from None
    words = scene_words(rules.edition)
    if get("variations"):
        try:
            if getattr(words, "with_variations", None) is None:
                raise ValueError(f"Variationen gibt es hier nur bei {_only_at(_owners('with_variations'))}, "
                                 f"nicht bei „{rules.title}“.")
            rules = words.with_variations(rules, get("variations").value)
        except ValueError as error:
            raise SceneFormatError(path, get("variations").line, str(error)) from None
    if get("meters"):
        rules = _with_meter_file(rules, path, get("meters"))
    e = get("players")
    if e is None:
        raise SceneFormatError(path, 0, "Es fehlt „Spieler: Anna, Ben, …“ (in Sitzreihenfolge).")
    names = [n.strip() for n in e.value.split(",") if n.strip()]
    if len(set(n.casefold() for n in names)) != len(names):
        raise SceneFormatError(path, e.line, "Jeder Name darf nur einmal vorkommen.")
    try:
        rules.for_players(len(names))
    except ValueError as error:
        raise SceneFormatError(path, e.line, str(error)) from None
    seed = _int(get("seed").value, path, get("seed").line, "Saat") if get("seed") else 1
    state = State(rules, names, make_cards(rules, len(names)), seed)
    n = len(names)
    start = _need_player(names, get("start").value, path, get("start").line) if get("start") else 0
    active = _need_player(names, get("active").value, path, get("active").line) if get("active") else start
    state.start_player, state.active = start, active
    if get("phase"):
        pe = get("phase")
        ph = _int(pe.value, path, pe.line, "Phase", 1)
        if ph not in (1, 2, 3, 4):
            raise SceneFormatError(path, pe.line, "Phase muss 1, 2, 3 oder 4 sein.")
        state.phase = Phase(ph)
    if get("turn"):
        state.turn = _int(get("turn").value, path, get("turn").line, "Zug", 1, MAX_TURN)
    if get("pass"):
        pe = get("pass")
        k = _int(pe.value, path, pe.line, "Durchgang", 1)
        if k > state.setup.exhaustions:
            raise SceneFormatError(path, pe.line, f"Das Spiel hat nur {state.setup.exhaustions} Durchgänge.")
        state.exhaustions = k - 1
    if get("hand_plants"):
        pe = get("hand_plants")
        state.hand_plants = _int(pe.value, path, pe.line, "Gepflanzt", 0, 2)
        if state.hand_plants > 1 and state.phase is Phase.PLANT:
            raise SceneFormatError(path, pe.line, "Nach zwei Karten ist Phase 1 schon vorbei.")
    if get("ending"):
        state.ending = _yes(get("ending").value, path, get("ending").line)
    face_up: tuple[int, ...] = tuple(range(n))
    if get("face_up"):
        fe = get("face_up")
        v = fe.value.strip().casefold()
        if v == "alle":
            face_up = tuple(range(n))
        elif v in ("keine", "niemand", ""):
            face_up = ()
        else:
            face_up = tuple(_need_player(names, x, path, fe.line) for x in fe.value.split(","))

    # which ids are still free, per variety
    free: dict[str, list[int]] = {}
    for c in state.cards:
        free.setdefault(c.variety, []).append(c.id)
    in_game = {find_variety(k).key for k in free}
    placed: dict[int, list[int | None]] = {}  # entry line -> ids (None = any card, later)
    targets: list[tuple[_Entry, list[int | None], str, int | None, int | None]] = []

    edition_zones = edition_zone_names(state.edition)
    hand_marks: dict[int, Any] = {}  # seat -> what the edition's words marked in a hand line
    for entry in zones:
        kind, player, fld = _zone_of(entry, names, path, edition_zones)
        if kind == "fields":
            most = 3 if state.setup.third_field_cost else state.setup.fields  # field.buy-third
            count = _int(entry.value, path, entry.line, "Felder", state.setup.fields, most)
            p = state.players[player]
            if count < len(p.fields):
                del p.fields[count:]
            while len(p.fields) < count:
                p.fields.append([])
            continue
        if kind == "coins" and entry.value.strip().isdigit():
            coins = _int(entry.value, path, entry.line, "Taler", 0, len(state.cards))
            wanted: list[tuple[str, str | None] | None] = [None] * coins
        else:
            wanted = _card_items(entry.value, path, entry.line)
        ids: list[int | None] = []
        for item in wanted:
            if item is None:
                ids.append(None)
                continue
            key, trait = item
            if key not in in_game:
                raise SceneFormatError(
                    path, entry.line,
                    f"{find_variety(key).de} gehört bei „{rules.title}“ mit {n} Personen nicht zum Spiel.",
                )
            if trait is not None:  # a card with this trait (the edition's notation words)
                if not rules.traits:
                    raise SceneFormatError(path, entry.line, _no_trait(rules))
                match = [c for c in free[key] if state.cards[c].trait == trait]
                if not match:
                    v = find_variety(key)
                    total = sum(1 for c in state.cards if c.variety == key and c.trait == trait)
                    raise SceneFormatError(path, entry.line, f"Es gibt nur {total} {v.de_plural} "
                                           f"({trait_tag(trait, 'word')}); hier wäre es eine zu viel.")
                free[key].remove(match[0])
                ids.append(match[0])
                continue
            if not free[key]:
                v = find_variety(key)
                total = sum(1 for c in state.cards if c.variety == key)
                raise SceneFormatError(path, entry.line,
                                       f"Es gibt nur {total} {v.de_plural}; hier wäre es eine zu viel.")
            ids.append(free[key].pop(0))  # without a trait: the deck's first of the variety
        placed[entry.line] = ids
        targets.append((entry, ids, kind, player, fld))

    pool = [c for cards in free.values() for c in cards]
    pool.sort()
    random.Random(f"bohnteach-scene:{seed}").shuffle(pool)
    for entry, ids, *_ in targets:  # „3 Karten“: any cards, taken from the shuffled rest
        for i, c in enumerate(ids):
            if c is None:
                if not pool:
                    raise SceneFormatError(path, entry.line, "Es sind keine Karten mehr übrig.")
                ids[i] = pool.pop()

    deck_listed: list[int] = []
    discard_listed: list[int] = []
    for entry, ids, kind, player, fld in targets:
        cards = [c for c in ids if c is not None]
        if kind == "hand":
            if getattr(words, "hand_line", None) is not None:  # an edition card's place in the hand
                try:
                    cards, mark = words.hand_line(state, player, cards)
                except ValueError as error:
                    raise SceneFormatError(path, entry.line, str(error)) from None
                if mark is not None:
                    hand_marks[player] = mark
            state.players[player].hand += cards
        elif kind == "field":
            p = state.players[player]
            if fld >= len(p.fields):
                raise SceneFormatError(
                    path, entry.line, f"{p.name} hat nur {len(p.fields)} Felder "
                    f"(mehr mit „{p.name} Felder: 3“).")
            target = p.fields[fld]
            target += cards
            if len({state.variety[c] for c in target}) > 1:
                raise SceneFormatError(path, entry.line, "Auf einem Feld wächst nur eine Sorte.")
        elif kind == "set_aside":
            state.players[player].set_aside += cards
        elif kind == "coins":
            state.players[player].coins += cards
        elif kind == "revealed":
            state.revealed += cards
            if len(state.revealed) > 2:  # p2.reveal-two
                raise SceneFormatError(path, entry.line, f"{len(state.revealed)} aufgedeckte "
                                       "Karten; in Phase 2 deckt man 2 auf.")
        elif kind == "deck":
            deck_listed += cards
        elif kind == "discard":
            discard_listed += cards
        else:  # an edition zone: "edition:<key>"
            key = kind.split(":", 1)[1]
            (state.players[player].extra if player is not None else state.extra)[key] += cards

    rest_entry = get("rest")
    rest = "stapel gemischt" if rest_entry is None else " ".join(rest_entry.value.casefold().split())
    rest = rest.replace("unter den stapel", "stapel").replace("unter die ablage", "ablage")
    remaining = sorted(pool)
    if rest in ("stapel gemischt", "gemischt", "stapel (gemischt)"):
        random.Random(f"bohnteach-scene-rest:{seed}").shuffle(remaining)
        under_deck, under_discard, box = remaining, [], []
    elif rest in ("stapel", "stapel sortiert"):
        under_deck, under_discard, box = remaining, [], []
    elif rest in ("ablage", "ablagestapel"):
        under_deck, under_discard, box = [], remaining, []
    elif rest in ("schachtel", "aus dem spiel", "box"):
        under_deck, under_discard, box = [], [], remaining
    else:
        raise SceneFormatError(path, rest_entry.line, f"Rest: {_cut(rest_entry.value)}? Möglich: "
                               "Stapel gemischt, Stapel, Ablage, Schachtel.")
    # piles are written top first; the engine keeps the top at the end of the list
    state.deck = list(reversed(deck_listed + under_deck))
    state.discard = list(reversed(discard_listed + under_discard))
    if box:
        state.extra["box"] = box

    owners = {key: owner for key, owner in _edition_headers().values()}
    own = {key: header[key] for key in owners if key in header}
    for key in own:
        owner = owners[key]
        if owner.name != rules.edition:
            raise SceneFormatError(path, own[key].line, f"„{_cut(own[key].raw_key)}“ gibt es nur bei {owner.view.label}.")
    if getattr(words, "finish", None) is not None:  # the edition's marks of the scene's start

        def number(key: str, text: str, what: str) -> int:
            return _int(text, path, own[key].line, what)

        problem = words.finish(state, hand_marks, {k: e.value for k, e in own.items()}, number)
        if problem is not None:
            raise SceneFormatError(path, own[problem[0]].line, problem[1])
    _sanity(state, path, header)
    seen = [c for _, cards in state.zones() for c in cards]
    assert sorted(seen) == list(range(len(state.cards))), "jede Karte genau einmal"
    return state, face_up


def _with_meter_file(rules: RuleSet, path: str, entry: _Entry) -> RuleSet:
    """``Bohnometer-Datei: meine_karten.toml`` – a meter file beside the scene file (a ``.toml``
    of at most ``MAX_METER_BYTES``), read as ``load_ruleset_with_meters`` reads it."""
    name = entry.value.strip()
    meter_path = Path(path).parent / name
    if not name.endswith(".toml") or "/" in name or "\\" in name or name.startswith("."):
        raise SceneFormatError(path, entry.line, f"Bohnometer-Datei: {_cut(name)}? Erwartet wird der Name einer "
                               ".toml-Datei im Ordner der Szene, z. B. meine_karten.toml.")
    try:
        if not meter_path.is_file() or meter_path.stat().st_size > MAX_METER_BYTES:
            raise SceneFormatError(path, entry.line, f"{_cut(name)}: keine Datei im Ordner der Szene "
                                   f"(oder größer als {MAX_METER_BYTES} Bytes).")
        return load_ruleset_with_meters(rules, meter_path)
    except MeterFileError as error:
        raise SceneFormatError(path, entry.line, f"{name}, {error.key}: {error.reason}") from None
    except OSError as error:
        raise SceneFormatError(path, entry.line, f"{_cut(name)}: nicht lesbar ({error.strerror})") from None


def _zone_of(entry: _Entry, names: list[str], path: str,
             edition_zones: dict[str, Zone]) -> tuple[str, int | None, int | None]:
    k = entry.key
    found = _edition_zone(entry.raw_key, names, edition_zones)
    if found is not None:
        return f"edition:{found[0].key}", found[1], None
    if k == "revealed":
        return "revealed", None, None
    if k == "deck":
        return "deck", None, None
    if k == "discard":
        return "discard", None, None
    m = _PLAYER_ZONE.match(entry.raw_key)
    if m is None:
        raise SceneFormatError(path, entry.line, f"Unbekannter Eintrag {_cut(entry.raw_key)}.")
    player = _need_player(names, m.group("name"), path, entry.line)
    zone = m.group("zone").casefold()
    if zone == "hand":
        return "hand", player, None
    if zone == "quer":
        return "set_aside", player, None
    if zone == "taler":
        return "coins", player, None
    if zone == "felder":
        return "fields", player, None
    num = _number(zone.split()[1])
    if num is None or num < 1 or zone.endswith("ertrag"):
        raise SceneFormatError(path, entry.line, f"{_cut(entry.raw_key)}: Felder zählen ab 1 "
                               "(„Ertrag“ nur in Erwartungen).")
    return "field", player, num - 1


def _sanity(state: State, path: str, header: dict[str, _Entry]) -> None:
    line = header["phase"].line if "phase" in header else header["players"].line
    ph = state.phase
    if ph in (Phase.PLANT, Phase.DRAW):
        if state.revealed or any(p.set_aside for p in state.players):
            raise SceneFormatError(path, line, f"In Phase {int(ph)} liegen keine aufgedeckten "
                                   "oder quer liegenden Karten.")
    if ph is Phase.PLANT_RECEIVED and not any(to_plant(state, i) for i in range(state.n_players)):
        raise SceneFormatError(path, line, "Phase 3, aber niemand hat etwas zu pflanzen.")
    if not state.deck and not state.ending:
        raise SceneFormatError(path, line, "Der Nachziehstapel ist leer (sonst „Stapel "
                               "aufgebraucht: ja“).")
    if state.deck and state.ending:
        raise SceneFormatError(path, header["ending"].line, f"„Stapel aufgebraucht: ja“, aber im "
                               f"Stapel liegen noch {len(state.deck)} Karten (dann „Rest: Schachtel“).")


# ---- expectations ----------------------------------------------------------------------------
_ORDERED = {"hand": True, "field": True, "set_aside": False, "zone": False, "revealed": False, "deck": True,
            "discard": True, "deck_top": True, "discard_top": True}


def parse_expectation(text: str, names: list[str], path: str = "<szene>", line: int = 0,
                      edition_zones: dict[str, Zone] | None = None, edition: str = "base") -> Expectation:
    """``"Anna Feld 1 = 4 Blaue Bohnen"`` -> ``Expectation`` (see ``docs/scenes.md``);
    ``edition_zones`` (``edition_zone_names``) adds the edition's zones as subjects, the
    scene words of ``edition`` (the rule set's) its own subjects."""
    subject_text, sep, value = text.partition("=")
    if not sep:
        raise SceneFormatError(path, line, f"Erwartung ohne „=“: {_cut(text)} "
                               "(z. B. „Erwartet: Anna Taler = 3“).")
    subj = " ".join(subject_text.split())
    low = subj.casefold()
    value = value.strip()
    vlow = value.casefold()
    player = fld = None
    simple = {
        "aufgedeckt": "revealed", "stapel": "deck", "nachziehstapel": "deck", "ablage": "discard",
        "stapel oben": "deck_top", "ablage oben": "discard_top", "phase": "phase",
        "am zug": "active", "durchgang": "pass", "spielende": "over", "sieger": "winners",
        "gewinner": "winners", "siegerin": "winners", "gepflanzt": "hand_plants",
        "angebot": "offer",
    }
    for owner in _owners("match_subject"):  # an edition's own subjects (its scene words)
        words = scene_words(owner.name)
        own = words.match_subject(low)
        if own is None:
            continue
        if owner.name != edition:
            raise SceneFormatError(path, line, f"{_cut(subj)} gibt es nur bei {owner.view.label}.")
        seat = None if own[1] is None else _need_player(names, own[1], path, line)
        if own[0] in words.COUNTS:
            return Expectation(line, text, own[0], _int(value, path, line, subj), seat)
        return Expectation(line, text, own[0], _yes(value, path, line), seat)
    found = _edition_zone(subj, names, edition_zones or {})
    zone_key = None
    if low in simple:
        subject = simple[low]
    elif found is not None:
        subject, zone_key, player = "zone", found[0].key, found[1]
    else:
        m = _PLAYER_ZONE.match(subj)
        if not m:
            raise SceneFormatError(path, line, f"Was soll geprüft werden: {_cut(subj)}? Möglich z. B. "
                                   "„Anna Taler“, „Anna Feld 1“, „Anna Hand“, „Anna quer“, "
                                   "„Phase“, „Am Zug“, „Stapel“, „Ablage“, „Sieger“.")
        player = _need_player(names, m.group("name"), path, line)
        zone = m.group("zone").casefold()
        subject = {"hand": "hand", "quer": "set_aside", "taler": "coins", "felder": "fields"}.get(zone, "field")
        if subject == "field" and zone.endswith("ertrag"):
            subject = "yield"
        if subject in ("field", "yield"):
            num = _number(zone.split()[1])
            if num is None or num < 1:
                raise SceneFormatError(path, line, f"{_cut(subj)}: Felder zählen ab 1.")
            fld = num - 1
    if subject in ("coins", "fields", "pass", "hand_plants", "yield"):
        return Expectation(line, text, subject, _int(value, path, line, subj), player, fld)
    if subject == "phase":
        if vlow in ("vorbei", "spielende", "ende", "5"):
            return Expectation(line, text, "phase", 5)
        ph = _int(value, path, line, "Phase", 1)
        if ph > 4:
            raise SceneFormatError(path, line, "Phase 1–4 oder „vorbei“.")
        return Expectation(line, text, "phase", ph)
    if subject == "active":
        return Expectation(line, text, "active", _need_player(names, value, path, line))
    if subject == "over":
        return Expectation(line, text, "over", _yes(value, path, line))
    if subject == "offer":
        if vlow in ("offen", "ja"):
            return Expectation(line, text, "offer", True)
        if vlow in ("keins", "keines", "kein", "nein", "zu"):
            return Expectation(line, text, "offer", False)
        raise SceneFormatError(path, line, "Angebot = offen oder keins.")
    if subject == "winners":
        seats = tuple(sorted(_need_player(names, x, path, line)
                             for x in re.split(r"\s*,\s*|\s+und\s+", value) if x.strip()))
        return Expectation(line, text, "winners", seats)
    # card zones
    count = re.fullmatch(r"(\S+)\s+karten?", vlow)
    if count and _number(count.group(1)) is not None:
        return Expectation(line, text, subject, _number(count.group(1)), player, fld, count_only=True,
                           zone=zone_key)
    if vlow in ("leer", "nichts", "keine"):
        return Expectation(line, text, subject, (), player, fld, ordered=_ORDERED[subject], zone=zone_key)
    items = _card_items(value, path, line)
    if any(c is None for c in items):
        raise SceneFormatError(path, line, "Entweder „N Karten“ oder die Sorten aufzählen.")
    cards = tuple(item[0] for item in items if item is not None)
    traits = tuple(item[1] for item in items if item is not None)
    return Expectation(line, text, subject, cards, player, fld, ordered=_ORDERED[subject],
                       traits=traits if any(traits) else None, zone=zone_key)


# ---- the whole file ------------------------------------------------------------------------
def _names_and_zones(entries: list[_Entry]) -> tuple[list[str], dict[str, Zone]]:
    """The players and the edition's zone names, read ahead of the setup lines (which may
    come before ``Regelwerk:``); an unknown rule set is reported when the state is built."""
    names: list[str] = []
    zones: dict[str, Zone] = {}
    for entry in entries:
        if entry.key == "spieler" and not names:
            names = [n.strip() for n in entry.value.split(",") if n.strip()]
        elif entry.key == "regelwerk" and not zones:
            try:
                zones = edition_zone_names(find_edition(find_ruleset(entry.value).edition))
            except ValueError:
                pass
        elif entry.key == "schritt":
            break
    return names, zones


def parse_scene(text: str, filename: str = "<szene>") -> Scene:
    """Read a scene from its text. Raises ``SceneFormatError`` (file, line, reason)."""
    path = str(filename)[:200]
    if not isinstance(text, str):
        raise SceneFormatError(path, 0, "Eine Szene ist ein Text.")
    if len(text) > MAX_FILE_BYTES:
        raise SceneFormatError(path, 0, f"Die Datei hat {len(text)} Zeichen, höchstens "
                               f"{MAX_FILE_BYTES} sind erlaubt.")
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        raise SceneFormatError(path, 0, f"Die Datei hat {lines} Zeilen, höchstens {MAX_LINES}.")
    entries = _lines(text, path)
    names, edition_zones = _names_and_zones(entries)
    header: dict[str, _Entry] = {}
    zones: list[_Entry] = []
    sources: list[str] = []
    setup_expect_raw: list[_Entry] = []
    step_groups: list[list[_Entry]] = []
    for entry in entries:
        if step_groups:
            kind = _STEP_KEYS.get(entry.key)
            if kind is None:
                raise SceneFormatError(path, entry.line, f"{_cut(entry.raw_key)} gehört nicht in einen "
                                       "Schritt (dort: Text, Regeln, Quelle, Erwartet, Abgelehnt).")
            entry.key = kind
            if kind == "step":
                step_groups.append([entry])
            else:
                step_groups[-1].append(entry)
            continue
        kind = _HEADER_KEYS.get(entry.key) or _edition_headers().get(entry.key, ("",))[0] or None
        if kind is None and (_PLAYER_ZONE.match(entry.raw_key)
                             or _edition_zone(entry.raw_key, names, edition_zones)):
            kind = "zone"
        if kind is None:
            raise SceneFormatError(path, entry.line, f"Unbekannter Eintrag {_cut(entry.raw_key)}.")
        entry.key = kind if kind != "zone" else entry.key
        if kind == "step":
            entry.key = "step"
            step_groups.append([entry])
        elif kind in ("zone", "revealed", "deck", "discard"):
            zones.append(entry)
        elif kind == "source":
            sources += [s.strip() for s in entry.value.split(";") if s.strip()]
        elif kind == "expect":
            setup_expect_raw.append(entry)
        else:
            if kind in header:
                raise SceneFormatError(path, entry.line, f"{_cut(entry.raw_key)} steht doppelt da "
                                       f"(zuerst in Zeile {header[kind].line}).")
            header[kind] = entry
    if len(step_groups) > MAX_STEPS:
        raise SceneFormatError(path, step_groups[MAX_STEPS][0].line,
                               f"Mehr als {MAX_STEPS} Schritte in einer Szene.")
    for key, what in (("id", "Szene: kurze-id"), ("title", "Titel: …"), ("chapter", "Kapitel: …")):
        if key not in header:
            raise SceneFormatError(path, 0, f"Es fehlt „{what}“.")
    scene_id = header["id"].value.strip()
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", scene_id):
        raise SceneFormatError(path, header["id"].line, f"Die Szenen-ID {_cut(scene_id)}: nur a–z, "
                               "0–9, - und _ (klein geschrieben).")
    chapter = _chapter(header["chapter"].value, path, header["chapter"].line)
    order = _int(header["order"].value, path, header["order"].line, "Reihenfolge") if "order" in header else 0
    head_rules = _rule_ids(header["rules"].value, path, header["rules"].line) if "rules" in header else ()

    state, face_up = _build_state(path, header, zones)
    names = [p.name for p in state.players]
    edition_zones = edition_zone_names(state.edition)
    setup_expect = [parse_expectation(e.value, names, path, e.line, edition_zones, state.edition.name) for e in setup_expect_raw]

    steps: list[Step] = []
    current = state.copy()
    for index, group in enumerate(step_groups, start=1):
        head = group[0]
        step = Step(index=index, line=head.line, source=sources[0] if sources else "")
        seen: set[str] = set()
        for e in group[1:]:
            if e.key in seen and e.key not in ("expect",):
                raise SceneFormatError(path, e.line, f"{_cut(e.raw_key)} steht in diesem Schritt doppelt.")
            seen.add(e.key)
            if e.key == "text":
                step.narration = e.value
            elif e.key == "rules":
                step.rules = _rule_ids(e.value, path, e.line)
            elif e.key == "source":
                step.source = e.value
            elif e.key == "refused":
                ids = _rule_ids(e.value, path, e.line)
                if len(ids) != 1:
                    raise SceneFormatError(path, e.line, "Abgelehnt: genau eine Regel-ID.")
                step.refused = ids[0]
            elif e.key == "expect":
                step.expect.append(parse_expectation(e.value, names, path, e.line, edition_zones, state.edition.name))
        action_text = _clean(head.value)
        if action_text and action_text not in ("-", "—", "–"):
            step.text = action_text
            try:
                step.action = parse_action(current, action_text)
            except NotationError as error:
                raise SceneFormatError(path, head.line, f"Schritt {index}: {error}") from None
            try:
                apply(current, step.action)
            except RuleViolation:
                pass  # a refused step leaves the table unchanged
            except Exception as error:  # reported by the checker too; keep reading
                raise SceneFormatError(
                    path, head.line,
                    f"Schritt {index}: die Engine ist abgestürzt ({type(error).__name__}: {error})",
                ) from None
        elif not step.narration:
            raise SceneFormatError(path, head.line, f"Schritt {index} hat weder Aktion noch Text.")
        if step.refused and step.action is None:
            raise SceneFormatError(path, head.line, "Ein Schritt ohne Aktion kann nicht abgelehnt werden.")
        steps.append(step)

    rules: list[str] = list(head_rules)
    for step in steps:
        for rid in step.rules + ((step.refused,) if step.refused else ()):
            if rid not in rules:
                rules.append(rid)
    return Scene(
        id=scene_id,
        title=header["title"].value,
        chapter_key=chapter,
        ruleset=state.ruleset.name,
        initial=state,
        steps=steps,
        sources=tuple(sources),
        face_up=face_up,
        intro=header["intro"].value if "intro" in header else "",
        rules=tuple(rules),
        path=path,
        order=order,
        setup_expect=setup_expect,
    )


def load_scene(path: str | Path) -> Scene:
    """Read a scene file. Raises ``SceneFormatError`` (also for unreadable files)."""
    try:
        with open(Path(path), "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # never more: /dev/zero has no end
    except OSError as error:
        raise SceneFormatError(str(path), 0, f"Datei nicht lesbar: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SceneFormatError(str(path), 0, f"Die Datei ist größer als {MAX_FILE_BYTES} Bytes.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SceneFormatError(str(path), 0, f"Datei nicht lesbar: kein UTF-8 (Byte {error.start}).") from None
    return parse_scene(text, str(path))


__all__ = ["SceneFormatError", "edition_zone_names", "load_scene", "parse_expectation", "parse_scene"]
