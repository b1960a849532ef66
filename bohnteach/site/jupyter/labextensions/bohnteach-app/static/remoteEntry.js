/* bohnteach's one-page app in the browser (bohnteach/site/app.py is the kernel's half).

   Written by hand, without a build step, like bohnteach-charts: a JupyterLab federated
   extension is a script that puts a container {init, get} into window._JUPYTERLAB. Voilà and
   Voici load it on every page, pass their shared modules to init (this file takes
   @jupyter-widgets/base and @jupyterlab/rendermime from there) and ask get() for
   "./extension": three plugins, one registering the widget models (RouterModel, KlasseModel,
   LehrkraftModel), one for formulas, one for a lost kernel connection (below).

   On every page of the site, links to the site's own pages (chapters in notebooks/, lessons
   in tutorials/, written as notebook addresses or as app addresses) get the app's address
   (?kapitel=02_Phase_1, ?lektion=01_Bohnentreppe; a link's own ?klasse= kept) and no target, so they
   open in the same tab (JupyterLab's renderer gives every rendered link target="_blank").
   In the app (a RouterModel exists) a click on such a link does not load a page: the
   address is pushed onto the history and the kernel is told the new route; Back and Forward
   do the same; the tab's title follows the page the kernel shows.

   The reader's language is part of the address (&lang=en; none: German, the source): a
   link keeps the language of the page it is on unless it names one itself, <html lang>
   follows the page the kernel shows (Router.lang), and the switch in the page's bar
   („Deutsch · English“, the template's .bt-lang) and the page's <link rel="alternate"
   hreflang> name the same page in each language. A page's own address in another language
   (…/02_Phase_1.ipynb?lang=en) opens the app, which makes pages in every language. The
   choice made in the switch is remembered in this browser only to decide where the bare
   root sends a returning reader.

   Formulas: JupyterLab hands every rendered markdown cell and HTML output to MathJax, whose
   first call loads some 0.8 MB of scripts (compiled and run on the page's main thread)
   and then searches the text, also on a page without a single formula; the site has none
   today. The page's typesetter is asked only for a text that can hold one (MathJax's
   delimiters as JupyterLab sets them): a page with a formula still gets it typeset. */
(function () {
  'use strict';
  var NAME = 'bohnteach-app';
  var VERSION = '1.0.0';
  /* The site's address scheme (bohnteach/site/addresses.py: page_config), which every page
     of the site carries as JSON: chapters and lessons with their key and folder, the start
     page, the app. A page without it (not one of the site's) keeps its links as they are. */
  var ADDRESSES = null;
  try {
    ADDRESSES = JSON.parse(document.getElementById('bohnteach-addresses').textContent);
  } catch (e) { /* not a page of the site */ }
  var CHAPTERS = ADDRESSES ? ADDRESSES.chapters : {}, LESSONS = ADDRESSES ? ADDRESSES.lessons : {};
  var PAGE = new RegExp('^(.*/)(' + CHAPTERS.folder + '|' + LESSONS.folder + ')/([A-Za-z0-9_]+)\\.(ipynb|html)$');
  var LANG = ADDRESSES ? ADDRESSES.lang : { key: 'lang', languages: {}, source: 'de' };
  var LANG_STORE = 'bohnteach-sprache';
  var KEYS = {};
  KEYS[CHAPTERS.folder] = CHAPTERS.key;
  KEYS[LESSONS.folder] = LESSONS.key;
  /* Parameters a link inside the site keeps from its own address: the class link (and its
     QR code) names the class. Nothing is carried over from the page's address: the browser
     remembers the class (KlasseModel) and the teacher view (LehrkraftModel) itself, and
     `lehrkraft` must never stand in a link a pupil sees or the projector shows. */
  var KEEP = ['klasse'];
  var router = null;         /* the app's RouterModel, once this page is the app */
  var hash = '';             /* the fragment to scroll to once the kernel has shown the page */
  var config = {};
  try {
    config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  } catch (e) { /* a page without Jupyter's config: links keep their own addresses */ }

  /* Where the app lives: this page when it is the app; otherwise the site's root (Voilà)
     or notebooks/app.html beside the static pages (Voici). */
  function appPath() {
    var static_ = location.pathname.match(PAGE);
    if (router) return location.pathname;
    if (static_ && static_[4] === 'html') return static_[1] + CHAPTERS.folder + '/' + ADDRESSES.app + '.html';
    return config.baseUrl || '/';
  }

  /* The folder relative links of the shown page are written from (the app shows another
     notebook than its own address says). */
  function linkBase() {
    if (!router || !router.get('base')) return location.href;
    var static_ = location.pathname.match(PAGE);
    var root = static_ ? static_[1] : (config.baseUrl || '/') + 'voila/render/';
    return location.origin + root + router.get('base');
  }

  function known(lang) {
    return lang && Object.prototype.hasOwnProperty.call(LANG.languages, lang) ? lang : null;
  }

  /* The language of the page shown (<html lang>: the template's, or the app's page's). */
  function pageLang() {
    return known(document.documentElement.lang) || LANG.source;
  }

  /* {key, name, lang, url} when `url` is a page of the site, else null. Its language: the
     one `url` names, else `lang`, else the shown page's. */
  function sitePage(url, lang) {
    if (!ADDRESSES || url.origin !== location.origin) return null;
    var key = null, name = null, match = url.pathname.match(PAGE);
    if (match && match[3] !== ADDRESSES.app) {
      key = KEYS[match[2]];
      name = match[3];
    } else if (match || url.pathname === appPath()) {
      var params = url.searchParams;
      key = params.has(LESSONS.key) ? LESSONS.key : CHAPTERS.key;
      name = params.get(key) || ADDRESSES.start;
    } else {
      return null;
    }
    var query = new URLSearchParams();
    query.set(key, name);
    KEEP.forEach(function (k) {
      var value = url.searchParams.get(k);
      if (value) query.set(k, value);
    });
    var named = (url.searchParams.get(LANG.key) || '').toLowerCase();
    var own = known(named) || (named ? LANG.source : null) || lang;
    lang = own || pageLang();
    if (lang !== LANG.source) query.set(LANG.key, lang);
    return { key: key, name: name, lang: lang, own: !!own,
             url: appPath() + '?' + query.toString() + url.hash };
  }

  var RELATIVE = /^(?![a-z][a-z0-9+.-]*:|\/|#|\?)/i;

  /* Give a link to a page of the site the app's address and no target; returns the page. */
  function fix(a) {
    var raw = a.getAttribute('href');
    if (raw === null || raw.charAt(0) === '#') return null;
    if (a.dataset.btPage === raw) {
      /* a link that took the shown page's language keeps up with it: the kernel's new page
         arrives (and is fixed) before arrive() sets <html lang> to its language */
      if (!('btLangShown' in a.dataset) || a.dataset.btLang === pageLang())
        return sitePage(new URL(raw, location.href), a.dataset.btLang);
      var shown = new URL(raw, location.href);
      shown.searchParams.delete(LANG.key);
      raw = shown.href;
    }
    var url;
    try {
      url = new URL(raw, RELATIVE.test(raw) ? linkBase() : location.href);
    } catch (e) {
      return null;
    }
    var page = sitePage(url);
    if (!page) return null;
    a.setAttribute('href', page.url);
    a.removeAttribute('target');
    a.dataset.btPage = page.url;
    a.dataset.btLang = page.lang;
    if (page.own) delete a.dataset.btLangShown; else a.dataset.btLangShown = '';
    return page;
  }

  /* The switch and the alternates: the page shown, in each language. */
  function languages() {
    var bare = new URL(location.href);
    bare.searchParams.delete(LANG.key);
    var here = sitePage(bare, LANG.source);
    var hrefs = {};
    Object.keys(LANG.languages).forEach(function (lang) {
      hrefs[lang] = here ? sitePage(bare, lang).url
        : '?' + (lang === LANG.source ? '' : LANG.key + '=' + lang);
    });
    var shown = pageLang();
    document.querySelectorAll('.bt-lang a[data-bt-lang]').forEach(function (a) {
      var lang = a.dataset.btLang;
      a.setAttribute('href', hrefs[lang]);
      a.dataset.btPage = hrefs[lang];
      delete a.dataset.btLangShown;  /* names its language */
      if (lang === shown) a.setAttribute('aria-current', 'true'); else a.removeAttribute('aria-current');
    });
    var head = document.head;
    head.querySelectorAll('link[rel=alternate][data-bt-lang]').forEach(function (l) { l.remove(); });
    Object.keys(hrefs).concat(['x-default']).forEach(function (lang) {
      var link = document.createElement('link');
      link.rel = 'alternate';
      link.hreflang = lang;
      link.dataset.btLang = lang;
      link.href = new URL(hrefs[lang === 'x-default' ? LANG.source : lang], location.href).href;
      head.appendChild(link);
    });
  }

  /* A page's own address in another language: the app shows it (it makes every language). */
  (function () {
    var asked = known((new URLSearchParams(location.search).get(LANG.key) || '').toLowerCase());
    var match = location.pathname.match(PAGE);
    if (ADDRESSES && asked && asked !== LANG.source && match && match[3] !== ADDRESSES.app) {
      location.replace(sitePage(new URL(location.href)).url);
    }
  })();
  languages();

  /* The switch's choice, remembered for the bare root (RouterModel.initialize). */
  window.addEventListener('click', function (event) {
    var a = anchorOf(event);
    if (!a || !a.closest('.bt-lang') || !known(a.dataset.btLang)) return;
    try { window.localStorage.setItem(LANG_STORE, a.dataset.btLang); } catch (e) { /* blocked */ }
  }, true);

  function fixAll() {
    document.querySelectorAll('a[href]').forEach(fix);
  }

  var scheduled = false;
  new MutationObserver(function () {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () { scheduled = false; fixAll(); });
  }).observe(document.documentElement, { childList: true, subtree: true });

  function anchorOf(event) {
    var node = event.target;
    return node && node.closest ? node.closest('a[href]') : null;
  }

  /* Before the browser uses a link (hover, focus, middle click, context menu): its address. */
  ['mouseover', 'focusin', 'mousedown', 'touchstart', 'contextmenu'].forEach(function (type) {
    window.addEventListener(type, function (event) {
      var a = anchorOf(event);
      if (a) fix(a);
    }, true);
  });

  window.addEventListener('click', function (event) {
    var a = anchorOf(event);
    var page = a && fix(a);
    if (!page || !router || event.defaultPrevented || event.button !== 0
        || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    go(page.url, true);
  }, true);

  window.addEventListener('popstate', function () {
    if (router) go(location.href, false);
  });

  /* Show `url` in the app: ask the kernel, or load the page if the kernel is gone. */
  function go(url, push) {
    var target = new URL(url, location.href);
    var route = target.search.replace(/^\?/, '');
    if (!router.comm_live) {
      location.assign(target.href);
      return;
    }
    if (push) history.pushState({ bohnteach: true }, '', target.pathname + target.search + target.hash);
    if (router.get('route') === route) {
      if (push) arrive();  /* Back to a fragment of the same page: the browser places it */
      return;
    }
    hash = target.hash;
    document.body.classList.add('bt-app-switching');
    router.set('route', route);
    router.save_changes();
  }

  /* The kernel has shown a page: title, scroll position and focus follow it. */
  function arrive() {
    document.body.classList.remove('bt-app-switching');
    document.documentElement.lang = router.get('lang') || LANG.source;
    languages();
    fixAll();  /* the links that take the page's language: now the shown page's */
    document.title = router.get('title') || document.title;
    document.documentElement.dataset.btShown = router.get('route');  /* tests wait for it */
    var wanted = hash ? decodeURIComponent(hash.slice(1)) : '';
    var tries = 0;
    (function place() {
      var target = wanted ? document.getElementById(wanted) : document.querySelector('.bt-app h1');
      if (!target && tries++ < 60) {
        requestAnimationFrame(place);
        return;
      }
      if (target && wanted) {
        target.scrollIntoView();
      } else {
        window.scrollTo(0, 0);
        if (target) {
          target.setAttribute('tabindex', '-1');
          target.focus({ preventScroll: true });
        }
      }
    })();
  }

  /* The teacher view (bohnteach/widgets/teacher_view.py): what the address asked for
     (?lehrkraft=…, taken out of the address bar at once, so a projected or copied address
     never shows it) and what this browser keeps (localStorage, "1" or the server's code).
     The kernel checks both and answers what to keep. */
  var TEACHER_KEY = 'bohnteach-lehrkraft';
  var askedTeacher = (function () {
    var params = new URLSearchParams(location.search);
    if (!params.has('lehrkraft')) return null;
    var value = params.get('lehrkraft');
    params.delete('lehrkraft');
    var rest = params.toString();
    try {
      history.replaceState(history.state, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
    } catch (e) { /* an address that cannot be replaced keeps it */ }
    return value;
  })();
  function keptTeacher() {
    try { return window.localStorage.getItem(TEACHER_KEY) || ''; } catch (e) { return ''; }
  }
  /* Run fn once the widget manager has every model the kernel had when the page connected:
     a model made in that bulk restore that asks the kernel at once gets answers (changes
     of other models) that are lost for models whose connection is not there yet (a
     teacher banner left empty). At most 10 s (a restore that failed). */
  function whenRestored(manager, fn) {
    if (!manager || !manager.restored || manager.restoredStatus !== false) return fn();
    var done = false;
    var once = function () {
      if (done) return;
      done = true;
      clearTimeout(timer);
      manager.restored.disconnect(once);
      fn();
    };
    var timer = setTimeout(once, 10000);
    manager.restored.connect(once);
  }
  /* A class panel (KlasseModel) asks the kernel once the teacher view has been told, so the
     kernel's teacher_mode() is right when the panel decides; only a browser with something
     to tell waits (for a page without a LehrkraftModel at most 10 s). */
  var teacherGate = { open: false, waiting: [], timer: 0 };
  function openTeacherGate() {
    teacherGate.open = true;
    clearTimeout(teacherGate.timer);
    teacherGate.waiting.splice(0).forEach(function (fn) { fn(); });
  }
  function afterTeacher(manager, fn) {
    whenRestored(manager, function () {
      if (teacherGate.open || (askedTeacher === null && !keptTeacher())) return fn();
      teacherGate.waiting.push(fn);
      if (!teacherGate.timer) teacherGate.timer = setTimeout(openTeacherGate, 10000);
    });
  }

  var style = document.createElement('style');
  style.textContent = '.bt-app-switching .bt-app{opacity:.55;transition:opacity .15s .1s}'
    + '.bt-app-switching{cursor:progress}.bt-app h1:focus{outline:none}'
    + '.bt-connection-lost{position:fixed;top:0;left:0;right:0;z-index:10000;display:flex;'
    + 'flex-wrap:wrap;align-items:center;gap:8px 16px;padding:12px 16px;background:#B71C1C;'
    + 'color:#fff;font-size:16px;line-height:1.4;box-shadow:0 2px 8px rgba(0,0,0,.35)}'
    + '.bt-connection-lost p{margin:0;flex:1 1 280px}'
    + '.bt-connection-lost button{min-height:44px;padding:8px 18px;font-size:16px;font-weight:bold;'
    + 'color:#B71C1C;background:#fff;border:2px solid #fff;border-radius:6px;cursor:pointer}'
    + '.bt-connection-lost button:focus-visible{outline:3px solid #FFD54F;outline-offset:2px}'
    + '@media print{.bt-connection-lost{display:none}}';
  document.head.appendChild(style);

  function extension(base) {
    class RouterModel extends base.WidgetModel {
      defaults() {
        return Object.assign({}, super.defaults(), {
          _model_name: 'RouterModel', _model_module: NAME, _model_module_version: VERSION,
          _view_name: null, _view_module: null, _view_module_version: '',
          route: '', base: '', title: '', shown: 0
        });
      }

      initialize(attributes, options) {
        super.initialize(attributes, options);
        router = this;
        history.scrollRestoration = 'manual';  /* the page arrives after the browser would restore */
        if (this.get('title')) document.title = this.get('title');
        document.documentElement.lang = this.get('lang') || LANG.source;
        document.documentElement.dataset.btShown = this.get('route');
        this.on('change:title', function () { document.title = this.get('title'); }, this);
        this.on('change:shown', arrive);
        this.on('destroy', function () { if (router === this) router = null; }, this);
        fixAll();
        languages();
        /* the bare root: a returning reader's language, if the switch chose one here */
        var chosen = null;
        try { chosen = known(window.localStorage.getItem(LANG_STORE)); } catch (e) { /* blocked */ }
        if (!location.search && chosen && chosen !== LANG.source && this.comm_live !== false) {
          history.replaceState(history.state, '', location.pathname + '?' + LANG.key + '=' + chosen + location.hash);
          this.set('route', LANG.key + '=' + chosen);
          this.save_changes();
          languages();
        }
      }
    }

    /* The class panel's memory (bohnteach/widgets/classroom.py): per role (schueler,
       lehrkraft) the class code and the member's token in localStorage, so that a reload
       finds the same member. On creation the browser sends back what it remembers
       (`stored`, JSON) and sets `loaded`; whatever the kernel sets later is remembered. */
    class KlasseModel extends base.WidgetModel {
      defaults() {
        return Object.assign({}, super.defaults(), {
          _model_name: 'KlasseModel', _model_module: NAME, _model_module_version: VERSION,
          _view_name: null, _view_module: null, _view_module_version: '',
          role: '', code: '', token: '', stored: '', loaded: false
        });
      }

      initialize(attributes, options) {
        super.initialize(attributes, options);
        var storage = null;
        try { storage = window.localStorage; } catch (e) { /* blocked: nothing remembered */ }
        var read = function (k) {
          try { return (storage && storage.getItem('bohnteach-klasse-' + k)) || ''; } catch (e) { return ''; }
        };
        this.on('change:code change:token', function () {
          var role = this.get('role');
          if (!storage || !role) return;
          try {
            ['code', 'token'].forEach(function (what) {
              var k = 'bohnteach-klasse-' + role + '-' + what;
              if (this.get(what)) storage.setItem(k, this.get(what)); else storage.removeItem(k);
            }, this);
          } catch (e) { /* storage full or blocked */ }
        }, this);
        var stored = {};
        ['schueler', 'lehrkraft'].forEach(function (role) {
          stored[role] = { code: read(role + '-code'), token: read(role + '-token') };
        });
        afterTeacher(this.widget_manager, function () {
          this.set({ stored: JSON.stringify(stored), loaded: true });
          this.save_changes();
        }.bind(this));
      }
    }

    /* The teacher view's memory (bohnteach/widgets/teacher_view.py): sends what the address
       asked for and what this browser keeps (`stored`, JSON) and sets `loaded`; the kernel
       checks them and answers {keep: credential} or {forget: true, reload: …}. */
    class LehrkraftModel extends base.WidgetModel {
      defaults() {
        return Object.assign({}, super.defaults(), {
          _model_name: 'LehrkraftModel', _model_module: NAME, _model_module_version: VERSION,
          _view_name: null, _view_module: null, _view_module_version: '',
          stored: '', loaded: false
        });
      }

      initialize(attributes, options) {
        super.initialize(attributes, options);
        this.on('msg:custom', function (msg) {
          try {
            if (msg.keep) window.localStorage.setItem(TEACHER_KEY, msg.keep);
            if (msg.forget) window.localStorage.removeItem(TEACHER_KEY);
          } catch (e) { /* storage blocked: the view lasts as long as the page */ }
          if (msg.reload) location.reload();
        });
        whenRestored(this.widget_manager, function () {
          this.set({ stored: JSON.stringify({ address: askedTeacher, kept: keptTeacher() }), loaded: true });
          this.save_changes();
          openTeacherGate();
        }.bind(this));
      }
    }

    return {
      id: 'bohnteach-app:router',
      autoStart: true,
      requires: [base.IJupyterWidgetRegistry],
      activate: function (app, registry) {
        registry.registerWidget({ name: NAME, version: VERSION, exports: { RouterModel: RouterModel, KlasseModel: KlasseModel, LehrkraftModel: LehrkraftModel } });
      }
    };
  }

  /* MathJax's delimiters as JupyterLab configures them: $…$, $$…$$, \\(…\\), \\[…\\],
     \\begin{…}. */
  var FORMULA = /\$|\\\(|\\\[|\\begin\{/;

  /* The registry's typesetter, asked only for a node whose text can hold a formula (the
     registry hands its typesetter to every renderer it makes after this). */
  function formulasOnly(rendermime) {
    var typesetter = rendermime.latexTypesetter;
    if (!typesetter) return;
    var lazy = Object.create(typesetter);
    lazy.typeset = function (node) {
      if (FORMULA.test(node.textContent || '')) return typesetter.typeset(node);
    };
    rendermime.latexTypesetter = lazy;
  }

  function formulas(rendermime) {
    return {
      id: 'bohnteach-app:formulas',
      autoStart: true,
      requires: [rendermime.IRenderMimeRegistry],
      activate: function (app, registry) { formulasOnly(registry); }
    };
  }

  /* A lost kernel: after a server restart (or a culled or crashed kernel) a page's clicks
     reach nothing and its numbers stop, silently. On every page served by Voilà, the
     page's kernel connection (its widget manager's, which the Voilà app hands to plugins)
     is watched: a kernel that is dead or restarting, or a connection that is gone or has
     not come back within GRACE_MS, shows LOST_TEXT with a button that reloads the page.
     Not on the static site: its kernel runs in the browser, there is no server to lose. */
  var LOST_TEXT = 'Verbindung verloren – Seite neu laden';
  var LOST_HINT = 'Der Server antwortet nicht mehr, zum Beispiel nach einem Neustart. '
    + 'Klicks auf dieser Seite wirken erst nach dem Neuladen wieder.';
  var RELOAD_TEXT = 'Seite neu laden';
  /* in the page's language (bohnteach/site/js/page/words.js) */
  function word(german) { return window.bohnteachWord ? window.bohnteachWord(german) : german; }
  var GRACE_MS = 1000;  /* a connection back within this time (a short network blip) shows nothing */

  function showLost() {
    if (document.querySelector('.bt-connection-lost')) return;
    var box = document.createElement('div');
    box.className = 'bt-connection-lost';
    box.setAttribute('role', 'alert');
    var text = document.createElement('p');
    var strong = document.createElement('strong');
    strong.textContent = word(LOST_TEXT);
    text.appendChild(strong);
    text.appendChild(document.createTextNode(' ' + word(LOST_HINT)));
    var reload = document.createElement('button');
    reload.type = 'button';
    reload.textContent = word(RELOAD_TEXT);
    reload.addEventListener('click', function () { location.reload(); });
    box.appendChild(text);
    box.appendChild(reload);
    document.body.insertBefore(box, document.body.firstChild);  /* the first stop of Tab */
  }

  function hideLost() {
    var box = document.querySelector('.bt-connection-lost');
    if (box) box.remove();
  }

  function watchKernel(kernel) {
    var timer = 0, armed = kernel.connectionStatus === 'connected';
    kernel.connectionStatusChanged.connect(function (_, status) {
      clearTimeout(timer);
      if (status === 'connected') {
        armed = true;
        hideLost();
      } else if (armed) {
        timer = setTimeout(showLost, status === 'disconnected' ? 0 : GRACE_MS);
      }
    });
    kernel.statusChanged.connect(function (_, status) {
      if (status === 'dead' || status === 'restarting' || status === 'autorestarting') showLost();
    });
  }

  function connection() {
    return {
      id: 'bohnteach-app:connection',
      autoStart: true,
      activate: function (app) {
        if (config.litePluginSettings || !app.widgetManagerPromise) return;  /* the static site */
        app.widgetManagerPromise.promise.then(function (manager) {
          if (manager && manager.kernel) watchKernel(manager.kernel);
        });
      }
    };
  }

  /* Voilà and Voici call init on every extension before get on any: @jupyter-widgets/base
     (provided by the widget manager's extension) is in the shared scope by get's time. */
  var shared = null;

  function newer(a, b) {
    var x = a.split(/[.-]/), y = b.split(/[.-]/);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      var d = (parseInt(y[i], 10) || 0) - (parseInt(x[i], 10) || 0);
      if (d) return d;
    }
    return 0;
  }
  /* The module the page uses, as webpack picks a shared singleton: the highest version in
     the scope (each widget extension may bring its own copy of @jupyter-widgets/base, and
     only that one's registry token has a provider). */
  function module_(name) {
    var versions = shared[name];
    return versions[Object.keys(versions).sort(newer)[0]].get().then(function (factory) { return factory(); });
  }

  var container = {
    init: function (shareScope) { shared = shareScope; },
    get: function (module) {
      if (module !== './extension') return Promise.reject(new Error('no module ' + module));
      return Promise.all([module_('@jupyter-widgets/base'), module_('@jupyterlab/rendermime')])
        .then(function (modules) {
          var plugins = [extension(modules[0]), formulas(modules[1]), connection()];
          return function () { return { __esModule: true, default: plugins }; };
        });
    }
  };
  (window._JUPYTERLAB = window._JUPYTERLAB || {})[NAME] = container;
})();
