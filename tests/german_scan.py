"""Find German in a text meant for English readers (tests of issue 56).

``german_words(text)`` returns the words of ``text`` that are German: words with ä, ö,
ü or ß, German function words, the game's German nouns (every German word of the
glossary, ``bohnteach/data/glossary.toml``) and every word of four letters or more that
the German texts use (the catalogues' templates) and no English translation does. Not counted: proper names
(:data:`ALLOWED`), HTML markup and stylesheets, the rulebooks' sections quoted in „…“
(the German rulebooks are cited as printed, their English rendering beside them), rule
IDs (``p1.plant-front``), file paths, an address's query (``?kapitel=…&lang=en``) and the seed
file names of the traceability lines.

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
_QUERY = re.compile(r"\?[\w%.-]+=[\w%.&=-]*")
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
    text = _RULE_ID.sub(" ", _PATH.sub(" ", _QUERY.sub(" ", _SEED.sub(" ", _QUOTED.sub(" ", text)))))
    found = []
    for word in _WORD.findall(text):
        bare = word.strip("'-")
        if not bare or bare in ALLOWED:
            continue
        if re.search(r"[äöüßÄÖÜ]", bare) or bare in GERMAN or bare.lower() in FUNCTION_WORDS \
                or bare.lower().endswith(("bohne", "bohnen")):
            found.append(bare)
    return found


# ---- what a reader sees of a page that ran -----------------------------------------------
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
WIDGET_TEXT_KEYS = ("value", "description", "tooltip", "placeholder", "_options_labels", "_titles",
                    "titles", "label")
"""The traits of a widget's state that a reader sees (an ``Output`` widget's outputs aside)."""
PLOTLY_TEXT_KEYS = frozenset({"text", "name", "title", "hovertemplate", "texttemplate", "hovertext",
                              "ticktext", "customdata", "labels", "legendgrouptitle"})
"""The keys of a plotly figure under which its visible words stand (titles, axes, legends,
hovers, annotations)."""


def markdown_text(source: str) -> str:
    """A markdown cell's prose: without link targets (file names, not shown) and code spans
    (code is typed as it is written, in any language)."""
    return _CODE_SPAN.sub(" ", _LINK_TARGET.sub("]", source))


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def plotly_texts(figure) -> list[str]:
    """The words of a plotly figure (its JSON: ``data`` and ``layout``)."""
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in PLOTLY_TEXT_KEYS:
                    found.extend(html_to_text(s) for s in _strings(value))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(figure)
    return found


def output_texts(output) -> list[str]:
    """What a reader sees of one output of a cell (or of an ``Output`` widget)."""
    if output.get("output_type") == "stream":
        return [output.get("text", "")]
    if output.get("output_type") == "error":
        return [f"{output.get('ename')}: {output.get('evalue')}"]
    data = output.get("data", {})
    texts = []
    if "text/html" in data:
        html_text = data["text/html"]
        texts.append(html_to_text("".join(html_text) if isinstance(html_text, list) else html_text))
    if "application/vnd.plotly.v1+json" in data:
        texts += plotly_texts(data["application/vnd.plotly.v1+json"])
    if not texts and "application/vnd.jupyter.widget-view+json" not in data and "text/plain" in data:
        plain = data["text/plain"]
        texts.append("".join(plain) if isinstance(plain, list) else plain)
    return texts


def widget_states(nb) -> dict:
    """The state of every widget model of an executed notebook (by model id)."""
    metadata = nb.get("metadata", {}).get("widgets", {})
    return metadata.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})


def widget_texts(nb) -> list[str]:
    """What the reader sees of a page's widgets: texts, labels, options, tooltips, the
    outputs of ``Output`` widgets, and plotly figure widgets."""
    texts: list[str] = []
    for model in widget_states(nb).values():
        state = model.get("state", {})
        for key in WIDGET_TEXT_KEYS:
            texts += [html_to_text(s) for s in _strings(state.get(key))]
        for output in state.get("outputs", []) or []:
            texts += output_texts(output)
        for key in ("_data", "_layout"):
            if key in state:
                texts += plotly_texts(state[key])
    return texts


def page_texts(nb) -> list[str]:
    """Everything a reader sees of an executed page: its prose, its cells' outputs and its widgets."""
    texts = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            texts.append(markdown_text("".join(source) if isinstance(source, list) else source))
        for output in cell.get("outputs", []):
            texts += output_texts(output)
    return texts + widget_texts(nb)
