"""The static site's test build, made beside the other tests.

Building the site (Voici, the wheels' bytecode and the memory snapshot in Node) takes
minutes of mostly one core. It is cached by a hash of everything it reads, so a second
run reuses it; when it must be made, :func:`begin` starts it as soon as pytest has
collected a test that needs it, in a process of its own at low priority, so that it uses
the core the browser tests leave idle instead of holding up the suite when the first
static test asks for it (:func:`ready` waits for it then).

The process reads the sources from the moment the hash is taken, not from the modules
pytest imported at its start: a file edited while the suite runs does not end up in a
build cached under another hash's name.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from browser_helpers import stop_group

from bohnteach.site import static

REPO = Path(__file__).resolve().parents[1]
#: Niceness of the build's process: the tests in the foreground keep the CPU they need.
NICE = 10
#: Builds of other inputs are kept this long after their last use (seconds): a second
#: checkout's tests may be reading one.
KEEP_OTHER_BUILDS = 12 * 3600


def inputs_hash() -> str:
    """A hash of what the build reads: the package, the pages, the pins, Pyodide's version."""
    digest = hashlib.sha256()
    files = [REPO / "pyproject.toml"]
    for folder in ("bohnteach", "notebooks", "tutorials"):
        files += sorted(p for p in (REPO / folder).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(REPO)).encode())
        digest.update(path.read_bytes())
    digest.update(static.PYODIDE_VERSION.encode())
    return digest.hexdigest()[:16]


class _Build:
    """The cached build's folder and, while it is being made, its process."""

    def __init__(self) -> None:
        self.builds = static.cache_dir() / "test-builds"
        self.out = self.builds / inputs_hash()
        self.staging = self.builds / f".{self.out.name}.{os.getpid()}"
        self.log = self.builds / f".{self.out.name}.{os.getpid()}.log"
        self.process: subprocess.Popen | None = None

    def cached(self) -> bool:
        if not (self.out / static.MANIFEST).is_file():
            return False
        os.utime(self.out)  # in use: young again
        return True

    def start(self) -> None:
        self.builds.mkdir(parents=True, exist_ok=True)
        # other builds: old ones go; young ones may belong to another checkout's running tests
        for old in self.builds.iterdir():
            if time.time() - old.stat().st_mtime > KEEP_OTHER_BUILDS:
                if old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    old.unlink(missing_ok=True)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                ["nice", "-n", str(NICE), str(Path(sys.executable).with_name("bohnteach")),
                 "build-static", str(self.staging)],
                cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def wait(self) -> Path:
        assert self.process is not None
        if self.process.wait() != 0:
            tail = self.log.read_text(errors="replace")[-4000:]
            raise RuntimeError(f"build-static endete mit {self.process.returncode}:\n{tail}")
        os.replace(self.staging, self.out)
        self.log.unlink()
        self.process = None
        return self.out

    def stop(self) -> None:
        """Ends a build the session no longer waits for (pytest -x, Ctrl-C): its process
        group (Node, npm), which its own session makes."""
        if self.process is not None:
            stop_group(self.process)


_build: _Build | None = None


def begin() -> None:
    """Starts the build in the background unless it is cached (once per session)."""
    global _build
    if _build is None:
        _build = _Build()
        if not _build.cached():
            _build.start()


def ready() -> Path:
    """The built site's folder: the cached one, or the one :func:`begin` is making."""
    begin()
    assert _build is not None
    return _build.out if _build.process is None else _build.wait()


def stop() -> None:
    if _build is not None:
        _build.stop()
