"""Charts in an exported notebook: docs/beispiel.ipynb run and exported to HTML by nbconvert,
opened offline in Chromium (every request that is not the file itself is blocked: no CDN,
no network), draws its chart from the plotly.js the file carries once.
``BOHNTEACH_SHOTS=<folder>`` keeps a screenshot there."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import collect_errors

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "beispiel.ipynb"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export")
    env = {k: v for k, v in os.environ.items() if k not in ("BOHNTEACH_SITE", "VOILA_PREHEAT")}
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                    "--ExecutePreprocessor.timeout=300", "--output-dir", str(out), str(EXAMPLE)],
                   check=True, capture_output=True, text=True, env=env, timeout=900)
    return out / "beispiel.html"


def test_the_export_carries_plotly_js_once_and_nothing_from_a_cdn(exported):
    text = exported.read_text("utf-8")
    assert text.count("window.Plotly = Plotly") == 1
    sources = re.findall(r"<script[^>]*\bsrc=[\"']([^\"']+)", text)
    assert not [src for src in sources if "plotly" in src], sources  # nbconvert's own: require.js, MathJax


def test_an_exported_notebook_draws_its_chart_offline(page, exported):
    from playwright.sync_api import expect

    blocked: list[str] = []

    def only_the_file(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_file)
    errors = collect_errors(page, version_warnings=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(exported.as_uri())
    chart = page.locator(".js-plotly-plot .main-svg").first
    expect(chart).to_be_visible(timeout=60_000)
    expect(page.locator(".js-plotly-plot .legendtext").first).to_have_text("Blaue Bohne")
    assert not [e for e in errors if "Plotly" in e], errors
    assert blocked, "nbconvert's page asks the network for require.js and MathJax: blocked, so offline"
    shots = os.environ.get("BOHNTEACH_SHOTS")
    if shots:
        page.locator(".js-plotly-plot").first.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(Path(shots) / "package-export-offline.png"))
