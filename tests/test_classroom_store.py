"""The class store (bohnteach.classroom.store) against a real SQLite file and a real PostgreSQL
server (a throwaway cluster: tests/pg_cluster.py): classes, members, submissions, refusals,
expiry, a restart, and 30 pupils submitting at the same moment."""
from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from missing import missing
from pg_cluster import Cluster, pg_bin, start_cluster, stop_cluster

from bohnteach.classroom.store import (
    CODE_ALPHABET, CODE_LENGTH, NICK_MAX, CodeAttempts, ClassroomError, Store, hours_from_env,
    normalize_code, url_from_env,
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
    assert len(info.code) == CODE_LENGTH and set(info.code) <= set(CODE_ALPHABET)
    anna = store.join(info.code, "Anna")
    ben = store.join(info.code.lower()[:3] + " " + info.code[3:])  # as typed, lower case, spaced
    store.submit(info.code, anna.token, ESTIMATE, 20.0)
    store.submit(info.code, ben.token, ESTIMATE, 5)
    store.submit(info.code, anna.token, ESTIMATE, 12.5)  # the last one counts
    pool = store.pool(info.code, ESTIMATE)
    assert sorted((e.nickname or "", e.value) for e in pool.entries) == [("", 5.0), ("Anna", 12.5)]
    assert pool.members == 2 and not pool.revealed
    assert store.mine(info.code, anna.token, ESTIMATE) == (12.5, None)
    store.reveal(info.code, ESTIMATE)
    assert store.pool(info.code, ESTIMATE).revealed


def test_a_thousand_submissions_of_one_visitor_count_once(store: Store) -> None:
    code = store.create_class().code
    one = store.join(code)
    other = store.join(code)
    store.submit(code, other.token, EXPERIMENT, 30, trials=100)
    for i in range(1000):
        store.submit(code, one.token, EXPERIMENT, i % 50, trials=50)
    entries = store.pool(code, EXPERIMENT).entries
    assert len(entries) == 2
    assert sum(e.value for e in entries) == 30 + 999 % 50
    assert sum(e.trials for e in entries) == 150


@pytest.mark.parametrize("value, trials, activity, words", [
    (None, None, ESTIMATE, "Zahl"),
    ("12", None, ESTIMATE, "Zahl"),
    ("", None, ESTIMATE, "Zahl"),
    (math.nan, None, ESTIMATE, "Zahl"),
    (math.inf, None, ESTIMATE, "Zahl"),
    (1e300, None, ESTIMATE, "Zahl"),
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
    code = store.create_class().code
    member = store.join(code)
    with pytest.raises(ClassroomError, match=words):
        store.submit(code, member.token, activity, value, trials)
    for key in (ESTIMATE, EXPERIMENT):
        assert store.pool(code, key).entries == ()


@pytest.mark.parametrize("nick, words", [
    ("<b>Anna</b>", "nur Buchstaben"),
    ("<script>alert(1)</script>", "nur Buchstaben"),
    ("Tom & Jerry", "nur Buchstaben"),
    ("x" * (NICK_MAX + 1), "zu lang"),
])
def test_a_nickname_with_markup_or_too_long_is_refused(store: Store, nick: str, words: str) -> None:
    code = store.create_class().code
    with pytest.raises(ClassroomError, match=words):
        store.join(code, nick)
    assert store.pool(code, ESTIMATE).members == 0
    assert store.join(code, "  Jörg  der_2. ").nickname == "Jörg der_2."


def test_wrong_and_malformed_codes_are_refused(store: Store) -> None:
    code = store.create_class().code
    other = next(c for c in CODE_ALPHABET if c != code[0]) + code[1:]
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.join(other)
    for typed, words in [("", "Klassencode ein"), ("ABC12", "kein Klassencode"),
                         ("OOOOOO", "kein Klassencode"), ("<b>x</b>", "kein Klassencode")]:
        with pytest.raises(ClassroomError, match=words):
            store.join(typed)
    with pytest.raises(ClassroomError, match="nicht \\(mehr\\) in dieser Klasse"):
        store.submit(code, "erfundenes-token", ESTIMATE, 10)
    assert store.pool(code, ESTIMATE).members == 0


def test_a_closed_class_takes_nothing_until_reopened(store: Store) -> None:
    code = store.create_class().code
    member = store.join(code)
    store.set_open(code, False)
    with pytest.raises(ClassroomError, match="geschlossen"):
        store.submit(code, member.token, ESTIMATE, 10)
    with pytest.raises(ClassroomError, match="geschlossen"):
        store.join(code)
    assert store.pool(code, ESTIMATE).entries == ()
    store.set_open(code, True)
    store.submit(code, member.token, ESTIMATE, 10)
    assert len(store.pool(code, ESTIMATE).entries) == 1


def test_clearing_an_activity_and_ending_a_class(store: Store) -> None:
    code = store.create_class().code
    member = store.join(code, "Anna")
    store.submit(code, member.token, ESTIMATE, 10)
    store.submit(code, member.token, EXPERIMENT, 3, 10)
    store.reveal(code, ESTIMATE)
    store.clear_activity(code, ESTIMATE)
    tipp = store.pool(code, ESTIMATE)
    assert tipp.entries == () and not tipp.revealed
    assert len(store.pool(code, EXPERIMENT).entries) == 1  # the other activity stays
    store.end_class(code)
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.pool(code, EXPERIMENT)
    with pytest.raises(ClassroomError, match="keine Klasse"):
        store.member(code, member.token)
    assert _rows(store) == {"bt_klassen": 0, "bt_mitglieder": 0, "bt_abgaben": 0,
                            "bt_aktivitaeten": 0}


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
                            "bt_aktivitaeten": 0}
    assert store.get_class(new.code) == new


def test_the_class_survives_a_restart(store_url: str, clock: Clock) -> None:
    first = Store(store_url, clock=clock)
    code = first.create_class().code
    member = first.join(code, "Anna")
    first.submit(code, member.token, ESTIMATE, 42)
    first.reveal(code, ESTIMATE)
    first.close()
    again = Store(store_url, clock=clock)  # a new server process opens the same store
    assert again.member(code, member.token).nickname == "Anna"
    pool = again.pool(code, ESTIMATE)
    assert [e.value for e in pool.entries] == [42] and pool.revealed
    again.close()


def test_thirty_pupils_submitting_at_once_are_all_counted(store_url: str) -> None:
    """30 writers, each with a store of its own (as 30 kernels have), join and submit at
    the same moment: 30 counted, 0 lost, 0 errors."""
    teacher = Store(store_url)
    code = teacher.create_class().code
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
    experiment = teacher.pool(code, EXPERIMENT)
    assert experiment.members == 30
    assert sorted(e.value for e in experiment.entries) == list(range(30))
    estimates = teacher.pool(code, ESTIMATE).entries
    assert sorted(e.value for e in estimates) == [i + 0.5 for i in range(30)]
    for s in (teacher, *stores):
        s.close()


def test_wrong_codes_slow_down_the_next_try() -> None:
    clock = Clock(0.0)
    attempts = CodeAttempts(clock)
    attempts.check()
    waits = []
    for _ in range(8):
        attempts.failed()
        waits.append(attempts.next_try - clock.now)
        with pytest.raises(ClassroomError, match="warte noch"):
            attempts.check()
        clock.now = attempts.next_try
        attempts.check()
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
    attempts.succeeded()
    attempts.check()


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
