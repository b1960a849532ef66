"""Helpers for browser tests of the Voilà site (used through ``tests/conftest.py``).

Starting the site: :func:`start_site` runs exactly the command of ``bohnteach serve``
(:func:`bohnteach.site.serve.build_voila_command`) on a free 127.0.0.1 port.

Opening a page: :func:`open_page` waits until Voilà has executed the notebook *and* the
browser has rendered every output, widgets included, and returns the console errors (and
webpack's warnings about shared module versions, see :data:`VERSION_WARNING`).
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bohnteach.site.publish import site_answers
from bohnteach.site.addresses import page_path
from bohnteach.site.serve import build_voila_command, site_dir
from bohnteach.site.cluster import stop_group  # the tests end their servers as the cluster does

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

#: Texts that show a failure on a page (Voilà hides tracebacks but says this instead).
ERROR_TEXTS = (
    "There was an error when executing cell",
    "Traceback (most recent call last)",
    "Javascript Error",
    "Error displaying widget",
    "Error creating widget",
    "Failed to render",
)

# True once every output Voilà sent has been rendered: the spinner is gone, no output
# script is left unrendered, and no widget output still says "Loading widget..."
# (jupyterlab-manager's placeholder text while it waits for the model).
_OUTPUTS_RENDERED_JS = """() => {
  if (document.getElementById('loading')) return false;
  const cells = document.getElementById('rendered_cells');
  if (!cells || cells.style.display === 'none') return false;
  if (document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return false;
  return ![...cells.querySelectorAll('.jp-OutputArea-output')].some(
    el => el.childElementCount === 0 && el.textContent.trim() === 'Loading widget...');
}"""

#: "ok" once a visit has settled with every output and widget drawn; "broken" as soon as an
#: output says "Error displaying/creating widget"; "" (falsy: keep waiting) before.
#: Used by tests/test_widget_race.py and benchmarks/widget_probe.py.
VISIT_OUTCOME_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  const text = cells ? cells.innerText : '';
  if (/Error (displaying|creating) widget/.test(text)) return 'broken';
  if (document.getElementById('loading')) return '';
  if (!cells || cells.style.display === 'none') return '';
  if (document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return '';
  const outs = [...cells.querySelectorAll('.jp-OutputArea-output')];
  if (outs.some(el => el.textContent.trim() === 'Loading widget...')) return '';
  const panels = outs.filter(el => el.classList.contains('lm-Panel'));
  if (!panels.every(el => el.querySelector('.jupyter-widgets'))) return '';
  return 'ok';
}"""

#: Playwright's ``expect`` waits this long (ms) unless a call says otherwise: the suite
#: runs on busy 2-core machines, where a kernel answers a click in seconds, not in 5 s.
EXPECT_TIMEOUT_MS = 120_000


def one_page_site(root: Path, name: str, code: str) -> Path:
    """A folder to serve like the site, holding only ``notebooks/<name>.ipynb``: one code
    cell ``code`` on the python3 kernel. Returns ``root``."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    nb = new_notebook(cells=[new_code_cell(code)],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    nbformat.write(nb, root / "notebooks" / f"{name}.ipynb")
    return root


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Site:
    """A running server: its base URL, process (the group leader) and command line."""

    base: str
    process: subprocess.Popen[bytes]
    command: list[str]


@contextmanager
def serve_site(
    log_path: Path,
    root: Path | None = None,
    timeout: float = 120.0,
    edit_command: Callable[[list[str]], list[str]] | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[Site]:
    """Serve ``root`` (default: the site) like ``bohnteach serve``, from the moment it
    answers. ``edit_command`` may change the command line first (a test's control
    experiment); ``env`` adds to the server's environment (e.g. the publisher's footer links).

    The server's output goes to ``log_path``; its last lines are shown if it fails to
    start. At the end the whole process group gets SIGTERM (Voilà then shuts its kernels
    down), and SIGKILL if it has not ended after 20 s — also when this process gets SIGTERM,
    which ends it like Ctrl-C (a run stopped from outside leaves no server and no kernels).
    """
    root = root or site_dir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = build_voila_command(port, public=False, root=root)
    command = edit_command(command) if edit_command else command
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
    previous = _end_on_sigterm()
    try:
        deadline = time.monotonic() + timeout
        while not site_answers(base):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-30:])
                raise RuntimeError(f"Voilà did not start on {base} (exit {proc.poll()}):\n{tail}")
            time.sleep(0.3)
        yield Site(base, proc, command)
    finally:
        stop_group(proc)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


@contextmanager
def start_site(log_path: Path, root: Path | None = None, timeout: float = 120.0,
               edit_command: Callable[[list[str]], list[str]] | None = None,
               env: dict[str, str] | None = None) -> Iterator[str]:
    """:func:`serve_site`, yielding just the base URL."""
    with serve_site(log_path, root, timeout, edit_command, env) as site:
        yield site.base


def _end_on_sigterm() -> Any:
    """Let SIGTERM end this process like Ctrl-C, through ``finally`` blocks and fixture
    teardowns (Python's default ends it on the spot; a ``SystemExit`` would only fail the
    running test and pytest would go on); returns the handler to restore, or None where
    none was changed."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        return None

    def end(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, end)
    return previous


#: MathJax has started on the page: its stylesheet comes in with its first typesetting.
MATHJAX_STARTED_JS = "!!document.getElementById('MJX-CHTML-styles')"


#: webpack's console warning that an extension found a shared module (a JupyterLab package)
#: in another version than it was built for: a visitor sees about 13 per page (issue 34 §8).
VERSION_WARNING = re.compile(r"^(Unsatisfied|No satisfying) version .*shared (singleton )?module ")


#: True once the app (``bohnteach.site.app``) shows the page of the route passed as the
#: argument (its query, e.g. ``kapitel=02_Phase_1``) and no widget output in it still waits
#: for its model; the router extension sets ``data-bt-shown`` once the kernel has shown it.
APP_SHOWN_JS = """route => document.documentElement.dataset.btShown === route &&
  ![...document.querySelectorAll('.bt-app .jp-OutputArea-output')].some(
    el => el.textContent.trim() === 'Loading widget...')"""


#: Put a link to ``href`` into the shown app page (not into a static build's preview), as a
#: chapter's own links are; benchmarks click it as ``.bt-app a[data-bt-bench="<href>"]``.
APP_LINK_JS = """href => { const a = document.createElement('a'); a.href = href; a.textContent = 'weiter';
  a.dataset.btBench = href;
  [...document.querySelectorAll('.bt-app')].find(e => !e.closest('.bt-preview')).appendChild(a); }"""


#: Console warnings a page may give, each for its reason; every other warning counts as an
#: error (issue 52 §6: a new warning in a visitor's console fails the browser tests).
KNOWN_WARNINGS = (
    # the site's own notes on how Python started in the browser (bohnteach/site/snapshot.py,
    # „Abbild nicht nutzbar …“ when a snapshot does not fit): the tests of those fallbacks
    # look for them
    re.compile(r"^bohnteach: "),
    # jupyterlab-manager asks the kernel for every widget's state at once and, when the
    # kernel has not answered within its wait (Python still starting in the browser without
    # the snapshot, or a busy machine), asks model by model instead: the page still draws
    # every widget (the tests wait for that), only later
    re.compile(r'^Failed to fetch ipywidgets through the "jupyter\.widget\.control" comm channel, '
               r"fallback to fetching individual model state\. Reason: Control comm did not respond in time$"),
)


def collect_errors(page: Page, *, version_warnings: bool = True) -> list[str]:
    """From now on, the page's console errors, uncaught page errors and console warnings
    (but those of :data:`KNOWN_WARNINGS`, and, if ``version_warnings`` is False, those
    matching :data:`VERSION_WARNING`), in a list that stays live: errors that happen later
    (e.g. after a click) are appended to it."""
    errors: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(f"console: {msg.text}")
        elif msg.type == "warning" and not any(known.match(msg.text) for known in KNOWN_WARNINGS) \
                and (version_warnings or not VERSION_WARNING.match(msg.text)):
            errors.append(f"console warning: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def open_page(
    page: Page,
    site_url: str,
    name: str,
    *,
    query: str = "",
    wait_for: str | None = None,
    timeout_ms: float = 300_000,
) -> list[str]:
    """Open site page ``name`` (``"00_Start"`` or ``"00_Start.ipynb"``; ``query`` such as
    ``"?lehrkraft=1"`` is appended) and wait until it is ready: Voilà's spinner is gone
    and every output (widgets too) is rendered; then also wait for the CSS selector
    ``wait_for``, if given.

    Returns the list of console errors, uncaught page errors and shared-module version
    warnings (:func:`collect_errors`).
    """
    errors = collect_errors(page)
    page.goto(site_url + page_path(name) + query, timeout=timeout_ms)
    try:
        page.wait_for_function(_OUTPUTS_RENDERED_JS, timeout=timeout_ms, polling=200)
        if wait_for:
            page.wait_for_selector(wait_for, timeout=timeout_ms)
    except Exception as exc:  # add what the page shows to the timeout message
        text = page.inner_text("body")[:2000] if page.query_selector("body") else ""
        raise AssertionError(f"{name} did not finish rendering: {exc}\n--- page text ---\n{text}\n"
                             f"--- console errors ---\n{errors}") from exc
    return errors


def visible_errors(page: Page) -> list[str]:
    """Failure messages shown on the page (Voilà's cell error notice, tracebacks, …)."""
    text = page.inner_text("body")
    return [marker for marker in ERROR_TEXTS if marker in text]


def refuses_wrong_move(page: Page) -> None:
    """In Phase 1's first „Mach du!“ the front card is a Feuerbohne and field 1 grows Blue
    beans: planting it there is refused, with the rule and its source shown."""
    from playwright.sync_api import expect

    tryit = page.locator(".bt-tryit").first
    tryit.scroll_into_view_if_needed()
    tryit.get_by_role("button", name="Auf Feld 1 pflanzen").click()
    refusal = tryit.locator(".bt-refusal")
    for words in ("Nicht erlaubt", "Regel", "Quelle"):
        expect(refusal).to_contain_text(words)


def assert_english_mach_du_refusal(page: Page) -> None:
    """Phase 1's first Mach-du: planting the front card (a Chili Bean) on field 1, which
    grows Blue Beans, is refused in English – the rule's title, explanation and source
    as the English catalogue words them – and the table stays as it was."""
    from playwright.sync_api import expect

    from bohnteach.game.errors import find_rule
    from bohnteach.i18n import speaking
    from bohnteach.render.language import rule_words

    with speaking("en"):
        words = rule_words(find_rule("field.one-variety"))
    tryit = page.locator(".bt-tryit").first
    tryit.scroll_into_view_if_needed()
    tryit.get_by_role("button", name="Plant on field 1").click()
    refusal = tryit.locator(".bt-refusal")
    for part in (f"Not allowed: {words.title}", words.explanation, "Source:",
                 "The table stays as it was."):
        expect(refusal).to_contain_text(part)


def assert_english_teacher_solution(page: Page) -> None:
    """The teacher view in English: the first exercise offers its solution to the teacher."""
    from playwright.sync_api import expect

    first = page.locator(".bt-exercise").first
    toggle = first.get_by_role("button", name="Show solution (teacher)")
    expect(toggle).to_be_visible()
    toggle.click()
    expect(first.locator(".bt-q-solution")).to_be_visible()


# ---- the site's own links, followed inside the app (issue 52 §1) ---------------------------
#: Every link of the shown app page (not of a static build's preview) that leads to a page
#: of the site or is written as a notebook's address: its text, href and whether the app's
#: extension has given it the app's address (``data-bt-page``).
_SITE_LINKS_JS = """() => [...document.querySelectorAll('.bt-app a[href]')]
  .filter(a => !a.closest('.bt-preview'))
  .filter(a => a.dataset.btPage || /(^|\\/)(notebooks|tutorials)\\/\\w+\\.(ipynb|html)|^\\w+\\.(ipynb|html)/
                                     .test(a.getAttribute('href')))
  .map(a => ({text: a.innerText.trim(), href: a.href, fixed: !!a.dataset.btPage}))"""

#: True once the shown app page's links to notebooks all carry the app's address.
_LINKS_FIXED_JS = """() => { const links = [...document.querySelectorAll('.bt-app a[href]')]
  .filter(a => !a.closest('.bt-preview'));
  return links.some(a => a.dataset.btPage) && !links.some(a => !a.dataset.btPage &&
    /\\.(ipynb|html)(#|$)/.test(a.getAttribute('href'))); }"""

#: The text of the shown app page's first heading (not the preview's).
_APP_HEADING_JS = """() => { const h = [...document.querySelectorAll('.bt-app h1')]
  .find(e => !e.closest('.bt-preview')); return h ? h.innerText.trim() : ''; }"""


def site_link_targets() -> dict[str, str]:
    """A link's text (arrows stripped) → the route it must lead to, for every text that
    names a page: a chapter by its short name or title, a lesson by its title, the start
    page as „Übersicht“, „Startseite“ or „Bohnanza lernen“."""
    from bohnteach.content.chapters import LESSONS, PAGES

    targets = {text: "kapitel=00_Start" for text in ("Übersicht", "Startseite", "Bohnanza lernen")}
    for chapter in PAGES[1:]:
        targets[chapter.short] = targets[chapter.title] = f"kapitel={chapter.name}"
    for name, title in LESSONS:
        targets[title] = f"lektion={name}"
    return targets


def route_of(href: str) -> str:
    """The page an app address names, as the route ``kapitel=…`` / ``lektion=…``."""
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(href).query)
    for key in ("kapitel", "lektion"):
        if key in query:
            return f"{key}={query[key][0]}"
    return ""


def site_link_problems(page: Page) -> list[str]:
    """What is wrong with the shown app page's links to the site's pages: a link left with
    a notebook's address, one to a page the site does not have, or one whose text names
    another page than it leads to."""
    from bohnteach.site.app import find_entry

    page.wait_for_function(_LINKS_FIXED_JS, timeout=EXPECT_TIMEOUT_MS, polling=200)
    targets = site_link_targets()
    problems = []
    for link in page.evaluate(_SITE_LINKS_JS):
        route, label = route_of(link["href"]), link["text"].strip("←→ \n")
        if not link["fixed"]:
            problems.append(f"„{label}“ keeps a notebook's address: {link['href']}")
        elif not route or find_entry(route) is None:
            problems.append(f"„{label}“ leads to no page: {link['href']}")
        elif label in targets and targets[label] != route:
            problems.append(f"„{label}“ leads to {route}, not {targets[label]}")
    return problems


def follow_site_links(page: Page) -> list[str]:
    """Follow the site's navigation inside the app, from the start page the app shows now:
    every chapter forward by the header's „weiter“ link and back by the footer's „zurück“
    link, every lesson forward by its top link and back by its bottom link, and the links
    home. On each page reached, every link to a page of the site must lead to the page its
    text names (:func:`site_link_problems`), and each click must show the page it names
    with its heading. Returns the routes visited, in order."""
    from playwright.sync_api import expect

    from bohnteach.content.chapters import LESSONS, PAGES

    titles = {f"kapitel={p.name}": p.title for p in PAGES}
    titles.update({f"lektion={name}": title for name, title in LESSONS})
    visited: list[str] = []

    def check_here(route: str) -> None:
        problems = site_link_problems(page)
        assert problems == [], f"on {route}: {problems}"

    def follow(link: Any, route: str) -> None:
        expect(link).to_have_count(1)
        assert route_of(link.evaluate("a => a.href")) == route, link.evaluate("a => a.href")
        link.click()
        page.wait_for_function(APP_SHOWN_JS, arg=route, timeout=EXPECT_TIMEOUT_MS, polling=200)
        expect(page.locator("html")).to_have_attribute("data-bt-shown", route)
        page.wait_for_function(f"() => ({_APP_HEADING_JS})() === {titles[route]!r}",
                               timeout=EXPECT_TIMEOUT_MS, polling=200)
        visited.append(route)
        check_here(route)

    app = ".bt-app:not(.bt-preview .bt-app)"
    check_here("the start page")
    chapters = [f"kapitel={p.name}" for p in PAGES]
    follow(page.locator(f"{app} .bt-chapters a", has_text=PAGES[1].title), chapters[1])
    for route in chapters[2:]:
        follow(page.locator(f"{app} .bt-header a.bt-nav-next"), route)
    for route in reversed(chapters[:-1]):
        follow(page.locator(f"{app} nav.bt-nav a.bt-nav-prev"), route)
    lessons = [(f"lektion={name}", title) for name, title in LESSONS]
    follow(page.locator(f"{app} .bt-lessons a", has_text=lessons[0][1]), lessons[0][0])
    for route, title in lessons[1:]:  # the top links
        follow(page.locator(f"{app} a", has_text=title).first, route)
    for route, title in reversed(lessons[:-1]):  # the bottom links
        follow(page.locator(f"{app} a", has_text=title).last, route)
    follow(page.locator(f"{app} a", has_text="Startseite").first, chapters[0])
    follow(page.locator(f"{app} .bt-chapters a", has_text=PAGES[5].title), chapters[5])
    follow(page.locator(f"{app} nav.bt-nav a.bt-nav-home"), chapters[0])
    follow(page.locator(f"{app} .bt-chapters a", has_text=PAGES[3].title), chapters[3])
    follow(page.locator(f"{app} .bt-header a", has_text="Bohnanza lernen"), chapters[0])
    return visited
