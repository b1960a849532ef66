"""Python in the browser from a memory snapshot, made at build time (issue 30).

A static page's kernel normally starts Pyodide, unpacks the wheels and imports IPython,
the kernel, ipywidgets, plotly and the site's modules: 6–10 s of CPU on every visit. The
static build (:mod:`bohnteach.site.static`) instead runs those steps once, in Node, with
the build's own Pyodide, and keeps the interpreter's memory as a file; the browser
restores it and hands it to the kernel (about 1 s).

**Private API, pinned.** Pyodide writes and restores memory snapshots only through a
private API: ``loadPyodide({_makeSnapshot: true})`` + ``pyodide.makeMemorySnapshot({serializer})``
at build time, ``loadPyodide({_loadSnapshot, _snapshotDeserializer})`` in the browser
(``_loadSnapshot`` may be a promise: Pyodide awaits it after loading its own script)
(pyodide/pyodide#4652, #4720; no public documentation). Everything that touches it is in
this module, checked with Pyodide :data:`bohnteach.upstream.pyodide.CHECKED_SERIES` (0.29.x: 314.x fails to restore a
snapshot larger than its default heap, pyodide#6254). The build refuses another Pyodide
(:func:`check_version`); after an upgrade, re-check as README's "Pins and lock" says:
``make static`` builds, and ``tests/test_static_site.py -k "snapshot or reader"`` shows the start from
the snapshot and each fallback.

What the snapshot holds and what the browser puts back (:data:`START_JS`):

* made after the kernel's own start steps (``import piplite.piplite``, ``import
  pyodide_kernel``), with every module a page can import (:func:`bohnteach.site.reach.reached_modules`
  of every page: IPython, ipywidgets, plotly's, the site's) imported, the site's pure
  caches filled and each kind of chart drawn once (:data:`WARM`), then frozen for the
  garbage collector (``gc.freeze``: a page's collections no longer walk the imported
  modules' objects);
* Python holds a few of Pyodide's JS functions and its API object; they are written as
  their names and, on restore, point at the new instance's (``deserialize``);
* ``pyodide.loadedPackages`` is emptied before the snapshot (a filled one stops it:
  "Unexpected hiwire entry", as pyodide#5195) and filled again after the restore;
* not in the memory, put back after the restore: the files of site-packages, as the
  normal start unpacked them in Node (``NAME.files``: lazily imported modules, data files,
  metadata, but not the wheels' front-end files, :data:`LEAVE_OUT`; unpacking the wheels
  again took 2 s, writing the bundle a fraction). The bytecode of a module the snapshot
  holds imported is an empty file: Python never reads it again, but a package's listing
  (``pkgutil.iter_modules``, as :mod:`bohnteach.lessons.stored` lists the lessons) still
  finds the module (10 of the 36 MB; 614 files);
  ``os.environ`` from the page (``QUERY_STRING`` for
  ``?lehrkraft=1``; the ``env`` option is ignored on restore) and a fresh random state
  (``random.seed()``: else every visit would deal the same games);
* the site's folders in JupyterLite's drive (``manifest.folders``): put in the drive's node
  cache when the kernel mounts it (``DriveFS.createNode``, what the drive's own lookup
  does), so that the kernel's ``os.chdir`` into the page's folder does not wait for the
  page to answer a lookup (0.04–1.2 s of a start).

**Begun early**: the kernel's worker is not left to JupyterLite, which creates it only once
its own scripts have loaded (1–2 s into a first visit). A script right after the page's
settings (:data:`EARLY_PAGE_JS`) starts it at once with :data:`START_SCRIPT`, which begins
the restore (``begin``: download, Pyodide, memory, files). Pyodide gets an array of the
snapshot's length (from ``NAME.json``) at once and waits for its bytes only before the
restore (its ``fsInit`` hook): its WebAssembly is compiled and started while the snapshot
arrives. A worker of the kernel's worker, the *reader* (``reading``), downloads the snapshot
(gzipped by the build: 52 → 15.7 MB) and then its files, unpacks each as it arrives, and
hands each over whole, moved, not copied: on the kernel worker's own thread, busy with
Pyodide's start, the same work ended 0.2–0.6 s after Pyodide asked for the snapshot; from the
reader it is there when Pyodide asks. A snapshot not read whole is refused, never restored
in part. When
JupyterLite constructs its kernel worker, the page hands it this one and the worker loads
JupyterLite's script; the kernel's ``loadPyodide`` then only does what needs its options
(``finish``: packages, output, address, random state).

**Kept in the browser**: the snapshot and its files are too large for a browser's HTTP
cache, so the start script keeps them in Cache Storage, marked with the build's ``id`` (a
hash of both, in ``NAME.json``, which is asked anew on every visit): a second visit reads
them there, unpacked, instead of downloading them again (21.3 MB gzipped, 78 MB unpacked).

**Never a broken page**: whatever fails before the kernel gets the interpreter (the
snapshot or a wheel not fetched, a snapshot of another Pyodide build, too little memory,
a package the page needs missing from it) leads to Pyodide's normal start, with one
console line saying why; an early worker whose script did not run is not handed over
(JupyterLite's own worker restores, one console line says so).

One snapshot serves every page (the app's: the union of all pages' packages): a visitor
downloads and caches one file, and the build makes one.
"""
from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from bohnteach.upstream import script_path, wrapped

#: The script the kernel loads as ``pyodideUrl``: it defines ``loadPyodide`` and loads
#: Pyodide's own ``pyodide.js`` beside it.
START_SCRIPT = "bohnteach-start.js"
#: The reader's script (:data:`READER_JS`): the kernel's worker starts it to get the snapshot
#: and its files.
READER_SCRIPT = "bohnteach-leser.js"
#: The snapshot's files beside Pyodide: ``NAME.snapshot`` (the memory, gzipped), ``NAME.files``
#: (site-packages, gzipped), ``NAME.json`` (what the browser checks and puts back; ``bytes``:
#: the memory's length unpacked).
NAME = "bohnteach-app"
#: Where the kernel's settings (``loadPyodideOptions``) name the snapshot.
OPTION = "bohnteachSnapshot"
#: The browser's Cache Storage that keeps the snapshot and its files, and the header that
#: marks each with the build's ``id``.
CACHE, CACHE_ID_HEADER = "bohnteach-abbild", "x-bohnteach-abbild"
#: The name of the worker a page starts before JupyterLite loads (:data:`EARLY_PAGE_JS`).
EARLY = "bohnteach-frueh"
#: Caches filled before the snapshot is taken (``module:function``, called once);
#: the server's fork server (:mod:`bohnteach.site.forking`) fills them too.
WARM = (
    "bohnteach.game.errors:rule_catalogue",
    "bohnteach.game.beans:all_varieties",
    "bohnteach.content.teacher_notes:all_teacher_notes",
    "bohnteach.content.scenes:list_scenes",  # every scene file parsed: 0.1 CPU s per kernel
    "bohnteach.render.charts:warm_up",  # plotly's lazy classes and templates: ~1 s in Pyodide
    "bohnteach.i18n:warm_up",  # every language's catalogues read: an English page starts warm too
)
#: Told the site's folders before the snapshot is taken (``module:function``, called with
#: {folder in the browser: {name: the notebook's text, else None}}): a page then lists none
#: of them and reads no notebook in the browser, where each waits for the page
#: (:func:`bohnteach.site.pages.know_files`).
KNOW_FILES = "bohnteach.site.pages:know_files"
#: Where the kernel mounts the site's files (jupyterlite-pyodide-kernel's ``DriveFS``); a
#: page's working directory is its folder there (``/drive/notebooks``).
DRIVE = "/drive"
#: Left out of ``NAME.files``: the wheels' front-end files (JupyterLab extensions in a wheel's
#: ``.data`` folder or beside the package, plotly.js for HTML export, the FigureWidget
#: bundle): 25 of the 61 MB, never read by Python in the browser (the page loads its
#: scripts from the site's own folder). See :func:`left_out`.
LEAVE_OUT = {"folders_ending": ".data", "suffixes": (".js", ".js.map", ".mjs")}
#: Seconds the snapshot may take in Node (about 20 s of CPU; minutes on a busy machine).
MAKE_TIMEOUT = 1800


class SnapshotError(RuntimeError):
    """The snapshot could not be made (the message says why)."""


def check_version(pyodide_version: str) -> None:
    """Stop for a Pyodide whose private API the scripts here were not checked against
    (:mod:`bohnteach.upstream.pyodide`)."""
    from bohnteach.upstream.pyodide import version_problem

    if (line := version_problem(pyodide_version)) is not None:
        raise SnapshotError(line)


#: Run in Node at build time (:func:`make_snapshot`): the snapshot of the site's Python.
MAKE_SCRIPT = "pyodide/make-snapshot.mjs"
#: The parameters of the start script and the reader (their ``CONFIG``).
SCRIPT_CONFIG = {"option": OPTION, "early": EARLY, "name": NAME, "drive": DRIVE,
                 "reader": READER_SCRIPT, "cache": CACHE, "idHeader": CACHE_ID_HEADER}
#: The reader (:data:`READER_SCRIPT`, a worker the kernel's worker starts;
#: ``bohnteach/upstream/js/pyodide/reader.js`` after ``reading.js``): answers a message
#: {url, id, length, what} with {url, bytes, cached}, the bytes moved, not copied, or with
#: {url, error}. In the kernel's worker the reading and unpacking waited for Pyodide's start
#: on that worker's one thread: a second visit's snapshot came 0.2–0.4 s after Pyodide asked
#: for it, a first visit's 0.5 s; from the reader it is there when Pyodide asks.
READER_JS = ("pyodide/reading.js", "pyodide/reader.js")
#: The kernel's ``pyodideUrl`` (:data:`START_SCRIPT`; ``bohnteach/upstream/js/pyodide/start.js``
#: after ``reading.js``): defines ``self.loadPyodide``, which restores the snapshot the
#: kernel's settings name (``loadPyodideOptions.bohnteachSnapshot``), else or on any failure
#: starts Pyodide as usual.  In Node (the tests) it only defines
#: ``globalThis.bohnteachSnapshot.restore``.
START_JS = ("pyodide/reading.js", "pyodide/start.js")


def reader_script() -> str:
    """The text of :data:`READER_SCRIPT` (:data:`READER_JS` with :data:`SCRIPT_CONFIG`). Read
    when the build asks: the scripts are not among the browser's files (:data:`LEAVE_OUT`),
    where this module is imported too."""
    return wrapped(SCRIPT_CONFIG, *READER_JS,
                   head="/* bohnteach: liest das Abbild (bohnteach/site/snapshot.py, issue 30) */\n")


def start_script() -> str:
    """The text of :data:`START_SCRIPT` (:data:`START_JS` with :data:`SCRIPT_CONFIG`)."""
    return wrapped(SCRIPT_CONFIG, *START_JS,
                   head="/* bohnteach: Python aus dem Abbild (bohnteach/site/snapshot.py, issue 30) */\n")


#: Runs in the page right after its settings (``bohnteach/upstream/js/jupyterlite/early-kernel.js``,
#: a classic script, before JupyterLite's own): starts the kernel's worker at once with
#: :data:`START_SCRIPT` (named :data:`EARLY`), which begins the restore, and hands that worker
#: to JupyterLite when it asks for the kernel's: the restore's download and Pyodide's
#: compiling overlap JupyterLite's loading (1–2 s on a first visit) instead of following it.
EARLY_PAGE_JS = "jupyterlite/early-kernel.js"


def page_script(plugin: str) -> str:
    """The page's ``<script>`` of :data:`EARLY_PAGE_JS` for the kernel settings key ``plugin``."""
    script = wrapped({"plugin": plugin, "option": OPTION, "early": EARLY}, EARLY_PAGE_JS,
                     head="/* bohnteach: der Kernel startet früh (bohnteach/site/snapshot.py) */\n")
    return f"\n<script>\n{script}</script>"


def left_out(path: str) -> bool:
    """Whether :data:`LEAVE_OUT` keeps ``path`` (relative to site-packages) out of the files."""
    top = path.split("/", 1)[0]
    return (top.endswith(LEAVE_OUT["folders_ending"]) and "/" in path) or path.endswith(LEAVE_OUT["suffixes"])


def make_snapshot(folder: Path, packages: list[str], modules: list[str], available: list[str],
                  node: str, files: Mapping[str, Mapping[str, str | None]] | None = None) -> dict:
    """Make ``NAME.snapshot``, ``NAME.files`` and ``NAME.json`` in ``folder`` (Pyodide with
    the build's lock and wheels) and write :data:`START_SCRIPT` there; returns the
    manifest, with ``seconds`` (the snapshot's build time).

    ``packages``: what the snapshot preloads (the kernel's settings name them);
    ``modules``: imported before the snapshot (a module that needs a package outside
    ``available``, the import names in the browser, is left out and listed as ``skipped``);
    ``files``: the site's folders in the browser, their names and the notebooks' texts
    (:data:`KNOW_FILES`).
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bohnteach-snapshot-") as tmp:
        spec = Path(tmp) / "spec.json"
        spec.write_text(json.dumps({"packages": packages, "modules": modules,
                                    "available": available, "warm": list(WARM),
                                    "know": KNOW_FILES, "files": dict(files or {}),
                                    "leave_out": LEAVE_OUT}))
        done = subprocess.run([node, str(script_path(MAKE_SCRIPT)), str(folder), NAME, str(spec)],
                              capture_output=True, text=True, timeout=MAKE_TIMEOUT)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise SnapshotError(f"Abbild in Node fehlgeschlagen ({done.returncode}):\n{tail}")
    (folder / START_SCRIPT).write_text(start_script(), "utf-8")
    (folder / READER_SCRIPT).write_text(reader_script(), "utf-8")
    manifest = json.loads((folder / f"{NAME}.json").read_text("utf-8"))
    manifest["seconds"] = round(time.monotonic() - started, 1)
    return manifest
