(function () {
  /* Printing: a chart keeps its width from the screen, and on an A4 sheet (about
     700 px of text width) a wide one was cut at the right edge. Each chart carries
     the zoom that fits it there (--bt-print-zoom, used by the print stylesheet of
     bohnteach.render.style), renewed whenever it is drawn again. */
  var PRINT_WIDTH = 660;
  function fitForPrint(chart) {
    var width = chart._fullLayout && chart._fullLayout.width;  /* as drawn, in px */
    if (width) chart.style.setProperty('--bt-print-zoom', Math.min(1, PRINT_WIDTH / width).toFixed(3));
  }
  window.btOnChange(function (records) {
    window.btChanged(records, '.js-plotly-plot:not(.bt-print-fit)').forEach(function (chart) {
      if (!chart.on) return;  /* plotly has not taken it over yet */
      chart.classList.add('bt-print-fit');
      chart.on('plotly_afterplot', function () { fitForPrint(chart); });
      fitForPrint(chart);
    });
  });
})();
