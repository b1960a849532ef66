"""The adapters' self-checks (bohnteach/upstream, docs/upstream.md): each sees what it touches
change, and ``bohnteach serve`` / ``bohnteach build-static`` then refuse to start with one
German line naming the package and its version — no traceback, no server, no build."""
from __future__ import annotations

import importlib.metadata

import pytest

from bohnteach import cli
from bohnteach.upstream import SERVE, STATIC, problems, refusal


def test_every_adapter_passes_with_the_pinned_versions():
    assert problems(dict.fromkeys(SERVE + STATIC)) == []


def _fail_voila(monkeypatch):
    from voila import app

    monkeypatch.delattr(app, "voila_kernel_manager_factory")
    return "voila", "voila_kernel_manager_factory"


def _fail_jupyter(monkeypatch):
    from nbconvert.exporters.templateexporter import TemplateExporter

    monkeypatch.delattr(TemplateExporter, "_create_environment")
    return "nbconvert", "_create_environment"


def _fail_ipywidgets(monkeypatch):
    from ipywidgets.widgets import widget

    monkeypatch.delattr(widget, "_instances")
    return "ipywidgets", "_instances"


def _fail_plotly(monkeypatch):
    import bohnteach.upstream as upstream

    real = upstream.installed
    monkeypatch.setattr(upstream, "installed", lambda name: "8.0.1" if name == "plotly" else real(name))
    return "plotly", "geprüft ist 7.1.0"


def _fail_jupyterlite(monkeypatch):
    from bohnteach.upstream import jupyterlite

    monkeypatch.setattr(jupyterlite, "WORKER_MARKERS", ("a listener no worker has",))
    return "voici-core", "Service Worker"


@pytest.mark.parametrize("adapter, fail", [
    ("voila", _fail_voila), ("jupyter", _fail_jupyter), ("ipywidgets", _fail_ipywidgets),
    ("plotly", _fail_plotly), ("jupyterlite", _fail_jupyterlite),
])
def test_each_check_sees_its_upstream_change(monkeypatch, adapter, fail):
    package, what = fail(monkeypatch)
    line = refusal([adapter])
    assert line is not None and "\n" not in line
    version = importlib.metadata.version(package) if package != "plotly" else "8.0.1"
    assert line.startswith(f"Abbruch – eine Abhängigkeit hat sich geändert: {package} {version}: ")
    assert what in line


def test_a_check_that_breaks_is_reported_not_raised(monkeypatch):
    from bohnteach.upstream import ipywidgets

    def broken() -> list[str]:
        raise AttributeError("weg")

    monkeypatch.setattr(ipywidgets, "check", broken)
    version = importlib.metadata.version("ipywidgets")
    assert problems(["ipywidgets"]) == [f"ipywidgets {version}: Selbstprüfung gescheitert (AttributeError: weg)"]


def test_pyodide_outside_the_checked_series_stops_the_build():
    from bohnteach.upstream.pyodide import lock_problem, version_problem

    assert version_problem("0.29.0") is None
    assert "Pyodide 314.0.0" in version_problem("314.0.0")
    assert lock_problem({"info": {}, "packages": {"a": {"file_name": "a.whl"}}}) is None
    assert "file_name" in lock_problem({"info": {}, "packages": {"a": {"name": "a"}}})


def test_serve_refuses_to_start_with_one_line(monkeypatch, capsys, tmp_path):
    """The check runs in a process of its own (``bohnteach serve`` waits as long as the site
    runs and should not hold Voilà's modules): there Voilà's version reads 0.6.0."""
    from bohnteach.site import serve

    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.metadata as m\n"
        "real = m.version\n"
        "m.version = lambda name: '0.6.0' if name == 'voila' else real(name)\n", "utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setattr(serve, "site_dir", lambda: pytest.fail("started"))
    assert cli.main(["serve", "--port", "23517"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err == ("Abbruch – eine Abhängigkeit hat sich geändert: voila 0.6.0: geprüft ist 0.5.13 "
                   "(bohnteach/upstream; docs/upstream.md)\n")


def test_the_server_process_refuses_too(monkeypatch, capsys):
    """``python -m bohnteach.site.serve`` (tests and benchmarks start it directly)."""
    from bohnteach.site import serve

    _fail_jupyter(monkeypatch)
    monkeypatch.delenv(serve.CHECKED_ENV, raising=False)
    monkeypatch.setattr("voila.app.Voila.launch_instance", lambda *a, **k: pytest.fail("started"))
    assert serve._run_voila(["--port=23518"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nbconvert" in err and "Traceback" not in err


def test_build_static_refuses_to_start_with_one_line(monkeypatch, capsys, tmp_path):
    from bohnteach.site import static

    _fail_jupyterlite(monkeypatch)
    monkeypatch.setattr(static, "build_static", lambda *a, **k: pytest.fail("built"))
    assert cli.main(["build-static", str(tmp_path / "out")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "voici-core 0.10.0" in err and "Service Worker" in err
    assert not (tmp_path / "out").exists()


def test_build_static_refuses_an_unchecked_pyodide(monkeypatch, capsys, tmp_path):
    from bohnteach.site import static

    monkeypatch.setattr(static, "PYODIDE_VERSION", "314.0.0")
    monkeypatch.setattr(static, "build_static", lambda *a, **k: pytest.fail("built"))
    assert cli.main(["build-static", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Pyodide 314.0.0" in err


def test_a_known_bad_patch_release_is_refused_and_an_unchecked_one_noted(monkeypatch):
    """ipywidgets 8.1.9 is in the checked series but breaks the site under load: only the
    checked version will do. A package within its series but not the checked version passes
    the check and is named by ``python -m bohnteach.upstream``."""
    import bohnteach.upstream as upstream

    real = upstream.installed
    moved = {"ipywidgets": "8.1.9", "nbconvert": "7.17.9"}
    monkeypatch.setattr(upstream, "installed", lambda name: moved.get(name, real(name)))
    line = refusal(["ipywidgets"])
    assert line.startswith("Abbruch – eine Abhängigkeit hat sich geändert: ipywidgets 8.1.9: nur 8.1.8 ist geprüft")
    assert upstream.notes(["jupyter"]) == ["ungeprüft: nbconvert 7.17.9 (geprüft 7.17.2)"]
