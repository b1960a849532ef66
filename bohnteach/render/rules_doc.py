"""``docs/rules.md``: the project's own rule catalogue, written from the data.

Every rule ID of ``data/rules.toml`` with its title, explanation, source and Auslegung,
the bean varieties of ``data/varieties.toml`` and the rule sets of ``data/rulesets/``.
Regenerate after changing the data (a test fails while the file is stale)::

    python -m bohnteach.render.rules_doc docs/rules.md
"""
from __future__ import annotations

import sys
from pathlib import Path

from bohnteach.game.beans import Variety, all_varieties, edition_varieties
from bohnteach.game.edition import all_editions
from bohnteach.game.errors import Rule, rule_catalogue, source_title
from bohnteach.game.rulesets import find_ruleset, ruleset_names

GROUPS = {
    "setup": "Vorbereitung", "hand": "Die Hand", "field": "Bohnenfelder",
    "p1": "Phase 1: Pflanzen", "p2": "Phase 2: Aufdecken", "trade": "Handeln und Schenken",
    "p3": "Phase 3: Erhaltenes pflanzen", "p4": "Phase 4: Nachziehen", "harvest": "Ernten",
    "deck": "Nachziehstapel", "end": "Spielende", "score": "Wertung", "tie": "Gleichstand",
    "var": "Varianten", "turn": "Zugfolge", "game": "Spiel", "input": "Eingaben",
}
"""Section heading of each ID prefix of the core's rules, in the order the catalogue
lists them; each edition's section follows (``Edition.rule_prefix``, ``groups()``)."""


def groups() -> dict[str, str]:
    """Section heading of each ID prefix: the core's, then the registered editions'."""
    return GROUPS | {e.rule_prefix: f"{e.view.label} ({e.rule_prefix}.*)" for e in all_editions() if e.rule_prefix}


def _edition_varieties() -> list[str]:
    """Table rows of the bean varieties the editions add, marked as assumed where the
    edition's rule set assumes its meters (that rule set's ``meter_rule``)."""
    rows = []
    for edition in all_editions():
        assumed = next((r.meter_rule for r in map(find_ruleset, ruleset_names())
                        if r.edition == edition.name and r.meter_rule), "")
        note = f" – angenommen (`{assumed}`)" if assumed else ""
        rows += [f"| {_cell(_name(v))} ({edition.view.label}) | {_cell(v.en)} | {v.count} | {_meter(v.meter)}{note} |"
                 for v in edition_varieties(edition.name) if v.bean]
    return rows


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _rule(rule: Rule) -> str:
    lines = [f"#### `{rule.id}` – {rule.title}", "", " ".join(rule.explanation.split()), "",
             f"*Quelle:* {rule.source}  ", f"*Datei:* `{rule.seed}`"]
    if rule.interpretation:
        lines += ["", f"**Auslegung:** {' '.join(rule.interpretation.split())}"]
    return "\n".join(lines)


def _name(v: Variety) -> str:
    """The site's name, and once here the other rulebook's name (the alias)."""
    return f"{v.de} (auch {v.aliases[0]})" if v.aliases else v.de


def _meter(meter: tuple[int, ...]) -> str:
    return " · ".join(f"{need} → {coins}" for coins, need in enumerate(meter, 1) if need) or "–"


def rules_markdown() -> str:
    """The whole of ``docs/rules.md``."""
    rules = list(rule_catalogue().values())
    headings = groups()
    prefixes = list(dict.fromkeys([*headings, *(r.id.split(".")[0] for r in rules)]))
    out = [
        "# Die Regeln von bohnteach",
        "",
        "<!-- Generated from bohnteach/data/*.toml by `python -m bohnteach.render.rules_doc "
        "docs/rules.md`; do not edit by hand. -->",
        "",
        "Jede Regel, die die Engine kennt, mit ihrer festen ID (Szenen, Tests und Fehlermeldungen",
        "nennen sie), dem Titel, den Lernende sehen, der Erklärung in eigenen Worten, der Quelle",
        "(Regelheft und Abschnitt) und – wo die Regelhefte schweigen oder sich widersprechen –",
        "der Auslegung, für die sich bohnteach entschieden hat. Danach die Bohnensorten und die",
        "Regelwerke.",
        "",
        "## Regeln",
    ]
    for prefix in prefixes:
        group = [r for r in rules if r.id.split(".")[0] == prefix]
        if group:
            out += ["", f"### {headings.get(prefix, prefix)}", ""]
            out += ["\n\n".join(_rule(r) for r in group)]
    out += ["", "## Bohnensorten und Bohnometer", "",
            "Karten → Taler: so viele Karten einer Sorte bringen beim Ernten so viele Taler.", "",
            "| Sorte | englisch | Karten | Bohnometer (Karten → Taler) |", "|---|---|---:|---|"]
    out += [f"| {_cell(_name(v))} | {_cell(v.en)} | {v.count} | {_meter(v.meter)} |"
            for v in all_varieties()]
    out += _edition_varieties()
    out += ["", "## Regelwerke", "", "| Name | Titel | Quellen | Sorten |", "|---|---|---|---|"]
    for name in ruleset_names():
        rs = find_ruleset(name)
        sources = ", ".join(source_title(s) for s in rs.sources)
        out.append(f"| `{name}` | {_cell(rs.title)} | {_cell(sources)} | {len(rs.varieties)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the catalogue to the path given (default: print it)."""
    args = sys.argv[1:] if argv is None else argv
    text = rules_markdown()
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
