"""The one failure box and the one message maker every page, widget and lesson uses.

A failure that is not a rule refusal becomes an orange box (``bt-box bt-error``) with a
short sentence in the reader's language (:func:`bohnteach.i18n.current`); the traceback
never reaches the page (see :mod:`bohnteach.widgets.failure` for the guard that logs it).

    render_error(friendly_message(error))
"""
from __future__ import annotations

from html import escape

from bohnteach.i18n import N_, _, current
from bohnteach.render.style import style_block

_LONGEST = 300
"""A message longer than this is no sentence for a learner; the box then says less."""
ERROR_TITLE = N_("Hoppla, da ist etwas schiefgegangen")
"""The box's title unless the caller names one (translated where shown)."""


def friendly_message(error: BaseException) -> str:
    """A short sentence for ``error`` in the reader's language: a rule refusal's own
    message, the text of a ``ValueError``/``KeyError`` (our code writes those for people,
    in German: shown in another language only where the catalogue has it), else a generic
    sentence naming the error type (the details are in the server log); for a missing extra
    the line that names it (:mod:`bohnteach.extras`)."""
    tr = current()
    message = getattr(error, "message", None)
    if hasattr(error, "rule_id") and isinstance(message, str):
        if tr.is_source:
            return message
        from bohnteach.render.language import refusal_detail, rule_words

        try:
            from bohnteach.game.errors import find_rule

            title = rule_words(find_rule(error.rule_id)).title
        except KeyError:
            title = str(error.rule_id)
        return " ".join(x for x in (f"{title} ({error.rule_id}).", refusal_detail(error)) if x)
    if isinstance(error, ImportError):
        from bohnteach.extras import missing_extra

        extra = missing_extra(error)
        if extra is not None:  # an extra of pyproject.toml is not installed: say which
            return extra
        return _("Ein Baustein der Seite fehlt noch. Alles andere auf der Seite funktioniert.")
    text = str(error.args[0] if isinstance(error, KeyError) and error.args else error).strip()
    readable = isinstance(error, (ValueError, LookupError)) and text and len(text) < _LONGEST
    if readable and tr.knows(text):
        return tr.gettext(text)
    if readable and tr.is_source:
        return text
    # another language and a German sentence it has no words for: the generic sentence,
    # naming only the error's type (the German text is in the server log)
    detail = type(error).__name__ if not tr.is_source else (
        f"{type(error).__name__}: {text}" if text and len(text) < _LONGEST else type(error).__name__)
    return _("Hier ist leider etwas schiefgegangen. Lade die Seite neu; wenn es wieder passiert, "
             "sag bitte der Lehrkraft Bescheid. ({detail})").format(detail=detail)


def render_error(message: str, *, title: str | None = None) -> str:
    """The friendly box for any failure that is not a rule refusal (``title``: already in
    the reader's language; none: :data:`ERROR_TITLE`)."""
    title = _(ERROR_TITLE) if title is None else title
    next_step = _("Du kannst es noch einmal versuchen oder neu starten. "
                  "Die Einzelheiten stehen im Protokoll des Servers.")
    return (
        f'{style_block()}<div class="bt bt-box bt-error" role="alert"><h4>⚠ {escape(title)}</h4>'
        f"<p>{escape(str(message))}</p>"
        f'<p class="bt-next">{escape(next_step)}</p></div>'
    )


__all__ = ["ERROR_TITLE", "friendly_message", "render_error"]
