"""Ladybohn's Bohnometers printed on one's own cards (docs/ladybohn.md): a meter file or
table with ``m`` and/or ``w`` per variety, checked and merged into a rule set."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from bohnteach.game.beans import Meter, find_variety
from bohnteach.game.errors import Phrase, Term, Terms
from bohnteach.i18n import N_, _
from bohnteach.game.rulesets import (
    MeterFileError, RuleSet, check_meter, find_ruleset, meter_variety, read_meter_toml,
)

_TRAIT_REASON = {  # N_: translated where raised (the reader's language, i18n.current)
    "B": N_("Babybohnen haben kein Bohnometer (lady.baby-no-meter); erlaubt sind nur m und w."),
    None: N_("Erlaubt sind nur m (männlich) und w (weiblich)."),
}


def with_meters(rules: RuleSet, meters: Mapping[str, Mapping[str, object]], source: str = "") -> RuleSet:
    """A new rule set with the Bohnometers printed on the user's cards.

    ``meters`` maps variety keys to ``{"m": meter, "w": meter}`` (checked like a meter
    file, see ``load_meter_file``); varieties or sexes left out keep their values. The
    assumption note is cleared when every meter is replaced, otherwise it names the
    ones that are still assumed; ``meter_source`` says where the values came from.
    """
    if not rules.traits:
        raise ValueError(f"{rules.title}: Eigene Bohnometer gibt es nur für Karten mit m/w/B.")
    where = source or "eigene Werte"
    merged = {v: dict(by_sex) for v, by_sex in rules.trait_meters.items()}
    for key, by_sex in meters.items():
        variety = meter_variety(rules, key, where, key)
        for sex, values in by_sex.items():
            label = f"{key}.{sex}"
            if sex not in ("m", "w"):
                raise MeterFileError(where, label, _(_TRAIT_REASON.get(sex, _TRAIT_REASON[None])))
            merged.setdefault(variety, {})[sex] = check_meter(values, where, label)
    given = {(meter_variety(rules, k, where, k), s) for k, by_sex in meters.items() for s in by_sex}
    still = [
        Phrase("{variety} ({sex})", variety=Term.variety(find_variety(v).de), sex=s) for v in rules.varieties
        for s in ("m", "w") if rules.traits.get(v, {}).get(s) and (v, s) not in given
    ]
    if still and rules.meter_assumption:  # Phrases: German as str, translated where shown
        note = Phrase("Werte aus {file}; weiterhin angenommen: {still}.", file=where, still=Terms(still))
    else:
        note = ""
    return replace(rules, trait_meters=merged, meter_assumption=note,
                   meter_source=Phrase("Werte aus {file}", file=where))


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
    if not rules.traits:
        raise MeterFileError(path, _("(Datei)"), _("{rules} hat keine m/w/B-Karten.").format(rules=_(rules.title)))
    meters: dict[str, dict[str, Meter]] = {}
    seen: dict[str, str] = {}
    for key, table in raw.items():
        variety = meter_variety(rules, key, name, f"[{key}]")
        if variety in seen:
            raise MeterFileError(
                name, f"[{key}]", _("Dieselbe Sorte steht schon unter [{key}].").format(key=seen[variety])
            )
        seen[variety] = key
        if not isinstance(table, dict):
            raise MeterFileError(
                name, key, _("Erwartet wird eine Tabelle, z. B. [blue] mit m = [4, 6, 8, 10] und w = [...].")
            )
        if not table:
            raise MeterFileError(name, f"[{key}]", _("Die Tabelle ist leer; erwartet werden m und/oder w."))
        for sex, values in table.items():
            label = f"[{key}].{sex}"
            if sex not in ("m", "w"):
                raise MeterFileError(name, label, _(_TRAIT_REASON.get(sex, _TRAIT_REASON[None])))
            if not rules.traits[variety].get(sex):
                raise MeterFileError(name, label,
                                     _("Diese Karte gibt es in {rules} nicht.").format(rules=_(rules.title)))
            meters.setdefault(variety, {})[sex] = check_meter(values, name, label)
    if not meters:
        raise MeterFileError(name, _("(Datei)"), _("Die Datei enthält keine Bohnometer."))
    return meters


def load_ruleset_with_meters(ruleset: object, path: str | Path) -> RuleSet:
    """``ruleset`` with the meters from the user's file ``path`` (a new frozen RuleSet)."""
    rules = find_ruleset(ruleset)
    return with_meters(rules, load_meter_file(path, rules), Path(path).name)


__all__ = ["load_meter_file", "load_ruleset_with_meters", "with_meters"]
