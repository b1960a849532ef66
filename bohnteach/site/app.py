"""The whole site as one app: one Python session shows every chapter and every lesson.

The root address opens ``notebooks/app.ipynb``, whose cells are two calls::

    from bohnteach.site.app import App
    app = App()               # the frame, showing the page the address names (a preheated
    app                       # kernel: the start page, prepared before anyone asks)
    app.follow_address()      # a preheated kernel: the page the visitor's request names

A chapter is shown from its own notebook (``notebooks/`` or ``tutorials/``), so nothing is
written twice: its markdown cells as markdown, its code cells run in a namespace of their
own, each cell's result displayed as Jupyter would. Everything lands in one ``Output``
widget, the frame's content; leaving a chapter clears it and closes every widget the chapter
made (:meth:`App.show`), so a visitor who reads all chapters holds the widgets of one.

The reader's language is part of the address (``&lang=en``; none: German): the page is
made from its German notebook and the catalogue
(:func:`bohnteach.i18n.notebooks.translate_notebook`) and its cells run with the page's
language as :func:`bohnteach.i18n.current` (:func:`bohnteach.i18n.speak_page`, and
``speaking`` around the run), so every widget it makes keeps speaking it.

The browser's side is the ``bohnteach-app`` extension (``jupyter/labextensions``): it keeps
links to the site's pages in the tab (a click asks this kernel for the chapter and pushes
the address ``?kapitel=…`` / ``?lektion=…``, with the reader's ``lang``, onto the history),
follows Back and Forward, and sets the tab's title and the page's ``<html lang>``.
:class:`Router` is the widget both sides talk through.
"""
from __future__ import annotations

import ast
import json
import logging
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

import ipywidgets as widgets
from traitlets import Int, Unicode

from bohnteach.content.chapters import LESSONS
from bohnteach.i18n import SOURCE, Translator, speak_page, speaking, translator
from bohnteach.site.addresses import (CHAPTER_KEY, LANG_KEY, LESSON_KEY, LESSONS_FOLDER, PAGES_FOLDER,
                                      address_language)
from bohnteach.site.pages import PAGES, START, notebooks_dir, read_page, tutorials_dir
from bohnteach.site.publish import SITE_NAME, page_title, site_name
from bohnteach.widgets.failure import setup_server_log, show_failure
from bohnteach.widgets.teacher_view import connect

log = logging.getLogger("bohnteach.site.app")

#: The query key of a lesson's projector view for its class, ``?beamer=04_Rechnen_oder_simulieren``
#: (:func:`bohnteach.widgets.classroom.projector`: no notebook, the class alone); the keys of
#: chapters and lessons are the site's address scheme (:mod:`bohnteach.site.addresses`).
PROJECTOR_KEY = "beamer"
#: The app's own notebook (beside the chapters; the site's root address renders it).
APP_NOTEBOOK = "app.ipynb"
#: The labextension that draws nothing and routes links (``jupyter/labextensions``).
EXTENSION = "bohnteach-app"
EXTENSION_VERSION = "1.0.0"


@dataclass(frozen=True)
class Entry:
    """One page the app can show: a chapter of ``notebooks/`` or a lesson of ``tutorials/``."""

    key: str
    """The address's key: :data:`CHAPTER_KEY`, :data:`LESSON_KEY` or :data:`PROJECTOR_KEY`."""
    name: str
    """The notebook's name without ``.ipynb``."""

    @property
    def folder(self) -> str:
        return PAGES_FOLDER if self.key == CHAPTER_KEY else LESSONS_FOLDER

    @property
    def path(self) -> Path:
        root = notebooks_dir() if self.key == CHAPTER_KEY else tutorials_dir()
        return root / f"{self.name}.ipynb"

    @property
    def query(self) -> str:
        return urlencode({self.key: self.name})


def entries() -> list[Entry]:
    """Every chapter and every lesson, in the order of ``data/chapters.toml``."""
    return ([Entry(CHAPTER_KEY, page.name) for page in PAGES]
            + [Entry(LESSON_KEY, name) for name, _title in LESSONS])


def find_entry(query: str) -> Entry | None:
    """The page an address's query names (``kapitel=02_Phase_1&klasse=…``); the start
    page for a query that names none; ``None`` for a name the site does not have."""
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if params.get(PROJECTOR_KEY):
        name = params[PROJECTOR_KEY][0].strip()
        return Entry(PROJECTOR_KEY, name) if name in projector_lessons() else None
    for key in (CHAPTER_KEY, LESSON_KEY):
        names = params.get(key)
        if names:
            name = names[0].strip().removesuffix(".ipynb")
            known = {e.name: e for e in entries() if e.key == key}
            return known.get(name)
    return Entry(CHAPTER_KEY, START)


def projector_lessons() -> set[str]:
    """The lessons with class activities: those have a projector view."""
    from bohnteach.classroom.activities import ACTIVITIES

    return {a.lesson for a in ACTIVITIES.values()}


# ---- the browser's side --------------------------------------------------------------------
class Router(widgets.Widget):
    """The address bar's end in the kernel. The browser sets :attr:`route` (on a click on a
    site link, on Back and Forward); the app sets the rest once the page is shown."""

    _model_name = Unicode("RouterModel").tag(sync=True)
    _model_module = Unicode(EXTENSION).tag(sync=True)
    _model_module_version = Unicode(EXTENSION_VERSION).tag(sync=True)
    route = Unicode("", help="the address's query without '?', as the browser has it").tag(sync=True)
    base = Unicode("", help="the shown page's notebook below the site, e.g. "
                   "'notebooks/02_Phase_1.ipynb': relative links resolve against it").tag(sync=True)
    title = Unicode(SITE_NAME, help="the tab's title").tag(sync=True)
    shown = Int(0, help="counts the pages shown; the browser scrolls to the top on a change").tag(sync=True)
    lang = Unicode(SOURCE, help="the shown page's language (the page's <html lang>)").tag(sync=True)


# ---- running a chapter's notebook ------------------------------------------------------------
def notebook_cells(nb: dict[str, Any]) -> list[tuple[str, str]]:
    """A notebook's cells (its JSON, read) as (``"markdown"`` or ``"code"``, source)."""
    cells = []
    for cell in nb.get("cells", []):
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") in ("markdown", "code") and text.strip():
            cells.append((cell["cell_type"], text))
    return cells


def run_cell(source: str, namespace: dict[str, Any], name: str) -> Any:
    """Run a code cell as Jupyter would: its statements, then its last expression displayed
    (unless it ends with ``;`` or is ``None``) and returned. Magics (``%…``) are turned into
    Python by IPython first, where it runs."""
    from IPython import get_ipython
    from IPython.display import display

    shell = get_ipython()
    if shell is not None:
        source = shell.transform_cell(source)
    tree = ast.parse(source, filename=name)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = tree.body[:-1] if last is not None else tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), name, "exec"), namespace)  # noqa: S102 - the site's own notebooks
    if last is not None:
        value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)  # noqa: S307
        if value is not None and not source.rstrip().endswith(";"):
            display(value)
            return value
    return None


def show_notebook(nb: dict[str, Any], name: str) -> dict[str, Any]:
    """Display a notebook's cells into the current output: markdown as markdown, code run
    (in a fresh namespace; a failing cell shows the friendly box, the next cells still run).
    ``name``: the notebook's file name, for the server log.

    Returns the namespace, with each cell's displayed result in ``Out`` by cell number, as
    Jupyter keeps them: the page's objects live while it is shown (a lesson's teacher
    banner, held elsewhere only weakly, must still be there when teacher mode goes on)."""
    from IPython.display import display

    results: dict[int, Any] = {}
    namespace: dict[str, Any] = {"__name__": "__bohnteach_page__", "Out": results}
    for number, (kind, source) in enumerate(notebook_cells(nb), 1):
        if kind == "markdown":
            # a raw bundle: IPython's Markdown() first checks whether its text names a file,
            # a request to the page for each cell on the static site
            display({"text/markdown": source}, raw=True)
            continue
        try:
            value = run_cell(source, namespace, f"{name}, Zelle {number}")
        except Exception as error:  # noqa: BLE001 - shown as the friendly box, logged in full
            display(show_failure(None, error, f"{name}, Zelle {number}"))
            continue
        if value is not None:
            results[number] = value
    return namespace


def not_found_html(query: str, tr: Translator | None = None) -> str:
    """The page for an address that names no page of the site (like the server's 404 page),
    in the reader's language; its link to the start page keeps the language."""
    tr = tr or translator()
    heading = tr.gettext("Seite nicht gefunden")
    said = tr.gettext("Die Adresse {address} nennt kein Kapitel und keine Lektion dieser Seite "
                      "– vielleicht ein Tippfehler oder ein alter Link.")
    home = escape(tr.gettext("Zur Startseite „{site}“").format(site=site_name(tr)))
    there = tr.gettext("Dort stehen alle Kapitel und Lektionen.")
    href = "?" if tr.is_source else f"?{LANG_KEY}={tr.lang}"
    return (f'<div class="bt-site"><h1>{heading}</h1>'
            f"<p>{said.format(address=f'<code>?{escape(query)}</code>')}</p>"
            f'<p><a href="{href}">{home}</a>: {there}</p></div>')


# ---- the app -----------------------------------------------------------------------------------
class App:
    """The frame of the site: a :class:`Router` and one ``Output`` that shows one page at a
    time. Display it (the last expression of a cell) to put it on the page."""

    def __init__(self, query: str | None = None) -> None:
        if query is None:
            query = _known_query()
        self.router = Router(route=query)
        self.teacher = connect()  # the browser's teacher view, kept for every page shown
        self.content = widgets.Output(_dom_classes=("bt-app",))
        self.entry: Entry | None = None
        self._query: str | None = None
        self._page: dict[str, Any] = {}
        """The shown page's namespace (:func:`show_notebook`), dropped when it is left."""
        self._frame = {self.router.model_id, self.teacher.model_id, self.content.model_id,
                       self.content.layout.model_id}
        self.router.observe(self._on_route, names="route")
        self.show_query(query)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.content)

    # -- navigation --
    def follow_address(self) -> None:
        """Show the page the visitor's address names (under Voilà with a preheated kernel this
        waits for the visitor's request, so it is the notebook's last call)."""
        from bohnteach.widgets.questions import request_query

        query = request_query()
        if query != self.router.route:
            self.router.route = query  # shows it through _on_route

    def _on_route(self, change: dict[str, Any]) -> None:
        self.show_query(change["new"])

    def show_query(self, query: str) -> None:
        """Show the page ``query`` names, or the not-found box."""
        entry = find_entry(query)
        if entry is not None and entry == self.entry and query == self._query:
            return
        self._query = query
        self.show(entry, query)

    def show(self, entry: Entry | None, query: str = "") -> None:
        """Leave the page shown (its widgets closed) and show ``entry`` with the address's
        ``query``, in the language it names. Teacher mode stays as it is: it is the
        visitor's (the browser keeps it, :mod:`bohnteach.widgets.teacher_view`), not the
        address's."""
        from bohnteach.render.style import new_page
        from bohnteach.widgets.questions import use_address

        self.content.clear_output()
        self._close_page()
        self._page = {}
        new_page()
        use_address(query)
        self.entry = entry
        tr = speak_page(address_language(query))  # the page's cells and their widgets' callbacks
        # before the page's outputs: the browser resolves the relative links of the page as
        # they arrive against this notebook's folder (a lesson's links name tutorials/)
        self.router.base = (f"{entry.folder}/{entry.name}.ipynb"
                            if entry and entry.key != PROJECTOR_KEY else "")
        with self.content, speaking(tr):
            if entry is None:
                from IPython.display import display
                from bohnteach.widgets.figure import HTML

                display(HTML(not_found_html(query, tr)))
                title = tr.gettext("Seite nicht gefunden") + " – " + site_name(tr)
            elif entry.key == PROJECTOR_KEY:
                from IPython.display import display
                from bohnteach.widgets.classroom import projector, projector_title

                display(projector(entry.name, lang=tr))
                title = f"{projector_title(entry.name, tr)} – {site_name(tr)}"
            else:
                try:
                    nb = json.loads(read_page(entry.path))
                    if not tr.is_source:
                        from bohnteach.i18n.notebooks import translate_notebook

                        nb = translate_notebook(nb, tr)
                    title = page_title(nb, tr)
                    self._page = show_notebook(nb, entry.path.name)
                except Exception as error:  # noqa: BLE001 - the box, never a dead page
                    from IPython.display import display

                    title = site_name(tr)
                    display(show_failure(None, error, f"Seite {entry.name}"))
        self.router.lang = tr.lang
        self.router.title = title
        self.router.shown += 1

    def _close_page(self) -> None:
        """Close every widget the page shown made (its scenes, boards, charts, layouts) —
        also those that closing makes (an observer that hides a part on close)."""
        for _round in range(5):
            left = [w for key, w in _instances().items() if key not in self._frame]
            if not left:
                return
            for widget in left:
                try:
                    widget.close()
                except Exception:  # noqa: BLE001 - a widget that will not close must not stop the app
                    setup_server_log()
                    log.exception("Widget %s ließ sich nicht schließen", type(widget).__name__)

    def live_widgets(self) -> int:
        """How many widget models the kernel holds: the frame's and the shown page's."""
        return len(_instances())


def _known_query() -> str:
    """The address's query if the kernel knows it already; "" while Voilà preheats the
    kernel (the start page is then prepared before anyone asks, :meth:`App.follow_address`
    switches once the visitor's request has come)."""
    import os

    from bohnteach.widgets.questions import request_query

    return "" if os.environ.get("VOILA_PREHEAT", "False") != "False" else request_query()


def _instances() -> dict[str, Any]:
    """Every live widget model of this kernel, by model id (ipywidgets' own registry)."""
    from bohnteach.upstream.ipywidgets import live_widgets

    return live_widgets()


__all__ = ["APP_NOTEBOOK", "App", "CHAPTER_KEY", "Entry", "LESSON_KEY", "PROJECTOR_KEY", "Router", "entries",
           "find_entry", "notebook_cells", "run_cell", "show_notebook"]
