"""One name per variety: the site says Stinkbohne (the Amigo rulebook's name); the
Ladybohn rulebook's Saubohne is named once, as the alias."""
from __future__ import annotations

from pathlib import Path

from bohnteach.game.beans import find_variety

ROOT = Path(__file__).resolve().parents[1]
ALIAS = "Saubohne"
TEXTS = (".py", ".ipynb", ".scene", ".toml", ".md")


def _count(paths) -> dict[str, int]:
    found = {}
    for path in paths:
        n = path.read_text(encoding="utf-8").count(ALIAS)
        if n:
            found[str(path.relative_to(ROOT))] = n
    return found


def _files(*folders: str):
    for folder in folders:
        yield from (p for p in sorted((ROOT / folder).rglob("*"))
                    if p.suffix in TEXTS and ".ipynb_checkpoints" not in p.parts)


def test_the_site_names_the_alias_once():
    found = _count(p for p in _files("bohnteach", "notebooks", "tutorials")
                   if p.name != "varieties.toml")
    assert found == {"notebooks/06_Ernte_und_Bohnometer.ipynb": 1}, found


def test_docs_name_the_alias_at_most_once_each():
    found = _count(_files("docs"))
    assert all(n == 1 for n in found.values()), found


def test_the_variety_and_its_alias():
    v = find_variety("stink")
    assert (v.de, v.de_plural, v.aliases) == ("Stinkbohne", "Stinkbohnen", (ALIAS,))
    assert find_variety(ALIAS) is v  # scenes and notation still read the other name
