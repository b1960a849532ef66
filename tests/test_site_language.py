"""The reader's language in the site's addresses and pages (issue 56), headless: the
address names it (``&lang=en``; none or unknown: German), the app makes the page from the
German notebook in that language and runs its cells with it as the page's language (so
every widget they make keeps speaking it, in its callbacks too), the page machinery words
its texts through the ``ui`` catalogue, and German stays exactly as it was.

The browser's half (the switch, links, Back, reload, the static site) is
``test_site_language_browser.py``.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnteach import i18n
from bohnteach.i18n import MissingTranslation, page_language, speak_page, translator
from bohnteach.i18n.notebooks import SPEAK, translate_notebook
from bohnteach.site import pages
from bohnteach.site.addresses import LANG_KEY, address_language, page_config
from bohnteach.site.app import App, Entry, not_found_html
from bohnteach.site.publish import FRAME_WORDS, frame_words, page_title
from german_scan import german_words, html_to_text

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = "01_Material_und_Aufbau"


@pytest.fixture()
def shell() -> Iterator[object]:
    """An IPython shell for ``display`` (as in a kernel); afterwards the process is as
    before: German, no address, no widgets."""
    import ipywidgets
    from IPython.core.interactiveshell import InteractiveShell

    from bohnteach.widgets.questions import use_address

    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()
    use_address(None)
    speak_page(None)
    ipywidgets.Widget.close_all()


@pytest.fixture()
def german_after() -> Iterator[None]:
    yield
    speak_page(None)


# ---- addresses ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("query", "lang"), [
    ("", "de"), ("kapitel=02_Phase_1", "de"), ("kapitel=02_Phase_1&lang=en", "en"),
    ("?lang=EN", "en"), ("lang=de", "de"), ("lang=fr", "de"), ("lang=", "de"),
    ("lang=<script>", "de"), ("lang=en&lang=de", "en"),
])
def test_the_address_names_the_language_and_anything_else_is_german(query, lang):
    assert address_language(query) == lang


def test_the_pages_scripts_get_the_languages():
    config = page_config()["lang"]
    assert config == {"key": LANG_KEY, "languages": {"de": "Deutsch", "en": "English"}, "source": "de"}


# ---- the page's language -------------------------------------------------------------------------
def test_the_page_language_is_current_outside_any_speaking_block(german_after):
    """What a widget's callback sees: after the page's render, outside ``speaking``."""
    assert i18n.current().lang == "de"
    speak_page("en")
    assert i18n.current().lang == "en" and page_language() == "en"
    assert i18n.reader().lang == "en" and i18n.reader("de").lang == "de"
    with i18n.speaking("de"):
        assert i18n.current().lang == "de"
    assert i18n.current().lang == "en"
    speak_page(None)
    assert i18n.current().lang == "de"


def test_an_english_notebook_sets_the_page_language_in_its_first_code_cell(german_after):
    nb = json.loads((ROOT / "notebooks" / f"{CHAPTER}.ipynb").read_text("utf-8"))
    english = translate_notebook(nb, translator("en"))
    code = [c for c in english["cells"] if c["cell_type"] == "code"]
    assert code[0]["source"].startswith(SPEAK.format(lang="en") + "\n")
    assert not any(SPEAK.format(lang="en") in c["source"] for c in code[1:])
    exec(code[0]["source"].split("\n")[0], {})  # noqa: S102 - the line a kernel runs first
    assert page_language() == "en"
    german = translate_notebook(nb, translator("de"))
    assert german["cells"] == nb["cells"], "German: the notebook as it is"


# ---- the app in English --------------------------------------------------------------------------
def _players() -> list:
    from bohnteach.site.app import _instances
    from bohnteach.widgets.scene_player import ScenePlayer

    return [w for w in _instances().values() if isinstance(w, ScenePlayer)]


def test_the_app_shows_a_chapter_in_the_addresss_language_and_back_in_german(shell):
    app = App(query=f"kapitel={CHAPTER}&lang=en")
    assert app.entry == Entry("kapitel", CHAPTER)
    assert app.router.lang == "en"
    assert app.router.title == "Components and setup – Learning Bohnanza"
    assert page_language() == "en", "the page's widgets speak English in their callbacks"
    players = _players()
    assert players, "the chapter's scenes are shown"
    player = players[0]
    player.next_button.click()  # a callback, long after the page's cells ran
    shown = html_to_text(player.narration.value + player.label.value)
    assert "Step 1" in shown and german_words(shown) == []

    app.router.route = f"kapitel={CHAPTER}"  # the switch's „Deutsch“
    assert app.router.lang == "de" and page_language() == "de"
    assert app.router.title == "Material und Aufbau – Bohnanza lernen"
    player = _players()[0]
    player.next_button.click()
    assert "Schritt 1" in player.label.value


def test_an_unknown_address_in_english_says_so_in_english(shell):
    app = App(query="kapitel=99_Gibt_es_nicht&lang=en")
    assert app.entry is None and app.router.title == "Page not found – Learning Bohnanza"
    html = not_found_html("kapitel=99&lang=en", translator("en", strict=True))
    assert 'href="?lang=en"' in html and german_words(html_to_text(html)) == []


def test_the_german_not_found_page_is_unchanged():
    assert not_found_html("kapitel=x") == (
        '<div class="bt-site"><h1>Seite nicht gefunden</h1><p>Die Adresse <code>?kapitel=x</code> nennt '
        "kein Kapitel und keine Lektion dieser Seite – vielleicht ein Tippfehler oder ein alter Link.</p>"
        '<p><a href="?">Zur Startseite „Bohnanza lernen“</a>: Dort stehen alle Kapitel und Lektionen.</p></div>')


def test_titles_in_both_languages():
    nb = json.loads((ROOT / "notebooks" / f"{CHAPTER}.ipynb").read_text("utf-8"))
    assert page_title(nb) == "Material und Aufbau – Bohnanza lernen"
    english = translate_notebook(nb, translator("en"))
    assert page_title(english, translator("en")) == "Components and setup – Learning Bohnanza"
    start = {"cells": [{"cell_type": "markdown", "source": "# Bohnanza lernen"}]}
    assert page_title(start) == "Bohnanza lernen"


# ---- the page machinery --------------------------------------------------------------------------
def test_the_page_machinery_speaks_english_with_a_strict_translator():
    """Every builder the first chapter and the start page use, in English: no message
    without its translation (strict), no German word on the screen."""
    strict = translator("en", strict=True)
    fragments = [pages.nav_html(CHAPTER, strict), pages.nav_html("00_Start", strict),
                 pages.page_header(CHAPTER, lang=strict).data, pages.chapter_overview(lang=strict).data,
                 pages.variety_table("amigo", lang=strict).data,
                 pages.rules_table("setup.deck", "hand.order", lang=strict).data,
                 pages.refusal_example(lang=strict).data]
    for fragment in fragments:
        assert "bt-box bt-error" not in fragment, fragment[-400:]
        assert german_words(html_to_text(fragment)) == [], fragment[-400:]
    assert "Chapter 1 of" in fragments[2] and "Here you learn:" in fragments[2]


def test_a_builder_takes_the_pages_language_when_not_told_one(german_after):
    speak_page("en")
    assert ">Overview<" in pages.nav_html(CHAPTER)
    speak_page(None)
    assert ">Übersicht<" in pages.nav_html(CHAPTER)


def test_the_german_page_machinery_is_unchanged():
    assert pages.nav_html(CHAPTER) == (
        '<nav class="bt-site bt-nav" aria-label="Seiten"><a class="bt-nav-prev" href="00_Start.ipynb" '
        'rel="prev">← Start</a><a class="bt-nav-home" href="00_Start.ipynb">Übersicht</a>'
        '<a class="bt-nav-next" href="02_Phase_1.ipynb" rel="next">Phase 1 →</a></nav>')
    header = pages.page_header(CHAPTER).data
    assert "<span>Kapitel 1 von " in header and "<b>Hier lernst du:</b>" in header and " lang=" not in header


def test_a_missing_translation_is_found_by_the_strict_translator():
    with pytest.raises(MissingTranslation):
        translator("en", strict=True).gettext("Ein Satz, den es nirgends gibt.")


# ---- the frame -------------------------------------------------------------------------------------
def test_every_word_of_the_frame_has_its_english():
    strict = translator("en", strict=True)
    english = frame_words()["en"]
    assert list(english) == list(FRAME_WORDS)
    for german, text in english.items():
        assert text == strict.gettext(german) and german_words(text) == []


def test_the_servers_not_found_page_says_it_in_english_too():
    from bohnteach.site.publish import NOT_FOUND_WORDS, not_found_words

    strict = translator("en", strict=True)
    words = not_found_words()["en"]
    assert words["heading"] == "Page not found"
    assert words["home"] == "To the start page “Learning Bohnanza”"
    assert words["detail"] == strict.gettext(NOT_FOUND_WORDS["detail"])
    assert german_words(" ".join(words.values())) == []
