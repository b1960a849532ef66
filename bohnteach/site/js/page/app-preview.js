/* The app's page (bohnteach.site.app, body.bt-app-static): its own preview is the start
   page's (German; in another language, none). An address that names another chapter or lesson (?kapitel=…, ?lektion=…) shows
   that page's preview instead, taken from the page's own file (markdown and the build's
   outputs), until Python has started and the app shows the page itself. */
document.addEventListener('DOMContentLoaded', function () {
  if (!document.body.classList.contains('bt-app-static')) return;
  /* the address scheme (bohnteach/site/addresses.py), which the template puts in the page */
  var addresses = JSON.parse(document.getElementById('bohnteach-addresses').textContent);
  var lesson = addresses.lessons.key, chapter = addresses.chapters.key;
  var query = new URLSearchParams(location.search);
  var key = query.has(lesson) ? lesson : (query.has(chapter) ? chapter : '');
  var name = key ? query.get(key) : '';
  var preview = document.querySelector('.bt-preview');
  /* the build's previews are German: an address in another language shows none (the
     banner, in the page's language, says that Python is starting) */
  var lang = (query.get(addresses.lang.key) || '').toLowerCase();
  if (preview && lang !== addresses.lang.source && addresses.lang.languages[lang]) {
    preview.innerHTML = '';
    return;
  }
  if (!preview || !/^[0-9]{2}_[A-Za-z0-9_]+$/.test(name) || name === addresses.start) return;
  preview.style.visibility = 'hidden';
  /* the app is a chapter's neighbour (notebooks/app.html); a lesson lives in its own folder */
  fetch((key === lesson ? '../' + addresses.lessons.folder + '/' : '') + name + '.html')
    .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
    .then(function (text) {
      var page = new DOMParser().parseFromString(text, 'text/html');
      var parts = [];
      /* a cell's preview stands beside its .jp-Cell, in the cell's own box */
      page.querySelectorAll('#rendered_cells [cell-index]').forEach(function (cell) {
        var outputs = cell.querySelector('.bt-preview');
        var markdown = cell.querySelector('.jp-MarkdownOutput');
        if (outputs) parts.push(outputs.innerHTML);
        else if (markdown) parts.push(markdown.outerHTML);
      });
      /* one box per cell, as on the chapter's page: the page's styles lay out markdown and
         outputs as table cells, which would otherwise stand side by side */
      if (parts.length) preview.innerHTML = '<div>' + parts.join('</div><div>') + '</div>';
    })
    .catch(function (why) { console.info('bohnteach: keine Vorschau für ' + name + ' (' + why + ')'); })
    .then(function () { preview.style.visibility = ''; });
});
