"""What the tests do when a tool they need is not installed."""
from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(message: str) -> NoReturn:
    """A failure under CI (``make test`` installs every tool, so it must be there), a skip
    on a developer's machine without it."""
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
