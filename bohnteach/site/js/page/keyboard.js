/* Keyboard: widgets that redraw their buttons after a move (Mach du!, Probespiel) or
   disable the button just pressed (▶ weiter at a scene's end) would drop the focus to
   the page. When the focused control is gone or disabled, focus moves to the control
   with the same label in the same widget, else to the nearest enabled control before it.
   Focus waits up to 3 s for a control with the same label to be drawn again. A widget
   whose button was clicked keeps its place on the screen while it redraws (until the
   focus is back, plus 1.5 s; up to 10 s; scrolling ends it): the page would otherwise
   jump when the widget briefly shrinks, and the control and the answer beside it would
   leave the screen; an answer below the screen is scrolled into view (showAnswer).
   Arrow keys step a scene; narration and feedback are announced (aria-live). */
(function () {
  var WIDGETS = '.bt-tryit, .bt-scene-player, .bt-probespiel, .bt-exercise';
  var LIVE = '.bt-narr, .bt-box, .bt-q-correct, .bt-q-wrong, .bt-q-invalid, .bt-ps-feedback';
  var last = null, pinned = null;
  function word(text) { return window.bohnteachWord ? window.bohnteachWord(text) : text; }
  function scroller(el) {
    for (var e = el.parentElement; e; e = e.parentElement) {
      var y = getComputedStyle(e).overflowY;
      if ((y === 'auto' || y === 'scroll') && e.scrollHeight > e.clientHeight) return e;
    }
    return document.scrollingElement;
  }
  function keepPlace() {
    if (!pinned || Date.now() > pinned.until || !pinned.el.isConnected) return;
    var dy = pinned.el.getBoundingClientRect().top - pinned.top;
    if (Math.abs(dy) > 1) scroller(pinned.el).scrollBy(0, dy);
    showAnswer();
    showChange();
  }
  /* A scene's step: the card it changed (marked) may be below the screen or behind the
     bar that sticks to its bottom (on a phone): scroll it into view above the bar (again
     after each change while the step is drawn: the bar's sentence may grow). */
  function showChange() {
    if (!pinned.el.matches('.bt-scene-player')) return;
    var card = pinned.el.querySelector('.bt-table .bt-card.bt-changed')
      || pinned.el.querySelector('.bt-table .bt-changed');
    if (!card) return;
    var nav = pinned.el.querySelector('.bt-scene-nav');
    var rect = card.getBoundingClientRect();
    var bottom = window.innerHeight - (nav ? nav.getBoundingClientRect().height : 0) - 8;
    var by = rect.bottom > bottom ? Math.min(rect.bottom - bottom, rect.top - 8)
      : rect.top < 8 ? rect.top - 8 : 0;
    if (Math.abs(by) <= 1) return;
    scroller(pinned.el).scrollBy(0, by);
    pinned.top -= by;
  }
  /* Mach du! answers right under the fields on a phone, which may be below the screen:
     scroll until the answer's first lines show, but only as far as the control in use
     (it holds the focus) stays on the screen. The pin then holds the new place. */
  function showAnswer() {
    var answer = pinned.el.querySelector('.bt-answer');
    if (!answer || !answer.textContent.trim()) return;
    var rect = answer.getBoundingClientRect();
    var over = rect.top + Math.min(rect.height, 120) + 8 - window.innerHeight;
    if (over <= 1) return;
    var control = pinned.el.contains(document.activeElement) ? document.activeElement : null;
    var by = control ? Math.min(over, control.getBoundingClientRect().top - 8) : over;
    if (by <= 1) return;
    scroller(pinned.el).scrollBy(0, by);
    pinned.top -= by;
  }
  document.addEventListener('click', function (event) {
    var box = event.target.closest && event.target.closest('button') && event.target.closest(WIDGETS);
    if (box) pinned = { el: box, top: box.getBoundingClientRect().top, until: Date.now() + 10000 };
  }, true);
  ['wheel', 'touchmove'].forEach(function (kind) {  /* the reader scrolls: let go */
    window.addEventListener(kind, function () { pinned = null; }, { passive: true, capture: true });
  });
  function labelOf(el) { return (el.getAttribute('aria-label') || el.textContent || '').trim(); }
  function usable(el) { return el.isConnected && !el.disabled && el.offsetParent !== null; }
  document.addEventListener('focusin', function (event) {
    var box = event.target.closest && event.target.closest(WIDGETS);
    if (!box) { last = null; return; }
    var kind = WIDGETS.split(', ').filter(function (k) { return box.matches(k); })[0];
    last = { el: event.target, box: box, kind: kind, label: labelOf(event.target),
             index: Array.prototype.indexOf.call(document.querySelectorAll(kind), box) };
  });
  function restore() {
    if (!last || usable(last.el)) return;
    var active = document.activeElement;  /* a just-disabled button may still hold it */
    if (active && active !== document.body && active !== last.el && active.isConnected) return;
    var box = last.box.isConnected ? last.box : document.querySelectorAll(last.kind)[last.index];
    if (!box) return;
    var controls = Array.prototype.filter.call(
      box.querySelectorAll('button, input, select, textarea'), usable);
    var same = controls.filter(function (c) { return labelOf(c) === last.label; })[0];
    var drawn = Array.prototype.some.call(box.querySelectorAll('button, input, select, textarea'),
                                          function (c) { return labelOf(c) === last.label; });
    last.lost = last.lost || Date.now();
    if (!same && !drawn && Date.now() - last.lost < 3000) {  /* still redrawing: wait for it */
      if (!last.retry) last.retry = setTimeout(restore, 3100);
      return;
    }
    var before = last.el.isConnected ? controls.filter(function (c) {
      return c.compareDocumentPosition(last.el) & Node.DOCUMENT_POSITION_FOLLOWING;
    }).pop() : null;
    var target = same || before || controls[0];
    if (!target) { box.setAttribute('tabindex', '-1'); target = box; }
    target.focus({ preventScroll: pinned !== null && Date.now() < pinned.until });
    if (pinned) pinned.until = Math.min(pinned.until, Date.now() + 1500);  /* let it settle */
    keepPlace();
  }
  /* what came into the page or changed in this batch of changes */
  function mark(records) {
    var changed = function (selector) { return window.btChanged(records, selector); };
    changed(LIVE).forEach(function (el) {
      var holder = el.closest('.widget-html-content') || el.parentElement;
      if (holder && !holder.hasAttribute('aria-live')) holder.setAttribute('aria-live', 'polite');
    });
    /* ipywidgets' sliders carry their description beside them, not as their name (looked
       at again when the label's text changes) */
    changed('.widget-slider, .widget-slider .widget-label').forEach(function (el) {
      var box = el.closest('.widget-slider'), label = box.querySelector('.widget-label');
      if (!label || !label.textContent.trim()) return;
      box.querySelectorAll('[role=slider]:not([aria-label])').forEach(function (slider) {
        slider.setAttribute('aria-label', label.textContent.trim());
      });
    });
    /* a scene's bar sticks to the screen's bottom only if no box around it clips it */
    changed('.bt-scene-nav:not(.bt-stick-set)').forEach(function (nav) {
      nav.classList.add('bt-stick-set');
      for (var e = nav.parentElement; e && e.id !== 'rendered_cells'; e = e.parentElement) {
        if (e.classList.contains('lm-BoxPanel-child')) break;
        e.classList.add('bt-stick-out');
      }
    });
    changed('.bt-scene-player:not([tabindex])').forEach(function (player) {
      player.setAttribute('tabindex', '0');
      player.setAttribute('role', 'group');
      player.setAttribute('aria-label', word('Szene – mit den Pfeiltasten ← → blättern'));
    });
  }
  window.btOnChange(function (records) {
    mark(records);
    restore();
    keepPlace();
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    if (event.target.matches && event.target.matches('input, select, textarea')) return;
    var player = event.target.closest && event.target.closest('.bt-scene-player');
    if (!player) return;
    /* „▶ weiter“ / „◀ zurück“ in every language: the arrow and a word (not ▶| or |◀) */
    var want = event.key === 'ArrowRight' ? /^\s*▶\s+\S/ : /^\s*◀\s+\S/;
    var button = Array.prototype.filter.call(player.querySelectorAll('button'), function (b) {
      return want.test(b.textContent) && !b.disabled;
    })[0];
    if (button) { button.click(); event.preventDefault(); }
  });
})();
