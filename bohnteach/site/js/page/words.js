/* The frame's words in the page's language (issue 56). The page's own texts come from the
   kernel in the reader's language; the frame around them (the template's buttons, the
   projector's bar, the spinner, a lost connection) is the same HTML for every language,
   so its words are German in the page and their translations arrive as JSON
   (bohnteach-words: {lang: {German: translation}}, bohnteach/site/publish.py: FRAME_WORDS,
   from the `ui` catalogue). The page's language is <html lang> (the app sets it for the
   page it shows). window.bohnteachWord(german, {name: value}) gives a text in it; an
   element with data-bt-word (its text) or data-bt-label (its aria-label) is worded anew
   whenever <html lang> changes. */
(function () {
  var words = {};
  try {
    words = JSON.parse(document.getElementById('bohnteach-words').textContent);
  } catch (e) { /* not a page of the site: German */ }
  function word(german, params) {
    var lang = document.documentElement.lang;
    var text = (words[lang] && words[lang][german]) || german;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return params && name in params ? String(params[name]) : all;
    });
  }
  window.bohnteachWord = word;
  /* The app's page (Voilà's root, the static site's notebooks/app.html) shows the page its
     address names, in the address's language: its frame speaks it from the start (the
     kernel confirms it when the page arrives, bohnteach/site/app.py: Router.lang). */
  try {
    var addresses = JSON.parse(document.getElementById('bohnteach-addresses').textContent);
    var config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
    var app = location.pathname === (config.baseUrl || '/')
      || location.pathname.endsWith('/' + addresses.chapters.folder + '/' + addresses.app + '.html');
    var asked = (new URLSearchParams(location.search).get(addresses.lang.key) || '').toLowerCase();
    if (app && addresses.lang.languages[asked]) document.documentElement.lang = asked;
  } catch (e) { /* not a page of the site */ }
  function reword() {
    document.querySelectorAll('[data-bt-word]').forEach(function (el) {
      var text = word(el.getAttribute('data-bt-word'));
      if (el.textContent !== text) el.textContent = text;
    });
    document.querySelectorAll('[data-bt-label]').forEach(function (el) {
      el.setAttribute('aria-label', word(el.getAttribute('data-bt-label')));
    });
  }
  new MutationObserver(reword).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', reword);
  else reword();
})();
