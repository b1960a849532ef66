"""The teacher view („Lehrkraft-Ansicht“): entered once, kept by the browser, checked here.

Teacher mode (:func:`bohnteach.widgets.questions.teacher_mode`, the one truth in the kernel)
shows a lesson's solutions and teacher notes. A teacher enters it once:

* with ``?lehrkraft=1`` in the address (the default set-up), or — where the server sets
  ``BOHNTEACH_LEHRKRAFT_CODE`` — by typing that code into „Lehrkraft-Ansicht“ at the end of
  a lesson (:func:`teacher_switch`); ``?lehrkraft=<code>`` in the address still works.

The browser keeps it (``localStorage["bohnteach-lehrkraft"]``: ``1`` or the code), takes
``lehrkraft`` out of the address bar at once, and no link of the site carries it (the
``bohnteach-app`` labextension), so no projected, copied or shared address shows it. On each
page the browser sends what it keeps and what the address said through :class:`BrowserLink`
(a widget model without a view, ``LehrkraftModel``); the kernel checks it with
:func:`~bohnteach.widgets.questions.credential_ok` — the browser only asks — and turns
teacher mode on, or tells the browser to forget an outdated one. The browser sends this
before a lesson's class panel asks for ``teacher_mode()`` (its ``KlasseModel`` waits for
it). „Lehrkraft-Ansicht verlassen“ forgets it and shows the page as the class sees it.

Wrong codes: each slows the next try in this kernel (:class:`_Tries`).
"""
from __future__ import annotations

import html
import json
import time
from typing import Any

import ipywidgets as widgets
from traitlets import Bool, Unicode

from bohnteach.i18n import N_, Translator, reader
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import button, control, flow, html as html_part, layout
from bohnteach.widgets.questions import (
    box_html, credential_ok, follow_teacher_mode, page_query, set_teacher_mode, teacher_mode,
    teacher_wanted,
)

#: The labextension that holds the browser's half (``site/jupyter/labextensions``).
EXTENSION, EXTENSION_VERSION = "bohnteach-app", "1.0.0"
#: The longest credential read from a browser.
MAX_CREDENTIAL = 200

WORDS = {
    "on": N_("<b>Lehrkraft-Ansicht.</b> Unter jeder Aufgabe lässt sich die Lösung mit „Lösung "
             "zeigen (Lehrkraft)“ aufklappen; dieser Browser merkt sich die Ansicht. Die Klasse "
             "sieht die Seite ohne Lösungen und Hinweise."),
    "leave": N_("Lehrkraft-Ansicht verlassen"),
    "open": N_("Lehrkraft-Ansicht …"),
    "code_label": N_("Lehrkraft-Code"),
    "enter": N_("Lehrkraft-Ansicht öffnen"),
    "intro": N_("<b>Für Lehrkräfte:</b> Mit dem Lehrkraft-Code dieser Seite zeigt sie die "
                "Lösungen und Hinweise. Der Browser merkt sich die Ansicht; der Code steht nie "
                "in der Adresse."),
    "address_wrong": N_("Die Adresse bat um die Lehrkraft-Ansicht, aber diese Seite braucht dafür "
                        "den Lehrkraft-Code. Bitte hier eingeben."),
    "wrong": N_("Dieser Lehrkraft-Code stimmt nicht."),
    "empty": N_("Bitte den Lehrkraft-Code eingeben."),
    "wait": N_("Zu viele falsche Versuche – bitte in {s} s noch einmal."),
}
"""The switch's words: German, marked for the ``classroom`` catalogue, said in the
reader's language (:meth:`TeacherSwitch.words`)."""


#: Phones zoom into a field with type under 16 px; fingers need 44 px.
_STYLE = ("<style>.bt-teacher-switch input{font-size:16px;min-height:44px}"
          ".bt-teacher-switch button{min-height:44px}</style>")


class _Tries:
    """Wrong codes in this kernel (typed, or sent by its browser): from the third on, each
    doubles the wait before the next check (1, 2, 4 … s, up to a minute); a right one resets it."""

    def __init__(self) -> None:
        self.wrong = 0
        self.next_try = 0.0

    def wait(self) -> int:
        """Seconds until the next check is allowed (0: now)."""
        return max(0, round(self.next_try - time.monotonic() + 0.49))

    def check(self, value: str) -> bool:
        ok = credential_ok(value)
        if ok:
            self.wrong = 0
        else:
            self.wrong += 1
            self.next_try = time.monotonic() + (0 if self.wrong < 3 else min(60, 2 ** (self.wrong - 3)))
        return ok


_TRIES = _Tries()


class BrowserLink(widgets.Widget):
    """The browser's memory of the teacher view: the browser sets ``stored`` (JSON: what
    the address said, ``address``, and what it keeps, ``kept``) and then ``loaded``; the
    kernel answers with custom messages ``{"keep": …}`` / ``{"forget": true}``, with
    ``"reload": true`` where the page must start again in the other view."""

    _model_name = Unicode("LehrkraftModel").tag(sync=True)
    _model_module = Unicode(EXTENSION).tag(sync=True)
    _model_module_version = Unicode(EXTENSION_VERSION).tag(sync=True)
    stored = Unicode("").tag(sync=True)
    loaded = Bool(False).tag(sync=True)

    address_refused = False
    """The address asked for the teacher view with a value this server does not accept."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.observe(lambda change: guard()(self._claimed)() if change["new"] else None, names="loaded")

    def _claimed(self) -> None:
        try:
            claims = json.loads(self.stored or "{}")
        except ValueError:
            claims = {}
        if not isinstance(claims, dict):
            claims = {}
        address, kept = claims.get("address"), claims.get("kept")
        if isinstance(address, str) and _TRIES.wait() == 0:
            address = address[:MAX_CREDENTIAL]
            if _TRIES.check(address):
                self.enter(address)
                return
            self.address_refused = True
        if isinstance(kept, str) and kept and _TRIES.wait() == 0:
            if _TRIES.check(kept[:MAX_CREDENTIAL]):
                self.enter(kept[:MAX_CREDENTIAL])
            else:  # the server's code changed: forget it
                self.send({"forget": True})
        if self.address_refused:
            _update_switches()

    def enter(self, credential: str, *, reload: bool = False) -> None:
        """Teacher mode on (``credential`` checked already); the browser keeps it, and with
        ``reload`` loads the page again, so that every part of it (a class panel that
        decided for a pupil already) starts in the teacher view."""
        set_teacher_mode(True)
        self.send({"keep": credential.strip() or "1", **({"reload": True} if reload else {})})

    def leave(self) -> None:
        """Teacher mode off; the browser forgets it and loads the page again as the class sees it."""
        set_teacher_mode(False)
        self.send({"forget": True, "reload": True})


_LINK: BrowserLink | None = None


def browser_link() -> BrowserLink:
    """This kernel's link to its browser's teacher memory (made on first use, or again
    after the page that held it was left)."""
    global _LINK
    if _LINK is None or _LINK.comm is None:
        _LINK = BrowserLink()
    return _LINK


def _update_switches() -> None:
    """Teacher mode is unchanged but what the switches say may be (a refused address)."""
    set_teacher_mode(teacher_mode())


class TeacherSwitch:
    """Where a teacher enters and leaves the view. In teacher mode: the note and
    „Lehrkraft-Ansicht verlassen“. Otherwise, where the server sets a code (``entry``):
    „Lehrkraft-Ansicht …“, which opens the code field; without a code nothing (the address
    ``?lehrkraft=1`` enters it). Its words are in ``lang`` (else the page's language), also
    when teacher mode changes later."""

    def __init__(self, *, entry: bool = True, note: bool = True,
                 lang: str | Translator | None = None) -> None:
        self.tr = reader(lang)
        self.entry, self.note = entry, note
        self.link = browser_link()
        self.message = html_part()
        self.widget = widgets.VBox(layout=layout(width="100%"), _dom_classes=("bt-teacher-switch",))
        self._form: Any = None
        self._fields: Any = None
        self._told_address = False
        follow_teacher_mode(self)
        self._update_mode()

    def words(self, key: str, **params: object) -> str:
        """``WORDS[key]`` in the reader's language."""
        return self.tr.gettext(WORDS[key]).format(**params)

    # -- shown parts
    def _update_mode(self) -> None:
        if teacher_mode():
            leave = button(self.words("leave"), classes=("bt-teacher-leave",))
            leave.on_click(lambda _b: guard(self.message)(self.link.leave)())
            parts = [html_part(box_html("teacher", self.words("on")))] if self.note else []
            self._say("", "")
            children: tuple[Any, ...] = (*parts, flow([leave]), self.message)
        elif self.entry and _code_set():
            children = (self._entry(),)
        else:
            children = ()
        self.widget.children = children
        self.widget.layout = layout(width="100%") if children else layout(display="none")

    def _entry(self) -> Any:
        """„Lehrkraft-Ansicht …“, opening the code field (open at once, with a word why,
        when the address asked for the view with a value this server refuses)."""
        if self._form is None:
            field = control(widgets.Password, description=self.words("code_label"), label_width="initial",
                            layout={"width": "300px"})
            enter = button(self.words("enter"), style="primary")
            enter.on_click(lambda _b: guard(self.message)(self._typed)(field))
            self._fields = widgets.VBox([html_part(_STYLE + box_html("info", self.words("intro"))),
                                         flow([field, enter]), self.message],
                                        layout=layout(width="100%"))
            opener = button(self.words("open"), classes=("bt-teacher-open",))
            opener.on_click(lambda _b: self._open())
            self._form = widgets.VBox([flow([opener])], layout=layout(width="100%"))
        if self.link.address_refused and not self._told_address:
            self._told_address = True
            self._open()
            self._say("invalid", self.words("address_wrong"))
        return self._form

    def _open(self) -> None:
        self._form.children = (self._fields,)

    def _say(self, kind: str, text: str) -> None:
        self.message.value = box_html(kind, html.escape(text)) if text else ""

    def _typed(self, field: Any) -> None:
        value = str(field.value or "").strip()[:MAX_CREDENTIAL]
        if not value:
            self._say("invalid", self.words("empty"))
            return
        if (wait := _TRIES.wait()) > 0:
            self._say("invalid", self.words("wait", s=wait))
            return
        field.value = ""
        if not _TRIES.check(value):
            self._say("invalid", self.words("wrong"))
            return
        self._say("", "")
        self.link.enter(value, reload=True)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _code_set() -> bool:
    import os

    return bool(os.environ.get("BOHNTEACH_LEHRKRAFT_CODE", "").strip())


def connect() -> BrowserLink:
    """First thing on a page that has teacher parts (a lesson's first cell, the app's
    frame): the browser's teacher memory, asked before anything else on the page asks
    ``teacher_mode()``."""
    return browser_link()


def teacher_switch(*, entry: bool = True, note: bool = True,
                   lang: str | Translator | None = None) -> TeacherSwitch:
    """The entry into and the way out of the teacher view (in ``lang``, else the page's
    language); also turns teacher mode on when the page's address asks for it
    (``?lehrkraft=…``, checked by the kernel)."""
    if teacher_wanted(page_query()):
        set_teacher_mode(True)
    return TeacherSwitch(entry=entry, note=note, lang=lang)


__all__ = ["BrowserLink", "TeacherSwitch", "WORDS", "browser_link", "connect", "teacher_switch"]
