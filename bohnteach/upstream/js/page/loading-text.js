/* The spinner while the page is prepared says „Gleich geht's los …“ in German, with the
   progress, instead of Voilà's "Running …" / "Executing 3 of 7" (Voilà's page functions
   update_loading_text and voila_process). */
(function () {
  /* in the page's language (bohnteach/site/js/page/words.js, when the page has it) */
  var word = window.bohnteachWord || function (german, params) {
    return german.replace(/\{(\w+)\}/g, function (all, name) { return params ? params[name] : all; });
  };
  var text = document.getElementById('loading_text');
  if (text) text.textContent = word("Gleich geht's los …");
  window.update_loading_text = function (cellIndex, cellCount, message) {
    var spinner = document.getElementById('loading');
    if (spinner && spinner.style.display === 'none') spinner.style.display = 'flex';
    var el = document.getElementById('loading_text');
    if (el) el.textContent = message || word("Gleich geht's los … ({n} von {total})", { n: cellIndex, total: cellCount });
  };
  window.voila_process = window.update_loading_text;
})();
