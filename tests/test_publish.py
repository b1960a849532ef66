"""The publishing helpers without a browser: footer links, tab titles, the CLI's errors."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bohnteach.site.publish import (
    FooterLink, footer_env, footer_html, footer_links, page_title, parse_footer_link,
)


def test_footer_link_is_text_and_address():
    assert parse_footer_link(" Impressum = https://example.org/i ") == FooterLink(
        "Impressum", "https://example.org/i")
    assert parse_footer_link("Lizenz=/lizenz.html").url == "/lizenz.html"


@pytest.mark.parametrize("spec, words", [
    ("Impressum", "TEXT=ADRESSE"),
    ("=https://example.org", "TEXT=ADRESSE"),
    ("Impressum=javascript:alert(1)", "keine Adresse"),
    ("Impressum=example.org", "keine Adresse"),
])
def test_bad_footer_link_is_refused_in_german(spec, words):
    with pytest.raises(ValueError, match=words):
        parse_footer_link(spec)


def test_footer_links_travel_through_the_environment_and_are_escaped():
    links = [FooterLink("Impressum & Kontakt", "https://example.org/?a=1&b=2")]
    assert footer_links(footer_env(links)) == links
    assert footer_links({}) == []
    html = footer_html(links)
    assert 'href="https://example.org/?a=1&amp;b=2"' in html and "Impressum &amp; Kontakt" in html
    assert footer_html([]) == ""


def test_tab_title_is_the_first_heading_and_the_site():
    nb = {"cells": [{"cell_type": "code", "source": "# kein Titel"},
                    {"cell_type": "markdown", "source": ["Text\n", "# Lektion 1: Die Treppe\n"]}]}
    assert page_title(nb) == "Lektion 1: Die Treppe – Bohnanza lernen"
    assert page_title({"cells": [{"cell_type": "markdown", "source": "# Bohnanza lernen"}]}) == (
        "Bohnanza lernen")
    assert page_title({"cells": []}) == "Bohnanza lernen"


def test_cli_refuses_a_bad_footer_link_without_a_traceback():
    run = subprocess.run([sys.executable, "-m", "bohnteach.cli", "serve", "--fusszeile", "Impressum"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "--fusszeile" in run.stderr and "TEXT=ADRESSE" in run.stderr
    assert "Traceback" not in run.stderr


def test_github_pages_workflow_builds_as_the_tests_do_and_deploys_that_folder():
    """A fork publishes with .github/workflows/pages.yml: it runs the Makefile's static
    build (the command the static tests build with) and deploys exactly its output."""
    import re
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[1]
    flow = yaml.safe_load((root / ".github" / "workflows" / "pages.yml").read_text("utf-8"))
    assert flow[True]["push"]["branches"] == ["main"]  # YAML reads the key "on" as True
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    steps = flow["jobs"]["build"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert runs == ["make static STATIC_OUT=_site"]
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_site"
    assert any(s.get("with", {}).get("python-version") == "3.11" for s in steps)
    makefile = (root / "Makefile").read_text("utf-8")
    assert re.search(r"^static: .*\n\t\$\(BIN\)/bohnteach build-static \$\(STATIC_OUT\)$", makefile, re.M)
    deploy = flow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["steps"][0]["uses"].startswith("actions/deploy-pages")
