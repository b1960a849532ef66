"""The static site (``bohnteach build-static``: Voici, Python in the browser on Pyodide).

The site is built once per session into a cache folder keyed by a hash of everything the
build reads (sources, notebooks, pins), so a second run reuses it; then it is served by
``bohnteach serve-static``'s server on 127.0.0.1 and opened in Debian's chromium.  Every
request to another host is aborted and recorded, and each test asserts there was none.

Checks: the build's pins and lock; every page and lesson renders without an error; the
build's preview shows while Python starts and gives way to the live page; a scene steps;
"Mach du!" refuses a wrong move with its rule; a lesson checks an answer and draws its chart;
``?lehrkraft=1`` shows the solutions; the Probespiel answers a move.  The kernel starts
from the build's memory snapshot (:mod:`bohnteach.site.snapshot`) with the address, a fresh
random state and site-packages' files; a snapshot that does not fit falls back to the
normal start with one console line (each forced here).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import pkgutil
import re
import shutil
import subprocess
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect
import background_build
from browser_helpers import (_OUTPUTS_RENDERED_JS, EXPECT_TIMEOUT_MS, MATHJAX_STARTED_JS,
                             assert_english_mach_du_refusal, assert_english_teacher_solution, collect_errors,
                             follow_site_links, visible_errors)

import bohnteach.lessons
from bohnteach.content import chapters
from bohnteach.game.errors import find_rule
from bohnteach.site import snapshot, static
from bohnteach.site.reach import reached_top_levels

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([*(f"notebooks/{page.name}" for page in chapters.PAGES), "notebooks/app"])  # app too
LESSONS = sorted(f"tutorials/{name}" for name, _title in chapters.LESSONS)
#: Milliseconds a page may take to render: Pyodide starts in seconds on a quiet machine,
#: but minutes on a 2-core machine shared with other test runs (seen: 11 min at load 50–80).
RENDER_TIMEOUT_MS = 900_000
WIDGETS_RENDERED = """() => [...document.querySelectorAll('.jp-OutputArea-output.lm-Panel')]
  .every(e => e.querySelector('.jupyter-widgets'))"""


@pytest.fixture(scope="session")
def static_build() -> Path:
    """The built site, reused while nothing it is built from changed (made beside the
    tests before this file's: :mod:`background_build`)."""
    return background_build.ready()


@pytest.fixture(scope="session")
def static_url(static_build: Path) -> Iterator[str]:
    with static.serving(static_build) as base:
        yield base


class Visit:
    """A browser context for the static site: records (and aborts) every request to a
    host other than 127.0.0.1, and the console errors of the page it opens."""

    def __init__(self, browser, base: str) -> None:
        self.base = base
        self.external: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        # clicks and fills wait as long as expect() does: Python answers in the browser,
        # which takes seconds on a busy machine (Playwright's own default is 30 s)
        self.context.set_default_timeout(EXPECT_TIMEOUT_MS)
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        # every console line, the kernel's worker's too (the snapshot's start says so there)
        self.console: list[str] = []
        self.page.on("console", lambda msg: self.console.append(msg.text))
        # Voici's page has its own JupyterLab core; issue 34 §8 (and the template's filter)
        # concerns Voilà's pages only, and the static site's version warnings are unchecked
        self.errors = collect_errors(self.page, version_warnings=False)

    def _route(self, route) -> None:
        host = urlparse(route.request.url).hostname
        if host == "127.0.0.1":
            route.continue_()
        else:
            self.external.append(route.request.url)
            route.abort()

    def open(self, name: str, query: str = "") -> None:
        self.errors.clear()
        self.page.goto(self.base + static.static_page_path(name) + query,
                       timeout=RENDER_TIMEOUT_MS)
        try:
            self.page.wait_for_function(_OUTPUTS_RENDERED_JS, timeout=RENDER_TIMEOUT_MS,
                                        polling=200)
            self.page.wait_for_function(WIDGETS_RENDERED, timeout=RENDER_TIMEOUT_MS,
                                        polling=200)
        except Exception as exc:
            text = self.page.inner_text("body")[:2000]
            raise AssertionError(f"{name} did not render: {exc}\n{text}\n{self.errors}") from exc

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def visit(browser, static_url: str) -> Iterator[Visit]:
    """One context for the module's tests: its cache fills on the first page, as for a
    visitor who goes from page to page."""
    v = Visit(browser, static_url)
    yield v
    v.close()
    assert v.external == [], f"requests to other hosts: {v.external}"


def _assert_clean(v: Visit) -> None:
    assert v.external == [], v.external
    assert visible_errors(v.page) == []
    errors = v.page.locator(".bt-box.bt-error")
    assert errors.count() == 0, errors.first.inner_text()
    assert v.errors == []


# --- what a page preloads -------------------------------------------------------------


def test_reach_follows_only_what_the_page_calls():
    # cells are separate sources; a name imported in one is used in the next
    scenes = ["from bohnteach.site import pages", "pages.chapter_scenes('phase1')"]
    reached = reached_top_levels(scenes)
    assert {"bohnteach", "ipywidgets"} <= reached  # ScenePlayer, imported inside the call
    assert "plotly" not in reached  # pages.py draws charts elsewhere, behind lazy imports
    # every page's header registers the chart display by name, without importing plotly
    assert "plotly" not in reached_top_levels(["from bohnteach.site import pages",
                                               "pages.page_header('02_Phase_1')"])
    # a chart behind a lazy import inside a function two modules away
    assert "plotly" in reached_top_levels(["from bohnteach.editions.ladybohn.teaching import page",
                                           "page.show('diagramm')"])
    # a module that imports plotly at its top, imported by name
    assert "plotly" in reached_top_levels(["from bohnteach.site import bohnometer_page as s"])
    assert reached_top_levels(["import json"]) == {"json"}


# --- the build, without a browser ----------------------------------------------------


def test_build_pins_every_version(static_build: Path):
    manifest = json.loads((static_build / static.MANIFEST).read_text())
    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["static"]
    pins = dict(re.fullmatch(r"([\w.-]+)==([\w.]+)", r).groups() for r in extra if "==" in r)
    assert {"voici-core", "jupyterlite-core", "jupyterlite-pyodide-kernel"} <= set(pins)
    for name, version in pins.items():
        assert manifest["versions"][name] == version, name
    assert manifest["versions"]["pyodide"] == static.PYODIDE_VERSION
    assert sorted(manifest["pages"]) == PAGES + LESSONS


def test_lock_names_only_wheels_inside_the_build(static_build: Path):
    folder = static_build / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    names = set(lock["packages"])
    for name, entry in lock["packages"].items():
        assert "/" not in entry["file_name"], entry["file_name"]
        wheel = folder / entry["file_name"]
        assert wheel.is_file(), wheel
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= names, name
    for needed in ("ipywidgets", "plotly", "bohnteach", "pyodide-kernel", "ipython"):
        assert needed in names
    for name in static.PLACEHOLDERS:  # metadata only: nothing to unpack or import
        with zipfile.ZipFile(folder / lock["packages"][name]["file_name"]) as zf:
            assert not [n for n in zf.namelist() if ".dist-info/" not in n], name
    manifest = json.loads((static_build / static.MANIFEST).read_text())
    for page, packages in manifest["pages"].items():
        assert {static._norm(p) for p in packages} <= names, page
        assert "bohnteach" in packages and set(static.KERNEL_PACKAGES) <= set(packages), page
    # each page preloads what its code can reach, no more: charts only where drawn
    pages = manifest["pages"]
    assert "plotly" in pages["notebooks/12_Bohnometer"] and "plotly" in pages["notebooks/14_Ladybohn"]
    assert all("plotly" in pages[lesson] for lesson in LESSONS)
    assert "plotly" not in pages["notebooks/02_Phase_1"] and "plotly" not in pages["notebooks/11_Probespiel"]
    assert "ipywidgets" in pages["notebooks/02_Phase_1"]


def test_wheels_bring_bytecode_for_the_browsers_python(static_build: Path):
    """Every module arrives compiled (the browser would compile sources on each visit),
    for Pyodide's Python, and each wheel's RECORD lists its files as they are."""
    folder = static_build / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    magic = None
    for name, entry in lock["packages"].items():
        with zipfile.ZipFile(folder / entry["file_name"]) as zf:
            names = zf.namelist()
            assert not [n for n in names if n.endswith(".py") and ".dist-info/" not in n
                        and ".data/" not in n], name
            record = next(n for n in names if n.endswith(".dist-info/RECORD"))
            rows = dict(line.split(",", 1) for line in zf.read(record).decode().split())
            assert set(rows) == set(names), name
            for member, row in rows.items():
                if member != record:
                    digest, size = row.split(",")
                    data = zf.read(member)
                    assert (digest, int(size)) == (static._record_hash(data), len(data)), member
                    if member.endswith(".pyc"):
                        assert magic in (None, data[:4]), member  # one Python for all
                        magic = data[:4]
    # the magic number of CPython 3.13's bytecode (Pyodide 0.29's Python)
    assert magic is not None and int.from_bytes(magic[:2], "little") == 3571


def test_pages_load_nothing_from_other_hosts(static_build: Path):
    tag = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=[\"'](?:https?:)?//", re.I)
    for name in PAGES + LESSONS:
        html = (static_build / static.static_page_path(name).lstrip("/")).read_text()
        assert not tag.search(html), (name, tag.search(html).group(0))
        assert f'"pyodideUrl": "../../../static/pyodide/{snapshot.START_SCRIPT}"' in html
        assert f'"{snapshot.OPTION}": "{snapshot.NAME}"' in html


def test_server_sends_the_types_pyodide_needs(static_url: str):
    for path, wanted in (("/static/pyodide/pyodide.asm.wasm", "application/wasm"),
                         ("/static/pyodide/pyodide.mjs", "text/javascript"),
                         ("/static/pyodide/pyodide-lock.json", "application/json")):
        with urllib.request.urlopen(static_url + path, timeout=30) as response:
            assert response.headers["Content-Type"].split(";")[0] == wanted, path


# --- in the browser --------------------------------------------------------------------


@pytest.mark.parametrize("name", PAGES + LESSONS)
def test_page_renders_without_errors(visit: Visit, name: str):
    visit.open(name)
    _assert_clean(visit)
    assert visit.page.locator("h1").count() >= 1
    assert "Traceback" not in visit.page.inner_text("#rendered_cells")
    # no formula on the site: MathJax is never loaded (bohnteach-app's extension)
    assert not visit.page.evaluate(MATHJAX_STARTED_JS)
    # links between pages point at the built .html files
    hrefs = visit.page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert not [h for h in hrefs if h.split("#")[0].split("?")[0].endswith(".ipynb")], hrefs


#: Where the page's heading stands ([left, top] px), while the preview shows or after it;
#: null until it is laid out. A live heading just drawn into a cell that the start leaves to
#: the browser (``content-visibility: auto``) has no box until the browser's next rendering
#: step, which lays it out before it paints: the visitor never sees it without one.
_HEADING_AT = """(preview) => {
  if (preview && !document.body.classList.contains('bt-previewing')) return 'no preview left';
  const h = document.querySelector('#rendered_cells h1');
  const r = h && h.getBoundingClientRect();
  return r && r.height > 0 ? [Math.round(r.left), Math.round(r.top)] : null;
}"""


def _heading_at(page, preview: bool):
    """The heading's place (:data:`_HEADING_AT`), once it has one."""
    return page.wait_for_function(_HEADING_AT, arg=preview, timeout=EXPECT_TIMEOUT_MS).json_value()


def test_preview_shows_while_python_starts_then_the_live_page(browser, static_url: str):
    """A fresh visitor sees the page's content from the build at once — inert, under a
    banner — and the live page in its place once Python has run."""
    v = Visit(browser, static_url)
    try:
        page = v.page
        page.goto(static_url + static.static_page_path("02_Phase_1"), wait_until="commit",
                  timeout=RENDER_TIMEOUT_MS)
        preview = page.locator(".bt-preview .bt-scene-player").first
        expect(preview).to_be_visible()
        expect(preview).to_contain_text("Schritt 0")
        expect(page.locator(".bt-preview-banner")).to_contain_text("Python startet im Browser")
        # inert: its buttons take no focus (and no click); checked in one step, while it shows
        assert page.evaluate("""() => {
          const b = document.querySelector('.bt-preview button');
          if (!b) return 'no preview left';
          b.focus();
          return document.activeElement === b ? 'focusable' : 'inert';
        }""") == "inert"
        before = _heading_at(page, True)
        assert before != "no preview left"
        expect(page.locator(".bt-preview")).to_have_count(0, timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("body")).not_to_have_class(re.compile("bt-previewing"))
        # the text does not jump when the live page takes the preview's place
        assert _heading_at(page, False) == before
        expect(page.locator(".bt-preview-banner")).to_be_hidden()
        player = page.locator(".bt-scene-player").first
        player.get_by_role("button", name=re.compile("weiter")).click()
        expect(player).to_contain_text("Schritt 1")
        assert v.external == [] and visible_errors(page) == []
    finally:
        v.close()


def test_a_long_page_lays_out_far_cells_after_the_start_and_has_its_true_height(browser, static_url: str):
    """While the page starts, a cell away from the screen is not laid out (a large part of
    a long chapter's start in the browser); once it has started, every cell is: the page's
    height is its real one, and scrolling to the end does not make it grow."""
    v = Visit(browser, static_url)
    try:
        page = v.page
        page.goto(static_url + static.static_page_path("15_Indiana_Bohnes"), wait_until="commit",
                  timeout=RENDER_TIMEOUT_MS)
        last_cell = "() => getComputedStyle([...document.querySelectorAll('#rendered_cells [cell-index]')].pop()).contentVisibility"
        expect(page.locator(".bt-preview").first).to_be_visible()
        assert page.evaluate(last_cell) == "auto", "skipped while Python starts"
        expect(page.locator("body")).not_to_have_class(re.compile("bt-starting"), timeout=RENDER_TIMEOUT_MS)
        assert page.evaluate(last_cell) == "visible"
        height = page.evaluate("() => document.getElementById('rendered_cells').scrollHeight")
        page.evaluate("() => { const c = document.getElementById('rendered_cells'); c.scrollTop = c.scrollHeight; }")
        expect(page.locator(".bt-nav").last).to_be_in_viewport()
        assert page.evaluate("() => document.getElementById('rendered_cells').scrollHeight") == height
        assert v.external == [] and visible_errors(page) == []
    finally:
        v.close()


#: Notes in the page (window.btStart) when every output but the charts is first drawn with
#: no preview left, and when the start ends (body.bt-starting goes).
_START_TIMES = """(() => { const t = window.btStart = {};
  const shown = o => o.classList.contains('lm-Panel') ? !!o.querySelector('.jupyter-widgets')
    : (o.childElementCount > 0 || o.textContent.trim() !== '');
  new MutationObserver(() => {
    if (t.drawn || !document.body || document.querySelector('.bt-preview')) return;
    const outs = document.querySelectorAll('#rendered_cells .jp-OutputArea-output:not(.jp-RenderedPlotly)');
    if (outs.length && [...outs].every(shown)) t.drawn = performance.now();
  }).observe(document, {subtree: true, childList: true, attributes: true});
  document.addEventListener('DOMContentLoaded', () => {
    let starting = document.body.classList.contains('bt-starting');
    new MutationObserver(() => {
      if (starting && !document.body.classList.contains('bt-starting') && !t.end) t.end = performance.now();
      starting = starting || document.body.classList.contains('bt-starting');
    }).observe(document.body, {attributes: true, attributeFilter: ['class']});
  });
})()"""


def test_the_start_ends_when_the_outputs_are_drawn_and_far_charts_follow(browser, static_url: str):
    """A page's start ends as soon as every output but its charts is drawn, not half a
    second of stillness later (it used to wait so: the charts below the screen, drawn only
    after the start, came 0.5–0.7 s late); those charts are then all drawn."""
    v = Visit(browser, static_url)
    try:
        page = v.page
        page.add_init_script(_START_TIMES)
        page.goto(static_url + static.static_page_path("tutorials/04_Rechnen_oder_simulieren"),
                  wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function("() => window.btStart.end", timeout=RENDER_TIMEOUT_MS, polling=100)
        times = page.evaluate("window.btStart")
        assert "drawn" in times and times["end"] - times["drawn"] < 250, times
        charts = page.locator(".jp-RenderedPlotly")
        assert charts.count() >= 4
        page.wait_for_function("""() => [...document.querySelectorAll('.jp-RenderedPlotly')]
          .every(c => c.querySelector('.main-svg'))""", timeout=EXPECT_TIMEOUT_MS, polling=100)
        assert v.external == [] and visible_errors(page) == []
    finally:
        v.close()


def test_the_root_shows_the_start_pages_prose_before_python_runs(browser, static_url: str):
    """The first thing a visitor sees is the start page's preview: its heading and prose,
    not Python's name for them."""
    v = Visit(browser, static_url)
    try:
        page = v.page
        page.goto(static_url + "/", wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        preview = page.locator(".bt-preview")
        expect(preview.locator("h1").first).to_have_text(re.compile("^Bohnanza lernen"),
                                                         use_inner_text=True)
        expect(preview.locator(".bt-scene-player").first).to_contain_text("Schritt 0")
        # one below another as on the live page, not side by side: the prose, then the scene
        # (checked in one step, while the preview shows)
        assert page.evaluate("""() => {
          const app = document.querySelector('.bt-preview .bt-app');
          if (!app) return 'no preview left';
          const h1 = app.querySelector('h1').getBoundingClientRect();
          const scene = app.querySelector('.bt-scene-player').getBoundingClientRect();
          return scene.top >= h1.bottom && Math.abs(scene.left - h1.left) < 50 ? 'stacked' : 'columns';
        }""") in ("stacked", "no preview left")
        assert not page.evaluate("() => document.body.innerText.includes('Markdown object')")
    finally:
        v.close()


def test_every_page_has_its_english_preview_beside_it(static_build: Path):
    """The build runs every chapter and lesson once more in English (issue 56): its preview
    for an English address, prose and outputs, no German heading left."""
    from bohnteach.site.addresses import registered_notebooks

    for key in registered_notebooks():
        built = static_build / static.static_page_path(key).lstrip("/")
        preview = json.loads(built.with_name(f"{built.stem}.en.json").read_text("utf-8"))
        assert preview["lang"] == "en" and preview["parts"], key
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", "".join(preview["parts"]), re.S)
        assert heading, key
    start = static_build / static.static_page_path("00_Start").lstrip("/")
    assert "Learning Bohnanza" in start.with_name("00_Start.en.json").read_text("utf-8")


def test_an_english_deep_link_shows_the_english_preview_while_python_starts(browser, static_url: str):
    """An English address shows the chapter's English preview at once (the build's pages
    are German; no German shows), then the live chapter in English."""
    v = Visit(browser, static_url)
    try:
        page = v.page
        page.goto(static_url + "/?kapitel=02_Phase_1&lang=en", wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        seen = page.wait_for_function("""() => {
          const p = document.querySelector('.bt-preview');
          if (!p) return document.readyState === 'loading' ? false : 'no preview left';
          if (document.body.classList.contains('bt-preview-waits')) return false;  // hidden yet
          const h = p.querySelector('h1');
          if (!h) return false;
          if (!/^Phase 1: planting/.test(h.innerText)) return 'heading: ' + h.innerText;
          const scene = p.querySelector('.bt-scene-player');
          if (!scene) return false;
          if (/Schritt \d|Ausgangslage/.test(p.innerText)) return 'German in the preview';
          return scene.innerText.includes('Step 0') ? 'english' : 'scene: ' + scene.innerText.slice(0, 80);
        }""", timeout=EXPECT_TIMEOUT_MS).json_value()
        assert seen == "english", seen
        expect(page.locator("html")).to_have_attribute("data-bt-shown", "kapitel=02_Phase_1&lang=en",
                                                      timeout=RENDER_TIMEOUT_MS)
        expect(page.locator(".bt-app h1").first).to_have_text(re.compile("^Phase 1: planting"),
                                                               use_inner_text=True)
        assert v.external == [] and visible_errors(page) == [] and v.errors == []
    finally:
        v.close()


def test_app_one_python_addresses_and_preview_of_a_deep_link(browser, static_url: str):
    """The root opens the app on the chapter its address names: that chapter's preview at
    once, then the live chapter; a link and Back switch chapters without a new page (one
    Python for the visit); a wrong move in Mach du! is refused there."""
    v = Visit(browser, static_url)
    documents: list[str] = []
    v.page.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)
    try:
        page = v.page
        page.goto(static_url + "/?kapitel=02_Phase_1", wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        # the root's page only sends the visitor on: the app's page is the one looked at
        page.wait_for_url(re.compile(r"/notebooks/app\.html\?kapitel=02_Phase_1$"), wait_until="commit",
                          timeout=RENDER_TIMEOUT_MS)
        # the chapter's preview, with its scene (the start page's preview shows a scene too:
        # looked at once the chapter's heading is there, in one step while the preview shows)
        seen = page.wait_for_function("""() => {
          const p = document.querySelector('.bt-preview');
          if (!p) return document.readyState === 'loading' ? false : 'no preview left';
          const h = p.querySelector('h1');
          if (!h || !/Phase 1/.test(h.innerText)) return false;
          const scene = p.querySelector('.bt-scene-player');
          if (!scene || !scene.innerText.includes('Schritt 0')) return 'no scene';
          // one below another as on the chapter's page, not side by side
          const top = scene.getBoundingClientRect().top, bottom = h.getBoundingClientRect().bottom;
          return top >= bottom ? 'scene' : 'columns';
        }""", timeout=EXPECT_TIMEOUT_MS).json_value()
        assert seen == "scene", seen
        before = _heading_at(page, True)
        expect(page.locator("html")).to_have_attribute("data-bt-shown", "kapitel=02_Phase_1",
                                                      timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("body")).not_to_have_class(re.compile("bt-previewing"))
        assert before in ("no preview left", _heading_at(page, False))
        heading = page.locator(".bt-app h1").first
        expect(heading).to_have_text(re.compile("^Phase 1"), use_inner_text=True)
        assert page.url.endswith("/notebooks/app.html?kapitel=02_Phase_1")
        nxt = page.locator(".bt-app .bt-header a.bt-nav-next")
        expect(nxt).to_have_attribute("href", re.compile(r"app\.html\?kapitel=03_Phase_2_und_Handel$"))
        nxt.click()
        expect(page.locator("html")).to_have_attribute("data-bt-shown", "kapitel=03_Phase_2_und_Handel")
        expect(heading).to_have_text(re.compile("^Phase 2"), use_inner_text=True)
        page.go_back()
        expect(page.locator("html")).to_have_attribute("data-bt-shown", "kapitel=02_Phase_1")
        tryit = page.locator(".bt-tryit").first
        tryit.scroll_into_view_if_needed()
        tryit.get_by_role("button", name="Auf Feld 1 pflanzen").click()
        expect(tryit.locator(".bt-refusal")).to_contain_text("Nicht erlaubt")
        assert len(documents) == 2, documents  # the root's redirect and the app: no other page
        assert len(v.context.pages) == 1
        assert v.external == [] and visible_errors(page) == [] and v.errors == []
    finally:
        v.close()



@pytest.fixture(scope="module")
def sub_path_url(static_build: Path, tmp_path_factory) -> Iterator[str]:
    """The build served under ``/bohnteach/``, as GitHub Pages serves a fork's site."""
    root = tmp_path_factory.mktemp("sub-path")
    (root / "bohnteach").symlink_to(static_build, target_is_directory=True)
    with static.serving(root) as base:
        yield base + "/bohnteach"


@pytest.mark.parametrize("where", ["root", "sub-path"])
def test_every_chapters_and_lessons_links_lead_to_their_page_inside_the_app(
        browser, static_url: str, where: str, request):
    """Reached inside the app, every chapter's and lesson's previous / next / home links
    lead to the page they name, top and bottom, at the root and under a sub-path (issue 52
    §1: a lesson's top links led to „Seite nicht gefunden“)."""
    base = static_url if where == "root" else request.getfixturevalue("sub_path_url")
    v = Visit(browser, base)
    try:
        v.page.goto(base + "/", timeout=RENDER_TIMEOUT_MS)
        v.page.wait_for_url(re.compile(r"/notebooks/app\.html"), timeout=RENDER_TIMEOUT_MS)
        expect(v.page.locator("html")).to_have_attribute("data-bt-shown", re.compile("^(kapitel=00_Start)?$"),
                                                        timeout=RENDER_TIMEOUT_MS)
        expect(v.page.locator("body")).not_to_have_class(re.compile("bt-previewing"), timeout=RENDER_TIMEOUT_MS)
        visited = follow_site_links(v.page)
        assert set(visited) == {f"kapitel={p.name}" for p in chapters.PAGES} | {
            f"lektion={name}" for name, _title in chapters.LESSONS}
        assert v.page.url.startswith(base + "/voici/render/notebooks/app.html?")
        assert v.external == [] and visible_errors(v.page) == [] and v.errors == []
    finally:
        v.close()

def test_scene_steps_and_wrong_move_is_refused(visit: Visit):
    visit.open("02_Phase_1")
    page = visit.page
    player = page.locator(".bt-scene-player").first
    expect(player).to_contain_text("Schritt 0")
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("Schritt 1")

    tryit = page.locator(".bt-tryit").first
    tryit.scroll_into_view_if_needed()
    tryit.get_by_role("button", name="Auf Feld 1 pflanzen").click()
    # the front card is a Feuerbohne, field 1 grows Blue beans: refused with the rule's
    # title, its explanation and its source, as the catalogue words them
    rule = find_rule("field.one-variety")
    refusal = tryit.locator(".bt-refusal")
    for part in (f"Nicht erlaubt: {rule.title}", rule.explanation, "Quelle"):
        expect(refusal).to_contain_text(part)
    _assert_clean(visit)


def test_lesson_checks_an_answer_and_draws_its_chart(visit: Visit):
    visit.open("tutorials/02_Zwei_Karten_aufdecken")
    page = visit.page
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()
    # drawn once each by bohnteach's renderer with plotly.js's basic bundle, as under Voilà
    page.wait_for_function("""() => [...document.querySelectorAll('.jp-RenderedPlotly')]
      .every(e => e.querySelector('.main-svg'))""", timeout=EXPECT_TIMEOUT_MS)
    assert page.evaluate("window.btChartDraws") == page.locator(".js-plotly-plot").count()
    task = page.locator(".bt-exercise").nth(1)
    field = task.locator("input[type=text]")
    field.fill("12/104")
    task.get_by_role("button", name="Prüfen").click()
    expect(task.locator(".bt-q-wrong")).to_be_visible()
    field.fill("11,26 %")
    task.get_by_role("button", name="Prüfen").click()
    expect(task.locator(".bt-q-correct")).to_contain_text("Richtig!")
    _assert_clean(visit)


def test_teacher_mode_from_the_address(visit: Visit):
    visit.open("tutorials/01_Bohnentreppe", "?lehrkraft=1")
    page = visit.page
    first = page.locator(".bt-exercise").first
    toggle = first.get_by_role("button", name="Lösung zeigen (Lehrkraft)")
    expect(toggle).to_be_visible()
    toggle.click()
    expect(first.locator(".bt-q-solution")).to_be_visible()
    _assert_clean(visit)


def test_trial_game_answers_a_move(visit: Visit):
    visit.open("11_Probespiel")
    page = visit.page
    box = page.locator(".bt-ps-hintbox")
    expect(box).to_have_attribute("data-version", re.compile(r"."))
    version = box.get_attribute("data-version")
    page.locator(".bt-probespiel .bt-ps-plant").first.click()
    expect(box).not_to_have_attribute("data-version", version)
    expect(page.locator(".bt-ps-log")).to_contain_text(re.compile(r"\S"))
    _assert_clean(visit)


# --- the memory snapshot (issue 30) ----------------------------------------------------

#: What a first visit to the app may download, gzipped (Pyodide, the wheels, the snapshot;
#: JupyterLite's own scripts come on top, the same with or without a snapshot): a school
#: network of 16 Mbit/s brings it in about 20 s once, then the browser's cache holds it.
DOWNLOAD_TARGET_BYTES = 40_000_000
RESTORED = "bohnteach: Python aus dem Abbild gestartet"
FELL_BACK = "bohnteach: Abbild nicht nutzbar"


def test_snapshot_is_made_with_the_builds_pyodide(static_build: Path):
    folder = static_build / "static" / "pyodide"
    made = json.loads((static_build / static.MANIFEST).read_text())["snapshot"]
    packed = (folder / f"{snapshot.NAME}.snapshot").read_bytes()
    data = gzip.decompress(packed)  # gzipped by the build: what a first visit downloads
    assert made["pyodide"] == static.PYODIDE_VERSION and made["bytes"] == len(data)
    assert data[:4] == b"\0snp" and len(packed) < len(data) / 2  # Pyodide's snapshot
    # the app's packages, so every page can start from it
    manifest = json.loads((static_build / static.MANIFEST).read_text())
    for page, packages in manifest["pages"].items():
        assert set(packages) <= set(made["packages"]), page
    # site-packages' files as the normal start leaves them: every wheel of those packages,
    # but for their front-end files (JupyterLab extensions, plotly.js), which Python never reads
    bundle = gzip.decompress((folder / f"{snapshot.NAME}.files").read_bytes())
    length = int.from_bytes(bundle[:4], "little")
    index = dict(json.loads(bundle[4:4 + length]))
    assert len(index) == made["files"] and 4 + length + sum(index.values()) == len(bundle)
    site = "/lib/python3.13/site-packages/"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    left_out = set()
    for name in static._closure(lock, made["packages"]):
        with zipfile.ZipFile(folder / lock["packages"][name]["file_name"]) as zf:
            members = {n for n in zf.namelist() if not n.endswith("/")}
        kept = {site + n for n in members if not snapshot.left_out(n)}
        assert kept <= set(index), (name, sorted(kept - set(index))[:3])
        left_out |= members - {n for n in members if not snapshot.left_out(n)}
    assert not any(snapshot.left_out(path.removeprefix(site)) for path in index)
    # a module the snapshot holds imported is an empty file: listed, never read again; one
    # that a page imports later is whole
    assert made["emptied"] > 300 and list(index.values()).count(0) >= made["emptied"]
    assert index[site + "ipywidgets/widgets/widget.pyc"] == 0
    assert index[site + "bohnteach/site/pages.pyc"] == 0
    assert index[site + "plotly/graph_objs/_sunburst.pyc"] > 1000
    assert "plotly/package_data/plotly.min.js" in left_out
    assert not {n for n in left_out if n.endswith((".py", ".pyc", ".json", ".toml"))
                and ".data/" not in n}, sorted(left_out)[:5]
    assert sum(index.values()) < 30e6  # MB the browser unpacks on every start
    # left out only what needs a package the browser does not have (the server's: Voilà,
    # tornado, websockets …), never what the pages run
    in_browser = {imp for e in lock["packages"].values() for imp in e.get("imports", [])}
    for name in made["skipped"]:
        assert name.split(".")[0] not in in_browser or name.startswith("bohnteach.site.serve"), name
    assert not {"bohnteach.site.app", "bohnteach.site.pages", "ipywidgets", "IPython",
                "plotly.graph_objects"} & set(made["skipped"])
    assert made["modules"] > 500  # IPython, the kernel, ipywidgets, plotly's, the site's
    assert made["download_before"] < made["download_after"] <= DOWNLOAD_TARGET_BYTES


#: Restores the snapshot twice in Node with the start script's own code and runs a check
#: in each (argv: Pyodide's folder, the script, the check's Python code).
_RESTORE_JS = r"""
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { gunzipSync } from "node:zlib";
const [folder, script, check] = process.argv.slice(1);
vm.runInThisContext(readFileSync(`${folder}/${script}`, "utf8"));
const { loadPyodide } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
const fromFile = async (path) => new Response(readFileSync(path));
// a host that sends the gzipped files unpacked (Content-Encoding: gzip, which the browser undoes)
const unpackedFromFile = async (path) => {
  const bytes = readFileSync(path);
  return new Response(/\.(snapshot|files)$/.test(path) ? gunzipSync(bytes) : bytes);
};
// a download that ends early: half of the snapshot arrives
const halfSnapshot = async (path) => {
  const bytes = readFileSync(path);
  return new Response(path.endsWith(".snapshot") ? bytes.subarray(0, bytes.length >> 1) : bytes);
};
const options = { indexURL: folder + "/", packages: ["ipywidgets", "bohnteach"],
                  env: { QUERY_STRING: "lektion=01_Bohnentreppe&lehrkraft=1" } };
const results = [];
for (let i = 0; i < 2; i++) {
  const py = await globalThis.bohnteachSnapshot.restore(loadPyodide, options, "%s", [fromFile, unpackedFromFile][i]);
  // a stand-in for JupyterLite's drive, mounted as the kernel mounts it: notes each lookup
  const FS = py.FS, asked = [];
  const ops = { lookup(parent, name) { asked.push(name); throw new FS.ErrnoError(44); } };
  const drive = { mount: (m) => drive.createNode(null, m.mountpoint, 0o40777, 0),
                  createNode(parent, name, mode, dev) {
                    const node = FS.createNode(parent, name, mode, dev);
                    node.node_ops = ops; node.stream_ops = {};
                    return node;
                  } };
  FS.mkdirTree("/drive"); FS.mount(drive, {}, "/drive"); FS.chdir("/drive");
  await py.runPythonAsync("import piplite.piplite\nimport pyodide_kernel\nimport os\nos.chdir('/drive/tutorials')");  // the kernel's start
  const result = JSON.parse(py.runPython(check));
  results.push({ ...result, cwd: py.runPython("import os; os.getcwd()"), asked });
}
let refused = null;
try {
  await globalThis.bohnteachSnapshot.restore(loadPyodide, options, "%s", halfSnapshot);
} catch (err) {
  refused = String((err && err.message) || err);
}
process.stdout.write(JSON.stringify({ results, refused }));
""" % (snapshot.NAME, snapshot.NAME)

_AFTER_RESTORE_CHECK = """
import importlib, importlib.metadata, json, pkgutil, random, sys
import bohnteach
from bohnteach.widgets.questions import request_query, teacher_wanted
result = {"query": request_query(), "teacher": teacher_wanted(request_query()),
          "draw": random.randrange(1, 10**9), "kernel": hasattr(sys.modules["pyodide_kernel"], "kernel_instance")}
# a module plotly imports lazily that no chart of the site uses (so not in the snapshot,
# whose warm-up drew the site's charts): its file must be back
result["lazy_before"] = "plotly.graph_objs._sunburst" in sys.modules
import plotly.graph_objects as go
result["sunburst"] = go.Figure(go.Sunburst(labels=["a"], parents=[""])).to_dict()["data"][0]["type"]
# every module of bohnteach (the server's aside), data files and metadata
failed = []
for info in pkgutil.walk_packages(bohnteach.__path__, "bohnteach."):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as exc:
        if exc.name.split(".")[0] in ("bohnteach", "ipywidgets", "plotly", "IPython", "traitlets"):
            failed.append(f"{info.name}: {exc}")
result["failed"] = failed
# a package's listing finds the modules the snapshot holds (their files are empty)
import bohnteach.lessons
result["listed"] = sorted(info.name for info in pkgutil.iter_modules(bohnteach.lessons.__path__))
from bohnteach.game.rulesets import find_ruleset, ruleset_names
result["rulesets"] = len([find_ruleset(n) for n in ruleset_names()])
result["ipywidgets"] = importlib.metadata.version("ipywidgets")
# the site's folders as the build holds them (Node has no /drive: known from the snapshot)
from pathlib import Path
from bohnteach.site import pages
result["known"] = {f: sorted(pages._files_in(Path(f))) for f in ("/drive/notebooks", "/drive/tutorials")}
# and the notebooks' texts: the start page's list of lessons and the app read them
result["read"] = sorted(f"{f}/{name}" for f, names in result["known"].items() for name in names
                        if json.loads(pages.read_page(Path(f) / name))["cells"])
result["lessons"] = [blurb for _link, _title, blurb in pages.lessons()]
json.dumps(result)
"""


def test_snapshot_restores_address_random_state_and_files(static_build: Path):
    """The start script's restore, run in Node: the kernel's modules are there, the
    address's query is the one given, each restore draws other numbers, every module,
    data file and package metadata a page may reach later can be read, and the site's
    folders and notebooks are known without listing, looking up or reading them in the drive.
    The second restore gets the snapshot and its files unpacked, as from a host that
    compresses them on the way; a snapshot that arrives only in part is refused, not
    restored (Pyodide starts before its bytes are all there)."""
    folder = static_build / "static" / "pyodide"
    done = subprocess.run([static._tool("node"), "--input-type=module", "-e", _RESTORE_JS,
                           str(folder), snapshot.START_SCRIPT, _AFTER_RESTORE_CHECK],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = json.loads(done.stdout.splitlines()[-1])  # after the start's own lines
    first, second = ran["results"]
    assert ran["refused"] and "Abbild unvollständig" in ran["refused"], ran["refused"]
    for result in (first, second):
        assert result["query"] == "lektion=01_Bohnentreppe&lehrkraft=1" and result["teacher"]
        assert result["kernel"]
        assert result["lazy_before"] is False and result["sunburst"] == "sunburst"
        assert result["failed"] == []
        assert result["listed"] == sorted(info.name for info in pkgutil.iter_modules(bohnteach.lessons.__path__))
        assert result["rulesets"] >= 1 and result["ipywidgets"]
        assert {f"{name}.ipynb" for name in PAGES + LESSONS} == {
            f"{folder.removeprefix('/drive/')}/{file}" for folder, files in result["known"].items() for file in files}
        assert len(result["read"]) == len(PAGES + LESSONS) and all(result["lessons"]), result["lessons"]
        assert result["cwd"] == "/drive/tutorials" and result["asked"] == []
    assert first["draw"] != second["draw"]


def test_the_app_in_english_switch_back_reload_and_a_pages_own_address(browser, static_url: str):
    """Issue 56 on the static site: a deep link in English starts from the snapshot (the
    English catalogue read ahead), its preview English; a scene steps and refuses in
    English; the switch goes to German and Back returns; a reload stays English; a page's
    own address in English opens the app."""
    v = Visit(browser, static_url)
    chapter = "kapitel=01_Material_und_Aufbau"
    try:
        page = v.page
        page.goto(static_url + f"/?{chapter}&lang=en", wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_url(re.compile(r"/notebooks/app\.html\?kapitel=01_Material_und_Aufbau&lang=en$"),
                          wait_until="commit", timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("html")).to_have_attribute("data-bt-shown", f"{chapter}&lang=en",
                                                      timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        heading = page.locator(".bt-app h1").first
        expect(heading).to_have_text("Components and setup", use_inner_text=True)
        expect(page).to_have_title("Components and setup – Learning Bohnanza")
        assert [line for line in v.console if line.startswith(RESTORED)], v.console
        players = page.locator(".bt-app .bt-scene-player")
        players.nth(0).get_by_role("button", name=re.compile("next")).click()
        expect(players.nth(0)).to_contain_text("Step 1")
        players.nth(3).scroll_into_view_if_needed()
        players.nth(3).get_by_role("button", name=re.compile("next")).click()
        expect(players.nth(3)).to_contain_text("Not allowed:")

        german = page.locator(".bt-lang a[lang=de]")
        expect(german).to_have_attribute("href", re.compile(r"app\.html\?kapitel=01_Material_und_Aufbau$"))
        german.click()
        expect(page.locator("html")).to_have_attribute("data-bt-shown", chapter)
        expect(heading).to_have_text("Material und Aufbau", use_inner_text=True)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        page.go_back()
        expect(page.locator("html")).to_have_attribute("data-bt-shown", f"{chapter}&lang=en")
        expect(heading).to_have_text("Components and setup", use_inner_text=True)
        page.reload(timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("html")).to_have_attribute("data-bt-shown", f"{chapter}&lang=en",
                                                      timeout=RENDER_TIMEOUT_MS)
        expect(heading).to_have_text("Components and setup", use_inner_text=True)

        page.goto(static_url + static.static_page_path("01_Material_und_Aufbau") + "?lang=en",
                  timeout=RENDER_TIMEOUT_MS)
        page.wait_for_url(re.compile(r"/notebooks/app\.html\?kapitel=01_Material_und_Aufbau&lang=en$"),
                          timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("html")).to_have_attribute("data-bt-shown", f"{chapter}&lang=en",
                                                      timeout=RENDER_TIMEOUT_MS)

        # the next chapter by its link, still English: its Mach-du refuses in English
        nxt = page.locator(".bt-app .bt-header a.bt-nav-next")
        expect(nxt).to_have_attribute("href", re.compile(r"app\.html\?kapitel=02_Phase_1&lang=en$"))
        nxt.click()
        expect(page.locator("html")).to_have_attribute("data-bt-shown", "kapitel=02_Phase_1&lang=en")
        assert_english_mach_du_refusal(page)

        # the teacher view in English, from the address
        _live_app(v, "lektion=01_Bohnentreppe&lehrkraft=1&lang=en")
        expect(page.locator("html")).to_have_attribute("data-bt-shown",
                                                      "lektion=01_Bohnentreppe&lehrkraft=1&lang=en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator(".bt-app .bt-teacher-notes").first).to_be_visible()
        assert_english_teacher_solution(page)
        assert "lehrkraft" not in page.url and page.url.endswith("lang=en")
        assert v.external == [] and visible_errors(page) == [] and v.errors == []
    finally:
        v.close()


def _live_app(v: Visit, query: str) -> None:
    v.page.goto(v.base + f"/voici/render/notebooks/app.html?{query}", timeout=RENDER_TIMEOUT_MS)
    expect(v.page.locator("html")).to_have_attribute(
        "data-bt-shown", re.compile("^" + re.escape(query.split("&")[0])), timeout=RENDER_TIMEOUT_MS)


def test_app_starts_from_the_snapshot_with_a_fresh_random_game(browser, static_url: str):
    """Two visitors of the Probespiel: each kernel starts from the snapshot, and each is
    dealt its own game (the random state is reseeded after the restore)."""
    games = []
    for _ in range(2):
        v = Visit(browser, static_url)
        try:
            _live_app(v, "kapitel=11_Probespiel")
            log = v.page.locator(".bt-app .bt-ps-log")
            expect(log).to_contain_text("Spiel Nr.")
            games.append(re.search(r"Spiel Nr\. (\d+)", log.inner_text()).group(1))
            assert [line for line in v.console if line.startswith(RESTORED)], v.console
            assert not [line for line in v.console if line.startswith(FELL_BACK)], v.console
            _assert_clean(v)
        finally:
            v.close()
    assert games[0] != games[1], games  # 1 in 9,999 by chance


def test_a_second_visit_does_not_reinstall_the_service_worker(browser, static_url: str):
    """JupyterLite unregisters its service worker on any visit that finds no note of the
    installed version, and writes the note only on visits the worker already controls: the
    template writes it on the first visit, so the second does not wait for a reinstall."""
    v = Visit(browser, static_url)
    try:
        _live_app(v, "kapitel=02_Phase_1")
        v.page.wait_for_function(
            "() => Object.keys(localStorage).some(k => /service-worker\\.js.*-version$/.test(k))",
            timeout=EXPECT_TIMEOUT_MS)
        v.console.clear()
        _live_app(v, "kapitel=03_Phase_2_und_Handel")
        assert [line for line in v.console if line.startswith(RESTORED)], v.console
        assert not [line for line in v.console if "unregistering" in line], v.console
        _assert_clean(v)
    finally:
        v.close()


def test_the_sites_files_reach_the_browser_not_the_service_worker(browser, static_url: str):
    """JupyterLite's service worker answers its API only: once it controls the page, the
    page's scripts still come by the browser's own loading (Chromium keeps their compiled
    code only then, not for a response a service worker handed over), and its API answers."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(static_url + static.static_page_path("02_Phase_1"), timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=EXPECT_TIMEOUT_MS)
        scripts = []
        page.on("response", lambda r: scripts.append(r) if r.request.resource_type == "script" else None)
        page.reload(timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(_OUTPUTS_RENDERED_JS, timeout=RENDER_TIMEOUT_MS, polling=200)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        assert len(scripts) > 50 and [r.url for r in scripts if r.from_service_worker] == []
        heartbeat = "() => fetch('/api/service-worker-heartbeat').then(r => r.text())"
        assert page.evaluate(heartbeat) == "ok"  # answered by JupyterLite's worker, not the server
    finally:
        context.close()


_CACHED_KEYS_JS = """async ([name, header]) => {
  const cache = await caches.open(name);
  const ids = [];
  for (const request of await cache.keys()) ids.push((await cache.match(request)).headers.get(header));
  return ids;
}"""


def test_a_second_visit_starts_from_the_snapshot_kept_in_the_browser(browser, static_url: str):
    """The first visit keeps the snapshot and its files in the browser's Cache Storage, marked
    with the build's id (a browser's HTTP cache keeps no file this large); the next visit
    starts from there without asking the server for them; a cache of another build is not
    used, but downloaded anew and kept."""
    v = Visit(browser, static_url)
    asked: set[str] = set()  # the snapshot's files the browser requested (the page's or its workers')
    v.context.on("request", lambda r: asked.add(r.url.rsplit("/", 1)[-1]) if re.search(
        rf"{snapshot.NAME}\.(snapshot|files)$", r.url) else None)
    kept = [snapshot.CACHE, snapshot.CACHE_ID_HEADER]
    try:
        _live_app(v, "kapitel=02_Phase_1")
        assert [line for line in v.console if line.startswith(RESTORED) and "geladen" in line], v.console
        assert asked == {f"{snapshot.NAME}.snapshot", f"{snapshot.NAME}.files"}, asked
        v.page.wait_for_function(f"async kept => (await ({_CACHED_KEYS_JS})(kept)).length === 2",
                                 arg=kept, timeout=EXPECT_TIMEOUT_MS)
        ids = v.page.evaluate(_CACHED_KEYS_JS, kept)
        assert len(set(ids)) == 1 and len(ids[0]) == 32, ids
        # the next visit: from the cache, nothing downloaded
        asked.clear()
        v.console.clear()
        _live_app(v, "kapitel=03_Phase_2_und_Handel")
        assert [line for line in v.console if line.startswith(RESTORED) and "Browser-Speicher" in line], v.console
        assert asked == set(), asked
        # a cache of another build's snapshot: downloaded again, and kept with this build's id
        v.page.evaluate("""async ([name, header]) => {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            const hit = await cache.match(request);
            await cache.put(request, new Response(await hit.arrayBuffer(), { headers: { [header]: "alt" } }));
          }
        }""", kept)
        v.console.clear()
        _live_app(v, "kapitel=02_Phase_1")
        assert [line for line in v.console if line.startswith(RESTORED) and "geladen" in line], v.console
        assert asked == {f"{snapshot.NAME}.snapshot", f"{snapshot.NAME}.files"}, asked
        v.page.wait_for_function(f"async kept => (await ({_CACHED_KEYS_JS})(kept)).join() === {json.dumps(','.join(ids))}",
                                 arg=kept, timeout=EXPECT_TIMEOUT_MS)
        _assert_clean(v)
    finally:
        v.close()


def test_a_chart_page_loads_plotly_while_python_starts(browser, static_url: str):
    """A page whose preview shows a chart fetches plotly.js while Python is still starting
    (the app fetches a deep link's preview first), not after its first chart arrives."""
    v = Visit(browser, static_url)
    events: list[str] = []
    v.page.on("request", lambda r: events.append("plotly") if "plotly-basic" in r.url else None)
    v.page.on("console", lambda m: events.append("python") if m.text.startswith(RESTORED) else None)
    try:
        _live_app(v, "kapitel=12_Bohnometer")
        expect(v.page.locator(".bt-app .js-plotly-plot .main-svg").first).to_be_attached()
        assert events.count("plotly") == 1 and "python" in events, events
        assert events.index("plotly") < events.index("python"), events
        _assert_clean(v)
    finally:
        v.close()


def test_app_teacher_view_from_the_address_after_the_snapshot(browser, static_url: str):
    v = Visit(browser, static_url)
    try:
        _live_app(v, "lektion=01_Bohnentreppe&lehrkraft=1")
        first = v.page.locator(".bt-app .bt-exercise").first
        toggle = first.get_by_role("button", name="Lösung zeigen (Lehrkraft)")
        expect(toggle).to_be_visible()
        toggle.click()
        expect(first.locator(".bt-q-solution")).to_be_visible()
        # kept by the browser, out of the address bar (bohnteach.widgets.teacher_view)
        assert "lehrkraft" not in v.page.url
        assert v.page.evaluate("localStorage.getItem('bohnteach-lehrkraft')") == "1"
        assert [line for line in v.console if line.startswith(RESTORED)], v.console
        _assert_clean(v)
    finally:
        v.close()


def _step_phase_1(v: Visit) -> None:
    """Open Phase 1 in the app and take its first scene one step: Python answers a click."""
    _live_app(v, "kapitel=02_Phase_1")
    player = v.page.locator(".bt-app .bt-scene-player").first
    player.get_by_role("button", name=re.compile("weiter")).click()
    expect(player).to_contain_text("Schritt 1")


def _served_copy(static_build: Path, tmp_path_factory, change) -> Iterator[str]:
    """The build served as a linked copy, changed by ``change(its pyodide folder)``: a file
    it changes is one of its own, not the build's (Playwright's routes reach the kernel's
    worker but not the reader it starts, and the 52 MB went through the test driver twice
    through a route: two minutes)."""
    copy = tmp_path_factory.mktemp("changed-build") / "site"
    shutil.copytree(static_build, copy, copy_function=os.link)
    change(copy / "static" / "pyodide")
    with static.serving(copy) as base:
        yield base


def _other_pyodide_build(folder: Path) -> None:
    """A snapshot of another Pyodide build: its build id, bytes 16–47 of the header, changed."""
    path = folder / f"{snapshot.NAME}.snapshot"
    data = bytearray(gzip.decompress(path.read_bytes()))
    data[16:48] = bytes(32)
    path.unlink()
    path.write_bytes(gzip.compress(bytes(data), compresslevel=1))


@pytest.fixture(scope="module")
def other_build_url(static_build: Path, tmp_path_factory) -> Iterator[str]:
    yield from _served_copy(static_build, tmp_path_factory, _other_pyodide_build)


@pytest.fixture(scope="module")
def no_snapshot_url(static_build: Path, tmp_path_factory) -> Iterator[str]:
    """A host that does not have the snapshot (HTTP 404)."""
    yield from _served_copy(static_build, tmp_path_factory,
                            lambda folder: (folder / f"{snapshot.NAME}.snapshot").unlink())


def _too_big(route) -> None:
    """A manifest whose snapshot needs more memory than the browser gives (wasm32: 4 GB)."""
    manifest = json.loads(route.fetch().body())
    manifest["bytes"] = 8 << 30
    route.fulfill(body=json.dumps(manifest), content_type="application/json")


@pytest.mark.parametrize("build, handler, reason", [
    ("no_snapshot_url", None, "HTTP 404"),
    ("other_build_url", None, "build id"),
    ("static_url", _too_big, "zu wenig Speicher"),
], ids=["failed-fetch", "other-pyodide-build", "no-memory"])
def test_a_snapshot_that_does_not_fit_falls_back_to_the_normal_start(
        browser, request, build: str, handler, reason: str):
    v = Visit(browser, request.getfixturevalue(build))
    if handler is not None:
        v.context.route(f"**/static/pyodide/{snapshot.NAME}.json", handler)
    try:
        _step_phase_1(v)
        said = [line for line in v.console if line.startswith(FELL_BACK)]
        assert len(said) == 1 and re.search(reason, said[0]), v.console
        assert not [line for line in v.console if line.startswith(RESTORED)], v.console
        _assert_clean(v)
    finally:
        v.close()


EARLY_FAILED = "bohnteach: früher Start nicht bereit"


def test_python_starts_before_jupyterlite_asks_for_it(browser, static_url: str):
    """The page starts the kernel's worker before JupyterLite has loaded: the snapshot is
    asked for before JupyterLite's kernel extension, JupyterLite takes that worker as the
    kernel's (one Python, one restore), and the page works."""
    v = Visit(browser, static_url)
    order: list[str] = []

    def note(request) -> None:
        url = request.url.split("?")[0]
        name = url.rsplit("/", 1)[-1]
        if name in (f"{snapshot.NAME}.snapshot", "pyodide.asm.wasm"):
            order.append(name)
        elif "/pyodide-kernel-extension/" in url and name.startswith("remoteEntry."):
            order.append("kernel-extension")

    v.context.on("request", note)
    try:
        _step_phase_1(v)
        started = [line for line in v.console if line.startswith(RESTORED)]
        assert len(started) == 1 and "früh begonnen" in started[0], v.console
        assert order.count("pyodide.asm.wasm") == 1 and order.count(f"{snapshot.NAME}.snapshot") == 1, order
        assert order.index(f"{snapshot.NAME}.snapshot") < order.index("kernel-extension"), order
        assert not [line for line in v.console if line.startswith((FELL_BACK, EARLY_FAILED))], v.console
        _assert_clean(v)
    finally:
        v.close()


#: In the page: what the kernel's file system (JupyterLite's DriveFS) asks the page about its
#: files, as JupyterLite's service worker passes it on (its channel ``/sw-api.v1``).
_DRIVE_REQUESTS = """
window.btDriveAsked = [];
new BroadcastChannel('/sw-api.v1').onmessage = (event) => {
  const asked = event.data && event.data.data;
  if (asked && asked.method) window.btDriveAsked.push(asked.method + ' ' + asked.path);
};
"""


@pytest.mark.parametrize("name", ["00_Start", "notebooks/app", LESSONS[0]])
def test_python_asks_the_page_nothing_about_the_sites_files(browser, static_url: str, name: str):
    """The kernel's start moves Python into the page's folder of JupyterLite's drive, the
    start page lists the lessons with their first sentences, the app reads the notebook it
    shows: the snapshot knows the site's folders and notebooks, so that none of this is a
    request that waits for the page's main thread, busy drawing the page while Python starts."""
    v = Visit(browser, static_url)
    v.context.add_init_script(_DRIVE_REQUESTS)
    try:
        v.open(name)
        assert [line for line in v.console if line.startswith(RESTORED)], v.console
        assert v.page.evaluate("window.btDriveAsked") == []
        _assert_clean(v)
    finally:
        v.close()


def test_an_early_worker_that_did_not_start_leaves_python_to_the_kernel(browser, static_url: str):
    """The early worker's script fails to load: JupyterLite starts its own kernel worker,
    which restores the snapshot as before; one console line says so."""
    v = Visit(browser, static_url)
    asked = []

    def first_fails(route) -> None:
        asked.append(route.request.url)
        route.abort() if len(asked) == 1 else route.continue_()

    v.context.route(f"**/static/pyodide/{snapshot.START_SCRIPT}", first_fails)
    try:
        _step_phase_1(v)
        assert len([line for line in v.console if line.startswith(EARLY_FAILED)]) == 1, v.console
        started = [line for line in v.console if line.startswith(RESTORED)]
        assert len(started) == 1 and "früh begonnen" not in started[0], v.console
        assert len(asked) >= 2, asked
        _assert_clean(v)
    finally:
        v.close()


READER_FAILED = "bohnteach: Leser des Abbilds nicht gestartet"


@pytest.fixture(scope="module")
def no_reader_url(static_build: Path, tmp_path_factory) -> Iterator[str]:
    """A host that does not have the reader's script (HTTP 404)."""
    yield from _served_copy(static_build, tmp_path_factory,
                            lambda folder: (folder / snapshot.READER_SCRIPT).unlink())


def test_a_reader_that_did_not_start_leaves_the_reading_to_the_kernels_worker(browser, no_reader_url: str):
    """The reader's script fails to load: the kernel's worker downloads the snapshot and its
    files itself, one console line says so, and the page starts from the snapshot."""
    v = Visit(browser, no_reader_url)
    try:
        _step_phase_1(v)
        assert len([line for line in v.console if line.startswith(READER_FAILED)]) == 1, v.console
        started = [line for line in v.console if line.startswith(RESTORED)]
        assert len(started) == 1 and "früh begonnen" in started[0], v.console
        assert not [line for line in v.console if line.startswith(FELL_BACK)], v.console
        _assert_clean(v)
    finally:
        v.close()


def test_the_publishing_guide_says_how_big_the_built_folder_is(static_build: Path):
    """docs/static-site.md names the folder's size and file count (a club checks its
    web space against it): within a tenth of the build's."""
    text = (REPO / "docs" / "static-site.md").read_text("utf-8")
    said = re.search(r"built folder \(about (\d+) MB in (\d+) files", text)
    assert said, "docs/static-site.md nennt die Größe des gebauten Ordners nicht"
    files = [p for p in static_build.rglob("*") if p.is_file()]
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    assert abs(int(said[1]) - megabytes) <= megabytes / 10, (said[0], round(megabytes))
    assert abs(int(said[2]) - len(files)) <= len(files) / 10, (said[0], len(files))
