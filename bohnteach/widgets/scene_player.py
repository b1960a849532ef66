"""Interactive views (ipywidgets): ``ScenePlayer`` steps through a scene, ``TryIt`` lets a
learner play a situation (see ``tryit.py``).

Every callback runs through :func:`bohnteach.widgets.failure.guard`: an exception becomes a
friendly box on the page and a full traceback in the server's log.

    ScenePlayer(get_scene("q-handelsfall"))       # a widget (VBox)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol

import ipywidgets as widgets

from bohnteach.game.errors import RuleViolation
from bohnteach.game.record import play_script
from bohnteach.render.table import (
    changed_cards, changed_zones, chips, render_error, render_info, render_refusal,
    render_table,
)
from bohnteach.render.style import style_block
from bohnteach.game.state import State
from bohnteach.i18n import Translator, as_translator, speaking
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import button, flow, html, layout


# ---- scenes --------------------------------------------------------------------------------
class StepLike(Protocol):
    action: Any
    narration: str
    rules: tuple[str, ...]
    source: str
    refused: str | None


class SceneLike(Protocol):
    title: str
    initial: State
    steps: Sequence[StepLike]


@dataclass
class _Frame:
    """One position of the player: the table, what changed, the refusal or error."""

    state: State
    highlight: set[int | str]
    refusal: RuleViolation | None = None
    error: str | None = None


def replay(scene: SceneLike) -> list[_Frame]:
    """The table before the first step and after each step (refused steps keep the table),
    from the scene's game record (:func:`bohnteach.game.record.play_script`)."""
    if hasattr(scene, "results"):
        results = scene.results()
    else:
        results = play_script(scene.initial, [step.action for step in scene.steps])[1]
    frames = [_Frame(results[0].state, set())]
    for step, r in zip(scene.steps, results[1:]):
        before, error = frames[-1].state, r.error
        if r.refusal is None and error is None and getattr(step, "refused", None):
            error = (f"Hier sollte die Regel-Engine den Zug ablehnen ({step.refused}), "
                     "sie hat ihn aber erlaubt. Die Szene passt nicht zu den Regeln.")
        hl: set[int | str] = set()
        if r.refusal is None and error is None:
            hl = set(changed_cards(before, r.state)) | set(changed_zones(before, r.state))
        frames.append(_Frame(r.state, hl, r.refusal, error))
    return frames


def _action_text(scene: SceneLike, index: int, frames: list[_Frame], tr: Translator) -> str:
    step = scene.steps[index - 1]
    text = getattr(step, "text", None)
    if text:
        return tr.gettext(text)
    if step.action is None:
        return ""
    try:
        from bohnteach.game.notation import format_action

        return format_action(frames[index - 1].state, step.action)
    except Exception:  # noqa: BLE001 - a label is never worth a crash
        return repr(step.action)


class ScenePlayer(widgets.VBox):
    """⏮ ◀ ▶ ⏭ through a scene: narration, rule chips, the table with changes marked,
    and the engine's refusal for a mistake step. States and HTML are cached, so a click
    only swaps strings. ``lang``: the reader's language (a code or a translator; German
    by default) for every word the player shows."""

    def __init__(self, scene: SceneLike, *, show_hands: Any = None, perspective: int | None = None,
                 lang: str | Translator | None = None):
        self.scene = scene
        self.tr = as_translator(lang)
        tr = self.tr
        self.index = 0
        self._frames = replay(scene)
        self._html: dict[int, tuple[str, str, str]] = {}
        face_up = getattr(scene, "face_up", None)
        self._show_hands = show_hands if show_hands is not None else (
            tuple(face_up) if face_up is not None else True)
        self._perspective = perspective
        # the widgets are made showing the start (each change after they are made is one
        # more message to the browser); a failure shows in the feedback box
        parts = ("narration", "line", "feedback", "table")
        start = dict.fromkeys(parts, "")
        guard(lambda box: start.update(feedback=box), "ScenePlayer")(
            lambda: start.update(zip(parts, self._render(0))))()
        self.title = html(self._title_html())
        self.label = html(self._label_html(0))
        self.narration = html(start["narration"])
        # the step's sentence again, in the bar (see go)
        self.line = html(start["line"], classes=("bt-scene-line",))
        self.feedback = html(start["feedback"])
        self.table = html(start["table"])
        self.first_button = button("|◀", tr.gettext("Zum Anfang"), disabled=True)
        self.prev_button = button(tr.gettext("◀ zurück"), tr.gettext("Ein Schritt zurück"), disabled=True)
        self.next_button = button(tr.gettext("▶ weiter"), tr.gettext("Nächster Schritt"), style="primary",
                                  disabled=self.n == 0)
        self.last_button = button("▶|", tr.gettext("Zum Ende"), disabled=self.n == 0)
        show = self._show_error
        self.first_button.on_click(guard(show, "⏮")(lambda _b: self.go(0)))
        self.prev_button.on_click(guard(show, "◀")(lambda _b: self.go(self.index - 1)))
        self.next_button.on_click(guard(show, "▶")(lambda _b: self.go(self.index + 1)))
        self.last_button.on_click(guard(show, "⏭")(lambda _b: self.go(self.n)))
        # the bar comes after the table and sticks to the bottom of the screen while the
        # scene is in view (class bt-scene-nav): „▶ weiter“ stays under the thumb on a phone,
        # and the step's sentence with it – the narration above the table is out of view
        # while a learner looks at the cards
        nav = flow([self.first_button, self.prev_button, self.label, self.next_button,
                    self.last_button, self.line], "bt-scene-nav")
        super().__init__(
            [self.title, self.narration, self.feedback, self.table, nav],
            layout=layout(width="100%", max_width="1200px"), _dom_classes=("bt-scene-player",),
        )

    @property
    def n(self) -> int:
        """Number of steps."""
        return len(self.scene.steps)

    def _title_html(self) -> str:
        s = self.scene
        sources = tuple(getattr(s, "sources", ()) or ())
        rules = tuple(getattr(s, "rules", ()) or ())
        with speaking(self.tr):
            shown = chips(rules, sources)
        return (f'{style_block()}<div class="bt"><h3 style="margin:4px 0">'
                f"{escape(self.tr.gettext(s.title))}</h3>{shown}</div>")

    def _label_html(self, i: int) -> str:
        step = self.tr.gettext("Schritt {i} / {n}").format(i=i, n=self.n)
        return f'<span style="font-weight:600;padding:0 6px">{step}</span>'

    def _show_error(self, fragment: str) -> None:
        self.feedback.value = fragment

    def _render(self, i: int) -> tuple[str, str, str, str]:
        """(narration, the bar's line, feedback, table) HTML of position ``i`` — cached."""
        if i in self._html:
            return self._html[i]
        with speaking(self.tr):
            self._html[i] = self._render_now(i)
        return self._html[i]

    def _render_now(self, i: int) -> tuple[str, str, str, str]:
        tr = self.tr
        frame = self._frames[i]
        if i == 0:
            head = tr.gettext("Ausgangslage")
            text = tr.prose(getattr(self.scene, "intro", "")) or tr.gettext("So sieht der Tisch am Anfang aus.")
            narration = render_info(head, text)
            feedback = ""
        else:
            step = self.scene.steps[i - 1]
            action = _action_text(self.scene, i, self._frames, tr)
            mistake = bool(getattr(step, "refused", None)) or frame.refusal is not None
            head = (tr.gettext("Ein Fehler, den man oft macht: ") if mistake else "") + (
                action or tr.gettext("Erklärung"))
            source = getattr(step, "source", "")
            text = tr.prose(step.narration)
            narration = render_info(head, text, step.rules, [source] if source else [])
            if frame.error:
                feedback = render_error(frame.error, title=tr.gettext("Dieser Schritt ging schief"))
            elif frame.refusal is not None:
                feedback = render_refusal(frame.refusal)
            else:
                feedback = ""
        table = render_table(frame.state, show_hands=self._show_hands,
                             highlight=frame.highlight, perspective=self._perspective)
        # hidden from screen readers (they hear the narration) and from print (it prints)
        line = f'<p aria-hidden="true"><b>{escape(head)}:</b> {escape(text)}</p>'
        return narration, line, feedback, table

    def go(self, i: int) -> None:
        """Show position ``i`` (0 = the initial table, ``n`` = after the last step)."""
        i = max(0, min(self.n, i))
        narration, line, feedback, table = self._render(i)
        self.index = i
        self.label.value = self._label_html(i)
        self.narration.value = narration
        self.line.value = line
        self.feedback.value = feedback
        self.table.value = table
        self.first_button.disabled = self.prev_button.disabled = i == 0
        self.next_button.disabled = self.last_button.disabled = i == self.n

    def next(self) -> None:
        self.go(self.index + 1)

    def prev(self) -> None:
        self.go(self.index - 1)


def __getattr__(name: str) -> Any:  # TryIt lives in its own module
    if name == "TryIt":
        from bohnteach.widgets import tryit

        return tryit.TryIt
    raise AttributeError(name)


__all__ = ["ScenePlayer", "TryIt", "replay"]
