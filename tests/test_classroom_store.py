"""The class store (bohnteach.classroom.store) against a real SQLite file and a real PostgreSQL
server (a throwaway cluster: tests/pg_cluster.py): classes, members, submissions, refusals,
expiry, a restart, and 30 pupils submitting at the same moment; the teacher key (every control
refused without it, state unchanged), the PIN for a second device, wrong tries counted across
stores (= kernels), nickname rules, estimates locked on reveal, an old store file."""
from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from missing import missing
from pg_cluster import Cluster, pg_bin, start_cluster, stop_cluster

from bohnteach.classroom.store import (
    CODE_ALPHABET, CODE_LENGTH, FREE_TRIES, MAX_WAIT, NICK_MAX, PIN_TRIES, WINDOW, ClassroomError,
    Store, client_bucket, hours_from_env, normalize_code, url_from_env, wait_after,
)

ESTIMATE = "04_tipp"
EXPERIMENT = "04_experiment"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    if pg_bin() is None:
        missing("PostgreSQL fehlt (make test installiert Debians postgresql)")
    cluster = start_cluster()
    yield cluster
    stop_cluster(cluster)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'klassen.sqlite3'}"
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    yield cluster.url
    store = Store(cluster.url)  # each test starts from empty tables
    store.meta.drop_all(store.engine)
    store.close()


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(store_url: str, clock: Clock) -> Iterator[Store]:
    s = Store(store_url, hours=24, clock=clock)
    yield s
    s.close()


def test_a_class_collects_one_submission_per_member(store: Store) -> None:
    info = store.create_class()
    key = info.key
    assert len(info.code) == CODE_LENGTH and set(info.code) <= set(CODE_ALPHABET)
    anna = store.join(info.code, "Anna")
    ben = store.join(info.code.lower()[:3] + " " + info.code[3:])  # as typed, lower case, spaced
    store.submit(info.code, anna.token, ESTIMATE, 20.0)
    store.submit(info.code, ben.token, ESTIMATE, 5)
    store.submit(info.code, anna.token, ESTIMATE, 12.5)  # the last one counts
    pool = store.pool(info.code, key, ESTIMATE)
    assert sorted((e.nickname or "", e.value) for e in pool.entries) == [("", 5.0), ("Anna", 12.5)]
    assert pool.members == 2 and not pool.revealed
    assert store.mine(info.code, anna.token, ESTIMATE) == (12.5, None)
    store.reveal(info.code, key, ESTIMATE)
    assert store.pool(info.code, key, ESTIMATE).revealed


def test_a_thousand_submissions_of_one_visitor_count_once(store: Store) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    one = store.join(code)
    other = store.join(code)
    store.submit(code, other.token, EXPERIMENT, 30, trials=100)
    for i in range(1000):
        store.submit(code, one.token, EXPERIMENT, i % 50, trials=50)
    entries = store.pool(code, key, EXPERIMENT).entries
    assert len(entries) == 2
    assert sum(e.value for e in entries) == 30 + 999 % 50
    assert sum(e.trials for e in entries) == 150


@pytest.mark.parametrize("value, trials, activity, words", [
    (None, None, ESTIMATE, "Zahl"),
    ("12", None, ESTIMATE, "Zahl"),
    ("", None, ESTIMATE, "Zahl"),
    (math.nan, None, ESTIMATE, "Zahl"),
    (math.inf, None, ESTIMATE, "Zahl"),
    (1e300, None, ESTIMATE, "viel zu groß"),
    (True, None, ESTIMATE, "Zahl"),
    (-0.5, None, ESTIMATE, "von 0 bis 100 %"),
    (100.01, None, ESTIMATE, "von 0 bis 100 %"),
    (5, 0, EXPERIMENT, "Durchläufe"),
    (5, 100_001, EXPERIMENT, "Durchläufe"),
    (5, "10", EXPERIMENT, "Durchläufe"),
    (11, 10, EXPERIMENT, "Treffer"),
    (2.5, 10, EXPERIMENT, "Treffer"),
    (-1, 10, EXPERIMENT, "Treffer"),
    (5, None, "gibt_es_nicht", "Aufgabe"),
])
def test_bad_submissions_are_refused_and_store_nothing(store: Store, value, trials, activity,
                                                        words) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    member = store.join(code)
    with pytest.raises(ClassroomError, match=words):
        store.submit(code, member.token, activity, value, trials)
    for act in (ESTIMATE, EXPERIMENT):
        assert store.pool(code, key, act).entries == ()


@pytest.mark.parametrize("nick, words", [
    ("<b>Anna</b>", "nur Buchstaben"),
    ("<script>alert(1)</script>", "nur Buchstaben"),
    ("Tom & Jerry", "nur Buchstaben"),
    ("x" * (NICK_MAX + 1), "zu lang"),
])
def test_a_nickname_with_markup_or_too_long_is_refused(store: Store, nick: str, words: str) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    with pytest.raises(ClassroomError, match=words):
        store.join(code, nick)
    assert store.pool(code, key, ESTIMATE).members == 0
    assert store.join(code, "  Jörg  der_2. ").nickname == "Jörg der_2."


def test_wrong_and_malformed_codes_are_refused(store: Store) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    other = next(c for c in CODE_ALPHABET if c != code[0]) + code[1:]
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.join(other)
    for typed, words in [("", "Klassencode ein"), ("ABC12", "kein Klassencode"),
                         ("OOOOOO", "kein Klassencode"), ("<b>x</b>", "kein Klassencode")]:
        with pytest.raises(ClassroomError, match=words):
            store.join(typed)
    with pytest.raises(ClassroomError, match="nicht \\(mehr\\) in dieser Klasse"):
        store.submit(code, "erfundenes-token", ESTIMATE, 10)
    assert store.pool(code, key, ESTIMATE).members == 0


def test_a_closed_class_takes_nothing_until_reopened(store: Store) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    member = store.join(code)
    store.set_open(code, key, False)
    with pytest.raises(ClassroomError, match="geschlossen"):
        store.submit(code, member.token, ESTIMATE, 10)
    with pytest.raises(ClassroomError, match="geschlossen"):
        store.join(code)
    assert store.pool(code, key, ESTIMATE).entries == ()
    store.set_open(code, key, True)
    store.submit(code, member.token, ESTIMATE, 10)
    assert len(store.pool(code, key, ESTIMATE).entries) == 1


def test_clearing_an_activity_and_ending_a_class(store: Store) -> None:
    made = store.create_class()
    code, key = made.code, made.key
    member = store.join(code, "Anna")
    store.submit(code, member.token, ESTIMATE, 10)
    store.submit(code, member.token, EXPERIMENT, 3, 10)
    store.reveal(code, key, ESTIMATE)
    store.clear_activity(code, key, ESTIMATE)
    tipp = store.pool(code, key, ESTIMATE)
    assert tipp.entries == () and not tipp.revealed
    assert len(store.pool(code, key, EXPERIMENT).entries) == 1  # the other activity stays
    store.end_class(code, key)
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.pool(code, key, EXPERIMENT)
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.member(code, member.token)
    assert _rows(store) == {"bt_klassen": 0, "bt_mitglieder": 0, "bt_abgaben": 0,
                            "bt_aktivitaeten": 0, "bt_schluessel": 0, "bt_pins": 0,
                            "bt_versuche": 0}


def _rows(store: Store) -> dict[str, int]:
    from sqlalchemy import func, select

    with store.engine.connect() as conn:
        return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in store.meta.sorted_tables}


def test_a_class_expires_and_is_deleted(store: Store, clock: Clock) -> None:
    old = store.create_class()
    member = store.join(old.code)
    store.submit(old.code, member.token, ESTIMATE, 10)
    assert old.expires - old.created == 24 * 3600
    clock.now += 24 * 3600 - 1
    store.get_class(old.code)
    clock.now += 1
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.join(old.code)
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.submit(old.code, member.token, ESTIMATE, 20)
    new = store.create_class()  # deletes the expired ones on the way
    assert _rows(store) == {"bt_klassen": 1, "bt_mitglieder": 0, "bt_abgaben": 0,
                            "bt_aktivitaeten": 0, "bt_schluessel": 1, "bt_pins": 0,
                            "bt_versuche": 0}
    assert store.get_class(new.code).code == new.code


def test_the_class_survives_a_restart(store_url: str, clock: Clock) -> None:
    first = Store(store_url, clock=clock)
    made = first.create_class()
    code, key = made.code, made.key
    member = first.join(code, "Anna")
    first.submit(code, member.token, ESTIMATE, 42)
    first.reveal(code, key, ESTIMATE)
    first.close()
    again = Store(store_url, clock=clock)  # a new server process opens the same store
    assert again.member(code, member.token).nickname == "Anna"
    pool = again.pool(code, key, ESTIMATE)
    assert [e.value for e in pool.entries] == [42] and pool.revealed
    again.close()


def test_thirty_pupils_submitting_at_once_are_all_counted(store_url: str) -> None:
    """30 writers, each with a store of its own (as 30 kernels have), join and submit at
    the same moment: 30 counted, 0 lost, 0 errors."""
    teacher = Store(store_url)
    made = teacher.create_class()
    code, key = made.code, made.key
    stores = [Store(store_url) for _ in range(30)]
    barrier = threading.Barrier(30)
    errors: list[BaseException] = []

    def pupil(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            member = stores[i].join(code, f"Kind {i}")
            stores[i].submit(code, member.token, EXPERIMENT, i, trials=100)
            stores[i].submit(code, member.token, ESTIMATE, i + 0.5)
        except BaseException as exc:  # noqa: BLE001 - counted below
            errors.append(exc)

    threads = [threading.Thread(target=pupil, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == []
    experiment = teacher.pool(code, key, EXPERIMENT)
    assert experiment.members == 30
    assert sorted(e.value for e in experiment.entries) == list(range(30))
    estimates = teacher.pool(code, key, ESTIMATE).entries
    assert sorted(e.value for e in estimates) == [i + 0.5 for i in range(30)]
    for s in (teacher, *stores):
        s.close()


def test_the_wait_after_wrong_tries() -> None:
    assert [wait_after(n) for n in range(FREE_TRIES)] == [0] * FREE_TRIES
    waits = [wait_after(FREE_TRIES + i) for i in range(7)]
    assert waits == [2, 4, 8, 16, 32, 60, 60] and max(waits) == MAX_WAIT
    assert client_bucket("2001:db8:1:2:3:4:5:6") == client_bucket("2001:db8:1:2:ffff::1") \
        == "2001:db8:1:2::/64"
    assert client_bucket("::ffff:10.0.0.7") == client_bucket("10.0.0.7") == "10.0.0.7"
    assert client_bucket("") == client_bucket("kein Rechner") == "?"


def test_codes_are_read_aloud_unambiguously() -> None:
    assert not set("0O1IL2Z5S6G8BQ") & set(CODE_ALPHABET)
    assert len(CODE_ALPHABET) ** CODE_LENGTH == 113_379_904
    assert normalize_code(" acd-479 ") == "ACD479"


def test_the_store_comes_from_the_environment(tmp_path: Path) -> None:
    assert url_from_env({}) is None
    assert url_from_env({"BOHNTEACH_KLASSEN_DIR": str(tmp_path / "k")}) == \
        f"sqlite:///{tmp_path / 'k' / 'klassen.sqlite3'}"
    assert (tmp_path / "k").is_dir()
    assert url_from_env({"BOHNTEACH_KLASSEN_DIR": str(tmp_path),
                         "BOHNTEACH_KLASSEN_DB": "postgresql://x@h/db"}) == "postgresql://x@h/db"
    assert hours_from_env({}) == 24
    assert hours_from_env({"BOHNTEACH_KLASSEN_STUNDEN": "2"}) == 2
    assert hours_from_env({"BOHNTEACH_KLASSEN_STUNDEN": "-1"}) == 24


def test_bohnteach_serve_passes_the_store_to_its_kernels(tmp_path: Path) -> None:
    """``--klassen-dir``/``--klassen-db``/``--klassen-stunden`` become the environment every
    kernel inherits; the flags win over the environment; a bad URL stops the server."""
    from bohnteach.cli import _parser, classroom_env

    assert classroom_env(None, None, None, env={}) == {
        "BOHNTEACH_KLASSEN_DIR": str(Path.home() / ".local/share/bohnteach/klassen")}
    assert classroom_env(str(tmp_path), "postgresql://u@h/db", "6",
                         env={"BOHNTEACH_KLASSEN_DIR": "/elsewhere"}) == {
        "BOHNTEACH_KLASSEN_DIR": str(tmp_path), "BOHNTEACH_KLASSEN_DB": "postgresql://u@h/db",
        "BOHNTEACH_KLASSEN_STUNDEN": "6"}
    assert classroom_env(None, None, None, env={"BOHNTEACH_KLASSEN_DB": "postgresql://x@y/z"})[
        "BOHNTEACH_KLASSEN_DB"] == "postgresql://x@y/z"
    for bad in (["--klassen-db", "mysql://x"], ["--klassen-stunden", "0"],
                ["--klassen-stunden", "viele"]):
        with pytest.raises(SystemExit):
            _parser().parse_args(["serve", *bad])


# --------------------------------------------------------------------------- the teacher key


def _state(store: Store, code: str, key: str) -> tuple:
    """Everything a control could change, read with the right key."""
    pools = [store.pool(code, key, act) for act in (ESTIMATE, EXPERIMENT)]
    return (store.get_class(code).state,
            tuple((p.revealed, p.members, tuple((e.seq, e.value, e.trials) for e in p.entries))
                  for p in pools))


CONTROLS = {
    "schließen": lambda s, code, key: s.set_open(code, key, False),
    "öffnen": lambda s, code, key: s.set_open(code, key, True),
    "auflösen": lambda s, code, key: s.reveal(code, key, ESTIMATE),
    "verbergen": lambda s, code, key: s.reveal(code, key, EXPERIMENT, False),
    "löschen": lambda s, code, key: s.clear_activity(code, key, ESTIMATE),
    "beenden": lambda s, code, key: s.end_class(code, key),
    "Liste": lambda s, code, key: s.pool(code, key, ESTIMATE),
    "PIN": lambda s, code, key: s.new_pin(code, key),
}


@pytest.mark.parametrize("control", CONTROLS)
def test_every_control_is_refused_without_the_class_key(store: Store, control: str) -> None:
    """The code alone (read aloud to the class), a made-up key, another class's key, a
    member's token: refused, and nothing changes."""
    mine, other = store.create_class(), store.create_class()
    pupil = store.join(mine.code, "Anna")
    store.submit(mine.code, pupil.token, ESTIMATE, 12)
    store.submit(mine.code, pupil.token, EXPERIMENT, 3, 10)
    store.reveal(mine.code, mine.key, EXPERIMENT)
    before = _state(store, mine.code, mine.key)
    for wrong in (None, "", "1", "x" * 22, other.key, pupil.token, mine.key[:-1]):
        with pytest.raises(ClassroomError, match="Lehrkraft-Schlüssel"):
            CONTROLS[control](store, mine.code, wrong)
        assert _state(store, mine.code, mine.key) == before
    CONTROLS[control](store, mine.code, mine.key)  # and with the key it works


def test_only_the_keys_hash_is_stored(store: Store) -> None:
    made = store.create_class()
    assert len(made.key) >= 22 and made.key not in repr(made)  # 16 random bytes, URL-safe
    keys = store.t["keys"]
    with store.engine.connect() as conn:
        stored = [tuple(r) for r in conn.execute(keys.select())]
    assert stored and all(made.key not in str(value) for row in stored for value in row)


def test_a_second_device_takes_the_class_over_with_a_one_time_pin(store: Store,
                                                                   clock: Clock) -> None:
    made = store.create_class()
    pin, until = store.new_pin(made.code, made.key)
    assert len(pin) == 6 and pin.isdigit() and until == clock.now + 600
    second = store.redeem_pin(made.code.lower(), pin[:3] + " " + pin[3:], "10.0.0.9")
    assert second.key != made.key and second.code == made.code
    store.set_open(made.code, second.key, False)  # the new key controls the class
    with pytest.raises(ClassroomError, match="PIN passt nicht"):
        store.redeem_pin(made.code, pin, "10.0.0.9")  # used up
    pin, _ = store.new_pin(made.code, made.key)
    clock.now += 601
    with pytest.raises(ClassroomError, match="PIN passt nicht"):
        store.redeem_pin(made.code, pin, "10.0.0.10")  # expired
    with pytest.raises(ClassroomError, match="6 Ziffern"):
        store.redeem_pin(made.code, "12ab", "10.0.0.10")


def test_a_pin_is_void_after_some_wrong_tries_from_anywhere(store: Store, clock: Clock) -> None:
    made = store.create_class()
    pin, _ = store.new_pin(made.code, made.key)
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    for i in range(PIN_TRIES):
        clock.now += MAX_WAIT + 1  # from ever new addresses, waiting out every wait
        with pytest.raises(ClassroomError, match="PIN passt nicht|warte"):
            store.redeem_pin(made.code, wrong, f"10.1.0.{i}")
    clock.now += MAX_WAIT + 1
    with pytest.raises(ClassroomError, match="PIN passt nicht"):
        store.redeem_pin(made.code, pin, "10.2.0.1")  # the right one, too late


def test_wrong_codes_are_slowed_across_kernels(store_url: str, clock: Clock) -> None:
    """Two stores on one database are two kernels (two tabs, or a reload): the wrong codes
    of one address count in both; another address is not slowed; a right code asked for
    during the wait is refused too; the tries are forgotten after the window."""
    one, two = Store(store_url, clock=clock), Store(store_url, clock=clock)
    try:
        made = one.create_class()
        wrong = next(c for c in CODE_ALPHABET if c != made.code[0]) + made.code[1:]
        for i in range(FREE_TRIES):
            with pytest.raises(ClassroomError, match="keine Klasse"):
                (one, two)[i % 2].find_class(wrong, "192.0.2.7")
        with pytest.raises(ClassroomError, match="warte noch 2 s"):
            two.find_class(made.code, "192.0.2.7")
        assert one.find_class(made.code, "198.51.100.1").code == made.code  # somebody else
        with pytest.raises(ClassroomError, match="warte noch"):
            one.find_class(made.code, "::ffff:192.0.2.7")  # the same address, written as IPv6
        clock.now += 2
        with pytest.raises(ClassroomError, match="keine Klasse"):
            one.find_class(wrong, "192.0.2.7")
        with pytest.raises(ClassroomError, match="warte noch 4 s"):
            two.find_class(wrong, "192.0.2.7")
        clock.now += WINDOW + 1
        assert two.find_class(made.code, "192.0.2.7").code == made.code
    finally:
        one.close()
        two.close()


def test_a_wrong_key_counts_as_a_wrong_try(store: Store) -> None:
    made = store.create_class()
    for _ in range(FREE_TRIES):
        with pytest.raises(ClassroomError, match="Lehrkraft-Schlüssel"):
            store.authorize(made.code, "geraten", "203.0.113.5")
    with pytest.raises(ClassroomError, match="warte"):
        store.find_class(made.code, "203.0.113.5")
    assert store.authorize(made.code, made.key, "203.0.113.5").code == made.code  # the key works


# --------------------------------------------------------------------------- nicknames, lock


@pytest.mark.parametrize("first, second", [
    ("Mia", "mia"), ("Mia", " MIA  "), ("Anna Lena", "anna   lena"), ("ﬁne", "fine"),
    ("Ｍｉａ", "Mia"), ("Straße", "STRASSE"),
])
def test_a_nickname_is_unique_in_its_class(store: Store, first: str, second: str) -> None:
    made = store.create_class()
    store.join(made.code, first)
    with pytest.raises(ClassroomError, match="schon jemand"):
        store.join(made.code, second)
    assert store.pool(made.code, made.key, ESTIMATE).members == 1
    other = store.create_class()
    assert store.join(other.code, second).nickname  # in another class it is free


@pytest.mark.parametrize("nick, words", [
    ("\u3164\u3164\u3164", "sichtbare"),
    ("Mi\u200ba", "sichtbare"),
    ("\u200b\u200b", "sichtbare"),
    ("Mia\u202e", "sichtbare"),
    ("\uffa0", "sichtbare"),
    ("A\u0301\u0301\u0301", "sichtbare"),
    ("...", "sichtbare"),
    ("Lehrkraft", "Lehrkraft"),
    ("lehrer", "Lehrkraft"),
    ("Lehrerin Schmidt", "Lehrkraft"),
    ("L e h r e r", "Lehrkraft"),
    ("ＬＥＨＲＥＲ", "Lehrkraft"),
])
def test_invisible_and_teacher_like_nicknames_are_refused(store: Store, nick: str, words: str) -> None:
    made = store.create_class()
    with pytest.raises(ClassroomError, match=words):
        store.join(made.code, nick)
    assert store.pool(made.code, made.key, ESTIMATE).members == 0


def test_two_members_without_or_with_like_names_are_two_entries(store: Store) -> None:
    made = store.create_class()
    tokens = [store.join(made.code).token, store.join(made.code).token,
              store.join(made.code, "Mia").token]
    for i, token in enumerate(tokens):
        store.submit(made.code, token, EXPERIMENT, i, 10)
    entries = store.pool(made.code, made.key, EXPERIMENT).entries
    assert [e.seq for e in entries] == [1, 2, 3]


def test_estimates_are_locked_once_revealed(store: Store) -> None:
    made = store.create_class()
    pupil = store.join(made.code)
    store.submit(made.code, pupil.token, ESTIMATE, 12)
    store.reveal(made.code, made.key, ESTIMATE)
    assert store.revealed(made.code, ESTIMATE)
    with pytest.raises(ClassroomError, match="schon aufgelöst"):
        store.submit(made.code, pupil.token, ESTIMATE, 11)
    assert store.mine(made.code, pupil.token, ESTIMATE) == (12, None)
    store.submit(made.code, pupil.token, EXPERIMENT, 3, 10)  # an experiment still pools
    store.reveal(made.code, made.key, ESTIMATE, False)
    store.submit(made.code, pupil.token, ESTIMATE, 11)
    assert store.mine(made.code, pupil.token, ESTIMATE) == (11, None)


def test_a_store_file_of_an_earlier_version_keeps_working(tmp_path: Path, clock: Clock) -> None:
    """The four tables of before, with a class in them: the new tables are added beside
    them; the old class (no key) takes pupils but nobody controls it; new classes work."""
    import sqlite3

    path = tmp_path / "klassen.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE bt_klassen (code VARCHAR(6) PRIMARY KEY, created FLOAT NOT NULL,
                expires FLOAT NOT NULL, state VARCHAR(8) NOT NULL);
            CREATE TABLE bt_mitglieder (token VARCHAR(64) PRIMARY KEY, code VARCHAR(6) NOT NULL
                REFERENCES bt_klassen(code) ON DELETE CASCADE, seq INTEGER NOT NULL,
                nickname VARCHAR(20), joined FLOAT NOT NULL);
            CREATE TABLE bt_abgaben (code VARCHAR(6) NOT NULL, activity VARCHAR(40) NOT NULL,
                token VARCHAR(64) NOT NULL, value FLOAT NOT NULL, trials INTEGER,
                updated FLOAT NOT NULL, PRIMARY KEY (code, activity, token));
            CREATE TABLE bt_aktivitaeten (code VARCHAR(6) NOT NULL, activity VARCHAR(40) NOT NULL,
                revealed BOOLEAN NOT NULL, PRIMARY KEY (code, activity));
            INSERT INTO bt_klassen VALUES ('ACD479', 999000, 1999000, 'open');
        """)
    store = Store(f"sqlite:///{path}", clock=clock)
    try:
        member = store.join("ACD479", "Alt")
        store.submit("ACD479", member.token, ESTIMATE, 30)
        with pytest.raises(ClassroomError, match="Lehrkraft-Schlüssel"):
            store.end_class("ACD479", "")
        made = store.create_class()
        store.set_open(made.code, made.key, False)
        assert store.get_class(made.code).state == "closed"
    finally:
        store.close()
