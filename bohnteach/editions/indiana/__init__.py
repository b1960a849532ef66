"""Indiana Bohnes (fan expansion) as an edition: the hooks of ``game/edition.py`` over ``rules.py``.

Everything of Indiana lives in this folder or is pointed to from here: its rules
(``rules.py``), its rule sets (``data/rulesets/indiana*.toml``: ``edition = "indiana"``
and the ``[indiana]`` settings), its card kinds (``data/varieties.toml``), its rule texts
(``indy.*`` in ``data/rules.toml``) and docs/indiana.md (Auslegungen, assumed meters).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bohnteach.editions.indiana import cases, notation, rules
from bohnteach.editions.indiana.rules import *  # noqa: F403 - the rules' public names
from bohnteach.editions.indiana.rules import (
    ADVENTURER, CARRIER, CARRIER_LAID, LOAD, PATH, SABOHNTAGE, SABOTAGED, SNAKE, SUCCESS, SUPPLY, TEMPLE,
    BuyCard, FieldToAdventurer, IndianaSettings, LayCarrier, LoadCarrier, Sabotage, SellAdventurer,
    VisitTemple, carrier_position, settings,
)
from bohnteach.game.actions import Plant
from bohnteach.game.beans import find_variety
from bohnteach.game.edition import Edition, View, Zone, ZoneDisplay, register_edition
from bohnteach.game.rulesets import (
    MeterFileError, RuleSet, check_meter, find_ruleset, load_ruleset_with_meters, read_meter_toml,
)
from bohnteach.game.errors import Phrase, Term, Terms
from bohnteach.game.state import Phase
from bohnteach.i18n import N_, _, current, pgettext

# Zone titles are the scene files' words too (German, as the notation reads them); marked
# N_ or Phrases, they are translated where a table shows them
_TEMPLE_ZONES = tuple(Zone(k, per_player=False, title=Phrase("Bohnentempel, Stelle {place}", place=i),
                           rule="indy.temple-setup")
                      for i, k in enumerate(TEMPLE, start=1))
_ZONES = {
    ADVENTURER: Zone(ADVENTURER, True, N_("Abenteurer"), "indy.adventurer"),
    CARRIER: Zone(CARRIER, True, N_("Trägerkarte auf der Hand"), "indy.carrier"),
    CARRIER_LAID: Zone(CARRIER_LAID, True, N_("Trägerkarte über dem Abenteurer"), "indy.carrier"),
    LOAD: Zone(LOAD, True, N_("Stapel auf der Trägerkarte"), "indy.carrier-load"),
    PATH: Zone(PATH, True, N_("Wegkarte"), "indy.path-card"),
    SABOHNTAGE: Zone(SABOHNTAGE, True, N_("Sabohntagekarte"), "indy.sabohntage"),
    SABOTAGED: Zone(SABOTAGED, True, N_("Sabohntagekarte auf dem Abenteurer"), "indy.sabohntage"),
}
_SUPPLY = Zone(SUPPLY, False, N_("Vorrat (Weg- und Trägerkarten)"), "indy.buy")

OUTCOME_DE = {  # N_: translated where shown
    rules.MATCH: N_("Treffer: Stapel und Karte"),
    rules.OTHER: N_("andere Tempelsorte: Stapel"),
    rules.PLANT: N_("fremde Sorte: selbst anpflanzen"),
    rules.SNAKE_TEMPLE: N_("Schlange zu den Schlangen im Tempel"),
    rules.SNAKE_ADVENTURER: N_("Schlange an den Abenteurer"),
    rules.SNAKE_WANTED: N_("Schlange auf Schlange: leer ausgegangen"),
    rules.BY_PATH: N_("mit der Wegkarte: einzelne Karte"),
    rules.LOADED: N_("Stapel auf die Trägerkarte"),
}
"""German words for the visit outcomes (event ``("visit", player, variety, outcome, card)``)."""


class IndianaView(View):
    """What a viewer sees of Indiana Bohnes beside its rules: the adventurer, carrier and
    cards of each player, the temple in the middle, the coins on Home Sweet Home, the
    temple visits, purchases and sales as Mach-du buttons, its Mach-du cases and names."""

    label = "Indiana Bohnes"
    comparison = {N_("Erweiterung"): (N_("Tempel und Abenteurer"), ("indy.temple-setup", "indy.adventurer"))}
    tryit_cases = cases.CASES
    coin_place = N_("Home Sweet Home")  # the card's name, as printed

    def zones_for_display(self, s, player: int) -> list[ZoneDisplay]:
        """The player's Indiana zones to draw (the temple: ``table_zones_for_display``);
        a blocked adventurer and the Sabohntage card on one are marked red."""
        p = s.players[player]
        out = []
        for key, zone in _ZONES.items():
            cards = p.extra[key]
            if not cards and key != ADVENTURER:
                continue
            red = key == SABOTAGED or (key == ADVENTURER and rules.blocked(s, player))
            out.append(ZoneDisplay(zone, tuple(cards), self._note(s, player, key), "bt-blocked" if red else ""))
        return out

    def _note(self, s, player: int, key: str) -> str:
        if key == ADVENTURER:
            cards = s.players[player].extra[ADVENTURER]
            if not cards:
                return Phrase("leer")
            if rules.blocked(s, player):
                return Phrase("von Schlangenbohnen blockiert")
            if s.players[player].extra[SABOTAGED]:
                return Phrase("von der Sabohntagekarte blockiert")
            return Phrase("Verkauf brächte {coins} Taler", coins=rules.sale_coins(s, player))
        if key == CARRIER:
            return Phrase("an Stelle {place} der Hand", place=carrier_position(s, player))
        if key == LOAD:
            return Phrase("wird erst über den Abenteurer verkauft")
        if key == SABOTAGED:
            return Phrase("blockiert den Abenteurer, bis diese Person am Zug war")
        return ""

    def table_zones_for_display(self, s) -> list[ZoneDisplay]:
        """The temple's places (empty ones too) for the middle of the table."""
        out = []
        for zone in _TEMPLE_ZONES[: settings(s).temple_slots]:
            cards = s.extra[zone.key]
            if cards:
                note = Phrase("{count} × {variety}", count=len(cards),
                              variety=Term.variety(find_variety(s.variety[cards[0]]).de))
            else:
                note = Phrase("leere Stelle")
            out.append(ZoneDisplay(zone, tuple(cards), note))
        return out

    def action_phrase(self, s, action: Any) -> Phrase | None:
        """Indiana's own actions in the notation's words without the player (German, as the
        scene files write them), as Phrases: translated where a button or a log shows them."""
        a = action
        if isinstance(a, VisitTemple):
            variety = Term.variety(find_variety(a.variety).de)
            if a.path is True:
                return Phrase("geht mit der Wegkarte zum Tempel ({variety})", variety=variety)
            return Phrase("geht zum Tempel ({variety})", variety=variety)
        if isinstance(a, LoadCarrier):
            return Phrase("lädt die Trägerkarte ({variety})", variety=Term.variety(find_variety(a.variety).de))
        if isinstance(a, LayCarrier):
            return Phrase("legt die Trägerkarte ab")
        if isinstance(a, SellAdventurer):
            return Phrase("verkauft den Abenteurer")
        if isinstance(a, FieldToAdventurer) and isinstance(a.field, int) and not isinstance(a.field, bool):
            return Phrase("bringt Feld {field} zum Abenteurer", field=a.field + 1)
        if isinstance(a, BuyCard):
            return Phrase("kauft eine {card}", card=Term.variety(find_variety(a.kind).de))
        if isinstance(a, Sabotage) and isinstance(a.target, int) and 0 <= a.target < len(s.players):
            return Phrase("blockiert {name} mit der Sabohntagekarte", name=s.players[a.target].name)
        return None

    def try_moves(self, s, seat: int) -> list[tuple[str, list[tuple[str, Any]]]]:
        """Mach du!: the visit to every temple stack (and to the varieties of the revealed
        cards and the adventurer that are not in it), with the path card and onto the
        carrier; laying the carrier wherever it stands; the adventurer's sale and a field
        to him; both purchases; the Sabohntage card on each other player. Wrong ones stay
        in: the engine refuses them with the rule that says why (indy.blockade,
        indy.two-visits, indy.carrier, …)."""
        if s.phase is Phase.OVER:
            return []
        p = s.players[seat]
        name = p.name + " "

        def labelled(actions: list) -> list[tuple[str, Any]]:
            return [(self.action_phrase(s, a) or notation.format_action(s, a, p.name).removeprefix(name), a)
                    for a in actions]

        groups: list[tuple[str, list]] = []
        if seat == s.active and s.phase is Phase.TRADE:
            wanted = list(rules.temple_stacks(s))
            tempting = [s.variety[c] for c in s.revealed] + [rules.adventurer_variety(s, seat)]
            wanted += [v for v in dict.fromkeys(tempting) if v is not None and v not in wanted]
            visits = [VisitTemple(seat, v) for v in wanted]
            if p.extra[PATH]:
                visits += [VisitTemple(seat, v, True) for v in rules.temple_stacks(s)]
            if p.extra[CARRIER_LAID]:
                visits += [LoadCarrier(seat, v) for v in rules.temple_stacks(s)]
            groups.append((N_("Zum Tempel – welchen Stapel wünschst du dir?"), visits))
        if seat == s.active and p.extra[CARRIER]:
            groups.append((N_("Trägerkarte"), [LayCarrier(seat)]))
        keeper = [SellAdventurer(seat)] if p.extra[ADVENTURER] else []
        keeper += [FieldToAdventurer(seat, f) for f, cards in enumerate(p.fields) if cards]
        if keeper:
            groups.append((N_("Abenteurer"), keeper))
        buy = [BuyCard(seat, kind) for kind in rules.BUYABLE if not p.extra[kind]
               and not (kind == CARRIER and p.extra[CARRIER_LAID])]
        if buy:
            groups.append((N_("Kaufen"), buy))
        if seat == s.active and p.extra[SABOHNTAGE]:
            groups.append((N_("Sabohntagekarte"), [Sabotage(seat, t) for t in range(len(s.players)) if t != seat]))
        return [(title, labelled(actions)) for title, actions in groups]


class Indiana(Edition):
    view = IndianaView()
    name = "indiana"
    title = "Indiana Bohnes (Fan-Erweiterung)"
    rule_prefix = "indy"
    zones = (*_TEMPLE_ZONES, _SUPPLY, *_ZONES.values())
    actions = rules.RULES

    def read_settings(self, raw: Mapping[str, Any], source: str) -> IndianaSettings:
        return IndianaSettings.from_toml(raw, source)

    def settings_summary(self, found: Any) -> list[str]:
        if not isinstance(found, IndianaSettings):
            return []
        lines = [Phrase("Tempel mit {varieties} Sorten", varieties=found.temple_slots),
                 Phrase("höchstens {visits} Tempelgänge pro Zug", visits=found.max_visits),
                 Phrase("Wegkarte {path} Taler, Trägerkarte {carrier} Taler", path=found.path_cost,
                        carrier=found.carrier_cost)]
        if found.sabohntage:
            lines.append(Phrase("mit Sabohntagekarte"))
        return lines  # Phrases: German as str, translated where shown (render.language.term)

    def saved_zone_problem(self, ruleset, key, cards, sexes, phase, offer_open) -> str | None:
        """What a saved game may hold in Indiana's zones (kinds, one variety per stack)."""
        if not cards:
            return None
        kinds = [spec[0] for spec in ruleset.card_specs(ruleset.min_players)]
        found = [kinds[c] for c in cards]
        beans = all(find_variety(v).bean for v in found)
        if key == "deck":  # the Sabohntage card is shuffled in (variation); nothing else
            return None if all(find_variety(v).bean or v == SABOHNTAGE for v in found) else (
                "Im Nachziehstapel liegen nur Bohnen und die Sabohntagekarte.")
        if key in TEMPLE:
            own = ruleset.settings if isinstance(ruleset.settings, IndianaSettings) else rules.OFF
            if TEMPLE.index(key) >= own.temple_slots:
                return f"Der Tempel hat in diesem Regelwerk nur {own.temple_slots} Stellen."
            return None if beans and len(set(found)) == 1 else "Ein Tempelstapel hält Bohnen einer Sorte."
        if key == SUPPLY:
            return None if not any(find_variety(v).bean for v in found) else "Im Vorrat liegen keine Bohnen."
        if key in (ADVENTURER, LOAD):
            if not beans:
                return "Hier liegen nur Bohnen."
            parts = [v for i, v in enumerate(found) if i == 0 or found[i - 1] != v]
            if key == LOAD and len(parts) > 1:
                return "Auf der Trägerkarte liegt ein Stapel einer Sorte."
            if len(parts) > 2 or (len(parts) == 2 and parts[1] != SNAKE):
                return "Zwei Sorten liegen beim Abenteurer nur unter einer Schlangenblockade."
            return None
        want = {CARRIER: "carrier", CARRIER_LAID: "carrier", PATH: "path",
                SABOHNTAGE: SABOHNTAGE, SABOTAGED: SABOHNTAGE}.get(key)
        if want is None:
            return None
        if found != [want]:
            return f"Hier liegt genau eine {find_variety(want).de}."
        if key == SABOTAGED and not (isinstance(ruleset.settings, IndianaSettings) and ruleset.settings.sabohntage):
            return "In diesem Regelwerk wird ohne Sabohntagekarte gespielt."
        return None

    def saved_marks_problem(self, ruleset, marks: Mapping[str, Any], players: int, n_cards: int) -> str | None:
        """``visits`` (outcome codes), ``ahead`` (one list of hand cards per seat), ``carrier_start``,
        ``keep`` (cards failed visits forced on the active player)."""
        allowed = {"visits", "ahead", "carrier_start", "keep"}
        if set(marks) - allowed:
            return f"unbekannte Angaben {sorted(set(marks) - allowed)[:3]} (erlaubt: {', '.join(sorted(allowed))})."
        done = marks.get("visits", ())
        if not isinstance(done, (list, tuple)) or any(v not in rules.OUTCOME_RULE for v in done):
            return "visits nennt die Ausgänge der Tempelgänge dieses Zuges."
        own = ruleset.settings if isinstance(ruleset.settings, IndianaSettings) else rules.OFF
        if len(done) > own.max_visits or any(v not in SUCCESS for v in done[:-1]):
            return f"Höchstens {own.max_visits} Tempelgänge, ein zweiter nur nach einem erfolgreichen."
        ahead = marks.get("ahead", ())
        if not isinstance(ahead, (list, tuple)) or (ahead and len(ahead) != players) or not all(
            isinstance(a, (list, tuple)) and all(type(c) is int and 0 <= c < n_cards for c in a) for a in ahead
        ):
            return "ahead nennt für jede Person die Handkarten vor ihrer Trägerkarte."
        start = marks.get("carrier_start", 0)
        if type(start) is not int or not 0 <= start <= n_cards:
            return "carrier_start ist die Stelle der Trägerkarte zu Beginn des Zuges (0 = keine)."
        keep = marks.get("keep", ())
        if not isinstance(keep, (list, tuple)) or not all(type(c) is int and 0 <= c < n_cards for c in keep) \
                or len(keep) > done.count(rules.PLANT):
            return "keep nennt die Karten, die fehlgeschlagene Tempelgänge dieses Zuges brachten."
        return None

    def format_action(self, s, action, who: str) -> str | None:
        return notation.format_action(s, action, who)

    def parse_action(self, s, player: int, rest: str):
        return notation.parse_action(s, player, rest)

    # ---- hooks ------------------------------------------------------------------------------
    def setup(self, s) -> None:
        rules.setup(s)

    def reveal(self, s) -> list[int]:
        return rules.reveal(s)

    def draw(self, s, player: int) -> list[int]:
        return rules.draw_round(s, player)

    def legal_extra(self, s, seats: Sequence[int]) -> list:
        return rules.legal(s, seats)

    def final_scoring(self, s) -> None:
        rules.final_scoring(s)

    def check_plant(self, s, player: int, field: int, card: int, choice: Any) -> None:
        if choice is not None:  # Indiana has no plant choices (Ladybohn's lifts are)
            self.refuse_plant_choice(s, Plant(player, field, card, choice))
        rules.check_plant(s, player)

    def load_ruleset_with_meters(self, ruleset, path) -> RuleSet:
        return read_meters(ruleset, path)

    def check_trade_card(self, s, owner: int, card: int) -> None:
        rules.check_trade_card(s, owner, card)


INDIANA = register_edition(Indiana())


def indiana_ruleset(five_varieties: bool = False, sabohntage: bool = False) -> RuleSet:
    """The rule set ``indiana`` with the text's variations switched on (indy.five-varieties,
    indy.sabohntage); the built-in ``indiana_varianten`` has both. The result keeps the
    name ``indiana``: to load a save of it, pass it to ``Game.from_dict(data, ruleset)``."""
    base = find_ruleset("indiana")
    return replace(base, settings=settings_of(base).with_variations(five_varieties, sabohntage))


def settings_of(ruleset: RuleSet) -> IndianaSettings:
    found = ruleset.settings
    return found if isinstance(found, IndianaSettings) else rules.OFF


def read_meters(rules_: RuleSet, path: Path) -> RuleSet:
    """indy.meters: the rule set with the Bohnometers printed on the user's own cards, from
    a TOML file ``Schlangenbohne = [4, 7, 9, 11]`` and/or ``Buschbohne = [...]`` (cards for
    1–4 Taler, 0 or "–" = not printed). Raises ``MeterFileError`` naming file, key, reason.
    Reached through ``load_ruleset_with_meters("indiana", path)``. Its reasons are in the
    reader's language (``i18n.current``: the own-meters box speaks while it reads)."""
    raw = read_meter_toml(path)
    if not raw:
        raise MeterFileError(path.name, _("(Datei)"), _("Die Datei enthält keine Bohnometer."))
    meters = dict(rules_.meters)
    seen: dict[str, str] = {}
    for name, values in raw.items():
        try:
            key = find_variety(name).key
        except ValueError:
            key = ""
        if key not in rules.NEW_VARIETIES:
            snake, bush = (pgettext("variety", find_variety(v).de) for v in rules.NEW_VARIETIES)
            raise MeterFileError(path.name, name, _("Eigene Bohnometer gibt es hier nur für {snake} und "
                                                    "{bush}.").format(snake=snake, bush=bush))
        if key in seen:
            raise MeterFileError(path.name, name, _("Dieselbe Sorte steht schon unter {key}.").format(key=seen[key]))
        seen[key] = name
        if isinstance(values, dict):
            raise MeterFileError(path.name, f"[{name}]", _(
                "Hier steht eine Tabelle; erwartet wird eine Zeile wie {variety} = [4, 7, 9, 11] (Indiana-Karten "
                "haben kein m/w).").format(variety=find_variety(key).de if current().is_source else key))
        meters[key] = check_meter(values, path.name, name)
    still = [Term.variety(find_variety(v).de) for v in rules.NEW_VARIETIES if v not in meters]
    note = (Phrase("Werte aus {file}; weiterhin angenommen: {still}.", file=path.name, still=Terms(still))
            if still else "")
    return replace(rules_, meters=meters, meter_assumption=note,
                   meter_source=Phrase("Werte aus {file}", file=path.name))


# load_ruleset_with_meters is the top-level one (one signature: rule set, then file)
__all__ = [*rules.__all__, "INDIANA", "Indiana", "OUTCOME_DE", "indiana_ruleset", "load_ruleset_with_meters",
           "read_meters", "settings_of"]  # noqa: F405
