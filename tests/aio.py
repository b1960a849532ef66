"""Running a coroutine from a test, whoever owns the test thread's event loop."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: pytest-playwright's sync API keeps a loop
    running in the test thread once a browser test has run, and ``asyncio.run`` refuses there."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
