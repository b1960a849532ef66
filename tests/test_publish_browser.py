"""The published site in the browser: the root address, unknown addresses, the file tree.

Uses the session's ``site_url`` (``tests/conftest.py``, served with the footer links
:data:`conftest.FOOTER_LINKS`)."""
from __future__ import annotations

import re

import pytest
from conftest import FOOTER_LINKS
from playwright.sync_api import expect

from bohnteach.site import pages as site


def test_root_opens_the_app_on_the_start_page(page, site_url):
    # a busy server may take minutes to answer; the expects below wait for the page itself
    page.goto(site_url + "/", wait_until="commit", timeout=300_000)
    expect(page.locator("html")).to_have_attribute("data-bt-shown", "")
    expect(page).to_have_url(site_url + "/")
    expect(page).to_have_title(site.PAGES[0].title)
    expect(page.get_by_role("heading", level=1).first).to_have_text(site.PAGES[0].title,
                                                                   use_inner_text=True)


@pytest.mark.parametrize("path", ["/voila/tree", "/voila/tree/notebooks", "/voila/api/contents",
                                  "/gibt/es/nicht", "/voila/render/notebooks/99_Fehlt.ipynb"])
def test_unknown_address_says_so_in_german_and_leads_home(page, site_url, path):
    response = page.goto(site_url + path)
    assert response is not None and response.status == 404
    expect(page).to_have_title("Seite nicht gefunden – Bohnanza lernen")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Seite nicht gefunden")
    expect(page.locator("body")).not_to_contain_text("Select items")  # no file list
    for link in FOOTER_LINKS:
        expect(page.locator("footer").get_by_role("link", name=link.text)).to_be_visible()
    page.get_by_role("link", name=re.compile("Startseite")).click()
    expect(page).to_have_url(site_url + "/")
    expect(page.locator("html")).to_have_attribute("data-bt-shown", "")
