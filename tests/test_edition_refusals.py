"""The editions' refusals (``editions/*/rules.py``) in both languages (issue 56).

Every refusal the two editions raise is built here from a table that triggers it. Its
German detail is pinned to the text the editions wrote as finished German sentences
before they became templates with parameters (byte for byte), and the same refusal is
shown in English under a strict translator: complete, and without a German word
(``tests/german_scan.py``). A last test makes sure that every template the two files
raise is triggered by one of the cases, so a new refusal needs a case here.
"""
from __future__ import annotations

from collections.abc import Callable

import pytest

from bohnteach.catalogues import ROOT, python_messages
from bohnteach.editions import indiana as indy
from bohnteach.editions.indiana import rules as indy_rules
from bohnteach.editions.ladybohn import rules as lady_rules
from bohnteach.game import engine
from bohnteach.game.actions import EndTrading, Harvest, Offer, Accept, Plant
from bohnteach.game.errors import Phrase, RuleViolation, Terms
from bohnteach.game.rulesets import find_ruleset
from bohnteach.game.state import Phase, State
from bohnteach.i18n import speaking, translator
from bohnteach.render.language import refusal_detail
from german_scan import german_words
from test_indiana import (
    carrier_game, game, give, grab, keep_hand, lay_carrier, sab_game, set_temple, take_sabohntage,
    trading, visit_table,
)
from test_ladybohn import lady_table, lift_table, trade_table


def _check(s: State, action) -> RuleViolation | None:
    return engine.check(s, action)


def _call(fn: Callable[[], object]) -> RuleViolation | None:
    try:
        fn()
    except RuleViolation as refusal:
        return refusal
    return None


# ---- Indiana Bohnes -----------------------------------------------------------------------------
def _adventurer(s: State, *stacks: tuple[str, int], seat: int = 0) -> State:
    for variety, n in stacks:
        give(s, seat, indy.ADVENTURER, variety, n)
    return s


def _supply_card(s: State, kind: str, seat: int, zone: str) -> None:
    card = next(c for c in s.extra[indy.SUPPLY] if s.variety[c] == kind)
    s.extra[indy.SUPPLY].remove(card)
    s.players[seat].extra[zone].append(card)


def _kept_card() -> RuleViolation | None:
    s = visit_table()
    card = grab(s, "red")[0]
    s.players[0].set_aside.append(card)
    s.marks["keep"] = (card,)
    s.marks["visits"] = (indy.PLANT,)
    return _call(lambda: indy_rules.check_trade_card(s, 0, card))


def _sabotaged() -> State:
    s = sab_game()
    trading(s)
    set_temple(s, ("blue", 3), ("soy", 2), ("chili", 1), ("green", 2))
    s.players[0].extra[indy.SABOTAGED].append(take_sabohntage(s))
    return s


def _blocked(s: State) -> State:
    return _adventurer(s, ("blue", 2), ("snake", 1))


def _loading(*stacks: tuple[str, int], visits=(indy.MATCH,)) -> State:
    s = visit_table()
    lay_carrier(s)
    s.marks["visits"] = visits
    return _adventurer(s, *stacks)


def _no_path_in_supply() -> State:
    s = game()
    give(s, 0, "coins", "red", 4)
    s.extra[indy.SUPPLY][:] = [c for c in s.extra[indy.SUPPLY] if s.variety[c] != "path"]
    return s


def _own_sabohntage(target: int) -> RuleViolation | None:
    s = sab_game()
    s.players[0].extra[indy.SABOHNTAGE].append(take_sabohntage(s))
    return _check(s, indy.Sabotage(0, target))


def _carrier_start(place: int) -> RuleViolation | None:
    s = carrier_game()
    s.marks["carrier_start"] = place
    return _check(s, indy.LayCarrier(0))


def _field_mismatch() -> RuleViolation | None:
    s = _adventurer(game(), ("soy", 2))
    give(s, 0, "field0", "blue", 2)
    s.players[0].fields[0] = s.players[0].fields[0][-2:]
    return _check(s, indy.FieldToAdventurer(0, 0))


def _empty_field() -> RuleViolation | None:
    s = game()
    s.deck[:0] = s.players[0].fields[0]
    s.players[0].fields[0] = []
    return _check(s, indy.FieldToAdventurer(0, 0))


INDIANA: dict[str, Callable[[], RuleViolation | None]] = {
    "visit-keep": _kept_card,
    "unknown-player": lambda: _check(game(), indy.SellAdventurer(9)),
    "visit-not-active": lambda: _check(visit_table(), indy.VisitTemple(1, "blue")),
    "visit-wrong-phase": lambda: _check(game(), indy.VisitTemple(0, "blue")),
    "load-not-active": lambda: _check(_loading(("blue", 2)), indy.LoadCarrier(1, "soy")),
    "load-wrong-phase": lambda: _check(_adventurer(game(), ("blue", 2)), indy.LoadCarrier(0, "soy")),
    "offer-open": lambda: _call(lambda: indy_rules._quiet(_with_offer(visit_table()), "indy.visit")),
    "sabotaged": lambda: _check(_sabotaged(), indy.VisitTemple(0, "blue")),
    "temple-no-stack": lambda: _check(visit_table(), indy.VisitTemple(0, "red")),
    "temple-unknown-name": lambda: _check(visit_table(), indy.VisitTemple(0, "Moonbeam")),
    "temple-not-a-name": lambda: _check(visit_table(), indy.VisitTemple(0, 7)),
    "temple-empty": lambda: _check(visit_table(10, ("blue", 0)), indy.VisitTemple(0, "blue")),
    "last-visit-failed": lambda: _check(_visits(indy.PLANT), indy.VisitTemple(0, "blue")),
    "visits-used": lambda: _check(_visits(indy.MATCH, indy.OTHER), indy.VisitTemple(0, "blue")),
    "blockade-visit": lambda: _check(_blocked(visit_table()), indy.VisitTemple(0, "soy")),
    "adventurer-full": lambda: _check(_adventurer(visit_table(), ("soy", 2)), indy.VisitTemple(0, "blue")),
    "path-not-bool": lambda: _check(visit_table(), indy.VisitTemple(0, "blue", "ja")),
    "path-none": lambda: _check(visit_table(), indy.VisitTemple(0, "blue", True)),
    "path-big-stack": lambda: _check(_with_path(visit_table()), indy.VisitTemple(0, "blue", True)),
    "pile-empty": lambda: _check(_empty_pile(visit_table()), indy.VisitTemple(0, "blue")),
    "lay-not-now": lambda: _check(_to_draw(carrier_game()), indy.LayCarrier(0)),
    "lay-no-carrier": lambda: _check(game(), indy.LayCarrier(0)),
    "lay-already": lambda: _check(_laid(game()), indy.LayCarrier(0)),
    "lay-start-3": lambda: _carrier_start(3),
    "lay-start-none": lambda: _carrier_start(0),
    "carrier-plant": lambda: _call(lambda: indy_rules.check_plant(_carrier_front(), 0)),
    "load-not-laid": lambda: _check(_adventurer(visit_table(), ("blue", 2)), indy.LoadCarrier(0, "soy")),
    "load-no-success": lambda: _check(_loading(("blue", 2), visits=()), indy.LoadCarrier(0, "soy")),
    "load-full": lambda: _check(_loaded(_loading(("blue", 2))), indy.LoadCarrier(0, "soy")),
    "load-blocked": lambda: _check(_loading(("blue", 2), ("snake", 1)), indy.LoadCarrier(0, "soy")),
    "load-no-coin": lambda: _check(_loading(("blue", 1)), indy.LoadCarrier(0, "soy")),
    "load-after-path": lambda: _check(_loading(("blue", 4), visits=(indy.BY_PATH,)), indy.LoadCarrier(0, "soy")),
    "sell-empty": lambda: _check(game(), indy.SellAdventurer(0)),
    "sell-blocked": lambda: _check(_blocked(game()), indy.SellAdventurer(0)),
    "field-unknown": lambda: _check(game(), indy.FieldToAdventurer(0, 5)),
    "field-empty": _empty_field,
    "field-mismatch": _field_mismatch,
    "buy-unknown": lambda: _check(game(), indy.BuyCard(0, "Zauberstab")),
    "buy-twice": lambda: _check(_with_path(game()), indy.BuyCard(0, "path")),
    "buy-none-left": lambda: _check(_no_path_in_supply(), indy.BuyCard(0, "path")),
    "buy-too-dear": lambda: _check(game(), indy.BuyCard(0, "carrier")),
    "sabotage-off": lambda: _check(game(), indy.Sabotage(0, 1)),
    "sabotage-not-active": lambda: _check(sab_game(), indy.Sabotage(1, 0)),
    "sabotage-no-card": lambda: _check(sab_game(), indy.Sabotage(0, 1)),
    "sabotage-unknown-target": lambda: _own_sabohntage(9),
    "sabotage-self": lambda: _own_sabohntage(0),
}


def _with_offer(s: State) -> State:
    s.offer = object()  # type: ignore[assignment]  # any open offer: only its presence counts
    return s


def _visits(*done: str) -> State:
    s = visit_table()
    s.marks["visits"] = done
    return s


def _with_path(s: State) -> State:
    _supply_card(s, "path", 0, indy.PATH)
    return s


def _laid(s: State) -> State:
    lay_carrier(s)
    return s


def _loaded(s: State) -> State:
    give(s, 0, indy.LOAD, "red", 1)
    return s


def _empty_pile(s: State) -> State:
    s.discard.extend(c for c in s.deck if s.variety[c] != indy.SABOHNTAGE)
    s.deck = [c for c in s.deck if s.variety[c] == indy.SABOHNTAGE]
    return s


def _to_draw(s: State) -> State:
    s.phase = Phase.DRAW
    return s


def _carrier_front() -> State:
    s = carrier_game()
    keep_hand(s, 0, 0)
    s.players[0].hand.extend(grab(s, "blue", 2))
    s.marks["ahead"] = ((), *s.marks["ahead"][1:])
    s.hand_plants = 1
    return s


# ---- Ladybohn ---------------------------------------------------------------------------------
def _lift(field0, hand=("Sojabohne B",), pick=0, by=1, raw=None) -> RuleViolation | None:
    s = lift_table(field0, hand=hand)
    choice = raw(s) if raw else (s.players[0].fields[0][pick], by)
    return _check(s, Plant(0, 0, choice=choice))


def _malformed_lift() -> RuleViolation | None:
    """A choice that is no (female, places) pair: the engine's own check lets no such
    action through, so the edition's checker is asked directly (as a hook may be)."""
    s = lift_table(["Sojabohne w"])
    return _call(lambda: lady_rules.check_lift(s, 0, 0, s.players[0].hand[0], (s.players[0].fields[0][0],)))


def _amigo_lift(direct: bool = False) -> RuleViolation | None:
    """A lift in a rule set without babies: through the engine, or asked of the edition directly."""
    s = lady_table(ruleset=find_ruleset("amigo"), hands={0: ["Sojabohne"]}, fields={0: [["Sojabohne"], []]})
    choice = (s.players[0].fields[0][0], 1)
    if direct:
        return _call(lambda: lady_rules.check_lift(s, 0, 0, s.players[0].hand[0], choice))
    return _check(s, Plant(0, 0, choice=choice))


def _received(**changes) -> tuple[State, int]:
    """Anna has just been given Ben's Soja baby (she grows Sojabohnen): it waits."""
    s = trade_table(**changes)
    soy_b = s.players[1].hand[1]
    engine.apply(s, Offer(1, 0, give=(soy_b,)))
    engine.apply(s, Accept(0))
    return s, soy_b


def _baby_elsewhere() -> RuleViolation | None:
    s, baby = _received()
    return _check(s, Plant(0, 1, baby))


def _baby_third_field() -> RuleViolation | None:
    s, baby = _received(fields={0: [["Sojabohne m"], ["Sojabohne w"], []], 1: [["Blaue Bohne m"], []]})
    return _check(s, Plant(0, 2, baby))


def _baby_other_card() -> RuleViolation | None:
    s, _ = _received()
    return _check(s, Plant(0, 0, s.players[0].hand[1]))


LADYBOHN: dict[str, Callable[[], RuleViolation | None]] = {
    "lift-off": _amigo_lift,
    "lift-off-direct": lambda: _amigo_lift(direct=True),
    "lift-no-baby": lambda: _lift(["Sojabohne w"], hand=["Sojabohne m"]),
    "lift-malformed": _malformed_lift,
    "lift-not-on-field": lambda: _lift(["Sojabohne w"], raw=lambda s: (s.players[0].hand[1], 1)),
    "lift-male": lambda: _lift(["Sojabohne w", "Sojabohne m"], pick=1),
    "lift-too-far": lambda: _lift(["Sojabohne w", "Sojabohne m"], by=3),
    "lift-past-top": lambda: _lift(["Sojabohne m", "Sojabohne w"], pick=1, by=2),
    "baby-first": _baby_other_card,
    "baby-field": _baby_elsewhere,
    "baby-fields": _baby_third_field,
    "baby-nothing-else": lambda: _check(_received()[0], EndTrading(0)),
    "baby-no-harvest": lambda: _check(_received()[0], Harvest(0, 0)),
}

CASES = {**{f"indiana/{k}": v for k, v in INDIANA.items()}, **{f"ladybohn/{k}": v for k, v in LADYBOHN.items()}}

GERMAN: dict[str, tuple[str, str]] = {  # noqa: E501 - the texts as shown
    'indiana/adventurer-full': ('indy.adventurer', 'Bei deinem Abenteurer liegen schon Sojabohnen; verkaufe sie zuerst, dann kann er Blaue Bohnen holen.'),
    'indiana/blockade-visit': ('indy.blockade', 'Dein Abenteurer ist von Schlangenbohnen blockiert; aus dem Tempel holt er nur Schlangenbohnen, nicht die Sojabohnen.'),
    'indiana/buy-none-left': ('indy.buy', 'Es ist keine Wegkarte mehr im Vorrat.'),
    'indiana/buy-too-dear': ('indy.buy', 'Die Trägerkarte kostet 4 Taler, Anna hat 0.'),
    'indiana/buy-twice': ('indy.buy', 'Anna hat schon eine Wegkarte.'),
    'indiana/buy-unknown': ('indy.buy', "Kaufen kann man eine Wegkarte oder eine Trägerkarte, nicht 'Zauberstab'."),
    'indiana/carrier-plant': ('indy.carrier-plant', 'Vor dieser Bohne steht deine Trägerkarte. Eine zweite Bohne pflanzt du erst, wenn du die Trägerkarte in diesem Zug abgelegt hast.'),
    'indiana/field-empty': ('indy.field-to-adventurer', 'Feld 1 ist leer.'),
    'indiana/field-mismatch': ('indy.field-to-adventurer', 'Beim Abenteurer liegen Sojabohnen; Blaue Bohnen passen nicht dazu.'),
    'indiana/field-unknown': ('input.no-field', 'Feld 5 gibt es nicht.'),
    'indiana/last-visit-failed': ('indy.two-visits', 'Dein letzter Tempelgang war nicht erfolgreich.'),
    'indiana/lay-already': ('indy.carrier', 'Die Trägerkarte liegt schon über dem Abenteurer.'),
    'indiana/lay-no-carrier': ('indy.carrier', 'Die Trägerkarte hast du nicht.'),
    'indiana/lay-not-now': ('indy.carrier', 'Die Trägerkarte legt nur die Person am Zug ab, in Phase 1 oder 2.'),
    'indiana/lay-start-3': ('indy.carrier', 'Zu Beginn des Zuges stand die Trägerkarte an Stelle 3 auf deiner Hand; ablegen darfst du sie nur von Stelle 1 oder 2.'),
    'indiana/lay-start-none': ('indy.carrier', 'Zu Beginn des Zuges stand die Trägerkarte noch nicht auf deiner Hand; ablegen darfst du sie nur von Stelle 1 oder 2.'),
    'indiana/load-after-path': ('indy.path-card', 'Nach dem Weg über die Wegkarte nimmt die Trägerkarte nur eine Sorte, die allein im Tempel liegt.'),
    'indiana/load-blocked': ('indy.carrier-blocked', 'Dein Abenteurer ist von Schlangenbohnen blockiert und kann in diesem Zug nicht verkaufen (erst ab 4 Schlangenbohnen); die Bohnen der Trägerkarte kämen nie zu ihm.'),
    'indiana/load-full': ('indy.carrier-load', 'Auf der Trägerkarte liegt schon ein Stapel.'),
    'indiana/load-no-coin': ('indy.carrier-load', 'Die Bohnen am Abenteurer bringen noch keinen Taler; die Bohnen der Trägerkarte kämen in diesem Zug nicht mehr zu ihm.'),
    'indiana/load-no-success': ('indy.carrier-load', 'Die Trägerkarte lädt nur direkt nach einem erfolgreichen Tempelgang.'),
    'indiana/load-not-active': ('indy.carrier-load', 'Die Trägerkarte lädt nur Anna, die Person am Zug.'),
    'indiana/load-not-laid': ('indy.carrier-load', 'Deine Trägerkarte liegt in diesem Zug nicht über dem Abenteurer.'),
    'indiana/load-wrong-phase': ('indy.carrier-load', 'Die Trägerkarte lädt nur in Phase 2 (Handeln / Tempel), jetzt ist Phase 1.'),
    'indiana/offer-open': ('indy.visit', 'Erst muss das offene Angebot angenommen oder abgelehnt werden.'),
    'indiana/path-big-stack': ('indy.path-card', 'Im Tempel liegen 3 Blaue Bohnen; der Weg führt nur zu einer einzelnen Karte.'),
    'indiana/path-none': ('indy.path-card', 'Du hast keine Wegkarte.'),
    'indiana/path-not-bool': ('input.unknown-card', "path = 'ja': erwartet true oder false."),
    'indiana/pile-empty': ('indy.visit', 'Der Nachziehstapel ist leer: Es gibt keine Karte zum Aufdecken.'),
    'indiana/sabotage-no-card': ('indy.sabohntage', 'Anna hat die Sabohntagekarte nicht.'),
    'indiana/sabotage-not-active': ('indy.sabohntage', 'Die Sabohntagekarte legt man nur, wenn man am Zug ist.'),
    'indiana/sabotage-off': ('indy.sabohntage', 'In „Indiana Bohnes (Fan-Erweiterung)“ wird ohne Sabohntagekarte gespielt.'),
    'indiana/sabotage-self': ('indy.sabohntage', 'Die Sabohntagekarte kommt auf einen fremden Abenteurer.'),
    'indiana/sabotage-unknown-target': ('input.unknown-player', 'Person 9 gibt es nicht.'),
    'indiana/sabotaged': ('indy.sabohntage', 'Auf dem Abenteurer von Anna liegt die Sabohntagekarte und blockiert ihn, bis diese Person am Zug war.'),
    'indiana/sell-blocked': ('indy.blockade', 'Die Blaue Bohnen sind von 1 Schlangenbohne(n) blockiert; erst ab 4 Schlangenbohnen bringt der Verkauf einen Taler.'),
    'indiana/sell-empty': ('indy.adventurer-sell', 'Beim Abenteurer von Anna liegen keine Bohnen.'),
    'indiana/temple-empty': ('indy.visit', 'Im Tempel liegt kein Stapel Blaue Bohnen; dort liegen: nichts.'),
    'indiana/temple-no-stack': ('indy.visit', 'Im Tempel liegt kein Stapel Rote Bohnen; dort liegen: Blaue Bohne, Sojabohne, Feuerbohne, Brechbohne.'),
    'indiana/temple-not-a-name': ('indy.visit', 'Im Tempel liegt kein Stapel int; dort liegen: Blaue Bohne, Sojabohne, Feuerbohne, Brechbohne.'),
    'indiana/temple-unknown-name': ('indy.visit', "Im Tempel liegt kein Stapel 'Moonbeam'; dort liegen: Blaue Bohne, Sojabohne, Feuerbohne, Brechbohne."),
    'indiana/unknown-player': ('input.unknown-player', 'Person 9 gibt es nicht.'),
    'indiana/visit-keep': ('indy.visit-keep', 'Die Rote Bohne hat Anna beim Tempelgang aufgedeckt; sie muss sie selbst anbauen und darf sie nicht weitergeben.'),
    'indiana/visit-not-active': ('indy.visit', 'Zum Tempel geht nur Anna, die Person am Zug.'),
    'indiana/visit-wrong-phase': ('indy.visit', 'Zum Tempel geht nur in Phase 2 (Handeln / Tempel), jetzt ist Phase 1.'),
    'indiana/visits-used': ('indy.two-visits', 'Du warst in diesem Zug schon 2-mal im Tempel.'),
    'ladybohn/baby-field': ('lady.baby-trade-immediate', 'Die Babybohne (Sojabohne) kommt sofort auf das Feld, auf dem diese Sorte schon wächst: Feld 1.'),
    'ladybohn/baby-fields': ('lady.baby-trade-immediate', 'Die Babybohne (Sojabohne) kommt sofort auf das Feld, auf dem diese Sorte schon wächst: Feld 1 oder Feld 2.'),
    'ladybohn/baby-first': ('lady.baby-trade-immediate', 'Erst pflanzt Anna die erhaltene Babybohne (Sojabohne).'),
    'ladybohn/baby-no-harvest': ('lady.baby-trade-immediate', 'Anna hat eben eine Babybohne bekommen und muss sie sofort pflanzen; schnell noch ernten ist nicht erlaubt.'),
    'ladybohn/baby-nothing-else': ('lady.baby-trade-immediate', 'Erst pflanzt Anna die erhaltene Babybohne (Sojabohne).'),
    'ladybohn/lift-male': ('lady.baby-lift', 'Die Sojabohne (männlich) auf Feld 1 ist keine weibliche Bohne.'),
    'ladybohn/lift-malformed': ('lady.baby-lift', 'Erwartet wird (weibliche Karte, Positionen), nicht (80,).'),
    'ladybohn/lift-no-baby': ('lady.baby-lift', 'Nur eine Babybohne schiebt eine weibliche Bohne hoch; die Sojabohne (männlich) nicht.'),
    'ladybohn/lift-not-on-field': ('lady.baby-lift', 'Diese Karte liegt nicht auf Feld 1.'),
    'ladybohn/lift-off': ('lady.baby-lift', 'In „Bohnanza – Grundspiel (Amigo)“ gibt es keine Babybohnen, die etwas hochschieben.'),
    'ladybohn/lift-off-direct': ('lady.baby-lift', 'In „Bohnanza – Grundspiel (Amigo)“ gibt es keine Babybohnen, die etwas hochschieben.'),
    'ladybohn/lift-past-top': ('lady.baby-lift', 'Die Sojabohne (weiblich) liegt 1 Position(en) unter der obersten Karte; um 2 nach oben ginge über das Feld hinaus.'),
    'ladybohn/lift-too-far': ('lady.baby-lift', 'Um 3 Positionen geht nicht: erlaubt sind 1 bis 2.'),
}
"""Case -> (rule ID, German detail) as the editions wrote them before they became templates."""


def refusal(case: str) -> RuleViolation:
    found = CASES[case]()
    assert found is not None, f"{case}: not refused"
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_german_refusal_is_unchanged(case: str) -> None:
    found = refusal(case)
    assert (found.rule_id, found.detail) == GERMAN[case]
    assert found.message == f"{found.detail} {found.explanation} [{found.rule_id}]"
    with speaking("de"):
        assert refusal_detail(found) == found.detail


@pytest.mark.parametrize("case", sorted(CASES))
def test_english_refusal_is_complete_and_english(case: str) -> None:
    found = refusal(case)
    with speaking(translator("en", strict=True)):
        text = refusal_detail(found)
    assert text and text != found.detail
    assert german_words(text) == [], (case, text)


def _templates(template: str, params: dict) -> set[str]:
    """A refusal's template and those of the phrases among its parameters."""
    found = {template}
    for value in params.values():
        items = value.items if isinstance(value, Terms) else (value,)
        for item in items:
            if isinstance(item, Phrase):
                found |= _templates(item.template, item.params)
    return found


def test_every_refusal_of_the_editions_has_a_case() -> None:
    """Each text marked in ``editions/*/rules.py`` (templates, phrases) is raised by a case above."""
    templates = {text for path in sorted(ROOT.glob("bohnteach/editions/*/rules.py"))
                 for _ctx, text, _where, _comment in python_messages(path)}
    raised = set().union(*(_templates(found.template, found.params) for found in map(refusal, CASES)))
    assert templates - raised == set()
