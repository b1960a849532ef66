"""The translation catalogues: extract the German texts, update every language's ``.po``.

German is the source; ``bohnteach/locale/<domain>.pot`` holds every German text of a
domain (``bohnteach/locale/domains.toml`` says which files feed which domain), and
``bohnteach/locale/<lang>/LC_MESSAGES/<domain>.po`` its translations. A tool for people
who write texts, run from the repository (Babel: the [test] extra)::

    python -m bohnteach.catalogues extract   # make i18n-extract: the .pot templates
    python -m bohnteach.catalogues update    # make i18n-update: extract, then merge into
                                             # every .po (a changed German text: "fuzzy")
    python -m bohnteach.catalogues documents # the Markdown documents in every language
                                             # (update writes them too)
    python -m bohnteach.catalogues check     # the committed templates and documents are current

The runtime never imports this module (:mod:`bohnteach.i18n` reads the ``.po`` files with
the standard library).
"""
from __future__ import annotations

import contextlib
import datetime as dt
import glob
import io
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "bohnteach" / "locale"
KEYWORDS = {
    "_": None, "N_": None, "gettext": None, "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    "RuleViolation": (2,),  # the detail template of a refusal (RuleViolation(id, template, **params))
    "Phrase": (1,),  # a piece of a refusal with parameters of its own (Phrase(template, **params))
    "_plural": (2, 3),  # render.table._plural(n, "Karte", "Karten")
}
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
"""The templates' header date: a fixed one, so that re-extraction gives the committed file."""

Message = tuple[str | None, str | tuple[str, str], str, str]
"""(context, German text (or singular and plural), file relative to the repository,
translator comment)."""


def prose(text: str) -> str:
    """A text as the catalogue keeps it: wrapped lines joined, paragraphs kept."""
    from bohnteach.i18n import prose as _prose

    return _prose(text)


def _rel(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


def _files(patterns: list[str]) -> list[Path]:
    return sorted({Path(p) for pattern in patterns for p in glob.glob(str(ROOT / pattern))})


# ---- the sources of messages -----------------------------------------------------------
def _toml(path: Path) -> dict:
    return tomllib.loads(path.read_text("utf-8"))


def rules_messages() -> Iterator[Message]:
    """Rules (title, explanation, Auslegung, the source's section), rulebooks, varieties, rule sets."""
    data = ROOT / "bohnteach" / "data"
    path = data / "rules.toml"
    for rule_id, entry in _toml(path).items():
        yield None, entry["title"], _rel(path), f"Regel {rule_id}: Titel"
        yield None, prose(entry["explanation"]), _rel(path), f"Regel {rule_id}: Erklärung"
        if entry.get("auslegung", "").strip():
            yield None, prose(entry["auslegung"]), _rel(path), f"Regel {rule_id}: Auslegung"
        section = entry["source"].partition(":")[2].strip()
        if section:
            yield "section", section, _rel(path), "Abschnitt eines deutschen Regelhefts (zitiert)"
    path = data / "sources.toml"
    for entry in _toml(path).values():
        yield "source", entry["title"], _rel(path), "Titel eines (deutschen) Regelhefts"
    path = data / "varieties.toml"
    for v in _toml(path)["variety"]:
        yield "variety", v["de"], _rel(path), f"Sorte {v['key']} (Glossar: bohnteach/data/glossary.toml)"
        yield "variety-plural", v["de_plural"], _rel(path), f"Sorte {v['key']}, Mehrzahl"
    for path in sorted((data / "rulesets").glob("*.toml")):
        ruleset = _toml(path)
        yield None, ruleset["title"], _rel(path), "Titel eines Regelwerks"
        if ruleset.get("meter_assumption", "").strip():
            yield None, ruleset["meter_assumption"].strip(), _rel(path), "Angenommene Bohnometer eines Regelwerks"


def scene_messages(path: Path) -> Iterator[Message]:
    """A scene file's prose: title, introduction, every step's action sentence and narration,
    the sections of the rulebooks it cites (the scene's and its steps')."""
    from bohnteach.content.scenes.loader import parse_scene

    scene = parse_scene(path.read_text("utf-8"), str(path))
    where = _rel(path)
    yield None, scene.title, where, f"Szene {scene.id}: Titel"
    if scene.intro:
        yield None, prose(scene.intro), where, f"Szene {scene.id}: Einleitung"
    for step in scene.steps:
        if step.text:
            yield None, step.text, where, f"Szene {scene.id}, Schritt {step.index}: der Zug"
        if step.narration:
            yield None, prose(step.narration), where, f"Szene {scene.id}, Schritt {step.index}: Erklärung"
    for source in dict.fromkeys([*scene.sources, *(step.source for step in scene.steps)]):
        section = source.partition("„")[2].rstrip("“").strip()
        if section:
            yield "section", section, where, "Abschnitt eines deutschen Regelhefts (zitiert)"


def chapter_messages() -> Iterator[Message]:
    path = ROOT / "bohnteach" / "data" / "chapters.toml"
    data = _toml(path)
    for c in data["chapter"]:
        yield None, c["title"], _rel(path), f"Kapitel {c['name']}: Titel"
        yield None, c["short"], _rel(path), f"Kapitel {c['name']}: kurzer Titel (Navigation)"
        yield None, c["teaches"], _rel(path), f"Kapitel {c['name']}: was man lernt"
    for c in data["lesson"]:
        yield None, c["title"], _rel(path), f"Unterrichtsstunde {c['name']}: Titel"


def notebook_messages(path: Path) -> Iterator[Message]:
    """Every prose block of a notebook's markdown cells."""
    from bohnteach.i18n.notebooks import cell_source, markdown_blocks

    nb = json.loads(path.read_text("utf-8"))
    for number, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") == "markdown":
            for block in markdown_blocks(cell_source(cell)):
                if block.translatable:
                    yield None, block.text, _rel(path), f"Zelle {number}"


def teacher_notes_messages() -> Iterator[Message]:
    """The lessons' teacher notes (``data/teacher_notes.toml``): goal, each part of the plan
    (its name and what happens), each expected misconception."""
    path = ROOT / "bohnteach" / "data" / "teacher_notes.toml"
    for entry in _toml(path)["lektion"]:
        name = entry["name"]
        yield None, prose(entry["ziel"]), _rel(path), f"Stunde {name}: Ziel"
        for number, (_minutes, part, what) in enumerate(entry["plan"], 1):
            yield None, prose(part), _rel(path), f"Stunde {name}, Ablauf {number}: Abschnitt"
            yield None, prose(what), _rel(path), f"Stunde {name}, Ablauf {number}: was geschieht"
        for number, text in enumerate(entry["fehlvorstellungen"], 1):
            yield None, prose(text), _rel(path), f"Stunde {name}: Fehlvorstellung {number}"


def document_messages(path: Path) -> Iterator[Message]:
    """Every prose block of a Markdown document (split as the notebooks' markdown cells)."""
    from bohnteach.i18n.notebooks import markdown_blocks

    for block in markdown_blocks(path.read_text("utf-8")):
        if block.translatable:
            yield None, block.text, _rel(path), f"Zeile {block.line}"


def document_path(path: Path, lang: str) -> Path:
    """Where a document's translation is written: ``README.md`` → ``README.en.md``."""
    return path.with_name(f"{path.stem}.{lang}{path.suffix}")


def translated_document(path: Path, lang: str) -> str:
    """A Markdown document in ``lang``, made from the German one and the catalogue, block by
    block (untranslated blocks stay German until the catalogue has them)."""
    from bohnteach.i18n import translator
    from bohnteach.i18n.notebooks import translate_markdown

    note = (f"<!-- Made from {_rel(path)} and the catalogues (bohnteach/locale/{lang}); "
            "do not edit: `make i18n-update` writes it again. -->")
    return note + "\n\n" + translate_markdown(path.read_text("utf-8"), translator(lang)).rstrip() + "\n"


def documents() -> list[Path]:
    """The Markdown documents of every domain (``documents`` in ``domains.toml``)."""
    return [p for config in domains().values() for p in _files(config.get("documents", []))]


def write_documents() -> list[Path]:
    """Write every document's translation into every language."""
    written = []
    for path in documents():
        for lang in languages():
            target = document_path(path, lang)
            target.write_text(translated_document(path, lang), "utf-8")
            written.append(target)
    return written


def stale_documents() -> list[str]:
    """The translated documents that differ from what the catalogues make now."""
    return [_rel(document_path(p, lang)) for p in documents() for lang in languages()
            if not document_path(p, lang).is_file()
            or document_path(p, lang).read_text("utf-8") != translated_document(p, lang)]


UNMARKED: dict[str, int] = {}
"""File -> how many f-strings Babel skipped there (refusal details not yet written as a
template with parameters: they stay German in every language). ``extract`` reports them."""


def python_messages(path: Path) -> Iterator[Message]:
    """Texts marked in Python (:data:`KEYWORDS`), by Babel's extractor."""
    from babel.messages.extract import extract_from_file

    skipped = io.StringIO()
    with contextlib.redirect_stderr(skipped):
        found = extract_from_file("python", str(path), keywords=KEYWORDS, comment_tags=("i18n:",))
    UNMARKED[_rel(path)] = skipped.getvalue().count("Skipping f-string")
    for _line, text, comments, context in found:
        yield context, text, _rel(path), " ".join(comments)


def domain_messages(domain: str, config: dict) -> Iterator[Message]:
    if config.get("rules"):
        yield from rules_messages()
    if config.get("chapters"):
        yield from chapter_messages()
    if config.get("teacher_notes"):
        yield from teacher_notes_messages()
    for path in _files(config.get("documents", [])):
        yield from document_messages(path)
    for path in _files(config.get("scenes", [])):
        yield from scene_messages(path)
    for path in _files(config.get("notebooks", [])):
        yield from notebook_messages(path)
    for path in _files(config.get("python", [])):
        yield from python_messages(path)


def domains() -> dict[str, dict]:
    return _toml(LOCALE / "domains.toml")


# ---- templates and catalogues -----------------------------------------------------------
def template(domain: str):
    """The domain's template (a Babel catalogue of every German text)."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(project="bohnteach", version="", copyright_holder="bohnteach",
                      msgid_bugs_address="https://github.com/bohnteach/bohnteach/issues",
                      creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False)
    for context, text, where, comment in domain_messages(domain, domains()[domain]):
        if not (text[0] if isinstance(text, tuple) else text).strip():
            continue
        known = catalog.get(text[0] if isinstance(text, tuple) else text, context=context)
        if known is not None:
            if (where, None) not in known.locations:
                known.locations.append((where, None))
            continue
        catalog.add(text, locations=[(where, None)], context=context,
                    auto_comments=[comment] if comment else [])
    return catalog


def render_po(catalog, *, template_file: bool) -> str:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, width=0, include_lineno=False, omit_header=False)
    return buf.getvalue().decode("utf-8")


def pot_path(domain: str) -> Path:
    return LOCALE / f"{domain}.pot"


def po_path(lang: str, domain: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())


def extract() -> list[Path]:
    """Write every domain's template; returns the files written."""
    written = []
    for domain in domains():
        path = pot_path(domain)
        path.write_text(render_po(template(domain), template_file=True), "utf-8")
        written.append(path)
    return written


def merge(catalog, tmpl) -> None:
    """Merge a template into a language's catalogue (Babel's ``update``, msgmerge's
    rules): a new text is added untranslated, a changed one keeps its old translation
    marked fuzzy (someone must review it), a removed one becomes obsolete (``#~``)."""
    catalog.update(tmpl, update_creation_date=False)
    catalog.fuzzy = False


def update() -> list[Path]:
    """Extract, then merge every template into every language's catalogue (:func:`merge`)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    extract()
    written = []
    for lang in languages():
        for domain in domains():
            tmpl = template(domain)
            path = po_path(lang, domain)
            if path.is_file():
                with path.open("rb") as f:
                    catalog = read_po(f, locale=lang)
            else:
                catalog = Catalog(locale=lang, project="bohnteach", fuzzy=False,
                                  creation_date=FIXED_DATE, revision_date=FIXED_DATE)
            merge(catalog, tmpl)
            path.write_text(render_po(catalog, template_file=False), "utf-8")
            written.append(path)
    _catalogue_cache_clear()
    return written + write_documents()


def _catalogue_cache_clear() -> None:
    """The runtime's catalogues as just written (a document is translated with them next)."""
    from bohnteach.i18n import _catalogue

    _catalogue.cache_clear()


def stale_templates() -> list[str]:
    """The domains whose committed template differs from a fresh extraction."""
    return [d for d in domains()
            if not pot_path(d).is_file()
            or pot_path(d).read_text("utf-8") != render_po(template(d), template_file=True)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    if command == "extract":
        for path in extract():
            print(path.relative_to(ROOT))
        for config in domains().values():
            for path in _files(config.get("pending", [])):
                list(python_messages(path))  # counts its f-strings (UNMARKED)
        left = {f: n for f, n in UNMARKED.items() if n}
        if left:
            print("Noch als f-String (bleibt deutsch): "
                  + ", ".join(f"{f} ({n})" for f, n in sorted(left.items())))
    elif command == "update":
        for path in update():
            print(path.relative_to(ROOT))
    elif command == "documents":
        for path in write_documents():
            print(path.relative_to(ROOT))
    elif command == "check":
        stale = stale_templates() + stale_documents()
        if stale:
            print("Veraltet (make i18n-extract): " + ", ".join(stale))
            return 1
        print("Die Vorlagen sind aktuell.")
    else:
        print("Aufruf: python -m bohnteach.catalogues extract | update | documents | check")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
