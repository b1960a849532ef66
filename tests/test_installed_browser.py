"""bohnteach as a teacher gets it: the wheel built, installed into a fresh environment with
the lock's versions beside JupyterLab and Notebook 7, the example notebook (docs/beispiel.ipynb)
opened and run in Chromium — a scene steps, „Mach du!“ refuses a move with its rule, an
exercise checks an answer, the chart draws, and a state's phase bar shows no list numbers.

One environment for both front ends (session-scoped); pip's cache makes the install quick.
``BOHNTEACH_SHOTS=<folder>`` keeps a screenshot of each front end there.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_helpers import collect_errors, refuses_wrong_move, stop_group
from package_build import ROOT, wheel

pytestmark = pytest.mark.browser

LOCK = ROOT / "requirements.lock"
EXAMPLE = ROOT / "docs" / "beispiel.ipynb"
EXAMPLE_SCENE = ROOT / "docs" / "beispiel.scene"
#: What each front end calls a notebook's address.
FRONT_ENDS = {"lab": "lab/tree/beispiel.ipynb", "notebook": "notebooks/beispiel.ipynb"}


def _free_port() -> int:
    """A free port in 23000–23999 (the range of this project's hand-started servers)."""
    for port in random.sample(range(23000, 24000), 1000):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("kein freier Port zwischen 23000 und 23999")


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the built wheel, JupyterLab and Notebook 7 at the lock's versions;
    returns its ``bin`` folder."""
    venv = tmp_path_factory.mktemp("teacher") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "-c", str(LOCK), str(wheel()), "jupyterlab", "notebook"],
                   check=True, capture_output=True, text=True, timeout=1800)
    return venv / "bin"


@pytest.fixture(scope="session")
def teacher_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The teacher's folder: the example notebook and its scene file, and a HOME of its own
    (no Jupyter settings of this machine's user)."""
    home = tmp_path_factory.mktemp("home")
    for path in (EXAMPLE, EXAMPLE_SCENE):
        shutil.copy(path, home / path.name)
    return home


def _serve(bin_dir: Path, home: Path, front_end: str) -> Iterator[str]:
    port = _free_port()
    command = [str(bin_dir / "jupyter"), front_end, "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=",
               "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={home}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               *(["--allow-root"] if os.geteuid() == 0 else [])]
    env = {**os.environ, "HOME": str(home), "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
           "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    log = open(home / f"{front_end}.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(command, cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 300
        while True:  # the server answers its API once it is up
            try:
                urllib.request.urlopen(base + "api/status", timeout=5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((home / f"{front_end}.log").read_text()[-3000:]) from None
                time.sleep(0.5)
        yield base
    finally:
        stop_group(proc)
        log.close()


def _wait_for_idle_kernel(base: str) -> None:
    """Until the notebook's kernel has started and is idle (its session, by the REST API):
    "Run All Cells" before that asks which kernel to start."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with urllib.request.urlopen(base + "api/sessions", timeout=10) as answer:
            sessions = json.load(answer)
        if any(s["kernel"]["execution_state"] == "idle" for s in sessions):
            return
        time.sleep(0.5)
    raise AssertionError(f"kein Kernel bereit: {sessions}")


@pytest.fixture(params=sorted(FRONT_ENDS))
def front_end(request: pytest.FixtureRequest, installed: Path, teacher_home: Path) -> Iterator[tuple[str, str]]:
    name = request.param
    for url in _serve(installed, teacher_home, name):
        yield name, url + FRONT_ENDS[name]


def test_the_installed_package_works_in_the_teachers_front_end(page, front_end):
    from playwright.sync_api import expect

    name, url = front_end
    errors = collect_errors(page, version_warnings=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url, timeout=300_000)
    expect(page.locator(".jp-Notebook")).to_be_visible(timeout=300_000)
    _wait_for_idle_kernel(url.split("/lab/")[0].split("/notebooks/")[0] + "/")
    news = page.get_by_role("button", name="No", exact=True)  # JupyterLab asks about its news
    if news.count():
        news.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()

    scene = page.locator(".bt-scene-player").first
    expect(scene).to_contain_text("Schritt 0 /", timeout=180_000)
    scene.get_by_role("button", name="▶ weiter").click()
    expect(scene).to_contain_text("Schritt 1 /")

    own = page.locator(".bt-scene-player").nth(1)  # the scene file next to the notebook
    expect(own).to_contain_text("Vor dem Pflanzen ernten")
    own.get_by_role("button", name="▶ weiter").click()
    expect(own.locator(".bt-refusal")).to_contain_text("Regel")

    refuses_wrong_move(page)
    tryit = page.locator(".bt-tryit").first

    # a State left as a cell's result (an HTML output, under JupyterLab's output styles, not
    # a widget's): its phase bar has pills, no list numbers
    phases = page.locator(".jp-RenderedHTMLCommon ol.bt-phases").first
    phases.scroll_into_view_if_needed()
    expect(phases.locator("li")).to_have_count(4)
    markers = phases.evaluate("""ol => [...ol.querySelectorAll('li')].map(li => [
        getComputedStyle(li).listStyleType, getComputedStyle(li, '::marker').content])
        .concat([[getComputedStyle(ol).paddingLeft, '']])""")
    assert markers[-1][0] == "0px"
    assert all(style == "none" for style, _ in markers[:-1]), markers

    chart = page.locator(".js-plotly-plot .main-svg").first
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible(timeout=120_000)

    exercise = page.locator(".bt-exercise").first
    exercise.scroll_into_view_if_needed()
    exercise.locator("input[type=text]").fill("20")
    exercise.get_by_role("button", name="Prüfen").click()
    expect(exercise).to_contain_text("Richtig!")
    expect(exercise.get_by_role("button", name="Lösung zeigen (Lehrkraft)")).to_be_visible()

    text = page.inner_text("body")
    for failure in ("Traceback", "Error displaying widget", "Hoppla"):
        assert failure not in text
    assert not [e for e in errors if "plotly" in e.lower() or "bohnteach" in e.lower()], errors

    shots = os.environ.get("BOHNTEACH_SHOTS")
    if shots:
        for part, locator in (("scene", scene), ("tryit", tryit), ("state", phases),
                              ("chart", chart), ("exercise", exercise)):
            locator.evaluate("e => e.scrollIntoView({block: 'start'})")
            expect(locator).to_be_in_viewport()
            page.screenshot(path=str(Path(shots) / f"package-{name}-{part}.png"))
