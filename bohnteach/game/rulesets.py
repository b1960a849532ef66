"""Frozen rule sets, one per rulebook, loaded from ``data/rulesets/*.toml`` (listed in docs/rules.md, „Regelwerke“).

Every difference between the rulebooks is a data field here; the engine reads the fields
and never asks for a rule set by name. Rules of an edition (Ladybohn) are switched on by
``edition = "…"`` and configured in the TOML table named after it (``RuleSet.settings``).
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from bohnteach.game.beans import Meter, Variety, all_varieties, find_variety
from bohnteach.game.edition import find_edition

Sex = str | None  # "m", "w", "B" in Ladybohn; None in editions without sexes

PHASE3_ORDER_RULES = {"any": "p3.plant-all", "active_first": "lady.p3-order"}
"""The rule behind each ``RuleSet.phase3_order`` (the ID a refusal names)."""


@dataclass(frozen=True)
class PlayerCountRules:
    """What depends on the number of players."""

    players: int
    fields: int
    deal: tuple[int, ...]
    """Cards dealt per seat, counted from the start player; the last entry repeats."""
    draw: int
    exhaustions: int
    """The game ends when the draw pile runs out this many times."""
    third_field_cost: int
    """Coins for buying a 3rd field; 0 = not possible."""
    removed: tuple[str, ...]

    def deal_for(self, position: int) -> int:
        """Cards for the seat ``position`` places after the start player."""
        return self.deal[min(position, len(self.deal) - 1)]


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    sources: tuple[str, ...]
    varieties: tuple[str, ...]
    tie_break: str
    """``clockwise`` (tie.clockwise) or ``hand_cards`` (tie.hand-cards)."""
    start_player: str
    phase3_order: str
    """``any`` (p3.plant-all) or ``active_first`` (lady.p3-order)."""
    final_harvest_protection: bool
    by_players: dict[int, PlayerCountRules] = field(repr=False)
    sexes: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    """Ladybohn: variety -> {"m": n, "w": n, "B": n}; empty where cards have no sex."""
    sex_meters: dict[str, dict[str, Meter]] = field(default_factory=dict, repr=False)
    """Ladybohn: variety -> {"m": meter, "w": meter}; babies have none."""
    meter_assumption: str = ""
    """Non-empty where the meters are an assumption, not printed values (shown to users)."""
    meter_source: str = ""
    """Where user-supplied meters came from (``Werte aus meine_karten.toml``), else empty."""
    edition: str = "base"
    """The edition whose rules plug into the engine (``game/edition.py``)."""
    settings: Any = None
    """That edition's own settings, read from the TOML table named after it."""
    other_cards: tuple[str, ...] = ()
    """Card kinds of the deck that are no beans (Indiana: path, carrier, sabohntage),
    ``count`` cards each (data/varieties.toml); they get ids after the bean cards."""
    meters: dict[str, Meter] = field(default_factory=dict, repr=False)
    """Meters from the user's own file that replace a variety's assumed one (Indiana)."""

    @property
    def min_players(self) -> int:
        return min(self.by_players)

    @property
    def max_players(self) -> int:
        return max(self.by_players)

    def for_players(self, players: object) -> PlayerCountRules:
        """The rules for ``players`` players; ``ValueError`` for a count without rules
        (``players`` is typed ``object``: the compiled build must not raise ``TypeError``)."""
        rules = self.by_players.get(players) if type(players) is int else None
        if rules is None:
            raise ValueError(
                f"{self.title}: für {players} Personen gibt es keine Regeln "
                f"(möglich: {self.min_players}–{self.max_players})."
            )
        return rules

    def variety_list(self, players: int) -> tuple[Variety, ...]:
        removed = set(self.for_players(players).removed)
        return tuple(find_variety(k) for k in self.varieties if k not in removed)

    def card_specs(self, players: int) -> list[tuple[str, Sex]]:
        """One (variety key, sex) entry per card of the deck, in a fixed order."""
        specs: list[tuple[str, Sex]] = []
        for v in self.variety_list(players):
            if self.sexes:
                for sex, n in self.sexes[v.key].items():
                    specs += [(v.key, sex)] * n
            else:
                specs += [(v.key, None)] * v.count
        for key in self.other_cards:
            specs += [(key, None)] * find_variety(key).count
        return specs

    def meter_for(self, variety: str, sex: Sex = None) -> Meter | None:
        """The Bohnometer printed on a card; ``None`` for a baby bean (no meter)."""
        if sex == "B":
            return None
        if self.sex_meters and sex is not None:
            return self.sex_meters[variety][sex]
        if self.meters and variety in self.meters:
            return self.meters[variety]
        return find_variety(variety).meter

    def with_meters(self, meters: Mapping[str, Mapping[str, object]], source: str = "") -> RuleSet:
        """A new rule set with the Bohnometers printed on the user's cards.

        ``meters`` maps variety keys to ``{"m": meter, "w": meter}`` (checked like a meter
        file, see ``load_meter_file``); varieties or sexes left out keep their values. The
        assumption note is cleared when every meter is replaced, otherwise it names the
        ones that are still assumed; ``meter_source`` says where the values came from.
        """
        if not self.sexes:
            raise ValueError(f"{self.title}: Eigene Bohnometer gibt es nur für Karten mit m/w/B.")
        where = source or "eigene Werte"
        merged = {v: dict(by_sex) for v, by_sex in self.sex_meters.items()}
        for key, by_sex in meters.items():
            variety = _meter_variety(self, key, where, key)
            for sex, values in by_sex.items():
                label = f"{key}.{sex}"
                if sex not in ("m", "w"):
                    raise MeterFileError(where, label, _SEX_REASON.get(sex, _SEX_REASON[None]))
                merged.setdefault(variety, {})[sex] = check_meter(values, where, label)
        given = {(_meter_variety(self, k, where, k), s) for k, by_sex in meters.items() for s in by_sex}
        still = [
            f"{find_variety(v).de} ({s})" for v in self.varieties for s in ("m", "w")
            if self.sexes.get(v, {}).get(s) and (v, s) not in given
        ]
        if still and self.meter_assumption:
            note = f"Werte aus {where}; weiterhin angenommen: {', '.join(still)}."
        else:
            note = ""
        return replace(
            self, sex_meters=merged, meter_assumption=note, meter_source=f"Werte aus {where}"
        )


def _player_rules(n: int, defaults: dict[str, Any], own: dict[str, Any]) -> PlayerCountRules:
    merged = {**defaults, **own}
    return PlayerCountRules(
        players=n,
        fields=merged["fields"],
        deal=tuple(merged["deal"]),
        draw=merged["draw"],
        exhaustions=merged["exhaustions"],
        third_field_cost=merged["third_field_cost"],
        removed=tuple(merged["removed"]),
    )


def _merged(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``own`` over ``base``, table by table (a variant rule set's ``based_on``)."""
    out = dict(base)
    for key, value in own.items():
        out[key] = _merged(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out


def ruleset_from_toml(text: str) -> RuleSet:
    raw = tomllib.loads(text)
    if "based_on" in raw:  # a variant: only what differs from a built-in rule set
        base = resources.files("bohnteach.data.rulesets").joinpath(f"{raw.pop('based_on')}.toml")
        raw = _merged(tomllib.loads(base.read_text("utf-8")), raw)
    defaults = raw["defaults"]
    edition = find_edition(raw.get("edition", "base"))
    return RuleSet(
        name=raw["name"],
        title=raw["title"],
        sources=tuple(raw["sources"]),
        varieties=tuple(find_variety(k).key for k in raw["varieties"]),
        tie_break=raw["tie_break"],
        start_player=raw["start_player"],
        phase3_order=raw["phase3_order"],
        final_harvest_protection=raw["final_harvest_protection"],
        by_players={
            int(n): _player_rules(int(n), defaults, own) for n, own in raw["players"].items()
        },
        sexes={k: dict(v) for k, v in raw.get("sexes", {}).items()},
        sex_meters={
            k: {s: check_meter(m, f"{raw['name']}.toml", f"sex_meters.{k}.{s}") for s, m in v.items()}
            for k, v in raw.get("sex_meters", {}).items()
        },
        meter_assumption=raw.get("meter_assumption", ""),
        other_cards=tuple(find_variety(k).key for k in raw.get("other_cards", ())),
        edition=edition.name,
        settings=edition.read_settings(raw.get(edition.name, {}), f"{raw['name']}.toml"),
    )


@lru_cache(maxsize=None)
def _builtin(name: str) -> RuleSet:
    text = resources.files("bohnteach.data.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return ruleset_from_toml(text)


def ruleset_names() -> list[str]:
    return list(_builtin_names())


@lru_cache(maxsize=None)
def _builtin_names() -> tuple[str, ...]:
    """The package's rule set files, listed once (listing the folder took 75 µs a call)."""
    folder = resources.files("bohnteach.data.rulesets")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def find_ruleset(name: object) -> RuleSet:
    """The built-in rule set called ``name`` (``amigo``, ``online``, …), or ``name`` itself
    when it is a ``RuleSet``; ``ValueError`` for anything else."""
    if isinstance(name, RuleSet):
        return name
    key = str(name).strip().lower()
    if key not in _builtin_names():
        raise ValueError(
            f"Unbekanntes Regelwerk {name!r}. Bekannt sind: {', '.join(ruleset_names())}"
        )
    return _builtin(key)


# ---- Bohnometers printed on the user's own cards (docs/ladybohn.md) -----------------------
class MeterFileError(ValueError):
    """A meter file (or meter table) that cannot be used: which file, which key, and why."""

    def __init__(self, path: object, key: str, reason: str):
        self.path = str(path)
        self.key = key
        self.reason = reason
        super().__init__(f"{self.path}, {key}: {reason}")


_DASHES = ("-", "–", "—")
_SEX_REASON = {
    "B": "Babybohnen haben kein Bohnometer (lady.baby-no-meter); erlaubt sind nur m und w.",
    None: "Erlaubt sind nur m (männlich) und w (weiblich).",
}


def check_meter(values: object, path: object = "", key: str = "") -> Meter:
    """A Bohnometer as 4 card counts for 1, 2, 3, 4 Taler (0 or "–" = step not printed).

    Raises ``MeterFileError`` when it has not exactly 4 entries, an entry is no whole
    number ≥ 0, no step is printed, or the counts do not rise strictly from step to step.
    """
    if not isinstance(values, (list, tuple)):
        raise MeterFileError(path, key, f"Erwartet wird eine Liste mit 4 Zahlen, nicht {values!r}.")
    if len(values) != 4:
        raise MeterFileError(
            path, key,
            f"Ein Bohnometer hat genau 4 Werte (Karten für 1, 2, 3 und 4 Taler; 0 oder „–“ "
            f"für eine Stufe, die nicht aufgedruckt ist), hier sind es {len(values)}.",
        )
    meter: list[int] = []
    for step, raw in enumerate(values, start=1):
        if isinstance(raw, str) and raw.strip() in _DASHES:
            raw = 0
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
            raise MeterFileError(
                path, key, f"Der Wert für {step} Taler muss eine ganze Zahl ≥ 0 oder „–“ sein, nicht {raw!r}."
            )
        meter.append(raw)
    printed = [(step, n) for step, n in enumerate(meter, start=1) if n]
    if not printed:
        raise MeterFileError(path, key, "Mindestens eine Talerstufe muss eine Kartenzahl haben.")
    for (s1, n1), (s2, n2) in zip(printed, printed[1:]):
        if n2 <= n1:
            raise MeterFileError(
                path, key,
                f"Die Kartenzahlen müssen mit jeder Talerstufe steigen: {s1} Taler bei {n1} "
                f"Karten, {s2} Taler bei {n2} Karten geht nicht.",
            )
    return tuple(meter)  # type: ignore[return-value]


def _meter_variety(rules: RuleSet, name: str, path: object, key: str) -> str:
    try:
        variety = find_variety(name)
    except ValueError:
        known = ", ".join(find_variety(v).de for v in rules.varieties)
        raise MeterFileError(path, key, f"Unbekannte Bohnensorte. In {rules.title} gibt es: {known}.") from None
    if variety.key not in rules.varieties:
        known = ", ".join(find_variety(v).de for v in rules.varieties)
        raise MeterFileError(
            path, key, f"Die {variety.de} kommt in {rules.title} nicht vor. Es gibt: {known}."
        )
    return variety.key


def read_meter_toml(path: Path) -> dict[str, Any]:
    """The TOML table of a user's meter file; ``MeterFileError`` if it is missing,
    unreadable or no valid TOML."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MeterFileError(path, "(Datei)", "Die Datei gibt es nicht.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise MeterFileError(path, "(Datei)", f"Die Datei lässt sich nicht lesen: {error}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MeterFileError(path, "(TOML)", f"Kein gültiges TOML: {error}") from None


def load_meter_file(path: str | Path, ruleset: str | RuleSet = "ladybohn") -> dict[str, dict[str, Meter]]:
    """Read and check a TOML file with the meters printed on one's own cards.

    One table per variety (German or English name, e.g. ``[blue]`` or ``["Blaue Bohne"]``)
    with ``m`` and/or ``w`` = 4 card counts for 1, 2, 3, 4 Taler. Returns variety key ->
    {sex: meter}. Raises ``MeterFileError`` naming the file, the key and the reason.
    """
    rules = find_ruleset(ruleset)
    path = Path(path)
    name = path.name
    raw = read_meter_toml(path)
    if not rules.sexes:
        raise MeterFileError(path, "(Datei)", f"{rules.title} hat keine m/w/B-Karten und keine angenommenen "
                             "Bohnometer: alle sind aufgedruckt. Eigene Werte nehmen Ladybohn und Indiana Bohnes.")
    meters: dict[str, dict[str, Meter]] = {}
    seen: dict[str, str] = {}
    for key, table in raw.items():
        variety = _meter_variety(rules, key, name, f"[{key}]")
        if variety in seen:
            raise MeterFileError(
                name, f"[{key}]", f"Dieselbe Sorte steht schon unter [{seen[variety]}]."
            )
        seen[variety] = key
        if not isinstance(table, dict):
            raise MeterFileError(
                name, key, "Erwartet wird eine Tabelle, z. B. [blue] mit m = [4, 6, 8, 10] und w = [...]."
            )
        if not table:
            raise MeterFileError(name, f"[{key}]", "Die Tabelle ist leer; erwartet werden m und/oder w.")
        for sex, values in table.items():
            label = f"[{key}].{sex}"
            if sex not in ("m", "w"):
                raise MeterFileError(name, label, _SEX_REASON.get(sex, _SEX_REASON[None]))
            if not rules.sexes[variety].get(sex):
                raise MeterFileError(name, label, f"Diese Karte gibt es in {rules.title} nicht.")
            meters.setdefault(variety, {})[sex] = check_meter(values, name, label)
    if not meters:
        raise MeterFileError(name, "(Datei)", "Die Datei enthält keine Bohnometer.")
    return meters


def load_ruleset_with_meters(ruleset: object, path: object) -> RuleSet:
    """``ruleset`` (name or RuleSet) with the meters from the user's file ``path`` (a new
    frozen RuleSet) – the one signature for every edition: the edition reads its own
    format (``Edition.read_meters``: Indiana's new varieties), else Ladybohn's m/w tables
    (``load_meter_file``). ``MeterFileError`` names file, key and reason, also for
    arguments in the wrong order."""
    def is_name(x: object) -> bool:
        return isinstance(x, RuleSet) or (isinstance(x, str) and x.strip().lower() in _builtin_names())

    looks_like_file = isinstance(ruleset, Path) or (isinstance(ruleset, str) and ruleset.strip().endswith(".toml"))
    if looks_like_file or (is_name(path) and not is_name(ruleset)):
        raise MeterFileError(str(path)[:60], "(Aufruf)", "Erst das Regelwerk, dann die Datei: "
                             "load_ruleset_with_meters(\"indiana\", \"meine_karten.toml\").")
    if not isinstance(path, (str, Path)):
        raise MeterFileError(repr(path)[:60], "(Aufruf)", "Die Bohnometer-Datei wird als Pfad angegeben "
                             "(Text oder pathlib.Path).")
    rules = find_ruleset(ruleset)
    own = find_edition(rules.edition).read_meters(rules, Path(path))
    return own if own is not None else rules.with_meters(load_meter_file(path, rules), Path(path).name)


__all__ = [
    "MeterFileError", "PlayerCountRules", "RuleSet", "all_varieties", "check_meter",
    "find_ruleset", "load_meter_file", "load_ruleset_with_meters", "read_meter_toml", "ruleset_names",
]
