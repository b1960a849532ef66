"""The documents a reader opens first: README is a short front door that starts with the two
commands CI and a newcomer run, and every relative link in the Markdown documents leads to
a file that exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_DOOR = """# bohnteach

```sh
make serve   # die Lernseite starten: http://127.0.0.1:8866/
make test    # alle Tests, auch die im Browser (headless Chromium)
```
"""
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
"""An inline Markdown link's target."""


def documents() -> list[Path]:
    """README, the guides in docs/, and the other folders' READMEs."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            ROOT / "tutorials" / "README.md", ROOT / "benchmarks" / "README.md"]


def broken_links(path: Path) -> list[str]:
    """The relative link targets of ``path`` (anchor dropped) that name no existing file."""
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # another site, or a place in the same document
        if not (path.parent / target.split("#")[0]).exists():
            broken.append(target)
    return broken


def test_readme_starts_with_the_two_commands_and_stays_short():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.startswith(FRONT_DOOR)
    assert len(text.splitlines()) <= 150


def test_every_relative_link_in_the_documents_leads_to_a_file():
    found = {str(path.relative_to(ROOT)): broken_links(path) for path in documents()}
    assert {name: links for name, links in found.items() if links} == {}


def test_the_link_check_finds_a_broken_link(tmp_path: Path):
    """The check above can fail: a link to a missing file is caught, others are not."""
    (tmp_path / "there.md").write_text("x")
    doc = tmp_path / "doc.md"
    doc.write_text("[a](there.md) [b](gone.md#part) [c](https://example.org/x) [d](#top)")
    assert broken_links(doc) == ["gone.md#part"]
