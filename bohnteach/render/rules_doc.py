"""``docs/rules.md``: the project's own rule catalogue, written from the data.

Every rule ID of ``data/rules.toml`` with its title, explanation, source and Auslegung,
the bean varieties of ``data/varieties.toml`` and the rule sets of ``data/rulesets/``.
Regenerate after changing the data or a catalogue (a test fails while a file is stale)::

    python -m bohnteach.render.rules_doc docs/rules.md
    python -m bohnteach.render.rules_doc docs/rules.en.md en    # the English catalogue

Another language is the same document through its catalogue (``bohnteach/locale``):
every rule's words, the headings, the varieties' names; the German rulebooks are cited by
their section as printed, with its rendering beside it.
"""
from __future__ import annotations

import sys
from pathlib import Path

from bohnteach.game.beans import Variety, all_varieties, edition_varieties
from bohnteach.game.edition import all_editions
from bohnteach.game.errors import Rule, rule_catalogue, source_title
from bohnteach.game.rulesets import find_ruleset, ruleset_names
from bohnteach.i18n import N_, _, current, speaking
from bohnteach.i18n.glossary import find_term
from bohnteach.render.language import rule_words, source_words, variety_word

GROUPS = {
    "setup": N_("Vorbereitung"), "hand": N_("Die Hand"), "field": N_("Bohnenfelder"),
    "p1": N_("Phase 1: Pflanzen"), "p2": N_("Phase 2: Aufdecken"), "trade": N_("Handeln und Schenken"),
    "p3": N_("Phase 3: Erhaltenes pflanzen"), "p4": N_("Phase 4: Nachziehen"), "harvest": N_("Ernten"),
    "deck": N_("Nachziehstapel"), "end": N_("Spielende"), "score": N_("Wertung"), "tie": N_("Gleichstand"),
    "var": N_("Varianten"), "turn": N_("Zugfolge"), "game": N_("Spiel"), "input": N_("Eingaben"),
}
"""Section heading of each ID prefix of the core's rules, in the order the catalogue
lists them; each edition's section follows (``Edition.rule_prefix``, ``groups()``)."""


def groups() -> dict[str, str]:
    """Section heading of each ID prefix: the core's, then the registered editions'."""
    return ({k: _(v) for k, v in GROUPS.items()}
            | {e.rule_prefix: f"{e.view.label} ({e.rule_prefix}.*)" for e in all_editions() if e.rule_prefix})


def _edition_varieties() -> list[str]:
    """Table rows of the bean varieties the editions add, marked as assumed where the
    edition's rule set assumes its meters (that rule set's ``meter_rule``)."""
    rows = []
    for edition in all_editions():
        assumed = next((r.meter_rule for r in map(find_ruleset, ruleset_names())
                        if r.edition == edition.name and r.meter_rule), "")
        note = " – " + _("angenommen (`{rule}`)").format(rule=assumed) if assumed else ""
        rows += [f"| {_cell(_name(v))} ({edition.view.label}) | {_cell(_other(v))} | {v.count} | "
                 f"{_meter(v.meter)}{note} |"
                 for v in edition_varieties(edition.name) if v.bean]
    return rows


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _rule(rule: Rule) -> str:
    words = rule_words(rule)
    source, file, ausl = _("*Quelle:*"), _("*Datei:*"), _("**Auslegung:**")
    lines = [f"#### `{rule.id}` – {words.title}", "", " ".join(words.explanation.split()), "",
             f"{source} {words.source}  ", f"{file} `{rule.seed}`"]
    if rule.interpretation:
        lines += ["", f"{ausl} {' '.join(words.interpretation.split())}"]
    return "\n".join(lines)


def _name(v: Variety) -> str:
    """The site's name, and once here the other rulebook's name (the alias); in another
    language the name in it, the German one beside it."""
    if not current().is_source:
        term = find_term(v.de)
        return variety_word(v) + (" " + _("(unser Name)") if term is not None and term.ours else "")
    return f"{v.de} (auch {v.aliases[0]})" if v.aliases else v.de


def _other(v: Variety) -> str:
    """The second column: the English name beside the German; the German one beside another language."""
    return v.en if current().is_source else v.de


def _meter(meter: tuple[int, ...]) -> str:
    return " · ".join(f"{need} → {coins}" for coins, need in enumerate(meter, 1) if need) or "–"


def rules_markdown(lang: str | None = None) -> str:
    """The whole of ``docs/rules.md`` (``lang``: in that language, e.g. ``docs/rules.en.md``)."""
    with speaking(lang):
        return _markdown()


def _markdown() -> str:
    tr = current()
    rules = list(rule_catalogue().values())
    headings = groups()
    prefixes = list(dict.fromkeys([*headings, *(r.id.split(".")[0] for r in rules)]))
    german = tr.is_source
    target = "docs/rules.md" if german else f"docs/rules.{tr.lang}.md {tr.lang}"
    out = [
        "# " + _("Die Regeln von bohnteach"),
        "",
        "<!-- Generated from bohnteach/data/*.toml"
        + ("" if german else " and bohnteach/locale/" + tr.lang)
        + f" by `python -m bohnteach.render.rules_doc {target}`;"
        " do not edit by hand. -->",
        "",
    ]
    out += _("Jede Regel, die die Engine kennt, mit ihrer festen ID (Szenen, Tests und Fehlermeldungen "
             "nennen sie), dem Titel, den Lernende sehen, der Erklärung in eigenen Worten, der Quelle "
             "(Regelheft und Abschnitt) und – wo die Regelhefte schweigen oder sich widersprechen – "
             "der Auslegung, für die sich bohnteach entschieden hat. Danach die Bohnensorten und die "
             "Regelwerke.").split("\n") if not german else [
        "Jede Regel, die die Engine kennt, mit ihrer festen ID (Szenen, Tests und Fehlermeldungen",
        "nennen sie), dem Titel, den Lernende sehen, der Erklärung in eigenen Worten, der Quelle",
        "(Regelheft und Abschnitt) und – wo die Regelhefte schweigen oder sich widersprechen –",
        "der Auslegung, für die sich bohnteach entschieden hat. Danach die Bohnensorten und die",
        "Regelwerke.",
    ]
    if not german:
        out += ["", _("Die Regelhefte sind deutsch: Ein Abschnitt steht so, wie er dort heißt, in „…“, "
                      "seine Übersetzung in Klammern daneben.")]
    out += ["", "## " + _("Regeln")]
    for prefix in prefixes:
        group = [r for r in rules if r.id.split(".")[0] == prefix]
        if group:
            out += ["", f"### {headings.get(prefix, prefix)}", ""]
            out += ["\n\n".join(_rule(r) for r in group)]
    head = [_("Sorte"), _("englisch") if german else _("deutsch"), _("Karten"), _("Bohnometer (Karten → Taler)")]
    out += ["", "## " + _("Bohnensorten und Bohnometer"), "",
            _("Karten → Taler: so viele Karten einer Sorte bringen beim Ernten so viele Taler."), "",
            "| " + " | ".join(head) + " |", "|---|---|---:|---|"]
    out += [f"| {_cell(_name(v))} | {_cell(_other(v))} | {v.count} | {_meter(v.meter)} |"
            for v in all_varieties()]
    out += _edition_varieties()
    head = [_("Name"), _("Titel"), _("Quellen"), _("Sorten")]
    out += ["", "## " + _("Regelwerke"), "", "| " + " | ".join(head) + " |", "|---|---|---|---|"]
    for name in ruleset_names():
        rs = find_ruleset(name)
        sources = ", ".join(source_words(source_title(s)) for s in rs.sources)
        out.append(f"| `{name}` | {_cell(tr.gettext(rs.title))} | {_cell(sources)} | {len(rs.varieties)} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the catalogue to the path given (default: print it); a second argument names
    the language (default: German)."""
    args = sys.argv[1:] if argv is None else argv
    text = rules_markdown(args[1] if len(args) > 1 else None)
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
