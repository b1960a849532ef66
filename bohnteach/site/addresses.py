"""Where the served site keeps its pages, and their addresses.

The served folder holds ``notebooks/`` (the chapters and the app) and ``tutorials/`` (the
lessons) side by side (:func:`bohnteach.site.serve.site_dir`). Both the server
(``serve``) and what it installs into Voilà (``publish``) name pages through this module.
The app's addresses (``/?kapitel=02_Phase_1``, ``/?lektion=01_Bohnentreppe``; none: the
start page; ``&lang=en``: the page in English, none or unknown: German, the source) are
written here once: the kernel's router (:mod:`bohnteach.site.app`) reads
them from here, the page's scripts from :func:`page_config`, which every page carries.
"""
from __future__ import annotations

from urllib.parse import parse_qs

from bohnteach.content.chapters import LESSONS, PAGES
from bohnteach.i18n import LANGUAGES, SOURCE

#: The folder of the chapters (and of the app) in the served folder.
PAGES_FOLDER = "notebooks"
#: The folder of the lessons in the served folder.
LESSONS_FOLDER = "tutorials"
START_PAGE = "00_Start.ipynb"
#: The address's key for a chapter (a page of :data:`PAGES_FOLDER`) and for a lesson
#: (:data:`LESSONS_FOLDER`): ``?kapitel=02_Phase_1``, ``?lektion=01_Bohnentreppe``.
CHAPTER_KEY = "kapitel"
LESSON_KEY = "lektion"
#: The app that shows every page in one kernel (``bohnteach.site.app``); the root renders it.
APP_PAGE = "app.ipynb"
#: The address's key for the reader's language: ``?kapitel=01_Material_und_Aufbau&lang=en``.
#: Absent or unknown: German (every address from before it existed still works).
LANG_KEY = "lang"


def address_language(query: str) -> str:
    """The language an address's query names (:data:`LANG_KEY`): a language of the site,
    else German."""
    values = parse_qs(query.lstrip("?"), keep_blank_values=True).get(LANG_KEY) or [""]
    lang = values[0].strip().lower()
    return lang if lang in LANGUAGES else SOURCE


def page_path(name: str) -> str:
    """URL path of a page: ``02_Phase_1`` → ``/voila/render/notebooks/02_Phase_1.ipynb``;
    a name with a folder (``tutorials/01_Bohnentreppe``) is taken as it is."""
    if not name.endswith(".ipynb"):
        name += ".ipynb"
    if "/" not in name:
        name = f"{PAGES_FOLDER}/{name}"
    return f"/voila/render/{name}"


def notebook_key(name: str) -> str:
    """A page's notebook relative to the served folder, as Voilà names its kernel pools:
    ``02_Phase_1`` → ``notebooks/02_Phase_1.ipynb``."""
    return page_path(name).removeprefix("/voila/render/")


def page_config() -> dict[str, object]:
    """The address scheme as the page's scripts get it (JSON in every page, the template's
    ``bohnteach-addresses``): each kind of page with its key and folder, the start page's
    and the app's names, the language's key, the languages (code → name in itself) and the
    source language."""
    return {"chapters": {"key": CHAPTER_KEY, "folder": PAGES_FOLDER},
            "lessons": {"key": LESSON_KEY, "folder": LESSONS_FOLDER},
            "start": START_PAGE.removesuffix(".ipynb"), "app": APP_PAGE.removesuffix(".ipynb"),
            "lang": {"key": LANG_KEY, "languages": dict(LANGUAGES), "source": SOURCE}}


def registered_notebooks() -> list[str]:
    """Every chapter's and every lesson's notebook relative to the served folder, in the
    order of the registry ``data/chapters.toml``: ``notebooks/00_Start.ipynb`` …
    ``tutorials/01_Bohnentreppe.ipynb`` …; the app's own notebook is not one of them."""
    return ([notebook_key(page.name) for page in PAGES]
            + [notebook_key(f"{LESSONS_FOLDER}/{name}") for name, _title in LESSONS])


__all__ = ["APP_PAGE", "CHAPTER_KEY", "LANG_KEY", "LESSONS_FOLDER", "LESSON_KEY", "PAGES_FOLDER", "START_PAGE",
           "address_language", "notebook_key", "page_config", "page_path", "registered_notebooks"]
