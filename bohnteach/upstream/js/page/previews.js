/* The static site's previews (the build puts them in, with body.bt-previewing): while
   Python starts, each code cell shows its outputs from the build (.bt-preview, inert). A
   cell's preview goes once its live outputs are drawn, the banner with the last preview;
   meanwhile the banner, not the spinner, counts the cells as Python runs them. */
(function () {
  var banner = document.currentScript.previousElementSibling;
  var BANNER = banner.textContent;
  var every = function (list, test) { return Array.prototype.every.call(list, test); };
  function shown(output) {
    return output.classList.contains('lm-Panel') ? !!output.querySelector('.jupyter-widgets')
      : (output.childElementCount > 0 || output.textContent.trim() !== '');
  }
  function drawn(cell) {
    var outs = cell.querySelectorAll('.jp-Cell-outputWrapper .jp-OutputArea-output');
    return outs.length > 0 && every(outs, shown);
  }
  window.btOnChange(function () {
    /* while the HTML is still read, not every preview is in the page yet */
    if (document.readyState === 'loading' || !document.body.classList.contains('bt-previewing')) return;
    document.querySelectorAll('.bt-preview').forEach(function (preview) {
      if (drawn(preview.parentElement)) preview.remove();
    });
    if (!document.querySelector('.bt-preview')) document.body.classList.remove('bt-previewing');
  });
  /* The start is over once all cells have run and every output is drawn but the charts
     (one in a cell off the screen is drawn when the cell is laid out, that is, after the
     start); failing that, once the page has not changed for half a second (a widget
     that never draws), at the latest 10 s after the last cell. */
  document.body.classList.add('bt-starting');
  var ran = false, quiet = null;
  function started() { document.body.classList.remove('bt-starting'); }
  function startedYet() {
    if (!ran || !document.body.classList.contains('bt-starting')) return;
    clearTimeout(quiet);
    if (every(document.querySelectorAll('#rendered_cells .jp-OutputArea-output:not(.jp-RenderedPlotly)'), shown)) started();
    else quiet = setTimeout(started, 500);
  }
  window.btOnChange(startedYet);
  /* all cells have run: whatever preview is left (a cell that now shows nothing) goes */
  var finish = window.display_cells;
  window.display_cells = function () {
    document.querySelectorAll('.bt-preview').forEach(function (preview) { preview.remove(); });
    document.body.classList.remove('bt-previewing');
    ran = true;
    setTimeout(started, 10000);
    var result = finish.apply(this, arguments);
    startedYet();
    return result;
  };
  var spinner = window.update_loading_text;
  window.update_loading_text = function (cellIndex, cellCount, message) {
    if (!document.body.classList.contains('bt-previewing')) return spinner(cellIndex, cellCount, message);
    if (cellCount && document.readyState !== 'loading') banner.textContent = BANNER + ' (' + cellIndex + ' von ' + cellCount + ')';
  };
  window.voila_process = window.update_loading_text;
})();
