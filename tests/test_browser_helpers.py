"""The browser tests' server helper ends cleanly when its process is stopped from outside."""
from __future__ import annotations

import os
import signal
import time

import pytest

from browser_helpers import _end_on_sigterm


def test_sigterm_ends_through_finally_so_the_server_is_stopped():
    """``serve_site`` stops Voilà and its kernels in ``finally``; Python's default SIGTERM
    would end the process on the spot and leave them running (a stopped benchmark left an
    orphaned server). While a site runs, SIGTERM ends it like Ctrl-C instead: through every
    ``finally``, and under pytest through the fixtures' teardown (a ``SystemExit`` would
    only fail the running test, and the run would go on)."""
    outer = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in a fresh process (the
    try:                                                   # session's site may run already)
        assert _end_on_sigterm() is signal.SIG_DFL
        with pytest.raises(KeyboardInterrupt, match=f"signal {signal.SIGTERM.value}"):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler runs at the next bytecode; never reached
        assert _end_on_sigterm() is None, "a second site leaves the handler to the first"
    finally:
        signal.signal(signal.SIGTERM, outer)
