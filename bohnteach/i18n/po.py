"""A small reader for gettext ``.po`` files, standard library only (it runs in Pyodide).

The catalogues ship as the ``.po`` files translators edit, not as compiled ``.mo`` files:
one file per language and domain, never a second build product that can fall behind it.
Reading them costs a few milliseconds per language, once per process.

Like ``msgfmt``, the reader leaves out fuzzy entries (a German text changed since it was
translated: the reader sees the German until someone has reviewed the English), entries
without a translation, obsolete (``#~``) entries and the header.

    read_po(text)   # {(context or None, msgid): msgstr, (context, msgid, n): plural form n}
"""
from __future__ import annotations

import re

Key = tuple  # (context | None, msgid) or (context | None, msgid, plural index)


class PoSyntaxError(ValueError):
    """A line of a ``.po`` file the reader does not understand."""


_ESCAPE = re.compile(r'\\(.)')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _string(line: str, number: int) -> str:
    """The C-style quoted string of a line (``"…"``) as text."""
    line = line.strip()
    if len(line) < 2 or not (line.startswith('"') and line.endswith('"')):
        raise PoSyntaxError(f"Zeile {number}: erwartet einen Text in Anführungszeichen.")
    body = line[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def parse_po(text: str) -> list[dict]:
    """Every entry of a ``.po`` text: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr``
    (a list: one string, or one per plural form), ``fuzzy``, ``obsolete``."""
    entries: list[dict] = []
    entry: dict = {}
    field: tuple[str, int | None] | None = None

    def close() -> None:
        nonlocal entry, field
        if "msgid" in entry:
            entries.append(entry)
        entry, field = {}, None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            close()
            continue
        if line.startswith("#"):
            if field is not None and field[0] != "msgctxt":
                close()  # a comment after a complete entry starts the next one
            if line.startswith("#,") and "fuzzy" in [flag.strip() for flag in line[2:].split(",")]:
                entry["fuzzy"] = True
            continue
        if line.startswith('"'):
            if field is None:
                raise PoSyntaxError(f"Zeile {number}: ein Text ohne Schlüssel davor.")
            name, index = field
            if name == "msgstr":
                entry["msgstr"][index or 0] += _string(line, number)
            else:
                entry[name] += _string(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and "msgid" in entry and field is not None and field[0] == "msgstr":
            close()
        if obsolete:
            entry["obsolete"] = True
        if keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            strings = entry.setdefault("msgstr", [])
            while len(strings) <= index:
                strings.append("")
            strings[index] = _string(rest, number)
            field = ("msgstr", index)
        elif keyword in ("msgctxt", "msgid", "msgid_plural"):
            entry[keyword] = _string(rest, number)
            field = (keyword, None)
        else:
            raise PoSyntaxError(f"Zeile {number}: unbekanntes Wort {keyword[:20]!r}.")
    close()
    for e in entries:
        e.setdefault("msgctxt", None)
        e.setdefault("msgstr", [""])
        e.setdefault("fuzzy", False)
        e.setdefault("obsolete", False)
    return entries


def plural_forms(text: str) -> str:
    """The ``Plural-Forms`` expression of a ``.po`` text's header (``"(n != 1)"`` if none)."""
    for e in parse_po(text):
        if e["msgid"] == "" and e["msgctxt"] is None:
            for line in e["msgstr"][0].splitlines():
                name, _, value = line.partition(":")
                if name.strip().lower() == "plural-forms":
                    for part in value.split(";"):
                        key, _, expr = part.partition("=")
                        if key.strip() == "plural":
                            return expr.strip()
    return "(n != 1)"


def read_po(text: str) -> dict[Key, str]:
    """The usable translations of a ``.po`` text, keyed as gettext looks them up."""
    catalogue: dict[Key, str] = {}
    for e in parse_po(text):
        if e["obsolete"] or e["fuzzy"] or not e["msgid"] or not any(e["msgstr"]):
            continue
        if "msgid_plural" in e:
            for n, form in enumerate(e["msgstr"]):
                catalogue[(e["msgctxt"], e["msgid"], n)] = form
        else:
            catalogue[(e["msgctxt"], e["msgid"])] = e["msgstr"][0]
    return catalogue


__all__ = ["PoSyntaxError", "parse_po", "plural_forms", "read_po"]
