"""The translation catalogues (issue 56): current, complete where marked done, and true
to the German in every placeholder, link, tag and number."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po as babel_read_po  # noqa: E402

from bohnteach import catalogues  # noqa: E402
from bohnteach.i18n import DOMAINS  # noqa: E402
from bohnteach.i18n.po import parse_po, read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DONE = tomllib.loads((catalogues.LOCALE / "done.toml").read_text("utf-8"))
LANGS = catalogues.languages()


def _catalog(lang: str, domain: str) -> Catalog:
    with catalogues.po_path(lang, domain).open("rb") as f:
        return babel_read_po(f, locale=lang)


def _entries(lang: str):
    for domain in catalogues.domains():
        for m in _catalog(lang, domain):
            if m.id:
                yield domain, m


def _strings(m) -> list[str]:
    return list(m.string) if isinstance(m.string, (tuple, list)) else [m.string or ""]


def _ids(m) -> list[str]:
    return list(m.id) if isinstance(m.id, (tuple, list)) else [m.id]


def test_the_runtime_reads_every_domain_of_the_extraction():
    assert tuple(catalogues.domains()) == DOMAINS


def test_templates_match_a_fresh_extraction():
    """The committed .pot files are what `make i18n-extract` writes now: a German text
    changed without extracting fails here."""
    assert catalogues.stale_templates() == [], "stale templates: run `make i18n-update`"


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalogue_has_exactly_the_templates_messages_and_nothing_obsolete(lang):
    for domain in catalogues.domains():
        template = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                    for m in catalogues.template(domain) if m.id}
        catalog = _catalog(lang, domain)
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
        assert have == template, f"{lang}/{domain}: run `make i18n-update`"
        assert not catalog.obsolete, f"{lang}/{domain}: obsolete entries {list(catalog.obsolete)[:3]}"


@pytest.mark.parametrize("lang", sorted(DONE))
def test_what_is_marked_done_is_translated_and_reviewed(lang):
    """Every message of a file marked done (locale/done.toml) has a translation that is
    not fuzzy – a changed German text (fuzzy after `make i18n-update`) fails until reviewed."""
    done = set(DONE[lang]["files"])
    for path in done:
        assert (ROOT / path).is_file(), f"done.toml names a missing file: {path}"
    seen: set[str] = set()
    missing = []
    for domain, m in _entries(lang):
        files = {f for f, _ in m.locations}
        seen |= files & done
        if files & done and (m.fuzzy or not all(_strings(m))):
            missing.append(f"{domain}: {m.id!r}{' (fuzzy)' if m.fuzzy else ''}")
    assert missing == []
    assert seen == done, f"done.toml names files without messages: {sorted(done - seen)}"


_PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
_LINK = re.compile(r"\]\(([^)]*)\)")
_TAG = re.compile(r"</?[a-z]+[^>]*>")
_NUMBER = re.compile(r"\d+")


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_placeholders_links_tags_and_numbers(lang):
    """What the reader must find in both languages: the same {placeholders}, link
    targets, HTML tags and numbers (in any order: English words them differently)."""
    wrong = []
    for domain, m in _entries(lang):
        for source, text in zip(_ids(m) * 2, _strings(m)):
            if not text:
                continue
            for what, pattern in (("placeholders", _PLACEHOLDER), ("links", _LINK), ("tags", _TAG),
                                  ("numbers", _NUMBER)):
                if sorted(pattern.findall(source)) != sorted(pattern.findall(text)):
                    wrong.append(f"{domain}: {what} differ: {source!r} -> {text!r}")
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_one_german_text_has_one_translation_across_domains(lang):
    """The runtime merges a language's domains: a text in two of them must say the same."""
    seen: dict[tuple, tuple[str, list[str]]] = {}
    clashes = []
    for domain, m in _entries(lang):
        key = (m.context, tuple(_ids(m)))
        strings = _strings(m)
        if not all(strings):
            continue
        if key in seen and seen[key][1] != strings:
            clashes.append(f"{key}: {seen[key][0]} {seen[key][1]} vs {domain} {strings}")
        seen.setdefault(key, (domain, strings))
    assert clashes == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_stdlib_reader_agrees_with_babel(lang):
    """The runtime's own .po reader (Pyodide has no Babel) finds exactly the usable
    translations Babel finds."""
    for domain in catalogues.domains():
        path = catalogues.po_path(lang, domain)
        mine = read_po(path.read_text("utf-8"))
        theirs = {}
        for m in _catalog(lang, domain):
            if not m.id or m.fuzzy or not all(_strings(m)):
                continue
            if isinstance(m.id, tuple):
                theirs.update({(m.context, m.id[0], n): s for n, s in enumerate(m.string)})
            else:
                theirs[(m.context, m.id)] = m.string
        assert mine == theirs, domain


def test_the_reader_leaves_out_fuzzy_obsolete_and_untranslated_entries():
    text = '''msgid ""
msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#, fuzzy
msgid "Alt"
msgstr "Old"

msgid "Leer"
msgstr ""

msgctxt "variety"
msgid "Blaue Bohne"
msgstr "Blue Bean"

msgid "Karte"
msgid_plural "Karten"
msgstr[0] "card"
msgstr[1] "cards"

#~ msgid "Weg"
#~ msgstr "Gone"
'''
    assert read_po(text) == {("variety", "Blaue Bohne"): "Blue Bean",
                             (None, "Karte", 0): "card", (None, "Karte", 1): "cards"}
    assert [e["obsolete"] for e in parse_po(text)][-1] is True


def test_a_changed_german_text_marks_its_translation_fuzzy():
    """msgmerge's rule through Babel (`make i18n-update`): the old translation stays, marked
    for review; a removed text becomes obsolete."""
    catalog = Catalog(locale="en")
    catalog.add("Kein Feld ist frei.", "No field is free.")
    catalog.add("Weg damit.", "Away with it.")
    template = Catalog()
    template.add("Kein Feld ist mehr frei.")
    catalogues.merge(catalog, template)
    changed = catalog.get("Kein Feld ist mehr frei.")
    assert changed.fuzzy and changed.string == "No field is free."
    assert "Weg damit." in catalog.obsolete


def test_the_english_rules_catalogue_is_current():
    """docs/rules.en.md is written from the same data as docs/rules.md, through the
    English catalogue; it is never edited by hand."""
    from bohnteach.render.rules_doc import rules_markdown

    doc = ROOT / "docs" / "rules.en.md"
    assert doc.is_file() and doc.read_text("utf-8") == rules_markdown("en"), (
        "docs/rules.en.md is stale: python -m bohnteach.render.rules_doc docs/rules.en.md en")


def test_the_english_rules_catalogue_has_no_german_beyond_names_and_citations():
    from german_scan import german_words

    from bohnteach.i18n.glossary import glossary

    doc = (ROOT / "docs" / "rules.en.md").read_text("utf-8")
    body = "\n".join(line for line in doc.splitlines()
                     if not line.startswith("*File:*"))  # traceability: the seed file's own words
    # the variety table's second column names the German cards on purpose
    german_names = {t.de for t in glossary()}
    body = "\n".join(" | ".join(c for c in line.split(" | ") if c not in german_names)
                     for line in body.splitlines())
    assert sorted(set(german_words(body))) == []
