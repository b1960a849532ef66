"""``bohnteach build-static`` / ``serve-static``: the whole site as static files (Voici).

The pages and lessons are built with Voici into a folder that any static web server can
serve; Python then runs in the visitor's browser on Pyodide (WebAssembly), one
interpreter per open page, instead of one Voilà kernel per visitor on a server.

What the build does (see :func:`build_static`):

1. Pyodide's core (``pyodide.js``, ``pyodide.asm.wasm``, the standard library) comes from
   the npm package ``pyodide`` (``npm pack``), version :data:`PYODIDE_VERSION`.
2. Pyodide's lock file (``pyodide-lock.json``) names wheels that normally come from a CDN.
   The build puts every wheel the site needs beside it instead: Pyodide's own pure-Python
   packages (same version, from PyPI), the runtime dependencies (ipywidgets, comm, plotly
   … at the versions installed here, pinned by the ``[static]`` extra), the kernel's own
   wheels (from jupyterlite-pyodide-kernel) and bohnteach's wheel; it rewrites the lock to
   exactly these packages, with their sha256.  Nothing is installed with ``%pip`` at page
   load and no page can reach for a wheel that is not in the folder.  The wheels hold
   bytecode instead of sources (:func:`byte_compiled`), compiled by the same Pyodide run
   in Node: the browser would otherwise compile every module on every visit.
3. ``voici build`` renders ``notebooks/`` and ``tutorials/`` with bohnteach's template
   (no CDN fonts) and chart renderer (jupyterlab-plotly left out, as under Voilà) into
   ``OUT/voici/render/…``; titles, ``lang="de"``, the page stylesheet and the footer as
   under Voilà (:func:`bohnteach.site.publish.install_static`).
4. Each page is run once here and its outputs go into it as a preview, shown while Python
   starts in the visitor's browser (:mod:`bohnteach.site.preview`); once more in each other
   language, its preview beside it as ``<page>.<lang>.json`` for the app's address in that
   language.
5. Each page gets its own preload list (``loadPyodideOptions.packages`` in the page's
   ``jupyter-config-data``): the kernel's packages plus what the page's code can reach,
   followed function by function (:mod:`bohnteach.site.reach`), so a page without charts
   does not load plotly.  Packages the kernel insists on but no page uses (sqlite3, jedi)
   are empty stand-ins (:data:`PLACEHOLDERS`).
6. The kernel starts from a memory snapshot of the app's Python, made here in Node with
   the build's Pyodide after the kernel's start and every module a page can import
   (:mod:`bohnteach.site.snapshot`; one for every page): the kernel's ``pyodideUrl`` is
   its start script, which falls back to Pyodide's normal start if the snapshot does
   not fit.
7. JupyterLite's service worker answers only its API; the site's files go to the browser's
   own loading, which keeps their compiled code for the next visit (:data:`SERVICE_WORKER_JS`).

Downloads are cached in ``~/.cache/bohnteach-static`` (``BOHNTEACH_STATIC_CACHE``).
All versions: the ``[static]`` extra in pyproject.toml (== pins, so the project's lock file
covers them) and :data:`PYODIDE_VERSION` here, which is not a Python package.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import http.server
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bohnteach.i18n import LANGUAGES, SOURCE
from bohnteach.site import snapshot
from bohnteach.site.addresses import APP_PAGE, LESSONS_FOLDER, PAGES_FOLDER, notebook_key, registered_notebooks
from bohnteach.site.preview import PreviewError, insert_previews, page_previews, write_language_preview
from bohnteach.site.reach import notebook_sources, reached_modules, reached_top_levels
from bohnteach.site.serve import APP_EXTENSION, CHARTS_EXTENSION, site_dir, voila_env
from bohnteach.upstream import script_path, wrapped
from bohnteach.upstream.jupyterlite import PYODIDE_KERNEL_PLUGIN, edit_page_config, worker_changed

#: Pyodide's version, fetched from npm.  Must be the one jupyterlite-pyodide-kernel was
#: built for (its package.json pins ``"pyodide": "0.29.0"`` for kernel 0.7.0).
PYODIDE_VERSION = "0.29.0"
#: Python inside that Pyodide (for ``pip download --python-version``).
PYODIDE_PYTHON = "3.13"
#: Distributions whose browser-side version must equal the build environment's (their
#: labextensions are copied from here; the ``[static]`` extra pins them).
RUNTIME_DISTS = ("ipywidgets", "jupyterlab_widgets", "comm", "plotly")
#: What jupyterlite-pyodide-kernel 0.7.0 installs when it starts (worker.ts: micropip,
#: piplite, then ``toLoad``), spelled as the worker looks them up in the preload list:
#: preloading them all keeps piplite from running.
KERNEL_PACKAGES = ("micropip", "piplite", "ipykernel", "comm", "pyodide_kernel", "jedi",
                   "ipython", "sqlite3")
#: The kernel's wheels as jupyterlite-pyodide-kernel ships them (name → file prefix).
KERNEL_WHEELS = {
    "piplite": "piplite-",
    "pyodide-kernel": "pyodide_kernel-",
    "ipykernel": "ipykernel-",
    "widgetsnbextension": "widgetsnbextension-4.",
}
#: Packages the kernel installs at start but the pages never use: each gets an empty
#: wheel (:func:`_placeholder`), so the kernel's start neither fails nor unpacks them.
PLACEHOLDERS = frozenset({
    "sqlite3",  # IPython's history (off without it); the real one is on Pyodide's CDN only
    "jedi",  # completion in an editor (1.5 MB with parso); IPython goes on without it
})
#: Where the site's pages land in the build.
RENDER_DIR = "voici/render"
#: Installed here but left out of the build: bohnteach's chart renderer (CHARTS_EXTENSION)
#: draws the charts, and jupyterlab-plotly's one file holds the full plotly.js (4.8 MB),
#: which every page would load (and whose renderer would draw instead of ours). Notebook 7's
#: own extension (installed beside it, e.g. by the [test] extra) is Notebook's interface,
#: whose plugins fail on a site's page.
LEFT_OUT_EXTENSIONS = ("jupyterlab-plotly", "@jupyter-notebook/lab-extension")
MANIFEST = "bohnteach-static.json"
#: JupyterLite's service worker, which the build moves aside (:func:`_leave_files_to_the_browser`).
SERVICE_WORKER, JUPYTERLITE_WORKER = "service-worker.js", "service-worker-jupyterlite.js"
#: The site's service worker: JupyterLite's (imported) answers its API (``/api/drive``, the
#: kernel's synchronous file requests; ``/api/stdin/``; its heartbeat), every other request
#: goes to the browser's own loading. JupyterLite's would answer it with ``fetch(request)``
#: (its cache is off), and Chromium keeps no compiled code (V8's code cache) for a script a
#: service worker handed over: every visit compiled the page's 5 MB of scripts anew (main
#: thread 0.7–1.1 s; left to the browser, 0.3 s from the second visit on).
SERVICE_WORKER_JS = "jupyterlite/service-worker.js"

_MARKER_ENV = {
    "python_version": PYODIDE_PYTHON,
    "python_full_version": PYODIDE_PYTHON + ".2",
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "os_name": "posix",
    "extra": "",
}


class StaticBuildError(RuntimeError):
    """The static site could not be built (the message says what is missing)."""


def cache_dir() -> Path:
    """Where downloads are kept between builds."""
    base = os.environ.get("BOHNTEACH_STATIC_CACHE") or "~/.cache/bohnteach-static"
    path = Path(base).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _run(cmd: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, text=True, capture_output=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-30:])
        raise StaticBuildError(f"{' '.join(cmd[:4])} … failed ({proc.returncode}):\n{tail}")
    return proc.stdout


def _tool(name: str) -> str:
    """The path of ``npm`` or ``node`` (Debian's npm package brings both)."""
    path = shutil.which(name)
    if path is None:
        raise StaticBuildError(f"{name} fehlt (Debian: apt-get install npm; `make static` tut das).")
    return path


# --- Pyodide core ---------------------------------------------------------------------


def pyodide_core(log: Callable[[str], None] = print) -> Path:
    """The unpacked npm package ``pyodide@PYODIDE_VERSION`` (cached)."""
    target = cache_dir() / f"pyodide-{PYODIDE_VERSION}"
    if (target / "pyodide-lock.json").is_file() and (target / "pyodide.asm.wasm").is_file():
        return target
    npm = _tool("npm")
    log(f"npm pack pyodide@{PYODIDE_VERSION}")
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        _run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=Path(tmp))
        tgz = next(Path(tmp).glob("pyodide-*.tgz"))
        with tarfile.open(tgz) as tar:
            tar.extractall(tmp, filter="data")
        package = Path(tmp) / "package"
        version = json.loads((package / "package.json").read_text())["version"]
        if version != PYODIDE_VERSION:
            raise StaticBuildError(f"npm lieferte pyodide {version}, erwartet {PYODIDE_VERSION}")
        shutil.rmtree(target, ignore_errors=True)
        package.rename(target)
    return target


# --- wheels -----------------------------------------------------------------------------


def _wheel_dir() -> Path:
    path = cache_dir() / "wheels"
    path.mkdir(exist_ok=True)
    return path


def _download(requirements: Iterable[str], log: Callable[[str], None]) -> None:
    reqs = list(requirements)
    if not reqs:
        return
    log("pip download " + " ".join(reqs))
    _run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
          "--no-deps", "--only-binary=:all:", "--python-version", PYODIDE_PYTHON,
          "-d", str(_wheel_dir()), *reqs])


def _find_wheel(folder: Path, name: str, version: str | None = None) -> Path | None:
    want = _norm(name)
    for whl in sorted(folder.glob("*.whl")):
        dist, ver = whl.name.split("-")[:2]
        if _norm(dist) == want and (version is None or ver == version):
            return whl
    return None


def _wheel_metadata(whl: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, requirements that apply in Pyodide, top-level import names)."""
    from packaging.requirements import Requirement

    with zipfile.ZipFile(whl) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode("utf-8")
        top_name = meta_name.replace("METADATA", "top_level.txt")
        tops = zf.read(top_name).decode().split() if top_name in names else []
    headers = {}
    requires = []
    for line in meta.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(": ")
        if key == "Requires-Dist":
            req = Requirement(value)
            if req.marker is None or req.marker.evaluate(_MARKER_ENV):
                requires.append(req.name)
        else:
            headers.setdefault(key, value)
    if not tops:
        tops = sorted({n.split("/")[0].removesuffix(".py") for n in names
                       if not n.split("/")[0].endswith((".dist-info", ".data"))
                       and (n.endswith(".py") or "/" in n)})
    return headers["Name"], headers["Version"], requires, tops


def _bohnteach_wheel(folder: Path, log: Callable[[str], None]) -> Path:
    """bohnteach's own wheel, built from the source tree this module comes from."""
    source = Path(__file__).resolve().parents[2]
    if not (source / "pyproject.toml").is_file():
        raise StaticBuildError(f"Kein Quellbaum mit pyproject.toml über {Path(__file__)}")
    log("pip wheel bohnteach")
    _run([sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "-q",
          "--no-deps", "-w", str(folder), str(source)])
    whl = _find_wheel(folder, "bohnteach")
    if whl is None:
        raise StaticBuildError("pip wheel hat kein bohnteach-Rad geschrieben")
    return whl


def _placeholder(folder: Path, lock_entry: dict) -> Path:
    """A wheel with metadata only, standing in for the package of ``lock_entry`` (one of
    :data:`PLACEHOLDERS`): installing it satisfies the kernel, importing the module still
    raises ModuleNotFoundError."""
    name, version = lock_entry["name"], lock_entry["version"]
    whl = folder / f"{name}-{version}-py3-none-any.whl"
    if not whl.exists():
        dist_info = f"{name}-{version}.dist-info"
        with zipfile.ZipFile(whl, "w") as zf:
            zf.writestr(f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\n"
                        f"Version: {version}\nSummary: placeholder (no module)\n")
            zf.writestr(f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nGenerator: bohnteach\n"
                        "Root-Is-Purelib: true\nTag: py3-none-any\n")
            zf.writestr(f"{dist_info}/RECORD", "")
    return whl


#: Run by Node: Pyodide compiles every module under a host folder to bytecode beside its
#: source (``mod.py`` → ``mod.pyc``); an unchecked hash, since nothing is edited later.
COMPILE_SCRIPT = "pyodide/compile-wheels.mjs"


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def _repack(tree: Path, dest: Path) -> None:
    """Zip an unpacked wheel into ``dest``: each module as bytecode alone where it compiled
    (a module that did not compile keeps its source), with a RECORD that says so."""
    for pyc in tree.rglob("*.pyc"):
        pyc.with_suffix(".py").unlink(missing_ok=True)
    files = sorted(p for p in tree.rglob("*") if p.is_file())
    record = next((p for p in files
                   if p.parent.name.endswith(".dist-info") and p.name == "RECORD"), None)
    if record is not None:
        rows = []
        for path in files:
            rel = path.relative_to(tree).as_posix()
            if path == record:
                rows.append(f"{rel},,")
            else:
                data = path.read_bytes()
                rows.append(f"{rel},{_record_hash(data)},{len(data)}")
        record.write_text("\n".join(rows) + "\n")
    # the .dist-info folder last, as wheels have it
    files.sort(key=lambda p: (p.relative_to(tree).parts[0].endswith(".dist-info"), p.as_posix()))
    partial = dest.with_suffix(".part")
    partial.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in files:
            zf.write(path, path.relative_to(tree).as_posix())
    partial.replace(dest)


def byte_compiled(wheels: dict[str, Path], core: Path,
                  log: Callable[[str], None] = print) -> dict[str, Path]:
    """The same wheels with bytecode for Pyodide's Python instead of sources (cached by the
    source wheel's sha256).  Compiled by Pyodide itself, run in Node, so the bytecode fits
    the browser's interpreter exactly; importing the kernel's stack then takes 2.7 s
    instead of 4.5–5 s per visit (benchmarks/README.md, "Static site, where a page's time
    goes").  ``core``: Pyodide's unpacked npm package (:func:`pyodide_core`)."""
    compiled = cache_dir() / f"wheels-pyc-{PYODIDE_VERSION}"
    result: dict[str, Path] = {}
    todo: dict[str, tuple[Path, Path]] = {}
    for name, whl in wheels.items():
        dest = compiled / _sha256(whl)[:16] / whl.name
        result[name] = dest
        if not dest.is_file():
            todo[name] = (whl, dest)
    if not todo:
        return result
    node = _tool("node")
    log(f"byte-compile {len(todo)} wheels (Pyodide {PYODIDE_VERSION} in Node)")
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        for name, (whl, _) in todo.items():
            with zipfile.ZipFile(whl) as zf:
                zf.extractall(Path(tmp) / name)
        _run([node, str(script_path(COMPILE_SCRIPT)), str(core), tmp])
        for name, (_, dest) in todo.items():
            _repack(Path(tmp) / name, dest)
    return result


@dataclass
class Environment:
    """The browser's Python environment: the lock and the wheel files beside it."""

    lock: dict
    wheels: dict[str, Path] = field(default_factory=dict)  # lock name → wheel file
    import_names: dict[str, str] = field(default_factory=dict)  # top-level module → lock name


def browser_environment(extra_wheels: dict[str, Path],
                        log: Callable[[str], None] = print) -> Environment:
    """Resolve the kernel's packages and the runtime dependencies against Pyodide's lock.

    ``extra_wheels``: wheels that are not in Pyodide's lock (lock name → file).  Every
    package reached is either one of those or a lock entry whose pure-Python wheel is
    fetched from PyPI at the lock's version; anything else stops the build.
    """
    core = pyodide_core(log)
    base = json.loads((core / "pyodide-lock.json").read_text())
    pyodide_pkgs = {_norm(k): v for k, v in base["packages"].items()}
    extra = {_norm(k): v for k, v in extra_wheels.items()}
    roots = [*KERNEL_PACKAGES, *extra]
    entries: dict[str, dict] = {}
    wheels: dict[str, Path] = {}
    todo = [_norm(r) for r in roots]
    missing: list[str] = []
    while todo:
        name = todo.pop()
        if name in entries:
            continue
        if name in extra:
            whl = extra[name]
            dist, version, requires, tops = _wheel_metadata(whl)
            entry = {
                "name": dist, "version": version, "file_name": whl.name,
                "install_dir": "site", "sha256": "", "package_type": "package",
                "imports": tops, "depends": sorted({_norm(r) for r in requires}),
                "unvendored_tests": False,
            }
            if name == "bohnteach":
                # Its server-side requirements (voila, jupyterlab) have no place in the
                # browser, and ipywidgets/plotly are preloaded per page (page_packages).
                entry["depends"] = []
            wheels[name] = whl
        elif name in pyodide_pkgs:
            entry = dict(pyodide_pkgs[name])
            entry["depends"] = [_norm(d) for d in entry.get("depends", [])]
            if name in PLACEHOLDERS:
                whl = _placeholder(_wheel_dir(), entry)
                entry.update(file_name=whl.name, package_type="package", imports=[],
                             depends=[])
                wheels[name] = whl
            elif not entry["file_name"].endswith("-none-any.whl"):
                missing.append(f"{name} ({entry['file_name']}: nicht reines Python)")
                continue
            else:
                wheels[name] = _wheel_dir() / entry["file_name"]
            if name == "matplotlib-inline":  # only for %matplotlib inline; no matplotlib here
                entry["depends"] = [d for d in entry["depends"] if d != "matplotlib"]
        else:
            missing.append(name)
            continue
        entries[name] = entry
        todo.extend(d for d in entry["depends"] if d not in entries)
    _download([f"{entries[n]['name']}=={entries[n]['version']}"
               for n, whl in wheels.items() if not whl.is_file()], log)
    missing += [f"{n} ({whl.name})" for n, whl in wheels.items() if not whl.is_file()]
    if missing:
        raise StaticBuildError("Für den Browser fehlen: " + ", ".join(sorted(missing)))
    wheels = byte_compiled(wheels, core, log)
    for name, entry in entries.items():
        entry["sha256"] = _sha256(wheels[name])
        entry["depends"] = sorted(d for d in entry["depends"] if d in entries)
    lock = {"info": base["info"], "packages": dict(sorted(entries.items()))}
    import_names = {imp: name for name, e in entries.items() for imp in e.get("imports", [])}
    return Environment(lock=lock, wheels=wheels, import_names=import_names)


def _runtime_wheels(log: Callable[[str], None]) -> dict[str, Path]:
    """Wheels not in Pyodide's lock: runtime dependencies, the kernel's own, bohnteach."""
    versions = {}
    for dist in RUNTIME_DISTS:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError as exc:
            raise StaticBuildError(f"{dist} fehlt: pip install -e '.[static]'") from exc
    need = [f"{d}=={v}" for d, v in versions.items() if _find_wheel(_wheel_dir(), d, v) is None]
    _download(need, log)
    wheels = {d: _find_wheel(_wheel_dir(), d, v) for d, v in versions.items()}
    for dist, whl in wheels.items():
        if whl is None:
            raise StaticBuildError(f"Kein reines Python-Rad für {dist}=={versions[dist]}")
    kernel_pypi = _kernel_pypi_dir()
    for name, prefix in KERNEL_WHEELS.items():
        found = sorted(kernel_pypi.glob(prefix + "*.whl"))
        if not found:
            raise StaticBuildError(f"{prefix}*.whl fehlt in {kernel_pypi}")
        wheels[name] = found[-1]
    return wheels  # type: ignore[return-value]


def _kernel_pypi_dir() -> Path:
    share = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
    folder = share / "static/pypi"
    if not folder.is_dir():
        raise StaticBuildError(f"jupyterlite-pyodide-kernel fehlt ({folder}): "
                               "pip install -e '.[static]'")
    return folder


# --- what a page needs ------------------------------------------------------------------


def page_packages(notebook: Path, env: Environment) -> list[str]:
    """What a page preloads: the kernel's packages (spelled as the kernel looks them up),
    plus the lock names of what the page's code can import (:mod:`bohnteach.site.reach`)."""
    wanted = set(KERNEL_PACKAGES)
    kernel = {_norm(p) for p in KERNEL_PACKAGES}
    for top in reached_top_levels(notebook_sources(notebook)):
        name = env.import_names.get(top)
        if name is not None and name not in kernel:
            wanted.add(name)
    return sorted(wanted)


# --- the build --------------------------------------------------------------------------


@dataclass
class BuildReport:
    out: Path
    seconds: float
    size_bytes: int
    pages: dict[str, list[str]]
    versions: dict[str, str]
    snapshot: dict = field(default_factory=dict)  # the app's snapshot (_make_snapshot)


def _versions() -> dict[str, str]:
    names = ("voici-core", "jupyterlite-core", "jupyterlite-pyodide-kernel", "voila",
             *RUNTIME_DISTS)
    found = {n: importlib.metadata.version(n) for n in names}
    found["pyodide"] = PYODIDE_VERSION
    return found


def _lite_config(pyodide_packages: list[str]) -> dict:
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Bohnanza lernen",
            "litePluginSettings": {
                PYODIDE_KERNEL_PLUGIN: {
                    # voici rewrites "./…Url" values relative to each page; the script
                    # restores the build's snapshot, else loads pyodide.js beside it
                    "pyodideUrl": f"./static/pyodide/{snapshot.START_SCRIPT}",
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": pyodide_packages},
                }
            },
        },
    }


def _leave_out_extensions(staging: Path) -> None:
    """Remove :data:`LEFT_OUT_EXTENSIONS` from the build: their files and their entries in
    ``jupyter-lite.json`` and in every page's embedded ``jupyter-config-data``."""
    def kept(config: dict) -> dict:
        config["federated_extensions"] = [e for e in config.get("federated_extensions", [])
                                          if e["name"] not in LEFT_OUT_EXTENSIONS]
        return config

    for name in LEFT_OUT_EXTENSIONS:
        folder = staging / "extensions" / name
        if folder.exists():  # only what is installed here was copied
            shutil.rmtree(folder)
            if folder.parent.name.startswith("@") and not any(folder.parent.iterdir()):
                folder.parent.rmdir()  # a scope left empty
    lite = staging / "jupyter-lite.json"
    data = json.loads(lite.read_text("utf-8"))
    kept(data["jupyter-config-data"])
    lite.write_text(json.dumps(data, indent=2), "utf-8")
    for html in staging.rglob("*.html"):
        edit_page_config(html, kept)


def _leave_files_to_the_browser(staging: Path) -> None:
    """Put :data:`SERVICE_WORKER_JS` where JupyterLite registers its service worker, which it
    imports from beside it. Its listener runs first: for a request outside JupyterLite's API
    it stops the event before JupyterLite's listener can answer it."""
    worker = staging / SERVICE_WORKER
    text = worker.read_text("utf-8") if worker.is_file() else ""
    if worker_changed(text):
        raise StaticBuildError(f"{worker}: JupyterLites Service Worker fehlt oder hat sich geändert "
                               "(bohnteach/site/static.py: SERVICE_WORKER_JS prüfen)")
    worker.rename(staging / JUPYTERLITE_WORKER)
    worker.write_text(service_worker_script(), "utf-8")


def service_worker_script() -> str:
    """The site's ``service-worker.js``: :data:`SERVICE_WORKER_JS` importing JupyterLite's."""
    return wrapped({"jupyterliteWorker": JUPYTERLITE_WORKER}, SERVICE_WORKER_JS,
                   head="/* bohnteach: the site's files are left to the browser (bohnteach/site/static.py) */\n")


def _set_page_packages(html: Path, packages: list[str]) -> None:
    """Write ``packages`` into the page's embedded ``jupyter-config-data``, and the
    snapshot to start from (:mod:`bohnteach.site.snapshot`)."""
    def with_packages(config: dict) -> dict:
        plugin = config.setdefault("litePluginSettings", {}).setdefault(PYODIDE_KERNEL_PLUGIN, {})
        options = plugin.setdefault("loadPyodideOptions", {})
        options["packages"] = packages
        options[snapshot.OPTION] = snapshot.NAME
        return config

    if not edit_page_config(html, with_packages,
                             query_to_kernel() + snapshot.page_script(PYODIDE_KERNEL_PLUGIN)):
        raise StaticBuildError(f"{html}: kein jupyter-config-data")


#: Runs before Voici starts (its code waits for the page's load event): hands the page's
#: query string to Python as ``QUERY_STRING`` (Pyodide's ``env`` option; after a snapshot's
#: restore the start script puts it into ``os.environ``), where
#: ``bohnteach.widgets.questions`` reads it outside Voilà — so ``?lehrkraft=1`` works.
QUERY_TO_KERNEL_JS = "jupyterlite/query-to-kernel.js"


def query_to_kernel() -> str:
    """The page's ``<script>`` of :data:`QUERY_TO_KERNEL_JS`."""
    return f"\n<script>\n{wrapped({'plugin': PYODIDE_KERNEL_PLUGIN}, QUERY_TO_KERNEL_JS)}</script>"


def _closure(lock: dict, names: Iterable[str]) -> list[str]:
    """The lock's entries of ``names`` (spelled as the kernel does) and their dependencies."""
    found: set[str] = set()
    todo = [_norm(n) for n in names]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(lock["packages"][name]["depends"])
    return sorted(found)


def _gzip_size(path: Path) -> int:
    with open(path, "rb") as fh:
        return len(gzip.compress(fh.read(), compresslevel=6))


#: Pyodide's files every visit downloads, beside the wheels (pyodide.mjs is not loaded).
_PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                  "pyodide-lock.json", snapshot.START_SCRIPT, snapshot.READER_SCRIPT)


def _site_listing(notebooks: list[Path]) -> dict[str, dict[str, str | None]]:
    """The site's folders as the browser's Python finds them (``/drive/notebooks``), the
    names in each and the notebooks' texts, for the snapshot (:data:`snapshot.KNOW_FILES`)."""
    folders = {nb.parent for nb in notebooks}
    return {f"{snapshot.DRIVE}/{f.name}": {
        name: (f / name).read_text("utf-8") if name.endswith(".ipynb") else None
        for name in sorted(os.listdir(f))} for f in sorted(folders)}


def _make_snapshot(folder: Path, packages: list[str], env: Environment,
                   notebooks: list[Path], log: Callable[[str], None]) -> dict:
    """The app's snapshot in ``folder`` (Pyodide's, with the build's lock and wheels), made
    in Node (:mod:`bohnteach.site.snapshot`): ``packages`` preloaded, every module a page
    can import imported.  Returns its manifest with ``gzip_bytes`` (the snapshot and its
    files) and the download of a first visit to the app, gzipped, in bytes: ``download_before`` (Pyodide and the wheels) and
    ``download_after`` (Pyodide and the snapshot, whose files stand in for the wheels)."""
    try:
        snapshot.check_version(PYODIDE_VERSION)
    except snapshot.SnapshotError as exc:
        raise StaticBuildError(str(exc)) from exc
    modules: set[str] = set()
    for nb in notebooks:
        modules |= reached_modules(notebook_sources(nb))
    names = _closure(env.lock, packages)
    wheels = [env.lock["packages"][n]["file_name"] for n in names]
    available = sorted({imp for n in names for imp in env.lock["packages"][n].get("imports", [])})
    log(f"snapshot ({len(modules)} modules, Pyodide {PYODIDE_VERSION} in Node)")
    try:
        made = snapshot.make_snapshot(folder, packages, sorted(modules), available, _tool("node"),
                                      _site_listing(notebooks))
    except (snapshot.SnapshotError, subprocess.TimeoutExpired) as exc:
        raise StaticBuildError(str(exc)) from exc
    made["gzip_bytes"] = sum((folder / f"{snapshot.NAME}{suffix}").stat().st_size
                             for suffix in (".snapshot", ".files"))  # gzipped by the build
    core = sum(_gzip_size(folder / f) for f in _PYODIDE_FILES)
    made["download_before"] = core + sum(_gzip_size(folder / f) for f in wheels)
    made["download_after"] = core + made["gzip_bytes"] + _gzip_size(folder / f"{snapshot.NAME}.json")
    return made


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build_static(out: Path | str, log: Callable[[str], None] = print) -> BuildReport:
    """Build the app and every chapter and lesson of the registry (``data/chapters.toml``)
    into ``out`` (replaced if it exists and holds an earlier build)."""
    started = time.monotonic()
    out = Path(out).resolve()
    if out.exists() and any(out.iterdir()) and not (out / MANIFEST).is_file():
        raise StaticBuildError(f"{out} ist nicht leer und kein früherer Bau – abgebrochen.")
    root = site_dir()
    core = pyodide_core(log)
    with tempfile.TemporaryDirectory(prefix="bohnteach-static-") as tmp:
        work = Path(tmp)
        extra = _runtime_wheels(log)
        extra["bohnteach"] = _bohnteach_wheel(work / "dist", log)
        env = browser_environment(extra, log)

        lite = work / "lite"
        contents = lite / "contents"
        for folder in (PAGES_FOLDER, LESSONS_FOLDER):
            shutil.copytree(root / folder, contents / folder, symlinks=False,
                            ignore=shutil.ignore_patterns(".*", "__pycache__", "*.md"))
        (lite / "jupyter-lite.json").write_text(
            json.dumps(_lite_config(sorted(KERNEL_PACKAGES)), indent=2))
        staging = work / "out"
        log("voici build")
        _run([sys.executable, "-c", "from bohnteach.site.publish import install_static; "
              "install_static(); from voici_core.app import main; main()", "build", "--lite-dir", str(lite),
              "--contents", str(contents), "--output-dir", str(staging),
              "--template", "bohnteach", "--no-sourcemaps", "--no-unused-shared-packages",
              # the chart renderer and the app's router of the Voilà site, beside the
              # labextensions installed here
              f"--LiteBuildConfig.federated_extensions={CHARTS_EXTENSION}",
              f"--LiteBuildConfig.federated_extensions={APP_EXTENSION}"],
             cwd=lite, env=voila_env())

        _leave_out_extensions(staging)
        _leave_files_to_the_browser(staging)
        pyodide_dir = staging / "static" / "pyodide"
        pyodide_dir.mkdir(parents=True, exist_ok=True)
        for item in core.iterdir():
            if item.name.endswith((".map", ".d.ts", ".html", ".md")) or item.name in (
                "package.json", "pyodide-lock.json"
            ):
                continue
            shutil.copy2(item, pyodide_dir / item.name)
        for whl in env.wheels.values():
            shutil.copy2(whl, pyodide_dir / whl.name)
        (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(env.lock, indent=1))

        pages: dict[str, list[str]] = {}
        app = contents / notebook_key(APP_PAGE)
        notebooks = [app, *(contents / key for key in registered_notebooks())]
        for nb in notebooks:
            folder = nb.parent.name
            html = staging / RENDER_DIR / folder / f"{nb.stem}.html"
            if not html.is_file():
                raise StaticBuildError(f"voici hat {html} nicht geschrieben")
            if nb != app:
                pages[f"{folder}/{nb.stem}"] = page_packages(nb, env)
                _set_page_packages(html, pages[f"{folder}/{nb.stem}"])
            try:
                insert_previews(html, page_previews(nb))
                if nb != app:  # the app's own preview in another language is the start page's
                    for lang in LANGUAGES:
                        if lang != SOURCE:
                            write_language_preview(nb, html, lang)
            except (PreviewError, subprocess.TimeoutExpired) as exc:
                raise StaticBuildError(f"Vorschau von {folder}/{nb.stem}: {exc}") from exc
        # the app shows every page: it preloads what any of them needs
        app_html = staging / RENDER_DIR / PAGES_FOLDER / f"{app.stem}.html"
        pages[f"{PAGES_FOLDER}/{app.stem}"] = sorted({p for packages in pages.values() for p in packages})
        _set_page_packages(app_html, pages[f"{PAGES_FOLDER}/{app.stem}"])
        _mark_app_page(app_html)
        made = _make_snapshot(pyodide_dir, pages[f"{PAGES_FOLDER}/{app.stem}"], env, notebooks, log)
        for junk in staging.rglob("*.map"):
            junk.unlink()
        _write_start_redirect(staging)
        report = BuildReport(out=out, seconds=0.0, size_bytes=_dir_size(staging),
                             pages=pages, versions=_versions(), snapshot=made)
        (staging / MANIFEST).write_text(json.dumps(
            {"versions": report.versions, "pages": pages, "snapshot": made}, indent=1,
            ensure_ascii=False))
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), str(out))
    report.seconds = time.monotonic() - started
    return report


def _write_start_redirect(staging: Path) -> None:
    """``index.html`` at the top opens the app (not JupyterLite's file tree), keeping the
    address's query and fragment: ``/?kapitel=02_Phase_1`` lands on that chapter."""
    target = f"{RENDER_DIR}/{PAGES_FOLDER}/{Path(APP_PAGE).stem}.html"
    (staging / "index.html").write_text(
        "<!doctype html><html lang=\"de\"><head><meta charset=\"utf-8\">"
        f"<script>location.replace('{target}' + location.search + location.hash)</script>"
        f"<meta http-equiv=\"refresh\" content=\"0; url={target}\">"
        "<title>Bohnanza lernen</title></head><body>"
        f"<p><a href=\"{target}\">Zur Startseite</a></p></body></html>\n", "utf-8")


def _mark_app_page(html: Path) -> None:
    """The app's page (``body.bt-app-static``): while Python starts, the template shows the
    build's preview of the page its address names (fetched from that page's own file)."""
    text = html.read_text("utf-8")
    html.write_text(text.replace('<body class="', '<body class="bt-app-static ', 1), "utf-8")


def static_page_path(name: str) -> str:
    """URL path of a page in the static build: ``02_Phase_1`` →
    ``/voici/render/notebooks/02_Phase_1.html``; ``tutorials/01_Bohnentreppe`` likewise."""
    name = name.removesuffix(".ipynb")
    if "/" not in name:
        name = f"{PAGES_FOLDER}/{name}"
    return f"/{RENDER_DIR}/{name}.html"


# --- serving ----------------------------------------------------------------------------

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".ipynb": "application/json",
}


def make_server(folder: Path | str, port: int = 8000, host: str = "127.0.0.1"
                ) -> http.server.ThreadingHTTPServer:
    """A plain static file server for ``folder`` with the MIME types Pyodide needs."""
    directory = str(Path(folder).resolve())

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=directory, **kwargs)

        def log_message(self, format: str, *args) -> None:  # noqa: A002
            if os.environ.get("BOHNTEACH_STATIC_LOG"):
                super().log_message(format, *args)

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address) -> None:
            # a browser that closes a connection early (page left, tab closed) is normal
            if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                return
            super().handle_error(request, client_address)

    return Server((host, port), Handler)


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """Serve a static build in a background thread on a free port of 127.0.0.1 while the
    block runs (tests, benchmarks); yields its base URL."""
    with running(make_server(folder, port=0)) as base:
        yield base


@contextmanager
def running(server: http.server.ThreadingHTTPServer) -> Iterator[str]:
    """Run ``server`` (from :func:`make_server`, port 0) in a background thread while the
    block runs; yields its base URL."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def serve_static_main(folder: str, port: int = 8000) -> int:
    path = Path(folder)
    if not (path / MANIFEST).is_file():
        print(f"{path} enthält keinen statischen Bau (bohnteach build-static {folder})",
              file=sys.stderr)
        return 2
    server = make_server(path, port)
    print(f"Bohnanza-Lernseite (statisch): http://127.0.0.1:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def build_static_main(out: str) -> int:
    """``bohnteach build-static``: the adapters' self-checks (:mod:`bohnteach.upstream`), then
    the build; one German line and exit code 2 (a changed dependency) or 1 (the build)."""
    from bohnteach.upstream import STATIC, refusal
    from bohnteach.upstream.pyodide import version_problem

    line = refusal(STATIC)
    if line is None and (pyodide := version_problem(PYODIDE_VERSION)) is not None:
        line = f"Abbruch – eine Abhängigkeit hat sich geändert: {pyodide}"
    if line is not None:
        print(line, file=sys.stderr)
        return 2
    try:
        report = build_static(out)
    except StaticBuildError as exc:
        print(f"build-static: {exc}", file=sys.stderr)
        return 1
    print(f"{len(report.pages)} Seiten nach {report.out} gebaut in {report.seconds:.0f} s, "
          f"{report.size_bytes / 1e6:.0f} MB")
    snap = report.snapshot
    print(f"Abbild: {snap['bytes'] / 1e6:.0f} MB ({snap['gzip_bytes'] / 1e6:.1f} MB gzip) in "
          f"{snap['seconds']:.0f} s; erster Besuch lädt {snap['download_before'] / 1e6:.1f} → "
          f"{snap['download_after'] / 1e6:.1f} MB (gzip)")
    for name, version in report.versions.items():
        print(f"  {name} {version}")
    return 0
