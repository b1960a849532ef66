/* bohnteach: the page's address to Python (a page script right after the page's settings,
   before Voici starts; in one function with CONFIG {plugin}): the query string becomes
   QUERY_STRING in the kernel's environment (Pyodide's env option; after a snapshot's restore
   the start script puts it into os.environ), where bohnteach.widgets.questions reads it
   outside Voilà, so ?lehrkraft=1 works. */
var el = document.getElementById('jupyter-config-data');
if (!el || !location.search) return;
var config = JSON.parse(el.textContent);
var plugins = config.litePluginSettings = config.litePluginSettings || {};
var kernel = plugins[CONFIG.plugin] = plugins[CONFIG.plugin] || {};
var options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {};
options.env = Object.assign({}, options.env, {QUERY_STRING: location.search.slice(1)});
el.textContent = JSON.stringify(config);
