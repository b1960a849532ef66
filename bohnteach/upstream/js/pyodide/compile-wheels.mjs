/* bohnteach: Pyodide compiles every module under a host folder to bytecode beside its source
   (mod.py -> mod.pyc), run by Node at build time (bohnteach/site/static.py: byte_compiled).
   argv: Pyodide's folder, the folder of unpacked wheels. */
import { pathToFileURL } from "node:url";
const [core, folder] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(core + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: core + "/" });
py.FS.mkdir("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/wheels");
py.runPython(`
import compileall, py_compile, re, warnings
warnings.simplefilter("ignore")  # a package's invalid escape sequences are its own affair
compileall.compile_dir("/wheels", quiet=2, legacy=True, workers=1,
                       rx=re.compile(r"[.](data|dist-info)/"),  # scripts, metadata: as they are
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
