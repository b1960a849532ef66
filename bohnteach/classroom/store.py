"""The class store: classes, members, submissions and activity states (SQLAlchemy Core).

**Where.** ``BOHNTEACH_KLASSEN_DB`` (a URL, ``postgresql://user@host/db`` for a site with
several Voilà servers) or else ``BOHNTEACH_KLASSEN_DIR`` (a folder: the store is the SQLite
file ``klassen.sqlite3`` in it). ``bohnteach serve`` sets them from ``--klassen-db`` /
``--klassen-dir`` (default: ``~/.local/share/bohnteach/klassen``); every kernel it starts
inherits them. Without either there is no store and the lessons say so.

**Many kernels at once.** SQLite runs in WAL mode (readers never wait for the writer),
every write is one short ``BEGIN IMMEDIATE`` transaction (it takes the write lock at once,
so two writers never deadlock on an upgrade) and a writer that finds the lock taken waits
up to :data:`BUSY_SECONDS`. PostgreSQL needs nothing of that: a submission is one
``INSERT … ON CONFLICT DO UPDATE``.

**Schema** (tables prefixed ``bt_``): ``bt_klassen`` (code, created, expires, state
``open``/``closed``), ``bt_mitglieder`` (an anonymous random token, its class, an optional
nickname), ``bt_abgaben`` (one row per member and activity: the last submission counts),
``bt_aktivitaeten`` (per class and activity: revealed or not). Times are Unix seconds.

**Codes.** :data:`CODE_LENGTH` characters from :data:`CODE_ALPHABET` (no 0/O, 1/I/L, 2/Z,
5/S, 6/G, 8/B, Q): 22⁶ = 113 379 904 codes. A kernel that typed a wrong code must wait
before its next try, 1 s doubling to :data:`MAX_WAIT` (:class:`CodeAttempts`).

**Deletion.** A class expires :data:`DEFAULT_HOURS` hours after it was opened
(``BOHNTEACH_KLASSEN_STUNDEN``); expired classes are refused at once and deleted with their
members and submissions the next time any class is opened (an open projector also purges
every 5 minutes).
"""
from __future__ import annotations

import math
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bohnteach.classroom.activities import ACTIVITIES, Activity

ENV_DB = "BOHNTEACH_KLASSEN_DB"
ENV_DIR = "BOHNTEACH_KLASSEN_DIR"
ENV_HOURS = "BOHNTEACH_KLASSEN_STUNDEN"
SQLITE_FILE = "klassen.sqlite3"
DEFAULT_HOURS = 24.0
BUSY_SECONDS = 30.0

CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 6
NICK_MAX = 20
MAX_WAIT = 60.0
MAX_SUBMIT = 1e9
"""No estimate or count beyond this is stored, whatever the activity allows."""

OPEN, CLOSED = "open", "closed"


class ClassroomError(ValueError):
    """A refused class action; the message is German and meant for the page."""


# --------------------------------------------------------------------------- words

WORDS = {
    "no_code": "Bitte gib den Klassencode ein (6 Zeichen, z. B. „ACD 479“).",
    "bad_code": "„{code}“ ist kein Klassencode: Er hat 6 Zeichen aus {alphabet}.",
    "unknown": "Zu diesem Code gibt es keine Klasse (oder sie ist abgelaufen). Frag deine "
               "Lehrkraft nach dem Code.",
    "wait": "Zu viele falsche Codes. Bitte warte noch {seconds} s und versuche es dann wieder.",
    "closed": "Die Klasse ist geschlossen: Die Lehrkraft hat keine Abgaben mehr zugelassen.",
    "not_member": "Du bist nicht (mehr) in dieser Klasse. Tritt bitte neu bei.",
    "nick_long": "Der Spitzname ist zu lang: höchstens {n} Zeichen.",
    "nick_chars": "Im Spitznamen sind nur Buchstaben, Ziffern, Leerzeichen und . - _ ! "
                  "erlaubt.",
    "activity": "Diese Aufgabe gibt es nicht.",
    "number": "Bitte gib eine Zahl ein.",
    "range": "Bitte gib eine Zahl von {low} bis {high}{unit} ein.",
    "trials": "Die Anzahl der Durchläufe muss zwischen 1 und {n} liegen.",
    "hits": "Die Treffer müssen zwischen 0 und der Anzahl der Durchläufe liegen.",
}


# --------------------------------------------------------------------------- codes


def normalize_code(text: str) -> str:
    """The code as stored (upper case, without spaces or dashes); refuses malformed ones."""
    code = re.sub(r"[\s\-]", "", str(text or "")).upper()
    if not code:
        raise ClassroomError(WORDS["no_code"])
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        shown = code[:12] + ("…" if len(code) > 12 else "")
        raise ClassroomError(WORDS["bad_code"].format(code=shown, alphabet=" ".join(CODE_ALPHABET)))
    return code


def spoken_code(code: str) -> str:
    """The code in two groups of three, as read aloud: ``ACD 479``."""
    return f"{code[:3]} {code[3:]}"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class CodeAttempts:
    """Slows down guessing in one kernel: after a wrong code the next try must wait 1 s,
    doubling with every further wrong code up to :data:`MAX_WAIT`; a right code resets."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failures = 0
        self.next_try = 0.0

    def check(self) -> None:
        wait = self.next_try - self.clock()
        if wait > 0:
            raise ClassroomError(WORDS["wait"].format(seconds=math.ceil(wait)))

    def failed(self) -> None:
        self.failures += 1
        self.next_try = self.clock() + min(2.0 ** (self.failures - 1), MAX_WAIT)

    def succeeded(self) -> None:
        self.failures, self.next_try = 0, 0.0


# --------------------------------------------------------------------------- checks

_NICK = re.compile(r"^[\w .\-!]*$")


def check_nickname(text: str | None) -> str | None:
    """An optional nickname: trimmed, at most :data:`NICK_MAX` characters, no markup."""
    nick = " ".join(str(text or "").split())
    if not nick:
        return None
    if not _NICK.match(nick):
        raise ClassroomError(WORDS["nick_chars"])
    if len(nick) > NICK_MAX:
        raise ClassroomError(WORDS["nick_long"].format(n=NICK_MAX))
    return nick


def activity(key: str) -> Activity:
    try:
        return ACTIVITIES[key]
    except KeyError:
        raise ClassroomError(WORDS["activity"]) from None


def check_submission(act: Activity, value: Any, trials: Any = None) -> tuple[float, int | None]:
    """The submission as stored, or a German refusal: an estimate within the activity's
    range; an experiment's hits (0 … trials) out of 1 … ``max_trials`` trials."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_SUBMIT:
        raise ClassroomError(WORDS["number"])
    if act.kind == "experiment":
        if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= act.max_trials:
            raise ClassroomError(WORDS["trials"].format(n=f"{act.max_trials:_}".replace("_", ".")))
        if value != int(value) or not 0 <= value <= trials:
            raise ClassroomError(WORDS["hits"])
        return float(value), trials
    if not act.low <= value <= act.high:
        unit = f" {act.unit}" if act.unit else ""
        raise ClassroomError(WORDS["range"].format(low=_de(act.low), high=_de(act.high), unit=unit))
    return float(value), None


def _de(x: float) -> str:
    return f"{x:g}".replace(".", ",")


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class ClassInfo:
    code: str
    created: float
    expires: float
    state: str

    @property
    def is_open(self) -> bool:
        return self.state == OPEN


@dataclass(frozen=True)
class Member:
    code: str
    token: str
    nickname: str | None


@dataclass(frozen=True)
class Entry:
    """One member's (last) submission to an activity."""

    member: str
    """A short stand-in for the member (not the token): ``#1``, ``#2`` … by joining order."""
    nickname: str | None
    value: float
    trials: int | None
    updated: float


@dataclass(frozen=True)
class Pool:
    """An activity's state in a class: revealed or not, and every member's submission
    (oldest first)."""

    info: ClassInfo
    revealed: bool
    entries: tuple[Entry, ...]
    members: int


# --------------------------------------------------------------------------- the store


def _tables(meta: Any) -> dict[str, Any]:
    """The four tables by English key; the stored names (``bt_klassen`` …) stay as they are,
    so the class stores that exist keep working."""
    from sqlalchemy import (Boolean, Column, Float, ForeignKey, Integer, PrimaryKeyConstraint,
                            String, Table)

    return {
        "classes": Table(
            "bt_klassen", meta,
            Column("code", String(CODE_LENGTH), primary_key=True),
            Column("created", Float, nullable=False),
            Column("expires", Float, nullable=False, index=True),
            Column("state", String(8), nullable=False),
        ),
        "members": Table(
            "bt_mitglieder", meta,
            Column("token", String(64), primary_key=True),
            Column("code", String(CODE_LENGTH), ForeignKey("bt_klassen.code", ondelete="CASCADE"),
                   nullable=False, index=True),
            Column("seq", Integer, nullable=False),
            Column("nickname", String(NICK_MAX)),
            Column("joined", Float, nullable=False),
        ),
        "submissions": Table(
            "bt_abgaben", meta,
            Column("code", String(CODE_LENGTH), ForeignKey("bt_klassen.code", ondelete="CASCADE"),
                   nullable=False),
            Column("activity", String(40), nullable=False),
            Column("token", String(64), ForeignKey("bt_mitglieder.token", ondelete="CASCADE"),
                   nullable=False),
            Column("value", Float, nullable=False),
            Column("trials", Integer),
            Column("updated", Float, nullable=False),
            PrimaryKeyConstraint("code", "activity", "token"),
        ),
        "activities": Table(
            "bt_aktivitaeten", meta,
            Column("code", String(CODE_LENGTH), ForeignKey("bt_klassen.code", ondelete="CASCADE"),
                   nullable=False),
            Column("activity", String(40), nullable=False),
            Column("revealed", Boolean, nullable=False),
            PrimaryKeyConstraint("code", "activity"),
        ),
    }


def _engine(url: str) -> Any:
    from sqlalchemy import create_engine, event

    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]  # psycopg 3, not psycopg2
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=8)
    engine = create_engine(url, pool_size=2, max_overflow=40, pool_timeout=BUSY_SECONDS,
                           connect_args={"timeout": BUSY_SECONDS, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Reads start a deferred transaction (a WAL snapshot, no lock); writes take the
        # write lock at once, so the busy timeout applies instead of a deadlock error.
        read = conn.get_execution_options().get("bt_read", False)
        conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")

    return engine


def url_from_env(env: Mapping[str, str] | None = None) -> str | None:
    """The store's URL from the environment, or None (no store: no class)."""
    env = os.environ if env is None else env
    if env.get(ENV_DB):
        return env[ENV_DB]
    if env.get(ENV_DIR):
        folder = Path(env[ENV_DIR]).expanduser()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / SQLITE_FILE}"
    return None


def hours_from_env(env: Mapping[str, str] | None = None) -> float:
    env = os.environ if env is None else env
    try:
        hours = float(env.get(ENV_HOURS) or DEFAULT_HOURS)
    except ValueError:
        return DEFAULT_HOURS
    return hours if math.isfinite(hours) and hours > 0 else DEFAULT_HOURS


_OPEN_STORES: dict[str, Store] = {}
_OPEN_LOCK = threading.Lock()


def store_from_env(env: Mapping[str, str] | None = None) -> Store | None:
    """This kernel's store (one per URL and process), or None if none is configured."""
    url = url_from_env(env)
    if url is None:
        return None
    with _OPEN_LOCK:
        if url not in _OPEN_STORES:
            _OPEN_STORES[url] = Store(url, hours=hours_from_env(env))
        return _OPEN_STORES[url]


class Store:
    """Classes in one database. Every method is one short transaction; refusals raise
    :class:`ClassroomError` and change nothing."""

    def __init__(self, url: str, hours: float = DEFAULT_HOURS,
                 clock: Callable[[], float] = time.time) -> None:
        from sqlalchemy import MetaData

        self.url = url
        self.lifetime = hours * 3600.0
        self.clock = clock
        self.meta = MetaData()
        self.t = _tables(self.meta)
        self.engine = _engine(url)
        self._create_tables()

    def _create_tables(self) -> None:
        from sqlalchemy.exc import DBAPIError

        for attempt in range(3):
            try:
                self.meta.create_all(self.engine)
                return
            except DBAPIError:  # another kernel created them at the same moment (PostgreSQL)
                if attempt == 2:
                    raise
                time.sleep(0.1)

    def close(self) -> None:
        self.engine.dispose()

    def _write(self) -> Any:
        return self.engine.begin()

    def _read(self) -> Any:
        return self.engine.connect().execution_options(bt_read=True)

    def _insert(self, table: Any) -> Any:
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        return insert(table)

    # -- classes

    def create_class(self) -> ClassInfo:
        """A new open class with a fresh code (expired classes are deleted first)."""
        from sqlalchemy.exc import IntegrityError

        self.purge_expired()
        now = self.clock()
        k = self.t["classes"]
        while True:
            info = ClassInfo(new_code(), now, now + self.lifetime, OPEN)
            try:
                with self._write() as conn:
                    conn.execute(k.insert().values(code=info.code, created=info.created,
                                                   expires=info.expires, state=info.state))
                return info
            except IntegrityError:  # the code is taken (1 in 113 million per open class)
                continue

    def get_class(self, code: str) -> ClassInfo:
        """The class with this code, if it exists and has not expired."""
        code = normalize_code(code)
        k = self.t["classes"]
        with self._read() as conn:
            row = conn.execute(k.select().where(k.c.code == code)).first()
        if row is None or row.expires <= self.clock():
            raise ClassroomError(WORDS["unknown"])
        return ClassInfo(row.code, row.created, row.expires, row.state)

    def set_open(self, code: str, is_open: bool) -> ClassInfo:
        """Close a class (read-only: no joins, no submissions) or reopen it."""
        info = self.get_class(code)
        k = self.t["classes"]
        state = OPEN if is_open else CLOSED
        with self._write() as conn:
            conn.execute(k.update().where(k.c.code == info.code).values(state=state))
        return ClassInfo(info.code, info.created, info.expires, state)

    def end_class(self, code: str) -> None:
        """Delete the class with all its members and submissions."""
        code = normalize_code(code)
        with self._write() as conn:
            self._delete(conn, [code])

    def _delete(self, conn: Any, codes: list[str]) -> None:
        for name in ("submissions", "activities", "members", "classes"):
            table = self.t[name]
            conn.execute(table.delete().where(table.c.code.in_(codes)))

    def purge_expired(self) -> int:
        """Delete every expired class and its data; returns how many."""
        k = self.t["classes"]
        now = self.clock()
        with self._write() as conn:
            codes = [r.code for r in conn.execute(k.select().where(k.c.expires <= now))]
            if codes:
                self._delete(conn, codes)
        return len(codes)

    # -- members

    def join(self, code: str, nickname: str | None = None) -> Member:
        """A new anonymous member of an open class."""
        nick = check_nickname(nickname)
        info = self.get_class(code)
        if not info.is_open:
            raise ClassroomError(WORDS["closed"])
        m = self.t["members"]
        token = secrets.token_urlsafe(18)
        from sqlalchemy import func, select

        with self._write() as conn:
            seq = conn.execute(select(func.count()).select_from(m).where(m.c.code == info.code)).scalar_one()
            conn.execute(m.insert().values(token=token, code=info.code, seq=seq + 1, nickname=nick,
                                           joined=self.clock()))
        return Member(info.code, token, nick)

    def member(self, code: str, token: str) -> Member:
        """The member with this token in this class (a reload finds itself again)."""
        info = self.get_class(code)
        m = self.t["members"]
        with self._read() as conn:
            row = conn.execute(m.select().where(m.c.token == str(token or "")[:64],
                                                m.c.code == info.code)).first()
        if row is None:
            raise ClassroomError(WORDS["not_member"])
        return Member(info.code, row.token, row.nickname)

    # -- submissions

    def submit(self, code: str, token: str, activity_key: str, value: Any,
               trials: Any = None) -> None:
        """Store this member's submission; it replaces their earlier one."""
        act = activity(activity_key)
        value, trials = check_submission(act, value, trials)
        member = self.member(code, token)
        info = self.get_class(member.code)
        if not info.is_open:
            raise ClassroomError(WORDS["closed"])
        a = self.t["submissions"]
        row = dict(code=member.code, activity=act.key, token=member.token, value=value,
                   trials=trials, updated=self.clock())
        stmt = self._insert(a).values(**row)
        stmt = stmt.on_conflict_do_update(
            index_elements=[a.c.code, a.c.activity, a.c.token],
            set_={"value": stmt.excluded.value, "trials": stmt.excluded.trials,
                  "updated": stmt.excluded.updated},
        )
        with self._write() as conn:
            conn.execute(stmt)

    def clear_activity(self, code: str, activity_key: str) -> None:
        """Delete every submission to an activity and hide its answer again."""
        info = self.get_class(code)
        act = activity(activity_key)
        with self._write() as conn:
            for name in ("submissions", "activities"):
                table = self.t[name]
                conn.execute(table.delete().where(table.c.code == info.code,
                                                  table.c.activity == act.key))

    def reveal(self, code: str, activity_key: str, revealed: bool = True) -> None:
        """Show (or hide again) the exact answer of an activity to the class."""
        info = self.get_class(code)
        act = activity(activity_key)
        s = self.t["activities"]
        stmt = self._insert(s).values(code=info.code, activity=act.key, revealed=revealed)
        stmt = stmt.on_conflict_do_update(index_elements=[s.c.code, s.c.activity],
                                          set_={"revealed": stmt.excluded.revealed})
        with self._write() as conn:
            conn.execute(stmt)

    def pool(self, code: str, activity_key: str) -> Pool:
        """The activity's state: revealed?, and every member's last submission."""
        info = self.get_class(code)
        act = activity(activity_key)
        a, m, s = self.t["submissions"], self.t["members"], self.t["activities"]
        from sqlalchemy import func, select

        with self._read() as conn:
            rows = conn.execute(
                select(m.c.seq, m.c.nickname, a.c.value, a.c.trials, a.c.updated)
                .join(m, m.c.token == a.c.token)
                .where(a.c.code == info.code, a.c.activity == act.key)
                .order_by(a.c.updated, m.c.seq)
            ).all()
            revealed = conn.execute(select(s.c.revealed).where(
                s.c.code == info.code, s.c.activity == act.key)).scalar()
            members = conn.execute(select(func.count()).select_from(m)
                                   .where(m.c.code == info.code)).scalar_one()
        entries = tuple(Entry(f"#{r.seq}", r.nickname, r.value, r.trials, r.updated) for r in rows)
        return Pool(info, bool(revealed), entries, members)

    def mine(self, code: str, token: str, activity_key: str) -> tuple[float, int | None] | None:
        """This member's stored submission (value, trials), or None."""
        member = self.member(code, token)
        a = self.t["submissions"]
        with self._read() as conn:
            row = conn.execute(a.select().with_only_columns(a.c.value, a.c.trials).where(
                a.c.code == member.code, a.c.activity == activity(activity_key).key,
                a.c.token == member.token)).first()
        return None if row is None else (row.value, row.trials)
