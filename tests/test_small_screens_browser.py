"""The site on a 390 px phone and on paper (Debian's chromium through pytest-playwright):
charts keep the width for their plot (legend below, not beside it), the start page's red
box shows its text, a scene's step sentence stays in view while stepping, disabled controls
look disabled, and in every lesson each answer option keeps its own row (phone and print)
and a control prints its value as text. Uses the ``site_url``, ``browser`` and ``page``
fixtures of ``tests/conftest.py``."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import APP_LINK_JS, APP_SHOWN_JS, EXPECT_TIMEOUT_MS, VISIT_OUTCOME_JS, open_page
from playwright.sync_api import expect

from bohnteach.content import chapters
from bohnteach.render.style import contrast

LESSONS = [f"tutorials/{name}" for name, _title in chapters.LESSONS]
PHONE = {"width": 390, "height": 844}
#: an A4 sheet's text width (190 mm) in CSS px, as Chromium prints it: the print test's window
A4 = {"width": 718, "height": 1123}

# For every chart: the plot area (the union of its panels' drag boxes) spans at least
# this share of the chart's width.
PLOT_SHARE = 0.75
PLOTS_WIDE_JS = """([share, count]) => {
  const charts = [...document.querySelectorAll('.js-plotly-plot')];
  if (charts.length < count) return false;
  return charts.every(chart => {
    const svg = chart.querySelector('.main-svg');
    const drags = [...chart.querySelectorAll('.nsewdrag')].map(d => d.getBoundingClientRect());
    if (!svg || drags.length === 0) return false;
    const left = Math.min(...drags.map(b => b.left)), right = Math.max(...drags.map(b => b.right));
    return right - left >= share * svg.getBoundingClientRect().width;
  });
}"""


def test_start_page_red_box_shows_its_text(page, site_url):
    page.set_viewport_size(PHONE)
    open_page(page, site_url, "00_Start")
    box = page.locator(".bt-refusal").first
    expect(box).to_contain_text("Nicht erlaubt", timeout=EXPECT_TIMEOUT_MS)
    expect(box).to_contain_text("Der Tisch bleibt, wie er war.", timeout=EXPECT_TIMEOUT_MS)
    width = box.bounding_box()["width"]
    assert 300 <= width <= 390, width  # fits the phone, not a blank sliver


def test_bohnometer_charts_use_the_phone_width(page, site_url):
    page.set_viewport_size(PHONE)
    open_page(page, site_url, "12_Bohnometer")
    # the overview (one panel per variety) and the picker's chart (three curves)
    page.wait_for_function(PLOTS_WIDE_JS, arg=[PLOT_SHARE, 2], timeout=EXPECT_TIMEOUT_MS,
                           polling=200)
    # no icon bar over the title
    assert page.locator(".js-plotly-plot .modebar-container .modebar-btn").count() == 0


#: Every answer option (a radio button's row) of the page: its text and its radio lie inside
#: its own row, and the row begins below the option above. ``{count, problems}``.
OPTION_ROWS_JS = """() => {
  const problems = [];
  let count = 0;
  const inside = (a, b) => a.top >= b.top - 1 && a.bottom <= b.bottom + 1
                           && a.left >= b.left - 1 && a.right <= b.right + 1;
  for (const box of document.querySelectorAll('.widget-radio-box')) {
    const rows = [...box.querySelectorAll(':scope > label')];
    const boxes = rows.map(row => row.getBoundingClientRect());
    rows.forEach((row, i) => {
      count += 1;
      const name = row.textContent.trim().slice(0, 50);
      const drawn = document.createRange();
      drawn.selectNodeContents(row);
      const radio = row.querySelector('input[type=radio]').getBoundingClientRect();
      if (!inside(drawn.getBoundingClientRect(), boxes[i])) problems.push(name + ': Text ragt aus der Zeile');
      if (radio.width < 8 || !inside(radio, boxes[i])) problems.push(name + ': Knopf nicht in der Zeile');
      if (i > 0 && boxes[i].top < boxes[i - 1].bottom - 0.5) problems.push(name + ': überdeckt die Antwort davor');
    });
  }
  return {count, problems};
}"""

#: In print: every drawn control that is not an answer field (those print blank) shows its
#: value as plain text – no frame, no background, no drop-down arrow –, and a slider's track
#: is left out (its readout says the value). ``{count, problems}``.
CONTROLS_AS_TEXT_JS = """() => {
  const problems = [];
  let count = 0;
  const fields = document.querySelectorAll(
    '.jupyter-widgets select, .jupyter-widgets input[type=number], .jupyter-widgets input[type=text], .widget-readout');
  for (const el of fields) {
    if (el.closest('.bt-exercise, .bt-estimate') || !el.checkVisibility({visibilityProperty: true})) continue;
    count += 1;
    const css = getComputedStyle(el);
    const value = el.tagName === 'SELECT' ? (el.selectedOptions[0] || {}).text
                : el.tagName === 'INPUT' ? el.value : el.textContent;
    const label = (el.closest('.widget-inline-hbox') || el).querySelector('.widget-label');
    const name = (label && label.textContent.trim()) || el.tagName;
    const framed = ['Top', 'Right', 'Bottom', 'Left'].some(side => css['border' + side + 'Width'] !== '0px');
    if (framed) problems.push(name + ': Rahmen');
    if (css.appearance !== 'none' && el.tagName !== 'DIV') problems.push(name + ': Formularfeld');
    if (css.backgroundColor !== 'rgba(0, 0, 0, 0)' || css.backgroundImage !== 'none') problems.push(name + ': Hintergrund');
    if (!(value || '').trim()) problems.push(name + ': kein Wert');
  }
  for (const track of document.querySelectorAll('.widget-slider .slider-container')) {
    if (track.checkVisibility()) problems.push('Schieberegler gedruckt');
  }
  return {count, problems};
}"""


@pytest.fixture(scope="module")
def small(browser) -> Iterator:
    """One browser context (390 × 844) for the lessons of this module."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    yield context
    context.close()


@pytest.fixture(scope="module", params=LESSONS, ids=[n.split("/")[1] for n in LESSONS])
def lesson(request, small, site_url) -> Iterator[tuple]:
    """``(page, name)``: a lesson opened once on the phone, every widget drawn."""
    page = small.new_page()
    open_page(page, site_url, request.param)
    outcome = page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000, polling=200).json_value()
    assert outcome == "ok", (request.param, outcome)
    yield page, request.param
    page.close()


def _laid_out(page, viewport: dict[str, int], media: str) -> None:
    """Switch ``page`` to ``viewport`` and ``media`` and wait for the next drawn frame."""
    page.set_viewport_size(viewport)
    page.emulate_media(media=media)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def test_answer_options_wrap_in_their_own_rows(lesson):
    """A long answer option (Lektion 4, Aufgabe 4: „Noch nichts Sicheres: …“) wraps inside
    its own row with its radio button visible: on the phone, and printed on A4."""
    page, name = lesson
    radios = page.locator(".widget-radio-box input[type=radio]").count()
    try:
        for viewport, media in ((PHONE, "screen"), (PHONE, "print"), (A4, "print")):
            _laid_out(page, viewport, media)
            rows = page.evaluate(OPTION_ROWS_JS)
            assert rows["count"] == radios and rows["problems"] == [], (name, media, viewport, rows)
    finally:
        _laid_out(page, PHONE, "screen")
    if name.endswith("04_Rechnen_oder_simulieren"):
        assert radios >= 3  # the case of the report: checked, not skipped


def test_controls_print_their_value_as_text(lesson):
    """Printed, „Wie oft ziehen?“, „Durchläufe“, „Startwert (Seed)“ and every other control
    show their value as text, not as an empty-looking form field."""
    page, name = lesson
    try:
        _laid_out(page, A4, "print")
        controls = page.evaluate(CONTROLS_AS_TEXT_JS)
    finally:
        _laid_out(page, PHONE, "screen")
    assert controls["count"] >= 1 and controls["problems"] == [], (name, controls)


#: The step's sentence (``sentence``, whitespace squeezed) is drawn somewhere in the scene
#: player, and wholly inside the window.
SENTENCE_IN_VIEW_JS = """sentence => {
  const squeeze = t => t.replace(/\\s+/g, ' ').trim();
  const player = document.querySelector('.bt-scene-player');
  return [...player.querySelectorAll('p')].some(p => {
    const r = p.getBoundingClientRect();
    return squeeze(p.innerText).includes(sentence) && p.checkVisibility({visibilityProperty: true})
      && r.top >= 0 && r.bottom <= innerHeight;
  });
}"""


def test_scene_sentence_stays_in_view_while_stepping(page, site_url):
    """On a phone, a learner looks at the cards and taps ▶ in the sticky bar: the sentence
    that says what happened is in view beside the bar (the narration above the table is not)."""
    page.set_viewport_size(PHONE)
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    narration = player.locator(".bt-info p").first
    step = player.get_by_text(re.compile(r"Schritt \d+ / \d+")).first
    table = player.locator(".bt-table").first
    for k in (1, 2):
        table.evaluate("t => t.scrollIntoView({block: 'start'})")  # looking at the cards
        player.get_by_role("button", name="▶ weiter").click()
        expect(step).to_contain_text(f"Schritt {k} /")
        table.evaluate("t => t.scrollIntoView({block: 'start'})")
        sentence = re.sub(r"\s+", " ", narration.inner_text()).strip()
        box = narration.bounding_box()
        assert box["y"] + box["height"] <= 0, "the narration is in view: this test would show nothing"
        page.wait_for_function(SENTENCE_IN_VIEW_JS, arg=sentence, timeout=EXPECT_TIMEOUT_MS,
                               polling=200)


LOOK_JS = """b => { const c = getComputedStyle(b);
  return {background: c.backgroundColor, color: c.color, border: c.borderTopStyle,
          cursor: c.cursor, opacity: c.opacity}; }"""


def _hex(rgb: str) -> str:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_disabled_controls_look_disabled(page, site_url):
    """„▶ weiter“ on a scene's last step looks disabled – greyed, dashed, no pointer – unlike
    the enabled „▶ weiter“ and the enabled plain buttons, with readable (WCAG AA) text; axe-core
    finds nothing serious on the page in that state."""
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    forward = player.get_by_role("button", name="▶ weiter")
    to_end = player.get_by_role("button", name="▶|")
    back = player.get_by_role("button", name="◀ zurück")
    expect(forward).to_be_enabled()
    enabled = [forward.evaluate(LOOK_JS), to_end.evaluate(LOOK_JS)]
    to_end.click()
    expect(forward).to_be_disabled()
    expect(to_end).to_be_disabled()
    expect(back).to_be_enabled()
    enabled.append(back.evaluate(LOOK_JS))
    for button in (forward, to_end):
        look = button.evaluate(LOOK_JS)
        assert look["cursor"] == "not-allowed" and look["border"] == "dashed", look
        assert look["opacity"] == "1", look  # the colours below are the ones drawn
        assert contrast(_hex(look["color"]), _hex(look["background"])) >= 4.5, look
        for active in enabled:
            assert look["background"] != active["background"] and look["border"] != active["border"] \
                and look["cursor"] != active["cursor"], (look, active)
    result = Axe().run(page)
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == []


#: What is wider than the window on this page, and is not inside a box that scrolls sideways
#: and shows it: every drawn element that reaches past the window's right edge (or starts left
#: of it) must lie in a scrolling box that itself fits the window and fades its right edge
#: (``bt-scroll-x``) while more is to come; the page itself never scrolls sideways.
#: ``{checked, problems}``.
WIDE_CONTENT_JS = """() => {
  const W = document.documentElement.clientWidth;
  const problems = new Set();
  const name = el => el.tagName.toLowerCase() + [...el.classList].slice(0, 3).map(c => '.' + c).join('')
    + ' „' + (el.innerText || '').trim().slice(0, 30).replace(/\\s+/g, ' ') + '“';
  if (document.documentElement.scrollWidth > W + 1)
    problems.add('die Seite scrollt seitwärts: ' + document.documentElement.scrollWidth + ' px');
  const root = document.querySelector('#rendered_cells') || document.body;
  for (let box = root; box; box = box.parentElement)
    if (box.scrollLeft) problems.add(`seitwärts verschoben um ${box.scrollLeft} px: ${name(box)}`);
  for (const box of root.querySelectorAll('*'))
    if (box.scrollLeft && !box.classList.contains('bt-scroll-x'))
      problems.add(`seitwärts verschoben um ${box.scrollLeft} px (${box.scrollWidth} in ${box.clientWidth}): ${name(box)}`);
  let checked = 0;
  for (const el of root.querySelectorAll('*')) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    checked += 1;
    if (r.right <= W + 1 && r.left >= -1) continue;
    let box = el.parentElement;
    while (box && box !== root && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    const css = box && box !== root ? getComputedStyle(box) : null;
    const b = box ? box.getBoundingClientRect() : null;
    if (css && /hidden|clip/.test(css.overflowX) && b.right <= W + 1 && b.left >= -1) continue;  // cut to a box that fits
    if (!css || !/auto|scroll/.test(css.overflowX)) {
      problems.add(`breiter als das Fenster (${W} px): ${name(el)} ${Math.round(r.left)}…${Math.round(r.right)} px`);
      continue;
    }
    if (b.right > W + 1 || b.left < -1) { problems.add('Scrollbox breiter als das Fenster: ' + name(box)); continue; }
    if (r.left < b.left - 1 - box.scrollLeft) problems.add('links abgeschnitten: ' + name(el));
    const mask = css.maskImage || css.webkitMaskImage || 'none';
    const more = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    if (more && !/gradient/.test(mask)) problems.add('scrollt seitwärts, ohne es zu zeigen: ' + name(box));
  }
  return {checked, problems: [...problems]};
}"""

ALL_PAGES = [f"notebooks/{page.name}" for page in chapters.PAGES] + LESSONS


def _no_wide_content(page, where: str) -> None:
    """Wait until the page is laid out without wide content (charts and boxes settle in the
    frames after the outputs are drawn); fail with what is still too wide."""
    try:
        page.wait_for_function(f"() => {{ const w = ({WIDE_CONTENT_JS})(); "
                               "return w.checked > 50 && w.problems.length === 0; }",
                               timeout=60_000, polling=250)
    except Exception:  # noqa: BLE001 - the assertion below says what is wrong
        pass
    wide = page.evaluate(WIDE_CONTENT_JS)
    assert wide["checked"] > 50 and wide["problems"] == [], (where, wide["problems"])


@pytest.mark.parametrize("name", ALL_PAGES, ids=[n.split("/")[1] for n in ALL_PAGES])
def test_nothing_is_wider_than_a_phone_on_a_page_by_its_own_address(small, site_url, name):
    """Every chapter and lesson at 390 px, opened by its own address: no content wider than
    the window unless in a box that scrolls and shows it (issue 52 §2: chapter 12's
    „Selbst vergleichen“ drop-down was cut off and pushed its block sideways; lesson 3's
    table scrolled without a sign)."""
    page = small.new_page()
    try:
        open_page(page, site_url, name)
        outcome = page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000, polling=200).json_value()
        assert outcome == "ok", (name, outcome)
        _no_wide_content(page, name)
    finally:
        page.close()


def test_nothing_is_wider_than_a_phone_on_any_page_in_the_app(small, site_url):
    """The same for every chapter and lesson shown in the app, one after another in one tab."""
    page = small.new_page()
    try:
        page.goto(site_url + "/", timeout=300_000)
        page.wait_for_function(APP_SHOWN_JS, arg="", timeout=300_000, polling=200)
        _no_wide_content(page, "kapitel=00_Start")
        for name in ALL_PAGES[1:]:
            folder, stem = name.split("/")
            route = f"{'kapitel' if folder == 'notebooks' else 'lektion'}={stem}"
            page.evaluate(APP_LINK_JS, f"?{route}")
            page.locator(f'.bt-app a[data-bt-bench="?{route}"]').click()
            page.wait_for_function(APP_SHOWN_JS, arg=route, timeout=300_000, polling=200)
            page.evaluate("() => document.querySelectorAll('[data-bt-bench]').forEach(a => a.remove())")
            outcome = page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000, polling=200).json_value()
            assert outcome == "ok", (route, outcome)
            _no_wide_content(page, route)
    finally:
        page.close()


#: The first scene's bar on the screen: its height, the tops of its buttons, its sentence's
#: box and text, and the box of the first card the step changed (marked „neu“).
SCENE_BAR_JS = """() => {
  const player = document.querySelector('.bt-scene-player');
  const nav = player.querySelector('.bt-scene-nav'), line = nav.querySelector('.bt-scene-line p');
  const card = player.querySelector('.bt-table .bt-card.bt-changed') || player.querySelector('.bt-table .bt-changed');
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  return {window: innerHeight, nav: box(nav), line: box(line), text: line.innerText.replace(/\\s+/g, ' ').trim(),
          tops: [...nav.querySelectorAll('button')].map(b => b.getBoundingClientRect().top),
          card: card ? box(card) : null};
}"""

#: True once the first card the step changed lies wholly between the window's top and the
#: scene's bar.
CHANGE_IN_VIEW_JS = """() => {
  const player = document.querySelector('.bt-scene-player');
  const card = player.querySelector('.bt-table .bt-card.bt-changed') || player.querySelector('.bt-table .bt-changed');
  if (!card) return false;
  const r = card.getBoundingClientRect(), bar = player.querySelector('.bt-scene-nav').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= bar.top + 1;
}"""


def test_scene_bar_on_a_phone_is_one_row_and_the_sentence_and_the_change_shows(page, site_url):
    """On a phone the scene's sticky bar is one row of controls and the step's sentence (not
    its heading again), at most 15 % of the screen's height, the sentence above the buttons,
    not behind them; after a step the card it changed is brought into view above the bar
    (issue 52 §3). The learner starts with the scene's top at the top of the screen."""
    page.set_viewport_size(PHONE)
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    player.evaluate("p => p.scrollIntoView({block: 'start'})")
    step = player.get_by_text(re.compile(r"Schritt \d+ / \d+")).first
    for k in (1, 2):
        player.get_by_role("button", name="▶ weiter").click()
        expect(step).to_contain_text(f"Schritt {k} /")
        page.wait_for_function(CHANGE_IN_VIEW_JS, timeout=EXPECT_TIMEOUT_MS, polling=200)
        bar = page.evaluate(SCENE_BAR_JS)
        assert bar["nav"]["height"] <= 0.15 * bar["window"], bar
        assert len(bar["tops"]) == 4 and max(bar["tops"]) - min(bar["tops"]) <= 2, bar  # one row
        assert bar["line"]["top"] >= bar["nav"]["top"] - 1 and bar["line"]["bottom"] <= min(bar["tops"]) + 1, bar
        heading = player.locator(".bt-info h4").first.inner_text().strip()
        sentence = re.sub(r"\s+", " ", player.locator(".bt-info p").first.inner_text()).strip()
        assert bar["text"] == sentence and heading not in bar["text"], (bar["text"], heading)
