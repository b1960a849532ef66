"""Learners read rulebook titles, never seed file names.

Seed file names (``000_2752a7130280637f.txt``) stay in the data for traceability; every
refusal, chip, widget and page shows the rulebook's title and section instead
(``data/sources.toml``). These tests render everything a visitor can see and look for
the file-name pattern.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from bohnteach.content.scenes import list_scenes  # noqa: E402
from bohnteach.content.tryit_cases import CASES  # noqa: E402
from bohnteach.game.errors import (  # noqa: E402
    SEED_FILES, RuleViolation, readable_source, rule_catalogue, source_title,
)
from bohnteach.render.table import render_refusal, source_chip  # noqa: E402
from bohnteach.editions.ladybohn.teaching import page as chapter  # noqa: E402
from bohnteach.site import pages  # noqa: E402
from bohnteach.widgets.scene_player import ScenePlayer  # noqa: E402
from bohnteach.widgets.tryit import TryIt  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def _texts(widget: Any) -> Iterator[str]:
    """Every string a widget tree sends to the browser (values, descriptions, options)."""
    for attr in ("value", "description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            yield value
    for option in getattr(widget, "options", ()) or ():
        yield str(option)
    for child in getattr(widget, "children", ()) or ():
        yield from _texts(child)


def _shown(obj: Any) -> str:
    data = getattr(obj, "data", None)
    return data if isinstance(data, str) else "\n".join(_texts(obj))


def test_every_seed_has_a_readable_title():
    for letter, name in SEED_FILES.items():
        title = source_title(name)
        assert title and not SEED_NAME.search(title), letter
    text = f"{SEED_FILES['A']}, „Phase 2: Karten aufdecken und handeln“"
    assert readable_source(text) == "Amigo-Spielregel, „Phase 2: Karten aufdecken und handeln“"
    assert "Online-Regeln" in source_chip(f"{SEED_FILES['G']}, „Dritte Bohnenfelder“")


@pytest.mark.parametrize("rule_id", sorted(rule_catalogue()))
def test_refusals_name_the_rulebook(rule_id: str):
    html = render_refusal(RuleViolation(rule_id, "So nicht."))
    assert not SEED_NAME.search(html), html
    rule = rule_catalogue()[rule_id]
    assert rule.source.split(",")[0] in html and rule.title in html
    assert SEED_NAME.search(rule.seed), "the data keeps the seed file for traceability"


@pytest.mark.parametrize("scene", list_scenes(), ids=lambda s: s.id)
def test_scene_players_show_no_file_names(scene):
    player = ScenePlayer(scene)
    for i in range(player.n + 1):
        player.go(i)
        text = "\n".join(_texts(player))
        assert not SEED_NAME.search(text), (scene.id, i, SEED_NAME.search(text))


def test_exercises_show_no_file_names():
    for case in CASES:
        text = "\n".join(_texts(TryIt(case)))
        assert not SEED_NAME.search(text), case.id


@pytest.mark.parametrize("build", [
    lambda: pages.interpretations(),
    lambda: pages.rules_table(*sorted(rule_catalogue())),
    lambda: pages.comparison_table(),
    lambda: pages.variety_table(),
    lambda: chapter.show("karten"),
    lambda: chapter.show("auslegungen"),
    lambda: pages.chapter_overview(),
], ids=["auslegungen", "rules_table", "comparison", "varieties", "lady-karten", "lady-ausl", "overview"])
def test_site_builders_show_no_file_names(build):
    html = _shown(build())
    assert html and "bt-box bt-error" not in html
    assert not SEED_NAME.search(html), SEED_NAME.search(html)


@pytest.mark.parametrize("path", sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("tutorials/*.ipynb")]),
                         ids=lambda p: p.stem)
def test_page_prose_names_rulebooks_not_files(path: Path):
    cells = json.loads(path.read_text("utf-8"))["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert not SEED_NAME.search(prose), SEED_NAME.search(prose)
