"""Behind a balancer, without starting one: the public address (``--oeffentliche-adresse``),
whose ``X-Forwarded-For`` is believed (``--vertrauter-proxy``), the health address's answer,
the balancer's configuration (checked by HAProxy itself) and the service unit with its
environment file (checked by systemd and by ``bohnteach serve``'s own parser).
The running deployment: tests/test_cluster_browser.py."""
from __future__ import annotations

import asyncio
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from missing import missing

from bohnteach.cli import _parser
from bohnteach.site import serve
from bohnteach.site.cluster import DEPLOY_DIR, check_haproxy_config, haproxy_binary, render_haproxy
from bohnteach.site.serve import (
    PUBLIC_URL_OPTION, TRUSTED_PROXY_OPTION, _split_deploy_options, base_path, build_voila_command,
    check_public_url, client_address,
)

PUBLIC = "https://schule.example/bohnanza/"


@pytest.mark.parametrize("given, kept", [
    ("https://schule.example/bohnanza/", "https://schule.example/bohnanza/"),
    ("https://schule.example/bohnanza", "https://schule.example/bohnanza/"),
    ("http://127.0.0.1:30080/bohnanza/", "http://127.0.0.1:30080/bohnanza/"),
    ("https://schule.example", "https://schule.example/"),
])
def test_a_public_address_is_kept_with_its_final_slash(given, kept):
    assert check_public_url(given) == kept


@pytest.mark.parametrize("bad, why", [
    ("https://lehrer:geheim@schule.example/bohnanza/", "Passwort"),
    ("https://schule.example/bohnanza/?token=abc", "ohne ?"),
    ("https://schule.example/bohnanza/#x", "ohne ?"),
    ("ftp://schule.example/", "https://"),
    ("schule.example/bohnanza", "https://"),
    ("https://schule.example:port/", "Port"),
    ('https://schule.example/"><script>/', "Anführungszeichen"),
])
def test_a_public_address_with_secrets_or_junk_is_refused_in_german(bad, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        check_public_url(bad)


def test_the_command_line_refuses_a_public_address_with_a_password(capsys):
    with pytest.raises(SystemExit) as stop:
        _parser().parse_args(["serve", "--oeffentliche-adresse", "https://a:b@schule.example/"])
    assert stop.value.code == 2
    assert "Passwort gehören nicht in die Adresse" in capsys.readouterr().err


def test_the_public_address_sets_the_base_path_and_reaches_the_server(tmp_path):
    cmd = build_voila_command(30001, public=False, root=tmp_path, public_url=PUBLIC,
                              trusted_proxies=["10.0.0.5", "10.1.0.0/24"])
    assert "--Voila.base_url=/bohnanza/" in cmd
    rest, proxies, public = _split_deploy_options(cmd[3:])
    assert proxies == ["10.0.0.5", "10.1.0.0/24"] and public == PUBLIC
    assert not any(a.startswith((TRUSTED_PROXY_OPTION, PUBLIC_URL_OPTION)) for a in rest)
    assert base_path(None) == "/" and not any("base_url" in a for a in build_voila_command(1, False, tmp_path))


@pytest.mark.parametrize("remote, forwarded, trusted, seen", [
    # a pupil talking to a server directly: whatever they forge, their connection counts
    ("192.0.2.7", "198.51.100.1", [], "192.0.2.7"),
    ("192.0.2.7", "198.51.100.1", ["10.0.0.5"], "192.0.2.7"),
    # through the balancer: the address it appended (rightmost), not what the browser sent
    ("10.0.0.5", "198.51.100.1", ["10.0.0.5"], "198.51.100.1"),
    ("10.0.0.5", "203.0.113.66, 198.51.100.1", ["10.0.0.5"], "198.51.100.1"),
    # a chain of trusted proxies (a TLS terminator in front of the balancer)
    ("10.0.0.5", "198.51.100.1, 10.0.0.9", ["10.0.0.0/24"], "198.51.100.1"),
    # the balancer without a header, or a garbled one: its own address, nothing believed
    ("10.0.0.5", None, ["10.0.0.5"], "10.0.0.5"),
    ("10.0.0.5", "198.51.100.1, unbekannt", ["10.0.0.5"], "10.0.0.5"),
    ("::ffff:10.0.0.5", "198.51.100.1", ["10.0.0.5"], "198.51.100.1"),
])
def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy(remote, forwarded, trusted, seen):
    assert client_address(remote, forwarded, trusted) == seen


def test_a_trusted_proxy_must_be_an_address_or_a_network(capsys):
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--vertrauter-proxy", "balancer.example"])
    assert "keine IP-Adresse" in capsys.readouterr().err


def test_the_pupil_link_names_the_public_address(monkeypatch):
    from bohnteach.widgets.classroom import PUBLIC_URL_ENV, class_link, projector_address

    monkeypatch.setenv("SERVER_NAME", "127.0.0.1")
    monkeypatch.setenv("SERVER_PORT", "30101")
    monkeypatch.setenv(PUBLIC_URL_ENV, PUBLIC)
    assert class_link("04_Rechnen_oder_simulieren", "ABCDEF") == (
        PUBLIC + "?lektion=04_Rechnen_oder_simulieren&klasse=ABCDEF")
    assert projector_address("04_Rechnen_oder_simulieren").startswith(PUBLIC + "?beamer=")


# ---- the health address's answer -----------------------------------------------------------
class _Manager:
    """What the health check reads of Voilà's kernel manager: its pools of tasks."""

    def __init__(self, *tasks: asyncio.Future) -> None:
        self._pools = {"notebooks/app.ipynb": list(tasks)}


def _health(monkeypatch, store_env: dict[str, str], *states: str) -> tuple[int, str]:
    from bohnteach.classroom import store

    monkeypatch.delenv(store.ENV_DB, raising=False)
    monkeypatch.delenv(store.ENV_DIR, raising=False)
    for name, value in store_env.items():
        monkeypatch.setenv(name, value)

    async def run() -> tuple[int, str]:
        loop = asyncio.get_running_loop()
        tasks = []
        for state in states:
            future = loop.create_future()
            if state == "started":
                future.set_result({})
            elif state == "failed":
                future.set_exception(RuntimeError("kernel died"))
            tasks.append(future)
        return await serve.health(_Manager(*tasks))

    # a loop of its own on a thread of its own: an earlier browser test may have left one
    # running on this thread (asyncio.run refuses then)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_health_is_200_with_a_kernel_to_hand_out_and_a_store(monkeypatch, tmp_path):
    env = {"BOHNTEACH_KLASSEN_DIR": str(tmp_path)}
    assert _health(monkeypatch, env, "started", "starting") == (200, "gesund\n")
    assert _health(monkeypatch, env, "starting")[0] == 200  # one on its way (the pool refills)


def test_health_is_503_when_no_kernel_can_be_handed_out(monkeypatch, tmp_path):
    env = {"BOHNTEACH_KLASSEN_DIR": str(tmp_path)}
    assert _health(monkeypatch, env, "failed", "failed") == (503, "nicht bereit: Kernel\n")
    assert _health(monkeypatch, env, "starting", "failed")[0] == 503  # starts fail: none coming
    assert _health(monkeypatch, env)[0] == 503  # no pool at all


def test_health_is_503_when_the_store_is_unreachable_and_says_nothing_of_it(monkeypatch):
    from bohnteach.site.cluster import free_port

    url = f"postgresql://bohnteach:geheim@127.0.0.1:{free_port()}/klassen"  # nobody listens
    status, text = _health(monkeypatch, {"BOHNTEACH_KLASSEN_DB": url}, "started")
    assert (status, text) == (503, "nicht bereit: Klassenraum-Speicher\n")
    assert "geheim" not in text and "127.0.0.1" not in text


# ---- the balancer's configuration and the service unit -------------------------------------
def test_the_balancer_configuration_is_valid_for_haproxy():
    if haproxy_binary() is None:
        missing("haproxy fehlt (make test installiert Debians haproxy)")
    text = render_haproxy("/bohnanza/", [("s1", "10.0.0.11:8801"), ("s2", "10.0.0.12:8801")], ":80",
                          secure_cookie=True)
    assert check_haproxy_config(text) is None, text
    for needle in ("balance leastconn", "cookie BOHNTEACH_SERVER insert indirect nocache httponly",
                   "timeout tunnel", "uri /bohnanza/bohnteach/gesund", "set-header X-Forwarded-For %[src]",
                   "server s2 10.0.0.12:8801 cookie s2", " secure"):
        assert needle in text
    with pytest.raises(ValueError, match="Pfad"):
        render_haproxy("bohnanza", [("s1", "10.0.0.11:8801")], ":80")


def _seconds(text: str, setting: str) -> float:
    found = re.search(rf"^\s*{setting}\s+(\d+)(ms|s)\b", text, re.M)
    assert found, setting
    return int(found.group(1)) / (1000 if found.group(2) == "ms" else 1)


def test_the_balancer_waits_for_a_busy_servers_health_answer():
    """A server answers its health address late while it preheats a kernel or waits up to
    HEALTH_STORE_TIMEOUT for its store: the balancer must wait longer than that, or it takes
    out busy servers (all of them at once: a 503 for everyone)."""
    text = render_haproxy("/bohnanza/", [("s1", "10.0.0.11:8801")], ":80")
    assert _seconds(text, "timeout check") >= serve.HEALTH_STORE_TIMEOUT + 5


def test_the_printed_configuration_is_the_template_filled_in():
    done = subprocess.run([sys.executable, "-m", "bohnteach.site.cluster", "haproxy", "--pfad",
                           "/bohnanza/", "--server", "10.0.0.11:8801", "--server", "10.0.0.12:8801"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == render_haproxy("/bohnanza/", [("s1", "10.0.0.11:8801"), ("s2", "10.0.0.12:8801")], ":80")


def _env_file() -> dict[str, str]:
    pairs = {}
    for line in (DEPLOY_DIR / "bohnteach.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name] = value
    return pairs


def test_the_service_units_command_is_a_valid_serve_with_the_environment_file():
    unit = (DEPLOY_DIR / "bohnteach@.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    env = _env_file()
    words = shlex.split(exec_start.removeprefix("ExecStart="))
    assert words[0].endswith("/bin/bohnteach")
    words = [re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], w).replace("%i", "8801") for w in words[1:]]
    args = _parser().parse_args(words)
    assert (args.command, args.port, args.public) == ("serve", 8801, True)
    assert args.public_url == env["BOHNTEACH_OEFFENTLICHE_ADRESSE"]
    assert args.trusted_proxies == [env["BOHNTEACH_BALANCER"]]
    # what the program reads from the environment itself
    from bohnteach.classroom.store import ENV_DB, ENV_HOURS, hours_from_env, url_from_env
    from bohnteach.widgets.classroom import ZONE_ENV

    assert url_from_env(env) == env[ENV_DB] and hours_from_env(env) == 24
    assert ZONE_ENV in env


def test_systemd_accepts_the_service_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze fehlt (kein systemd auf diesem Rechner)")
    unit = (DEPLOY_DIR / "bohnteach@.service").read_text()
    # the unit as installed, with this checkout's program for /opt/bohnteach's
    program = Path(sys.executable).with_name("bohnteach")
    (tmp_path / "bohnteach@.service").write_text(
        unit.replace("/opt/bohnteach/.venv/bin/bohnteach", str(program)))
    done = subprocess.run([analyze, "verify", str(tmp_path / "bohnteach@8801.service")],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "bohnteach@" in line]
    assert done.returncode == 0 and complaints == [], done.stdout + done.stderr
