"""A class in three browsers on one served site (the session's ``site_url``, whose kernels
share the class store in a folder of the test's own): the teacher starts a class in lesson 04,
two pupils join (one by the link, one by typing the code), both submit, the projector shows
both within 2 s, the teacher reveals and closes; a reload keeps a pupil's membership; axe
finds nothing serious on the teacher's and the pupil's view."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import collect_errors, visible_errors
from playwright.sync_api import Page, expect

LESSON = "04_Rechnen_oder_simulieren"
#: Set to a folder to keep screenshots of the projector (1280 px) and a pupil (390 px).
SHOTS = os.environ.get("BOHNTEACH_KLASSE_SHOTS")


def _panel(page: Page):
    return page.locator(".bt-klassenraum")


def _open(page: Page, url: str) -> list[str]:
    errors = collect_errors(page)
    page.goto(url, timeout=300_000)
    expect(_panel(page)).not_to_contain_text("wird geladen", timeout=240_000)
    return errors


def _serious(page: Page) -> list:
    result = Axe().run(page, context={"include": [[".bt-klassenraum"]]})
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]
            if v["impact"] in ("serious", "critical")]


def _send_estimate(page: Page, text: str) -> None:
    page.get_by_placeholder("z. B. 15").fill(text)
    page.get_by_role("button", name="Tipp abschicken").click()


def test_a_class_predicts_and_sees_its_results_live(browser, site_url: str) -> None:
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    pupil_ctxs = [browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
                  for _ in range(2)]
    try:
        teacher = teacher_ctx.new_page()
        errors = _open(teacher, f"{site_url}/?lektion={LESSON}&lehrkraft=1")
        assert _serious(teacher) == []
        teacher.get_by_role("button", name="Klasse starten").click()
        shown = _panel(teacher).locator(".bt-klasse-code strong")
        expect(shown).to_have_text(re.compile(r"^[A-Z0-9]{3} [A-Z0-9]{3}$"))
        code = shown.inner_text().replace(" ", "")
        expect(_panel(teacher).locator(".bt-klasse-qr svg")).to_have_count(1)
        expect(_panel(teacher).get_by_role("link")).to_have_attribute(
            "href", re.compile(f"klasse={code}"))

        anna, ben = (ctx.new_page() for ctx in pupil_ctxs)
        errors += _open(anna, f"{site_url}/?lektion={LESSON}&klasse={code}")
        anna.get_by_placeholder("freiwillig, höchstens 20 Zeichen").fill("Anna")
        anna.get_by_role("button", name="Beitreten").click()
        expect(_panel(anna)).to_contain_text("Du bist in der Klasse")
        errors += _open(ben, f"{site_url}/?lektion={LESSON}")
        assert _serious(ben) == []  # the join form
        ben_code = _panel(ben).locator("input").first
        ben_code.fill("ACDEFH" if code != "ACDEFH" else "ACDEFJ")  # a wrong code first
        ben.get_by_role("button", name="Beitreten").click()
        expect(_panel(ben)).to_contain_text("keine Klasse")
        time.sleep(1.1)  # the wait after one wrong code
        ben_code.fill(code.lower())
        ben.get_by_role("button", name="Beitreten").click()
        expect(_panel(ben)).to_contain_text("Du bist in der Klasse")

        _send_estimate(anna, "abc")  # bad input: a German message, nothing stored
        expect(_panel(anna)).to_contain_text("keine Zahl")
        _send_estimate(anna, "10")
        expect(_panel(anna)).to_contain_text("Dein Tipp ist angekommen")
        _send_estimate(ben, "20 %")
        expect(_panel(ben)).to_contain_text("Dein Tipp ist angekommen")
        projector = _panel(teacher).locator(".bt-klasse-projektor").first
        expect(projector).to_contain_text("2 in der Klasse, 2 Abgaben", timeout=2_000)
        expect(projector).to_contain_text("Mittelwert der Klasse: 15 %")
        expect(projector).to_contain_text("Anna")
        expect(projector.locator(".js-plotly-plot")).to_have_count(1)

        ben.get_by_role("button", name="100 Runden ziehen").click()
        expect(_panel(ben)).to_contain_text("in 100 Runden")
        pooled = _panel(teacher).locator(".bt-klasse-projektor").nth(1)
        expect(pooled).to_contain_text("Klasse gesamt", timeout=2_000)

        projector.get_by_role("button", name="Auflösen").click()
        expect(projector).to_contain_text("Exakt:")
        assert _serious(teacher) == []
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            teacher.screenshot(path=f"{SHOTS}/projektor-1280-start.png")
            projector.screenshot(path=f"{SHOTS}/projektor-1280-tipps.png")
            pooled.screenshot(path=f"{SHOTS}/projektor-1280-experiment.png")
            _panel(anna).screenshot(path=f"{SHOTS}/schueler-390.png")

        teacher.get_by_role("button", name="Klasse schließen").click()
        expect(_panel(teacher)).to_contain_text("geschlossen")
        _send_estimate(ben, "30")
        expect(_panel(ben)).to_contain_text("Die Klasse ist geschlossen")

        anna.reload()  # the same member again, from the browser's memory
        expect(_panel(anna)).to_contain_text("Du bist in der Klasse", timeout=240_000)
        expect(_panel(anna)).to_contain_text("Anna")
        expect(_panel(anna)).to_contain_text("10 %")
        assert _serious(anna) == []

        teacher.get_by_role("button", name="Klasse beenden (alles löschen)").click()
        expect(_panel(teacher)).to_contain_text("Daten sind gelöscht")
        for page in (teacher, anna, ben):
            assert visible_errors(page) == []
        assert errors == []
    finally:
        for ctx in (teacher_ctx, *pupil_ctxs):
            ctx.close()
