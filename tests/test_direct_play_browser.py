"""Issue 13 §6 in the browser, at 1280 and 390 px: in Mach du! and the Probespiel the learner
taps a hand card on the board, the legal fields light up, a tap on a field's button that the
rules forbid brings the refusal into view together with that button (which keeps the
focus), a legal plant changes the table; the scene player's „▶ weiter“ stays on screen while
the learner reads the table."""
from __future__ import annotations

import re

import pytest
from browser_helpers import EXPECT_TIMEOUT_MS, open_page, visible_errors
from playwright.sync_api import expect

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_tap_card_then_field_answer_beside_the_control(page, site_url, size):
    page.set_viewport_size(SIZES[size])
    open_page(page, site_url, "02_Phase_1")
    tryit = page.locator(".bt-tryit").first
    board = tryit.locator(".bt-board")
    board.scroll_into_view_if_needed()
    front = board.get_by_role("button", name=re.compile(r"Hand 1: .*\(vorne\)"))
    front.click()
    expect(front).to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    target = board.locator(".bt-bfield.bt-target")
    expect(target).to_have_count(1, timeout=EXPECT_TIMEOUT_MS)
    expect(target).to_contain_text("hier pflanzbar")
    # a field that is not marked stays clickable: the rule answers, next to the button
    wrong = board.locator(".bt-bfield:not(.bt-target)").first.get_by_role("button", name=re.compile("pflanzen"))
    wrong.scroll_into_view_if_needed()
    wrong.click()
    refusal = tryit.locator(".bt-answer .bt-refusal")
    expect(refusal).to_contain_text("Nicht erlaubt", timeout=EXPECT_TIMEOUT_MS)
    expect(refusal.locator("h4")).to_be_in_viewport()
    expect(wrong).to_be_in_viewport()
    expect(wrong).to_be_focused()  # the keyboard stays on the used control
    assert visible_errors(page) == []


def test_after_a_refusal_the_next_tap_replaces_the_chosen_card(page, site_url):
    """Issue 34 §2 as a learner taps it: the Blue Bean refused on field 1, then the front
    card and field 2 – planted, no „Eine Karte, bitte“; the status line names the pick."""
    errors = open_page(page, site_url, "02_Phase_1")
    tryit = page.locator(".bt-tryit").filter(has_text="Welche Karte kommt aufs Feld").first
    board = tryit.locator(".bt-board")
    status = board.locator(".bt-pickstatus")
    board.get_by_role("button", name=re.compile(r"Hand 2: Blaue Bohne")).click()
    expect(status).to_contain_text("Gewählt: Hand 2: Blaue Bohne", timeout=EXPECT_TIMEOUT_MS)
    board.get_by_role("button", name=re.compile(r"^Auf Feld 1 pflanzen")).click()
    expect(tryit.locator(".bt-answer .bt-refusal")).to_contain_text("Nicht erlaubt", timeout=EXPECT_TIMEOUT_MS)
    expect(status).to_contain_text("Gewählt: Hand 2: Blaue Bohne")  # kept after the refusal
    board.get_by_role("button", name=re.compile(r"Hand 1: Feuerbohne \(vorne\)")).click()
    expect(status).to_have_text("Gewählt: Hand 1: Feuerbohne (vorne). Pflanzbar auf Feld 2.",
                                timeout=EXPECT_TIMEOUT_MS)
    expect(board.locator(".bt-pick.bt-picked")).to_have_count(1)
    board.get_by_role("button", name=re.compile(r"^Auf Feld 2 pflanzen")).click()
    expect(tryit).to_contain_text("Anna pflanzt Feuerbohne auf Feld 2", timeout=EXPECT_TIMEOUT_MS)
    expect(tryit).not_to_contain_text("Eine Karte, bitte")
    assert visible_errors(page) == [] and errors == []


def test_trading_choice_says_what_the_card_does(page, site_url):
    """Issue 34 §4: in the phase-2 exercise a chosen card gets trading words, not planting
    advice."""
    errors = open_page(page, site_url, "03_Phase_2_und_Handel")
    tryit = page.locator(".bt-tryit").filter(has_text="Aufgedeckte Karten loswerden").first
    board = tryit.locator(".bt-board")
    board.get_by_role("button", name=re.compile(r"aufgedeckt: Blaue Bohne")).click()
    status = board.locator(".bt-pickstatus")
    expect(status).to_contain_text("Im Handel kannst du sie anbieten", timeout=EXPECT_TIMEOUT_MS)
    expect(status).not_to_contain_text("pflanzbar")
    assert visible_errors(page) == [] and errors == []


def _answered(page, version: str) -> None:
    """Wait until the Probespiel has redrawn after ``version`` (the hint, drawn last,
    carries the new data-version) and every card of that redraw is on the page."""
    hint = page.locator(".bt-ps-hintbox")
    expect(hint).not_to_have_attribute("data-version", version, timeout=EXPECT_TIMEOUT_MS)
    now = hint.get_attribute("data-version")
    cards = page.locator(".bt-probespiel .bt-ps-card")
    expect(cards.first).to_have_class(re.compile(rf"\bbt-ps-v{now}\b"), timeout=EXPECT_TIMEOUT_MS)
    expect(page.locator(f".bt-probespiel .bt-ps-card:not(.bt-ps-v{now})")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_trial_game_tap_card_then_field(page, site_url, size):
    page.set_viewport_size(SIZES[size])
    open_page(page, site_url, "11_Probespiel")
    game = page.locator(".bt-probespiel")
    board = game.locator(".bt-board")
    hint = page.locator(".bt-ps-hintbox")
    expect(hint).to_have_attribute("data-wait", "you", timeout=EXPECT_TIMEOUT_MS)
    expect(hint).to_have_attribute("data-phase", "1")
    # the front card is the playable one; tapping it marks the fields it may go onto
    front = board.get_by_role("button", name=re.compile(r"Hand 1: .*\(vorne\)"))
    expect(front).to_have_class(re.compile(r"\bbt-playable\b"))
    front.scroll_into_view_if_needed()
    front.click()
    expect(front).to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    targets = board.locator(".bt-bfield.bt-target")
    expect(targets.first).to_contain_text("hier pflanzbar", timeout=EXPECT_TIMEOUT_MS)
    expect(board.locator(".bt-pickstatus")).to_contain_text("Pflanzbar auf Feld")
    # a card that is not in front: no field lights up, and a field's button is refused
    second = board.get_by_role("button", name=re.compile(r"Hand 2: "))
    second.click()
    expect(second).to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    expect(front).not_to_have_class(re.compile(r"\bbt-picked\b"))  # one card at a time
    expect(targets).to_have_count(0)
    plant = board.get_by_role("button", name="Auf Feld 1 pflanzen")
    plant.scroll_into_view_if_needed()
    version = hint.get_attribute("data-version")
    plant.click()
    _answered(page, version)
    refusal = board.locator(".bt-answer .bt-refusal")
    expect(refusal).to_contain_text("Nicht erlaubt", timeout=EXPECT_TIMEOUT_MS)
    expect(refusal).to_contain_text("p1.plant-front")
    expect(refusal.locator("h4")).to_be_in_viewport()
    expect(plant).to_be_in_viewport()
    expect(plant).to_be_focused(timeout=EXPECT_TIMEOUT_MS)  # the keyboard stays on the used control
    # the refused card stays picked (try another field); pick the front card and plant it
    front.click()
    expect(front).to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    field = targets.first
    expect(field).to_contain_text("hier pflanzbar", timeout=EXPECT_TIMEOUT_MS)
    name = front.inner_text().removeprefix("✓ ").split(": ", 1)[1].removesuffix(" (vorne)")
    legal = field.get_by_role("button", name=re.compile(r"pflanzen"))
    version = hint.get_attribute("data-version")
    legal.click()
    _answered(page, version)
    expect(board.locator(".bt-answer .bt-refusal")).to_have_count(0)
    expect(game.locator(".bt-ps-log")).to_contain_text("(du) pflanzt")
    expect(board.locator(".bt-bfield .bt-field").filter(has_text=name).first).to_be_visible()
    expect(hint).to_contain_text("Phase 1")  # the second card is optional: still phase 1
    expect(board.get_by_role("button", name=re.compile(r"Phase 1 beenden"))).to_be_visible()
    assert visible_errors(page) == []


def test_weiter_stays_on_screen_on_a_phone(page, site_url):
    page.set_viewport_size(SIZES["phone"])
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    table = player.locator(".bt-table").first
    table.scroll_into_view_if_needed()
    page.mouse.wheel(0, 300)  # reading further down the table
    weiter = player.get_by_role("button", name=re.compile("weiter"))
    expect(weiter).to_be_in_viewport(timeout=EXPECT_TIMEOUT_MS)
    weiter.click()
    expect(player).to_contain_text("Schritt 1", timeout=EXPECT_TIMEOUT_MS)
    expect(weiter).to_be_in_viewport()
