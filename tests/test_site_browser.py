"""The explainer site in a real browser (Debian's chromium through pytest-playwright).

Uses the fixtures of ``tests/conftest.py``: ``site_url`` serves the site exactly like
``bohnteach serve``; ``page`` is a fresh chromium page. Checks, for every page: it loads,
shows no error box and no traceback, has its title, its previous/next links and no
visible code. And the interactive parts: ▶ in a scene changes the table, a refused move
in "Mach du!" shows its explanation, the Probespiel plays one full turn.
"""
from __future__ import annotations

import re

import pytest
from browser_helpers import EXPECT_TIMEOUT_MS, open_page, refuses_wrong_move, visible_errors
from conftest import FOOTER_LINKS
from playwright.sync_api import expect

from bohnteach.site import pages as site

PAGES = [p for p in site.PAGES if site.page_exists(p)]

# Every widget output has its view (the widget state arrives after the HTML).
WIDGETS_RENDERED = """() => [...document.querySelectorAll('.jp-OutputArea-output.lm-Panel')]
  .every(e => e.querySelector('.jupyter-widgets'))"""


def _open(page, site_url, name: str) -> list[str]:
    errors = open_page(page, site_url, name)
    page.wait_for_function(WIDGETS_RENDERED, timeout=240_000, polling=200)
    return errors


@pytest.mark.parametrize("name", [p.name for p in PAGES])
def test_page_loads_cleanly(page, site_url, name):
    info = site.find_page(name)
    errors = _open(page, site_url, name)
    assert visible_errors(page) == []
    body = page.inner_text("#rendered_cells")
    assert "Traceback" not in body
    assert page.locator(".bt-box.bt-error").count() == 0, page.locator(".bt-box.bt-error").first.inner_text()
    expect(page.get_by_role("heading", level=1).first).to_have_text(info.title, use_inner_text=True)
    # German tab title and language, the publisher's footer
    expect(page).to_have_title(info.title if info.name == site.START else f"{info.title} – Bohnanza lernen")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    footer = page.locator("footer.bt-footer")
    for link in FOOTER_LINKS:
        expect(footer.get_by_role("link", name=link.text)).to_have_attribute("href", link.url)
    # no code: Voilà strips the inputs
    assert page.locator(".jp-CodeCell .jp-InputArea, .jp-CodeMirrorEditor, .cm-editor").count() == 0
    assert "site.page_header" not in body and "from bohnteach" not in body
    # previous / next links lead into the app, in this tab
    i = PAGES.index(info)
    if i > 0:
        expect(page.locator(f'a.bt-nav-prev[href="/?kapitel={PAGES[i - 1].name}"]').first).to_be_attached()
    if i + 1 < len(PAGES):
        expect(page.locator(f'a.bt-nav-next[href="/?kapitel={PAGES[i + 1].name}"]').first).to_be_attached()
    assert page.locator('a[href^="/?"][target]').count() == 0
    assert [e for e in errors if "pageerror" in e] == []


def test_scene_step_changes_the_table(page, site_url):
    _open(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    table = player.locator(".bt-table").first
    before = table.inner_html()
    player.get_by_role("button", name=re.compile("weiter")).click()
    # the narration and the table are two outputs that update separately: wait for each
    expect(player).to_contain_text("Schritt 1")
    page.wait_for_function(
        "before => { const t = document.querySelector('.bt-scene-player .bt-table');"
        " return t !== null && t.innerHTML !== before }",
        arg=before, timeout=EXPECT_TIMEOUT_MS, polling=50,
    )
    assert visible_errors(page) == []


def test_tryit_refused_move_is_explained(page, site_url):
    _open(page, site_url, "02_Phase_1")
    refuses_wrong_move(page)
    assert visible_errors(page) == []


def _hint(page) -> dict[str, str]:
    box = page.locator(".bt-ps-hintbox")
    return {k: box.get_attribute(f"data-{k}") for k in ("phase", "turn", "active", "wait")}


# True once the Probespiel has answered a click completely: the hint (redrawn last) has a
# new data-version, and every action button of that redraw is drawn (the widget marks
# them with bt-ps-v<version> and counts them in data-buttons) and no older one is left.
_ANSWERED = """v => {
  const b = document.querySelector('.bt-ps-hintbox');
  if (!b || b.dataset.version === v) return false;
  const buttons = [...document.querySelectorAll('.bt-probespiel .bt-ps-actions button.widget-button')];
  return buttons.length === Number(b.dataset.buttons) &&
    buttons.every(e => e.classList.contains('bt-ps-v' + b.dataset.version));
}"""


def _click(page, selector: str) -> None:
    """Click the first button matching ``selector`` in the Probespiel and wait until the
    widget has answered completely (:data:`_ANSWERED`)."""
    version = page.locator(".bt-ps-hintbox").get_attribute("data-version")
    page.locator(".bt-probespiel").locator(selector).first.click()
    page.wait_for_function(_ANSWERED, arg=version, timeout=EXPECT_TIMEOUT_MS, polling=50)


def _refused(page) -> bool:
    return page.locator(".bt-probespiel .bt-ps-feedback .bt-refusal").count() > 0


def test_trial_game_plays_one_full_turn(page, site_url):
    _open(page, site_url, "11_Probespiel")
    page.wait_for_function(_ANSWERED, arg="", timeout=EXPECT_TIMEOUT_MS, polling=50)  # the first drawing
    assert _hint(page)["phase"] == "1" and _hint(page)["wait"] == "you"
    # a refused move is explained, the table stays: tap the second hand card, then a field
    second = page.locator(".bt-probespiel .bt-ps-card", has_text="Hand 2:")
    second.click()
    expect(second).to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    _click(page, ".bt-ps-plant")
    assert _refused(page) and "p1.plant-front" in page.inner_text(".bt-ps-feedback")
    second.click()  # let it go again: with no card picked a field takes the front card
    expect(second).not_to_have_class(re.compile(r"\bbt-picked\b"), timeout=EXPECT_TIMEOUT_MS)
    # phase 1: plant the front card where it fits (harvest first if nothing fits)
    for _ in range(8):
        if _hint(page)["phase"] != "1":
            break
        planted = False
        for k in range(page.locator(".bt-probespiel .bt-ps-plant").count()):
            _click(page, f".bt-ps-plant >> nth={k}")
            if not _refused(page):
                planted = True
                break
        if not planted:
            _click(page, ".bt-ps-harvest")
        elif _hint(page)["phase"] == "1":
            _click(page, ".bt-ps-end-planting")
    assert _hint(page)["phase"] == "2"
    _click(page, ".bt-ps-end-trading")
    # phase 3: plant the revealed cards
    for _ in range(8):
        if _hint(page)["phase"] != "3" or _hint(page)["wait"] != "you":
            break
        for k in range(page.locator(".bt-probespiel .bt-ps-plant").count()):
            _click(page, f".bt-ps-plant >> nth={k}")
            if not _refused(page):
                break
        else:
            _click(page, ".bt-ps-harvest")
    assert _hint(page)["phase"] == "4"
    _click(page, ".bt-ps-draw")
    # the bots play; the learner may trade with each of them (here: "Weiter")
    for _ in range(40):
        h = _hint(page)
        if h["active"] == "0":
            break
        _click(page, ".bt-ps-decline" if h["wait"] == "offer" else ".bt-ps-continue")
    h = _hint(page)
    assert h["active"] == "0" and h["phase"] == "1" and h["wait"] == "you"
    log = page.inner_text(".bt-ps-log")
    for name in ("Ben", "Clara", "David"):
        assert f"{name} ist am Zug" in log
    assert visible_errors(page) == []
    assert page.locator(".bt-box.bt-error").count() == 0
