"""The reader's language: one translator per session, German as the source.

German is the source language: every text is written in German (in the data, the scene
files, the notebooks and the code) and is its own message id. The other languages live in
gettext catalogues, one ``.po`` file per language and domain
(``bohnteach/locale/<lang>/LC_MESSAGES/<domain>.po``; ``docs/translating.md``).

Nothing is installed globally: a page, a widget or a renderer gets a :class:`Translator`
(``translator("en")``) and asks it, so two readers in two languages never share one::

    tr = translator("en")
    tr.gettext("Kein Feld ist frei.")            # "No field is free."
    tr.pgettext("variety", "Blaue Bohne")        # "Blue Bean"
    tr.ngettext("{n} Karte", "{n} Karten", 3)    # "{n} cards"
    translator("de").gettext("Kein Feld ist frei.")   # the source, unchanged

A renderer deep down (the table of cards, a refusal's box) does not take a translator
through every function: the widget that owns the page part says which one holds while it
renders (:func:`speaking`, a context variable: scoped to that call, never process-wide),
and the renderer asks :func:`current` (or uses :func:`_` and :func:`pgettext`)::

    with speaking(tr):
        html = render_table(state)          # its words in the reader's language

A page's cells speak its language (:func:`speak_page`): the site sets the page's
language before it runs a page's cells (the app in :meth:`bohnteach.site.app.App.show`,
an English notebook in its first cell, :func:`bohnteach.i18n.notebooks.translate_notebook`),
and :func:`current` falls back to it outside any :func:`speaking` block – in a widget's
later callbacks too. A kernel serves one visitor and shows one page at a time (Voilà,
Pyodide, the app), so the page's language is the kernel's.

Standard library only (the static site runs it in Pyodide). ``strict=True`` (the tests)
raises :class:`MissingTranslation` for a text the catalogue does not have.
"""
from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Any

from bohnteach.i18n.po import plural_forms, read_po

SOURCE = "de"
"""The language every text is written in."""
LANGUAGES: dict[str, str] = {"de": "Deutsch", "en": "English"}
"""Language code -> its name in itself (the switch's words)."""
DOMAINS = ("rules", "scenes", "pages", "ui", "play", "lessons", "editions", "classroom")
"""The catalogues of a language (``bohnteach/locale/domains.toml`` says what each holds)."""


class MissingTranslation(LookupError):
    """A strict translator was asked for a text its catalogue does not have."""


def N_(text: str) -> str:
    """Mark a German text for extraction where it is written; it is translated where shown."""
    return text


def prose(text: str) -> str:
    """A text as the catalogues keep it: the lines of each paragraph joined by one space
    (wrapping a German text anew changes no message), paragraphs (an empty line) kept."""
    return "\n\n".join(" ".join(p.split()) for p in text.strip().split("\n\n") if p.strip())


def locale_dir() -> Any:
    """``bohnteach/locale`` (a Traversable: inside the wheel as in the repository)."""
    return resources.files("bohnteach").joinpath("locale")


@lru_cache(maxsize=None)
def _catalogue(lang: str) -> tuple[dict, str]:
    """Every usable translation of ``lang`` across its domains, and its plural rule."""
    merged: dict = {}
    plural = "(n != 1)"
    folder = locale_dir().joinpath(lang, "LC_MESSAGES")
    for domain in DOMAINS:
        file = folder.joinpath(f"{domain}.po")
        if not file.is_file():
            continue
        text = file.read_text("utf-8")
        merged.update(read_po(text))
        plural = plural_forms(text)
    return merged, plural


class Translator:
    """The texts of one language: ``gettext``, ``pgettext``, ``ngettext``, ``npgettext``.
    A text without a translation stays German (``strict``: raises instead)."""

    def __init__(self, lang: str, messages: Mapping | None = None, plural: str = "(n != 1)",
                 *, strict: bool = False):
        self.lang = lang
        self.strict = strict
        self._messages = messages or {}
        self._plural = gettext.c2py(plural)

    @property
    def is_source(self) -> bool:
        """German: every text is already in the reader's language."""
        return self.lang == SOURCE

    def _find(self, key: tuple, fallback: str) -> str:
        if self.is_source:
            return fallback
        found = self._messages.get(key)
        if found is None:
            if self.strict:
                context = f" (Kontext {key[0]!r})" if key[0] else ""
                raise MissingTranslation(f"{self.lang}: keine Übersetzung für {key[1]!r}{context}")
            return fallback
        return found

    def knows(self, message: str, context: str | None = None) -> bool:
        """Whether the catalogue has ``message`` (German: every text)."""
        return self.is_source or (context, message) in self._messages

    def gettext(self, message: str) -> str:
        return self._find((None, message), message) if message else message

    def pgettext(self, context: str, message: str) -> str:
        return self._find((context, message), message) if message else message

    def prose(self, text: str) -> str:
        """A German text of the data (wrapped lines, paragraphs) in the reader's language;
        German returns it exactly as written."""
        return text if self.is_source or not text else self.gettext(prose(text))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.npgettext(None, singular, plural, n)

    def npgettext(self, context: str | None, singular: str, plural: str, n: int) -> str:
        source = singular if n == 1 else plural
        if self.is_source:
            return source
        return self._find((context, singular, self._plural(n)), source)

    def __repr__(self) -> str:
        return f"<Translator {self.lang}{' strict' if self.strict else ''}>"


def translator(lang: str | None = None, *, strict: bool = False) -> Translator:
    """The translator of ``lang`` (``None``: German, the source). ``ValueError`` (German)
    for a language the site does not have."""
    lang = (lang or SOURCE).strip().lower()
    if lang not in LANGUAGES:
        raise ValueError(f"Die Sprache {lang[:20]!r} gibt es hier nicht; es gibt: {', '.join(LANGUAGES)}.")
    if lang == SOURCE:
        return Translator(SOURCE, strict=strict)
    messages, plural = _catalogue(lang)
    return Translator(lang, messages, plural, strict=strict)


_GERMAN = Translator(SOURCE)
_CURRENT: ContextVar[Translator | None] = ContextVar("bohnteach_translator", default=None)
_PAGE: list[Translator] = [_GERMAN]
"""The language of the page this kernel shows (:func:`speak_page`)."""


def current() -> Translator:
    """The translator of the render under way (:func:`speaking`); outside one, the page's
    (:func:`speak_page`; German unless a page said otherwise)."""
    return _CURRENT.get() or _PAGE[0]


def speak_page(lang_or_tr: str | Translator | None) -> Translator:
    """From now on, outside any :func:`speaking` block, :func:`current` is this translator:
    the language of the page this kernel shows (its cells and its widgets' callbacks).
    Called by the site before a page's cells run; ``None`` or ``"de"``: German."""
    _PAGE[0] = as_translator(lang_or_tr)
    return _PAGE[0]


def page_language() -> str:
    """The code of the page's language (:func:`speak_page`)."""
    return _PAGE[0].lang


def warm_up() -> None:
    """Read every language's catalogues ahead (the fork server and the static site's
    snapshot, :data:`bohnteach.site.snapshot.WARM`): both languages start warm."""
    for lang in LANGUAGES:
        if lang != SOURCE:
            _catalogue(lang)


@contextmanager
def speaking(lang_or_tr: str | Translator | None) -> Iterator[Translator]:
    """Within the block, :func:`current` is this translator (a language code, a translator,
    or ``None`` for German); afterwards whatever held before."""
    tr = as_translator(lang_or_tr)
    token = _CURRENT.set(tr)
    try:
        yield tr
    finally:
        _CURRENT.reset(token)


def _(text: str) -> str:
    """``text`` in the current reader's language (:func:`current`)."""
    return current().gettext(text)


def pgettext(context: str, text: str) -> str:
    """``text`` in the current reader's language, looked up with its context."""
    return current().pgettext(context, text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return current().ngettext(singular, plural, n)


def as_translator(lang_or_tr: str | Translator | None) -> Translator:
    """A translator from what a caller passed: a language code, a translator, or ``None`` (German)."""
    return lang_or_tr if isinstance(lang_or_tr, Translator) else translator(lang_or_tr)


def reader(lang_or_tr: str | Translator | None = None) -> Translator:
    """The reader's translator for a widget or lesson being made: what the caller passed, or
    else the page's language (:func:`current`). A widget keeps it and speaks it in its
    callbacks, which run after the page's render."""
    return current() if lang_or_tr is None else as_translator(lang_or_tr)


__all__ = ["DOMAINS", "LANGUAGES", "SOURCE", "MissingTranslation", "N_", "Translator", "_",
           "as_translator", "current", "locale_dir", "ngettext", "page_language", "pgettext", "prose", "reader",
           "speak_page", "speaking", "translator", "warm_up"]
