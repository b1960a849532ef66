/* plotly.js (the plotly package's own bundle) as the page's global `Plotly`, sent once
 * with the first chart of a kernel (bohnteach/widgets/figure.py, `html_form`). The bundle
 * stands where PLOTLY_JS stands below. Inside this function `define`, `exports` and `module`
 * are undefined, so a page that loads require.js (nbconvert's HTML export does) does not
 * turn the bundle into an AMD module that no `Plotly.newPlot` below can reach. */
(function (define, exports, module) {
/*PLOTLY_JS*/
})();
