"""300 pupils submitting to one class at the same moment, through the real store.

    .venv/bin/python benchmarks/classroom.py                   # SQLite file in a temp folder
    .venv/bin/python benchmarks/classroom.py --url postgresql://user@host/db
    .venv/bin/python benchmarks/classroom.py --writers 300 --processes 30

Every writer is a thread with a store of its own (its own connections, as one kernel
has), spread over ``--processes`` processes; all wait at one barrier, then join the class
and submit an estimate and an experiment result. Prints how many submissions the class
holds afterwards (counted / lost / errors) and how long the writers took (median and
slowest). Exits 1 if one was lost or failed.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bohnteach.classroom.store import Store  # noqa: E402


def _process(url: str, code: str, first: int, count: int, barrier, results) -> None:
    stores = [Store(url) for _ in range(count)]
    local: list[tuple[float, str]] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        barrier.wait()
        start = time.perf_counter()
        try:
            member = stores[i].join(code, f"Kind {first + i}")
            stores[i].submit(code, member.token, "04_tipp", (first + i) % 101)
            stores[i].submit(code, member.token, "04_experiment", 10, trials=100)
            outcome = ""
        except Exception as exc:  # noqa: BLE001 - reported
            outcome = f"{type(exc).__name__}: {exc}"
        with lock:
            local.append((time.perf_counter() - start, outcome))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.extend(local)
    for s in stores:
        s.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=300)
    parser.add_argument("--processes", type=int, default=30)
    parser.add_argument("--url", help="store URL (default: a new SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bohnteach-classroom-bench-")
    url = args.url or f"sqlite:///{folder}/klassen.sqlite3"
    teacher = Store(url)
    made = teacher.create_class()
    code, key = made.code, made.key
    ctx = mp.get_context("fork")
    manager = ctx.Manager()
    results = manager.list()
    barrier = ctx.Barrier(args.writers)
    per, extra = divmod(args.writers, args.processes)
    procs, first = [], 0
    for p in range(args.processes):
        count = per + (1 if p < extra else 0)
        if count:
            procs.append(ctx.Process(target=_process, args=(url, code, first, count, barrier, results)))
            first += count
    wall = time.perf_counter()
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    wall = time.perf_counter() - wall
    durations = [d for d, _ in results]
    errors = [e for _, e in results if e]
    pool_tipp = teacher.pool(code, key, "04_tipp")
    pool_exp = teacher.pool(code, key, "04_experiment")
    counted = min(len(pool_tipp.entries), len(pool_exp.entries))
    print(f"store: {teacher.engine.dialect.name}; writers: {args.writers} in {len(procs)} processes")
    print(f"members: {pool_tipp.members}; counted: {counted}; lost: {args.writers - counted - len(errors)}; "
          f"errors: {len(errors)}")
    if durations:
        print(f"per writer (join + 2 submissions): median {statistics.median(durations):.2f} s, "
              f"slowest {max(durations):.2f} s; all processes incl. start-up: {wall:.1f} s")
    for e in errors[:5]:
        print("  error:", e)
    teacher.end_class(code, key)
    teacher.close()
    return 0 if counted == args.writers and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
