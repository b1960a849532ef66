"""Words and signs a learner reads (issue 52 §5): a rule chip names the rule by its title,
the ID only as a small reference; a page that says what the mouse does says what a finger
does too; the info sign is drawn by the page, not left to a font."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bohnteach.game.errors import find_rule, rule_catalogue
from bohnteach.render.style import CSS
from bohnteach.render.table import rule_chip
from bohnteach.widgets.questions import box_html

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "tutorials").glob("*.ipynb")])


class _Texts(HTMLParser):
    """The text of an HTML fragment, outside and inside ``<small class="bt-rid">``."""

    def __init__(self) -> None:
        super().__init__()
        self.main, self.rid, self._in_rid = "", "", False

    def handle_starttag(self, tag, attrs):
        self._in_rid = tag == "small" and ("class", "bt-rid") in attrs

    def handle_endtag(self, tag):
        self._in_rid = False

    def handle_data(self, data):
        if self._in_rid:
            self.rid += data
        else:
            self.main += data


@pytest.mark.parametrize("rule_id", sorted(rule_catalogue()))
def test_a_rule_chip_names_the_rule_by_its_title(rule_id: str):
    texts = _Texts()
    texts.feed(rule_chip(rule_id))
    assert texts.main == f"Regel: {find_rule(rule_id).title}"
    assert rule_id not in texts.main
    assert texts.rid == rule_id


def test_the_rule_id_is_small_and_left_out_on_a_phone():
    rid = re.search(r"\.bt-chip \.bt-rid\{([^}]*)\}", CSS)
    chip = re.search(r"\.bt-chip\{([^}]*)\}", CSS)
    assert rid and chip
    size = float(re.search(r"font-size:(\d+)px", rid[1])[1])
    assert size <= 0.8 * float(re.search(r"font-size:(\d+)px", chip[1])[1])
    assert "monospace" not in rid[1]
    assert re.search(r"@media \(max-width:\d+px\)\{\.bt-chip \.bt-rid\{display:none\}\}", CSS)


def _markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text("utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_what_the_mouse_does_is_said_for_a_finger_too(path: Path):
    for text in _markdown(path):
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if re.search(r"\bMaus\b", sentence):
                assert re.search(r"tipp", sentence, re.I), f"{path.name}: {sentence}"


def test_the_info_sign_is_drawn_by_the_page():
    """„ℹ“ (U+2139) without an emoji font is a plain „i“: the box draws a round badge."""
    html = box_html("info", "<b>Klassenraum:</b> Text")
    assert "\u2139" not in html
    icon = re.search(r'<span aria-hidden="true" class="bt-q-icon" style="([^"]*)">i</span>', html)
    assert icon, html
    assert "border-radius:50%" in icon[1] and "background:#" in icon[1] and "color:#fff" in icon[1]


def test_no_page_or_module_uses_the_bare_info_sign():
    files = [*NOTEBOOKS, *(ROOT / "bohnteach").rglob("*.py"), *(ROOT / "bohnteach").rglob("*.toml")]
    bare = [f.name for f in files if re.search("\u2139(?!\ufe0f)", f.read_text("utf-8"))]
    assert bare == []
