/* One observer of the whole page for every script that follows its changes (charts
   below, keyboard and screen readers in the body): window.btOnChange(fn) adds fn, which
   then runs once per batch of changes (nodes added or removed, a control disabled, classes
   changed) with the batch's MutationRecords.
   window.btChanged(records, selector) lists the elements matching selector that the batch
   brought or changed: each added element and what it holds, each element whose classes
   or children changed. A long chapter's start makes some 150 batches in a page of
   thousands of elements; searching the whole page each time took 0.1-0.2 s of the main
   thread. */
(function () {
  var watchers = [];
  window.btOnChange = function (fn) { watchers.push(fn); };
  /* once per batch: the elements changed, and the added elements not inside another */
  function batch(records) {
    if (records.bt) return records.bt;
    var targets = new Set(), added = new Set();
    records.forEach(function (record) {
      /* classes or children changed (ipywidgets gives a view its classes, add_class, once
         it is shown: in Voilà's pages that is after it came into the page) */
      if (record.target.nodeType === 1 && record.attributeName !== 'disabled' &&
          record.target.isConnected) targets.add(record.target);
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === 1 && node.isConnected) added.add(node);
      });
    });
    var tops = Array.from(added).filter(function (node) {
      for (var e = node.parentElement; e; e = e.parentElement) if (added.has(e)) return false;
      return true;
    });
    return (records.bt = { targets: Array.from(targets), added: tops });
  }
  window.btChanged = function (records, selector) {
    var changes = batch(records), found = new Set();
    changes.added.forEach(function (node) {
      if (node.matches(selector)) found.add(node);
      node.querySelectorAll(selector).forEach(function (el) { found.add(el); });
    });
    changes.targets.forEach(function (el) { if (el.matches(selector)) found.add(el); });
    return Array.from(found);
  };
  new MutationObserver(function (records) {
    watchers.forEach(function (fn) { fn(records); });
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ['disabled', 'class'] });
})();
