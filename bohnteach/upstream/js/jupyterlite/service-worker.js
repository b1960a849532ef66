/* bohnteach: the site's files are left to the browser (the site's service-worker.js, in one
   function with CONFIG {jupyterliteWorker}): JupyterLite's worker, imported from beside it,
   answers its API (/api/drive, the kernel's synchronous file requests; /api/stdin/; its
   heartbeat); this listener runs first and stops every other request before JupyterLite's
   listener can answer it, so the browser loads it itself (and keeps V8's code cache). */
self.addEventListener("fetch", (event) => {
  if (!new URL(event.request.url).pathname.includes("/api/")) event.stopImmediatePropagation();
});
importScripts("./" + CONFIG.jupyterliteWorker);
