"""Frozen rule sets, one per rulebook, loaded from ``data/rulesets/*.toml`` (listed in docs/rules.md, „Regelwerke“).

Every difference between the rulebooks is a data field here; the engine reads the fields
and never asks for a rule set by name. Rules of an edition are switched on by
``edition = "…"`` and configured in the TOML table named after it (``RuleSet.settings``);
cards with a trait (``[traits.<variety>]``, ``[trait_meters.<variety>]``) are data here,
what a trait means is the edition's.
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
from bohnteach.game.errors import MeterFileError

Trait = str | None
"""A card's trait (``CardInfo.trait``); None in a deck without traits."""


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
    """``any`` (p3.plant-all: in any order); another order is an edition's rule, which its
    hook ``phase3_first`` reads."""
    final_harvest_protection: bool
    by_players: dict[int, PlayerCountRules] = field(repr=False)
    traits: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    """variety -> {trait: number of cards}; empty where cards have no trait."""
    trait_meters: dict[str, dict[str, Meter]] = field(default_factory=dict, repr=False)
    """variety -> {trait: meter}; a trait left out has no meter (``meter_for`` → None)."""
    meter_assumption: str = ""
    """Non-empty where the meters are an assumption, not printed values (shown to users)."""
    meter_rule: str = ""
    """The rule the assumed meters belong to (its chip beside ``meter_assumption``)."""
    meter_source: str = ""
    """Where user-supplied meters came from (``Werte aus meine_karten.toml``), else empty."""
    edition: str = "base"
    """The edition whose rules plug into the engine (``game/edition.py``)."""
    settings: Any = None
    """That edition's own settings, read from the TOML table named after it."""
    other_cards: tuple[str, ...] = ()
    """Card kinds of the deck that are no beans (an edition's tools and actions),
    ``count`` cards each (data/varieties.toml); they get ids after the bean cards."""
    meters: dict[str, Meter] = field(default_factory=dict, repr=False)
    """Meters from the user's own file that replace a variety's assumed one."""

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

    def card_specs(self, players: int) -> list[tuple[str, Trait]]:
        """One (variety key, trait) entry per card of the deck, in a fixed order."""
        specs: list[tuple[str, Trait]] = []
        for v in self.variety_list(players):
            if self.traits:
                for trait, n in self.traits[v.key].items():
                    specs += [(v.key, trait)] * n
            else:
                specs += [(v.key, None)] * v.count
        for key in self.other_cards:
            specs += [(key, None)] * find_variety(key).count
        return specs

    def meter_for(self, variety: str, trait: Trait = None) -> Meter | None:
        """The Bohnometer printed on a card; ``None`` for a trait without one."""
        if self.trait_meters and trait is not None:
            return self.trait_meters[variety].get(trait)
        if self.meters and variety in self.meters:
            return self.meters[variety]
        return find_variety(variety).meter

    def with_meters(self, meters: Mapping[str, Mapping[str, object]], source: str = "") -> RuleSet:
        """A new rule set with the Bohnometers printed on the user's cards (``meters``:
        variety -> {trait: meter}), checked by the rule set's edition; ``ValueError`` where
        the edition has no such meters."""
        return find_edition(self.edition).with_meters(self, meters, source)


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
    if raw["phase3_order"] != "any" and edition.phase3_first is None:
        raise ValueError(f"{raw['name']}.toml: phase3_order = {raw['phase3_order']!r} kennt die Edition "
                         f"„{edition.title}“ nicht (sie hat nur „any“).")
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
        traits={k: dict(v) for k, v in raw.get("traits", {}).items()},
        trait_meters={
            k: {s: check_meter(m, f"{raw['name']}.toml", f"trait_meters.{k}.{s}") for s, m in v.items()}
            for k, v in raw.get("trait_meters", {}).items()
        },
        meter_assumption=raw.get("meter_assumption", ""),
        meter_rule=raw.get("meter_rule", ""),
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


# ---- Bohnometers printed on the user's own cards (read by the editions) -------------------
_DASHES = ("-", "–", "—")


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


def meter_variety(rules: RuleSet, name: str, path: object, key: str) -> str:
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


def load_ruleset_with_meters(ruleset: object, path: object) -> RuleSet:
    """``ruleset`` (name or RuleSet) with the meters from the user's file ``path`` (a new
    frozen RuleSet) – the one signature for every edition: the rule set's edition reads
    its own format (``Edition.load_ruleset_with_meters``). ``MeterFileError`` names file, key and reason, also for arguments in
    the wrong order."""
    def is_name(x: object) -> bool:
        return isinstance(x, RuleSet) or (isinstance(x, str) and x.strip().lower() in _builtin_names())

    looks_like_file = isinstance(ruleset, Path) or (isinstance(ruleset, str) and ruleset.strip().endswith(".toml"))
    if looks_like_file or (is_name(path) and not is_name(ruleset)):
        raise MeterFileError(str(path)[:60], "(Aufruf)", "Erst das Regelwerk, dann die Datei: "
                             "load_ruleset_with_meters(regelwerk, \"meine_karten.toml\").")
    if not isinstance(path, (str, Path)):
        raise MeterFileError(repr(path)[:60], "(Aufruf)", "Die Bohnometer-Datei wird als Pfad angegeben "
                             "(Text oder pathlib.Path).")
    rules = find_ruleset(ruleset)
    return find_edition(rules.edition).load_ruleset_with_meters(rules, Path(path))


__all__ = [
    "MeterFileError", "PlayerCountRules", "RuleSet", "all_varieties", "check_meter",
    "find_ruleset", "load_ruleset_with_meters", "meter_variety", "read_meter_toml", "ruleset_names",
]
