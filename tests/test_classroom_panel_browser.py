"""A class on one served site (the session's ``site_url``, whose kernels share the class
store in a folder of the test's own): a teacher at 1280 px starts a class in lesson 04 and
opens the projector view (1280 × 720, in the same browser: it holds the class's key), two
pupils join (one at 390 px by the link, one by typing the code); estimates are read as
percent and shown before they count, the projector follows within seconds, the reveal locks
the estimates, the end (asked first) reaches every page. A pupil who knows the code and adds
``&lehrkraft=1``, or opens the projector's address, gets no control and no data; no link a
pupil or the projector shows carries ``lehrkraft``; axe finds nothing serious."""
from __future__ import annotations

import os
import re
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import collect_errors, visible_errors
from playwright.sync_api import Page, expect

LESSON = "04_Rechnen_oder_simulieren"
#: Set to a folder to keep screenshots of the projector (1280 × 720) and a pupil (390 px).
SHOTS = os.environ.get("BOHNTEACH_KLASSE_SHOTS")
#: Generous: the polling threads answer within 1 s (teacher, projector) and 3 s (a pupil);
#: a busy machine may take longer.
FOLLOW = 20_000
CONTROLS = ("Klasse schließen", "Wieder öffnen", "Klasse beenden (alles löschen)", "Auflösen",
            "Auflösung verbergen", "Abgaben löschen", "PIN für ein zweites Gerät")


def _panel(page: Page):
    return page.locator(".bt-klassenraum")


def _beamer(page: Page):
    return page.locator(".bt-beamer")


def _open(page: Page, url: str, part=_panel) -> list[str]:
    errors = collect_errors(page)
    page.goto(url, timeout=300_000)
    expect(part(page)).to_be_visible(timeout=240_000)
    expect(part(page)).not_to_contain_text("wird geladen", timeout=240_000)
    return errors


def _serious(page: Page, selector: str = ".bt-klassenraum") -> list:
    result = Axe().run(page, context={"include": [[selector]]})
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]
            if v["impact"] in ("serious", "critical")]


def _send_estimate(page: Page, text: str) -> None:
    page.get_by_placeholder("z. B. 15").fill(text)
    page.get_by_role("button", name="Tipp abschicken").click()


def _join(page: Page, nick: str) -> None:
    page.get_by_placeholder("freiwillig, bis 20 Zeichen").fill(nick)
    page.get_by_role("button", name="Beitreten").click()


def _no_controls(part) -> None:
    for label in CONTROLS:
        expect(part.get_by_role("button", name=label, exact=True)).to_have_count(0)


def _links(part) -> list[str]:
    return part.locator("a[href]").evaluate_all("(links) => links.map((a) => a.href)")


def _px(locator, prop: str = "font-size") -> float:
    return float(locator.evaluate(f"(e) => getComputedStyle(e).getPropertyValue('{prop}')")
                 .removesuffix("px"))


def test_a_class_with_a_projector_and_two_pupils(browser, site_url: str) -> None:
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    anna_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    ben_ctx = browser.new_context(viewport={"width": 1024, "height": 768}, locale="de-DE")
    try:
        teacher = teacher_ctx.new_page()
        errors = _open(teacher, f"{site_url}/?lektion={LESSON}&lehrkraft=1")
        assert _serious(teacher) == []
        teacher.get_by_role("button", name="Klasse starten").click()
        shown = _panel(teacher).locator(".bt-klasse-code strong")
        expect(shown).to_have_text(re.compile(r"^[A-Z0-9]{3} [A-Z0-9]{3}$"))
        code = shown.inner_text().replace(" ", "")
        expect(_panel(teacher).locator(".bt-klasse-qr svg")).to_have_count(1)
        expect(_panel(teacher).locator(".bt-klasse-link")).to_contain_text(f"klasse={code}")
        expect(_panel(teacher).locator(".bt-klasse-link")).not_to_contain_text("lehrkraft")

        # the projector: its own address, in the teacher's browser (which holds the key)
        projector = teacher_ctx.new_page()
        projector.set_viewport_size({"width": 1280, "height": 720})
        errors += _open(projector, f"{site_url}/?beamer={LESSON}", _beamer)
        beamer = _beamer(projector)
        expect(beamer.locator(".bt-klasse-code strong")).to_have_text(f"{code[:3]} {code[3:]}")
        expect(beamer.locator(".js-plotly-plot")).to_have_count(2, timeout=FOLLOW)
        assert "lehrkraft" not in projector.url and "schluessel" not in projector.url
        assert _px(beamer.locator(".bt-beamer-head p").first) >= 28
        assert _px(beamer.locator(".bt-klasse-projektor .widget-html-content p").first) >= 28
        tick = beamer.locator(".js-plotly-plot .xtick text").first
        assert float(tick.get_attribute("style").split("font-size: ")[1].split("px")[0]) >= 20
        expect(beamer).not_to_contain_text("Lösung zeigen")
        _no_controls_but_reveal = ("Abgaben löschen", "Klasse beenden (alles löschen)",
                                   "Klasse schließen", "PIN für ein zweites Gerät")
        for label in _no_controls_but_reveal:
            expect(beamer.get_by_role("button", name=label)).to_have_count(0)
        assert _serious(projector, ".bt-beamer") == []

        anna, ben = anna_ctx.new_page(), ben_ctx.new_page()
        errors += _open(anna, f"{site_url}/?lektion={LESSON}&klasse={code}")
        _join(anna, "Anna")
        expect(_panel(anna)).to_contain_text("Du bist in der Klasse")
        errors += _open(ben, f"{site_url}/?lektion={LESSON}")
        assert _serious(ben) == []  # the join form
        ben_code = _panel(ben).locator("input").first
        ben_code.fill("ACDEFH" if code != "ACDEFH" else "ACDEFJ")  # a wrong code first
        ben.get_by_role("button", name="Beitreten").click()
        expect(_panel(ben)).to_contain_text("keine Klasse")
        ben_code.fill(code.lower())
        _join(ben, "ANNA ")  # taken
        expect(_panel(ben)).to_contain_text("schon jemand")
        _join(ben, "Ben")
        expect(_panel(ben)).to_contain_text("Du bist in der Klasse")

        anna.get_by_placeholder("z. B. 15").fill("12 Prozent")
        expect(_panel(anna)).to_contain_text("Dein Tipp: 12 %")  # the reading, before it counts
        anna.get_by_role("button", name="Tipp abschicken").click()
        expect(_panel(anna)).to_contain_text("Dein Tipp ist angekommen: 12 %")
        _send_estimate(ben, "3/8")
        expect(_panel(ben)).to_contain_text("Dein Tipp ist angekommen: 37,5 %")
        tipps = beamer.locator(".bt-klasse-projektor").first
        expect(tipps).to_contain_text("2 in der Klasse, 2 Abgaben", timeout=FOLLOW)
        expect(tipps).to_contain_text("Mittelwert der Klasse: 24,8 %")
        expect(_panel(teacher).locator(".bt-klasse-projektor").first).to_contain_text(
            "Anna", timeout=FOLLOW)  # the teacher's list names them; the projector does not
        expect(tipps).not_to_contain_text("Anna")

        ben.get_by_role("button", name="100 Runden ziehen").click()
        expect(_panel(ben)).to_contain_text("in 100 Runden")
        pooled = beamer.locator(".bt-klasse-projektor").nth(1)
        expect(pooled).to_contain_text("Klasse gesamt", timeout=FOLLOW)

        tipps.get_by_role("button", name="Auflösen").click()  # on the projector
        expect(tipps).to_contain_text("Exakt:")
        expect(_panel(anna)).to_contain_text("Tipps zählen jetzt nicht mehr", timeout=FOLLOW)
        expect(anna.get_by_role("button", name="Tipp abschicken")).to_be_disabled()
        shown_links = {name: _links(part) for name, part in (
            ("Lehrkraft", _panel(teacher)), ("Beamer", beamer), ("Anna", _panel(anna)),
            ("Ben", _panel(ben)))}
        assert shown_links["Lehrkraft"] and shown_links["Beamer"]  # the class link, on both
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            projector.screenshot(path=f"{SHOTS}/klasse-beamer-1280x720.png")

        # once the class has joined, the results alone fit a 1280 × 720 projector; the code stays
        beamer.get_by_role("button", name="Nur Ergebnisse zeigen").click()
        expect(beamer.locator(".bt-klasse-qr")).to_have_count(0)
        expect(beamer.locator(".bt-beamer-line")).to_contain_text(f"{code[:3]} {code[3:]}")
        charts = beamer.locator(".js-plotly-plot")
        for i in range(2):  # redrawn lower: wait for the new drawing before measuring it
            expect(charts.nth(i).locator("svg.main-svg").first).to_have_attribute(
                "height", "300", timeout=FOLLOW)
        if SHOTS:
            projector.screenshot(path=f"{SHOTS}/klasse-beamer-1280x720-ergebnisse.png")
            anna.screenshot(path=f"{SHOTS}/klasse-schueler-390.png")
        for i in range(2):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 720, box
        beamer.get_by_role("button", name="Beitritt wieder zeigen").click()
        expect(beamer.locator(".bt-klasse-qr svg")).to_have_count(1)

        # a pupil who knows the code: teacher mode from the address, the projector's address
        sneaky = ben_ctx.new_page()
        errors += _open(sneaky, f"{site_url}/?lektion={LESSON}&klasse={code}&lehrkraft=1")
        expect(_panel(sneaky)).to_contain_text("nicht in diesem Browser gestartet")
        _no_controls(_panel(sneaky))
        expect(_panel(sneaky)).not_to_contain_text("Anna")
        expect(_panel(sneaky).locator(".bt-klasse-qr")).to_have_count(0)
        errors += _open(sneaky, projector.url, _beamer)
        expect(_beamer(sneaky)).to_contain_text("PIN")
        _no_controls(_beamer(sneaky))
        expect(_beamer(sneaky)).not_to_contain_text("Anna")
        expect(_beamer(sneaky).locator(".bt-klasse-code strong")).to_have_count(0)

        teacher.get_by_role("button", name="Klasse beenden (alles löschen)").click()
        expect(_panel(teacher)).to_contain_text("nicht rückgängig")  # asked first
        teacher.get_by_role("button", name="Ja, beenden und löschen").click()
        expect(_panel(teacher)).to_contain_text("Daten sind gelöscht")
        expect(beamer).to_contain_text("gibt es nicht mehr", timeout=FOLLOW)
        expect(_panel(ben)).to_contain_text("gibt es nicht mehr", timeout=FOLLOW)
        # her panel forgets the class once it sees it gone; the reload then opens only the link
        expect(_panel(anna)).to_contain_text("gibt es nicht mehr", timeout=FOLLOW)
        anna.reload()
        expect(_panel(anna)).to_contain_text("keine Klasse", timeout=240_000)
        expect(_panel(anna).locator("input").first).to_have_value("")
        assert _serious(anna) == []

        for page in (teacher, projector, anna, ben):
            assert visible_errors(page) == []
        assert errors == []
        # nothing a pupil or the projector sees links with teacher mode (the link script
        # carries nothing over from the page's own address)
        assert {name: [h for h in hrefs if "lehrkraft" in h]
                for name, hrefs in shown_links.items()} == {name: [] for name in shown_links}
    finally:
        for ctx in (teacher_ctx, anna_ctx, ben_ctx):
            ctx.close()
