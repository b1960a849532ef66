"""Every chapter and lesson in English (issue 56): made from the German notebook and the
catalogue, run in a kernel in both views – the learner's and the teacher's – and scanned:
no cell fails (what ``nbval --nbval-lax`` checks of the German pages), no failure box, no
teacher material in the learner's view, and no German beyond names and cited sections
(``tests/german_scan.py``).

A page's German can come from any domain it shows (docs/translating.md): its prose
(``pages``, complete here), the scenes, the lessons' widgets and charts, the Mach-du cases
and the trial game, the editions, the class room, the page machinery. Pages whose German
still comes from a domain not yet translated are listed in :data:`EXPECTED_GERMAN` with the
domain that is missing – an expected failure, not a pass: the list shrinks as the domains
are translated (an unexpected pass is reported as XPASS; then take the page off the list).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bohnteach import catalogues
from bohnteach.i18n import translator
from bohnteach.i18n.notebooks import cell_source, markdown_blocks, translate_notebook
from german_scan import german_words, markdown_text, page_texts, widget_states

ROOT = Path(__file__).resolve().parents[1]
PAGE_FILES = tuple(sorted(p for pattern in catalogues.domains()["pages"]["notebooks"]
                          for p in ROOT.glob(pattern)))
"""Every chapter and lesson whose prose the ``pages`` catalogue holds (bohnteach/locale/domains.toml)."""

EXPECTED_GERMAN: dict[str, str] = {}
"""Page -> which domain's German it still shows (an expected failure of the scan below)."""

VIEWS = {
    # the address a reader opens (?lang=en), as Voilà hands it to the page's kernel
    "learner": {"QUERY_STRING": "lang=en", "BOHNTEACH_LEHRKRAFT": "", "BOHNTEACH_LEHRKRAFT_CODE": ""},
    # teacher mode from the kernel's environment (bohnteach.widgets.questions.teacher_mode)
    "teacher": {"QUERY_STRING": "lang=en", "BOHNTEACH_LEHRKRAFT": "1", "BOHNTEACH_LEHRKRAFT_CODE": ""},
}


def _german(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def _name(path: Path) -> str:
    return path.stem


def test_every_chapter_and_lesson_is_a_page_here():
    names = {_name(p) for p in PAGE_FILES}
    assert len(PAGE_FILES) == len(names) == 21
    assert {"00_Start", "01_Material_und_Aufbau", "15_Indiana_Bohnes", "01_Bohnentreppe",
            "05_Handeln_lohnt_sich"} <= names
    assert set(EXPECTED_GERMAN) <= names, "the expected failures name pages that exist"


@pytest.mark.parametrize("path", PAGE_FILES, ids=_name)
def test_the_english_page_is_made_from_the_german_one_block_by_block(path):
    """Every prose block has its English (a strict translator fails on any gap), every
    page call is told the language, and the page keeps its cells and blocks."""
    nb = _german(path)
    english = translate_notebook(nb, translator("en", strict=True))
    assert english["metadata"]["language"] == "en"
    assert len(english["cells"]) == len(nb["cells"])
    for de, en in zip(nb["cells"], english["cells"]):
        assert de["cell_type"] == en["cell_type"]
        if de["cell_type"] == "markdown":
            blocks_de, blocks_en = markdown_blocks(cell_source(de)), markdown_blocks(cell_source(en))
            assert len(blocks_en) == len(blocks_de)
            translated = [(d, e) for d, e in zip(blocks_de, blocks_en) if d.translatable]
            assert all(d.text.startswith("#") == e.text.startswith("#") for d, e in translated), \
                "a heading stays a heading"
        else:
            assert "lang='en'" in en["source"] or "pages." not in cell_source(de)
    first = cell_source(english["cells"][0]).split("\n")[0]
    assert first.startswith("# ") and first != cell_source(nb["cells"][0]).split("\n")[0]


@pytest.mark.parametrize("path", PAGE_FILES, ids=_name)
def test_the_english_prose_has_no_german(path):
    """The page's own words (its markdown) are English on every page, whatever its
    widgets still show: quoted rulebook sections and names aside."""
    english = translate_notebook(_german(path), translator("en", strict=True))
    prose = [markdown_text(cell_source(c)) for c in english["cells"] if c["cell_type"] == "markdown"]
    assert sorted({w for text in prose for w in german_words(text)}) == []


def _cases():
    for path in PAGE_FILES:
        for view in VIEWS:
            reason = EXPECTED_GERMAN.get(_name(path))
            marks = [pytest.mark.xfail(reason=f"German still from: {reason}", strict=False)] if reason else []
            yield pytest.param(path, view, marks=marks, id=f"{_name(path)}-{view}")


def _html_values(nb) -> list[str]:
    """Every HTML a page shows: its cells' outputs and its widgets' values and outputs."""
    found = []

    def outputs(items):
        for out in items:
            html = out.get("data", {}).get("text/html", "")
            found.append("".join(html) if isinstance(html, list) else html)

    for cell in nb.cells:
        outputs(cell.get("outputs", []))
    for model in widget_states(nb).values():
        state = model.get("state", {})
        if isinstance(state.get("value"), str):
            found.append(state["value"])
        outputs(state.get("outputs", []) or [])
    return found


def _errors(nb) -> list[str]:
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    for model in widget_states(nb).values():
        errors += [f"{o.get('ename')}: {o.get('evalue')}" for o in model.get("state", {}).get("outputs", []) or []
                   if o.get("output_type") == "error"]
    return errors


@pytest.mark.parametrize(("path", "view"), list(_cases()))
def test_the_english_page_runs_and_shows_no_german(path, view):
    """The English page, as the site makes it, runs in a fresh kernel from its folder:
    no cell fails, no failure box, teacher material only in the teacher's view – and its
    prose, outputs, charts and widgets speak English."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    from kernel_run import execute

    german = _german(path)
    english = execute(nbformat.from_dict(translate_notebook(german, translator("en", strict=True))),
                      path.parent, VIEWS[view])
    assert _errors(english) == []
    html = _html_values(english)
    failures = [h[-600:] for h in html if "bt-box bt-error" in h]
    assert failures == []
    teacher_boxes = [h for h in html if "bt-q-teacher" in h or "bt-teacher-notes" in h]
    if view == "learner":
        assert teacher_boxes == [], "the learner's view shows no teacher notes or solutions"
    elif path.parent.name == "tutorials":
        assert teacher_boxes, "the teacher's view of a lesson shows its notes"
    texts = page_texts(english)
    if "pages.chapter_scenes(" in json.dumps(german):
        assert any("Scene 1 of" in t for t in texts), "the chapter's scenes were drawn"
    found = sorted({w for text in texts for w in german_words(text)})
    assert found == []
