/* bohnteach's chart renderer: draws plotly's MIME bundle (application/vnd.plotly.v1+json,
   bohnteach.widgets.figure) with plotly.js's "basic" bundle (scatter, bar, pie; 1.2 MB,
   plotly-basic-4.1.1.min.js beside this file, MIT licence in plotly-basic.LICENSE) instead
   of jupyterlab-plotly, whose renderer carries the full 4.8 MB plotly.js in the same file
   and draws every chart three times (benchmarks/README.md, "Charts drawn once").

   Written by hand, without a build step: a JupyterLab federated extension is a script that
   puts a container {init, get} into window._JUPYTERLAB. Voilà (and Voici) load it, pass
   their shared modules to init (this file takes Lumino's Widget from there) and ask get()
   for "./mimeExtension". plotly.js itself is loaded on the first chart (at once if the
   page's HTML already holds one), so a page without charts never fetches it. Each chart is
   drawn once (Plotly.react), when its box has a width, and afterwards only resized to its
   box; window.btChartDraws counts the draws (a browser test compares it with the charts on
   the page). */
(function () {
  'use strict';
  var MIME = 'application/vnd.plotly.v1+json';
  var PLOTLY_URL = new URL('plotly-basic-4.1.1.min.js', document.currentScript.src).href;
  var loading = null;
  var widgets = null;

  /* plotly.js, loaded once by a <script> tag (it sets window.Plotly). */
  function plotly() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement('script');
        script.src = PLOTLY_URL;
        script.onload = function () { resolve(window.Plotly); };
        script.onerror = function () { reject(new Error('plotly.js not loaded: ' + PLOTLY_URL)); };
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  /* Resolves once the node is in the page with a width. A chart in a widget is rendered
     before the widget is attached, and Voilà renders outputs while the cells are hidden:
     drawn then, plotly.js would lay the chart out at its default 700 px and once more at
     the real width. */
  function sized(node) {
    if (node.isConnected && node.clientWidth > 0) return Promise.resolve();
    return new Promise(function (resolve) {
      var observer = new ResizeObserver(function () {
        if (node.isConnected && node.clientWidth > 0) { observer.disconnect(); resolve(); }
      });
      observer.observe(node);
    });
  }

  /* Voilà puts the page's outputs into the HTML before it starts the widget manager. If
     one of them is a chart, plotly.js is fetched and run now, while the page still waits
     for its kernel, instead of after the page is shown, where it delayed every chart and
     widget (lesson 04: 0.2 s of script on the busy main thread). Charts only inside
     widgets load it on the first chart. */
  var outputs = document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]');
  if (Array.prototype.some.call(outputs, function (s) { return s.textContent.indexOf(MIME) >= 0; })) {
    plotly();
  }

  /* The static site: charts come only once Python has started in the browser, but a page
     whose build-time preview shows a chart (.bt-preview-chart) will draw one, so plotly.js
     is loaded while the page waits for Python (its main thread is idle then). The app
     fetches a deep link's preview a moment later: watched until the previews are gone. */
  function previewChart() { return !!document.querySelector('.bt-preview .bt-preview-chart'); }
  if (previewChart()) {
    plotly();
  } else if (document.body && document.body.classList.contains('bt-previewing')) {
    var watch = new MutationObserver(function () {
      if (previewChart()) plotly();
      if (loading || !document.body.classList.contains('bt-previewing')) watch.disconnect();
    });
    watch.observe(document.body, { childList: true, subtree: true });
  }

  function extension(Widget) {
    class RenderedChart extends Widget {
      constructor(options) {
        super();
        this.addClass('jp-RenderedPlotly');  /* the class the site's styles size charts by */
        this._mimeType = options.mimeType;
        this._drawn = false;
      }

      renderModel(model) {
        var figure = model.data[this._mimeType];
        var layout = Object.assign({ height: 360 }, figure.layout);  /* as jupyterlab-plotly */
        var node = this.node;
        return Promise.all([plotly(), sized(node)]).then(function (loaded) {
          var Plotly = loaded[0];
          window.btChartDraws = (window.btChartDraws || 0) + 1;
          return Plotly.react(node, figure.data, layout, figure.config);
        }).then(function () {
          this._drawn = true;
          this.update();  /* the box may have changed while plotly.js drew: fit it */
        }.bind(this));
      }

      _fit() {
        if (this._drawn && this.isVisible) window.Plotly.Plots.resize(this.node);
      }

      onAfterShow() { this._fit(); }

      onResize() { this._fit(); }

      onUpdateRequest() { this._fit(); }
    }

    return {
      id: 'bohnteach-charts:factory',
      /* before jupyterlab-plotly (rank 2) wherever both are installed */
      rank: 1,
      dataType: 'json',
      rendererFactory: {
        safe: true,
        mimeTypes: [MIME],
        createRenderer: function (options) { return new RenderedChart(options); }
      }
    };
  }

  function newer(a, b) {
    var x = a.split(/[.-]/), y = b.split(/[.-]/);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      var d = (parseInt(y[i], 10) || 0) - (parseInt(x[i], 10) || 0);
      if (d) return d;
    }
    return 0;
  }

  /* The module the page uses, as webpack picks a shared singleton (and bohnteach-app does):
     the highest version in the scope. */
  var container = {
    init: function (shareScope) {
      var versions = shareScope['@lumino/widgets'];
      var version = Object.keys(versions).sort(newer)[0];
      widgets = versions[version].get().then(function (factory) { return factory(); });
    },
    get: function (module) {
      if (module !== './mimeExtension') return Promise.reject(new Error('no module ' + module));
      return widgets.then(function (lumino) {
        return function () { return { __esModule: true, default: [extension(lumino.Widget)] }; };
      });
    }
  };
  (window._JUPYTERLAB = window._JUPYTERLAB || {})['bohnteach-charts'] = container;
})();
