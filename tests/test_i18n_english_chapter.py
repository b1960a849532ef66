"""The first chapter in English (issue 56): made from the German notebook and the catalogue,
and a changed German block shows in German until it is translated again. Every page's
structure and prose: tests/test_i18n_english_pages.py; every scene:
tests/test_i18n_english_scenes.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bohnteach.content.chapters import PAGES
from bohnteach.i18n import MissingTranslation, translator
from bohnteach.i18n.notebooks import translate_notebook

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = next(p for p in PAGES if p.chapter)  # the first chapter with scenes
NOTEBOOK = ROOT / "notebooks" / CHAPTER.filename


def _german_notebook() -> dict:
    return json.loads(NOTEBOOK.read_text("utf-8"))


def test_the_chapter_is_the_first_one_after_the_start_page():
    assert CHAPTER.name == "01_Material_und_Aufbau" and PAGES.index(CHAPTER) == 1


def test_the_english_page_says_the_chapter_in_english():
    """The chapter's page in the catalogue's words (every page's structure, block by block:
    tests/test_i18n_english_pages.py)."""
    english = translate_notebook(_german_notebook(), translator("en", strict=True))
    assert english["metadata"]["language"] == "en"
    assert english["cells"][0]["source"] == "# Components and setup\n\nBefore the first bean grows: " \
        "what is in the box, how the table looks at the start – and the one rule the whole game lives on."


def test_a_changed_german_block_is_no_longer_translated():
    """No second copy to keep: edit the German and the English page shows the change
    (German until translated; the strict translator names the gap)."""
    nb = _german_notebook()
    nb["cells"][0]["source"] = "# Material und Aufbau\n\nEin ganz neuer Satz."
    assert "Ein ganz neuer Satz." in translate_notebook(nb, translator("en"))["cells"][0]["source"]
    with pytest.raises(MissingTranslation, match="Ein ganz neuer Satz"):
        translate_notebook(nb, translator("en", strict=True))

