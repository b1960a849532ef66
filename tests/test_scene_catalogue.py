"""The shipped scene catalogue (the worked examples of the Amigo-Spielregel, the Online-Regeln and the Amigo-Kurzregel) and the CLI check."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bohnteach.game.errors import SEED_FILES, rule_catalogue
from bohnteach.content.scenes import CHAPTERS, list_scenes, scene_files
from bohnteach.content.scenes.check import check_file, check_main

ROOT = Path(__file__).resolve().parents[1]
SEEDS = Path("/work/shared/seeds")
FILES = scene_files()

# Amigo-Spielregel, Online-Regeln, Amigo-Kurzregel: every worked example, mistake and FAQ has its scene.
REQUIRED = {
    # phases
    "a-phase1", "a-phase2", "a-phase3", "a-phase4",
    # seed 000 worked examples
    "a-stinkbohne", "a-ernte", "a-bohnenschutz", "a-bohnentreppe", "a-spielende-handel",
    "a-gleichstand", "a-mischen",
    # six beginner mistakes, five FAQ
    "fehler-sortieren", "fehler-auf-die-hand", "fehler-vorderste", "fehler-halb-ernten",
    "fehler-bohnenschutz", "fehler-zu-wenig-handeln",
    "faq-handreihenfolge", "faq-wer-mit-wem", "faq-phase1-karten", "faq-teilernte", "faq-spielende",
    # seed 002
    "q-handelsfall", "q-zwei-mitspieler", "q-schlechte-vorderkarte",
    # seed 001
    "g-drittes-feld", "g-spieler-3", "g-spieler-4-5", "g-spieler-6-7", "g-nur-eine-karte",
    "g-mischen-phase4", "g-gleichstand",
    # seed 003 (Ladybohn): Beispiel 1–5, baby lift, female garden, baby on top, baby in a
    # deal, and three mistakes refused with their lady.* rule
    "l-timon-angebot", "l-ninas-handel", "l-phase3-reihenfolge", "l-keno-ernte",
    "l-baby-lift", "l-gartenbohne-weiblich", "l-baby-oben", "l-baby-handel",
    "l-fehler-lift", "l-fehler-baby-ernten", "l-fehler-phase3",
    # seed 004 (Indiana Bohnes): the three refill examples, the draw round, each visit outcome,
    # the three snake exceptions, blockade and release, carrier at place 1/2/3, path card,
    # second visit, Sabohntage (tests/test_indiana_teaching.py plays each step)
    "i-auffuellen-1", "i-auffuellen-2", "i-auffuellen-3", "i-nachziehen", "i-treffer",
    "i-andere-sorte", "i-fremde-sorte", "i-schlange-tempel", "i-schlange-abenteurer",
    "i-schlange-gewuenscht", "i-blockade", "i-blockade-aufheben", "i-traeger-1", "i-traeger-2",
    "i-traeger-3", "i-wegkarte", "i-zweiter-tempelgang", "i-sabohntage", "i-tempel-chancen",
}


def test_files_are_shipped():
    assert len(FILES) >= len(REQUIRED)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_shipped_scene_passes_the_check(path):
    problems = check_file(path)
    assert problems == [], "\n".join(map(str, problems))


def test_check_main_passes_on_all_files(capsys):
    assert check_main([str(p) for p in FILES]) == 0
    assert "Problemen" not in capsys.readouterr().out


def test_catalogue_is_complete_and_ids_unique():
    scenes = list_scenes()
    ids = [s.id for s in scenes]
    assert len(ids) == len(set(ids))
    assert REQUIRED <= set(ids), sorted(REQUIRED - set(ids))
    for key, title in CHAPTERS:
        assert list_scenes(key), f"Kapitel {title} ist leer"


def test_mistakes_and_faq_show_the_refused_move():
    for scene in list_scenes("fehler") + list_scenes("faq"):
        refused = [s.refused for s in scene.steps if s.refused]
        assert refused, scene.id
        for rid in refused:
            assert rid in rule_catalogue()


def test_every_scene_cites_a_seed_and_known_rules():
    names = set(SEED_FILES.values())
    for scene in list_scenes():
        assert scene.sources, scene.id
        assert any(any(n in src for n in names) for src in scene.sources), scene.id
        assert scene.rules and set(scene.rules) <= set(rule_catalogue()), scene.id
        assert scene.intro, scene.id
        assert all(step.narration or step.action is not None for step in scene.steps)


def test_regelvergleich_pairs_share_the_situation():
    scenes = {s.id: s for s in list_scenes("Regelvergleich")}
    for topic in ("gleichstand", "feld"):
        amigo, online = scenes[f"vergleich-{topic}-amigo"], scenes[f"vergleich-{topic}-online"]
        assert (amigo.ruleset, online.ruleset) == ("amigo", "online")
        a0, o0 = amigo.initial, online.initial
        assert [p.name for p in a0.players] == [p.name for p in o0.players]
        for pa, po in zip(a0.players, o0.players):
            assert [a0.variety[c] for c in pa.hand] == [o0.variety[c] for c in po.hand]
            assert [[a0.variety[c] for c in f] for f in pa.fields] == [[o0.variety[c] for c in f] for f in po.fields]
            assert len(pa.coins) == len(po.coins)
    tie_a, tie_o = scenes["vergleich-gleichstand-amigo"], scenes["vergleich-gleichstand-online"]
    assert tie_a.state_at(len(tie_a)).winners != tie_o.state_at(len(tie_o)).winners


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed texts not available")
def test_narration_is_paraphrased_not_pasted():
    """No run of 8 words from a rulebook appears in a scene's narration."""
    grams: set[tuple[str, ...]] = set()
    for seed in ("000", "001", "002", "003"):
        for f in SEEDS.glob(f"{seed}_*.txt"):
            w = _words(f.read_text(encoding="utf-8"))
            grams |= {tuple(w[i:i + 8]) for i in range(len(w) - 7)}
    for scene in list_scenes():
        for text in [scene.intro] + [s.narration for s in scene.steps]:
            w = _words(text)
            copied = [" ".join(w[i:i + 8]) for i in range(len(w) - 7) if tuple(w[i:i + 8]) in grams]
            assert not copied, (scene.id, copied[:1])


# ---- the command line ------------------------------------------------------------------
def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bohnteach.cli", "scene", "check", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def test_cli_exits_0_on_good_files():
    done = _cli(*[str(p) for p in FILES[:5]])
    assert done.returncode == 0, done.stdout + done.stderr


def test_cli_exits_1_on_a_broken_file_and_names_the_line(tmp_path):
    text = FILES[0].read_text(encoding="utf-8").splitlines()
    lines = [i for i, l in enumerate(text) if l.startswith("Schritt: ") and l.strip() != "Schritt:"]
    text[lines[0]] = "Schritt: Anna jongliert mit Bohnen"
    broken = tmp_path / "kaputt.scene"
    broken.write_text("\n".join(text) + "\n", encoding="utf-8")
    done = _cli(str(FILES[0]), str(broken))
    assert done.returncode == 1
    assert f"{broken}:{lines[0] + 1}:" in done.stdout
    assert "jongliert" in done.stdout and "Traceback" not in done.stdout + done.stderr
