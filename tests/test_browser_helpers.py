"""The browser tests' helpers: the server ends cleanly when its process is stopped from
outside, and the console collection catches what a visitor would see."""
from __future__ import annotations

import os
import signal
import time

import pytest

from browser_helpers import _end_on_sigterm, collect_errors


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


def test_console_collection_catches_every_new_warning(page):
    """Errors and every console warning (webpack's about a shared module's version, issue 34
    §8; any new one, issue 52 §6) but the site's own notes (``bohnteach: …``); a static
    site's Visit leaves the version warnings out."""
    errors = collect_errors(page)
    lenient = collect_errors(page, version_warnings=False)
    page.set_content("<p>x</p>")
    with page.expect_console_message(lambda m: m.text == "kaputt"):  # the last one
        page.evaluate("""() => {
          console.warn('Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared singleton module @jupyterlab/services (required ^4.4.6)');
          console.warn('No satisfying version (^4.4.6) of shared module @jupyterlab/outputarea found in shared scope default.');
          console.warn('[yjs#509] Not same Y.Doc');
          console.warn('bohnteach: Abbild nicht nutzbar (zu groß), Python startet normal.');
          console.error('kaputt');
        }""")
    assert errors == [
        "console warning: Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared "
        "singleton module @jupyterlab/services (required ^4.4.6)",
        "console warning: No satisfying version (^4.4.6) of shared module @jupyterlab/outputarea "
        "found in shared scope default.",
        "console warning: [yjs#509] Not same Y.Doc",
        "console: kaputt",
    ]
    assert lenient == ["console warning: [yjs#509] Not same Y.Doc", "console: kaputt"]
