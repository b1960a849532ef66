"""A lesson's class panel („Klassenraum“) and its projector view („Beamer-Ansicht“).

    from bohnteach.widgets.classroom import classroom, projector
    classroom("04_Rechnen_oder_simulieren")   # in the lesson
    projector("04_Rechnen_oder_simulieren")   # the app's address ?beamer=04_Rechnen_oder_simulieren

One panel per lesson, for the activities of :data:`bohnteach.classroom.activities.ACTIVITIES`
that belong to it. What it shows depends on the address and on what the browser holds (read
once the browser has connected, so a preheated kernel runs the lesson's cells first):

* the teacher view (teacher mode, :func:`bohnteach.widgets.questions.teacher_mode`):
  „Klasse starten“ makes a class and its **teacher key**; the browser keeps the key. Only a
  browser holding it gets the controls: code, link and QR, close/reopen, end (asked first),
  per activity the submissions (chart and list, refreshed every second), „Auflösen“ and
  „Abgaben löschen“ (asked first), a one-time PIN for a second device and the projector
  view. A teacher view with somebody else's ``klasse=CODE`` offers only a class of one's
  own (and taking one's class over with its PIN) – every control is checked by the store
  again (:meth:`bohnteach.classroom.store.Store.authorize`);
* the projector view (:func:`projector`, its own address): the code, link, QR, the live
  charts and totals and „Auflösen“ – nothing of the lesson, no solutions;
* a pupil (``?klasse=CODE`` or the code typed in): join with an optional nickname, then
  commit an estimate (its reading shown while typing) or run draws whose totals go to the
  class; the panel follows what the teacher does (cleared, revealed, ended).

**What the browser keeps.** ``localStorage`` per role (the ``KlasseModel`` of the
``bohnteach-app`` labextension, a widget model without a view: :class:`Remembered`): a
pupil's class code and member token, a teacher's class code and key. Neither ever stands in
an address, so a shared link or the projector's address gives nobody else either.

**Wrong codes** are counted in the store per client address (Voilà hands the kernel the
address ``bohnteach serve`` puts into the request, :data:`CLIENT_ENV`) and per code, so a
reload or another tab does not reset the wait.

Without a store (no ``bohnteach serve``: the static site, a notebook) the panel says so and
the lesson works alone.
"""
from __future__ import annotations

import html
import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qs, urlencode

from bohnteach.classroom.activities import ACTIVITIES, Activity
from bohnteach.classroom.store import (
    NICK_MAX, PIN_DIGITS, ClassroomError, Pool, Store, check_nickname, check_submission,
    normalize_code, spoken_code, store_from_env, unreachable,
)
from bohnteach.classroom.words import (
    class_total, draw_button, draws_full, draws_sent, members_line, moment, percent, percent_value, say,
)
from bohnteach.i18n import Translator, as_translator, reader
from bohnteach.widgets.failure import guard, setup_server_log
from bohnteach.widgets.parts import button, control, html as html_part, layout
from bohnteach.widgets.questions import (
    AnswerFormatError, box_html, page_query, parse_answer, teacher_mode, teacher_wanted,
)

log = logging.getLogger("bohnteach.widgets.classroom")

#: How often the teacher's panel and the projector read the store (updates within 2 s).
POLL_SECONDS = 1.0
#: The charts' height in px: the projector's, in its results-only mode (1280 × 720 without
#: scrolling), and the teacher's panel's.
BIG_CHART, COMPACT_CHART, PANEL_CHART = 380, 300, 360
#: How often a pupil's panel looks whether the teacher cleared, revealed or ended.
PUPIL_POLL_SECONDS = 3.0
#: Draws per click in the pooled experiment.
DRAWS = 100
CLASS_KEY = "klasse"
#: The app's address of a lesson's projector view: ``?beamer=04_Rechnen_oder_simulieren``.
PROJECTOR_KEY = "beamer"
#: The request's client address, as ``bohnteach serve`` has Voilà pass it to the kernel
#: (the header ``X-Bohnteach-Client``, set by the server from the connection, never by the
#: browser: :mod:`bohnteach.site.serve`).
CLIENT_ENV = "HTTP_X_BOHNTEACH_CLIENT"
#: The site's public address (``https://schule.example/bohnanza/``), set by ``bohnteach
#: serve --oeffentliche-adresse`` for its kernels: the pupil link and the QR code name it
#: (behind a balancer the server's own name and port are not what pupils open).
PUBLIC_URL_ENV = "BOHNTEACH_OEFFENTLICHE_ADRESSE"
#: The time zone of the times shown (deletion, a PIN's end); default Europe/Berlin.
ZONE_ENV = "BOHNTEACH_ZEITZONE"
DEFAULT_ZONE = "Europe/Berlin"

_STYLE = (
    "<style>.bt-klasse-code{font-size:20px;margin:4px 0}"
    ".bt-klasse-code strong{font-size:44px;letter-spacing:.12em;font-family:monospace;"
    "margin-left:.3em;color:#1b1b1b}"
    ".bt-klasse-qr svg{width:180px;height:180px}"
    # a long public address wraps instead of running out of the panel on a phone
    ".bt-klasse-link{overflow-wrap:anywhere}"
    "@media (max-width:480px){.bt-klasse-code strong{font-size:34px;letter-spacing:.06em}}"
    ".bt-klasse-list{border-collapse:collapse;font-size:16px}"
    ".bt-klasse-list th,.bt-klasse-list td{border-bottom:1px solid #ccc;padding:2px 10px;"
    "text-align:left}"
    ".bt-klassenraum,.bt-klassenraum .widget-html-content{font-size:16px;line-height:1.45}"
    ".bt-klassenraum input{font-size:16px!important;min-height:44px;box-sizing:border-box}"
    ".bt-klassenraum .widget-text{height:auto}.bt-klassenraum .widget-label{font-size:16px}"
    ".bt-klassenraum button,.bt-klasse-form-button{min-height:44px!important;font-size:16px!important;"
    "padding:0 16px!important}"
    ".bt-klasse-form{display:inline-block;margin:4px 6px 4px 0}"
    ".bt-klasse-form-button{background:#5E35B1;color:#fff;border:0;border-radius:3px;cursor:pointer}"
    ".bt-klasse-pin{font-size:28px;letter-spacing:.15em;font-family:monospace}"
    "@media print{.bt-klassenraum{display:none!important}}</style>"
)
_PROJECTOR_STYLE = (
    "<style>.bt-beamer,.bt-beamer .widget-html-content{font-size:28px;line-height:1.35;"
    "color:#1b1b1b}"
    ".bt-beamer h2{font-size:30px;margin:4px 0}.bt-beamer h3{font-size:30px;margin:8px 16px 4px 0}"
    ".bt-beamer .bt-klasse-code{font-size:32px}"
    ".bt-beamer .bt-klasse-code strong{font-size:80px;line-height:1}"
    ".bt-beamer .bt-klasse-link{font-size:28px;word-break:break-all;margin:4px 0}"
    ".bt-beamer-head{display:flex;gap:32px;align-items:center}"
    ".bt-beamer-head>div{flex:1 1 0;min-width:0}.bt-beamer-head p{margin:4px 0}"
    ".bt-beamer .bt-klasse-qr{flex:0 0 auto}"
    ".bt-beamer .bt-klasse-qr svg{width:220px;height:220px;display:block}"
    ".bt-beamer .bt-q-info,.bt-beamer .bt-q-invalid,.bt-beamer .bt-q-correct{font-size:28px!important}"
    ".bt-beamer button{min-height:56px!important;font-size:28px!important;padding:0 24px!important}"
    ".bt-beamer input{font-size:28px!important;min-height:56px;width:9em!important}"
    ".bt-beamer .widget-label{font-size:28px!important}.bt-beamer .widget-text{width:auto!important;"
    "height:auto;margin-right:16px}"
    ".bt-beamer .bt-klasse-list{font-size:28px}"
    ".bt-beamer .bt-beamer-line{margin:0}.bt-beamer .bt-beamer-line strong{font-size:44px}"
    ".bt-beamer-kompakt h2{display:none}.bt-beamer-kompakt h3{font-size:28px;margin:4px 16px 0 0}"
    ".bt-beamer-kompakt .bt-klasse-projektor p{margin:4px 0}"
    "@media (min-width:1600px){.bt-beamer .bt-klasse-qr svg{width:320px;height:320px}"
    ".bt-beamer .bt-klasse-code strong{font-size:120px}"
    ".bt-beamer,.bt-beamer .widget-html-content{font-size:36px}}</style>"
)


def _remembered_class() -> type:
    import ipywidgets as widgets
    from traitlets import Bool, Unicode

    class Remembered(widgets.Widget):
        """The browser's memory of this visitor's class (``localStorage``, by ``role``):
        the kernel sets ``code``/``token`` (a pupil's member token, a teacher's key), the
        browser fills in what it remembers and sets ``loaded``."""

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


def client_address() -> str:
    """The visitor's address as the server saw it ("" outside ``bohnteach serve``)."""
    return os.environ.get(CLIENT_ENV, "")


def _local(seconds: float) -> datetime:
    """A moment in the server's zone (:data:`ZONE_ENV`, default Europe/Berlin), never bare UTC."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        zone = ZoneInfo(os.environ.get(ZONE_ENV, "").strip() or DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo(DEFAULT_ZONE)
    return datetime.fromtimestamp(seconds, zone)


def local_time(seconds: float, lang: str | Translator | None = None) -> str:
    """A moment as the class reads it, in the server's zone: ``06.12.2026 um 14:05``
    (German, without ``lang``), ``6 December 2026 at 14:05``."""
    return moment(_local(seconds), as_translator(lang))


def _clock(seconds: float) -> str:
    return _local(seconds).strftime("%H:%M")


def exact_value(act: Activity) -> Fraction:
    """The activity's exact answer (a probability), from its lesson's facts."""
    from bohnteach.content.lesson_facts import facts_for

    return facts_for(act.lesson)[act.fact].value


def parse_estimate(text: str, act: Activity) -> float:
    """A typed estimate in the activity's unit, read by the exercises' parser
    (:func:`bohnteach.widgets.questions.parse_answer`); German errors.

    For a percent activity: a number with ``%`` or „Prozent“ is that percent; a fraction
    (``3/8``) or a number below 1 written with a decimal mark (``0,375``, ``0,5``) is a
    probability (37,5 %, 50 %); any other number is percent (``12`` → 12 %, ``1`` → 1 %,
    ``0`` → 0 %). Of two readings (``1.500``) the first counts (1,5). „percent“ is read
    as „Prozent“. A refusal names its reason (:class:`ClassroomError`); German shows the
    exercises' own message."""
    text = str(text or "").strip()
    if len(text) > 30:
        raise ClassroomError("estimate_long")
    try:
        value = parse_answer(re.sub(r"\s*percent$", " %", text, flags=re.IGNORECASE))[0]
    except AnswerFormatError as err:
        raise ClassroomError("unreadable" if text else "empty", typed=text, detail=str(err)) from None
    if act.unit == "%":
        bare = text.replace(" ", "").lower()
        marked = bare.endswith(("%", "prozent", "percent"))
        if not marked and ("/" in bare or (0 < value < 1 and any(c in bare for c in ",."))):
            value *= 100
        elif marked:
            value *= 100  # parse_answer read the percent as a share
    number = float(value) if abs(value) < 10**12 else float("inf") * (1 if value > 0 else -1)
    if number in (float("inf"), float("-inf")):
        raise ClassroomError("number_big")
    check_submission(act, number)  # the range, as the store will check it
    return number


def projector_title(lesson: str, lang: str | Translator | None = None) -> str:
    """The projector view's title: „Beamer-Ansicht: <the lesson's title>“ in ``lang``'s
    words (German without one)."""
    from bohnteach.content.chapters import LESSONS

    tr = as_translator(lang)
    return say(tr, "projector_title", title=tr.gettext(dict(LESSONS).get(lesson, lesson)))


def class_link(lesson: str, code: str) -> str:
    """The address a pupil opens: the app's lesson with ``klasse=CODE`` – nothing else (no
    teacher mode, no key); absolute where the kernel knows its server's name."""
    return _site_address(urlencode({"lektion": lesson, CLASS_KEY: code}))


def projector_address(lesson: str) -> str:
    """The projector view's address (no code, no key: the browser holds those)."""
    return _site_address(urlencode({PROJECTOR_KEY: lesson}))


def _site_address(query: str) -> str:
    public = os.environ.get(PUBLIC_URL_ENV, "")
    if public:
        return f"{public}?{query}"
    host, port = os.environ.get("SERVER_NAME", ""), os.environ.get("SERVER_PORT", "")
    if not host:
        return f"/?{query}"
    scheme = "https" if port == "443" else "http"
    port_part = "" if port in ("", "80", "443") else f":{port}"
    return f"{scheme}://{host}{port_part}/?{query}"


def qr_svg(link: str, lang: str | Translator | None = None) -> str:
    """The link as a QR code, inline SVG (segno), labelled for screen readers (in
    ``lang``'s words, German without one)."""
    import segno

    tr = as_translator(lang)
    svg = segno.make(link, error="m").svg_inline(scale=4, omitsize=True, title=say(tr, "qr_title"))
    label = html.escape(say(tr, "qr_label"))
    return f'<div class="bt-klasse-qr" role="img" aria-label="{label}">{svg}</div>'


# --------------------------------------------------------------------------- charts


def pool_figure(act: Activity, pool: Pool, exact: Fraction, big: bool = False,
                height: int | None = None, lang: str | Translator | None = None) -> Any:
    """The class's submissions: estimates as a bar chart of 5-%-bins (y from 0); draws as
    one bar per member (keyed by the member's number, labelled with the nickname) with the
    running class total. The exact value appears once the teacher revealed it. ``big``:
    lettering for the projector (labels ≥ 20 px); ``height`` in px, if not the usual;
    its words in ``lang``'s (German without one)."""
    import plotly.graph_objects as go

    tr = as_translator(lang)
    exact_words = say(tr, "chart_exact") + ": " + percent(float(exact), tr)
    fig = go.Figure()
    if act.kind == "schaetzung":
        counts = [0] * 20
        for e in pool.entries:
            counts[min(max(int(e.value // 5), 0), 19)] += 1
        top = max(counts + [1])
        fig.add_bar(x=[i * 5 + 2.5 for i in range(20)], y=counts, width=[4.6] * 20,
                    marker_color="#5E35B1", name=say(tr, "chart_estimates"),
                    hovertemplate="%{x:.1f} %: %{y}<extra></extra>")
        fig.update_layout(title=say(tr, "chart_estimates"), xaxis_title=say(tr, "chart_estimates_x"),
                          yaxis_title=say(tr, "chart_count"), xaxis_range=[0, 100],
                          yaxis_range=[0, top * 1.15], yaxis_tick0=0,
                          yaxis_dtick=max(1, -(-top // 8)))  # whole pupils
        if pool.revealed:
            x = float(exact) * 100
            fig.add_vline(x=x, line_color="#2E7D32", line_width=3)
            fig.add_annotation(x=x, y=1, yref="paper", text=exact_words,
                               showarrow=False, yanchor="bottom", font_color="#1B5E20")
    else:
        seqs = [e.seq for e in pool.entries]
        names = [_who(e.nickname, e.member) for e in pool.entries]
        rates = [100 * e.value / e.trials if e.trials else 0 for e in pool.entries]
        hits = trials = 0
        running = []
        for e in pool.entries:
            hits, trials = hits + e.value, trials + (e.trials or 0)
            running.append(100 * hits / trials if trials else 0)
        fig.add_bar(x=seqs, y=rates, marker_color="#90A4AE", name=say(tr, "chart_pupil"),
                    customdata=names, hovertemplate="%{customdata}: %{y:.1f} %<extra></extra>")
        fig.add_scatter(x=seqs, y=running, mode="lines+markers", line_color="#5E35B1",
                        line_width=3, name=say(tr, "chart_total"))
        fig.update_layout(title=say(tr, "chart_experiment"), yaxis_title=say(tr, "chart_rate"),
                          legend_orientation="h", legend_y=-0.25, yaxis_rangemode="tozero",
                          xaxis={"tickmode": "array", "tickvals": seqs, "ticktext": names,
                                 "type": "linear"})
        if pool.revealed:
            fig.add_hline(y=float(exact) * 100, line_color="#2E7D32", line_width=3,
                          annotation_text=exact_words)
    size = 22 if big else 13
    fig.update_layout(height=height or (BIG_CHART if big else PANEL_CHART), font_size=size, title_font_size=size + 4,
                      margin={"l": 70 if big else 50, "r": 20, "t": 60, "b": 90 if big else 50},
                      plot_bgcolor="white", showlegend=act.kind != "schaetzung")
    if pool.revealed:
        fig.update_annotations(font_size=size)
    return fig


def _who(nickname: str | None, member: str) -> str:
    return nickname or member


def summary_html(act: Activity, pool: Pool, exact: Fraction, with_list: bool = True,
                 lang: str | Translator | None = None) -> str:
    """The numbers beside the chart and the list of submissions (every nickname escaped),
    in ``lang``'s words (German without one)."""
    tr = as_translator(lang)
    parts = [members_line(tr, pool.members, len(pool.entries))]
    if not pool.entries:
        parts.append(say(tr, "none_yet"))
    elif act.kind == "schaetzung":
        mean = sum(e.value for e in pool.entries) / len(pool.entries)
        parts.append(say(tr, "mean", mean=percent_value(mean, tr)))
    else:
        hits = sum(e.value for e in pool.entries)
        trials = sum(e.trials or 0 for e in pool.entries)
        parts.append(class_total(tr, int(hits), int(trials), percent(hits / trials, tr) if trials else "–"))
    if pool.revealed:
        parts.append(say(tr, "revealed", exact=percent(float(exact), tr)))
    rows = "".join(
        f"<tr><td>{html.escape(_who(e.nickname, e.member))}</td>"
        f"<td>{_entry_text(act, e.value, e.trials, tr)}</td></tr>"
        for e in pool.entries) if with_list else ""
    head = "".join(f"<th>{say(tr, key)}</th>" for key in ("list_who", "list_what"))
    table = f'<table class="bt-klasse-list"><tr>{head}</tr>{rows}</table>' if rows else ""
    return "<p>" + " ".join(parts) + "</p>" + table


def _entry_text(act: Activity, value: float, trials: int | None, tr: Translator) -> str:
    if act.kind == "schaetzung":
        return percent_value(value, tr)
    return f"{int(value)} / {trials}"


def _form_link(address: str, label: str) -> str:
    """A button that opens ``address`` of the site in a new tab: a plain GET form (the
    app's link script rewrites ``<a>`` links to the site's pages; a form it leaves alone)."""
    from urllib.parse import parse_qsl, urlsplit

    parts = urlsplit(address)
    fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                     for k, v in parse_qsl(parts.query))
    action = html.escape(address.split("?", 1)[0])
    return (f'<form class="bt-klasse-form" method="get" action="{action}" target="_blank" '
            f'rel="noopener">{fields}<button type="submit" class="bt-klasse-form-button">'
            f"{html.escape(label)}</button></form>")


def _confirm(label: str, question: str, yes: str, action: Callable[[], None],
             panel: Any, danger: bool = False) -> Any:
    """A button that asks first: a click shows ``question`` with „``yes``“ and „Abbrechen“."""
    import ipywidgets as widgets

    row = widgets.HBox(layout=layout(flex_flow="row wrap", align_items="center"))
    first = button(label, style="danger" if danger else "")
    sure = button(yes, style="danger")
    cancel = button(say(panel.tr, "cancel"))
    ask = html_part(box_html("wrong", html.escape(question)))

    def show(asking: bool) -> None:
        row.children = (ask, sure, cancel) if asking else (first,)

    def do() -> None:
        show(False)
        action()

    first.on_click(lambda _b: show(True))
    cancel.on_click(lambda _b: show(False))
    sure.on_click(lambda _b: guard(panel.message)(do)())
    show(False)
    return row


# --------------------------------------------------------------------------- the panel


@guard()
def classroom(lesson: str, store: Store | None = None, lang: str | Translator | None = None):
    """The lesson's class panel (a widget), or the note that there is no server; in
    ``lang`` (else the page's language)."""
    tr = reader(lang)
    store = store_from_env() if store is None else store
    if store is None:
        return html_part(box_html("info", say(tr, "no_server")))
    return Classroom(lesson, store, lang=tr).widget


@guard()
def projector(lesson: str, store: Store | None = None, lang: str | Translator | None = None):
    """The lesson's projector view (a widget), or the note that there is no server; in
    ``lang`` (else the page's language)."""
    tr = reader(lang)
    store = store_from_env() if store is None else store
    if store is None:
        return html_part(box_html("info", say(tr, "no_server")))
    return Projector(lesson, store, lang=tr).widget


class _Panel:
    """What the class panel and the projector share: the frame, the browser's memory, the
    message line, the polling thread, and the reader's translator (``tr``: every word of
    the panel, in its callbacks and its periodic refreshes too, is said with it)."""

    role_css = "bt-klassenraum"

    def __init__(self, lesson: str, store: Store, query: str | None, heading: str,
                 style: str, tr: Translator) -> None:
        import ipywidgets as widgets

        self.tr = tr
        self.lesson = lesson
        self.store = store
        self.activities = [a for a in ACTIVITIES.values() if a.lesson == lesson]
        self.message = html_part()
        self.body = widgets.VBox(layout=layout(width="100%"))
        self.widget = widgets.VBox(
            [html_part(style + heading), self.message, self.body],
            layout=layout(width="100%", border="1px solid #7A9CC6", padding="4px 12px",
                          margin="12px 0"), _dom_classes=(self.role_css,))
        self.remembered = _remembered_class()()
        self.code = ""
        self.token = ""
        self._stop = threading.Event()
        self._decided = False
        self._open: bool | None = None  # the class's state as last shown (teacher's views)
        self._views: list[_ProjectorView] = []  # one per activity (teacher's views)
        if query is not None:
            self.decide(query)
        else:
            self.body.children = (html_part(say(self.tr, "loading")),)
            self.remembered.observe(self._on_loaded, names="loaded")

    def _on_loaded(self, change: dict[str, Any]) -> None:
        if change["new"]:
            guard(self.message)(self.decide)(None)

    def decide(self, query: str | None) -> None:
        raise NotImplementedError

    def _say(self, kind: str, text: str) -> None:
        """Show (or clear) the panel's message: a new HTML widget made with its text, not a
        changed value – right after the page loaded, a value sent to a widget the browser
        had not set up yet was lost now and then (the message of an ended class missing)."""
        value = box_html(kind, text) if text else ""
        if value == self.message.value:
            return
        self.message = html_part(value)
        self.widget.children = (self.widget.children[0], self.message, self.body)

    def _start_polling(self, step: Callable[[], None], seconds: float) -> None:
        stop = self._stop = threading.Event()

        def run() -> None:
            while not stop.wait(seconds):
                if self.widget.comm is None:  # the page was left (the app closed its widgets)
                    return
                try:
                    step()
                except Exception as err:  # noqa: BLE001 - keep polling; the log has it
                    setup_server_log()
                    if unreachable(err):  # say so; the next poll that works takes it back
                        log.warning("Klassenraum: Speicher nicht erreichbar: %s", err)
                        self._say("info", say(self.tr, "store_away"))
                    else:
                        log.exception("Klassenraum: Aktualisieren fehlgeschlagen")
                else:
                    if self.message.value == box_html("info", say(self.tr, "store_away")):
                        self._say("", "")

        threading.Thread(target=run, name="classroom-poll", daemon=True).start()

    def _poll_step(self) -> None:
        """One poll of a teacher's view (the panel, the projector): the class's state if it
        changed, then each activity's view; a class ended or taken elsewhere ends the view."""
        try:
            info = self.store.authorize(self.code, self.token)
        except ClassroomError:
            self._gone()
            return
        if info.is_open != self._open:
            self._show_state(info)
        for view in self._views:
            view.refresh()

    def _show_state(self, info: Any) -> None:
        raise NotImplementedError

    def _gone(self) -> None:
        raise NotImplementedError

    def _remember(self, code: str, token: str) -> None:
        self.code, self.token = code, token
        self.remembered.code, self.remembered.token = code, token

    def _take_over_form(self, after: Callable[[str, str], None]) -> Any:
        """Code and PIN from the teacher's other device: a key of this browser's own."""
        import ipywidgets as widgets

        field = {"label_width": "initial", "layout": {"width": "260px"}}
        code_in = control(widgets.Text, description=say(self.tr, "code_label"), **field)
        pin_in = control(widgets.Text, description=say(self.tr, "pin_label"),
                         placeholder=say(self.tr, "pin_placeholder"), **field)
        go = button(say(self.tr, "take_over"), style="primary")

        def on_go() -> None:
            try:
                got = self.store.redeem_pin(code_in.value, pin_in.value, client_address())
            except ClassroomError as err:
                self._say("invalid", html.escape(err.words(self.tr)))
                return
            self._say("", "")
            after(got.code, got.key)

        go.on_click(lambda _b: guard(self.message)(on_go)())
        return widgets.VBox([html_part(box_html("info", say(self.tr, "take_over_intro"))),
                             widgets.HBox([code_in, pin_in, go], layout=layout(flex_flow="row wrap"))])


class Classroom(_Panel):
    """One lesson's panel; :meth:`decide` shows the teacher's or the pupil's half once the
    browser has said what it remembers (or at once with ``query``, as the tests do)."""

    def __init__(self, lesson: str, store: Store, query: str | None = None,
                 lang: str | Translator | None = None) -> None:
        self._views: list[_ProjectorView] = []
        self._pupils: list[_PupilActivity] = []
        tr = reader(lang)
        heading = "<h2>" + say(tr, "title") + "</h2>"
        super().__init__(lesson, store, query, heading, _STYLE, tr)

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
            self._teacher(wanted, code, token)
        else:
            self._pupil(wanted, code, token)

    # -- teacher

    def _teacher(self, wanted: str, code: str, key: str) -> None:
        """The class this browser holds the key of; else „Klasse starten“ (and why)."""
        notes = []
        if wanted and not _same(wanted, code):
            notes.append(say(self.tr, "not_yours", spoken=html.escape(_spoken(wanted))))
        if code and key:
            try:
                self.store.authorize(code, key, client_address())
                self._show_class(normalize_code(code), key)
                if notes:
                    self._say("info", notes[0])
                return
            except ClassroomError:  # ended or expired (or a key that was never right)
                notes.append(say(self.tr, "own_gone", spoken=html.escape(_spoken(code))))
                self._remember("", "")
        self._say("info", "<br>".join(notes))
        self._start_form()

    def _start_form(self) -> None:
        start = button(say(self.tr, "start"), style="primary")
        start.on_click(lambda _b: guard(self.message)(self._start)())
        self.body.children = (html_part(box_html("teacher", say(self.tr, "teacher_intro"))), start,
                              self._take_over_form(self._taken_over))

    def _taken_over(self, code: str, key: str) -> None:
        self._show_class(code, key)

    def _start(self) -> None:
        info = self.store.create_class()
        self._say("", "")
        self._show_class(info.code, info.key)

    def _show_class(self, code: str, key: str) -> None:
        import ipywidgets as widgets

        self._remember(code, key)
        info = self.store.authorize(code, key)
        link = class_link(self.lesson, code)
        head = html_part(
            '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:center">'
            + "<div>" + _code_html(code, link, self.tr) + "</div>" + qr_svg(link, self.tr) + "</div>")
        self.state = html_part()
        self._open = info.is_open
        self.toggle = button(say(self.tr, "close"))
        self.toggle.on_click(lambda _b: guard(self.message)(self._on_toggle)())
        end = _confirm(say(self.tr, "end"), say(self.tr, "end_ask"), say(self.tr, "end_yes"), self._end,
                       self,
                       danger=True)
        self.pin = html_part()
        pin_button = button(say(self.tr, "pin_new"))
        pin_button.on_click(lambda _b: guard(self.message)(self._new_pin)())
        beamer = widgets.HBox([
            html_part(_form_link(projector_address(self.lesson), say(self.tr, "projector_open"))),
            pin_button], layout=layout(flex_flow="row wrap", align_items="center"))
        self._show_state(info)
        self._views = [_ProjectorView(self, act) for act in self.activities]
        self.body.children = (head, self.state,
                              widgets.HBox([self.toggle, end], layout=layout(flex_flow="row wrap")),
                              beamer, html_part("<p>" + say(self.tr, "projector_hint") + "</p>"), self.pin,
                              *[v.widget for v in self._views])
        for view in self._views:
            view.refresh()
        self._start_polling(self._poll_step, POLL_SECONDS)

    def _show_state(self, info: Any) -> None:
        self._open = info.is_open
        self.state.value = ((say(self.tr, "state_open") if info.is_open else say(self.tr, "state_closed"))
                            + " " + say(self.tr, "expires", when=local_time(info.expires, self.tr)))
        self.toggle.description = say(self.tr, "close") if info.is_open else say(self.tr, "reopen")

    def _on_toggle(self) -> None:
        wanted_open = not self._open  # what the button said
        try:
            current = self.store.authorize(self.code, self.token)
        except ClassroomError:
            return self._gone()
        if current.is_open == wanted_open:  # somebody did it already: say so, change nothing
            self._show_state(current)
            self._say("info", say(self.tr, "opened_elsewhere" if wanted_open else "closed_elsewhere"))
            return
        try:
            self._show_state(self.store.set_open(self.code, self.token, wanted_open))
        except ClassroomError:
            return self._gone()
        self._say("", "")

    def _end(self) -> None:
        try:
            self.store.end_class(self.code, self.token)
        except ClassroomError:
            return self._gone()
        self._stop.set()
        self._remember("", "")
        self._say("", "")
        self.body.children = (html_part(box_html("info", say(self.tr, "ended"))),)
        self._start_form_after_end()

    def _start_form_after_end(self) -> None:
        start = button(say(self.tr, "start"), style="primary")
        start.on_click(lambda _b: guard(self.message)(self._start)())
        self.body.children = (*self.body.children, start)

    def _new_pin(self) -> None:
        try:
            pin, until = self.store.new_pin(self.code, self.token)
        except ClassroomError:
            return self._gone()
        shown = pin[:3] + " " + pin[3:]
        self.pin.value = box_html("teacher", say(self.tr, "pin_shown", 
            pin=shown, when=_clock(until), address=html.escape(projector_address(self.lesson))))

    def _gone(self) -> None:
        """The class is no more (ended elsewhere, expired): say so, offer a new one."""
        self._stop.set()
        self._remember("", "")
        self._say("invalid", say(self.tr, "ended_elsewhere"))
        self.body.children = ()
        self._start_form_after_end()

    # -- pupil

    def _pupil(self, wanted: str, remembered_code: str, token: str) -> None:
        code = wanted or remembered_code
        if code and token and (not wanted or _same(wanted, remembered_code)):
            try:
                member = self.store.member(code, token)
                self._member(member.code, member.token, member.nickname)
                return
            except ClassroomError:  # ended, expired: say so, and do not offer the dead code
                self._remember("", "")
                self._say("info", say(self.tr, "class_gone", spoken=html.escape(_spoken(code))))
                self._join_form("")
                return
        if wanted:  # a link (or a reload of one): is its class still there? (a counted try)
            try:
                self.store.find_class(wanted, client_address())
            except ClassroomError as err:
                self._say("info", say(self.tr, "link_gone", spoken=html.escape(_spoken(wanted)),
                                                            why=html.escape(err.words(self.tr))))
                self._join_form("")
                return
        self._join_form(wanted)

    def _join_form(self, code: str) -> None:
        import ipywidgets as widgets

        field = {"label_width": "initial", "layout": {"width": "260px"}}
        code_in = control(widgets.Text, value=code, description=say(self.tr, "code_label"), **field)
        # wide enough for its label and placeholder side by side, narrower on a phone
        nick_in = control(widgets.Text, description=say(self.tr, "nick_label"),
                          placeholder=say(self.tr, "nick_placeholder", n=NICK_MAX),
                          label_width="initial", layout={"width": "min(350px, 100%)"})
        join = button(say(self.tr, "join"), style="primary")

        def on_join() -> None:
            try:
                nick = check_nickname(nick_in.value)
                typed = self.store.find_class(code_in.value, client_address()).code
                member = self.store.join(typed, nick)
            except ClassroomError as err:
                self._say("invalid", html.escape(err.words(self.tr)))
                return
            self._say("", "")
            self._member(member.code, member.token, member.nickname)

        join.on_click(lambda _b: guard(self.message)(on_join)())
        self.body.children = (html_part(box_html("info", say(self.tr, "join_intro"))),
                              widgets.HBox([code_in, nick_in, join], layout=layout(flex_flow="row wrap")))

    def _member(self, code: str, token: str, nickname: str | None) -> None:
        self._remember(code, token)
        nick = say(self.tr, "joined_nick", nick=html.escape(nickname)) if nickname else ""
        hello = html_part(box_html("correct", say(self.tr, "joined", spoken=spoken_code(code), nick=nick)))
        self._pupils = [_PupilActivity(self, act) for act in self.activities]
        self.body.children = (hello, *[p.widget for p in self._pupils])
        self._start_polling(self._pupil_step, PUPIL_POLL_SECONDS)

    def _pupil_step(self) -> None:
        try:
            self.store.member(self.code, self.token)
        except ClassroomError:
            self.pupil_gone()
            return
        for activity_view in self._pupils:
            activity_view.follow()

    def pupil_gone(self) -> None:
        """The pupil's class is no more: say so, offer to join another."""
        self._stop.set()
        spoken = _spoken(self.code)
        self._remember("", "")
        self._join_form("")
        self._say("info", say(self.tr, "class_gone", spoken=html.escape(spoken)))


def _same(a: str, b: str) -> bool:
    try:
        return normalize_code(a) == normalize_code(b)
    except ClassroomError:
        return False


def _spoken(code: str) -> str:
    try:
        return spoken_code(normalize_code(code))
    except ClassroomError:
        return str(code)[:12]


def _code_html(code: str, link: str, tr: Translator) -> str:
    aria = html.escape(say(tr, "code_aria", spoken_aria=" ".join(code)))
    return say(tr, "code_big", spoken=spoken_code(code), aria=aria, link=html.escape(link))


class _ProjectorView:
    """One activity on the teacher's page or the projector: chart, numbers, (list); reveal
    and (on the teacher's page) clear, asked first."""

    def __init__(self, panel: Classroom | Projector, act: Activity, big: bool = False) -> None:
        import ipywidgets as widgets

        self.panel, self.act, self.big, self.tr = panel, act, big, panel.tr
        self.compact = False  # the projector's results-only mode: lower charts
        self.exact = exact_value(act)
        self.chart = control(widgets.Output, layout={"min_height": f"{BIG_CHART if big else PANEL_CHART}px",
                                                     "width": "100%"})
        self.summary = html_part()
        self.reveal = button(say(self.tr, "reveal"))
        self.reveal.on_click(lambda _b: guard(panel.message)(self._toggle_reveal)())
        self._revealed = False
        controls = [self.reveal]
        if not big:
            ask = say(self.tr, "clear_ask", title=self.tr.gettext(act.title))
            controls.append(_confirm(say(self.tr, "clear"), ask, say(self.tr, "clear_yes"), self._clear, panel))
        self._shown: Any = None
        self._lock = threading.Lock()
        heading, question = html.escape(self.tr.gettext(act.title)), html.escape(self.tr.gettext(act.prompt))
        prompt = "" if big else f"<p>{question}</p>"
        title = html_part(f"<h3>{heading}</h3>{prompt}")
        self.widget = widgets.VBox([
            widgets.HBox([title, *controls], layout=layout(flex_flow="row wrap", align_items="center"))
            if big else title,
            *(() if big else (widgets.HBox(controls, layout=layout(flex_flow="row wrap",
                                                                  align_items="center")),)),
            self.summary, self.chart,
        ], layout=layout(flex="1 1 560px", min_width="0", margin="0 24px 0 0") if big else layout(width="100%"),
            _dom_classes=("bt-klasse-projektor",))

    def set_compact(self, compact: bool) -> None:
        """Lower the chart (the projector's results-only mode), or give it its height back."""
        self.compact = compact
        self.chart.layout.min_height = f"{COMPACT_CHART if compact else BIG_CHART}px"
        self.refresh()

    def _toggle_reveal(self) -> None:
        wanted = not self._revealed  # what the button said
        p = self.panel
        try:
            pool = p.store.pool(p.code, p.token, self.act.key)
            if pool.revealed == wanted:
                p._say("info", say(self.tr, "revealed_elsewhere" if wanted else "hidden_elsewhere"))
            else:
                p.store.reveal(p.code, p.token, self.act.key, wanted)
                p._say("", "")
            self.refresh()
        except ClassroomError:
            p._gone()

    def _clear(self) -> None:
        p = self.panel
        try:
            p.store.clear_activity(p.code, p.token, self.act.key)
            self.refresh()
        except ClassroomError:
            p._gone()

    def refresh(self) -> None:
        """Redraw when the store holds something new (called by the polling thread too).
        The chart is set as the Output's ``outputs``, which is safe from another thread."""
        from bohnteach.widgets.figure import figure_bundle

        p = self.panel
        pool = p.store.pool(p.code, p.token, self.act.key)
        seen = (self.compact, pool.revealed, pool.members, pool.info.state,
                tuple((e.seq, e.nickname, e.value, e.trials, e.updated) for e in pool.entries))
        with self._lock:
            if seen == self._shown:
                return
            self._shown = seen
            self._revealed = pool.revealed
            bundle = figure_bundle(pool_figure(self.act, pool, self.exact, big=self.big,
                                               height=COMPACT_CHART if self.compact else None, lang=self.tr))
            self.chart.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)
            self.reveal.description = say(self.tr, "hide") if pool.revealed else say(self.tr, "reveal")
            # last: it says "done"
            self.summary.value = summary_html(self.act, pool, self.exact, with_list=not self.big,
                                              lang=self.tr)


class _PupilActivity:
    """One activity on a pupil's page: an estimate to send (its reading shown while typing),
    or draws to run and send. :meth:`follow` keeps it true to the store."""

    def __init__(self, panel: Classroom, act: Activity) -> None:
        import ipywidgets as widgets

        self.panel, self.act, self.tr = panel, act, panel.tr
        self.result = html_part()
        self.reading = html_part()
        self._sent: float | None = None
        self._locked = False
        heading, question = html.escape(self.tr.gettext(act.title)), html.escape(self.tr.gettext(act.prompt))
        title = html_part(f"<h3>{heading}</h3><p>{question}</p>")
        mine = panel.store.mine(panel.code, panel.token, act.key)
        if act.kind == "schaetzung":
            self.field = control(widgets.Text, placeholder=say(self.tr, "estimate_placeholder"),
                                 description=say(self.tr, "estimate_label"), label_width="initial",
                                 continuous_update=True, layout={"width": "220px"})
            self.field.observe(lambda _c: guard(self.reading)(self._read)(), names="value")
            self.send = button(say(self.tr, "send_estimate"), style="primary")
            self.send.on_click(lambda _b: guard(self.result)(self._send_estimate)())
            row = widgets.VBox([
                widgets.HBox([self.field, self.send],
                             layout=layout(flex_flow="row wrap", align_items="center")),
                self.reading,
                html_part('<p style="font-size:14px">' + say(self.tr, "estimate_rule") + "</p>")])
            self.follow()
        else:
            self.hits, self.trials = (int(mine[0]), int(mine[1] or 0)) if mine else (0, 0)
            draw = button(draw_button(self.tr, DRAWS), style="primary")
            draw.on_click(lambda _b: guard(self.result)(self._draw)())
            row = widgets.HBox([draw], layout=layout(flex_flow="row wrap"))
            if mine:
                self._show_draws()
        self.widget = widgets.VBox([title, row, self.result], layout=layout(width="100%"))

    def _read(self) -> None:
        text = self.field.value
        if not text.strip():
            self.reading.value = ""
            return
        try:
            value = parse_estimate(text, self.act)
        except ClassroomError as err:
            self.reading.value = box_html("invalid", html.escape(err.words(self.tr)))
            return
        reading = say(self.tr, "estimate_reading", value=percent_value(value, self.tr))
        self.reading.value = box_html("info", reading)

    def _send_estimate(self) -> None:
        p = self.panel
        try:
            value = parse_estimate(self.field.value, self.act)
            p.store.submit(p.code, p.token, self.act.key, value)
        except ClassroomError as err:
            self._after_refusal(err)
            return
        self._sent = value
        self.result.value = box_html("correct", say(self.tr, "estimate_sent", value=percent_value(value, self.tr)))

    def _after_refusal(self, err: ClassroomError) -> None:
        try:
            self.panel.store.member(self.panel.code, self.panel.token)
        except ClassroomError:
            self.panel.pupil_gone()
            return
        self.follow()
        self.result.value = box_html("invalid", html.escape(err.words(self.tr)))

    def follow(self) -> None:
        """Show what the store holds: revealed (locked), cleared, the pupil's own total."""
        p = self.panel
        mine = p.store.mine(p.code, p.token, self.act.key)
        if self.act.kind != "schaetzung":
            now = (int(mine[0]), int(mine[1] or 0)) if mine else (0, 0)
            if now != (self.hits, self.trials):
                self.hits, self.trials = now
                if self.trials:
                    self._show_draws()
                else:
                    self.result.value = box_html("info", say(self.tr, "draws_cleared"))
            return
        locked = p.store.revealed(p.code, self.act.key)
        value = None if mine is None else mine[0]
        if locked:
            text = (say(self.tr, "estimate_locked", value=percent_value(value, self.tr)) if value is not None
                    else say(self.tr, "estimate_locked_none"))
            self.result.value = box_html("info", text)
        elif value is None and self._sent is not None:
            self.result.value = box_html("info", say(self.tr, "estimate_cleared"))
        elif value is not None and (self._sent != value or self._locked):
            self.result.value = box_html("correct", say(self.tr, "estimate_sent", value=percent_value(value, self.tr)))
        elif value is None and self._locked:
            self.result.value = ""
        self._sent, self._locked = value, locked
        self.send.disabled = self.field.disabled = locked

    def _draw(self) -> None:
        from bohnteach.content.lesson_facts import PILE
        from bohnteach.maths.montecarlo import Runs, simulate_reveal

        p = self.panel
        try:
            mine = p.store.mine(p.code, p.token, self.act.key)
        except ClassroomError as err:
            self._after_refusal(err)
            return
        self.hits, self.trials = (int(mine[0]), int(mine[1] or 0)) if mine else (0, 0)  # cleared?
        if self.trials + DRAWS > self.act.max_trials:
            self.result.value = box_html("invalid", draws_full(self.tr, self.trials))
            return
        runs = Runs(DRAWS, seed=random.SystemRandom().randrange(2**31))
        est = simulate_reveal(self.act.variety, PILE, runs)
        hits = round(est.estimate * est.trials)
        try:
            p.store.submit(p.code, p.token, self.act.key, self.hits + hits, self.trials + est.trials)
        except ClassroomError as err:
            self._after_refusal(err)
            return
        self.hits, self.trials = self.hits + hits, self.trials + est.trials
        self._show_draws()

    def _show_draws(self) -> None:
        rate = percent(self.hits / self.trials, self.tr) if self.trials else "–"
        self.result.value = box_html("correct", draws_sent(self.tr, self.hits, self.trials, rate))


# --------------------------------------------------------------------------- the projector


class Projector(_Panel):
    """A lesson's projector view: the class this browser holds the key of (the teacher's
    ``localStorage``, or a key got with the class's PIN): code, link, QR, the live charts
    and totals and „Auflösen“ – nothing else. Without a key: the PIN form only."""

    role_css = "bt-beamer"

    def __init__(self, lesson: str, store: Store, query: str | None = None,
                 lang: str | Translator | None = None) -> None:
        tr = reader(lang)
        self._views: list[_ProjectorView] = []
        heading = "<h2>" + html.escape(projector_title(lesson, tr)) + "</h2>"
        super().__init__(lesson, store, query, heading, _PROJECTOR_STYLE, tr)

    def decide(self, query: str | None) -> None:
        if self._decided:
            return
        self._decided = True
        self.remembered.role = "lehrkraft"
        code, key = self.remembered.remembered("lehrkraft")
        if not self.activities:
            self.body.children = (html_part(box_html("info", say(self.tr, "projector_none"))),)
            return
        if code and key:
            try:
                self.store.authorize(code, key, client_address())
                self._show(normalize_code(code), key)
                return
            except ClassroomError:
                self._remember("", "")
                self._say("info", say(self.tr, "own_gone", spoken=html.escape(_spoken(code))))
        self._locked()

    def _locked(self) -> None:
        self.body.children = (html_part(box_html("info", say(self.tr, "projector_intro"))),
                              self._take_over_form(self._show))

    def _show(self, code: str, key: str) -> None:
        import ipywidgets as widgets

        self._remember(code, key)
        info = self.store.authorize(code, key)
        self._link = class_link(self.lesson, code)
        self._qr = qr_svg(self._link, self.tr)
        self.state = html_part()
        self._compact = False
        self._show_state(info)
        self._views = [_ProjectorView(self, act, big=True) for act in self.activities]
        views = widgets.HBox([v.widget for v in self._views],
                             layout=layout(flex_flow="row wrap", width="100%"))
        toggle = button(say(self.tr, "projector_compact"))

        def on_toggle() -> None:  # once the class has joined, the results fit a 720-line screen
            self._compact = not self._compact
            toggle.description = say(self.tr, "projector_full" if self._compact else "projector_compact")
            (self.widget.add_class if self._compact else self.widget.remove_class)("bt-beamer-kompakt")
            self._show_state(self.store.authorize(self.code, self.token))
            for view in self._views:
                view.set_compact(self._compact)

        toggle.on_click(lambda _b: guard(self.message)(on_toggle)())
        top = widgets.HBox([self.state, toggle], layout=layout(flex_flow="row wrap", align_items="center",
                                                               justify_content="space-between"))
        self.body.children = (top, views)
        for view in self._views:
            view.refresh()
        self._start_polling(self._poll_step, POLL_SECONDS)

    def _show_state(self, info: Any) -> None:
        self._open = info.is_open
        state = say(self.tr, "state_open") if info.is_open else say(self.tr, "state_closed")
        if self._compact:  # the code stays, for who comes late
            short = say(self.tr, "projector_state_open" if info.is_open else "projector_state_closed")
            code = say(self.tr, "projector_code_line", spoken=spoken_code(self.code), state=short)
            self.state.value = f'<p class="bt-beamer-line">{code}</p>'
            return
        code = _code_html(self.code, self._link, self.tr)
        join = say(self.tr, "projector_join")
        self.state.value = (f'<div class="bt-beamer-head">{self._qr}<div>'
                            f"{code}<p>{state}</p><p>{join}</p></div></div>")

    def _gone(self) -> None:
        self._stop.set()
        self._remember("", "")
        self._say("invalid", say(self.tr, "ended_elsewhere"))
        self._locked()


__all__ = ["Classroom", "Projector", "class_link", "classroom", "local_time", "parse_estimate",
           "pool_figure", "projector", "projector_address", "projector_title", "qr_svg", "summary_html"]
