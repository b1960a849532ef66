"""Visitors whose page needs a fresh kernel are prepared a few at a time, in order of arrival.

Preparing a page without a preheated kernel costs a Python start, the imports and running
the notebook: seconds of CPU. Thirty at once on two cores all finish late (each gets a
fifteenth of a core); in line, the first are ready after a few seconds and the median
visitor after half the total. :class:`KernelSlots` is that line; while a visitor waits,
the server streams :func:`queue_start` and :func:`queue_place` („Gleich geht's los – du
bist Nr. 3 in der Warteschlange“) and, on their turn, :func:`queue_end` followed by the
page itself in the same response (see ``bohnteach.upstream.voila.install_queue_handler``).

Refilling a page's pool of preheated kernels costs the same, so it waits for a quiet
server (:meth:`KernelSlots.acquire_when_quiet`): a class that opens a page together takes
the preheated kernels first, and the replacements start after the rush, not during it.
"""
from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from html import escape

from bohnteach.i18n import Translator, translator
from bohnteach.site.addresses import address_language

QUEUE_ID = "bt-queue"
QUEUE_PLACE_ID = "bt-queue-place"


class KernelSlots:
    """At most ``limit`` holders at once; the others wait first come, first served."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        self.limit = limit
        self.busy = 0
        self.visiting = 0
        self.last_visit = float("-inf")
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        """Visitors in line (not counting those being served)."""
        return len(self._waiting)

    def free(self) -> bool:
        """True when :meth:`slot` would be granted without waiting."""
        return self.busy < self.limit and not self._waiting

    def visit_started(self) -> None:
        """A visitor asked for a page; it is being prepared or sent."""
        self.visiting += 1
        self.last_visit = time.monotonic()

    def visit_ended(self) -> None:
        """A page has been sent (or its visitor left)."""
        self.visiting -= 1
        self.last_visit = time.monotonic()

    def quiet(self, seconds: float) -> bool:
        """True when a slot is free, nobody is in line, no page is being sent and none was
        asked for or finished during the last ``seconds``."""
        return (self.free() and self.visiting == 0
                and time.monotonic() - self.last_visit >= seconds)

    async def acquire_when_quiet(self, seconds: float, poll: float = 0.5) -> None:
        """Take a slot for background work (refilling a pool) once :meth:`quiet`: visitors
        always go first. Release it with :meth:`release`."""
        while not self.quiet(seconds):
            await asyncio.sleep(poll)
        self.busy += 1

    async def acquire(self, on_place: Callable[[int], Awaitable[None]]) -> None:
        """Take a slot; while in line, ``on_place(n)`` is awaited whenever the place
        ``n`` (1 = next) changes. If ``on_place`` raises (the visitor left) or the wait
        is cancelled, the visitor leaves the line."""
        if self.free():
            self.busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        shown = 0
        try:
            while not turn.done():
                place = self._waiting.index(turn) + 1
                if place != shown:
                    await on_place(place)
                    shown = place
                await asyncio.wait({turn}, timeout=1.0)
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release()  # the slot was handed over just as the visitor left
            else:
                turn.cancel()
                self._waiting.remove(turn)
            raise

    def release(self) -> None:
        """Give the slot to the first in line, or free it."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.busy -= 1

    @asynccontextmanager
    async def slot(self, on_place: Callable[[int], Awaitable[None]]) -> AsyncIterator[None]:
        """``async with slots.slot(on_place):`` holds a slot for the block."""
        await self.acquire(on_place)
        try:
            yield
        finally:
            self.release()


def queue_start(tr: Translator | None = None) -> str:
    """Start of the response while a visitor waits: a complete, small page in the reader's
    language (``tr``; German if not given).

    The Voilà page streamed after :func:`queue_end` repeats ``<!DOCTYPE>``, ``<html>``,
    ``<head>`` and ``<body>``; HTML parsers ignore the repeats (merging their attributes)
    and treat the head's elements in the body as usual, so the page works unchanged."""
    tr = tr or translator()
    title = escape(tr.gettext("Gleich geht's los"))
    place = f'<b id="{QUEUE_PLACE_ID}">…</b>'
    return (
        f'<!DOCTYPE html>\n<html lang="{tr.lang}"><head><meta charset="utf-8">'
        "<link rel=\"icon\" href=\"data:;base64,=\">"  # as Voilà's page: no /favicon.ico (404)
        f"<title id=\"{QUEUE_ID}-title\">{title}</title></head><body>"
        f"<div id=\"{QUEUE_ID}\" role=\"status\" style=\"font:20px/1.5 system-ui,sans-serif;"
        "max-width:36em;margin:15vh auto;padding:1.5em 2em;border-radius:8px;"
        "background:#f4f7ee;color:#2d3a1f;text-align:center\">"
        f"<p style=\"font-size:26px;margin:0 0 .5em\">{title} …</p>"
        "<p style=\"margin:0\">"
        + escape(tr.gettext("Du bist Nr. {place} in der Warteschlange.")).format(place=place)
        + "</p><p style=\"font-size:15px;margin:.8em 0 0;color:#5b6b47\">"
        + escape(tr.gettext("Viele öffnen gerade gleichzeitig eine Seite; sie wird für dich "
                            "vorbereitet, sobald du dran bist. Bitte lass dieses Fenster offen."))
        + "</p></div>\n"
    )


def queue_start_for(query: str) -> str:
    """:func:`queue_start` in the language the page's address names (``lang=``)."""
    return queue_start(translator(address_language(query)))


def queue_place(place: int) -> str:
    """Script chunk: show the visitor's new place in line."""
    return (f"<script>document.getElementById('{QUEUE_PLACE_ID}').textContent="
            f"'{int(place)}';</script>\n")


def queue_end() -> str:
    """Script chunk: the visitor's turn; the page follows, so remove the queue notice."""
    return (f"<script>document.getElementById('{QUEUE_ID}').remove();"
            f"document.getElementById('{QUEUE_ID}-title').remove();</script>\n")


__all__ = ["KernelSlots", "QUEUE_ID", "QUEUE_PLACE_ID", "queue_end", "queue_place", "queue_start",
           "queue_start_for"]
