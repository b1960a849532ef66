"""The site's chapters and the lessons for classes, one table (``data/chapters.toml``) for
everything that lists them.

The navigation and the start page (``site/pages.py``), the scene chapters
(``content/scenes``: a page's ``scenes`` key and its ``short`` title), the app
(``site/app.py``) and the tests read :data:`PAGES` and :data:`LESSONS`; a new chapter or
lesson is its notebook plus one entry in the data file.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Page:
    """One chapter page of the site."""

    name: str
    """File name without ``.ipynb``, e.g. ``"02_Phase_1"``."""
    title: str
    """The page's heading (the notebook's first ``# `` line must be exactly this)."""
    short: str
    """Short label for navigation; also the scene chapter's title."""
    teaches: str
    """One sentence: what a visitor learns here."""
    chapter: str | None = None
    """Scene chapter key shown on this page, if any (``scenes`` in the data file)."""
    author: str = "site"
    """Who writes the notebook: ``site`` or ``lessons``."""

    @property
    def filename(self) -> str:
        return f"{self.name}.ipynb"


_DATA = tomllib.loads(resources.files("bohnteach.data").joinpath("chapters.toml").read_text("utf-8"))

PAGES: tuple[Page, ...] = tuple(
    Page(c["name"], c["title"], c["short"], c["teaches"], c.get("scenes"), c.get("author", "site"))
    for c in _DATA["chapter"]
)
"""Every page of the site, in reading order (the navigation follows it)."""

LESSONS: tuple[tuple[str, str], ...] = tuple((c["name"], c["title"]) for c in _DATA["lesson"])
"""The lessons for classes (``tutorials/``) in order: (notebook name, title)."""

SCENE_CHAPTERS: tuple[tuple[str, str], ...] = tuple((p.chapter, p.short) for p in PAGES if p.chapter)
"""(key, German title) of every scene chapter, in the order the site lists them."""

__all__ = ["LESSONS", "PAGES", "SCENE_CHAPTERS", "Page"]
