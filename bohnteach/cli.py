"""Command line: ``bohnteach serve | cluster | build-static | serve-static | scene check | simulate``.

Each sub-command lives in its own module and is imported only when used, so that
``bohnteach --help`` stays fast.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def _footer_link(spec: str) -> object:
    """``--fusszeile`` values; a malformed one becomes argparse's one-line error."""
    from bohnteach.site.publish import parse_footer_link

    try:
        return parse_footer_link(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _public_url(url: str) -> str:
    """``--oeffentliche-adresse``; a malformed one becomes argparse's one-line error."""
    from bohnteach.site.serve import check_public_url

    try:
        return check_public_url(url)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _proxy(text: str) -> str:
    from bohnteach.site.serve import check_proxy

    try:
        return check_proxy(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _store_url(url: str) -> str:
    """``--klassen-db``: a PostgreSQL (or SQLite) URL; anything else is argparse's error."""
    if not url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://", "sqlite:///")):
        raise argparse.ArgumentTypeError(
            f"„{url}“ ist keine Datenbank-Adresse: postgresql://user@host/db oder sqlite:///pfad")
    return url


def _hours(text: str) -> str:
    try:
        ok = 0 < float(text) < 10_000
    except ValueError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"„{text}“: bitte eine Stundenzahl größer als 0")
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bohnteach", description="Bohnanza lernen: Seite, Szenen, Simulation."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="die Lernseite mit Voilà starten")
    serve.add_argument("--port", type=int, default=8866)
    serve.add_argument(
        "--public", action="store_true", help="auf allen Netzwerkschnittstellen lauschen"
    )
    serve.add_argument(
        "--fusszeile", dest="footer_links", action="append", default=[], type=_footer_link,
        metavar="TEXT=ADRESSE",
        help="ein Link in der Fußzeile jeder Seite, z. B. Impressum=https://example.org/impressum "
             "(mehrfach möglich: Impressum, Lizenz, Datenschutz)",
    )
    serve.add_argument(
        "--klasse", dest="preheated", type=int, default=0, metavar="N",
        help="so viele Besucher kommen gleichzeitig: N Kernel vorheizen (je etwa 70 MB) – "
             "für die Startadresse (die App) oder für jede --einstieg-Seite",
    )
    serve.add_argument(
        "--einstieg", dest="entry_pages", action="append", default=[], metavar="SEITE",
        help="alte Einzelseiten-Adresse, die eine Klasse zuerst öffnet, z. B. "
             "tutorials/01_Bohnentreppe (mehrfach möglich; ohne: die App)",
    )

    serve.add_argument(
        "--klassen-dir", dest="store_dir", metavar="ORDNER",
        help="Ordner für den Klassenraum-Speicher (eine SQLite-Datei; Vorgabe: "
             "$BOHNTEACH_KLASSEN_DIR, sonst ~/.local/share/bohnteach/klassen)",
    )
    serve.add_argument(
        "--klassen-db", dest="store_url", metavar="URL", type=_store_url,
        help="Klassenraum in PostgreSQL statt SQLite, z. B. postgresql://user@host/bohnteach "
             "(für mehrere Voilà-Server; Vorgabe: $BOHNTEACH_KLASSEN_DB)",
    )
    serve.add_argument(
        "--klassen-stunden", dest="store_hours", metavar="H", type=_hours,
        help="nach so vielen Stunden wird eine Klasse mit allen Abgaben gelöscht "
             "(Vorgabe: $BOHNTEACH_KLASSEN_STUNDEN, sonst 24)",
    )

    serve.add_argument(
        "--oeffentliche-adresse", dest="public_url", metavar="URL", type=_public_url,
        help="die Adresse, unter der Besucher die Seite öffnen, z. B. "
             "https://schule.example/bohnanza/ (hinter einem Balancer oder Proxy): der "
             "Schüler-Link nennt sie, ihr Pfad ist der Pfad der Seite",
    )
    serve.add_argument(
        "--vertrauter-proxy", dest="trusted_proxies", action="append", default=[], type=_proxy,
        metavar="IP",
        help="nur von dieser Adresse (oder diesem Netz, z. B. 10.0.0.0/24) wird "
             "X-Forwarded-For geglaubt (mehrfach möglich); sonst zählt die Adresse der Verbindung",
    )

    cluster = sub.add_parser(
        "cluster", help="zum Ausprobieren: PostgreSQL, mehrere Server und HAProxy auf diesem Rechner")
    cluster.add_argument("--server", dest="servers", type=int, default=2, metavar="N",
                         help="so viele bohnteach-Server (Vorgabe 2)")
    cluster.add_argument("--port", type=int, default=8080,
                         help="der Port des Balancers (Vorgabe 8080); die Server nehmen die folgenden")
    cluster.add_argument("--pfad", dest="path", default="/bohnanza/",
                         help="der Pfad der Seite hinter dem Balancer (Vorgabe /bohnanza/)")
    cluster.add_argument("--oeffentliche-adresse", dest="public_url", metavar="URL", type=_public_url,
                         help="wie bei serve; Vorgabe: http://127.0.0.1:PORT/PFAD")
    cluster.add_argument("--klassen-db", dest="store_url", metavar="URL", type=_store_url,
                         help="ein vorhandenes PostgreSQL; ohne: ein eigenes auf Zeit")
    cluster.add_argument("--klasse", dest="preheated", type=int, default=0, metavar="N",
                         help="wie bei serve: N Kernel der App je Server vorheizen")

    build = sub.add_parser(
        "build-static", help="die ganze Seite als statische Dateien bauen (Voici, Pyodide)"
    )
    build.add_argument("out", help="Zielordner, z. B. _site")
    serve_static = sub.add_parser(
        "serve-static", help="einen statischen Bau auf 127.0.0.1 ansehen"
    )
    serve_static.add_argument("folder")
    serve_static.add_argument("--port", type=int, default=8000)

    scene = sub.add_parser("scene", help="Szenendateien")
    scene_sub = scene.add_subparsers(dest="scene_command", required=True)
    check = scene_sub.add_parser("check", help="Szenendateien durch die Engine spielen")
    check.add_argument("files", nargs="+")

    sim = sub.add_parser("simulate", help="ganze Partien mit Bots spielen")
    sim.add_argument("--ruleset", default="amigo")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bots", default="random", help="Bot-Namen, durch Komma getrennt")
    sim.add_argument("--json", action="store_true", help="Ergebnis als JSON ausgeben")
    sim.add_argument(
        "--meters", metavar="DATEI",
        help="Bohnometer von den eigenen Karten (TOML) statt der angenommenen, z. B. "
             "Schlangenbohne = [4, 7, 9, 11] oder, je Kartenmerkmal, [blue] m = [...] w = [...]",
    )
    return parser


def classroom_env(folder: str | None, url: str | None, hours: str | None,
                  env: dict[str, str] | None = None) -> dict[str, str]:
    """The class store's environment for ``bohnteach serve``: the flags win over the
    environment; without either the store is an SQLite file in ~/.local/share."""
    from bohnteach.classroom.store import ENV_DB, ENV_DIR, ENV_HOURS

    env = dict(os.environ if env is None else env)
    out: dict[str, str] = {}
    if url or env.get(ENV_DB):
        out[ENV_DB] = url or env[ENV_DB]
    out[ENV_DIR] = folder or env.get(ENV_DIR) or str(
        os.path.join(os.path.expanduser("~"), ".local", "share", "bohnteach", "klassen"))
    if hours:
        out[ENV_HOURS] = hours
    return out


#: The extra each command needs (pyproject.toml); without it the command says so in one line.
COMMAND_EXTRAS = {"serve": "site", "cluster": "site", "build-static": "static"}


def main(argv: Sequence[str] | None = None) -> int:
    from bohnteach.extras import missing_extra, require

    args = _parser().parse_args(argv)
    extra = COMMAND_EXTRAS.get(args.command)
    try:
        if extra is not None:
            require(extra, f"`bohnteach {args.command}`")
        return _run(args)
    except ImportError as error:  # a module of an extra: its one line, not a traceback
        line = missing_extra(error)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        from bohnteach.site.publish import footer_env
        from bohnteach.site.addresses import APP_PAGE
        from bohnteach.site.serve import serve_main

        pools = ({page: args.preheated for page in args.entry_pages or [APP_PAGE]}
                 if args.preheated > 0 else None)
        # The class store: every kernel inherits these (bohnteach.classroom.store.url_from_env).
        os.environ.update(classroom_env(args.store_dir, args.store_url, args.store_hours))
        return serve_main(port=args.port, public=args.public, pools=pools,
                          footer_env=footer_env(args.footer_links), public_url=args.public_url,
                          trusted_proxies=args.trusted_proxies)
    if args.command == "cluster":
        from bohnteach.site.cluster import cluster_main

        return cluster_main(servers=args.servers, port=args.port, path=args.path,
                            public_url=args.public_url, store_url=args.store_url,
                            preheated=args.preheated)
    if args.command == "build-static":
        from bohnteach.site.static import build_static_main

        return build_static_main(args.out)
    if args.command == "serve-static":
        from bohnteach.site.static import serve_static_main

        return serve_static_main(args.folder, port=args.port)
    if args.command == "scene":
        from bohnteach.content.scenes.check import check_main

        return check_main(args.files)
    if args.command == "simulate":
        from bohnteach.maths.simulate import simulate_main

        return simulate_main(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
