"""The play widgets in English (issue 56): every Mach-du case played with a strict English
translator (a correct move, a refused one, the success), the trial game a few turns with
each bot, the error box – no German anywhere (tests/german_scan.py), and a click handled
later still speaks the language the widget was made in."""
from __future__ import annotations

import random

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from bohnteach.content.tryit_cases import BASE_CASES, get_case  # noqa: E402
from bohnteach.game.actions import Harvest, Reorder  # noqa: E402
from bohnteach.game.engine import actor, check, legal_actions  # noqa: E402
from bohnteach.game.errors import RuleViolation, find_rule  # noqa: E402
from bohnteach.i18n import speaking, translator  # noqa: E402
from bohnteach.render.failure import friendly_message, render_error  # noqa: E402
from bohnteach.widgets.failure import guard, show_failure  # noqa: E402
from bohnteach.widgets.trial_game import BOT_LABELS, TrialGame  # noqa: E402
from bohnteach.widgets.tryit import TryIt, make_tryit  # noqa: E402
from german_scan import german_words, html_to_text  # noqa: E402

EN = translator("en", strict=True)


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def shown(widget: Any) -> str:
    """Everything a reader sees or hears of ``widget``: HTML values, labels, tooltips and
    the options of pickers."""
    parts = []
    for w in walk(widget):
        for attr in ("description", "tooltip"):
            parts.append(str(getattr(w, attr, "") or ""))
        value = getattr(w, "value", None)
        if isinstance(value, str):
            parts.append(html_to_text(value))
        for label in getattr(w, "_options_labels", ()) or ():
            parts.append(str(label))
    return " ".join(parts)


def no_german(widget: Any) -> str:
    text = shown(widget)
    assert german_words(text) == [], (german_words(text), text[:2000])
    return text


def text(html: str) -> str:
    return " ".join(html_to_text(html).split())


def control(t: TryIt, label: str) -> Any:
    for w in walk(t.controls):
        if (getattr(w, "description", None) or "").removeprefix("✓ ") == label:
            return w
    raise KeyError(f"{label!r} not among {[getattr(w, 'description', '') for w in walk(t.controls)]}")


def partner(t: TryIt, seat: int) -> None:
    next(w for w in walk(t.controls) if type(w).__name__ == "ToggleButtons").value = seat


def refused(t: TryIt, label: str, rule_id: str) -> None:
    """Press ``label``: the engine refuses it with ``rule_id``, explained in English."""
    before = t.state.copy()
    control(t, label).click()
    out = text(t.feedback.value)
    with speaking(EN):
        from bohnteach.render.language import rule_words

        title = rule_words(find_rule(rule_id)).title
    assert rule_id in out and title in out and "not allowed" in out.lower(), out
    assert t.state == before
    no_german(t)


# the English solution of each base case: (a refused move and its rule, the moves that solve it)
def _p1(t: TryIt) -> None:
    refused(t, "Plant on field 3", "field.one-variety")
    control(t, "Plant on field 2").click()
    control(t, "Plant on field 1").click()


def _p2(t: TryIt) -> None:
    refused(t, "Sort the hand", "hand.order")
    control(t, "turned over: Blue Bean").value = True
    partner(t, 1)
    control(t, "Offer / donate to Ben").click()
    control(t, "turned over: Red Bean").value = True
    partner(t, 2)
    control(t, "Offer / donate to Clara").click()


def _trade(t: TryIt) -> None:
    control(t, "Field 1: Soy Bean").value = True
    partner(t, 2)
    refused(t, "Offer / donate to Clara", "trade.no-field-cards")
    control(t, "turned over: Blue Bean").value = True
    control(t, "a Soy Bean").value = True
    control(t, "Offer / donate to Clara").click()


def _p3(t: TryIt) -> None:
    control(t, "Hand 1: Blue Bean (front)").value = True
    refused(t, "Plant on field 3", "p3.plant-all")
    for label, k in (("sideways: Soy Bean", 1), ("turned over: Red Bean", 2), ("sideways: Black-eyed Bean", 3)):
        control(t, label).value = True
        control(t, f"Plant on field {k}").click()


def _p4(t: TryIt) -> None:
    refused(t, "Sort the hand", "hand.order")
    control(t, "Draw new cards").click()


def _harvest(t: TryIt) -> None:
    refused(t, "Harvest field 1", "harvest.protection")
    control(t, "Harvest field 2").click()
    control(t, "Plant on field 2").click()


SOLUTIONS = {"p1-vorderste": _p1, "p2-aufgedeckt-loswerden": _p2, "handel-tausch": _trade,
             "p3-alles-pflanzen": _p3, "p4-nachziehen": _p4, "ernte-bohnenschutz": _harvest}


def test_every_base_case_has_an_english_solution():
    assert set(SOLUTIONS) == {c.id for c in BASE_CASES}


@pytest.mark.parametrize("case", BASE_CASES, ids=lambda c: c.id)
def test_every_case_played_in_english_speaks_no_german(case):
    t = TryIt(case, lang=EN)
    no_german(t)
    assert f"Try it! {EN.gettext(case.title)}" in t.header.value and "You play <b>Anna</b>." in t.header.value
    for k in range(len(case.hints)):  # every hint
        t.hint_button.click()
        assert f"Hint {k + 1} of {len(case.hints)}" in no_german(t)
    SOLUTIONS[case.id](t)
    assert t.solved, t.history
    out = no_german(t)
    assert "Learned:" in out and EN.gettext(case.learned) in out
    assert "Moves so far" in out
    t.restart_button.click()
    assert not t.solved and t.feedback.value == "" and not t.refusals
    no_german(t)


def test_a_click_later_speaks_the_language_the_widget_was_made_in():
    """Made while the page speaks English (no ``lang``: the page's), clicked afterwards
    outside of it: the answer is English; a German widget beside it stays German."""
    with speaking(EN):
        t = make_tryit("ernte-bohnenschutz")
    german = TryIt(get_case("ernte-bohnenschutz"))
    control(t, "Harvest field 1").click()
    assert "Bean protection rule" in text(t.feedback.value)
    german.play(Harvest(0, 0))
    assert "Bohnenschutzregel" in text(german.feedback.value)
    assert "Mach du! Ernten und die Bohnenschutzregel" in german.header.value


def test_a_missing_variety_asked_for_is_said_in_english():
    t = TryIt(get_case("handel-tausch"), lang=EN)
    control(t, "turned over: Blue Bean").value = True
    partner(t, 2)
    control(t, "a Garden Bean").value = True  # Clara has none
    control(t, "Offer / donate to Clara").click()
    assert "Clara has no Garden Bean" in text(t.feedback.value)
    assert t.state == t.initial
    no_german(t)


# ---- the trial game ------------------------------------------------------------------------
@pytest.mark.parametrize("bot", sorted(BOT_LABELS))
def test_trial_game_with_each_bot_in_english(bot):
    """A few turns against the bots, a refused move in each: the board, the hint, the log
    with the bots' moves and replies, the other players' table – all English."""
    game = TrialGame(seed=5, bot=bot, lang=EN)
    no_german(game)
    rng = random.Random(7)
    refusals = 0
    for _ in range(40):
        s = game.state
        if actor(s) is None:
            break
        if actor(s) != game.seat:
            game._continue()
            no_german(game)
            continue
        big = [k for k, f in enumerate(s.players[game.seat].fields) if len(f) >= 2]
        wrong = Harvest(game.seat, big[0], 1) if big else Reorder(
            game.seat, tuple(reversed(s.players[game.seat].hand)))
        if check(s, wrong) is not None:
            refusal = game.try_action(wrong)
            assert isinstance(refusal, RuleViolation)
            assert refusal.rule_id in text(game.feedback.value)
            no_german(game)
            refusals += 1
        moves = [a for a in legal_actions(s, game.seat) if not isinstance(a, Reorder)]
        game.try_action(rng.choice(moves))
        no_german(game)
    log = text(game.log_view.value)
    assert "What has happened so far" in log and refusals >= 3
    assert game.state.turn >= 2, "the bots played whole turns"


def test_trial_game_offer_declined_by_a_bot_in_english():
    """The learner asks a bot for a variety it does not hold: the same English sentence as
    a bot that keeps the card (the hand stays hidden)."""
    game = TrialGame(seed=3, bot="planter", lang=EN)
    s = game.state
    while game.state.phase.value != 2:  # plant the front card, end phase 1
        game.try_action(next(a for a in legal_actions(game.state, 0) if type(a).__name__ in
                             ("Plant", "EndPlanting", "Harvest")))
    s = game.state
    held = {s.variety[c] for c in s.players[1].hand}
    missing = next(k for k in s.ruleset.varieties if k not in held)
    game.partner_pick.value = 1
    game.want_pick.value = missing
    game.offer_button.click()
    out = text(game.feedback.value)
    assert "Declined" in out and "does not want to give away" in out
    no_german(game)


# ---- the error box ---------------------------------------------------------------------------
def test_the_error_box_in_english():
    with speaking(EN):
        generic = render_error(friendly_message(RuntimeError("Ein deutscher Satz aus dem Code")))
        german_value = render_error(friendly_message(ValueError("Die Sorte gibt es nicht.")))
        known = render_error(friendly_message(KeyError(EN.gettext("Keine Übung {case!r}. Bekannt: {known}"))))
        case = get_case("ernte-bohnenschutz")
        violation = check(case.build()[0], Harvest(0, 0))
        assert isinstance(violation, RuleViolation)
        refusal = render_error(friendly_message(violation))
        box = show_failure(None, ValueError("kaputt")).data
    for html in (generic, german_value, known, refusal, box):
        assert german_words(html_to_text(html)) == [], html_to_text(html)
    assert "Oops, something went wrong" in generic and "RuntimeError" in generic
    assert "deutscher" not in generic and "Sorte" not in german_value
    assert "Bean protection rule (harvest.protection)" in refusal
    assert "This part of the page could not be loaded" in box


def test_a_failing_click_shows_the_english_box():
    t = TryIt(get_case("p4-nachziehen"), lang=EN)

    def broken(_action):
        raise RuntimeError("kaputt")

    t.play = broken  # type: ignore[method-assign]
    control(t, "Draw new cards").click()
    out = text(t.feedback.value)
    assert "Oops, something went wrong" in out and german_words(out) == []
    shown_box = []
    guard(shown_box.append, "x", lang=EN)(lambda: 1 / 0)()
    assert "Oops" in shown_box[0]


def test_german_stays_as_it_was():
    t = TryIt(get_case("p1-vorderste"))
    assert "Mach du! Phase 1: Welche Karte kommt aufs Feld?" in t.header.value
    assert "Du spielst <b>Anna</b>." in t.header.value
    t.play(Harvest(0, 2))
    t.show_hint()
    assert "Tipp 1 von 3" in text(t.hint_box.value)
    game = TrialGame(seed=3, bot="planter")
    assert "Was bisher geschah" in game.log_view.value
    assert "Neues Spiel (Bohnanza – Grundspiel (Amigo), Spiel Nr. 3). Du bist Anna und fängst an." \
        in game.log_view.value
    box = render_error(friendly_message(ValueError("Die Sorte gibt es nicht.")))
    assert "Die Sorte gibt es nicht." in box and "Hoppla, da ist etwas schiefgegangen" in box


def test_an_english_page_calls_its_try_it_in_english():
    """The English page (``translate_notebook``) calls ``site.pages.try_it(…, lang="en")``."""
    from bohnteach.site.pages import try_it

    for chapter in ("phase1", "phase2", "phase3", "phase4", "ernte"):
        no_german(try_it(chapter, lang=EN))


def test_a_situation_without_a_case_in_english():
    """TryIt on a bare table (a notebook's own exercise): its frame is English too."""
    state, _ = get_case("p4-nachziehen").build()
    t = TryIt(state, learner=0, lang=EN)
    assert "Try it!" in t.header.value
    no_german(t)
