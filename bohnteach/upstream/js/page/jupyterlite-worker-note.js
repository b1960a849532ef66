/* JupyterLite 0.7 notes which version of its service worker is installed
   ("<worker URL>-version" in localStorage) only on a visit the worker already controls,
   and a visit that finds no note unregisters every worker first. So the second visit of
   every visitor waited about 2 s for that before Python could start. Once the worker is
   ready, the note is written here if it is missing; a note of another version stays, so
   JupyterLite still replaces an old worker after an update of the site. */
document.addEventListener('DOMContentLoaded', function () {
  if (!('serviceWorker' in navigator) || navigator.serviceWorker.controller) return;
  var config = document.getElementById('jupyter-config-data');
  var version = config ? (JSON.parse(config.textContent || '{}').appVersion || '') : '';
  if (!version) return;
  navigator.serviceWorker.ready.then(function (registration) {
    var worker = registration.active;
    if (!worker) return;
    var key = worker.scriptURL + '-version';
    try {
      if (localStorage.getItem(key) === null) localStorage.setItem(key, version);
    } catch (err) { /* no storage (private mode): JupyterLite's own behaviour */ }
  });
});
