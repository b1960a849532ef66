"""The site in class: printing, projector mode, keyboard and contrast (Voilà + chromium).

Uses the session's ``site_url``. PDFs come from Chromium's own print (``page.pdf``). Every
chapter and lesson (and each lesson's teacher version) is opened once, in one context, for
axe-core and for the PDF (:func:`view`)."""
from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator

import pytest

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import VISIT_OUTCOME_JS, open_page
from playwright.sync_api import expect
from pypdf import PdfReader

from bohnteach.content import chapters
from bohnteach.render.style import BUTTON_COLOURS

CHAPTERS = [page.name for page in chapters.PAGES]
LESSONS = [f"tutorials/{name}" for name, _title in chapters.LESSONS]
TEACHER = "?lehrkraft=1"
#: (page, query): every chapter and lesson as a student sees it, every lesson as the teacher
VIEWS = [(name, "") for name in CHAPTERS + LESSONS] + [(name, TEACHER) for name in LESSONS]
#: A4 at 96 px per inch: a page whose content is twice this high on screen is long
A4_PX = 1123
#: The text width of an A4 sheet with the browser's 1 cm margins, in CSS px (190 mm)
A4_TEXT_PX = 718
#: each chart's zoom for print is set once plotly has drawn it (the template's Charts script)
CHARTS_FITTED_JS = """() => [...document.querySelectorAll('.js-plotly-plot')]
  .every(c => c.style.getPropertyValue('--bt-print-zoom') !== '')"""
#: only in a lesson's teacher version (tutorials/README.md, data/teacher_notes.toml)
TEACHER_ONLY = ("Ablauf in 45 Minuten", "Lösungen")


def _pdf_text(page) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    text = "\n".join(p.extract_text() for p in reader.pages)
    return len(reader.pages), unicodedata.normalize("NFKC", text)  # "ﬂ" ligatures → "fl"


def _squeezed(text: str) -> str:
    """``text`` without whitespace or soft hyphens (PDF lines break where the screen does not)."""
    return re.sub(r"[\s\u00ad]+", "", unicodedata.normalize("NFKC", text))


@pytest.fixture(scope="module")
def classroom(browser) -> Iterator:
    """One browser context (1280 × 720) for every page of this module."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    yield context
    context.close()


@pytest.fixture(scope="module", params=VIEWS, ids=[n + ("-lehrkraft" if q else "") for n, q in VIEWS])
def view(request, classroom, site_url) -> Iterator[tuple]:
    """``(page, name, query)``: the page opened once, every widget drawn (nested boxes too),
    for all tests of this module that take it; closed before the next page opens."""
    name, query = request.param
    page = classroom.new_page()
    if not query:  # the context's browser keeps the teacher view once a teacher page opened it
        page.add_init_script("localStorage.removeItem('bohnteach-lehrkraft')")
    open_page(page, site_url, name, query=query)
    outcome = page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000, polling=200).json_value()
    assert outcome == "ok", (name, outcome)
    yield page, name, query
    page.close()


def test_axe_finds_nothing_serious(view):
    """axe-core: no serious or critical violation on any page, lesson or teacher version."""
    page, name, _ = view
    result = Axe().run(page)
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == [], name


def test_prints_completely_without_buttons(view):
    """Chromium's PDF: the whole page (first and last heading, the footer), long pages on
    several sheets, no button label but the cards of a board (Mach du!, Probespiel: the
    learner's hand), teacher notes and solutions only in the teacher version, a typed answer
    not printed."""
    page, name, query = view
    headings = page.locator("#rendered_cells :is(h1, h2):visible").all_inner_texts()
    labels = {t.strip() for t in page.locator(
        "#rendered_cells button:visible:not(.bt-pick)").all_inner_texts()} - {""}
    cards = page.locator("#rendered_cells .bt-board .bt-pick:visible").all_inner_texts()
    height = page.evaluate("document.getElementById('rendered_cells').scrollHeight")
    typed = page.locator(".bt-exercise input[type=text]")
    if typed.count():
        typed.first.fill("4711/13")
    pages, text = _pdf_text(page)
    squeezed = _squeezed(text)
    for heading in (headings[0], headings[-1], "Impressum", *cards):
        assert _squeezed(heading) in squeezed, (name, heading)
    assert pages >= height // (2 * A4_PX) and (pages > 1 or height < 2 * A4_PX), (name, pages, height)
    lines = {line.strip() for line in text.splitlines()}
    # no button prints: neither a line of its own nor the scene bar (prose may name „▶ weiter“)
    assert not labels & lines and not re.search(r"zurück\s*▶ weiter", text), (name, labels & lines)
    assert "4711/13" not in text, name  # answers print blank
    if name in LESSONS:
        assert all((w in text) == bool(query) for w in TEACHER_ONLY), (name, query)


def test_charts_fit_the_printed_sheet(view):
    """A chart keeps the width it was drawn with on the screen (up to 1250 px here); printed,
    the drawing must fit within an A4 sheet's text width instead of being cut at the right."""
    page, name, _ = view
    if not page.locator(".js-plotly-plot").count():
        pytest.skip("no chart on this page")
    page.wait_for_function(CHARTS_FITTED_JS, timeout=60_000, polling=200)
    page.emulate_media(media="print")
    try:
        widths = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')]
          .map(c => Math.round(c.querySelector('.main-svg').getBoundingClientRect().width))""")
    finally:
        page.emulate_media(media="screen")
    assert widths and max(widths) <= A4_TEXT_PX, (name, widths)


def test_projector_mode_shows_one_section_at_a_time(page, site_url):
    open_page(page, site_url, "02_Phase_1")
    toggle = page.get_by_role("button", name="Beamer-Ansicht")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    where = page.locator(".bt-slide-where")
    expect(where).to_contain_text(re.compile(r"Abschnitt 1 von \d+"))
    page.keyboard.press("PageDown")
    expect(where).to_contain_text("Abschnitt 2 von")
    expect(page.locator(".bt-scene-player:visible")).to_have_count(1)


def test_keyboard_keeps_focus_and_steps_scenes(page, site_url):
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    player.focus()
    page.keyboard.press("ArrowRight")
    expect(player).to_contain_text("Schritt 1")
    expect(player.locator("[aria-live=polite]").first).to_be_attached()
    tryit = page.locator(".bt-tryit").first
    plant = tryit.get_by_role("button", name="Auf Feld 2 pflanzen")
    plant.focus()
    page.keyboard.press("Enter")
    expect(tryit.locator("button:focus")).to_have_count(1)  # not lost to the page
    harvest = tryit.get_by_role("button", name="Feld 1 ernten")
    r, g, b = (int(BUTTON_COLOURS["warning"][i:i + 2], 16) for i in (1, 3, 5))
    expect(harvest).to_have_css("background-color", f"rgb({r}, {g}, {b})")




#: Elements wider than the window or a scroll container wider than its box (none in projector mode)
OVERFLOW_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return e.offsetParent && r.width > 0 && r.right > innerWidth + 1;
  }).map(e => e.tagName + '.' + String(e.className).slice(0, 40));
  if (document.documentElement.scrollWidth > innerWidth) wide.push('html');
  if (cells.scrollWidth > cells.clientWidth) wide.push('#rendered_cells');
  return wide;
}"""


@pytest.mark.parametrize("name", ["02_Phase_1", "tutorials/03_Was_bringt_ein_Feld"])
def test_projector_mode_fits_1280_px(page, site_url, name):
    """Every section of the Beamer-Ansicht fits 1280 × 720 without horizontal scrolling."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, site_url, name)
    assert page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000).json_value() == "ok"
    page.get_by_role("button", name="Beamer-Ansicht").click()
    where = page.locator(".bt-slide-where")
    expect(where).to_contain_text("Abschnitt 1 von")
    count = int(re.search(r"von (\d+)", where.inner_text()).group(1))
    assert count >= 3
    for k in range(1, count + 1):
        expect(where).to_contain_text(f"Abschnitt {k} von {count}")
        assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [1280, 1280]
        try:  # a chart shown on this section is re-measured by plotly, asynchronously
            page.wait_for_function(f"() => ({OVERFLOW_JS})().length === 0", timeout=30_000)
        except Exception as exc:
            raise AssertionError(f"{name}, Abschnitt {k}: {page.evaluate(OVERFLOW_JS)}") from exc
        page.keyboard.press("PageDown")


def test_focus_moves_on_when_weiter_is_disabled(page, site_url):
    """Stepping a scene to its end with Enter: when „▶ weiter“ is disabled, focus is on
    another visible, enabled control of the scene, not on the page."""
    open_page(page, site_url, "02_Phase_1")
    player = page.locator(".bt-scene-player").first
    forward = player.get_by_role("button", name="▶ weiter")
    step = player.get_by_text(re.compile(r"Schritt \d+ / \d+")).first
    expect(step).to_contain_text("Schritt 0 /")
    last = int(re.search(r"/ (\d+)", step.inner_text()).group(1))
    forward.focus()
    for k in range(1, last + 1):
        page.keyboard.press("Enter")
        expect(step).to_contain_text(f"Schritt {k} / {last}")
    expect(forward).to_be_disabled()
    focused = page.locator(".bt-scene-player button:focus")
    expect(focused).to_have_count(1)
    expect(focused).to_be_enabled()
    expect(focused).to_be_visible()


def _printed_lines(reader: PdfReader) -> list[list[str]]:
    """Each printed page's lines of text, top to bottom (fragments on one baseline joined)."""
    pages = []
    for sheet in reader.pages:
        rows: dict[float, list[str]] = {}

        def seen(text, cm, tm, _font, _size, rows=rows):
            if text.strip():
                rows.setdefault(round(tm[5] * cm[3] + cm[5]), []).append(text.strip())

        sheet.extract_text(visitor_text=seen)
        pages.append([unicodedata.normalize("NFKC", " ".join(rows[y])) for y in sorted(rows, reverse=True)]
                     if rows else [])
    return pages


def _lowest_text(sheet) -> float:
    """The height above the sheet's foot of its lowest text, in points."""
    ys: list[float] = []
    sheet.extract_text(visitor_text=lambda text, cm, tm, _f, _s: ys.append(tm[5] * cm[3] + cm[5])
                       if text.strip() else None)
    return min(ys) if ys else float(sheet.mediabox.height)


#: The headings of the page as printed: chapter and section headings, a scene's number.
HEADINGS_JS = """() => [...document.querySelectorAll(
    '#rendered_cells h1, #rendered_cells h2, #rendered_cells h3, #rendered_cells h4, #rendered_cells .bt-scene-number')]
  .filter(e => e.checkVisibility()).map(e => e.innerText.trim()).filter(Boolean)"""


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_printed_chapter_fills_its_pages_and_prints_no_controls(classroom, site_url, chapter):
    """A chapter on A4 (issue 52 §4, chapter 02): every sheet but the last at least a third full, no
    heading (a scene's „Szene 2 von 3“ included) as the last line of a sheet, and no scene's
    bar („Schritt 0 / 3“, its buttons)."""
    page = classroom.new_page()
    try:
        open_page(page, site_url, chapter)
        assert page.wait_for_function(VISIT_OUTCOME_JS, timeout=240_000, polling=200).json_value() == "ok"
        page.emulate_media(media="print")
        headings = {_squeezed(h).casefold() for h in page.evaluate(HEADINGS_JS)}
        reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    finally:
        page.close()
    sheets = reader.pages
    assert len(sheets) > 1
    for number, sheet in enumerate(sheets[:-1], 1):
        height = float(sheet.mediabox.height)
        assert height - _lowest_text(sheet) >= height / 3, f"Seite {number} ist weniger als ein Drittel voll"
    for number, lines in enumerate(_printed_lines(reader)[:-1], 1):
        assert lines and _squeezed(lines[-1]).casefold() not in headings, (number, lines[-3:])
    text = "\n".join(sheet.extract_text() for sheet in sheets)
    assert not re.search(r"Schritt \d+ / \d+", text)
