/* bohnteach: Python from the snapshot (bohnteach-start.js, the kernel's pyodideUrl; after
   reading.js in one function with CONFIG {option, early, name, drive, reader, cache,
   idHeader}): a classic script, run by importScripts in the kernel's worker
   (jupyterlite-pyodide-kernel 0.7), that defines self.loadPyodide, which restores the
   snapshot the kernel's settings name, else or on any failure starts Pyodide as usual. In
   Node (the tests) it only defines globalThis.bohnteachSnapshot.restore. */
const OPTION = CONFIG.option;

// whole() as read(url, id, length, what): by the reader (reader.js, from `script`), else
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
  const read = reading(`${base}${CONFIG.reader}`, fetch);
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
const DRIVE = CONFIG.drive, DIR_MODE = 0o40777;
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
if (self.name === CONFIG.early && !g.bohnteachEarly) {
  const base = self.location.href.slice(0, self.location.href.lastIndexOf("/") + 1);
  const real = pyodideScript(base);
  const begun = begin(real, base, CONFIG.name);
  begun.catch(() => {});  // said by loadPyodide, which falls back
  g.bohnteachEarly = { base, name: CONFIG.name, real, begun };
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
