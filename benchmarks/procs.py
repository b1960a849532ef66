"""The process tree of a server, read from /proc: shared by the site benchmarks."""
from __future__ import annotations

import os
import time
from pathlib import Path


def tree_pids(pid: int) -> list[int]:
    """``pid`` and all its descendants (children of every thread, as Voilà starts kernels
    from worker threads too)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(k) for k in Path(f"/proc/{p}/task/{task}/children").read_text().split()]
        except OSError:  # the process ended meanwhile
            pass
    return out


def cpu_ticks(pids: list[int]) -> int:
    """CPU time (user + system, in clock ticks) of ``pids``; ended processes count 0."""
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total


def cpu_seconds(pid: int) -> float:
    """CPU seconds ``pid`` itself has used."""
    return cpu_ticks([pid]) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (0 once it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mb(pid: int) -> float:
    """Proportional memory of ``pid`` in MB: its own pages plus its share of pages it shares
    (forked kernels share the fork server's modules), so a sum over processes is the memory
    they take together (0 once it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def uss_mb(pid: int) -> float:
    """Memory only ``pid`` holds, in MB (its private pages): what one more such process
    costs when the others share the rest (0 once it has ended)."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    return sum(int(line.split()[1]) for line in text.splitlines()
               if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024


def wait_idle(pid: int, quiet: float = 0.10, span: float = 1.5, limit: float = 240.0) -> float:
    """Wait until ``pid``'s process tree uses < ``quiet`` of one CPU over ``span`` s (at most
    ``limit`` s); returns the seconds waited."""
    hz = os.sysconf("SC_CLK_TCK")
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        a = cpu_ticks(tree_pids(pid))
        time.sleep(span)
        if (cpu_ticks(tree_pids(pid)) - a) / hz / span < quiet:
            break
    return time.monotonic() - t0


def core_speed(loops: int = 20_000_000) -> float:
    """Seconds one core takes for ``loops`` additions in a Python loop: the machine's speed
    beside its figures. The machines of different sessions differ up to twofold, and a page's
    start is CPU: figures of two runs compare only at the same speed."""
    started = time.perf_counter()
    total = 0
    for i in range(loops):
        total += i
    return time.perf_counter() - started
