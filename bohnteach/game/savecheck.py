"""Checks of a saved game (``Game.to_dict``) before anything of it reaches the engine.

Structure (types, keys, value ranges) and meaning (every card exactly once, the rule
set's deck, field counts, one variety per field, seats, counters, the open offer, what
each phase allows) are checked here in plain Python, because the game core imports no
third-party package. The same format is also described as a msgspec schema in
``bohnteach/savefile.py``; that entry point decodes with the schema first and then calls
these checks, and both raise ``SaveFileError`` naming the field, e.g.
``initial.players[1].hand[2]``.
"""
from __future__ import annotations

from typing import Any

from bohnteach.game.beans import find_variety
from bohnteach.game.edition import find_edition
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.game.state import Phase

FORMAT = "bohnteach-game/1"
MAX_SAVE_CHARS = 5_000_000
"""Largest save text read (a long game is ~200 kB)."""
MAX_LOG = 50_000
"""Most actions in a log (a game of random play needs ~500–2,000)."""
MAX_NAME = 40
MAX_SEED = 2**63 - 1

_PLAYER_KEYS = ("name", "hand", "fields", "set_aside", "coins")
_INITIAL_KEYS = (
    "ruleset", "cards", "players", "start_player", "active", "phase", "deck_top_first",
    "discard", "revealed", "offer", "hand_plants", "exhaustions", "ending", "seed", "turn",
)
_INITIAL_OPTIONAL = ("extra", "scores", "winners", "face_down", "marks")


class SaveFileError(ValueError):
    """A saved game that cannot be loaded: ``field`` (a path such as
    ``initial.players[0].hand``) and ``reason`` (German)."""

    def __init__(self, field: str, reason: str):
        self.field = field[:120]
        self.reason = reason if len(reason) <= 300 else reason[:299] + "…"  # never echo huge input
        super().__init__(f"Spielstand, Feld {self.field}: {self.reason}")


# ---- structure ---------------------------------------------------------------------------
def _fail(field: str, reason: str) -> SaveFileError:
    return SaveFileError(field, reason)


def _object(value: object, field: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, dict):
        raise _fail(field or "spielstand", f"erwartet ein Objekt, gefunden {_kind(value)}.")
    for key in required:
        if key not in value:
            raise _fail(f"{field}.{key}" if field else key, "fehlt.")
    for key in value:
        if key not in required and key not in optional:
            raise _fail(field or "spielstand", f"unbekanntes Feld {str(key)[:40]!r}.")
    return value


def _list(value: object, field: str, limit: int) -> list:
    if not isinstance(value, (list, tuple)):
        raise _fail(field, f"erwartet eine Liste, gefunden {_kind(value)}.")
    if len(value) > limit:
        raise _fail(field, f"{len(value)} Einträge, höchstens {limit}.")
    return value


def _int(value: object, field: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise _fail(field, f"erwartet eine ganze Zahl, gefunden {_kind(value)}.")
    if not low <= value <= high:
        raise _fail(field, f"{value} liegt nicht zwischen {low} und {high}.")
    return value


def _bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise _fail(field, f"erwartet true oder false, gefunden {_kind(value)}.")
    return value


def _kind(value: object) -> str:
    names = {dict: "ein Objekt", list: "eine Liste", str: "einen Text", bool: "einen Wahrheitswert",
             int: "eine Zahl", float: "eine Kommazahl", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _ids(value: object, field: str, n_cards: int) -> list[int]:
    cards = _list(value, field, n_cards)
    for i, c in enumerate(cards):
        _int(c, f"{field}[{i}]", 0, n_cards - 1)
    return cards


# ---- the initial state -------------------------------------------------------------------
def check_state_dict(data: object, ruleset: RuleSet | None = None, field: str = "initial") -> dict:
    """Check the dict of a ``State`` (``State.to_dict``); returns it. Raises ``SaveFileError``."""
    d = _object(data, field, _INITIAL_KEYS, _INITIAL_OPTIONAL)
    f = f"{field}."
    if not isinstance(d["ruleset"], str):
        raise _fail(f + "ruleset", f"erwartet einen Text, gefunden {_kind(d['ruleset'])}.")
    if ruleset is None:
        try:
            ruleset = find_ruleset(d["ruleset"][:40])
        except (ValueError, KeyError):
            raise _fail(f + "ruleset", f"Regelwerk {d['ruleset'][:40]!r} gibt es nicht.") from None
    players = _list(d["players"], f + "players", ruleset.max_players)
    n = len(players)
    if n < ruleset.min_players:
        raise _fail(f + "players", f"{n} Personen; {ruleset.title}: {ruleset.min_players}–{ruleset.max_players}.")
    try:
        setup = ruleset.for_players(n)
    except ValueError as error:
        raise _fail(f + "players", str(error)) from None
    specs = [list(spec) for spec in ruleset.card_specs(n)]
    n_cards = len(specs)
    cards = _list(d["cards"], f + "cards", n_cards)
    if [list(c) if isinstance(c, (list, tuple)) else c for c in cards] != specs:
        raise _fail(f + "cards", f"ist nicht das Kartenspiel von „{ruleset.title}“ mit {n} Personen "
                    f"({n_cards} Karten in fester Reihenfolge).")
    max_fields = 3 if setup.third_field_cost else setup.fields
    variety = [v for v, _ in specs]

    edition = find_edition(ruleset.edition)
    own_zones = {z.key for z in edition.zones if z.per_player}
    table_zones = {z.key for z in edition.zones if not z.per_player} | {"box"}
    zones: list[tuple[str, list[int]]] = []
    player_zones: list[tuple[str, str, list[int]]] = []
    names: set[str] = set()
    for seat, raw in enumerate(players):
        pf = f"{f}players[{seat}]"
        p = _object(raw, pf, _PLAYER_KEYS, ("extra",))
        name = p["name"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise _fail(pf + ".name", f"erwartet einen Namen mit 1–{MAX_NAME} Zeichen.")
        if name in names:
            raise _fail(pf + ".name", f"{name!r} sitzt schon am Tisch.")
        names.add(name)
        fields = _list(p["fields"], pf + ".fields", max_fields)
        if len(fields) < setup.fields:
            raise _fail(pf + ".fields", f"{len(fields)} Felder; mit {n} Personen hat jede {setup.fields}"
                        + (f" (oder {max_fields} nach einem Feldkauf)." if max_fields > setup.fields else "."))
        for key in ("hand", "set_aside", "coins"):
            zones.append((f"{pf}.{key}", _ids(p[key], f"{pf}.{key}", n_cards)))
        own = p.get("extra", {})
        if not isinstance(own, dict) or not all(isinstance(k, str) for k in own):
            raise _fail(pf + ".extra", "erwartet ein Objekt aus Bereichsnamen und Kartenlisten.")
        for key, value in own.items():
            ef = f"{pf}.extra[{key[:40]!r}]"
            if key not in own_zones:
                allowed = ", ".join(sorted(own_zones)) or "keine"
                raise _fail(ef, f"unbekannter Bereich (erlaubt: {allowed}).")
            player_zones.append((ef, key, _ids(value, ef, n_cards)))
        for i, cards_on in enumerate(fields):
            ff = f"{pf}.fields[{i}]"
            zones.append((ff, _ids(cards_on, ff, n_cards)))
            if len({variety[c] for c in cards_on}) > 1:
                raise _fail(ff, "Auf einem Feld wächst nur eine Sorte.")
    for key in ("deck_top_first", "discard", "revealed"):
        zones.append((f + key, _ids(d[key], f + key, n_cards)))
    extra = d.get("extra", {})
    if not isinstance(extra, dict) or not all(isinstance(k, str) for k in extra):
        raise _fail(f + "extra", "erwartet ein Objekt aus Bereichsnamen und Kartenlisten.")
    for key, value in extra.items():
        zones.append((f"{f}extra[{str(key)[:40]!r}]", _ids(value, f"{f}extra[{str(key)[:40]!r}]", n_cards)))
    zones += [(ef, ids) for ef, _, ids in player_zones]

    beans = [find_variety(v).bean for v in variety]
    for zone, ids in zones:  # hands, fields, piles: beans only (the deck: the edition says)
        if "extra[" not in zone and not zone.endswith("deck_top_first") and not all(beans[c] for c in ids):
            other = next(c for c in ids if not beans[c])
            raise _fail(zone, f"Karte {other} ({find_variety(variety[other]).de}) ist keine Bohne; hier liegen nur Bohnen.")
    where: dict[int, str] = {}
    for zone, ids in zones:
        for c in ids:
            if c in where:
                raise _fail(zone, f"Karte {c} liegt schon in {where[c]}; jede Karte gibt es nur einmal.")
            where[c] = zone
    if len(where) != n_cards:
        missing = min(set(range(n_cards)) - set(where))
        raise _fail(field, f"Karte {missing} fehlt: jede der {n_cards} Karten muss genau einmal auf dem Tisch liegen.")

    start = _int(d["start_player"], f + "start_player", 0, n - 1)
    active = _int(d["active"], f + "active", 0, n - 1)
    del start, active
    phase = Phase(_int(d["phase"], f + "phase", 1, 5))
    _int(d["turn"], f + "turn", 1, 10 * MAX_LOG)
    hand_plants = _int(d["hand_plants"], f + "hand_plants", 0, 2)
    _int(d["exhaustions"], f + "exhaustions", 0, setup.exhaustions)
    _int(d["seed"], f + "seed", -MAX_SEED, MAX_SEED)
    ending = _bool(d["ending"], f + "ending")
    revealed, deck = d["revealed"], d["deck_top_first"]
    p_dicts = players
    if len(revealed) > 2:
        raise _fail(f + "revealed", f"{len(revealed)} aufgedeckte Karten; es sind höchstens 2.")
    if phase in (Phase.PLANT, Phase.DRAW, Phase.OVER):
        if revealed:
            raise _fail(f + "revealed", f"In Phase {int(phase)} liegt nichts aufgedeckt.")
        for seat, p in enumerate(p_dicts):
            if p["set_aside"]:
                raise _fail(f"{f}players[{seat}].set_aside", f"In Phase {int(phase)} liegt nichts quer.")
    if phase is Phase.PLANT and hand_plants > 1:
        raise _fail(f + "hand_plants", "Nach zwei Karten ist Phase 1 vorbei.")
    if phase is Phase.PLANT_RECEIVED and not revealed and not any(p["set_aside"] for p in p_dicts):
        raise _fail(f + "phase", "Phase 3, aber niemand hat etwas zu pflanzen.")
    if ending and deck:
        raise _fail(f + "ending", "Der Stapel ist aufgebraucht, liegt aber noch da.")

    scores, winners = d.get("scores"), d.get("winners")
    if phase is Phase.OVER:
        coins = [len(p["coins"]) for p in p_dicts]
        if scores != coins:
            raise _fail(f + "scores", f"erwartet die Talerzahlen {coins}.")
        _ids(winners, f + "winners", n)
        if not winners:
            raise _fail(f + "winners", "Nach dem Spielende gibt es mindestens eine Siegerin.")
        if any(cards_on for p in p_dicts for cards_on in p["fields"]):
            raise _fail(f + "players", "Nach der Schlussernte sind alle Felder leer.")
    elif scores is not None or winners is not None:
        raise _fail(f + ("scores" if scores is not None else "winners"), "gibt es erst nach dem Spielende.")

    offer = d["offer"]
    if offer is not None:
        o = _list(offer, f + "offer", 4)
        if len(o) != 4:
            raise _fail(f + "offer", "erwartet [von, an, gibt, will].")
        _int(o[0], f + "offer[0]", 0, n - 1)
        _int(o[1], f + "offer[1]", 0, n - 1)
        _ids(o[2], f + "offer[2]", n_cards)
        _ids(o[3], f + "offer[3]", n_cards)
        if phase is not Phase.TRADE:
            raise _fail(f + "offer", "Angebote gibt es nur in Phase 2.")

    face_down = _ids(d.get("face_down", []), f + "face_down", n_cards)
    if len(set(face_down)) != len(face_down) or not set(face_down) <= set(d["discard"]):
        raise _fail(f + "face_down", "nennt nur Karten des Ablagestapels, jede einmal.")

    traits = [trait for _, trait in specs]
    zone_checks = [(ef, key, ids) for ef, key, ids in player_zones]
    for key, value in extra.items():
        ef = f"{f}extra[{str(key)[:40]!r}]"
        if key not in table_zones:
            raise _fail(ef, f"unbekannter Bereich (erlaubt: {', '.join(sorted(table_zones))}).")
        zone_checks.append((ef, key, value))
    zone_checks.append((f + "deck_top_first", "deck", deck))
    problem = edition.saved_marks_problem(ruleset, d.get("marks", {}), n, n_cards) if isinstance(
        d.get("marks", {}), dict) else "erwartet ein Objekt."
    if problem:
        raise _fail(f + "marks", problem)
    for ef, key, ids in zone_checks:
        problem = edition.saved_zone_problem(ruleset, key, ids, traits, phase, offer is not None)
        if problem:
            raise _fail(ef, problem)
    return d


def check_game_dict(data: object, ruleset: RuleSet | None = None) -> tuple[dict, list[dict]]:
    """Check a saved game's dict (format, initial state, the log's shape); returns
    (initial, log). Whether each logged action is legal is checked by replaying it."""
    d = _object(data, "", ("format", "initial", "log"))
    if d["format"] != FORMAT:
        raise _fail("format", f"Kein bohnteach-Spielstand (erwartet {FORMAT!r}).")
    initial = check_state_dict(d["initial"], ruleset)
    log = _list(d["log"], "log", MAX_LOG)
    for i, entry in enumerate(log):
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise _fail(f"log[{i}]", "erwartet eine Aktion {\"type\": …}.")
    return initial, log


def parse_save_text(text: Any) -> object:
    """JSON text (str or bytes) -> Python data, with the size and nesting limits."""
    import json

    if not isinstance(text, (str, bytes, bytearray)):
        raise _fail("spielstand", f"erwartet JSON-Text, gefunden {_kind(text)}.")
    if len(text) > MAX_SAVE_CHARS:
        raise _fail("spielstand", f"{len(text)} Zeichen; höchstens {MAX_SAVE_CHARS}.")
    try:
        return json.loads(text)
    except RecursionError:
        raise _fail("spielstand", "zu tief verschachtelt.") from None
    except ValueError as error:  # JSONDecodeError, bad UTF-8, an int with too many digits
        raise _fail("spielstand", f"kein gültiges JSON ({str(error)[:80]}).") from None


__all__ = ["FORMAT", "MAX_LOG", "MAX_SAVE_CHARS", "SaveFileError", "check_game_dict",
           "check_state_dict", "parse_save_text"]
