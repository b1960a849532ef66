"""The words of the class room, „Klassenraum“ (:mod:`bohnteach.widgets.classroom`): the
class panel, its projector view („Beamer-Ansicht“) and the class's charts. German, marked
for the ``classroom`` catalogue; a panel words them in its reader's language where they are
shown (:func:`say`, the counts by :func:`members_line` and its kin). Placeholders in braces
are filled with escaped values. The store's refusals are in
:data:`bohnteach.classroom.store.WORDS`."""
from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from bohnteach.i18n import N_, Translator
from bohnteach.render import numbers

WORDS = {
    "title": N_("Klassenraum"),
    "no_server": N_("<b>Klassenraum:</b> Diese Fassung der Seite läuft ohne Server (zum Beispiel die "
                    "statische Seite oder ein Notebook). Eine Klasse kann ihre Tipps und Ergebnisse hier "
                    "nicht sammeln – die Lektion funktioniert ganz normal allein."),
    "loading": N_("Klassenraum wird geladen …"),
    "store_away": N_("<b>Der Klassenraum ist gerade nicht erreichbar</b> (sein Speicher startet vielleicht "
                     "neu). Nichts geht verloren; es geht von selbst weiter, sobald er wieder antwortet."),
    # -- the teacher
    "teacher_intro": N_("<b>Klassenraum (Lehrkraft).</b> Starte eine Klasse: Die Schülerinnen und Schüler "
                        "treten mit dem Code oder dem Link bei, ohne Namen. Ihre Tipps und Ergebnisse "
                        "erscheinen hier und in der Beamer-Ansicht, sobald sie ankommen. Nur dieser Browser "
                        "kann die Klasse danach steuern."),
    "start": N_("Klasse starten"),
    "not_yours": N_("Die Klasse <b>{spoken}</b> aus der Adresse wurde nicht in diesem Browser gestartet "
                    "(oder es gibt sie nicht mehr): Von hier aus lässt sie sich nicht steuern, und ihre "
                    "Abgaben sind hier nicht zu sehen. Du kannst eine eigene Klasse starten – oder deine "
                    "Klasse mit ihrer PIN von deinem anderen Gerät übernehmen."),
    "own_gone": N_("Deine Klasse <b>{spoken}</b> ist beendet oder abgelaufen; ihre Daten sind gelöscht."),
    "take_over_intro": N_("<b>Klasse von einem anderen Gerät übernehmen:</b> Lass dir dort unter „PIN für ein "
                          "zweites Gerät“ eine PIN zeigen und gib sie hier mit dem Klassencode ein."),
    "pin_label": N_("PIN:"),
    "pin_placeholder": N_("6 Ziffern"),
    "take_over": N_("Übernehmen"),
    "code_big": N_('<div class="bt-klasse-code"><span>Klassencode</span> '
                   '<strong aria-label="{aria}">{spoken}</strong></div>'
                   '<p class="bt-klasse-link">Oder der Link: <a href="{link}">{link}</a></p>'),
    "code_aria": N_("Klassencode {spoken_aria}"),
    "state_open": N_("Die Klasse ist <b>offen</b>: Beitreten und Abgeben geht."),
    "state_closed": N_("Die Klasse ist <b>geschlossen</b>: nur noch Ansehen, keine Abgaben."),
    "expires": N_("Die Klasse und alle Abgaben werden am {when} Uhr gelöscht."),
    "close": N_("Klasse schließen"),
    "reopen": N_("Wieder öffnen"),
    "closed_elsewhere": N_("Die Klasse wurde inzwischen an einem anderen Gerät geschlossen."),
    "opened_elsewhere": N_("Die Klasse wurde inzwischen an einem anderen Gerät wieder geöffnet."),
    "revealed_elsewhere": N_("Die Auflösung wurde inzwischen an einem anderen Gerät gezeigt."),
    "hidden_elsewhere": N_("Die Auflösung wurde inzwischen an einem anderen Gerät verborgen."),
    "end": N_("Klasse beenden (alles löschen)"),
    "end_ask": N_("Die Klasse beenden? Alle Mitglieder und Abgaben werden gelöscht; das lässt "
                  "sich nicht rückgängig machen."),
    "end_yes": N_("Ja, beenden und löschen"),
    "ended": N_("Die Klasse ist beendet; alle ihre Daten sind gelöscht."),
    "ended_elsewhere": N_("Die Klasse gibt es nicht mehr: Sie wurde an einem anderen Gerät "
                          "beendet oder ist abgelaufen. Ihre Daten sind gelöscht."),
    "cancel": N_("Abbrechen"),
    "projector_open": N_("Beamer-Ansicht öffnen"),
    "projector_hint": N_("Die Beamer-Ansicht zeigt nur Code, Link, QR-Code und die Ergebnisse – keine "
                         "Lösungen. Sie öffnet sich in einem neuen Tab dieses Browsers."),
    "pin_new": N_("PIN für ein zweites Gerät"),
    "pin_shown": N_("PIN für ein zweites Gerät: <strong class=\"bt-klasse-pin\">{pin}</strong> – gilt bis "
                    "{when} Uhr und nur einmal. Öffne dort <code>{address}</code> (Beamer-Ansicht) oder "
                    "diese Lektion in der Lehrkraft-Ansicht und gib Klassencode und PIN ein. Zeig diese "
                    "PIN nicht am Beamer."),
    "reveal": N_("Auflösen"),
    "hide": N_("Auflösung verbergen"),
    "clear": N_("Abgaben löschen"),
    "clear_ask": N_("Alle Abgaben zu „{title}“ löschen? Das lässt sich nicht rückgängig machen."),
    "clear_yes": N_("Ja, Abgaben löschen"),
    "none_yet": N_("Noch keine Abgaben."),
    # -- the projector
    "projector_title": N_("Beamer-Ansicht: {title}"),
    "projector_compact": N_("Nur Ergebnisse zeigen"),
    "projector_full": N_("Beitritt wieder zeigen"),
    "projector_code_line": N_("Klassencode <strong>{spoken}</strong> · {state}"),
    "projector_state_open": N_("<b>offen</b>"),
    "projector_state_closed": N_("<b>geschlossen</b>"),
    "projector_none": N_("Zu dieser Lektion gibt es keine Klassen-Aufgaben."),
    "projector_intro": N_("<b>Beamer-Ansicht.</b> Diese Seite zeigt die Klasse einer Lehrkraft an: Code, "
                          "Link, QR-Code und Ergebnisse. Öffne sie aus dem Klassenraum der Lektion "
                          "(„Beamer-Ansicht öffnen“) – oder gib hier Klassencode und PIN ein, die dir der "
                          "Klassenraum auf deinem anderen Gerät zeigt."),
    "projector_join": N_("Macht mit: Öffnet den Link oder scannt den QR-Code, oder gebt in der "
                         "Lektion den Code ein."),
    # -- the pupil
    "join_intro": N_("<b>Klassenraum:</b> Macht deine Klasse mit? Gib den Code von der Tafel ein. Du "
                     "bleibst anonym; einen Spitznamen kannst du dir aussuchen, musst aber nicht."),
    "class_gone": N_("Die Klasse <b>{spoken}</b> gibt es nicht mehr: Die Lehrkraft hat sie "
                     "beendet, oder sie ist abgelaufen. Frag nach dem neuen Code."),
    "link_gone": N_("Der Link nennt die Klasse <b>{spoken}</b>: {why}"),
    "code_label": N_("Klassencode:"),
    "nick_label": N_("Spitzname:"),
    "nick_placeholder": N_("freiwillig, bis {n} Zeichen"),
    "join": N_("Beitreten"),
    "joined": N_("Du bist in der Klasse <b>{spoken}</b>{nick}."),
    "joined_nick": N_(" als <b>{nick}</b>"),
    "estimate_placeholder": N_("z. B. 15 %"),
    "estimate_label": N_("Dein Tipp"),
    "estimate_reading": N_("Dein Tipp: <b>{value}</b>"),
    "estimate_rule": N_("So lese ich deinen Tipp: „12“, „12 %“ und „12 Prozent“ sind 12 %; eine "
                        "Wahrscheinlichkeit wie „3/8“ oder „0,375“ ist 37,5 %."),
    "send_estimate": N_("Tipp abschicken"),
    "estimate_sent": N_("Dein Tipp ist angekommen: <b>{value}</b>. Du kannst ihn ändern, bis "
                        "aufgelöst wird – es zählt der letzte."),
    "estimate_locked": N_("Aufgelöst: Tipps zählen jetzt nicht mehr. Dein Tipp war <b>{value}</b>."),
    "estimate_locked_none": N_("Aufgelöst: Tipps zählen jetzt nicht mehr."),
    "estimate_cleared": N_("Die Lehrkraft hat die Abgaben gelöscht. Du kannst neu tippen."),
    "draws_cleared": N_("Die Lehrkraft hat die Abgaben gelöscht: Deine Runden zählen von vorn."),
    # -- charts and numbers
    "revealed": N_("Exakt: <b>{exact}</b>"),
    "mean": N_("Mittelwert der Klasse: <b>{mean}</b>"),
    "chart_estimates": N_("Tipps der Klasse"),
    "chart_estimates_x": N_("Tipp (Prozent)"),
    "chart_count": N_("Anzahl"),
    "chart_experiment": N_("Ergebnisse der Klasse"),
    "chart_rate": N_("Treffer (Prozent)"),
    "chart_pupil": N_("einzeln"),
    "chart_total": N_("Klasse gesamt (laufend)"),
    "chart_exact": N_("exakt"),
    "qr_title": N_("QR-Code zum Beitreten"),
    "qr_label": N_("QR-Code mit dem Link"),
    "list_who": N_("Wer"),
    "list_what": N_("Abgabe"),
    "anonymous": N_("ohne Namen"),
}

MONTHS = (N_("Januar"), N_("Februar"), N_("März"), N_("April"), N_("Mai"), N_("Juni"), N_("Juli"),
          N_("August"), N_("September"), N_("Oktober"), N_("November"), N_("Dezember"))


def say(tr: Translator, key: str, **params: object) -> str:
    """``WORDS[key]`` in ``tr``'s language, its placeholders filled."""
    return tr.gettext(WORDS[key]).format(**params)


def members_line(tr: Translator, members: int, submitted: int) -> str:
    """How many are in the class and how many of them submitted."""
    return tr.ngettext("{n} in der Klasse, {k} Abgabe.", "{n} in der Klasse, {k} Abgaben.",
                       submitted).format(n=members, k=submitted)


def draw_button(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} Runde ziehen", "{n} Runden ziehen", n).format(n=n)


def draws_sent(tr: Translator, hits: int, trials: int, rate: str) -> str:
    """A pupil's own draws, sent to the class."""
    return tr.ngettext("Deine Runden: <b>{hits}</b> Treffer in <b>{trials}</b> Runde (<b>{rate}</b>) – "
                       "an die Klasse geschickt.",
                       "Deine Runden: <b>{hits}</b> Treffer in <b>{trials}</b> Runden (<b>{rate}</b>) – "
                       "an die Klasse geschickt.", trials).format(hits=hits, trials=trials, rate=rate)


def draws_full(tr: Translator, n: int) -> str:
    return tr.ngettext("Du hast schon {n} Runde gezogen – mehr zählt nicht.",
                       "Du hast schon {n} Runden gezogen – mehr zählt nicht.", n).format(n=n)


def class_total(tr: Translator, hits: int, trials: int, rate: str) -> str:
    """The whole class's draws."""
    return tr.ngettext("Klasse gesamt: <b>{hits}</b> Treffer in <b>{trials}</b> Runde = <b>{rate}</b>",
                       "Klasse gesamt: <b>{hits}</b> Treffer in <b>{trials}</b> Runden = <b>{rate}</b>",
                       trials).format(hits=hits, trials=trials, rate=rate)


# ---- numbers and times in the reader's language ---------------------------------------------
# The class's numbers come as floats (the store's JSON); render.numbers writes them.
def _exact(x: float) -> Fraction:
    return Fraction(x).limit_denominator(10**6)


def number(x: float, tr: Translator, digits: int = 1) -> str:
    """``x`` rounded to ``digits`` decimals as the reader writes it (``12,5`` / ``12.5``)."""
    return numbers.number(_exact(x), digits, tr=tr)


def count(n: int, tr: Translator) -> str:
    """A whole count with the reader's digit grouping (``100.000`` / ``100,000``)."""
    return numbers.integer(int(n), tr)


def percent(share: float, tr: Translator) -> str:
    """A share as a percentage with one decimal (``37,5 %`` / ``37.5%``)."""
    return numbers.percent(_exact(share), 1, tr)


def percent_value(value: float, tr: Translator) -> str:
    """A value already in percent (an estimate): ``12,5 %`` / ``12.5%``."""
    return numbers.in_percent(_exact(value), 1, tr)


def moment(when: datetime, tr: Translator) -> str:
    """A date and time as the reader writes it: ``06.12.2026 um 14:05`` /
    ``6 December 2026 at 14:05`` (month names through the catalogue)."""
    if tr.is_source:
        return when.strftime("%d.%m.%Y um %H:%M")
    return tr.gettext("{day}. {month} {year} um {time}").format(
        day=when.day, month=tr.gettext(MONTHS[when.month - 1]), year=when.year,
        time=when.strftime("%H:%M"))
