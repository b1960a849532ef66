"""Building blocks of the lessons for classes (``tutorials/NN_*.ipynb``).

One module per lesson holds its charts, tables, experiments and exercises, so a lesson
notebook is prose plus one-line calls::

    from bohnteach.lessons import staircase as lesson
    lesson.start()          # teacher notes and solutions (hidden for students)
    lesson.staircase()      # a chart
    lesson.exercises()      # the exercises, answered and checked on the page
    lesson.end()            # teacher view: entry or way out; reads ?lehrkraft= (last cell!)

Every builder is wrapped in :func:`bohnteach.widgets.failure.guard`: a failure becomes a
friendly German box on the page instead of a hidden traceback (Voilà). Numbers come from
:mod:`bohnteach.content.lesson_facts`.

Every builder speaks the reader's language: it takes ``lang=`` (a code or a translator;
default the page's, :func:`bohnteach.i18n.current`) and builds inside ``speaking`` it
(:func:`spoken`); a lesson's widget keeps its translator and speaks it in its callbacks.
German is the source: each text is its own message id (domain ``lessons``).
"""
from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bohnteach.content.chapters import LESSONS
from bohnteach.game.beans import find_variety
from bohnteach.i18n import Translator, _, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.widgets.failure import guard
from bohnteach.content.teacher_notes import LESSON_MINUTES, TeacherNotes, teacher_notes
from bohnteach.widgets.figure import display_cheaply, show_figure
from bohnteach.widgets.questions import solutions_html, teacher_banner
from bohnteach.widgets.teacher_view import TeacherSwitch, connect, teacher_switch


TABLE_CSS = (
    "<style>"
    ".bt-lesson-tables table.bt-lesson-table{border-collapse:collapse;font-size:14px;"
    "margin:6px 0 10px;table-layout:auto}"
    ".bt-lesson-tables table.bt-lesson-table th,.bt-lesson-tables table.bt-lesson-table td"
    "{border:1px solid #d0cabb;padding:4px 10px;text-align:left;vertical-align:top}"
    ".bt-lesson-tables table.bt-lesson-table thead th{background:#f1ede4}"
    ".bt-lesson-tables table.bt-lesson-table td.num,.bt-lesson-tables table.bt-lesson-table th.num"
    "{text-align:right;font-variant-numeric:tabular-nums}"
    ".bt-lesson-tables table.bt-lesson-table tfoot td{font-weight:bold;background:#faf8f2}"
    ".bt-lesson-tables .bt-caption{font-weight:bold;margin:4px 0 0}"
    "</style>"
)
"""Selectors with two classes and two elements: they win over JupyterLab's
``.jp-RenderedHTMLCommon td`` (right-aligned cells)."""


F = TypeVar("F", bound=Callable[..., Any])


def spoken(builder: F) -> F:
    """``builder`` with a ``lang=`` keyword (a code or a translator; default the page's
    language): it builds while that translator holds (:func:`bohnteach.i18n.speaking`)."""

    @functools.wraps(builder)
    def build(*args: Any, lang: str | Translator | None = None, **kwargs: Any) -> Any:
        with speaking(reader(lang)):
            return builder(*args, **kwargs)

    return build  # type: ignore[return-value]


def variety_options(keys) -> list[tuple[str, str]]:
    """Dropdown options (label in the reader's language, German name as the value)."""
    return [(variety_word(find_variety(k)), find_variety(k).de) for k in keys]


def headroom(fig: Any, factor: float = 1.3) -> Any:
    """More room above the highest bar, so bar labels and annotations do not collide."""
    top = 0.0
    for trace in fig.data:
        ys = [y for y in (getattr(trace, "y", None) or ()) if isinstance(y, (int, float))]
        if ys:
            top = max(top, max(ys))
    if top > 0:
        from bohnteach.render.charts import set_layout  # plotly: only once a page draws a chart

        set_layout(fig, yaxes=dict(range=[0, top * factor]))
    return fig


def swatch(colour: str) -> str:
    """A small colour square (the name always stands next to it)."""
    return (f'<span aria-hidden="true" style="display:inline-block;width:12px;height:12px;'
            f'border-radius:2px;background:{colour};margin-right:6px;vertical-align:-1px"></span>')


def table_html(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    numeric: Sequence[int] = (),
    footer: Sequence[Any] | None = None,
    caption: str | None = None,
    raw: Sequence[int] = (),
) -> str:
    """A small HTML table; cells are escaped except in the ``raw`` columns."""

    def cell(i: int, value: Any, tag: str = "td") -> str:
        text = str(value) if i in raw else html.escape(str(value))
        cls = ' class="num"' if i in numeric else ""
        return f"<{tag}{cls}>{text}</{tag}>"

    num_class = ' class="num"'
    head = "".join(f"<th{num_class if i in numeric else ''}>{html.escape(h)}</th>"
                   for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(cell(i, v) for i, v in enumerate(r)) + "</tr>" for r in rows)
    foot = ("<tfoot><tr>" + "".join(cell(i, v) for i, v in enumerate(footer)) + "</tr></tfoot>"
            if footer else "")
    # the caption above the scrolling box, not in it: on a phone it is read without scrolling
    cap = f'<p class="bt-caption">{html.escape(caption)}</p>' if caption else ""
    label = f' aria-label="{html.escape(caption)}"' if caption else ""
    return (f'{TABLE_CSS}<div class="bt-lesson-tables">{cap}<div class="bt-scroll-x">'
            f'<table class="bt-lesson-table"{label}>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody>{foot}</table></div></div>")


def notes_html(name: str, lang: str | Translator | None = None) -> str:
    """A lesson's teacher notes (goal, 45-minute plan, misconceptions) and the solutions of
    its exercises, as HTML for the teacher banner, in ``lang``'s words (else the reader's
    of the render under way: the banner draws inside its translator)."""
    tr = reader(lang)
    with speaking(tr):
        return _notes_html(teacher_notes(name, tr))


def _notes_html(notes: TeacherNotes) -> str:
    """The notes as HTML in the language spoken now."""
    rows = "".join(f"<tr><td class=\"num\">{s.minutes}&nbsp;min</td><td><b>{html.escape(s.part)}</b></td>"
                   f"<td>{html.escape(s.what)}</td></tr>" for s in notes.plan)
    caption = _("Ablauf in {minutes} Minuten").format(minutes=LESSON_MINUTES)
    plan = (f'{TABLE_CSS}<div class="bt-lesson-tables"><p class="bt-caption">{caption}'
            f'</p><div class="bt-scroll-x"><table class="bt-lesson-table">'
            f"<tbody>{rows}</tbody></table></div></div>")
    wrong = "".join(f"<li>{html.escape(m)}</li>" for m in notes.misconceptions)
    goal, misconceptions = _("Ziel der Stunde"), _("Erwartete Fehlvorstellungen")
    return (f'<div class="bt-notes"><h3>{goal}</h3><p>{html.escape(notes.goal)}</p>'
            f"{plan}<h3>{misconceptions}</h3><ul>{wrong}</ul>"
            f"{solutions_html()}</div>")


class LessonTop:
    """The top of a lesson: the teacher banner and „Lehrkraft-Ansicht verlassen“ (both
    hidden for pupils). Kept as the first cell's result, so both follow teacher mode."""

    def __init__(self, name: str, lang: str | Translator | None = None) -> None:
        import ipywidgets as widgets

        self.banner = teacher_banner(lambda: notes_html(name), lang)
        self.switch = TeacherSwitch(entry=False, note=False)
        self.widget = widgets.VBox([self.switch.widget, self.banner.widget])

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


@guard()
def start(name: str, lang: str | Translator | None = None):
    """First code cell of lesson ``name``: asks the browser whether it keeps the teacher
    view (before the class panel asks, :mod:`bohnteach.widgets.teacher_view`); the teacher
    banner with the lesson's notes and solutions (hidden for students; filled once teacher
    mode comes on); charts left as a cell's result are shown by :func:`show_figure` from
    here on."""
    connect()
    display_cheaply()
    teacher_notes(name)  # a lesson without notes is a mistake to show at once
    return LessonTop(name, lang)


@guard()
def end():
    """Last code cell of a lesson: teacher mode from the page address (``?lehrkraft=…``,
    for older links), and the entry into the teacher view (the code field, where the server
    sets a code) or the way out of it.

    Under Voilà with a preheated kernel this waits for the visitor's request, so it must
    stay the last cell: everything above it is already computed."""
    return teacher_switch()


__all__ = ["LESSONS", "LessonTop", "end", "headroom", "notes_html", "show_figure", "spoken", "start", "swatch",
           "table_html", "variety_options"]
