"""Exercise widgets for the lessons: typed numbers, multiple choice, teacher solutions.

    from bohnteach.widgets.questions import NumberQuestion, ChoiceQuestion

    NumberQuestion(
        "Wie wahrscheinlich ist mindestens eine Gartenbohne unter 2 Karten?",
        answer=Fraction(603, 5356), tolerance=0.001, probability=True,
        hint="Rechne zuerst die Gegenwahrscheinlichkeit aus.",
        mistakes={Fraction(12, 104): "Du hast addiert – …"},
        solution="1 − C(98, 2)/C(104, 2) = 603/5356 ≈ 0,1126",
    )

**Typed answers.** A learner may type a fraction (``3/8``), a decimal with comma or dot
(``0,375`` / ``0.375``), or a percent (``37,5 %``); thousands may be grouped
(``10.000``, ``10 000``). A number such as ``1.500`` is ambiguous (1,5 or 1500): both
readings are tried. An answer is right when it lies within ``tolerance`` of the exact
answer; the tolerance is shown under every question. A wrong answer gets a hint: a known
mistake's explanation, "zu groß / zu klein", a missing percent sign, the complement …;
after the second wrong try the question's own ``hint`` too.

**Teacher solutions.** Every question can carry a worked solution. Students do not see
it: the toggle "Lösung zeigen (Lehrkraft)" is not displayed, and the solution text is
not even sent to the browser until the toggle is pressed. Teacher mode switches the
toggles on. It comes from, in this order:

* ``set_teacher_mode(True)`` in a notebook (for a teacher working in Jupyter);
* the environment variable ``BOHNTEACH_LEHRKRAFT=1`` of the kernel or server;
* the visitor's browser, which keeps teacher mode once entered (``?lehrkraft=1`` once,
  or the server's ``BOHNTEACH_LEHRKRAFT_CODE`` typed once) and tells the kernel, which
  checks it (:func:`credential_ok`): :mod:`bohnteach.widgets.teacher_view`;
* the page address (``?lehrkraft=1``, for links written before): the last code cell of a
  lesson calls :func:`teacher_mode_from_url`, so the heavy cells above it still run in
  Voilà's preheated kernel. If the server sets ``BOHNTEACH_LEHRKRAFT_CODE``, only that
  code opens teacher mode – a plain ``?lehrkraft=1`` then does not. Without a code this
  hides solutions from a class, it is no protection against someone who knows the trick.

After a right answer the worked solution is shown to the learner as well
(``reveal_after_correct``), since it can no longer spoil anything.

**Errors.** Every callback runs inside :func:`bohnteach.widgets.failure.guard`: an
exception becomes a visible, German box on the page (Voilà hides tracebacks) and the
traceback goes to the server log.

ipywidgets is imported lazily (inside the classes), so :func:`parse_answer` and
:func:`check_number` can be used without it.
"""
from __future__ import annotations

import hmac
import html
import logging
import os
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qs

from bohnteach.i18n import N_, Translator, _, current, reader, speaking
from bohnteach.render.numbers import number, percent
from bohnteach.widgets.failure import guard, setup_server_log
from bohnteach.widgets.parts import control, html as html_part, layout

log = logging.getLogger("bohnteach.widgets.questions")

Number = int | float | Fraction

# --------------------------------------------------------------------------- styles

_BOX = (
    "border-radius:6px;padding:8px 12px;margin:6px 0;line-height:1.45;"
    "font-size:14px;color:#1b1b1b;"
)
STYLES = {
    "correct": _BOX + "background:#E8F5E9;border:1px solid #2E7D32;",
    "wrong": _BOX + "background:#FFF8E1;border:1px solid #B26A00;",
    "invalid": _BOX + "background:#E3F2FD;border:1px solid #1565C0;",
    "solution": _BOX + "background:#F3F0FF;border:1px dashed #5E35B1;",
    "teacher": _BOX + "background:#F3F0FF;border:1px solid #5E35B1;",
    "info": _BOX + "background:#F1F6FB;border:1px solid #7A9CC6;",
}
#: The teacher's mark: a mortarboard drawn by the page (the teacher emoji is a joined sequence
#: that shows as two empty boxes where no colour-emoji font is installed).
_MORTARBOARD = ('<svg viewBox="0 0 24 24" width="1.15em" height="1.15em" style="vertical-align:-0.2em" '
                'fill="#5E35B1"><path d="M12 3 1 9l11 6 11-6z"/>'
                '<path d="M5.5 12.2V16c0 1.8 2.9 3.2 6.5 3.2s6.5-1.4 6.5-3.2v-3.8L12 15.7z"/>'
                '<path d="M21.2 10v5.5" stroke="#5E35B1" stroke-width="1.4"/></svg>')
ICONS = {"correct": "✔", "wrong": "✗", "invalid": "?", "solution": "✎",
         "teacher": _MORTARBOARD, "info": "i"}
#: Icons drawn as a round badge: the information sign (U+2139) is a plain „i“ in most text
#: fonts and an emoji only where an emoji font is installed, so the page draws the sign.
BADGES = {"info": "#1565C0"}
_BADGE = ("display:inline-block;width:1.3em;height:1.3em;line-height:1.3em;border-radius:50%;"
          "text-align:center;color:#fff;font:italic bold 0.9em Georgia,'DejaVu Serif',serif;"
          "vertical-align:0.05em;")


def box_html(kind: str, body_html: str) -> str:
    """A coloured message box (``kind``: correct, wrong, invalid, solution, teacher, info).
    Failures use :func:`bohnteach.render.failure.render_error` instead."""
    style = f"{_BADGE}background:{BADGES[kind]}" if kind in BADGES else "font-weight:bold"
    return (
        f'<div class="bt-q-{kind}" style="{STYLES[kind]}">'
        f'<span aria-hidden="true" class="bt-q-icon" style="{style}">{ICONS[kind]}</span> {body_html}</div>'
    )


# --------------------------------------------------------------------------- numbers


class AnswerFormatError(ValueError):
    """The typed text is not a number this module can read (German message)."""


_EXAMPLES = N_("Beispiele: 3/8 oder 0,375 oder 37,5 %")
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']+")
_PLAIN = re.compile(r"^[+-]?(\d+([.,]\d+)*([.,]\d*)?|[.,]\d+)$")


def _decimal_candidates(text: str) -> list[Fraction]:
    """Readings of one number without sign, percent or fraction bar."""
    if not _PLAIN.match(text):
        raise AnswerFormatError(_("„{text}“ ist keine Zahl.").format(text=text) + " " + _(_EXAMPLES))
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    commas, dots = text.count(","), text.count(".")

    def num(s: str) -> Fraction:
        return sign * Fraction(s if s not in ("", ".") else "0")

    def grouped(s: str, sep: str) -> bool:
        head, *groups = s.split(sep)
        return bool(head) and len(head) <= 3 and all(len(g) == 3 for g in groups)

    if commas and dots:  # the last separator is the decimal mark, the other groups thousands
        dec, thou = (",", ".") if text.rfind(",") > text.rfind(".") else (".", ",")
        whole, _mark, frac = text.rpartition(dec)
        if whole.count(dec) or not grouped(whole, thou):
            raise AnswerFormatError(_("„{text}“: Punkt und Komma passen so nicht zusammen.").format(text=text)
                                    + " " + _(_EXAMPLES))
        return [num(whole.replace(thou, "") + "." + frac)]
    sep = "," if commas else "." if dots else ""
    if not sep:
        return [num(text)]
    count = commas or dots
    if count > 1:  # only thousands grouping can repeat
        if grouped(text, sep):
            return [num(text.replace(sep, ""))]
        raise AnswerFormatError(_("„{text}“ hat zu viele Trennzeichen.").format(text=text) + " " + _(_EXAMPLES))
    whole, frac = text.split(sep)
    readings = [num(whole + "." + frac)]
    if grouped(text, sep) and whole.strip("0"):  # 1.500: 1,5 or 1500?
        readings.append(num(whole + frac))
    return readings


def parse_answer(text: str) -> list[Fraction]:
    """Every plausible reading of ``text`` as an exact number (usually exactly one).

    ``"3/8"``, ``"0,375"``, ``"0.375"``, ``"37,5 %"``, ``"37.5%"``, ``"10.000"``,
    ``"−2"``; ``"1.500"`` gives both 3/2 and 1500. Raises :class:`AnswerFormatError`.
    """
    if not isinstance(text, str):
        raise AnswerFormatError(_("Eingabe muss Text sein, nicht {kind}.").format(kind=type(text).__name__))
    t = text.strip().replace("−", "-").replace("–", "-")
    t = re.sub(r"^(≈|~|ca\.?|etwa|about|approx\.?)\s*", "", t, flags=re.IGNORECASE)
    if not t:
        raise AnswerFormatError(_("Bitte gib zuerst eine Zahl ein.") + " " + _(_EXAMPLES))
    scale = Fraction(1)
    low = t.lower()
    for suffix in ("%", "prozent", "percent"):
        if low.endswith(suffix):
            t = t[: -len(suffix)].strip()
            scale = Fraction(1, 100)
            break
    t = _SPACES.sub("", t)
    if not t:
        raise AnswerFormatError(_("Vor dem Prozentzeichen fehlt die Zahl.") + " " + _(_EXAMPLES))
    if "/" in t:
        parts = t.split("/")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise AnswerFormatError(_("„{text}“ ist kein Bruch wie 3/8.").format(text=text.strip()))
        tops, bottoms = _decimal_candidates(parts[0]), _decimal_candidates(parts[1])
        if any(b == 0 for b in bottoms):
            raise AnswerFormatError(_("Durch 0 kann man nicht teilen – der Nenner darf nicht 0 sein."))
        readings = [a / b for a in tops for b in bottoms]
    else:
        readings = _decimal_candidates(t)
    out: list[Fraction] = []
    for r in readings:
        if r * scale not in out:
            out.append(r * scale)
    return out


def parse_number(text: str) -> Fraction:
    """The first (most likely) reading of ``text``; see :func:`parse_answer`."""
    return parse_answer(text)[0]


def to_fraction(x: Number | str) -> Fraction:
    """An exact Fraction; floats go through their shortest text (0.001 → 1/1000)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(repr(x))
    if isinstance(x, str):
        return parse_number(x)
    return Fraction(x)


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``status`` is ``correct``, ``wrong`` or ``invalid``
    (not readable as a number); ``message`` is HTML in the reader's language."""

    status: str
    message: str
    value: Fraction | None = None

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def html(self) -> str:
        return box_html(self.status, self.message)


def tolerance_text(tolerance: Number, probability: bool = False, integer: bool = False) -> str:
    """What is accepted, shown under a number question (in the reader's language)."""
    tol = to_fraction(tolerance)
    if integer and tol == 0:
        return _("Antwort als ganze Zahl – sie muss genau stimmen.")
    if tol == 0:
        return (_("Antwort als Bruch, Dezimalzahl oder Prozent – sie muss genau stimmen.") if probability
                else _("Antwort als ganze Zahl, Bruch oder Dezimalzahl – sie muss genau stimmen."))
    text = (_("Antwort als Bruch, Dezimalzahl oder Prozent · erlaubte Abweichung: ±{tol}") if probability
            else _("Antwort als ganze Zahl, Bruch oder Dezimalzahl · erlaubte Abweichung: ±{tol}"))
    text = text.format(tol=number(tol, 6))
    if probability:
        text += " " + _("(±{points} Prozentpunkte)").format(points=number(tol * 100, 6))
    return text


def _exact_text(typed: Fraction, exact: Fraction, probability: bool, unit_text: str) -> str:
    """" Exakt: 603/5356 ≈ 0,1126 ≈ 11,26 %." – or "" when the typed answer is exact."""
    if typed == exact:
        return ""
    parts = []
    if exact.denominator != 1 and exact.denominator <= 10**6:
        parts.append(f"{exact.numerator}/{exact.denominator}")
    parts.append(number(exact, 4))
    if probability:
        parts.append(percent(exact, 2))
    return " " + _("Exakt: {value}.").format(value=" ≈ ".join(parts) + unit_text)


def check_number(
    text: str,
    answer: Number,
    tolerance: Number = 0,
    *,
    probability: bool = False,
    mistakes: Mapping[Number, str] | None = None,
    hint: str = "",
    attempts: int = 0,
    unit: str = "",
) -> Feedback:
    """Check a typed ``text`` against ``answer`` ± ``tolerance`` (pure, no widgets).

    ``attempts`` = wrong tries before this one (from the second wrong try on, ``hint``
    is added). ``mistakes`` maps typical wrong results to an explanation.
    """
    exact = to_fraction(answer)
    tol = to_fraction(tolerance)
    try:
        readings = parse_answer(text)
    except AnswerFormatError as exc:
        return Feedback("invalid", html.escape(str(exc)))
    unit_text = f" {unit}" if unit else ""

    def near(x: Fraction, target: Fraction, width: Fraction = tol) -> bool:
        return abs(x - target) <= width

    for x in readings:
        if near(x, exact):
            return Feedback("correct", _("<b>Richtig!</b>") + _exact_text(x, exact, probability, unit_text), x)
    x = readings[0]
    parts: list[str] = []
    mistake_width = max(tol, abs(exact) / 1000)
    for wrong, why in (mistakes or {}).items():
        if any(near(r, to_fraction(wrong), mistake_width) for r in readings):
            parts.append(why)
            break
    else:
        if probability and any(near(r / 100, exact) for r in readings if "%" not in text):
            parts.append(_(
                "Fast! Meinst du {typed} %? Dann schreib das Prozentzeichen dazu – ohne % ist "
                "eine Wahrscheinlichkeit eine Zahl zwischen 0 und 1."
            ).format(typed=html.escape(text.strip())))
        elif probability and not 0 <= x <= 1:
            parts.append(_("Eine Wahrscheinlichkeit liegt immer zwischen 0 und 1 (0 % bis 100 %)."))
        elif probability and near(1 - x, exact):
            parts.append(_(
                "Das ist die <i>Gegenwahrscheinlichkeit</i>: Du hast ausgerechnet, wie "
                "wahrscheinlich das Gegenteil ist. Zieh sie von 1 ab."
            ))
        elif tol and near(x, exact, 10 * tol):
            parts.append(_("Knapp daneben. Runde erst ganz am Ende, oder rechne mit Brüchen."))
        else:
            parts.append(_("Noch nicht. Deine Zahl ist zu groß.") if x > exact
                         else _("Noch nicht. Deine Zahl ist zu klein."))
    if hint and attempts >= 1:
        parts.append(_("<b>Tipp:</b> {hint}").format(hint=hint))
    return Feedback("wrong", "<br>".join(parts), x)


# --------------------------------------------------------------------------- teacher mode

_TEACHER: bool | None = None
_REGISTRY: weakref.WeakSet[Any] = weakref.WeakSet()
_QUESTIONS: list[weakref.ref[Any]] = []  # this kernel's questions, in the order they were made
_TRUE = {"", "1", "ja", "true", "yes", "an", "on"}


def _shown(on: bool) -> Any:
    """The shared layout of a widget shown or hidden (assigned, so that every hidden part
    shares one model). Shown is ``display: flex`` (the display of ipywidgets' boxes and
    HTML), not unset: the static site's widget manager keeps ``display: none`` when it is
    reset to ``None``, so teacher mode from the address built the solution buttons but
    left them hidden."""
    return layout(display="flex" if on else "none")


def teacher_mode() -> bool:
    """True when solutions may be revealed (see the module docstring)."""
    if _TEACHER is not None:
        return _TEACHER
    return os.environ.get("BOHNTEACH_LEHRKRAFT", "").strip().lower() in _TRUE - {""}


def follow_teacher_mode(item: Any) -> None:
    """Have ``item`` (with a ``widget`` and ``_update_mode()``) follow teacher mode: each
    :func:`set_teacher_mode` calls its ``_update_mode`` while its widget is on the page."""
    _REGISTRY.add(item)


def set_teacher_mode(on: bool = True) -> None:
    """Switch teacher mode on or off for every solution toggle on the page."""
    global _TEACHER
    _TEACHER = bool(on)
    for item in list(_REGISTRY):
        if item.widget.comm is None:  # closed with its page (the app): nothing to show or hide
            _REGISTRY.discard(item)
        else:
            item._update_mode()


_ADDRESS: str | None = None
"""The query of the address the app shows (:func:`use_address`); ``None`` on a standalone page."""


def use_address(query: str | None) -> None:
    """The app (``bohnteach.site.app``) shows a page at another address than the one its
    kernel was started with: from now on :func:`page_query` answers ``query``."""
    global _ADDRESS
    _ADDRESS = query


def page_query() -> str:
    """The page address's query string: the app's current address, else
    :func:`request_query`."""
    return request_query() if _ADDRESS is None else _ADDRESS


def request_query() -> str:
    """The query string of the address the kernel was asked for: ``QUERY_STRING``, which
    Voilà puts into a fresh kernel's environment and the static site sets; in a kernel that
    Voilà preheats, it waits for the visitor's request first
    (:func:`bohnteach.upstream.voila.wait_for_request`);
    "" outside both.

    The request is waited for once: Voilà sends it to the kernel's first waiting connection
    and keeps it for a later one only if none was waiting yet, so a second wait (a widget
    asking after the last cell did) hung the kernel with every click of its page."""
    if os.environ.get("VOILA_PREHEAT", "False") != "False":
        try:
            from bohnteach.upstream.voila import wait_for_request

            wait_for_request()
        except Exception:  # noqa: BLE001 – no teacher mode rather than a broken page
            setup_server_log()
            log.exception("Adresse der Seite nicht lesbar")
            return ""
        os.environ["VOILA_PREHEAT"] = "False"  # handed to its visitor: a kernel like any other
    return os.environ.get("QUERY_STRING", "")


def credential_ok(value: str) -> bool:
    """Whether ``value`` (a ``lehrkraft=`` value, or what a browser kept) opens teacher
    mode: the server's ``BOHNTEACH_LEHRKRAFT_CODE`` where it sets one, else a yes (``1``,
    ``ja`` …). Checked here, in the kernel; the page only asks."""
    code = os.environ.get("BOHNTEACH_LEHRKRAFT_CODE", "").strip()
    value = str(value).strip()
    if code:
        return hmac.compare_digest(value.encode(), code.encode())
    return value.lower() in _TRUE


def teacher_wanted(query: str) -> bool:
    """Whether the query string ``query`` asks for teacher mode (``lehrkraft=…``)."""
    values = parse_qs(query.lstrip("?"), keep_blank_values=True).get("lehrkraft", [])
    return any(credential_ok(v) for v in values)


def teacher_mode_from_url(query: str | None = None, lang: str | Translator | None = None):
    """Turn teacher mode on if the page address says ``?lehrkraft=1`` (call it in the
    last code cell). Returns a banner widget in teacher mode, else ``None`` (nothing shown)."""
    if query is None:
        query = page_query()
    if teacher_wanted(query):
        set_teacher_mode(True)
    if not teacher_mode():
        return None
    import ipywidgets as widgets

    return widgets.HTML(box_html("teacher", reader(lang).gettext(
        "<b>Lehrkraft-Ansicht.</b> Unter jeder Aufgabe lässt sich die Lösung mit "
        "„Lösung zeigen (Lehrkraft)“ aufklappen. „Lehrkraft-Ansicht verlassen“ zeigt die "
        "Seite so, wie die Klasse sie sieht."
    )))


def teacher_banner(details: Callable[[], str] | None = None, lang: str | Translator | None = None):
    """A banner for the top of a lesson; hidden until teacher mode is switched on.

    ``details`` (HTML, e.g. the lesson's teacher notes and :func:`solutions_html`) is built
    only when teacher mode comes on, so a student's browser never receives it; it is made
    in the reader's language (``lang``, else the page's)."""
    return _TeacherBanner(details, lang)


class _TeacherBanner:
    def __init__(self, details: Callable[[], str] | None = None,
                 lang: str | Translator | None = None) -> None:
        self.tr = reader(lang)
        self._details = details
        self.widget = html_part(classes=("bt-teacher-notes",))
        _REGISTRY.add(self)
        self._update_mode()

    def _update_mode(self) -> None:
        on = teacher_mode()
        self.widget.layout = _shown(on)
        if not on:
            self.widget.value = ""
            return
        with speaking(self.tr):
            self.widget.value = box_html("teacher", _(
                "<b>Lehrkraft-Ansicht:</b> Die Lösungen der Aufgaben lassen sich aufklappen "
                "(„Lösung zeigen (Lehrkraft)“). Schülerinnen und Schüler sehen diese Knöpfe nicht."
            )) + (self._details() if self._details else "")

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def solutions_html() -> str:
    """Every question's worked solution so far, in page order (for teachers only), headed in
    the current reader's language."""
    items = []
    for ref in _QUESTIONS:
        q = ref()
        if q is not None and q._solution_html:
            items.append(f"<li><b>{q.title}</b> {q.prompt}<br>{q._solution_html}</li>")
    if not items:
        return ""
    heading = _("Lösungen")
    return f'<h3>{heading}</h3><ol class="bt-solutions">{"".join(items)}</ol>'


class TeacherSolution:
    """A worked solution behind a toggle "Lösung zeigen (Lehrkraft)".

    Outside teacher mode the box is not displayed (``hidden``), empty, and the text stays
    in Python. The toggle and the text field are built when teacher mode comes on (or when
    code asks for them): a student's page loads eight widget models fewer per question.
    """

    LABEL_SHOW = N_("Lösung zeigen (Lehrkraft)")
    LABEL_HIDE = N_("Lösung verbergen")

    def __init__(self, solution_html: str, lang: str | Translator | None = None):
        import ipywidgets as widgets

        self.tr = reader(lang)
        self._html = solution_html
        self._toggle: Any = None
        self._content: Any = None
        self.widget = widgets.VBox([], layout=_shown(False))
        _REGISTRY.add(self)
        self._update_mode()

    def _build(self) -> None:
        if self._toggle is not None:
            return
        import ipywidgets as widgets

        self._toggle = widgets.ToggleButton(
            value=False, description=self.tr.gettext(self.LABEL_SHOW),
            tooltip=self.tr.gettext("nur für Lehrkräfte sichtbar"),
            layout=widgets.Layout(width="auto"), _dom_classes=("bt-teacher-toggle",),
        )
        self._content = widgets.HTML("")
        self._toggle.observe(guard(self._content)(self._toggled), "value")
        self.widget.children = (widgets.HBox([self._toggle]), self._content)

    @property
    def toggle(self) -> Any:
        """The ``ToggleButton`` (built on first use)."""
        self._build()
        return self._toggle

    @property
    def content(self) -> Any:
        """The ``HTML`` that shows the solution while the toggle is on (built on first use)."""
        self._build()
        return self._content

    @property
    def hidden(self) -> bool:
        """True while the toggle is not displayed (students' view)."""
        return self.widget.layout.display == "none"

    @property
    def shown(self) -> bool:
        """True while the solution text is on the page."""
        return self._content is not None and bool(self._content.value)

    def _update_mode(self) -> None:
        on = teacher_mode()
        if on:
            self._build()
        self.widget.layout = _shown(on)
        if not on and self._toggle is not None:
            self._toggle.value = False

    def _toggled(self, change: Mapping[str, Any]) -> None:
        show = bool(change["new"]) and teacher_mode()
        self._content.value = box_html("solution", self._html) if show else ""
        self._toggle.description = self.tr.gettext(self.LABEL_HIDE if show else self.LABEL_SHOW)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------- questions


class _Question:
    """Shared frame: title, prompt, feedback line, worked solution. The texts passed in are
    in the reader's language already (the lesson words them); the question's own words
    (buttons, verdicts, hints) come from its translator (``lang``, else the page's)."""

    def __init__(self, prompt: str, *, title: str | None, solution: str | None,
                 reveal_after_correct: bool, lang: str | Translator | None = None):
        import ipywidgets as widgets

        self.tr = reader(lang)
        title = self.tr.gettext("Aufgabe.") if title is None else title
        self._widgets = widgets
        self.prompt = prompt
        self.title = title
        self.attempts = 0
        self.solved = False
        self._solution_html = solution
        self.reveal_after_correct = reveal_after_correct
        self.heading = html_part(
            f'<div style="font-size:15px;line-height:1.5"><b>{title}</b> {prompt}</div>'
        )
        self.feedback = html_part()
        self.worked = html_part()  # the solution shown to a learner after a right answer
        self.solution = TeacherSolution(solution, self.tr) if solution else None
        _QUESTIONS.append(weakref.ref(self))

    def _frame(self, *middle: Any):
        w = self._widgets
        children = [self.heading, *middle, self.feedback, self.worked]
        if self.solution is not None:
            children.append(self.solution.widget)
        box = w.VBox(children, layout=layout(
            border="1px solid #c8c8c8", padding="10px 14px", margin="12px 0",
            max_width="860px",
        ), _dom_classes=("bt-exercise",))
        return box

    def _show(self, fb: Feedback) -> None:
        self.feedback.value = fb.html()
        if fb.status == "correct":
            self.solved = True
            if self.reveal_after_correct and self._solution_html:
                self.worked.value = box_html("solution", self.tr.gettext("<b>So kann man rechnen:</b>")
                                             + " " + self._solution_html)
        elif fb.status == "wrong":
            self.attempts += 1

    def last_feedback(self) -> Feedback:
        """The verdict currently shown under the question (status "" if none)."""
        value = self.feedback.value
        status = next((s for s in ("correct", "wrong", "invalid", "error")
                       if f"bt-q-{s}" in value), "")
        return Feedback(status, value)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


class NumberQuestion(_Question):
    """A question answered by typing a number; "Prüfen" (or Enter) checks it.

    ``answer`` is exact (Fraction) where possible; ``tolerance`` is absolute, in the
    answer's unit (for a probability: 0.001 = 0,1 Prozentpunkte). ``probability=True``
    allows percent answers in the stated format and adds probability-specific hints.
    """

    def __init__(
        self,
        prompt: str,
        answer: Number,
        tolerance: Number = 0,
        *,
        probability: bool = False,
        integer: bool | None = None,
        unit: str = "",
        hint: str = "",
        mistakes: Mapping[Number, str] | None = None,
        solution: str | None = None,
        title: str | None = None,
        reveal_after_correct: bool = True,
        placeholder: str | None = None,
        lang: str | Translator | None = None,
    ):
        super().__init__(prompt, title=title, solution=solution,
                         reveal_after_correct=reveal_after_correct, lang=lang)
        tr = self.tr
        w = self._widgets
        self.answer = to_fraction(answer)
        self.tolerance = to_fraction(tolerance)
        self.probability = probability
        self.integer = self.answer.denominator == 1 and self.tolerance == 0 if integer is None else integer
        self.unit = unit
        self.hint = hint
        self.mistakes = dict(mistakes or {})
        if placeholder is None:
            placeholder = tr.gettext("z. B. 0,25 oder 1/4 oder 25 %") if probability else (
                tr.gettext("ganze Zahl") if self.integer else tr.gettext("z. B. 1,25 oder 5/4"))
        self.text = control(w.Text, value="", placeholder=placeholder, continuous_update=False,
                            layout={"width": "240px"})
        self.button = control(w.Button, description=tr.gettext("Prüfen"), button_style="primary",
                              layout={"width": "auto"})
        self.unit_label = html_part(f'<span style="padding:0 6px">{html.escape(unit)}</span>')
        with speaking(tr):
            accepted = tolerance_text(self.tolerance, probability, self.integer)
        self.note = html_part(f'<div style="color:#555;font-size:12.5px">{accepted}</div>')
        row = w.HBox([self.text, self.unit_label, self.button],
                     layout=layout(align_items="center", flex_flow="row wrap"))
        self.widget = self._frame(self.note, row)
        self._checked_text: str | None = None
        checked = guard(self.feedback)(self._check_widget)
        self.button.on_click(lambda _b: checked())
        self.text.observe(lambda change: checked() if change["new"].strip() else None, "value")

    def check(self, text: str) -> Feedback:
        """The verdict on ``text`` (pure: does not touch the widgets), in the question's language."""
        with speaking(self.tr):
            return check_number(
                text, self.answer, self.tolerance, probability=self.probability,
                mistakes=self.mistakes, hint=self.hint, attempts=self.attempts, unit=self.unit,
            )

    def _check_widget(self) -> None:
        text = self.text.value
        if text == self._checked_text and self.feedback.value:
            return  # Enter, leaving the field and "Prüfen" on the same text: one try
        self._checked_text = text
        self._show(self.check(text))

    def submit(self, text: str) -> Feedback:
        """Type ``text`` and press "Prüfen" (for tests and demonstrations)."""
        self.text.value = text
        self.button.click()
        return self.last_feedback()


class ChoiceQuestion(_Question):
    """Multiple choice: one right option; each option may carry an explanation that is
    shown when it is chosen (for the right option: after "Richtig!")."""

    def __init__(
        self,
        prompt: str,
        options: Sequence[str],
        correct: int | str,
        *,
        explanations: Mapping[str, str] | Sequence[str] | None = None,
        solution: str | None = None,
        title: str | None = None,
        reveal_after_correct: bool = True,
        lang: str | Translator | None = None,
    ):
        super().__init__(prompt, title=title, solution=solution,
                         reveal_after_correct=reveal_after_correct, lang=lang)
        w = self._widgets
        self.options = list(options)
        if len(set(self.options)) != len(self.options) or len(self.options) < 2:
            raise ValueError("Eine Auswahlfrage braucht mindestens zwei verschiedene Antworten.")
        self.correct = self.options[correct] if isinstance(correct, int) else correct
        if self.correct not in self.options:
            raise ValueError(f"Die richtige Antwort {self.correct!r} steht nicht in der Auswahl.")
        if explanations is None:
            self.explanations: dict[str, str] = {}
        elif isinstance(explanations, Mapping):
            self.explanations = dict(explanations)
        else:
            self.explanations = dict(zip(self.options, explanations))
        self.choice = control(w.RadioButtons, options=self.options, value=None,
                              layout={"width": "auto"})
        self.button = control(w.Button, description=self.tr.gettext("Prüfen"), button_style="primary",
                              layout={"width": "auto"})
        self.widget = self._frame(self.choice, w.HBox([self.button], layout=layout()))
        checked = guard(self.feedback)(self._check_widget)
        self.button.on_click(lambda _b: checked())

    def check(self, option: str | None) -> Feedback:
        tr = self.tr
        if option is None:
            return Feedback("invalid", tr.gettext("Wähle zuerst eine Antwort aus."))
        if option not in self.options:
            raise ValueError(f"{option!r} ist keine der Antworten.")
        why = self.explanations.get(option, "")
        if option == self.correct:
            return Feedback("correct", tr.gettext("<b>Richtig!</b>") + (f" {why}" if why else ""))
        return Feedback("wrong", why or tr.gettext("Noch nicht – lies die Frage noch einmal genau."))

    def _check_widget(self) -> None:
        self._show(self.check(self.choice.value))

    def submit(self, option: str) -> Feedback:
        """Choose ``option`` and press "Prüfen" (for tests and demonstrations)."""
        self.choice.value = option
        self.button.click()
        return self.last_feedback()


def exercise_list(questions: Iterable[_Question], start: int = 1):
    """Number the questions ("Aufgabe 1.", …) and stack them in one box."""
    import ipywidgets as widgets

    items = list(questions)
    for i, q in enumerate(items, start=start):
        q.title = q.tr.gettext("Aufgabe {n}.").format(n=i)
        q.heading.value = (f'<div style="font-size:15px;line-height:1.5"><b>{q.title}</b> '
                           f"{q.prompt}</div>")
    return widgets.VBox([q.widget for q in items], layout=layout())


__all__ = [
    "AnswerFormatError",
    "ChoiceQuestion",
    "Feedback",
    "NumberQuestion",
    "TeacherSolution",
    "box_html",
    "check_number",
    "credential_ok",
    "exercise_list",
    "follow_teacher_mode",
    "parse_answer",
    "page_query",
    "parse_number",
    "request_query",
    "set_teacher_mode",
    "solutions_html",
    "teacher_banner",
    "teacher_mode",
    "teacher_mode_from_url",
    "teacher_wanted",
    "tolerance_text",
    "use_address",
]
