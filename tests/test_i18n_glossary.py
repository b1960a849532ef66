"""The glossary (data/glossary.toml) is what the English catalogues say: the English
edition's names for every variety, ours marked as ours (issue 56)."""
from __future__ import annotations

import re

import pytest

from bohnteach.game.beans import all_varieties
from bohnteach.i18n import translator
from bohnteach.i18n.glossary import find_term, glossary, phases
from bohnteach.i18n.po import parse_po
from bohnteach import catalogues
from bohnteach.render.words import PHASE_NAMES

EDITION_NAMES = {
    "Blaue Bohne": "Blue Bean", "Feuerbohne": "Chili Bean", "Stinkbohne": "Stink Bean",
    "Brechbohne": "Green Bean", "Sojabohne": "Soy Bean", "Augenbohne": "Black-eyed Bean",
    "Rote Bohne": "Red Bean", "Gartenbohne": "Garden Bean", "Kakaobohne": "Cocoa Bean",
    "Kaffeebohne": "Coffee Bean", "Wachsbohne": "Wax Bean",
}
"""The English edition's names (issue 56) – the glossary must not drift from them."""


def _translated():
    for domain in catalogues.domains():
        text = catalogues.po_path("en", domain).read_text("utf-8")
        for e in parse_po(text):
            if e["msgid"] and not e["fuzzy"] and not e["obsolete"] and all(e["msgstr"]):
                yield domain, e


def test_the_glossary_has_the_english_editions_names():
    for de, en in EDITION_NAMES.items():
        term = find_term(de)
        assert term is not None and term.en == en and term.source == "edition", de


def test_every_variety_of_the_data_is_in_the_glossary_and_named_so_in_english():
    tr = translator("en", strict=True)
    for v in all_varieties():
        term = find_term(v.de)
        assert term is not None, f"{v.de}: not in data/glossary.toml"
        assert tr.pgettext("variety", v.de) == term.en
        assert tr.pgettext("variety-plural", v.de_plural) == term.en_plural


def test_names_of_our_own_are_marked_as_ours():
    """Indiana Bohnes (a German fan expansion) and Ladybohn (no English edition): ours."""
    for de in ("Schlangenbohne", "Buschbohne", "Wegkarte", "Trägerkarte", "Ladybohn", "Babybohne"):
        assert find_term(de).ours, de
    assert not any(find_term(de).ours for de in EDITION_NAMES)


@pytest.mark.parametrize("term", [t for t in glossary() if t.de != t.en], ids=lambda t: t.de)
def test_every_english_entry_uses_the_glossarys_term(term):
    """Wherever a German text names a term (in its exact form), the English says the
    glossary's word: a Feuerbohne is a Chili Bean everywhere, a Taler a coin."""
    wrong = []
    forms = [(term.de, term.en)]
    if term.de_plural and term.de_plural != term.de:
        forms.append((term.de_plural, term.en_plural or term.en))
    for form_de, form_en in forms:
        pattern = re.compile(rf"(?<![\wäöüß]){re.escape(form_de)}(?![\wäöüß])")
        stem = form_en.lower().split()[0]
        stem = stem[:-1] if stem.endswith("e") else stem  # trade: trading, donate: donation
        for domain, e in _translated():
            for source, text in zip([e["msgid"], e.get("msgid_plural", e["msgid"])], e["msgstr"]):
                if pattern.search(source) and stem not in text.lower():
                    wrong.append(f"{domain}: {source!r} -> {text!r} (expected {form_en!r})")
    assert wrong == []


def test_the_phase_bar_says_the_glossarys_phases():
    assert set(phases()) == set(PHASE_NAMES.values())
    tr = translator("en", strict=True)
    assert {de: tr.gettext(de) for de in phases()} == phases()
