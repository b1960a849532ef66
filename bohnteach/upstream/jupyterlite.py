"""JupyterLite and Voici, which build the static site: Voici's exporter (titles and footer
as under Voilà), the page configuration Voici embeds in every page (edited by a pattern),
JupyterLite's service worker (which the build puts behind its own) and the Pyodide
kernel's worker, which the site's start script replaces (``pyodideUrl``)."""
from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from bohnteach.upstream import installed, problem, version_problems

#: The versions this adapter was checked against (pinned so in pyproject.toml's [static]).
CHECKED = {"voici-core": "0.10.0", "jupyterlite-core": "0.7.6",
           "jupyterlite-pyodide-kernel": "0.7.0"}
#: Only the checked version will do.
EXACT = {"jupyterlite-pyodide-kernel": "0.7.2 läuft unter voici-core 0.10.0 nicht "
                                       "(„Shared module @jupyterlab/pluginmanager doesn't exist“)"}
#: The page configuration Voici writes into every page.
PAGE_CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)'
                         r"(</script>)", re.S)
#: What the build relies on in JupyterLite's service worker: it listens to ``fetch`` and
#: answers the drive's API.
WORKER_MARKERS = ('addEventListener("fetch"', "/api/drive")
#: The Pyodide kernel's plug-in and the option that names the script its worker loads.
PYODIDE_KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_URL_OPTION = "pyodideUrl"


def _voici_build() -> Path:
    import voici_core

    return Path(voici_core.__file__).parent / "static" / "build"


def kernel_extension() -> Path:
    """The Pyodide kernel's labextension as jupyterlite-pyodide-kernel installs it."""
    return Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"


def check() -> list[str]:
    """What of JupyterLite and Voici this adapter touches and finds changed."""
    found = version_problems(CHECKED, EXACT)
    if found:
        return found
    from voici_core.exporter import VoiciExporter

    for name in ("from_notebook_node", "_init_resources"):
        if name not in VoiciExporter.__dict__:
            found.append(problem("voici-core", f"VoiciExporter.{name} fehlt"))
    worker = _voici_build() / "service-worker.js"
    text = worker.read_text("utf-8") if worker.is_file() else ""
    if not all(marker in text for marker in WORKER_MARKERS):
        found.append(problem("voici-core", f"{worker.name}: JupyterLites Service Worker geändert"))
    page = "".join(p.read_text("utf-8") for p in _voici_build().glob("voici.js"))
    if "jupyter-config-data" not in page:
        found.append(problem("voici-core", "voici.js liest kein jupyter-config-data"))
    scripts = "".join(p.read_text("utf-8", "replace") for p in kernel_extension().glob("static/*.js"))
    if not scripts:
        found.append(problem("jupyterlite-pyodide-kernel", f"{kernel_extension()} fehlt"))
    elif PYODIDE_URL_OPTION not in scripts or "loadPyodide" not in scripts:
        found.append(problem("jupyterlite-pyodide-kernel",
                             f"der Kernel lädt Pyodide nicht mehr über {PYODIDE_URL_OPTION}"))
    return found


def voici_exporter() -> tuple[type, str]:
    """Voici's exporter and its method that renders a notebook (for the page resources that
    :func:`bohnteach.upstream.voila.install_page_resources` adds)."""
    from voici_core.exporter import VoiciExporter

    return VoiciExporter, "from_notebook_node"


def edit_page_config(html: Path, edit: Callable[[dict], dict], after: str = "") -> bool:
    """Replace the page's embedded ``jupyter-config-data`` by ``edit(config)`` and put
    ``after`` right behind it; False (and the file unchanged) if the page has none."""
    text = html.read_text("utf-8")
    match = PAGE_CONFIG.search(text)
    if match is None:
        return False
    blob = json.dumps(edit(json.loads(match.group(2)))).replace("</", "<\\/")
    html.write_text(text[: match.start(2)] + blob + match.group(3) + after + text[match.end(3):],
                    "utf-8")
    return True


def worker_changed(text: str) -> bool:
    """Whether a built ``service-worker.js`` is not the JupyterLite worker the build knows."""
    return not all(marker in text for marker in WORKER_MARKERS)


def version(package: str) -> str | None:
    """The installed version of one of :data:`CHECKED` (the build's report names them)."""
    return installed(package)
