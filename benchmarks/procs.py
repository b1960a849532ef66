"""The process tree of a server, read from /proc: shared by the site benchmarks."""
from __future__ import annotations

import os
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
