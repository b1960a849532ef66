/* bohnteach: the kernel starts early (a page script right after the page's settings, before
   JupyterLite's own; in one function with CONFIG {plugin, option, early}): starts the
   kernel's worker at once with the start script (named CONFIG.early), which begins the
   restore, and hands that worker to JupyterLite when it asks for the kernel's
   (new Worker(…/pyodide-kernel-extension/static/….js), jupyterlite-pyodide-kernel 0.7: its
   window.Worker is replaced until then). An early worker that did not start is not handed
   over: JupyterLite's own worker restores as before, one console line says so. */
var el = document.getElementById("jupyter-config-data");
var kernel = el && (JSON.parse(el.textContent).litePluginSettings || {})[CONFIG.plugin];
var options = kernel && kernel.loadPyodideOptions;
if (!options || !options[CONFIG.option] || !kernel.pyodideUrl || typeof Worker !== "function") return;
var Original = window.Worker, early = null, ready = false;
try {
  early = new Original(new URL(kernel.pyodideUrl, document.baseURI).href, { name: CONFIG.early });
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
