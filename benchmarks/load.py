"""The site under load and over time; prints figures (not a test).

    python benchmarks/load.py [--visitors 30] [--browsers 3] [--pages 02_Phase_1 14_Ladybohn tutorials/01_Bohnentreppe]
                              [--cull-idle 30] [--cull-interval 10] [--timeout 180] [--app]
                              [--start local-provisioner]

Serves the site as ``bohnteach serve`` does (``build_voila_command``), waits until its
kernel pools are preheated and the server is idle, and then lets ``--visitors`` visitors
start at the same moment. Each visitor opens the ``--pages`` one after the other and, on
the first page with a scene player, steps the scene once (▶ until the narration says
„Schritt 1“). With ``--app`` the visitor reads them *in the app* (``bohnteach.site.app``):
the root address naming the first page (``/?kapitel=02_Phase_1``), then each further page
by a link in the app — one kernel per visitor; a further page's time runs from the click
(protocol visitors: from setting the app's route) until the app has shown it.

``--browsers`` of the visitors are real browser contexts (Playwright, one Debian chromium);
the others are *protocol visitors* that ask of the server exactly what a browser asks: the
page (streamed to its end, which is when the server has run the notebook), the kernel's
websocket, the widget states as ipywidgets 8's widget manager asks for them (one
``request_states`` on the ``jupyter.widget.control`` comm; after 4 s without an answer, one
``request_state`` per widget, as the manager then does), and the ▶ click as the widget's ``custom`` comm message. A
class's 30 pupils bring 30 computers; 30 Chromium tabs on this 2-core machine would measure
the test machine's browser, not the server (the issue allows "Locust for the HTTP +
websocket part plus a few real browsers"; this is that, on tornado, which the server
already installs). ``--browsers 30`` puts every visitor in the browser again. Printed:

* **time to interactive** per page visit: from navigation until every output and widget is
  drawn (protocol visitors: until the last widget's state has arrived) — median, p95, max,
  for all visitors and for the browsers alone — and the scene step time;
* **errors**: visits that did not become interactive within ``--timeout`` s, or showed an
  error ("Error displaying widget", a failed cell, a page error);
* **kernels** alive (ipykernel processes under the server): before, at most during the
  run, right after the visitors left, and after culling — which must bring them back to the
  preheated pool: the visitors' kernels culled, the pools refilled (one kernel at a time
  once the server is quiet, ``serve.REFILL_QUIET``; waited for up to 10 minutes). Culling
  normally waits 5 idle minutes (``serve.CULL_IDLE_TIMEOUT``); this run shortens it with
  ``--cull-idle`` / ``--cull-interval`` (flags appended to the server's command line);
* **memory**: memory of the server, its fork server and all its kernels, summed as
  proportional set sizes (shared pages counted once) — before, peak, after.

Targets on the 2-core machine: 0 errors, median ≤ 10 s and max ≤ 30 s to interactive,
kernels back to the pool size after culling, memory back near its start.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from procs import pss_mb, tree_pids, wait_idle  # noqa: E402 - benchmarks/ is on sys.path when run as a script

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_helpers import APP_LINK_JS, APP_SHOWN_JS, CHROMIUM, CHROMIUM_ARGS, VISIT_OUTCOME_JS, serve_site  # noqa: E402

from bohnteach.site import serve  # noqa: E402
from bohnteach.site.addresses import notebook_key, page_path  # noqa: E402
from bohnteach.site.app import CHAPTER_KEY, LESSON_KEY  # noqa: E402
from bohnteach.site.cluster import SERVER_COOKIE  # noqa: E402

DEFAULT_PAGES = ("02_Phase_1", "14_Ladybohn", "tutorials/01_Bohnentreppe")
TARGET_MEDIAN_S = 10.0
TARGET_MAX_S = 30.0


# ---- the server's processes ------------------------------------------------------------------
def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def snapshot(root_pid: int) -> tuple[int, float]:
    """(kernels alive, MB of memory the server and its kernels take together)."""
    pids = tree_pids(root_pid)
    kernels = sum("ipykernel" in _cmdline(p) for p in pids)
    return kernels, sum(pss_mb(p) for p in pids)


class Sampler(threading.Thread):
    """Kernels and memory once a second, in the background."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.samples, self.stop = pid, [], threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.samples.append((time.monotonic(), *snapshot(self.pid)))
            self.stop.wait(1.0)


# ---- the visitors ------------------------------------------------------------------------------
def app_query(name: str) -> str:
    """The app's address query of a page: ``02_Phase_1`` → ``kapitel=02_Phase_1``."""
    folder, _, stem = name.rpartition("/")
    return f"{LESSON_KEY if folder == 'tutorials' else CHAPTER_KEY}={stem}"


async def _follow_in_app(page, route: str, timeout: float) -> None:
    """Click a link to ``route`` inside the app (put into the shown page, as a chapter's own
    links are) and wait until the app has shown it."""
    href = f"?{route}"  # relative: the app's own path, also under a sub-path (/bohnanza/)
    await page.evaluate(APP_LINK_JS, href)
    await page.locator(f'.bt-app a[data-bt-bench="{href}"]').last.click(timeout=timeout * 1000)
    await page.wait_for_function(APP_SHOWN_JS, arg=route, timeout=timeout * 1000, polling=50)


async def visitor(browser, base: str, pages: list[str], start: asyncio.Event, timeout: float,
                  results: list[dict], app: bool = False) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    stepped = False
    await start.wait()
    try:
        for name in pages:
            row = {"page": name, "tti": None, "error": None, "step": None, "browser": True}
            results.append(row)
            t0 = time.monotonic()
            try:
                if app and name != pages[0]:
                    await _follow_in_app(page, app_query(name), timeout)
                    row["tti"] = time.monotonic() - t0
                    text = await page.inner_text("#rendered_cells")
                    if re.search("Error (displaying|creating) widget|bt-box bt-error", text) or errors:
                        row["error"] = "broken" if not errors else "pageerror: " + errors[0][:100]
                    errors.clear()
                    continue
                address = base + (f"/?{app_query(name)}" if app else page_path(name))
                # "commit": the page is streamed while its kernel runs it (or while it waits
                # in line), so "load" comes only at the end; readiness is the outcome below.
                await page.goto(address, timeout=timeout * 1000, wait_until="commit")
                left = max(1.0, timeout - (time.monotonic() - t0))
                handle = await page.wait_for_function(VISIT_OUTCOME_JS, timeout=left * 1000, polling=100)
                outcome = await handle.json_value()
                if app:
                    await page.wait_for_function(APP_SHOWN_JS, arg=app_query(name), timeout=left * 1000,
                                                 polling=50)
                row["tti"] = time.monotonic() - t0
                row["server"] = next((c["value"] for c in await context.cookies()
                                      if c["name"] == SERVER_COOKIE), None)
                text = await page.inner_text("#rendered_cells")
                if outcome != "ok" or "There was an error when executing cell" in text:
                    row["error"] = outcome if outcome != "ok" else "cell error"
                elif [e for e in errors if "setData is not a function" not in e]:
                    row["error"] = "pageerror: " + errors[0][:100]
                errors.clear()
            except Exception as exc:  # noqa: BLE001 - counted, not raised
                row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:100]}"
                continue
            players = page.locator(".bt-scene-player")
            if not stepped and row["error"] is None and await players.count():
                player = players.first
                t1 = time.monotonic()
                try:
                    await player.get_by_role("button", name=re.compile("weiter")).click(timeout=30_000)
                    await player.get_by_text(re.compile("Schritt 1")).first.wait_for(timeout=30_000)
                    row["step"] = time.monotonic() - t1
                    stepped = True
                except Exception as exc:  # noqa: BLE001
                    row["error"] = f"step: {type(exc).__name__}"
    finally:
        await context.close()


def _kernel_message(msg_type: str, content: dict, session: str) -> str:
    """A Jupyter message for the kernel websocket (JSON, as the browser's ``v1`` fallback)."""
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "besuch",
                   "session": session, "date": "", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "content": content, "channel": "shell", "buffers": []})


#: How long ipywidgets' widget manager waits for the control comm's answer before it asks
#: for each widget's state on its own (``_loadFromKernel`` in @jupyter-widgets/base-manager 8).
CONTROL_COMM_WAIT = 4.0


async def _widget_states(ws, session: str, receive, row: dict) -> dict[str, dict]:
    """The page's widget states, asked for as ipywidgets 8's manager asks: one
    ``request_states`` on a ``jupyter.widget.control`` comm; if no ``update_states`` comes
    within :data:`CONTROL_COMM_WAIT` s, one ``request_state`` per widget (``row["fallback"]``)."""
    control = uuid.uuid4().hex
    message = json.loads(_kernel_message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                       "data": {}}, session))
    message["metadata"] = {"version": "1.0.0"}
    ws.write_message(json.dumps(message))
    ws.write_message(_kernel_message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}, session))
    try:
        reply = await asyncio.wait_for(receive(lambda m: m["msg_type"] == "comm_msg"
                                               and m["content"].get("comm_id") == control), CONTROL_COMM_WAIT)
        return {model: entry.get("state", {}) for model, entry in reply["content"]["data"]["states"].items()}
    except asyncio.TimeoutError:
        row["fallback"] = True
    finally:
        ws.write_message(_kernel_message("comm_close", {"comm_id": control, "data": {}}, session))
    ws.write_message(_kernel_message("comm_info_request", {"target_name": "jupyter.widget"}, session))
    comms = (await receive(lambda m: m["msg_type"] == "comm_info_reply"))["content"]["comms"]
    for comm_id in comms:
        ws.write_message(_kernel_message(
            "comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}}, session))
    states: dict[str, dict] = {}
    while len(states) < len(comms):
        m = await receive(lambda m: m["msg_type"] == "comm_msg"
                          and m["content"]["data"].get("method") == "update")
        states[m["content"]["comm_id"]] = m["content"]["data"].get("state", {})
    return states


async def protocol_visitor(base: str, pages: list[str], start: asyncio.Event, timeout: float,
                           results: list[dict], app: bool = False) -> None:
    """What one browser asks of the server, without a browser (see the module docstring)."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    client = AsyncHTTPClient(force_instance=True)
    session = uuid.uuid4().hex
    cookie = ""  # behind a balancer: its stickiness cookie, sent with every later request
    stepped = False
    await start.wait()
    ws = router = None
    for name in pages:
        row = {"page": name, "tti": None, "error": None, "step": None, "browser": False}
        results.append(row)
        t0 = time.monotonic()
        if app and ws is not None and router is not None:  # a further page: the app's route
            try:
                ws.write_message(_kernel_message("comm_msg", {"comm_id": router, "data": {
                    "method": "update", "state": {"route": app_query(name)}, "buffer_paths": []}}, session))
                await receive(lambda m: m["msg_type"] == "comm_msg" and m["content"].get("comm_id") == router
                              and "shown" in m["content"]["data"].get("state", {}))
                row["tti"] = time.monotonic() - t0
            except Exception as exc:  # noqa: BLE001 - counted, not raised
                row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:100] if str(exc) else ''}"
            continue
        if not app:
            ws = None
        try:
            address = base + (f"/?{app_query(name)}" if app else page_path(name))
            reply = await client.fetch(HTTPRequest(address, request_timeout=timeout,
                                                   headers={"Cookie": cookie} if cookie else None))
            for header in reply.headers.get_list("Set-Cookie"):
                if header.startswith(SERVER_COOKIE + "="):
                    cookie = header.split(";", 1)[0]
                    row["server"] = cookie.split("=", 1)[1]
            html = reply.body.decode(errors="replace")
            found = re.search(r'"kernelId": "([0-9a-f-]+)"', html)
            row["kernel"] = found.group(1) if found else None
            if found is None or "There was an error when executing cell" in html:
                row["error"] = "no kernel in the page" if found is None else "cell error"
                continue
            left = max(1.0, timeout - (time.monotonic() - t0))
            ws = await asyncio.wait_for(websocket_connect(HTTPRequest(
                f"{base.replace('http', 'ws', 1)}/api/kernels/{found.group(1)}/channels?session_id={session}",
                headers={"Cookie": cookie} if cookie else None)), left)

            async def receive(want) -> dict:
                while True:
                    raw = await asyncio.wait_for(ws.read_message(), max(1.0, timeout - (time.monotonic() - t0)))
                    if raw is None:
                        raise ConnectionError("websocket closed")
                    m = json.loads(raw)
                    if want(m):
                        return m

            states = await _widget_states(ws, session, receive, row)
            row["tti"] = time.monotonic() - t0
            router = next((c for c, st in states.items() if st.get("_model_name") == "RouterModel"), None)
            if app and router is None:
                row["error"] = "no app in the page"
            forward = [c for c, st in states.items()
                       if st.get("_model_name") == "ButtonModel" and "weiter" in st.get("description", "")]
            if not stepped and forward:
                t1 = time.monotonic()
                ws.write_message(_kernel_message("comm_msg", {"comm_id": forward[0], "data": {
                    "method": "custom", "content": {"event": "click"}}}, session))
                await receive(lambda m: m["msg_type"] == "comm_msg" and "Schritt 1" in json.dumps(
                    m["content"]["data"].get("state", {}), ensure_ascii=False))
                row["step"] = time.monotonic() - t1
                stepped = True
        except Exception as exc:  # noqa: BLE001 - counted, not raised
            row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:100] if str(exc) else ''}"
        finally:
            if ws is not None and not app:
                ws.close()
    if ws is not None:
        ws.close()
    client.close()


async def crowd(base: str, visitors: int, browsers: int, pages: list[str],
                timeout: float, app: bool = False) -> tuple[list[dict], float]:
    """``visitors`` at the same moment, ``browsers`` of them in Chromium; each one bounded by
    the time its pages may take, so a stuck visit ends the run instead of hanging it."""
    from playwright.async_api import async_playwright

    results: list[dict] = []
    start = asyncio.Event()
    bound = len(pages) * (timeout + 90)

    async def bounded(coro, in_browser: bool) -> None:
        try:
            await asyncio.wait_for(coro, bound)
        except asyncio.TimeoutError:
            results.append({"page": "?", "tti": None, "error": "visitor did not finish", "step": None,
                            "browser": in_browser})

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tasks = [asyncio.create_task(bounded(visitor(browser, base, pages, start, timeout, results, app), True))
                 for _ in range(min(browsers, visitors))]
        tasks += [asyncio.create_task(bounded(protocol_visitor(base, pages, start, timeout, results, app), False))
                  for _ in range(visitors - min(browsers, visitors))]
        await asyncio.sleep(2)  # every context exists; now all at once
        t0 = time.monotonic()
        start.set()
        await asyncio.gather(*tasks)
        wall = time.monotonic() - t0
        await browser.close()
    return results, wall


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--visitors", type=int, default=30)
    ap.add_argument("--browsers", type=int, default=3,
                    help="visitors in real Chromium contexts; the others are protocol visitors")
    ap.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES))
    ap.add_argument("--cull-idle", type=int, default=30, help="seconds (the site: 300)")
    ap.add_argument("--cull-interval", type=int, default=10, help="seconds (the site: 60)")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per page visit")
    ap.add_argument("--pool", nargs="*", default=[], metavar="PAGE=N",
                    help="preheated kernels for a page (bohnteach serve --klasse N --einstieg PAGE)")
    ap.add_argument("--app", action="store_true",
                    help="read the pages in the app (one kernel per visitor), not as standalone pages")
    ap.add_argument("--kernel-starts", type=int, default=None,
                    help="pages prepared at once without a preheated kernel (default: one per core)")
    ap.add_argument("--start", default=None, metavar="PROVISIONER",
                    help="how the server starts kernels: bohnteach-fork (the site's default) or "
                         "local-provisioner (a new Python per kernel, for comparison)")
    args = ap.parse_args(argv)

    def with_our_options(cmd: list[str]) -> list[str]:
        """The server's command with our culling times in place of its own (traitlets
        refuses an option given twice)."""
        ours: dict[str, object] = {"--MappingKernelManager.cull_idle_timeout": args.cull_idle,
                                   "--MappingKernelManager.cull_interval": args.cull_interval}
        if args.kernel_starts is not None:
            ours[serve.KERNEL_STARTS_OPTION] = args.kernel_starts
        if args.start is not None:
            ours["--KernelProvisionerFactory.default_provisioner_name"] = args.start
        extra = [f"{k}={v}" for k, v in ours.items()]
        extra += [f"{serve.POOL_OPTION}={notebook_key(page)}={n}"
                  for page, n in (spec.rsplit("=", 1) for spec in args.pool)]
        return [a for a in cmd if a.split("=", 1)[0] not in ours] + extra

    print(f"# load benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}; {args.visitors} visitors ({min(args.browsers, args.visitors)} "
          f"in Chromium) × {args.pages}{' in the app' if args.app else ''}; "
          f"pools {args.pool or 'default'}, kernel starts {args.kernel_starts or 'default'}, "
          f"kernels started by {args.start or 'the default (bohnteach-fork)'}")
    with tempfile.TemporaryDirectory(prefix="bohnteach-load-") as tmp:
        log = Path(tmp) / "voila.log"
        with serve_site(log, timeout=300, edit_command=with_our_options) as served:
            base, pid = served.base, served.process.pid
            t0 = time.monotonic()
            wait_idle(pid, quiet=0.15, span=2.0, limit=600)
            pool_kernels, mem_before = snapshot(pid)
            print(f"# preheated and idle after {time.monotonic() - t0:.0f} s: {pool_kernels} kernels, "
                  f"{mem_before:.0f} MB")
            sampler = Sampler(pid)
            sampler.start()
            results, wall = asyncio.run(crowd(base, args.visitors, args.browsers, args.pages, args.timeout,
                                              args.app))
            kernels_left, _ = snapshot(pid)
            t_left = time.monotonic()
            # the visitors' kernels are culled after cull_idle s (checked every cull_interval s);
            # the pools refill one kernel at a time once the server is quiet: bounded wait for both
            culled_by = t_left + args.cull_idle + 2 * args.cull_interval
            deadline = culled_by + args.cull_interval + 600
            while time.monotonic() < deadline:
                kernels_now, mem_now = snapshot(pid)
                if time.monotonic() >= culled_by and kernels_now == pool_kernels:
                    break
                time.sleep(2)
            wait_idle(pid, quiet=0.15, span=2.0, limit=120)
            kernels_after, mem_after = snapshot(pid)
            culled_after = time.monotonic() - t_left
            sampler.stop.set()
            sampler.join()
            queue_note = log.read_text(errors="replace").count("waits for a kernel")

    ttis = [r["tti"] for r in results if r["tti"] is not None and r["error"] is None]
    errors = [r for r in results if r["error"] is not None]
    steps = [r["step"] for r in results if r["step"] is not None]
    peak_kernels = max(s[1] for s in sampler.samples)
    peak_mem = max(s[2] for s in sampler.samples)
    print(f"\n{'page':32} {'visits':>6} {'errors':>6} {'median s':>8} {'p95 s':>7} {'max s':>7}")
    for name in args.pages:
        rows = [r for r in results if r["page"] == name]
        ok = [r["tti"] for r in rows if r["tti"] is not None and r["error"] is None]
        bad = sum(r["error"] is not None for r in rows)
        if ok:
            print(f"{name:32} {len(rows):6} {bad:6} {statistics.median(ok):8.1f} {pct(ok, .95):7.1f} "
                  f"{max(ok):7.1f}")
        else:
            print(f"{name:32} {len(rows):6} {bad:6} {'–':>8}")
    if ttis:
        med, p95, mx = statistics.median(ttis), pct(ttis, .95), max(ttis)
        print(f"{'all':32} {len(results):6} {len(errors):6} {med:8.1f} {p95:7.1f} {mx:7.1f}")
        in_browser = [r["tti"] for r in results if r["browser"] and r["tti"] is not None and r["error"] is None]
        if in_browser:
            print(f"{'  of these in Chromium':32} {sum(r['browser'] for r in results):6} "
                  f"{sum(r['browser'] and r['error'] is not None for r in results):6} "
                  f"{statistics.median(in_browser):8.1f} {pct(in_browser, .95):7.1f} {max(in_browser):7.1f}")
    else:
        med = p95 = mx = float("inf")
    if steps:
        print(f"scene step (▶ → „Schritt 1“): median {statistics.median(steps) * 1000:.0f} ms, "
              f"max {max(steps) * 1000:.0f} ms over {len(steps)} visitors")
    for r in errors[:10]:
        print(f"  error on {r['page']}: {r['error']}")
    print(f"all visitors done after {wall:.0f} s")
    print(f"kernels: {pool_kernels} preheated before, peak {peak_kernels} during, {kernels_left} when "
          f"the visitors left, {kernels_after} after culling ({culled_after:.0f} s later; "
          f"cull idle {args.cull_idle} s, interval {args.cull_interval} s)")
    print(f"memory (server + kernels, PSS): {mem_before:.0f} MB before, peak {peak_mem:.0f} MB, "
          f"{mem_after:.0f} MB after")
    if queue_note:
        print(f"visits that waited in line for a kernel (server log): {queue_note}")
    fallbacks = sum(bool(r.get("fallback")) for r in results)
    print(f"protocol visits whose control comm went unanswered for {CONTROL_COMM_WAIT:.0f} s "
          f"(then one request per widget): {fallbacks}")
    ok = (not errors and med <= TARGET_MEDIAN_S and mx <= TARGET_MAX_S
          and kernels_after <= pool_kernels)
    print("RESULT:", "targets met" if ok else "targets NOT met",
          f"(errors 0, median ≤ {TARGET_MEDIAN_S:.0f} s, max ≤ {TARGET_MAX_S:.0f} s, kernels back to "
          f"{pool_kernels}); load average now {os.getloadavg()[0]:.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
