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
LEAVE_OUT = {"folders_ending": ".data", "suffixes": (".js", ".js.map")}
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


#: Run in Node at build time: argv = Pyodide's folder, the snapshot's name, a JSON file
#: with {packages, modules, available, warm}.
_MAKE_JS = r"""
import { pathToFileURL } from "node:url";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
const [folder, name, specFile] = process.argv.slice(1);
const spec = JSON.parse(readFileSync(specFile, "utf8"));
const { loadPyodide, version } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: folder + "/", packages: spec.packages, _makeSnapshot: true });
// the kernel's own start (jupyterlite-pyodide-kernel's worker: initPackageManager, initKernel)
await py.runPythonAsync("import piplite.piplite\nimport pyodide_kernel");
const prepare = py.runPython(`
import gc, importlib, json, sys
def prepare(modules, available, warm, know, files):
    skipped = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] in available:
                raise
            skipped.append(name)  # needs a package the browser does not have (the server's)
    for target in warm:
        module, _, function = target.partition(":")
        getattr(importlib.import_module(module), function)()
    module, _, function = know.partition(":")
    getattr(importlib.import_module(module), function)(files)
    gc.collect()
    gc.freeze()  # the page's collections skip what was imported (as the server's fork server)
    imported = sorted({f for m in list(sys.modules.values()) if isinstance(f := getattr(m, "__file__", None), str)})
    return json.dumps({"modules": len(sys.modules), "skipped": sorted(skipped), "imported": imported})
prepare`);
const { imported, ...report } = JSON.parse(prepare(py.toPy(spec.modules), py.toPy(spec.available), py.toPy(spec.warm),
                                  spec.know, py.toPy(spec.files)));
prepare.destroy();
const loaded = { ...py.loadedPackages };
for (const key of Object.keys(py.loadedPackages)) delete py.loadedPackages[key];
const snapshot = py.makeMemorySnapshot({ serializer: (obj) => {
  if (obj === py) return { pyodide: "" };
  for (const [where, owner] of [["pyodide", py], ["api", py._api]]) {
    for (const key of Object.getOwnPropertyNames(owner)) {
      let value;
      try { value = owner[key]; } catch { continue; }
      if (value === obj) return { [where]: key };
    }
  }
  throw new Error("Python hält ein JS-Objekt, das das Abbild nicht kennt: " + String(obj).slice(0, 80));
}});
writeFileSync(`${folder}/${name}.snapshot`, gzipSync(snapshot));  // unpacked by the browser as it arrives
// site-packages as the normal start leaves it (the snapshot holds no files), without what
// LEAVE_OUT names (the rule of left_out() in snapshot.py), and the modules the snapshot holds
// imported as empty files: one bundle, [u32 length of the index][index: JSON [[path, size],
// …]][the files' bytes], gzipped
const files = [], inMemory = new Set(imported), empty = new Uint8Array(0);
const site = py.PATH.normalize(py.runPython("import sysconfig; sysconfig.get_path('purelib')"));
const leftOut = (rel) => (rel.split("/")[0].endsWith(spec.leave_out.folders_ending) && rel.includes("/"))
  || spec.leave_out.suffixes.some((suffix) => rel.endsWith(suffix));
(function walk(dir) {
  for (const entry of py.FS.readdir(dir)) {
    if (entry === "." || entry === "..") continue;
    const path = `${dir}/${entry}`;
    if (py.FS.isDir(py.FS.stat(path).mode)) walk(path);
    else if (!leftOut(path.slice(site.length + 1))) {
      files.push([path, inMemory.has(path) ? empty : py.FS.readFile(path)]);
    }
  }
})(site);
const index = new TextEncoder().encode(JSON.stringify(files.map(([path, data]) => [path, data.length])));
const head = new Uint8Array(4);
new DataView(head.buffer).setUint32(0, index.length, true);
const bundle = gzipSync(Buffer.concat([head, index, ...files.map(([, d]) => d)]));
writeFileSync(`${folder}/${name}.files`, bundle);
writeFileSync(`${folder}/${name}.json`, JSON.stringify({
  pyodide: version, bytes: snapshot.length, packages: spec.packages, files: files.length,
  emptied: files.filter(([path]) => inMemory.has(path)).length,
  folders: Object.keys(spec.files).map((path) => path.slice(path.lastIndexOf("/") + 1)),
  id: createHash("sha256").update(snapshot).update(bundle).digest("hex").slice(0, 32),
  loaded, ...report,
}));
"""

#: What the start script and the reader share: getting the snapshot and its files, from the
#: Cache Storage or downloaded and unpacked (``whole``).
_READING_JS = r"""
  async function fetchResponse(url, init) {
    const response = await fetch(url, init);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response;
  }

  async function bytesOf(response) {
    return new Uint8Array(await response.arrayBuffer());
  }

  // The body of a download of NAME.snapshot or NAME.files, which the build gzipped, unpacked
  // as it arrives; as it is where the host unpacked it already (Content-Encoding).
  async function unpacked(response) {
    const reader = response.body.getReader();
    const head = await reader.read();
    const body = new ReadableStream({
      start(controller) {
        if (head.done) controller.close();
        else controller.enqueue(head.value);
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const gzipped = !head.done && head.value[0] === 0x1f && head.value[1] === 0x8b;
    return gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body;
  }

  // The whole body of a download, unpacked: exactly `length` bytes where the manifest says how
  // many (the snapshot: one that arrives in part is refused, never restored in part), else
  // as many as come.
  async function downloaded(response, length, what) {
    const stream = await unpacked(response);
    if (length === undefined) return bytesOf(new Response(stream));
    const bytes = new Uint8Array(length), reader = stream.getReader();
    let offset = 0, problem = null;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (offset + value.length > length) {
          reader.cancel().catch(() => {});
          problem = `größer als angegeben (über ${length} Bytes)`;
          break;
        }
        bytes.set(value, offset);
        offset += value.length;
      }
      if (!problem && offset !== length) problem = `unvollständig (${offset} statt ${length} Bytes)`;
    } catch (err) {
      problem = `unvollständig (${offset} statt ${length} Bytes: ${(err && err.message) || err})`;
    }
    if (problem) throw new Error(`${what} ${problem}`);
    return bytes;
  }

  // The snapshot and its files stay in the browser's Cache Storage after the first visit,
  // marked with the build's id: a browser's HTTP cache keeps no file this large (Chromium
  // an eighth of its cache, Firefox 50 MB), so every visit downloaded them again, and
  // reading the cache takes a third of the time of even a local download. No Cache
  // Storage (a page not served over https or from localhost, a private window that
  // refuses it): downloaded each time, as before.
  const CACHE = "%(cache)s";
  const ID_HEADER = "%(id_header)s";

  // the Cache Storage, or null where there is none (merely reading `caches` throws on an
  // opaque origin)
  function cacheStorage() {
    try {
      return typeof caches === "undefined" ? null : caches;
    } catch (err) {
      return null;
    }
  }

  function openCache() {
    const storage = cacheStorage();
    return storage ? storage.open(CACHE).catch(() => null) : Promise.resolve(null);
  }

  // {bytes, cached} of url: from the Cache Storage if it holds the build `id`'s, else downloaded
  async function whole(cacheP, url, id, length, what, fetch) {
    const cache = await cacheP;
    const hit = cache && await cache.match(url).catch(() => undefined);
    if (hit && hit.headers.get(ID_HEADER) === id) {
      const bytes = await bytesOf(hit);
      if (length === undefined || bytes.length === length) return { bytes, cached: true };
    }
    return { bytes: await downloaded(await fetch(url), length, what), cached: false };
  }
""" % {"cache": CACHE, "id_header": CACHE_ID_HEADER}

#: The reader (:data:`READER_SCRIPT`, a worker the kernel's worker starts): answers a message
#: {url, id, length, what} with {url, bytes, cached}, the bytes moved, not copied, or with
#: {url, error}. In the kernel's worker the reading and unpacking waited for Pyodide's start
#: on that worker's one thread: a second visit's snapshot came 0.2–0.4 s after Pyodide asked
#: for it, a first visit's 0.5 s; from the reader it is there when Pyodide asks.
READER_JS = r"""/* bohnteach: liest das Abbild (bohnteach/site/snapshot.py, issue 30) */
(function () {
  "use strict";
%(reading)s

  const cacheP = openCache();
  self.onmessage = async (event) => {
    const { url, id, length, what } = event.data;
    try {
      const { bytes, cached } = await whole(cacheP, url, id, length, what, fetchResponse);
      self.postMessage({ url, bytes, cached }, [bytes.buffer]);
    } catch (err) {
      self.postMessage({ url, error: String((err && err.message) || err) });
    }
  };
})();
""" % {"reading": _READING_JS}

#: The kernel's ``pyodideUrl`` (a classic script, run by ``importScripts`` in the kernel's
#: worker, jupyterlite-pyodide-kernel 0.7): defines ``self.loadPyodide``, which restores
#: the snapshot the kernel's settings name (``loadPyodideOptions.bohnteachSnapshot``), else
#: or on any failure starts Pyodide as usual.  In Node (the tests) it only defines
#: ``globalThis.bohnteachSnapshot.restore``.
START_JS = r"""/* bohnteach: Python aus dem Abbild (bohnteach/site/snapshot.py, issue 30) */
(function () {
  "use strict";
  const OPTION = "%(option)s";
%(reading)s

  // whole() as read(url, id, length, what): by the reader (READER_JS, from `script`), else
  // here: where a worker cannot start one, or its script fails (one console line says so).
  // read.done() ends the reader.
  function reading(script, fetch) {
    let cacheP = null;  // opened once, if anything is read here
    const here = (url, id, length, what) => whole(cacheP || (cacheP = openCache()), url, id, length, what, fetch);
    let reader = null;
    if (fetch === fetchResponse && typeof Worker === "function") {
      try {
        reader = new Worker(script);
      } catch (err) {
        reader = null;
      }
    }
    if (!reader) return Object.assign(here, { done() {} });
    const waiting = new Map();  // url → [resolve, reject, the request]
    reader.onmessage = (event) => {
      const { url, bytes, cached, error } = event.data;
      if (!waiting.has(url)) return;  // read here already: the reader failed after it began
      const [resolve, reject] = waiting.get(url);
      waiting.delete(url);
      if (error) reject(new Error(error));
      else resolve({ bytes, cached });
    };
    reader.onerror = (event) => {  // its script did not run: read here what it was asked
      event.preventDefault();
      reader = null;
      console.info("bohnteach: Leser des Abbilds nicht gestartet, der Kernel liest selbst");
      for (const [resolve, reject, request] of waiting.values()) here(...request).then(resolve, reject);
      waiting.clear();
    };
    const read = (...request) => {
      if (!reader) return here(...request);
      const [url, id, length, what] = request;
      return new Promise((resolve, reject) => {
        waiting.set(url, [resolve, reject, request]);
        reader.postMessage({ url, id, length, what });
      });
    };
    return Object.assign(read, { done() { if (reader) reader.terminate(); } });
  }

  // keeps what was downloaded (unpacked) for the next visit; a Response copies its bytes
  function keep(cache, id, entries) {
    const responses = entries.map(([url, bytes]) => [url, new Response(bytes, { headers: { [ID_HEADER]: id } })]);
    (async () => {
      for (const [url, response] of responses) await cache.put(url, response).catch(() => {});
    })();
  }

  // Python holds a few of Pyodide's JS functions and its API object (written by name at
  // build time): each points at the new instance's, once there is one.
  function deserializer(current) {
    return (ref) => {
      if ("pyodide" in ref && ref.pyodide === "") {
        return new Proxy({}, { get: (_t, key) => current.py[key], has: (_t, key) => key in current.py });
      }
      const owner = "pyodide" in ref ? () => current.py : () => current.py._api;
      const key = "pyodide" in ref ? ref.pyodide : ref.api;
      return function (...args) { return owner()[key].apply(owner(), args); };
    };
  }

  const AFTER_RESTORE = `
def after_restore(env):
    import importlib, os, random
    os.environ.update(env)  # the env option is ignored on restore
    random.seed()  # the snapshot's random state would deal every visitor the same games
    importlib.invalidate_caches()  # site-packages' files are new
after_restore`;

  // site-packages' files (NAME.files, written by the build) back into Pyodide's file system
  // (MEMFS): each file a node made in its folder's node, holding its part of the bundle (no
  // copy). FS.writeFile resolved each file's whole path twice: 0.15–0.3 s for 2 900 files
  // in a page's start, this a third of that.
  function writeFiles(py, bundle) {
    const FS = py.FS, MEMFS = FS.filesystems.MEMFS;
    const length = new DataView(bundle.buffer, bundle.byteOffset, 4).getUint32(0, true);
    const index = JSON.parse(new TextDecoder().decode(bundle.subarray(4, 4 + length)));
    const folders = new Map();
    let offset = 4 + length;
    for (const [path, size] of index) {
      const cut = path.lastIndexOf("/"), dir = path.slice(0, cut);
      let folder = folders.get(dir);
      if (!folder) {
        FS.mkdirTree(dir);
        folder = FS.lookupPath(dir).node;
        folders.set(dir, folder);
      }
      const name = path.slice(cut + 1);
      if (name in folder.contents) FS.unlink(path);  // none is there after a restore
      const node = MEMFS.createNode(folder, name, 0o100644, 0);
      node.contents = bundle.subarray(offset, offset + size);
      node.usedBytes = size;
      offset += size;
    }
    if (offset !== bundle.length) throw new Error("Dateien des Abbilds unvollständig");
  }

  // Everything of the restore that needs no option of the kernel's: the manifest, the
  // snapshot, Pyodide with it, the files. Resolves to what finish() needs.
  //
  // Pyodide gets the snapshot as an array of the manifest's length at once, before its bytes
  // are there: it compiles and starts its WebAssembly (0.5 s and more of a first visit) while
  // the reader gets them, and restores them once they are in that array — its start waits
  // for its `fsInit` hook, which waits for them. They are put in whole or not at all: an
  // array without the snapshot's first bytes (Pyodide's magic number) is refused.
  async function begin(real, base, name, fetch = fetchResponse) {
    const started = Date.now();
    // asked anew on each visit (a stale one would name the cached snapshot of an older build)
    const manifestP = fetch(`${base}${name}.json`, { cache: "no-cache" })
      .then(bytesOf).then((b) => JSON.parse(new TextDecoder().decode(b)));
    const read = reading(`${base}%(reader)s`, fetch);
    const snapshotUrl = `${base}${name}.snapshot`, filesUrl = `${base}${name}.files`;
    const snapshotP = manifestP.then((m) => read(snapshotUrl, m.id, m.bytes, "Abbild"));
    // the files after the snapshot: needed only after the restore, and unpacked at the same
    // time they would delay it
    const filesP = Promise.all([manifestP, snapshotP])
      .then(([m]) => read(filesUrl, m.id, undefined, "Dateien des Abbilds"));
    Promise.allSettled([snapshotP, filesP]).then(read.done);
    const targetP = manifestP.then((manifest) => {
      try {
        new WebAssembly.Memory({ initial: Math.ceil(manifest.bytes / 65536) });
      } catch (err) {
        throw new Error(`zu wenig Speicher für ${manifest.bytes} Bytes (${err.message})`);
      }
      return new Uint8Array(manifest.bytes);
    });
    const readP = Promise.all([targetP, snapshotP]).then(([target, snapshot]) => target.set(snapshot.bytes));
    for (const p of [manifestP, snapshotP, filesP, targetP, readP]) p.catch(() => {});  // awaited below
    const current = { py: null };
    let py;
    try {
      py = await real({ indexURL: base, _loadSnapshot: targetP, _snapshotDeserializer: deserializer(current),
                        fsInit: () => readP.catch(() => {}) });
    } catch (err) {
      await readP;  // a failed read says more than Pyodide's refusal of an incomplete snapshot
      throw err;
    }
    current.py = py;
    const manifest = await manifestP;
    Object.assign(py.loadedPackages, manifest.loaded);
    const [snapshot, files] = [await snapshotP, await filesP];
    const fetched = [[snapshotUrl, snapshot], [filesUrl, files]].filter(([, got]) => !got.cached);
    const cache = fetched.length && manifest.id ? await openCache() : null;
    // copied into the responses now, before Python may change a file it owns
    if (cache) keep(cache, manifest.id, fetched.map(([url, got]) => [url, got.bytes]));
    writeFiles(py, files.bytes);
    return { py, manifest, started, restored: Date.now(), cached: !fetched.length };
  }

  // The kernel mounts JupyterLite's drive (DriveFS) at DRIVE and then moves into the page's
  // folder (os.chdir), whose lookup is a synchronous request that the page answers once its
  // main thread is free: 0.04 s, or over a second while the page is still starting. The
  // site's folders are known from the build (manifest.folders): as soon as the drive is
  // mounted they are put in its node cache as its own lookup would (DriveFS.createNode,
  // the drive's directory mode), so that the kernel's start asks the page nothing. Any
  // failure leaves the lookup to the page, as without this.
  const DRIVE = "%(drive)s", DIR_MODE = 0o40777;
  function knowFolders(FS, folders) {
    const mount = FS.mount;
    FS.mount = function (type, opts, mountpoint) {
      const root = mount.apply(this, arguments);
      if (mountpoint !== DRIVE) return root;
      FS.mount = mount;
      try {
        for (const name of folders) type.createNode(root, name, DIR_MODE, 0);
      } catch (err) {
        console.info(`bohnteach: Ordner des Laufwerks nicht vorab bekannt (${(err && err.message) || err})`);
      }
      return root;
    };
  }

  // What the kernel's options ask of the restored Python: its packages, its output, the
  // page's address; a fresh random state.
  function finish(begun, options) {
    const { py, manifest } = begun;
    const missing = (options.packages || []).filter((p) => !manifest.packages.includes(p));
    if (missing.length) throw new Error(`Abbild ohne ${missing.join(", ")}`);
    if (manifest.folders) knowFolders(py.FS, manifest.folders);
    if (options.stdout) py.setStdout({ batched: options.stdout });
    if (options.stderr) py.setStderr({ batched: options.stderr });
    const after = py.runPython(AFTER_RESTORE, { globals: py.toPy({}) });
    after(py.toPy(options.env || {}));
    after.destroy();
    const from = begun.cached ? "aus dem Browser-Speicher" : "geladen";
    const early = begun.asked === undefined ? ""
      : `, früh begonnen, der Kernel wartete ${Math.max(0, begun.restored - begun.asked) / 1000} s`;
    console.info(`bohnteach: Python aus dem Abbild gestartet (${(begun.restored - begun.started) / 1000} s, ${from}${early})`);
    return py;
  }

  async function restore(real, options, name, fetch = fetchResponse) {
    return finish(await begin(real, options.indexURL, name, fetch), options);
  }

  const g = typeof self !== "undefined" ? self : globalThis;
  g.bohnteachSnapshot = { restore };
  if (typeof importScripts !== "function") return;  // Node: restore() only
  const pyodideScript = (base) => { importScripts(base + "pyodide.js"); return g.loadPyodide; };

  // The early worker (EARLY_PAGE_JS started it with this script and the name EARLY): the
  // restore begins now, while the page still loads JupyterLite; the page hands this worker
  // to JupyterLite as the kernel's, and its script comes in a message.
  if (self.name === "%(early)s" && !g.bohnteachEarly) {
    const base = self.location.href.slice(0, self.location.href.lastIndexOf("/") + 1);
    const real = pyodideScript(base);
    const begun = begin(real, base, "%(name)s");
    begun.catch(() => {});  // said by loadPyodide, which falls back
    g.bohnteachEarly = { base, name: "%(name)s", real, begun };
    self.addEventListener("message", function handOver(event) {
      if (!event.data || event.data.bohnteach !== "kernel") return;
      self.removeEventListener("message", handOver);
      event.stopImmediatePropagation();
      importScripts(event.data.script);  // JupyterLite's kernel worker
    });
    self.postMessage({ bohnteach: "early" });
  }

  g.loadPyodide = async function loadPyodide(options) {
    const name = options[OPTION];
    const { [OPTION]: _name, ...plain } = options;
    const early = g.bohnteachEarly;
    const fits = early && early.name === name && early.base === new URL(options.indexURL, self.location.href).href;
    const real = fits ? early.real : pyodideScript(options.indexURL);
    if (!name) return real(plain);
    try {
      if (!fits) return await restore(real, options, name);
      const asked = Date.now();
      return finish({ ...(await early.begun), asked }, options);
    } catch (err) {
      console.warn(`bohnteach: Abbild nicht nutzbar (${(err && err.message) || err}), Python startet normal.`);
      const storage = cacheStorage();
      if (storage) storage.delete(CACHE).catch(() => {});  // fetched anew next time
      return real(plain);
    }
  };
})();
""" % {"option": OPTION, "early": EARLY, "name": NAME, "drive": DRIVE, "reader": READER_SCRIPT,
       "reading": _READING_JS}


#: Runs in the page right after its settings (a classic script, before JupyterLite's own):
#: starts the kernel's worker at once with :data:`START_SCRIPT` (named :data:`EARLY`), which
#: begins the restore, and hands that worker to JupyterLite when it asks for the kernel's
#: (``new Worker(…/pyodide-kernel-extension/static/….js)``, jupyterlite-pyodide-kernel 0.7):
#: the restore's download and Pyodide's compiling overlap JupyterLite's loading (1–2 s on a
#: first visit) instead of following it. An early worker that did not start (its script
#: failed) is not handed over: JupyterLite's own worker restores as before, one console line
#: says so. Placeholders: ``%(plugin)s``, the kernel's settings key.
EARLY_PAGE_JS = r"""
    <script>
      /* bohnteach: der Kernel startet früh (bohnteach/site/snapshot.py) */
      (function () {
        "use strict";
        var el = document.getElementById("jupyter-config-data");
        var kernel = el && (JSON.parse(el.textContent).litePluginSettings || {})["%(plugin)s"];
        var options = kernel && kernel.loadPyodideOptions;
        if (!options || !options["%(option)s"] || !kernel.pyodideUrl || typeof Worker !== "function") return;
        var Original = window.Worker, early = null, ready = false;
        try {
          early = new Original(new URL(kernel.pyodideUrl, document.baseURI).href, { name: "%(early)s" });
        } catch (err) {
          return;
        }
        early.addEventListener("message", function (event) {
          if (event.data && event.data.bohnteach === "early") ready = true;
        });
        early.addEventListener("error", function () { ready = false; });
        function drop() {
          if (early) early.terminate();
          early = null;
          window.Worker = Original;
        }
        function KernelWorker(script, opts) {
          var href = String(script);
          if (!early || href.indexOf("/pyodide-kernel-extension/static/") < 0) return new Original(script, opts);
          if (!ready || (opts && opts.type === "module")) {
            drop();
            console.info("bohnteach: früher Start nicht bereit, der Kernel startet Python selbst");
            return new Original(script, opts);
          }
          var worker = early;
          early = null;
          window.Worker = Original;
          worker.postMessage({ bohnteach: "kernel", script: new URL(href, document.baseURI).href });
          return worker;
        }
        KernelWorker.prototype = Original.prototype;
        window.Worker = KernelWorker;
        setTimeout(drop, 300000);  // no kernel asked for it: the worker goes
      })();
    </script>"""


def page_script(plugin: str) -> str:
    """:data:`EARLY_PAGE_JS` for the kernel settings key ``plugin``."""
    return EARLY_PAGE_JS % {"plugin": plugin, "option": OPTION, "early": EARLY}


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
        done = subprocess.run([node, "--input-type=module", "-e", _MAKE_JS, str(folder), NAME,
                               str(spec)], capture_output=True, text=True, timeout=MAKE_TIMEOUT)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise SnapshotError(f"Abbild in Node fehlgeschlagen ({done.returncode}):\n{tail}")
    (folder / START_SCRIPT).write_text(START_JS, "utf-8")
    (folder / READER_SCRIPT).write_text(READER_JS, "utf-8")
    manifest = json.loads((folder / f"{NAME}.json").read_text("utf-8"))
    manifest["seconds"] = round(time.monotonic() - started, 1)
    return manifest
