"""The first chapter in English, end to end (issue 56): made from the German notebook
and the catalogue, every scene played through with a strict translator – and no German
left beyond names and cited sections. Its page runs in a kernel with every other page's
in tests/test_i18n_english_pages.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bohnteach.content.chapters import PAGES
from bohnteach.content.scenes import list_scenes
from bohnteach.i18n import MissingTranslation, translator
from bohnteach.i18n.notebooks import cell_source, markdown_blocks, translate_notebook
from bohnteach.widgets.scene_player import ScenePlayer
from german_scan import german_words, html_to_text

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = next(p for p in PAGES if p.chapter)  # the first chapter with scenes
NOTEBOOK = ROOT / "notebooks" / CHAPTER.filename


def _german_notebook() -> dict:
    return json.loads(NOTEBOOK.read_text("utf-8"))


def test_the_chapter_is_the_first_one_after_the_start_page():
    assert CHAPTER.name == "01_Material_und_Aufbau" and PAGES.index(CHAPTER) == 1


def test_the_english_page_is_made_from_the_german_one_block_by_block():
    """Every prose block goes through the catalogue (a strict translator finds each one),
    every page call is told the language, and nothing else changes."""
    nb = _german_notebook()
    english = translate_notebook(nb, translator("en", strict=True))
    assert english["metadata"]["language"] == "en"
    assert len(english["cells"]) == len(nb["cells"])
    for de, en in zip(nb["cells"], english["cells"]):
        assert de["cell_type"] == en["cell_type"]
        if de["cell_type"] == "markdown":
            assert len(markdown_blocks(cell_source(en))) == len(markdown_blocks(cell_source(de)))
        else:
            assert "lang='en'" in en["source"] or "pages." not in cell_source(de)
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


def _positions(player: ScenePlayer) -> list[str]:
    """Everything the player shows at every step, as a reader sees it."""
    texts = [player.title.value, player.first_button.tooltip or "", player.next_button.description,
             player.prev_button.description, player.next_button.tooltip or ""]
    for i in range(player.n + 1):
        player.go(i)
        texts += [player.label.value, player.narration.value, player.line.value,
                  player.feedback.value, player.table.value]
    return texts


@pytest.mark.parametrize("scene", list_scenes(CHAPTER.chapter), ids=lambda s: s.id)
def test_every_scene_of_the_chapter_plays_in_english(scene):
    """Every step of every scene of the chapter, refusals included, with a strict
    translator: no text without its English, no German word on the screen."""
    player = ScenePlayer(scene, lang=translator("en", strict=True))
    texts = _positions(player)
    refused = [i for i, step in enumerate(scene.steps, 1) if step.refused]
    for i in refused:
        player.go(i)
        assert "Not allowed:" in player.feedback.value
        assert 'class="bt-detail"' in player.feedback.value, "the refusal says what exactly was wrong"
    found = [w for text in texts for w in german_words(html_to_text(text))]
    assert found == []


def test_the_german_scene_player_is_unchanged():
    scene = list_scenes(CHAPTER.chapter)[0]
    player = ScenePlayer(scene)
    assert player.next_button.description == "▶ weiter"
    assert "Schritt 0 / " in player.label.value
    assert "Ausgangslage" in player.narration.value
