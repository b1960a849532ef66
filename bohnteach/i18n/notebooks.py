"""A page in another language, made from the German notebook and the catalogue.

A notebook's markdown cells are split into blocks (paragraphs, headings, lists, tables;
:func:`markdown_blocks`); each block is one message of the ``pages`` catalogue, its German
text the message id. :func:`translate_notebook` makes the reader's page from the German
one: every block through the translator, every call of the page machinery (``pages.…(…)``)
told the language (``lang="en"``), and its first code cell starts by setting the page's
language (:func:`bohnteach.i18n.speak_page`), so whatever the page's cells make with
:func:`bohnteach.i18n.reader` speaks it, in its later callbacks too. The English page is
made when it is needed (the app, the tests) – never kept as a second file to edit by hand.

    nb = json.loads(Path("notebooks/01_Material_und_Aufbau.ipynb").read_text())
    english = translate_notebook(nb, translator("en"))
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass
from typing import Any

from bohnteach.i18n import Translator

PAGE_MODULES = ("pages", "site")
"""The names a notebook gives ``bohnteach.site.pages`` (``from bohnteach.site import pages``)."""
SPEAK = "import bohnteach.i18n; bohnteach.i18n.speak_page({lang!r})"
"""The line a page in another language begins its first code cell with: the page's
cells, and the widgets they make, speak the page's language."""

_LIST_ITEM = re.compile(r"^\s*(?:[*+-]|\d+\.)\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Block:
    """A piece of a markdown cell: ``text`` as the catalogue has it (wrapped lines joined)
    and whether it is prose (``translatable``) or kept as it is (code, HTML, empty)."""

    text: str
    translatable: bool
    line: int
    """First line of the block in its cell (1-based)."""


def _join(lines: list[str]) -> str:
    """Hard-wrapped lines as one line; a list keeps one line per item."""
    if _LIST_ITEM.match(lines[0]):
        items: list[str] = []
        for line in lines:
            if _LIST_ITEM.match(line) or not items:
                items.append(line.rstrip())
            else:
                items[-1] += " " + line.strip()
        return "\n".join(items)
    if lines[0].lstrip().startswith("|"):
        return "\n".join(line.rstrip() for line in lines)
    return " ".join(line.strip() for line in lines)


def markdown_blocks(source: str) -> list[Block]:
    """The blocks of a markdown cell, in order: separated by empty lines; a fenced code
    block or an HTML block is one untranslated block."""
    blocks: list[Block] = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        if _FENCE.match(lines[i]):
            fence = _FENCE.match(lines[i]).group(1)
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                i += 1
            i += 1
            blocks.append(Block("\n".join(lines[start:i]), False, start + 1))
            continue
        while i < len(lines) and lines[i].strip() and not _FENCE.match(lines[i]):
            # a heading ends its block even without an empty line after it
            if i > start and lines[i].lstrip().startswith("#"):
                break
            i += 1
            if lines[i - 1].lstrip().startswith("#"):
                break
        chunk = lines[start:i]
        html = chunk[0].lstrip().startswith("<")
        blocks.append(Block("\n".join(chunk) if html else _join(chunk), not html, start + 1))
    return blocks


def cell_source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def translate_markdown(source: str, tr: Translator) -> str:
    """A markdown cell in the reader's language, block by block."""
    return "\n\n".join(tr.gettext(b.text) if b.translatable else b.text for b in markdown_blocks(source))


class _TellLanguage(ast.NodeTransformer):
    """Adds ``lang=<code>`` to every call ``pages.<name>(…)`` that does not name one."""

    def __init__(self, lang: str):
        self.lang = lang

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        f = node.func
        if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in PAGE_MODULES
                and not any(k.arg == "lang" for k in node.keywords)):
            node.keywords.append(ast.keyword(arg="lang", value=ast.Constant(self.lang)))
        return node


def translate_code(source: str, lang: str) -> str:
    """A code cell whose page calls are told the language; unchanged if it has none."""
    tree = ast.parse(source)
    before = ast.dump(tree)
    tree = _TellLanguage(lang).visit(tree)
    return source if ast.dump(tree) == before else ast.unparse(tree)


def translate_notebook(nb: dict[str, Any], tr: Translator) -> dict[str, Any]:
    """The notebook (its JSON, read) in the translator's language: markdown through the
    catalogue, page calls told the language, the first code cell setting the page's
    language (:data:`SPEAK`), outputs dropped, ``metadata.language`` set. German: the
    notebook as it is (a copy)."""
    out = copy.deepcopy(nb)
    if tr.is_source:
        out.setdefault("metadata", {})["language"] = tr.lang
        return out
    first = True
    for cell in out.get("cells", []):
        if cell.get("cell_type") == "markdown":
            cell["source"] = translate_markdown(cell_source(cell), tr)
        elif cell.get("cell_type") == "code":
            source = translate_code(cell_source(cell), tr.lang)
            if first and not tr.is_source:
                source = SPEAK.format(lang=tr.lang) + "\n" + source
                first = False
            cell["source"] = source
            cell["outputs"] = []
            cell["execution_count"] = None
    out.setdefault("metadata", {})["language"] = tr.lang
    return out


__all__ = ["Block", "PAGE_MODULES", "SPEAK", "cell_source", "markdown_blocks", "translate_code",
           "translate_markdown", "translate_notebook"]
