"""A class across two servers behind HAProxy under a sub-path (the session's ``cluster``:
PostgreSQL, servers s1 and s2, the balancer at ``http://127.0.0.1:PORT/bohnanza/``).

Which server a browser lands on is forced with the balancer's own stickiness cookie: the
teacher and the projector on s1, the pupils on s2. The tests run in this order on the one
cluster: the health address and forged addresses; a whole lesson across the servers; the
store restarted under the panels; s2 killed mid-lesson; a server added.
"""
from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from browser_helpers import collect_errors, visible_errors
from playwright.sync_api import BrowserContext, Page, expect

from bohnteach.site.cluster import SERVER_COOKIE, answers

#: Every test here in pytest-playwright's chromium group: pytest runs the tests of one browser
#: parameter together, so a test without it would run after all of them, once s2 is dead.
pytestmark = pytest.mark.usefixtures("browser_name")

LESSON = "04_Rechnen_oder_simulieren"
#: Generous: the teacher's panel and the projector poll every second, a pupil every 3 s.
FOLLOW = 30_000
LOAD = 240_000
#: Screenshots of the teacher's panel and a pupil through the balancer, if set.
SHOTS = os.environ.get("BOHNTEACH_CLUSTER_SHOTS")
LOST = "Verbindung verloren"
STORE_AWAY = "Der Klassenraum ist gerade nicht erreichbar"


def _context(browser, cluster, server: str | None, width: int = 1280, **kw) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE", **kw)
    if server is not None:
        ctx.add_cookies([{"name": SERVER_COOKIE, "value": server, "url": cluster.url}])
    return ctx


def _server_of(ctx: BrowserContext, cluster) -> str | None:
    return next((c["value"] for c in ctx.cookies(cluster.url) if c["name"] == SERVER_COOKIE), None)


def _panel(page: Page):
    return page.locator(".bt-klassenraum")


def _open(page: Page, url: str, part=_panel) -> list[str]:
    errors = collect_errors(page)
    page.goto(url, timeout=LOAD)
    expect(part(page)).to_be_visible(timeout=LOAD)
    expect(part(page)).not_to_contain_text("wird geladen", timeout=LOAD)
    return errors


def _failed_responses(page: Page) -> list[str]:
    """Every answer of 400 or more the page gets (a static file or address the sub-path broke)."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return failed


def _kernels(page: Page) -> list[str]:
    """The kernels whose websockets ``page`` opens from now on (their ids, in order)."""
    ids: list[str] = []
    page.on("websocket", lambda ws: ids.extend(re.findall(r"/api/kernels/([0-9a-f-]{36})", ws.url)))
    return ids


def _kernel_on(cluster, server, kernel: str) -> bool:
    """Whether ``server`` (asked directly) runs ``kernel``."""
    return answers(f"http://{server.address}{cluster.path}api/kernels/{kernel}", timeout=10) == 200


def _start_class(teacher: Page, cluster) -> str:
    teacher.get_by_role("button", name="Klasse starten").click()
    shown = _panel(teacher).locator(".bt-klasse-code strong")
    expect(shown).to_have_text(re.compile(r"^[A-Z0-9]{3} [A-Z0-9]{3}$"), timeout=FOLLOW)
    return shown.inner_text().replace(" ", "")


def _join(page: Page, nick: str) -> None:
    page.get_by_placeholder("freiwillig, bis 20 Zeichen").fill(nick)
    page.get_by_role("button", name="Beitreten").click()
    expect(_panel(page)).to_contain_text("Du bist in der Klasse", timeout=FOLLOW)


def _estimate(page: Page, text: str, shown: str) -> None:
    page.get_by_placeholder("z. B. 15").fill(text)
    page.get_by_role("button", name="Tipp abschicken").click()
    expect(_panel(page)).to_contain_text(f"Dein Tipp ist angekommen: {shown}", timeout=FOLLOW)


def _attempt_subjects(cluster) -> set[str]:
    from bohnteach.classroom.store import Store

    store = Store(cluster.store)
    try:
        with store.engine.connect() as conn:
            return {row[0] for row in conn.exec_driver_sql("SELECT subject FROM bt_versuche")}
    finally:
        store.close()


def _healthy(cluster, server) -> tuple[int, bytes]:
    """The health address's answer once it is 200 (a kernel to hand out: on a busy machine
    the pools may still be filling), or its last answer after two minutes."""
    deadline, last = time.monotonic() + 120, (0, b"")
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(cluster.health_url(server), timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as err:
            last = (err.code, err.read())
        except OSError as err:
            last = (0, str(err).encode())
        time.sleep(1)
    return last


def test_health_answers_the_balancer_only(cluster):
    assert len(cluster.running) >= 2
    for server in cluster.running:
        assert _healthy(cluster, server) == (200, b"gesund\n")
    # through the balancer (where pupils come from) the health address does not exist
    assert answers(cluster.url + "bohnteach/gesund", timeout=30) == 404
    assert answers(cluster.url + "bohnteach/GESUND?x=1", timeout=30) == 404
    # nor anything outside the sub-path
    assert answers(cluster.url.removesuffix("bohnanza/") + "voila/render/notebooks/app.ipynb", timeout=30) == 404


def test_a_pupils_forged_address_is_ignored(browser, cluster):
    """Wrong codes are counted per address; a pupil who forges X-Forwarded-For (or the
    server's own header) is counted by their real address, through the balancer and when
    talking to a server directly."""
    forged = "198.51.100.7"
    headers = {"X-Forwarded-For": forged, "X-Bohnteach-Client": forged, "Forwarded": f"for={forged}"}
    direct = f"http://{cluster.running[1].address}{cluster.path}"
    ctx = _context(browser, cluster, None, extra_http_headers=headers)
    try:
        for base in (cluster.url, direct):
            page = ctx.new_page()
            _open(page, f"{base}?lektion={LESSON}&klasse=WXY347")
            expect(_panel(page)).to_contain_text("Der Link nennt die Klasse", timeout=FOLLOW)
            page.close()
    finally:
        ctx.close()
    subjects = _attempt_subjects(cluster)
    assert "client:127.0.0.1" in subjects
    assert not any(forged in s for s in subjects) and "client:127.0.0.2" not in subjects


#: What a visitor might send to make the server believe another host named the site.
FORGED_HOST = {"X-Forwarded-Host": "boese.example", "X-Forwarded-Proto": "https",
               "X-Forwarded-Port": "4443", "Forwarded": "host=boese.example;proto=https"}


def test_a_class_spans_two_servers_under_the_sub_path(browser, cluster):
    # the teacher's browser sends forged host headers: the link still names the public address
    teacher_ctx = _context(browser, cluster, "s1", extra_http_headers=FORGED_HOST)
    anna_ctx = _context(browser, cluster, "s2", width=390)
    ben_ctx = _context(browser, cluster, "s2", width=1024)
    try:
        teacher = teacher_ctx.new_page()
        failed = _failed_responses(teacher)
        errors = _open(teacher, f"{cluster.url}?lektion={LESSON}&lehrkraft=1")
        code = _start_class(teacher, cluster)
        # the link as shown (the app's router makes its href the page's own path) and the QR
        # code both name the public address
        pupil_link = f"{cluster.public}?lektion={LESSON}&klasse={code}"
        expect(_panel(teacher).locator(".bt-klasse-link a")).to_have_text(pupil_link)
        expect(_panel(teacher).locator(".bt-klasse-qr svg path")).to_have_attribute(
            "d", _qr_path(pupil_link))

        projector = teacher_ctx.new_page()
        projector.set_viewport_size({"width": 1280, "height": 720})
        errors += _open(projector, f"{cluster.url}?beamer={LESSON}", lambda p: p.locator(".bt-beamer"))
        beamer = projector.locator(".bt-beamer")
        tipps = beamer.locator(".bt-klasse-projektor").first

        anna, ben = anna_ctx.new_page(), ben_ctx.new_page()
        anna_kernels = _kernels(anna)
        failed += _failed_responses(anna)
        errors += _open(anna, pupil_link)
        _join(anna, "Anna")
        errors += _open(ben, pupil_link)
        _join(ben, "Ben")
        _estimate(anna, "12 Prozent", "12 %")
        _estimate(ben, "3/8", "37,5 %")
        # the projector (on s1) follows what the pupils (on s2) sent
        expect(tipps).to_contain_text("2 in der Klasse, 2 Abgaben", timeout=FOLLOW)
        expect(tipps).to_contain_text("Mittelwert der Klasse: 24,8 %")
        ben.get_by_role("button", name="100 Runden ziehen").click()
        expect(_panel(ben)).to_contain_text("in 100 Runden", timeout=FOLLOW)
        expect(beamer.locator(".bt-klasse-projektor").nth(1)).to_contain_text("Klasse gesamt", timeout=FOLLOW)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            for width in (1280, 390):
                for who, page in (("lehrkraft", teacher), ("schueler", anna)):
                    page.set_viewport_size({"width": width, "height": 900})
                    # the app scrolls inside its own frame: the panel's top into view
                    _panel(page).evaluate("e => e.scrollIntoView()")
                    page.screenshot(path=f"{SHOTS}/cluster-{who}-{width}.png")
            projector.screenshot(path=f"{SHOTS}/cluster-beamer-1280x720.png")
        # on a phone the teacher's code, the long public link and the QR stay inside the panel
        teacher.set_viewport_size({"width": 390, "height": 900})
        expect(_panel(teacher).locator(".bt-klasse-link")).to_be_visible()
        assert _panel(teacher).evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        teacher.set_viewport_size({"width": 1280, "height": 900})
        # every visitor stayed where the cookie put them
        assert (_server_of(teacher_ctx, cluster), _server_of(anna_ctx, cluster)) == ("s1", "s2")

        _pupil_is_no_teacher(anna_ctx, cluster)

        tipps.get_by_role("button", name="Auflösen").click()
        expect(tipps).to_contain_text("Exakt:", timeout=FOLLOW)
        expect(_panel(anna)).to_contain_text("Tipps zählen jetzt nicht mehr", timeout=FOLLOW)
        teacher.get_by_role("button", name="Klasse schließen").click()
        expect(_panel(teacher)).to_contain_text("geschlossen", timeout=FOLLOW)
        expect(beamer).to_contain_text("geschlossen", timeout=FOLLOW)
        teacher.get_by_role("button", name="Klasse beenden (alles löschen)").click()
        teacher.get_by_role("button", name="Ja, beenden und löschen").click()
        expect(_panel(teacher)).to_contain_text("Daten sind gelöscht", timeout=FOLLOW)
        expect(_panel(anna)).to_contain_text("gibt es nicht mehr", timeout=FOLLOW)
        expect(_panel(ben)).to_contain_text("gibt es nicht mehr", timeout=FOLLOW)

        for page in (teacher, projector, anna, ben):
            assert visible_errors(page) == []
        assert errors == [] and failed == []
        # the leave beacon reaches the server under the sub-path through the balancer: the
        # kernel of Anna's page (on s2) is shut down when she leaves
        s2 = next(s for s in cluster.running if s.name == "s2")
        assert anna_kernels and _kernel_on(cluster, s2, anna_kernels[0])
        anna.goto("about:blank")
        deadline = time.monotonic() + 60
        while _kernel_on(cluster, s2, anna_kernels[0]):
            assert time.monotonic() < deadline, "Anna's kernel still runs on s2 after she left"
            time.sleep(0.5)
    finally:
        for ctx in (teacher_ctx, anna_ctx, ben_ctx):
            ctx.close()


def _qr_path(link: str) -> str:
    """The outline of ``link``'s QR code as the panel draws it (segno's SVG path)."""
    from bohnteach.widgets.classroom import qr_svg

    found = re.search(r'<path[^>]* d="([^"]+)"', qr_svg(link))
    assert found is not None
    return found.group(1)


def _pupil_is_no_teacher(ctx: BrowserContext, cluster) -> None:
    """A pupil (on s2) who puts the class code and their own member token where the browser
    keeps a teacher's key, then opens the projector and the teacher's view on their server:
    the store refuses them (no class shown, no „Auflösen“, no „Klasse schließen“)."""
    page = ctx.new_page()
    pose = """() => {
        for (const what of ['code', 'token'])
            localStorage.setItem('bohnteach-klasse-lehrkraft-' + what,
                                 localStorage.getItem('bohnteach-klasse-schueler-' + what));
    }"""
    page.goto(cluster.url + "bohnteach/nichts", timeout=LOAD)  # same origin, no kernel
    page.evaluate(pose)
    _open(page, f"{cluster.url}?beamer={LESSON}", lambda p: p.locator(".bt-beamer"))
    expect(page.locator(".bt-beamer")).to_contain_text("ist beendet oder abgelaufen", timeout=FOLLOW)
    expect(page.get_by_role("button", name="Auflösen")).to_have_count(0)
    page.evaluate(pose)  # the refusal made the browser forget it
    _open(page, f"{cluster.url}?lektion={LESSON}&lehrkraft=1")
    expect(_panel(page)).to_contain_text("ist beendet oder abgelaufen", timeout=FOLLOW)
    expect(_panel(page).get_by_role("button", name="Klasse schließen")).to_have_count(0)
    assert _server_of(ctx, cluster) == "s2"
    page.close()


@pytest.fixture(scope="module")
def lesson(browser, cluster):
    """A class in lesson 04: the teacher on s1, pupils Cleo and Dan on s2, both joined and
    with an estimate in; shared by the fault drills below (in this order)."""
    teacher_ctx = _context(browser, cluster, "s1")
    cleo_ctx, dan_ctx = _context(browser, cluster, "s2", width=390), _context(browser, cluster, "s2")
    teacher = teacher_ctx.new_page()
    _open(teacher, f"{cluster.url}?lektion={LESSON}&lehrkraft=1")
    code = _start_class(teacher, cluster)
    pupils = {}
    for name, ctx, guess in (("Cleo", cleo_ctx, "20"), ("Dan", dan_ctx, "30")):
        page = ctx.new_page()
        _open(page, f"{cluster.url}?lektion={LESSON}&klasse={code}")
        _join(page, name)
        _estimate(page, guess, f"{guess} %")
        pupils[name] = page
    tipps = _panel(teacher).locator(".bt-klasse-projektor").first
    expect(tipps).to_contain_text("2 in der Klasse, 2 Abgaben", timeout=FOLLOW)
    yield {"teacher": teacher, "tipps": tipps, "code": code, **pupils,
           "contexts": (teacher_ctx, cleo_ctx, dan_ctx)}
    for ctx in (teacher_ctx, cleo_ctx, dan_ctx):
        ctx.close()


def test_the_store_restarted_panels_say_so_and_recover_without_reload(cluster, lesson):
    teacher, cleo = lesson["teacher"], lesson["Cleo"]
    cluster.postgres.halt()
    try:
        expect(_panel(teacher)).to_contain_text(STORE_AWAY, timeout=FOLLOW)
        expect(_panel(cleo)).to_contain_text(STORE_AWAY, timeout=FOLLOW)
        assert answers(cluster.health_url(cluster.running[0]), timeout=30) == 503
    finally:
        cluster.postgres.resume()
    back = time.monotonic()
    # the issue asks for 10 s; the polls come every 1 s (teacher) and 3 s (pupil)
    expect(_panel(teacher)).not_to_contain_text(STORE_AWAY, timeout=10_000)
    expect(_panel(cleo)).not_to_contain_text(STORE_AWAY, timeout=10_000)
    print(f"panels recovered {time.monotonic() - back:.1f} s after the store was back")
    _estimate(cleo, "25", "25 %")  # and it works again, no reload
    expect(lesson["tipps"]).to_contain_text("Mittelwert der Klasse: 27,5 %", timeout=FOLLOW)
    assert _healthy(cluster, cluster.running[0])[0] == 200


def test_a_server_killed_mid_lesson_loses_nothing(cluster, lesson):
    s2 = next(s for s in cluster.running if s.name == "s2")
    cleo, dan = lesson["Cleo"], lesson["Dan"]
    cluster.kill(s2)
    for page in (cleo, dan):
        expect(page.locator(".bt-connection-lost")).to_contain_text(LOST, timeout=FOLLOW)
    # a reload lands on the living server (the balancer redispatches, then takes the dead
    # one out): the new page's kernel runs on s1
    s1 = next(s for s in cluster.running if s.name == "s1")
    for name, page in (("Cleo", cleo), ("Dan", dan)):
        kernels = _kernels(page)
        page.reload(timeout=LOAD)
        expect(_panel(page)).to_contain_text("Du bist in der Klasse", timeout=LOAD)
        expect(_panel(page)).to_contain_text(name)
        expect(page.locator(".bt-connection-lost")).to_have_count(0)
        assert kernels and _kernel_on(cluster, s1, kernels[-1]), (name, kernels)
    expect(lesson["tipps"]).to_contain_text("2 in der Klasse, 2 Abgaben", timeout=FOLLOW)
    expect(lesson["tipps"]).to_contain_text("Mittelwert der Klasse: 27,5 %")
    _estimate(dan, "35", "35 %")
    expect(lesson["tipps"]).to_contain_text(re.compile(r"Mittelwert der Klasse: 30(,0)? %"), timeout=FOLLOW)


def _assigned_server(cluster) -> str | None:
    """The server the balancer picks for a new visitor (no cookie yet): its cookie's value."""
    request = urllib.request.Request(cluster.url + "bohnteach/nichts")  # the server's 404: cheap
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            headers = response.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as err:
        headers = err.headers.get_all("Set-Cookie") or []
    found = re.search(SERVER_COOKIE + r"=(\w+)", " ".join(headers))
    return found.group(1) if found else None


def test_an_added_server_takes_new_visitors_and_the_others_keep_theirs(browser, cluster, lesson):
    added = cluster.add_server()
    # after the balancer's reload, new visitors are spread over the living servers (the old
    # process keeps the open connections, so the new one counts none yet): within a few
    # new visitors one is given the added server
    deadline = time.monotonic() + 60
    picked: list[str | None] = []
    while added.name not in picked and time.monotonic() < deadline:
        picked.append(_assigned_server(cluster))
    assert added.name in picked and "s2" not in picked, picked  # s2 is dead
    newcomer_ctx = _context(browser, cluster, added.name)
    try:
        page = newcomer_ctx.new_page()
        _open(page, f"{cluster.url}?lektion={LESSON}&klasse={lesson['code']}")
        _join(page, "Emil")
        assert _server_of(newcomer_ctx, cluster) == added.name
        expect(lesson["tipps"]).to_contain_text("3 in der Klasse", timeout=FOLLOW)
        # the teacher's page kept its server and its open connection through the reload
        assert _server_of(lesson["contexts"][0], cluster) == "s1"
        expect(lesson["teacher"].locator(".bt-connection-lost")).to_have_count(0)
        _estimate(lesson["Cleo"], "40", "40 %")
        expect(lesson["tipps"]).to_contain_text("Mittelwert der Klasse: 37,5 %", timeout=FOLLOW)
        _estimate(page, "10", "10 %")
        expect(lesson["tipps"]).to_contain_text("3 in der Klasse, 3 Abgaben", timeout=FOLLOW)
    finally:
        newcomer_ctx.close()
