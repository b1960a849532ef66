/* A quiet console for visitors. Voilà 0.5.13's page carries JupyterLab 4.2.5, and the
   two widget extensions every page needs (@jupyter-widgets/jupyterlab-manager 5.0.15,
   Voilà's own @voila-dashboards/widgets-manager8) were built against 4.4.6 / 4.5.10:
   webpack warns once per shared module (13 times a page) and uses the page's copy, as
   a newer minor of the same major allows (upstream voila-dashboards/voila#1514). Only
   these warnings are dropped; a different major, or any other module, still warns. */
(function () {
  var warn = console.warn;
  var UNSATISFIED = /^Unsatisfied version (\d+)\.[\d.]+ from _JUPYTERLAB\.CORE_OUTPUT of shared singleton module @jupyterlab\/[\w-]+ \(required \^(\d+)\.[\d.]+\)$/;
  var NO_MATCH = /^No satisfying version \(\^(\d+)\.[\d.]+\) of shared module @jupyterlab\/[\w-]+ found in shared scope default\.\nAvailable versions: (\d+)\.[\d.]+ from _JUPYTERLAB\.CORE_OUTPUT$/;
  console.warn = function (msg) {
    var m = arguments.length === 1 && typeof msg === 'string' && (UNSATISFIED.exec(msg) || NO_MATCH.exec(msg));
    if (m && m[1] === m[2]) return;
    return warn.apply(console, arguments);
  };
})();
