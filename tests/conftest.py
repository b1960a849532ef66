"""Shared pytest fixtures.

Browser/site part: ``site_url`` serves the site like ``bohnteach serve`` does, and
pytest-playwright's ``page`` runs in Debian's ``/usr/bin/chromium``.  Tests that use
``page`` or ``site_url`` are marked ``browser`` (deselect with ``-m "not browser"``).
Without chromium they are skipped, except under CI (``CI`` set), where they fail.

    from browser_helpers import open_page, visible_errors

    def test_start(page, site_url):
        errors = open_page(page, site_url, "00_Start")
        assert visible_errors(page) == [] and errors == []

A browser test asserts what can still change with ``expect(locator).to_contain_text(...)``
/ ``to_have_count(...)``, which wait (``EXPECT_TIMEOUT_MS``) for exactly that state; a bare
``assert`` only reads what :func:`open_page` already waited for (every output rendered).
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import background_build  # noqa: E402
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, EXPECT_TIMEOUT_MS, start_site  # noqa: E402
from missing import missing  # noqa: E402

from bohnteach.site.publish import FooterLink, footer_env  # noqa: E402

try:  # every browser test asserts with expect(...), which waits for the state it checks
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
except ImportError:  # the [test] extra is missing; the browser tests fail on their own
    pass

_BROWSER_FIXTURES = {"page", "site_url", "browser", "context"}


@pytest.fixture(autouse=True)
def _fragments_carry_their_style(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a fresh kernel does: no page has shown a stylesheet yet
    (``render.style.page_style``, called by every page's header)."""
    from bohnteach.render import style

    monkeypatch.setattr(style, "_ON_PAGE", set())


@pytest.fixture(autouse=True)
def _page_speaks_german() -> None:
    """Each test starts as a fresh kernel does: the page's language is German (an English
    page or test sets it process-wide with ``speak_page``)."""
    from bohnteach.i18n import SOURCE, speak_page

    speak_page(SOURCE)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: needs the Voilà site and headless chromium")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The static site's build starts now, beside the tests that come before its own."""
    if not session.config.option.collectonly and any(
            "static_build" in getattr(item, "fixturenames", ()) for item in session.items):
        background_build.begin()


def pytest_sessionfinish() -> None:
    background_build.stop()


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    missing(f"{CHROMIUM} fehlt (make test installiert Debians chromium)")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at Debian's chromium."""
    _require_chromium()
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


#: The publisher's footer links of the test site (``bohnteach serve --fusszeile``).
FOOTER_LINKS = (FooterLink("Impressum", "https://example.org/impressum"),
                FooterLink("Lizenz", "/lizenz"))


@pytest.fixture(scope="session")
def site_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server log of :func:`site_url` (what the server did, e.g. which kernels it used)."""
    return tmp_path_factory.mktemp("voila") / "voila.log"


@pytest.fixture(scope="session")
def site_url(site_log: Path) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of the site, served for the whole session
    with :data:`FOOTER_LINKS`."""
    store_dir = site_log.parent / "klassen"  # the class store (bohnteach serve --klassen-dir)
    with start_site(site_log, env={**footer_env(FOOTER_LINKS),
                                   "BOHNTEACH_KLASSEN_DIR": str(store_dir)}) as url:
        yield url


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """The deployment of ``deploy/`` on this machine (:class:`bohnteach.site.cluster.Cluster`):
    PostgreSQL, two servers (three preheated app kernels each) and HAProxy serving the site
    under ``/bohnanza/``; one per module (tests/test_cluster_browser.py), stopped after it so
    its servers and kernels do not idle through the rest of the run."""
    from cluster_helpers import start_test_cluster

    with start_test_cluster() as running:
        yield running
