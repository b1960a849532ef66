"""Find German in a text meant for English readers (tests of issue 56).

``german_words(text)`` returns the words of ``text`` that are German: words with ä, ö,
ü or ß, German function words, the game's German nouns (every German word of the
glossary, ``bohnteach/data/glossary.toml``) and every word of four letters or more that
the German texts use (the catalogues' templates) and no English translation does. Not counted: proper names
(:data:`ALLOWED`), HTML markup and stylesheets, the rulebooks' sections quoted in „…“
(the German rulebooks are cited as printed, their English rendering beside them), rule
IDs (``p1.plant-front``), file paths and the seed file names of the traceability lines.

    assert german_words(html_to_text(fragment)) == []
"""
from __future__ import annotations

import html
import re

from bohnteach.i18n.glossary import glossary

ALLOWED = frozenset({
    # people at the scenes' tables
    "Anna", "Ben", "Clara", "David", "Emma", "Felix",
    # the game, its publisher and the editions (names in every language)
    "Bohnanza", "Amigo", "Ladybohn", "Indiana", "Bohnes", "Sabohntage", "bohnteach",
})
"""Proper names that stay as they are in English."""

FUNCTION_WORDS = frozenset("""
der das und ist nicht ein eine einer einen einem eines mit auf für von zu zum zur den dem des
sich wird werden kann können darf dürfen muss müssen ich du er sie wir ihr haben noch schon
nur auch aus bei nach oder wenn dass im am vom beim ins aufs über unter vor hinter zwischen
jede jeder jedes alle keine kein keinen nichts etwas wie wo warum weil denn aber doch dann
liegt liegen gibt bleibt kommt kommen pflanzt pflanzen erntet ernten zieht ziehen deckt
aufdecken handeln schenken gepflanzt Feld Felder Karte Karten Taler Stapel Regel Regeln
Szene Szenen Schritt Spieler Spielerin Personen Zug Handel Angebot Sorte Sorten
Ernte Seite Kapitel Quelle Quellen Auslegung Übersicht weiter zurück leer verdeckt vorne
hinten oben unten gehören
""".split())
"""German words that are not English words (``die``, ``an``, ``so``, ``was`` and the like are left out)."""

_QUOTED = re.compile(r"„[^“]*“")
_SEED = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
_PATH = re.compile(r"[\w.*-]+(?:/[\w.*-]+)+")
_RULE_ID = re.compile(r"\b[a-z0-9]+\.[a-z0-9]+(?:-[a-z0-9]+)*\b")
_STYLE = re.compile(r"<(style|script)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'-]*")


def _glossary_words() -> frozenset[str]:
    words = set()
    for term in glossary():
        if term.de == term.en:
            continue  # a name kept in English (Ladybohn, Indiana Bohnes)
        for form in (term.de, term.de_plural):
            words.update(w for w in form.split() if w not in ALLOWED and len(w) > 3)
    return frozenset(words)


def _catalogue_words() -> frozenset[str]:
    """Words of the German texts (the templates) that no English translation uses."""
    from bohnteach.catalogues import LOCALE
    from bohnteach.i18n.po import parse_po

    german, english = set(), set()
    for pot in LOCALE.glob("*.pot"):
        for e in parse_po(pot.read_text("utf-8")):
            german.update(_WORD.findall(_TAG.sub(" ", e["msgid"] + " " + e.get("msgid_plural", ""))))
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in parse_po(po.read_text("utf-8")):
            for text in e["msgstr"]:
                english.update(_WORD.findall(_TAG.sub(" ", text)))
    english_lower = {w.lower() for w in english}
    return frozenset(w for w in german if len(w) >= 4 and w not in ALLOWED and w.lower() not in english_lower)


GERMAN = FUNCTION_WORDS | _glossary_words() | _catalogue_words()


def html_to_text(fragment: str) -> str:
    """The text a reader sees (and a screen reader hears) of an HTML fragment: no
    stylesheets or scripts, no tags; attributes that speak (title, aria-label) kept."""
    spoken = " ".join(re.findall(r'(?:title|aria-label|alt)="([^"]*)"', fragment))
    text = _TAG.sub(" ", _STYLE.sub(" ", fragment))
    return html.unescape(text + " " + spoken)


def german_words(text: str) -> list[str]:
    """The German words of ``text`` (in order, repeated as they occur)."""
    text = _RULE_ID.sub(" ", _PATH.sub(" ", _SEED.sub(" ", _QUOTED.sub(" ", text))))
    found = []
    for word in _WORD.findall(text):
        bare = word.strip("'-")
        if not bare or bare in ALLOWED:
            continue
        if re.search(r"[äöüßÄÖÜ]", bare) or bare in GERMAN or bare.lower() in FUNCTION_WORDS \
                or bare.lower().endswith(("bohne", "bohnen")):
            found.append(bare)
    return found
