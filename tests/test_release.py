"""Ready to publish: sdist and wheel carry full metadata and pass ``twine check``; the
release workflow builds on a tag and publishes with PyPI's trusted publishing."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import yaml

from package_build import ROOT, built_dist, wheel


def _metadata() -> dict:
    with zipfile.ZipFile(wheel()) as whl:
        [name] = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(whl.read(name).decode("utf-8"))
        files = whl.namelist()
    return {"message": message, "files": files}


def test_twine_check_passes_for_sdist_and_wheel():
    dists = sorted(str(p) for p in built_dist().iterdir())
    assert any(d.endswith(".tar.gz") for d in dists) and any(d.endswith(".whl") for d in dists)
    out = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *dists],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_wheel_has_what_an_index_shows():
    found = _metadata()
    meta, files = found["message"], found["files"]
    assert meta["License-Expression"] == "MIT"
    assert any(f.endswith("licenses/LICENSE") for f in files)
    classifiers = meta.get_all("Classifier")
    assert "Framework :: Jupyter :: JupyterLab" in classifiers and "Natural Language :: German" in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(urls)
    assert meta["Description-Content-Type"] == "text/markdown"
    body = meta.get_payload()
    assert "pip install bohnteach" in body and "import bohnteach as bt" in body
    extras = set(meta.get_all("Provides-Extra"))
    assert {"site", "klasse", "static"} <= extras
    core = [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r]
    assert not [r for r in core if r.split()[0].lower() in {"voila", "jupyterlab", "sqlalchemy", "psycopg"}]
    # the example, the scene format and the site's pages travel with the package
    assert "bohnteach/widgets/plotly_global.js" in files
    # the page and worker scripts are package data (docs/upstream.md)
    assert {"bohnteach/site/js/page/keyboard.js", "bohnteach/upstream/js/pyodide/start.js",
            "bohnteach/upstream/js/pyodide/make-snapshot.mjs"} <= set(files)
    assert "bohnteach/_site/notebooks/app.ipynb" in files


def test_release_workflow_builds_on_a_tag_and_publishes_by_trusted_publishing():
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text("utf-8"))
    triggers = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads `on` as true
    assert triggers["push"]["tags"] == ["v*"] and "branches" not in triggers["push"]
    build, publish = flow["jobs"]["build"], flow["jobs"]["publish"]
    build_steps = "\n".join(step.get("run", "") for step in build["steps"])
    assert "python -m build" in build_steps and "twine check --strict dist/*" in build_steps
    assert "-c requirements.lock" in build_steps
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    [upload] = [s for s in publish["steps"] if "gh-action-pypi-publish" in s.get("uses", "")]
    assert upload["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert "password" not in upload.get("with", {}), "trusted publishing needs no token"
    assert flow["permissions"] == {"contents": "read"}  # only the publishing job may mint a token
