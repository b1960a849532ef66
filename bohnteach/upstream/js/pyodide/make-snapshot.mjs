/* bohnteach: the snapshot of the site's Python, made in Node at build time
   (bohnteach/site/snapshot.py: make_snapshot). argv: Pyodide's folder, the snapshot's name,
   a JSON file with {packages, modules, available, warm, know, files, leave_out}.
   Uses Pyodide's private snapshot API (_makeSnapshot, makeMemorySnapshot): checked with
   bohnteach/upstream/pyodide.py's series. */
import { pathToFileURL } from "node:url";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
const [folder, name, specFile] = process.argv.slice(2);
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
