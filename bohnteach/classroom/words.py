"""The German words of the class panel, „Klassenraum“ (:mod:`bohnteach.widgets.classroom`),
and of its projector view („Beamer-Ansicht“). Placeholders in braces are filled with escaped
values. The store's refusals are in :data:`bohnteach.classroom.store.WORDS`."""
from __future__ import annotations

WORDS = {
    "title": "Klassenraum",
    "no_server": (
        "<b>Klassenraum:</b> Diese Fassung der Seite läuft ohne Server (zum Beispiel die "
        "statische Seite oder ein Notebook). Eine Klasse kann ihre Tipps und Ergebnisse hier "
        "nicht sammeln – die Lektion funktioniert ganz normal allein."
    ),
    "loading": "Klassenraum wird geladen …",
    "store_away": (
        "<b>Der Klassenraum ist gerade nicht erreichbar</b> (sein Speicher startet vielleicht "
        "neu). Nichts geht verloren; es geht von selbst weiter, sobald er wieder antwortet."
    ),
    # -- the teacher
    "teacher_intro": (
        "<b>Klassenraum (Lehrkraft).</b> Starte eine Klasse: Die Schülerinnen und Schüler "
        "treten mit dem Code oder dem Link bei, ohne Namen. Ihre Tipps und Ergebnisse "
        "erscheinen hier und in der Beamer-Ansicht, sobald sie ankommen. Nur dieser Browser "
        "kann die Klasse danach steuern."
    ),
    "start": "Klasse starten",
    "not_yours": (
        "Die Klasse <b>{spoken}</b> aus der Adresse wurde nicht in diesem Browser gestartet "
        "(oder es gibt sie nicht mehr): Von hier aus lässt sie sich nicht steuern, und ihre "
        "Abgaben sind hier nicht zu sehen. Du kannst eine eigene Klasse starten – oder deine "
        "Klasse mit ihrer PIN von deinem anderen Gerät übernehmen."
    ),
    "own_gone": "Deine Klasse <b>{spoken}</b> ist beendet oder abgelaufen; ihre Daten sind gelöscht.",
    "take_over_intro": (
        "<b>Klasse von einem anderen Gerät übernehmen:</b> Lass dir dort unter „PIN für ein "
        "zweites Gerät“ eine PIN zeigen und gib sie hier mit dem Klassencode ein."
    ),
    "pin_label": "PIN:",
    "pin_placeholder": "6 Ziffern",
    "take_over": "Übernehmen",
    "code_big": (
        '<div class="bt-klasse-code"><span>Klassencode</span> '
        '<strong aria-label="Klassencode {spoken_aria}">{spoken}</strong></div>'
        '<p class="bt-klasse-link">Oder der Link: <a href="{link}">{link}</a></p>'
    ),
    "state_open": "Die Klasse ist <b>offen</b>: Beitreten und Abgeben geht.",
    "state_closed": "Die Klasse ist <b>geschlossen</b>: nur noch Ansehen, keine Abgaben.",
    "expires": "Die Klasse und alle Abgaben werden am {when} Uhr gelöscht.",
    "close": "Klasse schließen",
    "reopen": "Wieder öffnen",
    "closed_elsewhere": "Die Klasse wurde inzwischen an einem anderen Gerät geschlossen.",
    "opened_elsewhere": "Die Klasse wurde inzwischen an einem anderen Gerät wieder geöffnet.",
    "revealed_elsewhere": "Die Auflösung wurde inzwischen an einem anderen Gerät gezeigt.",
    "hidden_elsewhere": "Die Auflösung wurde inzwischen an einem anderen Gerät verborgen.",
    "end": "Klasse beenden (alles löschen)",
    "end_ask": "Die Klasse beenden? Alle Mitglieder und Abgaben werden gelöscht; das lässt "
               "sich nicht rückgängig machen.",
    "end_yes": "Ja, beenden und löschen",
    "ended": "Die Klasse ist beendet; alle ihre Daten sind gelöscht.",
    "ended_elsewhere": "Die Klasse gibt es nicht mehr: Sie wurde an einem anderen Gerät "
                       "beendet oder ist abgelaufen. Ihre Daten sind gelöscht.",
    "cancel": "Abbrechen",
    "projector_open": "Beamer-Ansicht öffnen",
    "projector_hint": (
        "Die Beamer-Ansicht zeigt nur Code, Link, QR-Code und die Ergebnisse – keine "
        "Lösungen. Sie öffnet sich in einem neuen Tab dieses Browsers."
    ),
    "pin_new": "PIN für ein zweites Gerät",
    "pin_shown": (
        "PIN für ein zweites Gerät: <strong class=\"bt-klasse-pin\">{pin}</strong> – gilt bis "
        "{when} Uhr und nur einmal. Öffne dort <code>{address}</code> (Beamer-Ansicht) oder "
        "diese Lektion in der Lehrkraft-Ansicht und gib Klassencode und PIN ein. Zeig diese "
        "PIN nicht am Beamer."
    ),
    "reveal": "Auflösen",
    "hide": "Auflösung verbergen",
    "clear": "Abgaben löschen",
    "clear_ask": "Alle Abgaben zu „{title}“ löschen? Das lässt sich nicht rückgängig machen.",
    "clear_yes": "Ja, Abgaben löschen",
    "members": "{n} in der Klasse, {k} Abgaben.",
    "none_yet": "Noch keine Abgaben.",
    # -- the projector
    "projector_title": "Beamer-Ansicht: {title}",
    "projector_compact": "Nur Ergebnisse zeigen",
    "projector_full": "Beitritt wieder zeigen",
    "projector_code_line": "Klassencode <strong>{spoken}</strong> · {state}",
    "projector_open": "<b>offen</b>",
    "projector_closed": "<b>geschlossen</b>",
    "projector_none": "Zu dieser Lektion gibt es keine Klassen-Aufgaben.",
    "projector_intro": (
        "<b>Beamer-Ansicht.</b> Diese Seite zeigt die Klasse einer Lehrkraft an: Code, "
        "Link, QR-Code und Ergebnisse. Öffne sie aus dem Klassenraum der Lektion "
        "(„Beamer-Ansicht öffnen“) – oder gib hier Klassencode und PIN ein, die dir der "
        "Klassenraum auf deinem anderen Gerät zeigt."
    ),
    "projector_join": "Macht mit: Öffnet den Link oder scannt den QR-Code, oder gebt in der "
                      "Lektion den Code ein.",
    # -- the pupil
    "join_intro": (
        "<b>Klassenraum:</b> Macht deine Klasse mit? Gib den Code von der Tafel ein. Du "
        "bleibst anonym; einen Spitznamen kannst du dir aussuchen, musst aber nicht."
    ),
    "class_gone": "Die Klasse <b>{spoken}</b> gibt es nicht mehr: Die Lehrkraft hat sie "
                  "beendet, oder sie ist abgelaufen. Frag nach dem neuen Code.",
    "link_gone": "Der Link nennt die Klasse <b>{spoken}</b>: {why}",
    "code_label": "Klassencode:",
    "nick_label": "Spitzname:",
    "nick_placeholder": "freiwillig, höchstens {n} Zeichen",
    "join": "Beitreten",
    "joined": "Du bist in der Klasse <b>{spoken}</b>{nick}.",
    "joined_nick": " als <b>{nick}</b>",
    "estimate_placeholder": "z. B. 15 %",
    "estimate_label": "Dein Tipp",
    "estimate_reading": "Dein Tipp: <b>{value}</b>",
    "estimate_rule": (
        "So lese ich deinen Tipp: „12“, „12 %“ und „12 Prozent“ sind 12 %; eine "
        "Wahrscheinlichkeit wie „3/8“ oder „0,375“ ist 37,5 %."
    ),
    "send_estimate": "Tipp abschicken",
    "estimate_sent": "Dein Tipp ist angekommen: <b>{value}</b>. Du kannst ihn ändern, bis "
                     "aufgelöst wird – es zählt der letzte.",
    "estimate_locked": "Aufgelöst: Tipps zählen jetzt nicht mehr. Dein Tipp war <b>{value}</b>.",
    "estimate_locked_none": "Aufgelöst: Tipps zählen jetzt nicht mehr.",
    "estimate_cleared": "Die Lehrkraft hat die Abgaben gelöscht. Du kannst neu tippen.",
    "estimate_long": "Das ist zu lang für eine Zahl.",
    "draw": "{n} Runden ziehen",
    "draws_sent": "Deine Runden: <b>{hits}</b> Treffer in <b>{trials}</b> Runden (<b>{rate}</b>) – "
                  "an die Klasse geschickt.",
    "draws_cleared": "Die Lehrkraft hat die Abgaben gelöscht: Deine Runden zählen von vorn.",
    "draws_full": "Du hast schon {n} Runden gezogen – mehr zählt nicht.",
    # -- charts and numbers
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
