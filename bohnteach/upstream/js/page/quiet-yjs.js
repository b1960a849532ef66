/* „[yjs#509] Not same Y.Doc“, once per cell of the page (Voici's pages, the static
   site): JupyterLab's notebook model keeps an undo history per cell
   (disableDocumentWideUndoRedo, its default, which Voici does not change), and
   @jupyter/ydoc (jupyter-server/jupyter_ydoc#321) makes a cell's Y.UndoManager in the
   cell's constructor with the notebook's Y.Doc named explicitly, before the cell's
   Y.Map is inserted into that document. yjs warns because the map has no document yet;
   one line later it is in the named one, so the history is right — and on these
   read-only pages no cell is ever edited or undone. Only this exact line is dropped. */
(function () {
  var warn = console.warn;
  console.warn = function () {
    for (var i = 0; i < arguments.length; i++) {
      if (typeof arguments[i] === 'string' && /^(%c)?\[yjs#509\] Not same Y\.Doc$/.test(arguments[i])) return;
    }
    return warn.apply(console, arguments);
  };
})();
