"""The site on a 390 px phone (Debian's chromium through pytest-playwright): charts keep
the width for their plot (legend below, not beside it), and the start page's red box
shows its text. Uses the ``site_url`` and ``page`` fixtures of ``tests/conftest.py``."""
from __future__ import annotations

from browser_helpers import EXPECT_TIMEOUT_MS, open_page
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}

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
