"""The one guard against failures on a page: Voilà hides tracebacks, so nothing may raise.

Every builder (a function whose result a notebook cell shows) and every widget callback
runs through :func:`guard`. An exception then becomes the friendly box of
:func:`bohnteach.render.failure.render_error` on the page, and its traceback goes to the
server's log (:func:`server_log`), never to the visitor::

    @guard()                        # a builder: returns the box instead of raising
    def curves(): ...

    button.on_click(guard(self.feedback, "Prüfen")(self._check))   # a callback: box in a widget

    safe_display(make_table, "amigo")    # call, display the result or the box

A widget that speaks its reader's language passes its translator (``lang=self.tr``): the
callback then runs, and its box is worded, in that language however late the click comes.

The ``bohnteach`` loggers write to the server log once :func:`setup_server_log` ran; the
guard calls it before it logs, and it may be called again at no cost.
"""
from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from bohnteach.i18n import N_, Translator, _, speaking
from bohnteach.render.failure import ERROR_TITLE, friendly_message, render_error
from bohnteach.widgets.figure import HTML

F = TypeVar("F", bound=Callable[..., Any])
Target = Any
"""Where a callback's box goes: a function taking the box's HTML, an ``ipywidgets.HTML``
(its ``value``) or an ``ipywidgets.Output`` (displayed inside it)."""

PAGE_PART_TITLE = N_("Dieser Teil der Seite konnte nicht geladen werden")
log = logging.getLogger("bohnteach.widgets.failure")


# ---- the server log ------------------------------------------------------------------------
def server_log(text: str) -> None:
    """Write ``text`` to the server's log, never to the page.

    Inside a kernel, ipykernel forwards everything written to ``sys.stderr`` *and* to file
    descriptor 2 into the cell's output, which Voilà shows. It keeps a copy of the real
    descriptor (``_original_stdstream_copy``); that one ends up in the server's log.
    """
    if not text.endswith("\n"):
        text += "\n"
    try:
        stream = sys.stderr
        fd = getattr(stream, "_original_stdstream_copy", None)
        if isinstance(fd, int):
            os.write(fd, text.encode("utf-8", "replace"))
        elif type(stream).__module__.startswith("ipykernel"):
            real = sys.__stderr__  # fd 2 is not captured in this kernel
            if real is not None:
                real.write(text)
                real.flush()
        elif stream is not None:
            stream.write(text)
    except Exception:  # noqa: BLE001,S110 - pragma: no cover - logging must never break a page
        pass


class ServerLogHandler(logging.Handler):
    """A logging handler that writes to :func:`server_log`."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            server_log(self.format(record))
        except Exception:  # noqa: BLE001,S110 - pragma: no cover
            pass


def setup_server_log() -> None:
    """Send the ``bohnteach`` loggers to the server log (idempotent), so that no traceback
    reaches a page through Python's last-resort handler, which writes to ``sys.stderr``."""
    logger = logging.getLogger("bohnteach")
    if not any(isinstance(h, ServerLogHandler) for h in logger.handlers):
        handler = ServerLogHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


# ---- showing a failure ---------------------------------------------------------------------
def show_failure(target: Target, error: BaseException, what: str = "", *,
                 title: str | None = None) -> Any:
    """Log ``error`` with its traceback and show its box in ``target``. With ``target=None``
    the box is returned as an ``IPython.display.HTML`` for a cell to show."""
    setup_server_log()
    log.error("Fehler in %s", what or "bohnteach", exc_info=error)
    box = render_error(friendly_message(error),
                       title=title or _(PAGE_PART_TITLE if target is None else ERROR_TITLE))
    if target is None:
        return HTML(box)
    try:
        if hasattr(target, "clear_output"):
            from IPython.display import display

            with target:
                target.clear_output(wait=True)
                display(HTML(box))
        elif hasattr(target, "value"):
            target.value = box
        else:
            target(box)
    except Exception:  # noqa: BLE001 - the box itself must not raise
        log.exception("Fehlerbox konnte nicht angezeigt werden")
    return None


def guard(target: Target = None, what: str = "", *, title: str | None = None,
          lang: Translator | None = None) -> Callable[[F], F]:
    """Decorator: run the function; on any exception log it and show the friendly box.

    Without ``target`` (a builder) the box is returned in place of the result; with one (a
    callback) the box goes there and the callback returns ``None``. ``lang``: the function
    runs, and the box is worded, in that translator's language (a widget's ``self.tr``);
    none: the language that holds where it is called. ``title``: already translated."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def safe(*args: Any, **kwargs: Any) -> Any:
            if lang is not None:
                with speaking(lang):
                    return run(*args, **kwargs)
            return run(*args, **kwargs)

        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - shown on the page, logged in full
                return show_failure(target, error, what or getattr(fn, "__name__", "Callback"),
                                    title=title)

        return safe  # type: ignore[return-value]

    return wrap


def safe_display(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Call ``fn(*args, **kwargs)`` and display its result, or the box if it fails.
    Returns ``None`` so that nothing else is printed."""
    from IPython.display import display

    result = guard(what=getattr(fn, "__name__", repr(fn)))(fn)(*args, **kwargs)
    if result is not None:
        display(result)


__all__ = ["ServerLogHandler", "guard", "safe_display", "server_log", "setup_server_log",
           "show_failure"]
