"""The one failure box and the one message maker every page, widget and lesson uses.

A failure that is not a rule refusal becomes an orange box (``bt-box bt-error``) with a
short German sentence; the traceback never reaches the page (see
:mod:`bohnteach.widgets.failure` for the guard that logs it).

    render_error(friendly_message(error))
"""
from __future__ import annotations

from html import escape

from bohnteach.render.style import style_block

_LONGEST = 300
"""A message longer than this is no sentence for a learner; the box then says less."""


def friendly_message(error: BaseException) -> str:
    """A short German sentence for ``error``: a rule refusal's own message, the text of a
    ``ValueError``/``KeyError`` (our code writes those for people), else a generic sentence
    naming the error type (the details are in the server log); for a missing extra the line
    that names it (:mod:`bohnteach.extras`)."""
    message = getattr(error, "message", None)
    if hasattr(error, "rule_id") and isinstance(message, str):
        return message
    if isinstance(error, ImportError):
        from bohnteach.extras import missing_extra

        extra = missing_extra(error)
        if extra is not None:  # an extra of pyproject.toml is not installed: say which
            return extra
        return "Ein Baustein der Seite fehlt noch. Alles andere auf der Seite funktioniert."
    text = str(error.args[0] if isinstance(error, KeyError) and error.args else error).strip()
    if isinstance(error, (ValueError, LookupError)) and text and len(text) < _LONGEST:
        return text
    detail = f"{type(error).__name__}: {text}" if text and len(text) < _LONGEST else type(error).__name__
    return ("Hier ist leider etwas schiefgegangen. Lade die Seite neu; wenn es wieder passiert, "
            f"sag bitte der Lehrkraft Bescheid. ({detail})")


def render_error(message: str, *, title: str = "Hoppla, da ist etwas schiefgegangen") -> str:
    """The friendly box for any failure that is not a rule refusal."""
    return (
        f'{style_block()}<div class="bt bt-box bt-error" role="alert"><h4>⚠ {escape(title)}</h4>'
        f"<p>{escape(str(message))}</p>"
        '<p class="bt-next">Du kannst es noch einmal versuchen oder neu starten. '
        "Die Einzelheiten stehen im Protokoll des Servers.</p></div>"
    )


__all__ = ["friendly_message", "render_error"]
