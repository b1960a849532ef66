"""The API for a teacher's own notebook: ``import bohnteach as bt``, then ``bt.scene(…)``.

Thin functions over what the site's pages and lessons use (``docs/notebooks.md``, „Bohnanza
in eigenen Notebooks“)::

    import bohnteach as bt
    bt.scene("q-handelsfall")                    # a scene from the rulebooks, step by step
    bt.scene("meine_szene.scene")              # a scene file of one's own (docs/scenes.md)
    bt.try_it("phase1")                        # „Mach du!“: a refused move names its rule
    bt.table(bt.load_scene("q-handelsfall").state_at(2))   # the table of a state
    bt.chart("bohnometer", ["Blaue Bohne"])    # a chart (drawn by every front end)
    bt.rule("p1.plant-front")                  # what a rule says, and where
    bt.NumberQuestion("Wie viele …?", answer=3)  # an exercise that checks itself
    bt.teacher_mode()                          # solutions can be revealed

Each function shows a German box instead of raising (a wrong scene name, a broken scene
file, an extra that is not installed): :func:`bohnteach.widgets.failure.guard`, as on the
site. Everything is imported when first called, so ``import bohnteach`` stays light.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bohnteach.widgets.failure import guard

#: What :func:`teacher_mode` shows in a notebook (the site's note speaks of its address).
TEACHER_NOTE = ("<b>Lehrkraft-Ansicht.</b> Unter jeder Aufgabe lässt sich die Lösung mit "
                "„Lösung zeigen (Lehrkraft)“ aufklappen. Ohne die Zelle mit "
                "<code>bt.teacher_mode()</code> sieht die Klasse diese Knöpfe nicht.")

#: The chart builders :func:`chart` knows by name: ``bohnteach.render.charts.<name>_chart``.
CHART_SUFFIX = "_chart"


def _is_file(which: str | Path) -> bool:
    return isinstance(which, Path) or str(which).endswith(".scene")


def load_scene(which: str | Path) -> Any:
    """The scene ``which``: the id of a shipped scene (``"q-handelsfall"``, see :func:`scenes`)
    or the path of a ``.scene`` file (format: ``docs/scenes.md``). Raises ``KeyError`` or
    ``SceneFormatError`` with a German message naming the line."""
    from bohnteach.content.scenes import get_scene, load_scene as load_file

    if _is_file(which):
        return load_file(which)
    try:
        return get_scene(str(which))
    except KeyError:  # its message lists every scene: too long for a box
        raise KeyError(f"Keine Szene „{which}“. Alle Szenen zeigt bt.scenes().") from None


@guard()
def scenes(chapter: str | None = None) -> Any:
    """The shipped scenes (of one chapter: ``"phase1"`` or its German title) as a table of
    id, chapter and title, for :func:`scene`."""
    from bohnteach.content.scenes import list_scenes
    from bohnteach.lessons import table_html
    from bohnteach.widgets.figure import HTML

    rows = [(s.id, s.chapter, s.title) for s in list_scenes(chapter)]  # chapter: its German title
    return HTML(table_html(["Szene", "Kapitel", "Titel"], rows))


@guard()
def scene(which: str | Path, *, perspective: int | None = None, show_hands: Any = None) -> Any:
    """A scene played step by step (◀ / ▶): narration, the table with each change marked,
    and the engine's refusal with its rule for a wrong move. ``which``: a shipped scene's id
    or a ``.scene`` file; ``perspective``: the learner's seat (marked „du“); ``show_hands``:
    ``True`` all hands face up, ``False`` face down, or the seats to show."""
    from bohnteach.widgets.scene_player import ScenePlayer

    return ScenePlayer(load_scene(which), show_hands=show_hands, perspective=perspective)


@guard()
def try_it(case: str) -> Any:
    """A „Mach du!“ exercise: the learner plays on a table; a move the rules forbid is refused
    with the rule's explanation and its place in the rulebook. ``case``: a case's id or a
    chapter (``"phase1"``: each of its cases)."""
    from bohnteach.widgets.tryit import make_tryit

    return make_tryit(case)


@guard()
def table(state: Any, *, perspective: int | None = None, show_hands: Any = None,
          highlight: Any = ()) -> Any:
    """The table of a game state (``bt.new_game()``, ``scene.state_at(i)``): fields, hands,
    the phase bar. ``highlight``: card ids or zone names to outline."""
    from bohnteach.render.table import render_table
    from bohnteach.widgets.figure import HTML

    return HTML(render_table(state, show_hands=show_hands, highlight=highlight,
                             perspective=perspective))


@guard()
def chart(what: Any, *args: Any, **kwargs: Any) -> Any:
    """A chart as a plotly figure that every front end draws (JupyterLab, Notebook 7, VS Code,
    Colab, an HTML export). ``what``: a plotly figure, or the name of one of the site's charts
    with its arguments: ``"bohnometer"`` (varieties, rule sets), ``"coins_per_card"``,
    ``"marginal_value"``, ``"deck"`` (rule set, players), ``"deck_comparison"``, ``"reveal"``,
    ``"convergence"``, ``"count_distribution"``, ``"waiting_time"``
    (``bohnteach.render.charts.<name>_chart``). Left as a cell's result it is shown; the figure
    can be changed first (``fig.update_layout(…)``)."""
    from bohnteach.widgets.figure import display_cheaply

    display_cheaply()  # every figure of this kernel goes out with its HTML form
    if not isinstance(what, str):
        return what
    from bohnteach.render import charts

    builder = getattr(charts, what + CHART_SUFFIX, None)
    if builder is None:
        known = sorted(n.removesuffix(CHART_SUFFIX) for n in dir(charts)
                       if n.endswith(CHART_SUFFIX) and not n.startswith("_"))
        raise KeyError(f"Kein Diagramm „{what}“. Bekannt: {', '.join(known)}")
    return builder(*args, **kwargs)


def rule(*rule_ids: str) -> Any:
    """What the rules ``rule_ids`` say, as a table: title, explanation and the place in the
    rulebook (the ids of ``docs/rules.md``, e.g. ``"p1.plant-front"``)."""
    from bohnteach.site.pages import rules_table  # shows a box for an unknown id itself

    return rules_table(*rule_ids)


def teacher_mode(on: bool = True) -> Any:
    """Teacher mode for this notebook: every exercise's „Lösung zeigen (Lehrkraft)“ appears
    (``on=False``: hidden again). Returns a note saying so while it is on."""
    from bohnteach.widgets.parts import html
    from bohnteach.widgets.questions import box_html, set_teacher_mode

    set_teacher_mode(on)
    return html(box_html("teacher", TEACHER_NOTE)) if on else None


def __getattr__(name: str) -> Any:  # the exercise widgets, imported when first named
    if name in ("NumberQuestion", "ChoiceQuestion"):
        from bohnteach.widgets import questions

        return getattr(questions, name)
    raise AttributeError(name)


#: The names ``import bohnteach as bt`` offers from here (bohnteach/__init__.py).
API = ["ChoiceQuestion", "NumberQuestion", "chart", "load_scene", "rule", "scene", "scenes",
       "table", "teacher_mode", "try_it"]

__all__ = ["API", "CHART_SUFFIX", "TEACHER_NOTE", *API]
