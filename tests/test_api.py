"""The notebook API (``import bohnteach as bt``, bohnteach/api.py), the extras' one German
line, and the example notebook (docs/beispiel.ipynb) run as a teacher's kernel runs it."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bohnteach as bt
from bohnteach import extras

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "beispiel.ipynb"


def _text(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_import_bohnteach_stays_light_and_keeps_the_engine():
    code = ("import sys, bohnteach as bt\n"
            "heavy = [m for m in ('ipywidgets', 'plotly', 'IPython', 'msgspec') if m in sys.modules]\n"
            "state = bt.new_game(players=3, seed=1)\n"
            "print(heavy, type(state).__name__, callable(bt.scene), 'scene' in dir(bt))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "State", "True", "True"]


def test_scene_by_id_and_from_a_file_of_ones_own():
    from bohnteach.widgets.scene_player import ScenePlayer

    shipped = bt.scene("q-handelsfall")
    own = bt.scene(ROOT / "docs" / "beispiel.scene")
    assert isinstance(shipped, ScenePlayer) and isinstance(own, ScenePlayer)
    own.next()  # the first step is a refused plant: the engine's refusal names the rule
    assert "Nur eine Sorte pro Feld" in _text(own.feedback.value) or "field.one-variety" in own.feedback.value


def test_a_wrong_scene_shows_a_german_box_not_a_traceback(tmp_path):
    unknown = bt.scene("gibt-es-nicht")
    assert "Keine Szene „gibt-es-nicht“. Alle Szenen zeigt bt.scenes()." in _text(unknown.data)
    broken = tmp_path / "kaputt.scene"
    broken.write_text("Szene: kaputt\nTitel: x\nKapitel: Phase 9\n", "utf-8")
    box = _text(bt.scene(broken).data)
    assert "kaputt.scene:3: Unbekanntes Kapitel" in box, box


def test_try_it_refuses_with_the_rule():
    from bohnteach.game.actions import EndPlanting
    from bohnteach.widgets.tryit import TryIt

    case = bt.try_it("p1-vorderste")
    assert isinstance(case, TryIt)
    refusal = case.play(EndPlanting(case.learner))
    assert refusal is not None and refusal.rule_id == "p1.plant-front"


def test_table_chart_rule_and_teacher_mode():
    table = bt.table(bt.load_scene("q-handelsfall").state_at(1), perspective=0)
    assert 'class="bt-phases"' in table.data and "du" in _text(table.data)
    fig = bt.chart("bohnometer", ["Blaue Bohne"])
    assert [t.name for t in fig.data] == ["Blaue Bohne"]
    assert "Kein Diagramm „torte“" in _text(bt.chart("torte").data)
    rules = _text(bt.rule("p1.plant-front").data)
    assert "vorderste Karte" in rules and "Amigo-Spielregel" in rules
    question = bt.NumberQuestion("Wie viele?", answer=3, solution="drei")
    try:
        assert question.solution.hidden
        note = bt.teacher_mode().value
        assert "Lehrkraft-Ansicht" in note and "?lehrkraft" not in note
        assert not question.solution.hidden
    finally:
        bt.teacher_mode(False)
    assert question.solution.hidden


def test_the_phase_bar_wins_over_jupyterlabs_list_styles():
    """JupyterLab styles ``.jp-RenderedHTMLCommon ol:not(.list-inline)`` (two classes and an
    element); the phase bar's rule must weigh more (the browser test looks at it)."""
    from bohnteach.render.style import CSS

    rule = re.search(r"([^}\n]*bt-phases[^{]*)\{([^}]*)\}", CSS)
    assert rule and "list-style:none" in rule.group(2) and "padding:0" in rule.group(2)
    assert rule.group(1).count(".") >= 3, rule.group(1)


@pytest.mark.parametrize(("module", "extra", "feature"), [
    ("sqlalchemy", "klasse", "den Klassenraum"),
    ("segno", "klasse", "den Klassenraum"),
    ("voila.app", "site", "die Lernseite"),
])
def test_a_page_names_a_missing_extra_in_one_line(module, extra, feature):
    from bohnteach.render.failure import friendly_message

    line = friendly_message(ModuleNotFoundError(f"No module named '{module}'", name=module))
    assert line == f"Für {feature} fehlt das Extra [{extra}]: pip install 'bohnteach[{extra}]'"


@pytest.mark.parametrize(("command", "extra"), [(["serve"], "site"), (["build-static", "x"], "static")])
def test_the_command_line_names_a_missing_extra(monkeypatch, capsys, command, extra):
    from bohnteach import cli

    real = extras.importlib.util.find_spec
    gone = set(extras.EXTRAS[extra][:1])
    monkeypatch.setattr(extras.importlib.util, "find_spec",
                        lambda name, *a: None if name in gone else real(name, *a))
    assert cli.main(command) == 2
    err = capsys.readouterr().err
    assert err == (f"Für `bohnteach {command[0]}` fehlt das Extra [{extra}]: "
                   f"pip install 'bohnteach[{extra}]'\n")


def test_every_module_of_an_extra_is_in_that_extra_in_pyproject():
    """The table of extras.py and pyproject.toml's extras say the same."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    names = {extra: {re.split(r"[\[<>=]", req)[0].lower().replace("_", "-") for req in declared[extra]}
             for extra in extras.EXTRAS}
    distribution = {"voici_core": "voici-core", "jupyterlite_core": "jupyterlite-core",
                    "jupyterlite_pyodide_kernel": "jupyterlite-pyodide-kernel",
                    "jupyter_server": "jupyter-server", "jupyter_client": "jupyter-client"}
    for extra, modules in extras.EXTRAS.items():
        for module in modules:
            assert distribution.get(module, module).replace("_", "-") in names[extra], (extra, module)


def test_the_fork_provisioner_is_an_entry_point_loaded_only_when_named():
    """jupyter_client lists provisioners without loading them: without [site] the entry
    point stays harmless; with it, it loads the provisioner."""
    from importlib.metadata import entry_points

    [point] = entry_points(group="jupyter_client.kernel_provisioners", name="bohnteach-fork")
    assert point.value == "bohnteach.site.forking:ForkingProvisioner"
    assert point.load().__name__ == "ForkingProvisioner"


def test_the_example_notebook_shows_no_failure_box():
    """nbval (pyproject's testpaths) runs the example; a builder that fails shows a box
    instead of raising, so here every output is looked at too."""
    from nbclient import NotebookClient
    import nbformat

    nb = nbformat.read(EXAMPLE, as_version=4)
    NotebookClient(nb, timeout=300, startup_timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(EXAMPLE.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = json.dumps([o.get("data", {}) for o in outputs] + [nb.metadata.get("widgets", {})],
                      ensure_ascii=False)
    assert "bt-box bt-error" not in text and "Hoppla" not in text
    assert "Mia muss die Sojabohne vorne in ihrer Hand pflanzen" in text  # the scene file
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 5  # two scenes, Mach du!, the question, the teacher's note
    [chart] = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    assert "Plotly.newPlot" in chart.data["text/html"]
    [table] = [o for o in outputs if 'class="bt-phases"' in o.get("data", {}).get("text/html", "")]
    assert "Phase" in table.data["text/html"]


def test_a_command_that_meets_a_missing_module_of_an_extra_says_which(monkeypatch, capsys):
    """Past the first check (a module of another extra, imported deep inside): still the
    one line, no traceback."""
    from bohnteach import cli

    def run(_args):
        raise ModuleNotFoundError("No module named 'segno'", name="segno")

    monkeypatch.setattr(cli, "_run", run)
    assert cli.main(["simulate", "--games", "1"]) == 2
    assert capsys.readouterr().err == ("Für den Klassenraum fehlt das Extra [klasse]: "
                                       "pip install 'bohnteach[klasse]'\n")


def test_the_static_build_imports_without_the_sites_extra():
    """``bohnteach build-static`` with [static] alone: its modules import no module that
    only [site] brings (the fork server's setproctitle is imported where it runs)."""
    code = ("import sys\n"
            "sys.modules['setproctitle'] = None\n"  # not installed
            "import bohnteach.site.static, bohnteach.site.serve\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def test_the_site_leaves_out_notebook_7s_own_extension(tmp_path):
    """Notebook 7 installed beside the site (the [test] extra brings it): its extension is
    Notebook's interface and fails on a Voilà page; neither the served site nor the static
    build loads it."""
    from bohnteach.site import static
    from bohnteach.site.serve import build_voila_command

    denied = {a.split("=", 1)[1] for a in build_voila_command(8866, False, tmp_path)
              if "extension_denylist" in a}
    assert {"@jupyter-notebook/lab-extension", "jupyterlab-plotly"} <= denied
    names = ("jupyterlab-plotly", "@jupyter-notebook/lab-extension", "@jupyter-widgets/jupyterlab-manager")
    for name in names:
        (tmp_path / "extensions" / name).mkdir(parents=True)
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-config-data": {"federated_extensions": [{"name": n} for n in names]}}))
    static._leave_out_extensions(tmp_path)
    left = sorted(p.relative_to(tmp_path / "extensions").as_posix()
                  for p in (tmp_path / "extensions").rglob("*"))
    assert left == ["@jupyter-widgets", "@jupyter-widgets/jupyterlab-manager"]
    config = json.loads((tmp_path / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert config["federated_extensions"] == [{"name": "@jupyter-widgets/jupyterlab-manager"}]
