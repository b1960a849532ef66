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
``bt_aktivitaeten`` (per class and activity: revealed or not), ``bt_schluessel`` (the
SHA-256 hashes of a class's teacher keys), ``bt_pins`` (a class's one-time PIN, hashed,
with its expiry and wrong tries), ``bt_versuche`` (wrong codes, PINs and keys: who, when).
Times are Unix seconds. The last three tables are new: :meth:`Store.__init__` creates them
beside the old ones (``CREATE TABLE IF NOT EXISTS``), nothing is altered, so a store file or
database of an earlier version keeps working. A class made by an earlier version has no
key: nobody controls it, and it is gone after its :data:`DEFAULT_HOURS` hours.

**The teacher key.** :meth:`Store.create_class` makes a random key of
:data:`KEY_BYTES` bytes (128 bits) and keeps only its SHA-256 hash; the key itself is
handed to the teacher's browser once. Every control (close/reopen, reveal, clear, end, the
pool with nicknames) takes the key and refuses without it (:meth:`Store.authorize`). A
second device (the projector's PC) gets a key of its own with a one-time PIN
(:meth:`Store.new_pin`, :meth:`Store.redeem_pin`): :data:`PIN_DIGITS` digits, valid
:data:`PIN_SECONDS` s, void after :data:`PIN_TRIES` wrong tries.

**Codes and guessing.** :data:`CODE_LENGTH` characters from :data:`CODE_ALPHABET` (no 0/O,
1/I/L, 2/Z, 5/S, 6/G, 8/B, Q): 22⁶ = 113 379 904 codes. Wrong codes, PINs and keys are
written to ``bt_versuche`` per client address (an IPv6 address by its /64 network) and per
code, so every kernel of the site (every tab, every reload) sees them
(:class:`Attempts`): :data:`FREE_TRIES` wrong tries in :data:`WINDOW` s are free, then each
further try waits 2, 4, 8 … s after the last wrong one, at most :data:`MAX_WAIT` s. One
address thus gets about one guess a minute however many tabs it opens: 1 440 a day. With 50
classes open a guess hits one with probability 50 / 22⁶ = 1 in 2,27 million, so one address
needs on average 2,27 million guesses ≈ 1 575 days; within a class's 24 h it hits any
of the 50 with probability ≈ 0,06 %. Pupils behind one school router share an address: a
pupil who guesses slows down the joins of that room (a right code asked for during a wait
is refused too, or the wait would tell right from wrong).

**Deletion.** A class expires :data:`DEFAULT_HOURS` hours after it was opened
(``BOHNTEACH_KLASSEN_STUNDEN``); expired classes are refused at once and deleted with their
members and submissions the next time any class is opened (an open projector also purges
every 5 minutes).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import os
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bohnteach.classroom.activities import ACTIVITIES, Activity
from bohnteach.i18n import N_, Translator, as_translator

ENV_DB = "BOHNTEACH_KLASSEN_DB"
#: Seconds to wait for a PostgreSQL server to accept a connection.
CONNECT_SECONDS = 3
ENV_DIR = "BOHNTEACH_KLASSEN_DIR"
ENV_HOURS = "BOHNTEACH_KLASSEN_STUNDEN"
SQLITE_FILE = "klassen.sqlite3"
DEFAULT_HOURS = 24.0
BUSY_SECONDS = 30.0

CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 6
NICK_MAX = 20
MAX_WAIT = 60.0
FREE_TRIES = 5
WINDOW = 900.0
"""Wrong tries older than this (seconds) no longer count."""
KEY_BYTES = 16
PIN_DIGITS = 6
PIN_SECONDS = 600.0
PIN_TRIES = 5
MAX_SUBMIT = 1e9
"""No estimate or count beyond this is stored, whatever the activity allows."""

OPEN, CLOSED = "open", "closed"


# --------------------------------------------------------------------------- refusals

WORDS = {
    "no_code": N_("Bitte gib den Klassencode ein (6 Zeichen, z. B. „ACD 479“)."),
    "bad_code": N_("„{code}“ ist kein Klassencode: Er hat 6 Zeichen aus {alphabet}."),
    "unknown": N_("Zu diesem Code gibt es keine Klasse (oder sie ist abgelaufen). Frag deine "
                  "Lehrkraft nach dem Code."),
    "wait": N_("Zu viele falsche Versuche. Bitte warte noch {seconds} s und versuche es dann wieder."),
    "closed": N_("Die Klasse ist geschlossen: Die Lehrkraft hat keine Abgaben mehr zugelassen."),
    "not_member": N_("Du bist nicht (mehr) in dieser Klasse. Tritt bitte neu bei."),
    "nick_long": N_("Der Spitzname ist zu lang: höchstens {n} Zeichen."),
    "nick_chars": N_("Im Spitznamen sind nur Buchstaben, Ziffern, Leerzeichen und . - _ ! "
                     "erlaubt."),
    "nick_invisible": N_("Der Spitzname braucht sichtbare Buchstaben oder Ziffern – unsichtbare "
                         "Zeichen gehen nicht."),
    "nick_taken": N_("Den Spitznamen „{nick}“ hat in dieser Klasse schon jemand. Such dir bitte "
                     "einen anderen aus."),
    "nick_reserved": N_("„{nick}“ geht als Spitzname nicht: Er klingt nach der Lehrkraft."),
    "no_key": N_("Diese Klasse lässt sich von hier aus nicht steuern: Dieser Browser hat ihren "
                 "Lehrkraft-Schlüssel nicht."),
    "pin_wrong": N_("Die PIN passt nicht (oder sie ist abgelaufen). Lass dir auf dem Gerät der "
                    "Lehrkraft eine neue zeigen."),
    "pin_format": N_("Die PIN hat {n} Ziffern."),
    "locked": N_("Die Lösung ist schon aufgelöst: Neue Tipps zählen nicht mehr."),
    "activity": N_("Diese Aufgabe gibt es nicht."),
    "number": N_("Bitte gib eine Zahl ein."),
    "number_big": N_("Diese Zahl ist viel zu groß."),
    "range": N_("Bitte gib eine Zahl von {low} bis {high}{unit} ein."),
    "trials": N_("Die Anzahl der Durchläufe muss zwischen 1 und {n} liegen."),
    "hits": N_("Die Treffer müssen zwischen 0 und der Anzahl der Durchläufe liegen."),
    # what the panel reads from a typed estimate (bohnteach.widgets.classroom.parse_estimate)
    "estimate_long": N_("Das ist zu lang für eine Zahl."),
    "empty": N_("Bitte gib zuerst eine Zahl ein."),
    "unreadable": N_("„{typed}“ kann ich nicht als Zahl lesen. Zum Beispiel: 15, 15 %, 0,15 oder 3/8."),
}
"""Why a class action was refused, by reason: German, marked for the catalogue; a
:class:`ClassroomError` is worded in the reader's language where it is shown."""

NUMBER_PARAMS = ("low", "high")
"""Parameters that are decimal numbers (worded with the reader's decimal mark)."""
COUNT_PARAMS = ("n",)
"""Parameters that are whole counts (worded with the reader's digit grouping)."""


class ClassroomError(ValueError):
    """A refused class action: its ``reason`` (a key of :data:`WORDS`) and parameters, as
    the engine's refusals are; the store holds no words. ``str()`` is the German message;
    :meth:`words` says it in the reader's language. A parameter ``detail`` is a German text
    more precise than the template (the exercises' number reader says what it could not
    read): German shows it, other languages the template."""

    def __init__(self, reason: str, **params: Any) -> None:
        if reason not in WORDS:
            raise KeyError(reason)
        self.reason, self.params = reason, params
        super().__init__(self.words())

    def words(self, tr: Translator | None = None) -> str:
        """The refusal in ``tr``'s language (German without one)."""
        from bohnteach.classroom.words import count, number

        tr = as_translator(tr)
        if tr.is_source and self.params.get("detail"):
            return str(self.params["detail"])
        shown = {k: v for k, v in self.params.items() if k != "detail"}
        for key in NUMBER_PARAMS:
            if key in shown:
                shown[key] = number(shown[key], tr, digits=6)
        for key in COUNT_PARAMS:
            if key in shown:
                shown[key] = count(shown[key], tr)
        return tr.gettext(WORDS[self.reason]).format(**shown)


# --------------------------------------------------------------------------- codes


def normalize_code(text: str) -> str:
    """The code as stored (upper case, without spaces or dashes); refuses malformed ones."""
    code = re.sub(r"[\s\-]", "", str(text or "")).upper()
    if not code:
        raise ClassroomError("no_code")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        shown = code[:12] + ("…" if len(code) > 12 else "")
        raise ClassroomError("bad_code", code=shown, alphabet=" ".join(CODE_ALPHABET))
    return code


def spoken_code(code: str) -> str:
    """The code in two groups of three, as read aloud: ``ACD 479``."""
    return f"{code[:3]} {code[3:]}"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    """A teacher key: :data:`KEY_BYTES` random bytes, URL-safe text."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the store keeps of a key (SHA-256, hex): a key of 128 random bits needs no salt."""
    return hashlib.sha256(str(key or "").encode()).hexdigest()


def client_bucket(address: str | None) -> str:
    """Whom wrong tries are counted for: an IPv4 address as it is, an IPv6 address by its
    /64 network (one household or school gets a whole /64), ``?`` when unknown."""
    text = str(address or "").strip()[:64]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return "?"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def wait_after(failures: int) -> float:
    """Seconds to wait after the last of ``failures`` wrong tries within :data:`WINDOW`."""
    if failures < FREE_TRIES:
        return 0.0
    return min(2.0 ** (failures - FREE_TRIES + 1), MAX_WAIT)


# --------------------------------------------------------------------------- checks

_NICK = re.compile(r"^[\w .\-!]*$")
#: Letters that draw nothing (Hangul fillers, the Braille blank …): a name of them alone
#: looks empty; they are refused anywhere in a name.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f")
#: A nickname must not start like these (after :func:`nick_key`, spaces removed).
RESERVED = ("lehrer", "lehrkraft", "lehrperson", "lehrende", "teacher")


def nick_key(nick: str) -> str:
    """The form two nicknames are compared in: NFKC, case-folded, spaces folded to one."""
    return " ".join(unicodedata.normalize("NFKC", nick).casefold().split())


def check_nickname(text: str | None) -> str | None:
    """An optional nickname: trimmed, at most :data:`NICK_MAX` characters, no markup,
    visible characters only, nothing that sounds like the teacher."""
    nick = " ".join(unicodedata.normalize("NFKC", str(text or "")).split())
    if not nick:
        return None
    if any(c in INVISIBLE or unicodedata.category(c)[0] in "CM" for c in nick):
        raise ClassroomError("nick_invisible")
    if not _NICK.match(nick):
        raise ClassroomError("nick_chars")
    if len(nick) > NICK_MAX:
        raise ClassroomError("nick_long", n=NICK_MAX)
    if not any(c.isalnum() for c in nick):
        raise ClassroomError("nick_invisible")
    if nick_key(nick).replace(" ", "").startswith(RESERVED):
        raise ClassroomError("nick_reserved", nick=nick)
    return nick


def activity(key: str) -> Activity:
    try:
        return ACTIVITIES[key]
    except KeyError:
        raise ClassroomError("activity") from None


def check_submission(act: Activity, value: Any, trials: Any = None) -> tuple[float, int | None]:
    """The submission as stored, or a refusal (:class:`ClassroomError`): an estimate within
    the activity's range; an experiment's hits (0 … trials) out of 1 … ``max_trials`` trials."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ClassroomError("number")
    if abs(value) > MAX_SUBMIT:
        raise ClassroomError("number_big")
    if act.kind == "experiment":
        if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= act.max_trials:
            raise ClassroomError("trials", n=act.max_trials)
        if value != int(value) or not 0 <= value <= trials:
            raise ClassroomError("hits")
        return float(value), trials
    if not act.low <= value <= act.high:
        unit = f" {act.unit}" if act.unit else ""
        raise ClassroomError("range", low=act.low, high=act.high, unit=unit)
    return float(value), None


def _pin_hash(code: str, pin: str) -> str:
    return hashlib.sha256(f"{code}:{pin}".encode()).hexdigest()


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
class NewClass(ClassInfo):
    """A class just made, with its teacher key (the only time the key is known in full)."""

    key: str = field(default="", repr=False)


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
    seq: int
    """The member's number in the class (joining order): one chart bar per member."""
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
    """The tables by English key; the stored names (``bt_klassen`` …) stay as they are,
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
        "keys": Table(
            "bt_schluessel", meta,
            Column("hash", String(64), primary_key=True),
            Column("code", String(CODE_LENGTH), ForeignKey("bt_klassen.code", ondelete="CASCADE"),
                   nullable=False, index=True),
            Column("created", Float, nullable=False),
        ),
        "pins": Table(
            "bt_pins", meta,
            Column("code", String(CODE_LENGTH), ForeignKey("bt_klassen.code", ondelete="CASCADE"),
                   primary_key=True),
            Column("hash", String(64), nullable=False),
            Column("expires", Float, nullable=False),
            Column("wrong", Integer, nullable=False),
        ),
        "attempts": Table(
            "bt_versuche", meta,
            Column("id", Integer, primary_key=True, autoincrement=True),
            Column("subject", String(80), nullable=False, index=True),
            Column("at", Float, nullable=False),
        ),
    }


def _engine(url: str) -> Any:
    from sqlalchemy import create_engine, event

    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]  # psycopg 3, not psycopg2
    if not url.startswith("sqlite"):
        # a server that is down or unreachable is reported within seconds (the health
        # address, a panel's poll), not after the system's TCP timeout
        return create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=8,
                             connect_args={"connect_timeout": CONNECT_SECONDS})
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


def unreachable(error: BaseException) -> bool:
    """True for the driver's errors of a database that cannot be reached or went away
    (restarted, network gone) - as opposed to a refusal or a bug."""
    from sqlalchemy.exc import DBAPIError, OperationalError

    return isinstance(error, OperationalError) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)


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

    def ping(self) -> bool:
        """True once the database answered a trivial query (the health address); raises
        what the driver raises when it cannot be reached."""
        with self._read() as conn:
            return conn.exec_driver_sql("SELECT 1").scalar() == 1

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

    def create_class(self) -> NewClass:
        """A new open class with a fresh code and teacher key (expired classes are deleted
        first). Only the key's hash is stored: hand ``.key`` to the teacher's browser."""
        from sqlalchemy.exc import IntegrityError

        self.purge_expired()
        now = self.clock()
        k, keys = self.t["classes"], self.t["keys"]
        while True:
            info = NewClass(new_code(), now, now + self.lifetime, OPEN, key=new_key())
            try:
                with self._write() as conn:
                    conn.execute(k.insert().values(code=info.code, created=info.created,
                                                   expires=info.expires, state=info.state))
                    conn.execute(keys.insert().values(hash=key_hash(info.key), code=info.code,
                                                      created=now))
                return info
            except IntegrityError:  # the code is taken (1 in 113 million per open class)
                continue

    # -- the teacher's key, wrong tries

    def wait(self, client: str | None, code: str | None = None) -> float:
        """Seconds until the next try of ``client`` (and at ``code``) may be checked."""
        from sqlalchemy import func, select

        v = self.t["attempts"]
        now = self.clock()
        longest = 0.0
        with self._read() as conn:
            for subject in self._subjects(client, code):
                count, last = conn.execute(select(func.count(), func.max(v.c.at)).where(
                    v.c.subject == subject, v.c.at > now - WINDOW)).one()
                if count:
                    longest = max(longest, last + wait_after(count) - now)
        return longest

    def check_wait(self, client: str | None, code: str | None = None) -> None:
        """Refuse while ``client`` (or ``code``) must still wait after wrong tries."""
        wait = self.wait(client, code)
        if wait > 0:
            raise ClassroomError("wait", seconds=math.ceil(wait))

    def failed(self, client: str | None, code: str | None = None) -> None:
        """Note a wrong try of ``client`` (at ``code``); old notes go on the way."""
        v = self.t["attempts"]
        now = self.clock()
        with self._write() as conn:
            conn.execute(v.delete().where(v.c.at <= now - WINDOW))
            for subject in self._subjects(client, code):
                conn.execute(v.insert().values(subject=subject, at=now))

    @staticmethod
    def _subjects(client: str | None, code: str | None) -> list[str]:
        subjects = ["client:" + client_bucket(client)]
        if code:
            subjects.append("code:" + str(code)[:CODE_LENGTH * 2])
        return subjects

    def find_class(self, code: str, client: str | None) -> ClassInfo:
        """:meth:`get_class` for a code somebody typed or brought in an address: refused
        while they must wait, and a wrong code makes the next try wait (across kernels)."""
        self.check_wait(client)
        try:
            return self.get_class(code)
        except ClassroomError:
            self.failed(client, re.sub(r"[\s\-]", "", str(code or "")).upper())
            raise

    def authorize(self, code: str, key: str, client: str | None = None) -> ClassInfo:
        """The class, if ``key`` is one of its teacher keys; a wrong key is refused and
        counted as a wrong try (no wait first: a key of 128 bits is not guessed)."""
        info = self.get_class(code)
        keys = self.t["keys"]
        wanted = key_hash(key)
        with self._read() as conn:
            hashes = [r.hash for r in conn.execute(keys.select().where(keys.c.code == info.code))]
        if not key or not any(hmac.compare_digest(h, wanted) for h in hashes):
            self.failed(client, info.code)
            raise ClassroomError("no_key")
        return info

    def new_pin(self, code: str, key: str) -> tuple[str, float]:
        """A fresh one-time PIN for the class (the teacher's key needed), and when it expires.
        It replaces an earlier PIN."""
        info = self.authorize(code, key)
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        expires = self.clock() + PIN_SECONDS
        p = self.t["pins"]
        stmt = self._insert(p).values(code=info.code, hash=_pin_hash(info.code, pin),
                                      expires=expires, wrong=0)
        stmt = stmt.on_conflict_do_update(index_elements=[p.c.code], set_={
            "hash": stmt.excluded.hash, "expires": stmt.excluded.expires, "wrong": 0})
        with self._write() as conn:
            conn.execute(stmt)
        return pin, expires

    def redeem_pin(self, code: str, pin: str, client: str | None = None) -> NewClass:
        """A teacher key of its own for a second device that typed the class's code and PIN.
        The PIN is used up; a wrong one counts as a wrong try (per client and per class) and
        :data:`PIN_TRIES` wrong ones void it."""
        digits = re.sub(r"\s", "", str(pin or ""))
        if not re.fullmatch(rf"\d{{{PIN_DIGITS}}}", digits):
            raise ClassroomError("pin_format", n=PIN_DIGITS)
        self.check_wait(client, re.sub(r"[\s\-]", "", str(code or "")).upper())
        info = self.find_class(code, client)
        p, keys = self.t["pins"], self.t["keys"]
        now = self.clock()
        key = new_key()
        with self._write() as conn:
            row = conn.execute(p.select().where(p.c.code == info.code)).first()
            right = (row is not None and row.expires > now and row.wrong < PIN_TRIES
                     and hmac.compare_digest(row.hash, _pin_hash(info.code, digits)))
            if right:
                conn.execute(p.delete().where(p.c.code == info.code))
                conn.execute(keys.insert().values(hash=key_hash(key), code=info.code, created=now))
            elif row is not None:
                conn.execute(p.update().where(p.c.code == info.code).values(wrong=row.wrong + 1))
        if not right:
            self.failed(client, info.code)
            raise ClassroomError("pin_wrong")
        return NewClass(info.code, info.created, info.expires, info.state, key=key)

    def get_class(self, code: str) -> ClassInfo:
        """The class with this code, if it exists and has not expired."""
        code = normalize_code(code)
        k = self.t["classes"]
        with self._read() as conn:
            row = conn.execute(k.select().where(k.c.code == code)).first()
        if row is None or row.expires <= self.clock():
            raise ClassroomError("unknown")
        return ClassInfo(row.code, row.created, row.expires, row.state)

    def set_open(self, code: str, key: str, is_open: bool) -> ClassInfo:
        """Close a class (read-only: no joins, no submissions) or reopen it (key needed)."""
        info = self.authorize(code, key)
        k = self.t["classes"]
        state = OPEN if is_open else CLOSED
        with self._write() as conn:
            conn.execute(k.update().where(k.c.code == info.code).values(state=state))
        return ClassInfo(info.code, info.created, info.expires, state)

    def end_class(self, code: str, key: str) -> None:
        """Delete the class with all its members and submissions (key needed)."""
        info = self.authorize(code, key)
        with self._write() as conn:
            self._delete(conn, [info.code])

    def _delete(self, conn: Any, codes: list[str]) -> None:
        for name in ("submissions", "activities", "members", "pins", "keys", "classes"):
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
        """A new anonymous member of an open class; a nickname is unique in its class
        (compared as :func:`nick_key`)."""
        nick = check_nickname(nickname)
        info = self.get_class(code)
        if not info.is_open:
            raise ClassroomError("closed")
        k, m = self.t["classes"], self.t["members"]
        token = secrets.token_urlsafe(18)
        from sqlalchemy import select

        with self._write() as conn:
            # PostgreSQL: one join per class at a time (SQLite's BEGIN IMMEDIATE is that already)
            conn.execute(select(k.c.code).where(k.c.code == info.code).with_for_update())
            rows = conn.execute(select(m.c.seq, m.c.nickname).where(m.c.code == info.code)).all()
            if nick and any(r.nickname and nick_key(r.nickname) == nick_key(nick) for r in rows):
                raise ClassroomError("nick_taken", nick=nick)
            seq = max((r.seq for r in rows), default=0) + 1
            conn.execute(m.insert().values(token=token, code=info.code, seq=seq, nickname=nick,
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
            raise ClassroomError("not_member")
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
            raise ClassroomError("closed")
        if act.kind == "schaetzung" and self.revealed(member.code, act.key):
            raise ClassroomError("locked")
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

    def revealed(self, code: str, activity_key: str) -> bool:
        """Whether the teacher has revealed the activity's answer (what every pupil may know)."""
        info = self.get_class(code)
        s = self.t["activities"]
        from sqlalchemy import select

        with self._read() as conn:
            return bool(conn.execute(select(s.c.revealed).where(
                s.c.code == info.code, s.c.activity == activity(activity_key).key)).scalar())

    def clear_activity(self, code: str, key: str, activity_key: str) -> None:
        """Delete every submission to an activity and hide its answer again (key needed)."""
        info = self.authorize(code, key)
        act = activity(activity_key)
        with self._write() as conn:
            for name in ("submissions", "activities"):
                table = self.t[name]
                conn.execute(table.delete().where(table.c.code == info.code,
                                                  table.c.activity == act.key))

    def reveal(self, code: str, key: str, activity_key: str, revealed: bool = True) -> None:
        """Show (or hide again) the exact answer of an activity to the class (key needed);
        estimates are locked while it is shown."""
        info = self.authorize(code, key)
        act = activity(activity_key)
        s = self.t["activities"]
        stmt = self._insert(s).values(code=info.code, activity=act.key, revealed=revealed)
        stmt = stmt.on_conflict_do_update(index_elements=[s.c.code, s.c.activity],
                                          set_={"revealed": stmt.excluded.revealed})
        with self._write() as conn:
            conn.execute(stmt)

    def pool(self, code: str, key: str, activity_key: str) -> Pool:
        """The activity's state: revealed?, and every member's last submission with their
        nickname (key needed)."""
        info = self.authorize(code, key)
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
        entries = tuple(Entry(f"#{r.seq}", r.seq, r.nickname, r.value, r.trials, r.updated)
                        for r in rows)
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
