"""Fuzz the engine's contract at its edges; prints figures (targets: 0 breaks, 0 foreign).

    python3 benchmarks/fuzz.py [--actions 100000] [--saves 2000] [--scenes 2000] [--seed 0]

1. Actions: games of every rule set (amigo, online, ladybohn, indiana, …) at every player count, in
   turn, driven by a seeded mix of legal actions (from ``legal_actions``), well-formed but
   mostly illegal ones (random seats, fields, cards, phases; an edition's own action types
   with random values) and malformed ones (floats,
   bools, strings, None, huge or negative numbers, generators, lists, unknown objects).
   After every action the invariants are checked (``check_state``, ``_probe``):
   * ``apply`` raises only ``RuleViolation``; a refusal leaves ``to_dict()`` unchanged and
     ``check`` names the same rule; an applied action was ``is_legal`` before;
   * every card lies in exactly one zone, as a plain ``int``; a field grows one variety;
     at most 3 fields; the open offer holds tuples of ints; the log holds plain actions;
   * ``legal_actions`` and ``actor`` never raise; what they list is legal; for the
     enumerable types (harvest, end planting/trading, draw, buy, accept, decline) a legal
     action is listed;
   * every 25th state survives a save and load (``Game.from_dict``) unchanged.
2. Tampered save files: real saves (at random moments of real games) with one random
   change (a value replaced by junk, a key removed or added, a card duplicated or moved,
   JSON cut or nested deeply) are loaded by ``Game.from_json`` and
   ``bohnteach.savefile.parse_game``: each must refuse with ``SaveFileError`` or load a
   game that passes the invariants and plays on; both must agree.
3. Tampered scene texts: the shipped scenes with one random change (numbers replaced by
   huge, negative or non-ASCII ones, lines doubled, dropped, swapped or made very long,
   values replaced by words) are read and checked: only ``SceneFormatError`` or problems
   of the scene, never an engine crash, within a second each.

Exit status 0 when there were no invariant breaks and no foreign exceptions.
"""
from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import platform
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from bohnteach import savefile  # noqa: E402
from bohnteach.content.scenes import scene_files  # noqa: E402
from bohnteach.content.scenes.check import check_scene  # noqa: E402
from bohnteach.content.scenes.loader import SceneFormatError, parse_scene  # noqa: E402
from bohnteach.game import engine  # noqa: E402
from bohnteach.game.actions import (  # noqa: E402
    ACTION_TYPES, Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer,
    Plant, Reorder, TakeIntoHand,
)
from bohnteach.game.errors import RuleViolation  # noqa: E402
from bohnteach.game.record import Game  # noqa: E402
from bohnteach.game.rulesets import find_ruleset, ruleset_names  # noqa: E402
from bohnteach.game.savecheck import SaveFileError  # noqa: E402
from bohnteach.game.state import Phase, State  # noqa: E402

MAX_GAME_STEPS = 4000  # applied + refused actions per game before a new one starts


@dataclass
class Report:
    actions: Counter = field(default_factory=Counter)  # legal / illegal / malformed, applied / refused
    rulesets: Counter = field(default_factory=Counter)  # actions per rule set (Indiana's are there)
    breaks: Counter = field(default_factory=Counter)  # invariant -> count
    foreign: Counter = field(default_factory=Counter)  # where: exception type -> count
    saves: Counter = field(default_factory=Counter)
    scenes: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    slowest_scene: float = 0.0
    games: int = 0
    seconds: float = 0.0

    def broke(self, what: str, detail: str = "") -> None:
        self.breaks[what] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{what}: {detail}"[:300])

    def crashed(self, where: str, error: BaseException, detail: str = "") -> None:
        self.foreign[f"{where}: {type(error).__name__}"] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{where}: {type(error).__name__}: {error} {detail}"[:300])

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.foreign


def configs() -> list[tuple[str, int]]:
    out = []
    for name in ruleset_names():
        rules = find_ruleset(name)
        out += [(name, n) for n in range(rules.min_players, rules.max_players + 1)]
    return out


# ---- invariants ----------------------------------------------------------------------------
def check_state(s: State, report: Report, where: str) -> None:
    seen: dict[int, str] = {}
    for zone, cards in s.zones():
        for c in cards:
            if type(c) is not int:
                report.broke("card id not a plain int", f"{where} {zone} {c!r}")
            elif c in seen:
                report.broke("card in two zones", f"{where} {c} {seen[c]} {zone}")
            seen[c] = zone
    if len(seen) != len(s.cards):
        report.broke("card lost", f"{where} {len(seen)} of {len(s.cards)}")
    for p in s.players:
        if len(p.fields) > 3:
            report.broke("more than 3 fields", where)
        for f in p.fields:
            if len({s.variety[c] for c in f if type(c) is int}) > 1:
                report.broke("mixed field", where)
    o = s.offer
    if o is not None and not (type(o.give) is tuple and type(o.get) is tuple
                              and all(type(c) is int for c in o.give + o.get)):
        report.broke("offer not plain", f"{where} {o!r}")
    if not s.face_down <= set(s.discard):
        report.broke("face-down card off the discard pile", where)


def _enumerable(s: State) -> list:
    out: list = []
    for seat in range(s.n_players):
        out += [EndPlanting(seat), EndTrading(seat), Draw(seat), BuyField(seat), Accept(seat),
                Decline(seat)]
        out += [Harvest(seat, f) for f in range(len(s.players[seat].fields))]
    return out


def _probe(s: State, report: Report, rng: random.Random) -> list:
    """legal_actions/actor never raise; listed ⊆ legal; legal enumerable ⊆ listed."""
    try:
        listed = engine.legal_actions(s)
        engine.actor(s)
        listed_own = engine.legal_actions(s, rng.randrange(s.n_players), offers=False)
    except Exception as error:  # noqa: BLE001
        report.crashed("legal_actions", error)
        return []
    for a in rng.sample(listed, min(4, len(listed))) + listed_own[:2]:
        if not engine.is_legal(s, a):
            report.broke("listed but not legal", repr(a))
    listed_set = set(listed)
    for a in _enumerable(s):
        try:
            legal = engine.is_legal(s, a)
        except Exception as error:  # noqa: BLE001
            report.crashed("is_legal", error, repr(a))
            continue
        if legal and a not in listed_set:
            report.broke("legal but not listed", f"{a!r} phase {int(s.phase)}")
    return listed


# ---- actions -------------------------------------------------------------------------------
_JUNK = [None, -1, 999, 10**30, 1.0, 0.5, True, False, "1", "Feld 1", b"1", [], [0], (0,), {},
         {"card": 1}, object(), float("nan"), float("inf"), range(3), 2**63]


def _illegal(s: State, rng: random.Random):
    n, cards = s.n_players, len(s.cards)
    seat = rng.randrange(n + 1) - (rng.random() < 0.1)
    card = rng.randrange(cards)
    kind = rng.choice(ACTION_TYPES + tuple(s.edition.actions))
    if kind in s.edition.actions:  # an edition's own type (Indiana): plausible values
        names = list(s.ruleset.varieties) + list(s.ruleset.other_cards) + ["Blaue Bohne", "Feld"]
        pick = {"field": lambda: rng.randrange(4), "target": lambda: rng.randrange(n + 1),
                "path": lambda: rng.random() < 0.3}
        return kind(seat, *(pick.get(f, lambda: rng.choice(names))() for f in kind._fields[1:]))
    if kind is Plant:
        return Plant(seat, rng.randrange(4), rng.choice([None, card]),
                     rng.choice([None, None, (card, rng.randrange(-1, 4))]))
    if kind is Harvest:
        return Harvest(seat, rng.randrange(4), rng.choice([None, rng.randrange(-1, 12)]))
    if kind is Offer:
        give = tuple(rng.randrange(cards) for _ in range(rng.randrange(3)))
        get = tuple(rng.randrange(cards) for _ in range(rng.randrange(3)))
        if rng.random() < 0.5 and s.players[s.active].hand:  # closer to legal: a real card
            give = (rng.choice(s.players[s.active].hand),)
            return Offer(s.active, rng.randrange(n), give, get)
        return Offer(seat, rng.randrange(n + 1), give, get)
    if kind is Reorder:
        return Reorder(seat, tuple(rng.sample(range(cards), 3)))
    if kind is TakeIntoHand:
        return TakeIntoHand(seat, card)
    return kind(seat)


def _malformed(s: State, rng: random.Random):
    junk = lambda: rng.choice(_JUNK)  # noqa: E731
    kind = rng.choice(ACTION_TYPES + tuple(s.edition.actions) + (None,))
    if kind is None:
        return rng.choice([None, 0, "Anna erntet", (0, 0), Plant, object(), [Draw(0)]])
    size = len(kind._fields)
    values = [junk() if rng.random() < 0.5 else rng.randrange(3) for _ in range(size)]
    if kind is Offer and rng.random() < 0.5:
        hand = s.players[s.active].hand
        values = [s.active, (s.active + 1) % s.n_players,
                  (c for c in hand[:1]), rng.choice([[], iter([]), itertools.count(), "12"])]
    return kind(*values)


def fuzz_actions(total: int, seed: int, report: Report) -> None:
    rng = random.Random(f"fuzz:{seed}")
    cfgs = configs()
    done = 0
    while done < total:
        name, n = cfgs[report.games % len(cfgs)]
        g = Game.new(name, n, seed=rng.randrange(10**6), start_player=rng.randrange(n))
        report.games += 1
        for step in range(MAX_GAME_STEPS):
            if done >= total or g.state.phase is Phase.OVER:
                break
            s = g.state
            listed = _probe(s, report, rng)
            roll = rng.random()
            if roll < 0.55 and listed:  # offers are most of the list: one pick in ten
                plain = [a for a in listed if type(a) is not Offer]
                pick = listed if not plain or rng.random() < 0.1 else plain
                kind, action = "legal", rng.choice(pick)
            elif roll < 0.85:
                kind, action = "illegal", _illegal(s, rng)
            else:
                kind, action = "malformed", _malformed(s, rng)
            done += 1
            report.rulesets[name] += 1
            _apply(g, action, kind, report)
            if step % 25 == 0:
                _round_trip(g, report)


def _apply(g: Game, action, kind: str, report: Report) -> None:
    s = g.state
    before = s.to_dict()
    if _read_once(action):  # a generator can be read once: by apply, not by check first
        verdict = None
    else:
        try:
            verdict = engine.check(s, action)
        except Exception as error:  # noqa: BLE001
            report.crashed("check", error, repr(action)[:80])
            verdict = None
    try:
        g.apply(action)
    except RuleViolation as refusal:
        report.actions[f"{kind} refused"] += 1
        if kind.startswith("legal"):
            report.broke("listed action refused", f"{action!r}: {refusal.rule_id}")
        if s.to_dict() != before:
            report.broke("refusal changed the state", repr(action)[:80])
        if not _read_once(action) and (verdict is None or verdict.rule_id != refusal.rule_id):
            report.broke("check and apply disagree", repr(action)[:80])
        return
    except Exception as error:  # noqa: BLE001
        report.crashed("apply", error, repr(action)[:80])
        return
    report.actions[f"{kind} applied"] += 1
    if verdict is not None:
        report.broke("applied although check refused", repr(action)[:80])
    logged = g.log[-1]
    try:
        hash(logged)
    except TypeError:
        report.broke("logged action not hashable", repr(logged)[:80])
    check_state(g.state, report, f"after {action!r}"[:100])


def _read_once(action: object) -> bool:
    return isinstance(action, tuple) and any(
        hasattr(v, "__next__") for v in action  # an iterator, e.g. a generator
    )


def _round_trip(g: Game, report: Report) -> None:
    try:
        again = Game.from_dict(json.loads(json.dumps(Game(g.state).to_dict())))
    except SaveFileError as error:
        report.broke("a reached state fails the save checks", str(error))
        return
    except Exception as error:  # noqa: BLE001
        report.crashed("round trip", error)
        return
    if again.state != g.state:
        report.broke("save and load changed the state")


# ---- tampered saves ------------------------------------------------------------------------
def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _tamper(data: dict, rng: random.Random):
    """One random change to a save's data (or its text)."""
    how = rng.randrange(8)
    if how == 0:  # cut the JSON text
        text = json.dumps(data)
        return text[: rng.randrange(len(text))]
    if how == 1:
        return "[" * rng.choice([10, 1000, 100_000]) + "]" * 3
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == 2 and isinstance(parent, dict):
        del parent[last]
    elif how == 3 and isinstance(parent, dict):
        parent[rng.choice(["x", "extra2", "hand"]) + str(rng.randrange(3))] = rng.choice(_JUNK[:16])
    elif how == 4 and isinstance(parent, list):  # duplicate an element
        parent.append(parent[last])
    elif how == 5:  # a card id moved or duplicated into another zone
        ids = [p for p in paths if isinstance(_get(data, p), int) and "cards" not in p]
        target = _get(data, rng.choice(ids)) if ids else 0
        zone = rng.choice([p for p in paths if isinstance(_get(data, p), list)] or [path])
        if isinstance(_get(data, zone), list):
            _get(data, zone).append(target)
    else:
        value = rng.choice(_JUNK[:17] + [{"type": "Plant", "player": 0, "field": 0},
                                         [[[[[]]]]], "x" * 5000, -(10**30), 10**4000])
        if isinstance(value, (range, bytes)) or value is _JUNK[16]:
            value = str(value)[:20]
        parent[last] = value
    try:
        return json.dumps(data)
    except (TypeError, ValueError):
        return json.dumps(data, default=str)


def _get(data, path):
    for key in path:
        data = data[key]
    return data


def fuzz_saves(total: int, seed: int, report: Report) -> None:
    rng = random.Random(f"fuzz-saves:{seed}")
    cfgs = configs()
    bases = []
    for i, (name, n) in enumerate(cfgs):
        g = Game.new(name, n, seed=i)
        steps = rng.randrange(20, 600)
        for _ in range(steps):
            listed = engine.legal_actions(g.state)
            if not listed:
                break
            g.apply(rng.choice(listed))
        bases.append(g.to_dict())
    for i in range(total):
        text = _tamper(copy.deepcopy(bases[i % len(bases)]), rng)
        outcomes = []
        for loader in (Game.from_json, savefile.parse_game):
            try:
                game = loader(text)
            except SaveFileError:
                outcomes.append("refused")
                continue
            except Exception as error:  # noqa: BLE001
                report.crashed(f"save {loader.__qualname__}", error)
                outcomes.append("crash")
                continue
            outcomes.append("loaded")
            check_state(game.state, report, "loaded save")
            for _ in range(20):  # it must play on
                listed = _probe(game.state, report, rng)
                if not listed:
                    break
                _apply(game, rng.choice(listed), "legal after a load", report)
        report.saves[outcomes[0]] += 1
        if outcomes[0] != outcomes[1] and "crash" not in outcomes:
            report.broke("core and schema disagree on a save", f"{outcomes} {text[:120]}")


# ---- tampered scenes -----------------------------------------------------------------------
_WORDS = ["", "ja", "nein", "Blaue Bohne", "3 Karten", "leer", "Anna", "Feld 9", "-1", "²",
          "٣", "9" * 40, "9" * 400, "1e9", "0", "1000", "Schritt:", "(w)", "Rest: Ablage"]


def _tamper_scene(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    how = rng.randrange(7)
    i = rng.randrange(len(lines))
    if how == 0:  # a number replaced
        numbers = [(j, m) for j, line in enumerate(lines) for m in re.finditer(r"\d+", line)]
        if numbers:
            j, m = rng.choice(numbers)
            new = rng.choice(["0", "7", "99", "100000000", "9" * 300, "²", "-3", "٣"])
            lines[j] = lines[j][: m.start()] + new + lines[j][m.end():]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2:
        del lines[i]
    elif how == 3:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 4:
        lines[i] = lines[i] + " " + "Blaue Bohne, " * rng.choice([5, 50, 5000])
    elif how == 5:
        key, sep, _ = lines[i].partition(":")
        lines[i] = key + ":" + " " + rng.choice(_WORDS) if sep else rng.choice(_WORDS)
    else:
        key = rng.choice(["Anna Felder", "Anna Taler", "Gepflanzt", "Aufgedeckt", "Phase",
                          "Stapel aufgebraucht", "Durchgang", "Zug", "Ben Hand", "Rest"])
        setup_end = next((j for j, line in enumerate(lines) if line.startswith("Schritt")), len(lines))
        lines.insert(rng.randrange(setup_end + 1), f"{key}: {rng.choice(_WORDS)}")
    return "\n".join(lines) + "\n"


def fuzz_scenes(total: int, seed: int, report: Report) -> None:
    rng = random.Random(f"fuzz-scenes:{seed}")
    texts = [p.read_text(encoding="utf-8") for p in scene_files()]
    for i in range(total):
        text = _tamper_scene(texts[i % len(texts)], rng)
        started = time.perf_counter()
        try:
            scene = parse_scene(text, "fuzz.scene")
        except SceneFormatError as error:
            report.scenes["refused"] += 1
            if len(str(error)) > 400:
                report.broke("scene message too long", str(error)[:100])
        except Exception as error:  # noqa: BLE001
            report.crashed("scene parse", error, text[:80])
        else:
            try:
                problems = check_scene(scene)
            except Exception as error:  # noqa: BLE001
                report.crashed("scene check", error)
                problems = []
            crashes = [p for p in problems if "Fehler in der Engine" in p.reason
                       or "nicht prüfbar" in p.reason]
            for p in crashes:
                report.broke("engine error in a scene", p.reason)
            report.scenes["loaded, with problems" if problems else "loaded, holds"] += 1
        report.slowest_scene = max(report.slowest_scene, time.perf_counter() - started)


# ---- main ----------------------------------------------------------------------------------
def run(actions: int, saves: int, scenes: int, seed: int = 0) -> Report:
    report = Report()
    started = time.perf_counter()
    fuzz_actions(actions, seed, report)
    fuzz_saves(saves, seed, report)
    fuzz_scenes(scenes, seed, report)
    report.seconds = time.perf_counter() - started
    if report.slowest_scene > 1.0:
        report.broke("a scene took more than 1 s", f"{report.slowest_scene:.1f} s")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--saves", type=int, default=2_000)
    parser.add_argument("--scenes", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()}, {os.cpu_count()} Kerne; Saat {args.seed}; "
          f"Regelwerke/Personen: {', '.join(f'{r}/{n}' for r, n in configs())}")
    report = run(args.actions, args.saves, args.scenes, args.seed)
    total = sum(report.actions.values())
    print(f"Aktionen: {total} in {report.games} Partien")
    for key in sorted(report.actions):
        print(f"  {key}: {report.actions[key]}")
    print("  je Regelwerk: " + ", ".join(f"{k} {v}" for k, v in sorted(report.rulesets.items())))
    print(f"Spielstände (verändert): {sum(report.saves.values())} – {dict(report.saves)}")
    print(f"Szenen (verändert): {sum(report.scenes.values())} – {dict(report.scenes)}; "
          f"langsamste {report.slowest_scene * 1000:.0f} ms")
    print(f"Invariante verletzt: {sum(report.breaks.values())} {dict(report.breaks)}")
    print(f"Fremde Ausnahmen: {sum(report.foreign.values())} {dict(report.foreign)}")
    for line in report.examples:
        print(f"  z. B. {line}")
    print(f"Zeit: {report.seconds:.1f} s – {'ok' if report.ok else 'FEHLER'}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
