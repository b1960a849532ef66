"""Ladybohn (seed 003) as an edition: the hooks of ``game/edition.py`` over ``rules.py``.

Everything of Ladybohn lives in this folder or is pointed to from here: its rules
(``rules.py``), its rule set (``data/rulesets/ladybohn.toml``: ``edition = "ladybohn"``
and the ``[ladybohn]`` settings), its rule texts (``lady.*`` in ``data/rules.toml``), its
scenes (``content/scenes/files/l_*.scene``), its Mach-du cases (``cases.py``, chapter
``ladybohn``) and its teaching half (``teaching/``: the chapter page for ``notebooks/14_Ladybohn.ipynb``
and its chart).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bohnteach.editions.ladybohn import cases, meters, notation, rules
from bohnteach.editions.ladybohn.rules import *  # noqa: F403 - the rules' public names
from bohnteach.editions.ladybohn.rules import (
    IMMEDIATE_ZONE, LadybohnSettings, immediate_fields, pending, settings,
)
from bohnteach.game.actions import Plant
from bohnteach.game.edition import Edition, View, OfferView, Zone, ZoneDisplay, register_edition
from bohnteach.game.beans import find_variety
from bohnteach.game.errors import Phrase, Term
from bohnteach.game.words import trait_tag
from bohnteach.i18n import N_
from bohnteach.game.engine import harvest_coins, to_plant

_IMMEDIATE = Zone(IMMEDIATE_ZONE, per_player=True, title=N_("Sofort pflanzen"),
                  rule="lady.baby-trade-immediate")


class LadybohnView(View):
    """What a viewer sees of Ladybohn beside its rules: an offer names only the varieties
    of hand cards (lady.offer-variety-only), the babies waiting to be planted, the baby
    lifts as Mach-du buttons and what a lift did, its Mach-du cases and names."""

    # the words below are German, marked N_ (or Phrases): translated where they are shown
    label = "Ladybohn"
    comparison = {N_("Phase 3: wer pflanzt wann"): ("", ("lady.p3-order",)),
                  N_("Kartenmerkmale"): (N_("Geschlechter"), ("lady.sexes",))}
    comparison_cells = {
        "traits": N_("♂/♀/Baby"),
        "meters": N_("eigene Bohnometer für ♂ und ♀, Babys ohne"),
        "phase3_order:active_first": N_("erst die aktive Person, dann reihum im Uhrzeigersinn"),
    }
    no_meter_note = N_("Baby oben: kein Bohnometer, die Ernte bringt 0 Taler.")
    hidden_card_title = N_("Geschlecht nicht genannt")
    tryit_cases = cases.CASES

    def offer_view(self, s, viewer, offer=None) -> OfferView | None:
        return rules.offer_view(s, viewer, offer)

    hidden_offer = (N_("Beim Anbieten nennt man nur die Sorte, ob männlich, weiblich oder Baby, "
                       "zeigt sich erst nach dem Handel."), "lady.offer-variety-only")

    def offer_hides_cards(self, s) -> bool:
        return settings(s).offer_names_variety_only

    def choice_moves(self, s, seat: int, plantable) -> list[tuple[str, Plant]]:
        """lady.baby-lift: each female on a field of the baby's variety, moved 1 … up to
        ``baby_lift`` places (also past the top: the engine refuses that and says why)."""
        limit = settings(s).baby_lift
        if not limit:
            return []
        out: list[tuple[str, Plant]] = []
        for card in plantable:
            if not rules.is_baby(s, card):
                continue
            for k, cards in enumerate(s.players[seat].fields):
                if not cards or s.variety[cards[0]] != s.variety[card]:
                    continue
                for index, female in enumerate(cards):
                    if not rules.is_female(s, female):
                        continue
                    for by in range(1, limit + 1):
                        where = dict(field=k + 1, place=index + 1, by=by)
                        label = (Phrase("Baby auf Feld {field}: ♀ w ({place}. von unten) {by} Platz hoch", **where)
                                 if by == 1 else
                                 Phrase("Baby auf Feld {field}: ♀ w ({place}. von unten) {by} Plätze hoch", **where))
                        out.append((label, Plant(seat, k, card, (female, by))))
        return out

    def choice_note(self, s, events) -> tuple[str, str, list[str]] | None:
        """After a baby lift: which female moved, what lies on top now, what it would bring."""
        for event in events:
            if event and event[0] == "lift":
                _, seat, field, _female, by = event
                top = s.players[seat].fields[field][-1]
                coins = harvest_coins(s, seat, field)
                on_top = Phrase("das Baby – es hat kein Bohnometer") if rules.is_baby(s, top) else Phrase(
                    "{variety} ({sex})", variety=Term.variety(find_variety(s.variety[top]).de),
                    sex=Term(trait_tag(s.cards[top].trait, "symbol")))
                said = dict(by=by, field=field + 1, top=on_top, coins=coins)
                text = (Phrase("Die weibliche Bohne ist {by} Platz nach oben gerückt. Oben auf Feld {field} liegt "
                               "jetzt {top}: Eine Ernte brächte {coins} Taler.", **said) if by == 1 else
                        Phrase("Die weibliche Bohne ist {by} Plätze nach oben gerückt. Oben auf Feld {field} liegt "
                               "jetzt {top}: Eine Ernte brächte {coins} Taler.", **said))
                return (N_("Das Baby hat geschoben"), text, ["lady.baby-lift", "lady.top-card"])
        return None

    def zones_for_display(self, s, player: int) -> list[ZoneDisplay]:
        waiting = pending(s, player)
        if not waiting:
            return []
        fields = immediate_fields(s, player, waiting[0])
        where = rules.field_list(fields) or Phrase("ihr Feld")
        note = Phrase("eingetauschte Babybohne, muss jetzt auf {where} (vorher keine Ernte)", where=where)
        return [ZoneDisplay(_IMMEDIATE, tuple(waiting), note, css="bt-waiting")]


class Ladybohn(Edition):
    view = LadybohnView()
    name = "ladybohn"
    title = "Ladybohn – Manche mögen's heiss"
    rule_prefix = "lady"
    zones = (_IMMEDIATE,)
    notation_words = {
        "attribute": {
            "w": "w", "weiblich": "w", "weibchen": "w", "m": "m", "männlich": "m",
            "maennlich": "m", "männchen": "m", "b": "B", "baby": "B", "babybohne": "B",
        },
        "adjective": {
            "weibliche": "w", "weiblichen": "w", "männliche": "m", "männlichen": "m",
            "maennliche": "m", "maennlichen": "m",
        },
        "label": {"w": "w", "m": "m", "B": "Baby"},
    }
    notation_hint = "bei Ladybohn (w), (m), (Baby)"
    trait_words = {
        "word": {"m": N_("männlich"), "w": N_("weiblich"), "B": N_("Baby")},  # translated where shown
        "short": {"m": N_("m"), "w": N_("w"), "B": N_("Baby")},
        "symbol": {"m": N_("♂ m"), "w": N_("♀ w"), "B": "Baby"},
        "mark": {"m": "♂", "w": "♀", "B": "B"},
    }
    choice_rule = "lady.baby-lift"
    choice_size = 2  # (female card id, places)
    choice_pattern = notation.LIFT_PATTERN

    def read_settings(self, raw: Mapping[str, Any], source: str) -> LadybohnSettings:
        return LadybohnSettings.from_toml(raw, source)

    def settings_summary(self, found: Any) -> list[str]:
        if not isinstance(found, LadybohnSettings):
            return []
        lines = (  # Phrases: German as str, translated where shown (render.language.term)
            (found.baby_lift, Phrase("Baby hebt ein Weibchen an")),
            (found.baby_trade_immediate, Phrase("eingetauschtes Baby sofort pflanzen")),
            (found.female_garden_from_discard, Phrase("♀ Gartenbohne nimmt Taler vom Ablagestapel")),
            (found.offer_names_variety_only, Phrase("beim Anbieten nur die Sorte nennen")),
        )
        return [label for on, label in lines if on]

    def saved_zone_problem(self, ruleset, key, cards, sexes, phase, offer_open) -> str | None:
        """lady.baby-trade-immediate: babies wait there only in phase 2, right after a deal."""
        if key != IMMEDIATE_ZONE or not cards:
            return None
        found = ruleset.settings
        if not (isinstance(found, LadybohnSettings) and found.baby_trade_immediate):
            return "Diese Regel (eingetauschtes Baby sofort pflanzen) gilt in diesem Regelwerk nicht."
        if phase != 2 or offer_open:
            return "Wartende Babybohnen gibt es nur in Phase 2 direkt nach einem Handel."
        if any(sexes[c] != "B" for c in cards):
            return "Hier warten nur Babybohnen auf ihr Feld."
        return None

    def no_choice_text(self, s):
        return rules.no_lift_text(s)

    def with_meters(self, ruleset, found, source: str = ""):
        return meters.with_meters(ruleset, found, source)

    def load_ruleset_with_meters(self, ruleset, path):
        return meters.load_ruleset_with_meters(ruleset, path)

    # ---- hooks ------------------------------------------------------------------------------
    def waiting_seats(self, s) -> list[int]:  # lady.baby-trade-immediate
        return rules.pending_seats(s)

    def waiting_plants(self, s, seat: int) -> list[tuple[int, list[int]]]:
        return [(card, immediate_fields(s, seat, card)) for card in pending(s, seat)]

    def waiting_cards(self, s, player: int) -> list[int]:
        return pending(s, player)

    def check_blocked(self, s) -> None:
        rules.check_nothing_pending(s)

    def check_plant_out_of_phase(self, s, a) -> tuple[int, str] | None:
        if pending(s, a.player):
            return rules.check_immediate_plant(s, a.player, a.field, a.card), "lady.baby-trade-immediate"
        rules.check_nothing_pending(s)
        return None

    def take_planted(self, s, player: int, card: int) -> None:
        rules.release(s, player, card)

    def phase3_first(self, s, player: int) -> tuple[int, str] | None:
        """lady.p3-order (``phase3_order = "active_first"``): the earlier player, from the
        active one clockwise, who must plant before ``player``."""
        if s.ruleset.phase3_order != "active_first":
            return None
        n = len(s.players)
        for k in range(n):
            seat = (s.active + k) % n
            if seat == player:
                return None
            if to_plant(s, seat):
                return seat, "lady.p3-order"
        return None

    def parse_plant_choice(self, s, player: int, field: int, who: str, by: str, sentence: str):
        return notation.parse_lift(s, player, field, who, by, sentence)  # lady.baby-lift

    def format_plant_choice(self, s, a) -> str:
        return notation.lift_text(s, a)

    def check_plant(self, s, player: int, field: int, card: int, lift: object):
        return rules.check_lift(s, player, field, card, lift)  # lady.baby-lift

    def after_plant(self, s, player: int, field: int, lift) -> None:
        rules.apply_lift(s, player, field, lift)

    def plant_choices(self, s, seat: int, field: int, card: int) -> list:
        return rules.lift_choices(s, seat, field, card)

    def check_harvest(self, s, player: int) -> None:
        rules.check_harvest(s, player)

    def harvest_coins(self, s, player: int, field: int) -> int | None:
        if rules.coins_from_piles(s, player, field):  # lady.female-garden
            return rules.pile_coins(s, player, field)
        return None

    def harvest(self, s, player: int, field: int) -> bool | None:
        if rules.coins_from_piles(s, player, field):  # lady.female-garden
            return rules.harvest_from_piles(s, player, field)
        return None

    def receive(self, s, player: int, card: int) -> bool:
        if rules.plants_at_once(s, player, card):
            rules.hold(s, player, card)
            return True
        return False

    def after_deal(self, s, offer) -> None:
        rules.after_deal(s, offer)


LADYBOHN = register_edition(Ladybohn())

__all__ = [*rules.__all__, "LADYBOHN", "Ladybohn", "settings"]  # noqa: F405
