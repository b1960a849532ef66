/* Projector mode ("Beamer-Ansicht"): large type, one section at a time. A section starts
   at a cell with an h1/h2; a box of several scenes (.bt-chapter-scenes) shows one scene
   per section. Page Down / Page Up or the bar at the bottom step through; ?beamer=1 in
   the address or the button switch it on. */
(function () {
  var slides = [], tracked = [], at = 0;
  function build() {
    slides = []; tracked = [];
    var current = null;
    document.querySelectorAll('#rendered_cells [cell-index]').forEach(function (cell) {
      if (!cell.textContent.trim() && !cell.querySelector('svg, canvas, img, input, button')) return;
      if (!current || cell.querySelector('h1, h2')) { current = []; slides.push(current); }
      current.push(cell); tracked.push(cell);
      var scenes = [], index = [];
      cell.querySelectorAll('.bt-chapter-scenes').forEach(function (box) {
        Array.prototype.forEach.call(box.children, function (child) {
          (child.querySelector('.bt-scene-player') ? scenes : index).push(child);
        });
      });
      if (scenes.length) index.forEach(function (part) { tracked.push(part); current.push(part); });
      scenes.forEach(function (scene, i) {
        tracked.push(scene);
        if (i === 0) { current.push(scene); return; }
        current = [cell, scene]; slides.push(current);  /* the scene list only with the first */
      });
    });
  }
  function show(index) {
    at = Math.max(0, Math.min(index, slides.length - 1));
    var on = slides[at] || [];
    tracked.forEach(function (el) { el.classList.toggle('bt-slide-off', on.indexOf(el) < 0); });
    var where = document.querySelector('.bt-slide-where');
    var word = window.bohnteachWord || function (text) { return text; };
    if (where) where.textContent = word('Abschnitt {n} von {total}', { n: at + 1, total: slides.length });
    document.querySelector('.bt-slide-prev').disabled = at === 0;
    document.querySelector('.bt-slide-next').disabled = at >= slides.length - 1;
    window.scrollTo(0, 0);
    var cells = document.getElementById('rendered_cells');
    if (cells) cells.scrollTop = 0;
    fitCharts();
  }
  /* A chart drawn while hidden or at another zoom keeps its old width: plotly measures
     its node again once the new layout is in place. */
  function fitCharts() {
    if (!window.Plotly || !window.Plotly.Plots) return;
    requestAnimationFrame(function () {
      document.querySelectorAll('#rendered_cells .js-plotly-plot').forEach(function (chart) {
        if (chart.offsetParent) window.Plotly.Plots.resize(chart);
      });
    });
  }
  function projector(on) {
    document.body.classList.toggle('bt-projector', on);
    document.querySelector('.bt-projector-toggle').setAttribute('aria-pressed', String(on));
    if (on) { build(); show(0); }
    else { tracked.forEach(function (el) { el.classList.remove('bt-slide-off'); }); fitCharts(); }
  }
  document.addEventListener('click', function (event) {
    var target = event.target.closest ? event.target.closest('button') : null;
    if (!target) return;
    if (target.classList.contains('bt-projector-toggle')) {
      projector(!document.body.classList.contains('bt-projector'));
    } else if (target.classList.contains('bt-slide-next')) show(at + 1);
    else if (target.classList.contains('bt-slide-prev')) show(at - 1);
  });
  document.addEventListener('keydown', function (event) {
    if (!document.body.classList.contains('bt-projector')) return;
    if (event.key === 'PageDown') { show(at + 1); event.preventDefault(); }
    if (event.key === 'PageUp') { show(at - 1); event.preventDefault(); }
  });
  window.addEventListener('load', function () {
    if (/[?&]beamer=1\b/.test(location.search)) {
      var wait = setInterval(function () {
        if (!document.getElementById('loading')) { clearInterval(wait); projector(true); }
      }, 200);
    }
  });
})();
