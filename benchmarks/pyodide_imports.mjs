// Import time of a static page's kernel stack in Pyodide (Node's V8), from the wheels'
// sources or byte-compiled first: what compiling the wheels at build time would save.
//
//   node benchmarks/pyodide_imports.mjs BUILD_DIR py|pyc
//
// BUILD_DIR is a `bohnteach build-static` folder (Pyodide and the wheels under
// static/pyodide/). Prints milliseconds; run each mode twice, alternating.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [build, mode = "py"] = process.argv.slice(2);
if (!build || !["py", "pyc"].includes(mode)) {
  console.error("usage: node benchmarks/pyodide_imports.mjs BUILD_DIR py|pyc");
  process.exit(2);
}
const core = path.resolve(build, "static", "pyodide") + path.sep;
const { loadPyodide } = await import(pathToFileURL(core + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: core });
const packages = ["micropip", "piplite", "ipykernel", "comm", "ipython", "ipywidgets",
                  "pyodide_kernel", "bohnteach", "plotly", "sqlite3", "jedi"];
const timed = async (work) => { const t = performance.now(); await work(); return Math.round(performance.now() - t); };

const load = await timed(() => py.loadPackage(packages, { messageCallback: () => {} }));
if (mode === "pyc") {  // bytecode next to every module, as a byte-compiled wheel would bring
  py.runPython("import compileall, site\n" +
               "for p in site.getsitepackages(): compileall.compile_dir(p, quiet=2)");
}
const kernel = await timed(() => py.runPython("import IPython, ipykernel, comm, ipywidgets, pyodide_kernel"));
const pages = await timed(() => py.runPython("from bohnteach.site import pages"));
console.log(`${mode}: loadPackage ${load} ms; import the kernel's stack ${kernel} ms; ` +
            `from bohnteach.site import pages ${pages} ms`);
