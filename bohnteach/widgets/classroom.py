"""A lesson's class panel („Klassenraum“): a class predicts, experiments and sees its results.

    from bohnteach.widgets.classroom import classroom
    classroom("04_Rechnen_oder_simulieren")

One panel per lesson, for the activities of :data:`bohnteach.classroom.activities.ACTIVITIES`
that belong to it. What it shows depends on the address (read once the browser has
connected, so a preheated kernel runs the lesson's cells before the visitor's request):

* the teacher view (``?lehrkraft=…``): „Klasse starten“, then the code (read aloud in two
  groups), a link and a QR code for the projector; close/reopen, end; per activity the
  class's submissions as a chart that refreshes every second (a thread polling the store),
  „Auflösen“ (the exact value beside them) and „Abgaben löschen“;
* a pupil (``?klasse=CODE`` or the code typed in): join with an optional nickname, then
  commit an estimate or run draws whose totals go to the class.

**Membership across reloads.** The browser keeps the class code and the member's token in
``localStorage`` (the ``KlasseModel`` of the ``bohnteach-app`` labextension, a widget model
without a view: :class:`Remembered`); a reload sends them back and the kernel finds the
member again in the store. The token never appears in an address, so a shared link never
makes someone else that member.

Without a store (no ``bohnteach serve``: the static site, a notebook) the panel says so and
the lesson works alone.
"""
from __future__ import annotations

import html
import logging
import random
import threading
import time
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qs, urlencode

from bohnteach.classroom.activities import ACTIVITIES, Activity
from bohnteach.classroom.store import (
    NICK_MAX, CodeAttempts, ClassroomError, Pool, Store, check_nickname, normalize_code, spoken_code,
    store_from_env,
)
from bohnteach.classroom.words import WORDS
from bohnteach.render.words import de_number, de_percent
from bohnteach.widgets.failure import guard, setup_server_log
from bohnteach.widgets.parts import button, control, html as html_part, layout
from bohnteach.widgets.questions import (
    AnswerFormatError, box_html, page_query, parse_answer, teacher_mode, teacher_wanted,
)

log = logging.getLogger("bohnteach.widgets.classroom")

#: How often the projector reads the store (the issue asks for updates within 2 s).
POLL_SECONDS = 1.0
#: Draws per click in the pooled experiment.
DRAWS = 100
CLASS_KEY = "klasse"
_ATTEMPTS = CodeAttempts()
"""Wrong codes typed in this kernel (one visitor): each slows down the next try."""

_STYLE = (
    "<style>.bt-klasse-code{font-size:20px;margin:4px 0}"
    ".bt-klasse-code strong{font-size:44px;letter-spacing:.12em;font-family:monospace;"
    "margin-left:.3em;color:#1b1b1b}"
    ".bt-klasse-qr svg{width:180px;height:180px}"
    ".bt-klasse-list{border-collapse:collapse;font-size:14px}"
    ".bt-klasse-list th,.bt-klasse-list td{border-bottom:1px solid #ccc;padding:2px 10px;"
    "text-align:left}@media print{.bt-klassenraum{display:none!important}}</style>"
)


def _remembered_class() -> type:
    import ipywidgets as widgets
    from traitlets import Bool, Unicode

    class Remembered(widgets.Widget):
        """The browser's memory of this visitor's class (``localStorage``, by ``role``):
        the kernel sets ``code``/``token``, the browser fills in what it remembers and
        sets ``loaded``."""

        _model_name = Unicode("KlasseModel").tag(sync=True)
        _model_module = Unicode("bohnteach-app").tag(sync=True)
        _model_module_version = Unicode("1.0.0").tag(sync=True)
        role = Unicode("").tag(sync=True)
        code = Unicode("").tag(sync=True)
        token = Unicode("").tag(sync=True)
        stored = Unicode("").tag(sync=True)
        loaded = Bool(False).tag(sync=True)

        def remembered(self, role: str) -> tuple[str, str]:
            """(code, token) the browser remembered for ``role`` (``schueler``/``lehrkraft``)."""
            import json

            try:
                mine = json.loads(self.stored or "{}").get(role) or {}
                return str(mine.get("code") or "")[:16], str(mine.get("token") or "")[:64]
            except (ValueError, AttributeError):
                return "", ""

    return Remembered


def _pct(x: float) -> str:
    return de_percent(Fraction(x).limit_denominator(10**6), 1)


def _num(x: float) -> str:
    return de_number(Fraction(x).limit_denominator(10**6), 1)


def exact_value(act: Activity) -> Fraction:
    """The activity's exact answer (a probability), from its lesson's facts."""
    from bohnteach.content.lesson_facts import facts_for

    return facts_for(act.lesson)[act.fact].value


def parse_estimate(text: str, act: Activity) -> float:
    """A typed estimate in the activity's unit (``12``, ``12,5``, ``12 %``); German errors."""
    text = str(text or "").strip()
    if len(text) > 30:
        raise ClassroomError(WORDS["estimate_long"])
    if act.unit == "%" and text.endswith("%"):
        text = text[:-1].strip()
    try:
        return float(parse_answer(text)[0])
    except AnswerFormatError as err:
        raise ClassroomError(str(err)) from None


def class_link(lesson: str, code: str) -> str:
    """The address a pupil opens: the app's lesson with ``klasse=CODE``, absolute where the
    kernel knows its server's name (Voilà tells it with the request)."""
    import os

    query = urlencode({"lektion": lesson, CLASS_KEY: code})
    host, port = os.environ.get("SERVER_NAME", ""), os.environ.get("SERVER_PORT", "")
    if not host:
        return f"/?{query}"
    scheme = "https" if port == "443" else "http"
    port_part = "" if port in ("", "80", "443") else f":{port}"
    return f"{scheme}://{host}{port_part}/?{query}"


def qr_svg(link: str) -> str:
    """The link as a QR code, inline SVG (segno), labelled for screen readers."""
    import segno

    svg = segno.make(link, error="m").svg_inline(scale=4, title="QR-Code zum Beitreten")
    return f'<div class="bt-klasse-qr" role="img" aria-label="QR-Code mit dem Link">{svg}</div>'


# --------------------------------------------------------------------------- charts


def pool_figure(act: Activity, pool: Pool, exact: Fraction) -> Any:
    """The class's submissions: estimates as a bar chart of 5-%-bins; draws per pupil with
    the running class total. The exact value appears once the teacher revealed it."""
    import plotly.graph_objects as go

    fig = go.Figure()
    if act.kind == "schaetzung":
        counts = [0] * 20
        for e in pool.entries:
            counts[min(int(e.value // 5), 19)] += 1
        fig.add_bar(x=[i * 5 + 2.5 for i in range(20)], y=counts, width=[4.6] * 20,
                    marker_color="#5E35B1", name=WORDS["chart_estimates"],
                    hovertemplate="%{x:.1f} %: %{y}<extra></extra>")
        fig.update_layout(title=WORDS["chart_estimates"], xaxis_title=WORDS["chart_estimates_x"],
                          yaxis_title=WORDS["chart_count"], xaxis_range=[0, 100],
                          yaxis_tick0=0, yaxis_dtick=max(1, -(-max(counts) // 8)))  # whole pupils
        if pool.revealed:
            x = float(exact) * 100
            fig.add_vline(x=x, line_color="#2E7D32", line_width=3)
            fig.add_annotation(x=x, y=1, yref="paper", text=f"{WORDS['chart_exact']}: {_pct(float(exact))}",
                               showarrow=False, yanchor="bottom", font_color="#1B5E20")
    else:
        names = [_who(e.nickname, e.member) for e in pool.entries]
        rates = [100 * e.value / e.trials for e in pool.entries if e.trials]
        hits = trials = 0
        running = []
        for e in pool.entries:
            hits, trials = hits + e.value, trials + (e.trials or 0)
            running.append(100 * hits / trials if trials else 0)
        fig.add_bar(x=names, y=rates, marker_color="#90A4AE", name=WORDS["chart_pupil"])
        fig.add_scatter(x=names, y=running, mode="lines+markers", line_color="#5E35B1",
                        line_width=3, name=WORDS["chart_total"])
        fig.update_layout(title=WORDS["chart_experiment"], yaxis_title=WORDS["chart_rate"],
                          legend_orientation="h", legend_y=-0.2)
        if pool.revealed:
            fig.add_hline(y=float(exact) * 100, line_color="#2E7D32", line_width=3,
                          annotation_text=f"{WORDS['chart_exact']}: {_pct(float(exact))}")
    fig.update_layout(height=360, margin={"l": 50, "r": 20, "t": 50, "b": 50},
                      plot_bgcolor="white", showlegend=act.kind != "schaetzung")
    return fig


def _who(nickname: str | None, member: str) -> str:
    return nickname or member


def summary_html(act: Activity, pool: Pool, exact: Fraction) -> str:
    """The numbers beside the chart and the list of submissions (every nickname escaped)."""
    parts = [WORDS["members"].format(n=pool.members, k=len(pool.entries))]
    if not pool.entries:
        parts.append(WORDS["none_yet"])
    elif act.kind == "schaetzung":
        mean = sum(e.value for e in pool.entries) / len(pool.entries)
        parts.append(WORDS["mean"].format(mean=_num(mean) + " %"))
    else:
        hits = sum(e.value for e in pool.entries)
        trials = sum(e.trials or 0 for e in pool.entries)
        parts.append(WORDS["total"].format(hits=int(hits), trials=int(trials),
                                           rate=_pct(hits / trials) if trials else "–"))
    if pool.revealed:
        parts.append(WORDS["revealed"].format(exact=_pct(float(exact))))
    rows = "".join(
        f"<tr><td>{html.escape(_who(e.nickname, e.member))}</td><td>{_entry_text(act, e.value, e.trials)}</td></tr>"
        for e in pool.entries)
    head = "".join(f"<th>{h}</th>" for h in WORDS["list_head"])
    table = f'<table class="bt-klasse-list"><tr>{head}</tr>{rows}</table>' if rows else ""
    return "<p>" + " ".join(parts) + "</p>" + table


def _entry_text(act: Activity, value: float, trials: int | None) -> str:
    if act.kind == "schaetzung":
        return _num(value) + " %"
    return f"{int(value)} / {trials}"


# --------------------------------------------------------------------------- the panel


@guard()
def classroom(lesson: str, store: Store | None = None):
    """The lesson's class panel (a widget), or the note that there is no server."""
    store = store_from_env() if store is None else store
    if store is None:
        return html_part(box_html("info", WORDS["no_server"]))
    return Classroom(lesson, store).widget


class Classroom:
    """One lesson's panel; :meth:`decide` shows the teacher's or the pupil's half once the
    browser has said what it remembers (or at once with ``query``, as the tests do)."""

    def __init__(self, lesson: str, store: Store, query: str | None = None) -> None:
        import ipywidgets as widgets

        self.lesson = lesson
        self.store = store
        self.activities = [a for a in ACTIVITIES.values() if a.lesson == lesson]
        self.message = html_part()
        self.body = widgets.VBox(layout=layout(width="100%"))
        self.widget = widgets.VBox(
            [html_part(_STYLE + f"<h2>{WORDS['title']}</h2>"), self.message, self.body],
            layout=layout(width="100%", border="1px solid #7A9CC6", padding="4px 12px",
                          margin="12px 0"), _dom_classes=("bt-klassenraum",))
        self.remembered = _remembered_class()()
        self.code = ""
        self.token = ""
        self._views: list[_ProjectorView] = []
        self._stop = threading.Event()
        self._decided = False
        if query is not None:
            self.decide(query)
        else:
            self.body.children = (html_part(WORDS["loading"]),)
            self.remembered.observe(self._on_loaded, names="loaded")

    def _on_loaded(self, change: dict[str, Any]) -> None:
        if change["new"]:
            guard(self.message)(self.decide)(None)

    def decide(self, query: str | None) -> None:
        """Show the teacher's half (teacher mode) or the pupil's."""
        if self._decided:
            return
        self._decided = True
        query = page_query() if query is None else query
        wanted = parse_qs(query.lstrip("?")).get(CLASS_KEY, [""])[0]
        role = "lehrkraft" if teacher_wanted(query) or teacher_mode() else "schueler"
        self.remembered.role = role
        code, token = self.remembered.remembered(role)
        if role == "lehrkraft":
            self._teacher(wanted or code)
        else:
            self._pupil(wanted, code, token)

    def _say(self, kind: str, text: str) -> None:
        self.message.value = box_html(kind, text) if text else ""

    # -- teacher

    def _teacher(self, code: str) -> None:
        if code:
            try:
                self._show_class(self.store.get_class(code).code)
                return
            except ClassroomError:
                pass  # ended or expired: offer a new one
        start = button(WORDS["start"], style="primary")
        start.on_click(lambda _b: guard(self.message)(self._start)())
        self.body.children = (html_part(box_html("teacher", WORDS["teacher_intro"])), start)

    def _start(self) -> None:
        info = self.store.create_class()
        self._show_class(info.code)

    def _show_class(self, code: str) -> None:
        import ipywidgets as widgets

        self.code = code
        self.remembered.code = code
        self.store.get_class(code)  # refuses an ended or expired class
        link = class_link(self.lesson, code)
        spoken = spoken_code(code)
        head = html_part(
            '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:center">'
            + f"<div>{WORDS['code_big'].format(spoken=spoken, spoken_aria=' '.join(code), link=html.escape(link))}</div>"
            + qr_svg(link) + "</div>")
        self.state = html_part()
        toggle = button(WORDS["close"])
        end = button(WORDS["end"], style="danger")

        def show_state() -> None:
            current = self.store.get_class(code)
            when = datetime.fromtimestamp(current.expires, timezone.utc).strftime("%d.%m.%Y %H:%M")
            self.state.value = ((WORDS["state_open"] if current.is_open else WORDS["state_closed"])
                                + " " + WORDS["expires"].format(when=when))
            toggle.description = WORDS["close"] if current.is_open else WORDS["reopen"]

        def on_toggle() -> None:
            current = self.store.get_class(code)
            self.store.set_open(code, not current.is_open)
            show_state()

        def on_end() -> None:
            self._stop.set()
            self.store.end_class(code)
            self.remembered.code = ""
            self.body.children = (html_part(box_html("info", WORDS["ended"])),)

        toggle.on_click(lambda _b: guard(self.message)(on_toggle)())
        end.on_click(lambda _b: guard(self.message)(on_end)())
        show_state()
        self._views = [_ProjectorView(self, act) for act in self.activities]
        self.body.children = (head, self.state, widgets.HBox([toggle, end], layout=layout(flex_flow="row wrap")),
                              *[v.widget for v in self._views])
        for view in self._views:
            view.refresh()
        threading.Thread(target=self._poll, name="classroom-projector", daemon=True).start()

    def _poll(self) -> None:
        """Refresh the projector until the class ends or the panel is closed."""
        last_purge = time.monotonic()
        while not self._stop.wait(POLL_SECONDS):
            if self.widget.comm is None:  # the page was left (the app closed its widgets)
                return
            for view in self._views:
                try:
                    view.refresh()
                except ClassroomError as err:  # expired or ended elsewhere
                    self.message.value = box_html("invalid", html.escape(str(err)))
                    return
                except Exception:  # noqa: BLE001 - keep polling; the log has it
                    setup_server_log()
                    log.exception("Klassenraum: Aktualisieren fehlgeschlagen")
            if time.monotonic() - last_purge > 300:
                last_purge = time.monotonic()
                self.store.purge_expired()

    # -- pupil

    def _pupil(self, wanted: str, remembered_code: str, token: str) -> None:
        code = wanted or remembered_code
        if code and token and (not wanted or _same(wanted, remembered_code)):
            try:
                member = self.store.member(code, token)
                self._member(member.code, member.token, member.nickname)
                return
            except ClassroomError:
                pass  # expired, ended or never: join again
        self._join_form(code)

    def _join_form(self, code: str) -> None:
        import ipywidgets as widgets

        field = {"label_width": "initial", "layout": {"width": "260px"}}
        code_in = control(widgets.Text, value=code, description=WORDS["code_label"], **field)
        nick_in = control(widgets.Text, description=WORDS["nick_label"],
                          placeholder=WORDS["nick_placeholder"].format(n=NICK_MAX), **field)
        join = button(WORDS["join"], style="primary")

        def on_join() -> None:
            try:
                nick = check_nickname(nick_in.value)
                _ATTEMPTS.check()
            except ClassroomError as err:
                self._say("invalid", html.escape(str(err)))
                return
            try:  # only a wrong or malformed code slows down the next try
                typed = self.store.get_class(code_in.value).code
            except ClassroomError as err:
                _ATTEMPTS.failed()
                self._say("invalid", html.escape(str(err)))
                return
            _ATTEMPTS.succeeded()
            try:
                member = self.store.join(typed, nick)
            except ClassroomError as err:  # closed meanwhile
                self._say("invalid", html.escape(str(err)))
                return
            self._say("", "")
            self._member(member.code, member.token, member.nickname)

        join.on_click(lambda _b: guard(self.message)(on_join)())
        self.body.children = (html_part(box_html("info", WORDS["join_intro"])),
                              widgets.HBox([code_in, nick_in, join], layout=layout(flex_flow="row wrap")))

    def _member(self, code: str, token: str, nickname: str | None) -> None:
        self.code, self.token = code, token
        self.remembered.code, self.remembered.token = code, token
        nick = WORDS["joined_nick"].format(nick=html.escape(nickname)) if nickname else ""
        hello = html_part(box_html("correct", WORDS["joined"].format(spoken=spoken_code(code), nick=nick)))
        self.body.children = (hello, *[_PupilActivity(self, act).widget for act in self.activities])


def _same(a: str, b: str) -> bool:
    try:
        return normalize_code(a) == normalize_code(b)
    except ClassroomError:
        return False


class _ProjectorView:
    """One activity on the teacher's page: chart, numbers, list; reveal and clear."""

    def __init__(self, panel: Classroom, act: Activity) -> None:
        import ipywidgets as widgets

        self.panel, self.act = panel, act
        self.exact = exact_value(act)
        self.chart = control(widgets.Output, layout={"min_height": "360px", "width": "100%"})
        self.summary = html_part()
        self.reveal = button(WORDS["reveal"])
        clear = button(WORDS["clear"])
        self.reveal.on_click(lambda _b: guard(panel.message)(self._toggle_reveal)())
        clear.on_click(lambda _b: guard(panel.message)(self._clear)())
        self._shown: Any = None
        self._lock = threading.Lock()
        self.widget = widgets.VBox([
            html_part(f"<h3>{html.escape(act.title)}</h3><p>{html.escape(act.prompt)}</p>"),
            widgets.HBox([self.reveal, clear], layout=layout(flex_flow="row wrap")),
            self.summary, self.chart,
        ], layout=layout(width="100%"), _dom_classes=("bt-klasse-projektor",))

    def _toggle_reveal(self) -> None:
        pool = self.panel.store.pool(self.panel.code, self.act.key)
        self.panel.store.reveal(self.panel.code, self.act.key, not pool.revealed)
        self.refresh()

    def _clear(self) -> None:
        self.panel.store.clear_activity(self.panel.code, self.act.key)
        self.refresh()

    def refresh(self) -> None:
        """Redraw when the store holds something new (called by the polling thread too).
        The chart is set as the Output's ``outputs``, which is safe from another thread."""
        from bohnteach.widgets.figure import figure_bundle

        pool = self.panel.store.pool(self.panel.code, self.act.key)
        seen = (pool.revealed, pool.members, pool.info.state,
                tuple((e.member, e.value, e.trials, e.updated) for e in pool.entries))
        with self._lock:
            if seen == self._shown:
                return
            self._shown = seen
            bundle = figure_bundle(pool_figure(self.act, pool, self.exact))
            self.chart.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)
            self.reveal.description = WORDS["hide"] if pool.revealed else WORDS["reveal"]
            self.summary.value = summary_html(self.act, pool, self.exact)  # last: it says "done"


class _PupilActivity:
    """One activity on a pupil's page: an estimate to send, or draws to run and send."""

    def __init__(self, panel: Classroom, act: Activity) -> None:
        import ipywidgets as widgets

        self.panel, self.act = panel, act
        self.result = html_part()
        title = html_part(f"<h3>{html.escape(act.title)}</h3><p>{html.escape(act.prompt)}</p>")
        mine = panel.store.mine(panel.code, panel.token, act.key)
        if act.kind == "schaetzung":
            self.field = control(widgets.Text, placeholder=WORDS["estimate_placeholder"],
                                 layout={"width": "160px"})
            send = button(WORDS["send_estimate"], style="primary")
            send.on_click(lambda _b: guard(self.result)(self._send_estimate)())
            row = widgets.HBox([self.field, html_part(act.unit), send],
                               layout=layout(flex_flow="row wrap", align_items="center"))
            if mine is not None:
                self.result.value = box_html("correct", WORDS["estimate_sent"].format(value=_num(mine[0]) + " %"))
        else:
            self.hits, self.trials = (int(mine[0]), int(mine[1] or 0)) if mine else (0, 0)
            draw = button(WORDS["draw"].format(n=DRAWS), style="primary")
            draw.on_click(lambda _b: guard(self.result)(self._draw)())
            row = widgets.HBox([draw], layout=layout(flex_flow="row wrap"))
            if mine:
                self._show_draws()
        self.widget = widgets.VBox([title, row, self.result], layout=layout(width="100%"))

    def _send_estimate(self) -> None:
        try:
            value = parse_estimate(self.field.value, self.act)
            self.panel.store.submit(self.panel.code, self.panel.token, self.act.key, value)
        except ClassroomError as err:
            self.result.value = box_html("invalid", html.escape(str(err)))
            return
        self.result.value = box_html("correct", WORDS["estimate_sent"].format(value=_num(value) + " %"))

    def _draw(self) -> None:
        from bohnteach.content.lesson_facts import PILE
        from bohnteach.maths.montecarlo import Runs, simulate_reveal

        mine = self.panel.store.mine(self.panel.code, self.panel.token, self.act.key)
        self.hits, self.trials = (int(mine[0]), int(mine[1] or 0)) if mine else (0, 0)  # cleared?
        if self.trials + DRAWS > self.act.max_trials:
            self.result.value = box_html("invalid", WORDS["draws_full"].format(n=self.trials))
            return
        runs = Runs(DRAWS, seed=random.SystemRandom().randrange(2**31))
        est = simulate_reveal(self.act.variety, PILE, runs)
        hits = round(est.estimate * est.trials)
        try:
            self.panel.store.submit(self.panel.code, self.panel.token, self.act.key,
                                    self.hits + hits, self.trials + est.trials)
        except ClassroomError as err:
            self.result.value = box_html("invalid", html.escape(str(err)))
            return
        self.hits, self.trials = self.hits + hits, self.trials + est.trials
        self._show_draws()

    def _show_draws(self) -> None:
        rate = _pct(self.hits / self.trials) if self.trials else "–"
        self.result.value = box_html("correct", WORDS["draws_sent"].format(
            hits=self.hits, trials=self.trials, rate=rate))


__all__ = ["Classroom", "class_link", "classroom", "parse_estimate", "pool_figure",
           "qr_svg", "summary_html"]
