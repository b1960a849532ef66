"""Executing a notebook in a real kernel as Voilà does, for the tests that check pages end to end."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import nbformat


def execute_notebook(path: Path) -> nbformat.NotebookNode:
    """``path`` run by nbclient in a fresh ``python3`` kernel, from its own folder; the cells'
    outputs and the widget state are in the returned notebook."""
    return execute(nbformat.read(path, as_version=4), path.parent)


def execute(nb: nbformat.NotebookNode, folder: Path,
            env: Mapping[str, str] | None = None) -> nbformat.NotebookNode:
    """``nb`` (a notebook read or made in memory, e.g. a page in another language) run in a
    fresh ``python3`` kernel from ``folder``, with ``env`` added to the kernel's environment;
    returns ``nb`` with its outputs and widget state.

    The kernel channels poll as the Voilà server's do (``bohnteach.upstream.jupyter.poll_kernel_channels``):
    without it a reply missed while an ``Output`` widget sends comm messages stalls the run
    until the 300 s timeout and then passes (nbclient #312), which cost CI five minutes.
    The kernel draws charts as the site's do: the JSON form only (``figure.SITE_ENV``)."""
    import os

    from nbclient import NotebookClient

    from bohnteach.upstream.jupyter import poll_kernel_channels
    from bohnteach.widgets.figure import SITE_ENV

    poll_kernel_channels()
    NotebookClient(nb, timeout=300, iopub_timeout=30, startup_timeout=300, kernel_name="python3",
                   store_widget_state=True,
                   resources={"metadata": {"path": str(folder)}}).execute(
                       env={**os.environ, SITE_ENV: "1", **(env or {})})
    return nb
