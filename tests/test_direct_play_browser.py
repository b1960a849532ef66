"""Issue 13 §6 in the browser, at 1280 and 390 px: in Mach du! the learner taps a hand card
on the board, the legal field lights up, a tap on a wrong field's button brings the refusal
into view together with that button; the scene player's „▶ weiter“ stays on screen while
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
