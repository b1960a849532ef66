"""The German words of the class panel, „Klassenraum“ (:mod:`bohnteach.widgets.classroom`).
Placeholders in braces are filled with escaped values."""
from __future__ import annotations

WORDS = {
    "title": "Klassenraum",
    "no_server": (
        "<b>Klassenraum:</b> Diese Fassung der Seite läuft ohne Server (zum Beispiel die "
        "statische Seite oder ein Notebook). Eine Klasse kann ihre Tipps und Ergebnisse hier "
        "nicht sammeln – die Lektion funktioniert ganz normal allein."
    ),
    "loading": "Klassenraum wird geladen …",
    "teacher_intro": (
        "<b>Klassenraum (Lehrkraft).</b> Starte eine Klasse: Die Schülerinnen und Schüler "
        "treten mit dem Code oder dem Link bei, ohne Namen. Ihre Tipps und Ergebnisse "
        "erscheinen hier, sobald sie ankommen – zeig diese Seite am Beamer."
    ),
    "start": "Klasse starten",
    "code_big": (
        '<div class="bt-klasse-code"><span>Klassencode</span> '
        '<strong aria-label="Klassencode {spoken_aria}">{spoken}</strong></div>'
        '<p>Oder der Link: <a href="{link}">{link}</a></p>'
    ),
    "state_open": "Die Klasse ist <b>offen</b>: Beitreten und Abgeben geht.",
    "state_closed": "Die Klasse ist <b>geschlossen</b>: nur noch Ansehen, keine Abgaben.",
    "expires": "Die Klasse und alle Abgaben werden am {when} Uhr (UTC) gelöscht.",
    "close": "Klasse schließen",
    "reopen": "Wieder öffnen",
    "end": "Klasse beenden (alles löschen)",
    "ended": "Die Klasse ist beendet; alle ihre Daten sind gelöscht.",
    "reveal": "Auflösen",
    "hide": "Auflösung verbergen",
    "clear": "Abgaben löschen",
    "members": "{n} in der Klasse, {k} Abgaben.",
    "none_yet": "Noch keine Abgaben.",
    "join_intro": (
        "<b>Klassenraum:</b> Macht deine Klasse mit? Gib den Code von der Tafel ein. Du "
        "bleibst anonym; einen Spitznamen kannst du dir aussuchen, musst aber nicht."
    ),
    "code_label": "Klassencode:",
    "nick_label": "Spitzname:",
    "nick_placeholder": "freiwillig, höchstens {n} Zeichen",
    "join": "Beitreten",
    "joined": "Du bist in der Klasse <b>{spoken}</b>{nick}.",
    "joined_nick": " als <b>{nick}</b>",
    "estimate_placeholder": "z. B. 15",
    "send_estimate": "Tipp abschicken",
    "estimate_sent": "Dein Tipp ist angekommen: <b>{value}</b>. Du kannst ihn ändern, bis "
                     "aufgelöst wird – es zählt der letzte.",
    "estimate_long": "Das ist zu lang für eine Zahl.",
    "draw": "{n} Runden ziehen",
    "draws_sent": "Deine Runden: <b>{hits}</b> Treffer in <b>{trials}</b> Runden (<b>{rate}</b>) – "
                  "an die Klasse geschickt.",
    "draws_full": "Du hast schon {n} Runden gezogen – mehr zählt nicht.",
    "revealed": "Exakt: <b>{exact}</b>",
    "mean": "Mittelwert der Klasse: <b>{mean}</b>",
    "total": "Klasse gesamt: <b>{hits}</b> Treffer in <b>{trials}</b> Runden = <b>{rate}</b>",
    "chart_estimates": "Tipps der Klasse",
    "chart_estimates_x": "Tipp (Prozent)",
    "chart_count": "Anzahl",
    "chart_experiment": "Ergebnisse der Klasse",
    "chart_rate": "Treffer (Prozent)",
    "chart_pupil": "einzeln",
    "chart_total": "Klasse gesamt (laufend)",
    "chart_exact": "exakt",
    "list_head": ("Wer", "Abgabe"),
    "anonymous": "ohne Namen",
}
