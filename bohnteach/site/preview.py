"""Previews of the static site's pages: each page run once at build time, its outputs as HTML.

A static page (Voici) runs its Python in the visitor's browser, which takes 10–15 s to
start. Meanwhile the page shows what the same page shows under Voilà, drawn from a run at
build time: every code cell's outputs as HTML (:mod:`bohnteach.widgets.snapshot`), put
into the page by :func:`insert_previews` and replaced cell by cell by the live outputs
(the template's preview script). The previews cannot be clicked (``inert``).

Each page runs in a Python process of its own, in its folder, as under Voilà, but in an
IPython shell without a kernel: widgets keep their state without a frontend, and no
message can go missing (a kernel run through nbclient hung for its whole timeout now and
then on a cell with widgets, jupyter/nbclient#312).

    previews = page_previews(Path("notebooks/02_Phase_1.ipynb"))   # {cell number: html}
    insert_previews(Path("…/02_Phase_1.html"), previews)

The build's pages are German. For another language the page is run translated
(:func:`bohnteach.i18n.notebooks.translate_notebook`, as the app shows it) and its preview,
prose and outputs cell by cell, goes into ``02_Phase_1.en.json`` beside the page
(:func:`write_language_preview`); the app's page fetches it for an address in that language.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from nbconvert.filters import markdown2html

from bohnteach.site.serve import voila_env

#: seconds a page may take to run at build time (the slowest takes a few on a busy machine)
PAGE_TIMEOUT = 300


class PreviewError(RuntimeError):
    """A page failed when run at build time (its error, as the page would show it)."""


def page_previews(notebook: Path, lang: str | None = None) -> dict[int, str]:
    """Run ``notebook`` (as Voilà would, in its folder; in ``lang`` when given, as the app
    shows it in that language) and return the HTML of each code cell's outputs, keyed by the
    cell's number on the page (1-based, all cells counted: the page's ``cell-index``). Cells
    without outputs are left out."""
    with tempfile.TemporaryDirectory(prefix="bohnteach-preview-") as tmp:
        out = Path(tmp) / "previews.json"
        done = subprocess.run(
            [sys.executable, "-m", "bohnteach.site.preview", str(notebook.resolve()), str(out),
             *([lang] if lang else [])],
            cwd=notebook.parent, env=voila_env(), capture_output=True, text=True,
            timeout=PAGE_TIMEOUT)
        if done.returncode != 0:
            raise PreviewError(f"{notebook.name}: {done.stderr.strip()[-2000:]}")
        return {int(n): html for n, html in json.loads(out.read_text("utf-8")).items() if html}


def _display_data(data: dict[str, Any]) -> dict[str, Any]:
    """An nbformat output of ``data``; markdown gets its HTML here, as the browser would
    render it (the app shows a chapter's prose as ``Markdown`` in an ``Output`` widget)."""
    if "text/markdown" in data and "text/html" not in data:
        data = {**data, "text/html": _markdown_html(data["text/markdown"])}
    return {"output_type": "display_data", "data": data, "metadata": {}}


def _markdown_html(source: str) -> str:
    """Markdown as JupyterLab's markdown renderer wraps it (its classes style the page)."""
    return ('<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput" '
            f'data-mime-type="text/markdown">{markdown2html(source)}</div>')


def _cells(notebook: Path, lang: str | None) -> list[Any]:
    """The notebook's cells, in ``lang`` when given (prose and page calls translated)."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    if lang:
        from bohnteach.i18n import translator
        from bohnteach.i18n.notebooks import translate_notebook

        nb = nbformat.from_dict(translate_notebook(nb, translator(lang)))
    return list(nb.cells)


def language_preview(notebook: Path, lang: str) -> list[str]:
    """The page in ``lang`` as the app's preview shows it: one HTML part per cell that shows
    something, in order (a markdown cell's prose, a code cell's outputs)."""
    outputs = page_previews(notebook, lang)
    parts = []
    for index, cell in enumerate(_cells(notebook, lang)):
        if cell.cell_type == "markdown" and cell.source.strip():
            parts.append(_markdown_html(cell.source))
        elif cell.cell_type == "code" and outputs.get(index + 1):
            parts.append(outputs[index + 1])
    return parts


def write_language_preview(notebook: Path, html: Path, lang: str) -> Path:
    """``<page>.<lang>.json`` beside the built page ``html``: its preview in ``lang``."""
    target = html.with_name(f"{html.stem}.{lang}.json")
    target.write_text(json.dumps({"lang": lang, "parts": language_preview(notebook, lang)},
                                 ensure_ascii=False), "utf-8")
    return target


def _run_page(notebook: Path, lang: str | None = None) -> dict[str, str]:
    """The previews of ``notebook``, run in this process (the child of :func:`page_previews`)."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from bohnteach.widgets.snapshot import outputs_html

    from bohnteach.upstream.ipywidgets import capture_output_widgets

    capture_output_widgets(_display_data)
    shell = InteractiveShell.instance()
    previews: dict[str, str] = {}
    for index, cell in enumerate(_cells(notebook, lang)):
        if cell.cell_type != "code":
            continue
        with capture_output() as captured:
            result = shell.run_cell(cell.source, store_history=False)
        if not result.success:
            raise PreviewError(f"Zelle {index + 1}: {result.error_in_exec or result.error_before_exec!r}")
        # what the cell displayed, then its result (the shell's own echo of the result on
        # stdout is left out, as is any print: no page prints)
        outputs = [_display_data(o.data) for o in captured.outputs]
        if result.result is not None:
            data, _metadata = shell.display_formatter.format(result.result)
            if data:
                outputs.append(_display_data(data))
        previews[str(index + 1)] = outputs_html(outputs)
    return previews


_CELL = re.compile(r'<div cell-index="(\d+)">')


def insert_previews(html: Path, previews: dict[int, str]) -> int:
    """Put each preview at the start of its cell in the built page and mark the page as
    previewing (``body.bt-previewing``); returns how many previews the page holds."""
    text = html.read_text("utf-8")

    def with_preview(match: re.Match[str]) -> str:
        preview = previews.get(int(match.group(1)))
        if not preview:
            return match.group(0)
        return f'{match.group(0)}<div class="bt-preview" inert>{preview}</div>'

    text = _CELL.sub(with_preview, text)
    if any(previews.values()):  # shown from the first paint on, not only after a script ran
        text = text.replace('<body class="', '<body class="bt-previewing ', 1)
    html.write_text(text, "utf-8")
    return text.count('<div class="bt-preview" inert>')


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(_run_page(Path(sys.argv[1]), *sys.argv[3:4])), "utf-8")
