"""Every scene in English (issue 56): each scene file played through step by step with a
strict translator – title, rule and source chips, introduction, every narration, every
refusal – shows no German beyond names and the rulebooks' sections quoted in „…“; and
the German player is what it always was."""
from __future__ import annotations

import tomllib

import pytest

from bohnteach import catalogues
from bohnteach.content.chapters import PAGES
from bohnteach.content.scenes import list_scenes, scene_files
from bohnteach.i18n import speaking, translator
from bohnteach.render.language import source_words
from bohnteach.widgets.scene_player import ScenePlayer
from german_scan import german_words, html_to_text

SCENES = list_scenes()
DONE = set(tomllib.loads((catalogues.LOCALE / "done.toml").read_text("utf-8"))["en"]["files"])


def _shown(player: ScenePlayer) -> list[str]:
    """Everything the player shows at every position, as a reader sees it, the table of
    cards included (an edition's zones, card traits and notes too)."""
    texts = [player.title.value, player.first_button.tooltip or "", player.next_button.description,
             player.prev_button.description, player.next_button.tooltip or ""]
    for i in range(player.n + 1):
        player.go(i)
        texts += [player.label.value, player.narration.value, player.line.value,
                  player.feedback.value, player.table.value]
    return texts


def test_every_scene_file_is_played_here_and_marked_done():
    """No scene file left out: the catalogue's scene files are the shipped ones, all done."""
    assert len(SCENES) == len(scene_files())
    root = catalogues.ROOT
    assert {p.resolve().relative_to(root).as_posix() for p in scene_files()} <= DONE


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.id)
def test_every_scene_plays_in_english(scene):
    """A strict translator raises on any text without its English (the player shows its
    failure box then); the scan finds no German word on the screen, the table and refusals
    included (each says which rule, in English)."""
    player = ScenePlayer(scene, lang=translator("en", strict=True))
    texts = _shown(player)
    assert [t for t in texts if "bt-box bt-error" in t] == [], "a text without its English"
    for i, step in enumerate(scene.steps, 1):
        if step.refused:
            player.go(i)
            assert "Not allowed:" in player.feedback.value, (scene.id, i)
    found = sorted({w for text in texts for w in german_words(html_to_text(text))})
    assert found == [], scene.id


@pytest.mark.parametrize("scene", list_scenes(next(p for p in PAGES if p.chapter).chapter), ids=lambda s: s.id)
def test_the_first_chapters_refusals_say_what_exactly_was_wrong(scene):
    """Beyond "Not allowed:" and the rule: the refusal's detail (its rule ID's parameters
    worded in English), for every refusal in the chapter a newcomer reads first."""
    player = ScenePlayer(scene, lang=translator("en", strict=True))
    for i, step in enumerate(scene.steps, 1):
        if step.refused:
            player.go(i)
            assert 'class="bt-detail"' in player.feedback.value, (scene.id, i)


def test_the_german_scene_player_is_unchanged():
    scene = next(s for s in SCENES if s.id == "l-timon-angebot")
    player = ScenePlayer(scene)
    assert player.next_button.description == "▶ weiter"
    player.go(1)
    assert "Ladybohn-Spielregel, „2. Phase“, Beispiel 1" in player.narration.value
    assert "Timon bietet Nina aufgedeckte Sojabohne gegen Rote Bohne" in player.narration.value


@pytest.mark.parametrize(("cited", "english"), [
    ("Ladybohn-Spielregel, „Die Babybohnen“", "Ladybohn rulebook, „Die Babybohnen“ (The baby beans)"),
    ("Ladybohn-Spielregel, „2. Phase“, Beispiel 1",
     "Ladybohn rulebook, „2. Phase“ (Phase 2, example 1)"),
    ("Ladybohn-Spielregel, „Die Bohnenernte“, „Besonderheit der weiblichen Gartenbohne“",
     "Ladybohn rulebook, „Die Bohnenernte“, „Besonderheit der weiblichen Gartenbohne“ "
     "(The bean harvest; the special feature of the female Garden Bean)"),
])
def test_a_cited_section_keeps_its_german_quotes_and_says_the_rest_in_english(cited, english):
    """A section cited as printed („…“) stays German; what the citation adds outside the
    quotes (Beispiel 1, nach Beispiel 2) is said only in the reader's language."""
    with speaking(translator("en", strict=True)):
        assert source_words(cited) == english
    assert source_words(cited) == cited
