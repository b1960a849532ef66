/* The app's page (bohnteach.site.app, body.bt-app-static): its own preview is the start
   page's. An address that names another chapter or lesson (?kapitel=…, ?lektion=…) shows
   that page's preview instead, taken from the page's own file (markdown and the build's
   outputs), until Python has started and the app shows the page itself. The build's pages
   are German: an address in another language (&lang=en) shows the page's preview in that
   language, which the build wrote beside the page (<page>.en.json, one HTML part per cell). */
(function () {
  if (!document.body || !document.body.classList.contains('bt-app-static')) return;
  /* the address scheme (bohnteach/site/addresses.py), which the template puts in the page */
  var addresses = JSON.parse(document.getElementById('bohnteach-addresses').textContent);
  var lesson = addresses.lessons.key, chapter = addresses.chapters.key;
  var query = new URLSearchParams(location.search);
  var key = query.has(lesson) ? lesson : (query.has(chapter) ? chapter : '');
  var name = key ? query.get(key) : '';
  var lang = (query.get(addresses.lang.key) || '').toLowerCase();
  var other = lang !== addresses.lang.source && Boolean(addresses.lang.languages[lang]);
  var valid = /^[0-9]{2}_[A-Za-z0-9_]+$/.test(name);
  if (other) {
    if (!key) name = addresses.start;
  } else if (!valid || name === addresses.start) {
    return;
  }
  /* decided before the page's cells are parsed: the start page's German preview, which the
     page holds, never shows while the one the address names is fetched */
  var body = document.body;
  body.classList.add('bt-preview-waits');

  document.addEventListener('DOMContentLoaded', function () {
    var preview = document.querySelector('.bt-preview');
    if (!preview || (other && key && !valid)) { shown(''); return; }
    /* the app is a chapter's neighbour (notebooks/app.html); a lesson lives in its own folder */
    var page = (key === lesson ? '../' + addresses.lessons.folder + '/' : '') + name;
    fetch(other ? page + '.' + lang + '.json' : page + '.html')
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (text) {
        var parts = other ? JSON.parse(text).parts : germanParts(text);
        /* one box per cell, as on the chapter's page: the page's styles lay out markdown and
           outputs as table cells, which would otherwise stand side by side */
        if (parts.length) shown('<div>' + parts.join('</div><div>') + '</div>');
        else shown(other ? '' : null);
      })
      .catch(function (why) {
        shown(other ? '' : null);  /* never the German preview on a page in another language */
        console.info('bohnteach: keine Vorschau für ' + name + ' (' + why + ')');
      });

    function shown(html) {
      if (preview && html !== null) preview.innerHTML = html;
      body.classList.remove('bt-preview-waits');
    }
  });

  /* a built page's previews, cell by cell: a cell's preview stands beside its .jp-Cell */
  function germanParts(text) {
    var built = new DOMParser().parseFromString(text, 'text/html');
    var parts = [];
    built.querySelectorAll('#rendered_cells [cell-index]').forEach(function (cell) {
      var outputs = cell.querySelector('.bt-preview');
      var markdown = cell.querySelector('.jp-MarkdownOutput');
      if (outputs) parts.push(outputs.innerHTML);
      else if (markdown) parts.push(markdown.outerHTML);
    });
    return parts;
  }
})();
