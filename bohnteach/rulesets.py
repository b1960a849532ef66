"""Frozen rule sets, one per rulebook, loaded from ``data/rulesets/*.toml`` (RULES.md §3).

Every difference between the rulebooks is a data field here; the engine reads the fields
and never asks for a rule set by name.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from .beans import Meter, Variety, all_varieties, find_variety

Sex = str | None  # "m", "w", "B" in Ladybohn; None in editions without sexes


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

    @property
    def min_players(self) -> int:
        return min(self.by_players)

    @property
    def max_players(self) -> int:
        return max(self.by_players)

    def for_players(self, players: int) -> PlayerCountRules:
        try:
            return self.by_players[players]
        except KeyError:
            raise ValueError(
                f"{self.title}: für {players} Personen gibt es keine Regeln "
                f"(möglich: {self.min_players}–{self.max_players})."
            ) from None

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
        return specs

    def meter_for(self, variety: str, sex: Sex = None) -> Meter | None:
        """The Bohnometer printed on a card; ``None`` for a baby bean (no meter)."""
        if sex == "B":
            return None
        if self.sex_meters and sex is not None:
            return self.sex_meters[variety][sex]
        return find_variety(variety).meter


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


def ruleset_from_toml(text: str) -> RuleSet:
    raw = tomllib.loads(text)
    defaults = raw["defaults"]
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
            k: {s: tuple(m) for s, m in v.items()} for k, v in raw.get("sex_meters", {}).items()
        },
        meter_assumption=raw.get("meter_assumption", ""),
    )


@lru_cache(maxsize=None)
def _builtin(name: str) -> RuleSet:
    text = resources.files("bohnteach.data.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return ruleset_from_toml(text)


def ruleset_names() -> list[str]:
    folder = resources.files("bohnteach.data.rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def find_ruleset(name: str | RuleSet) -> RuleSet:
    """The built-in rule set called ``name`` (``amigo``, ``online``, …)."""
    if isinstance(name, RuleSet):
        return name
    key = str(name).strip().lower()
    if key not in ruleset_names():
        raise ValueError(
            f"Unbekanntes Regelwerk {name!r}. Bekannt sind: {', '.join(ruleset_names())}"
        )
    return _builtin(key)


__all__ = ["PlayerCountRules", "RuleSet", "find_ruleset", "ruleset_names", "all_varieties"]
