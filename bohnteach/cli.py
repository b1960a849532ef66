"""Command line: ``bohnteach serve | build-static | serve-static | scene check | simulate``.

Each sub-command lives in its own module and is imported only when used, so that
``bohnteach --help`` stays fast.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _footer_link(spec: str) -> object:
    """``--fusszeile`` values; a malformed one becomes argparse's one-line error."""
    from bohnteach.site.publish import parse_footer_link

    try:
        return parse_footer_link(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
        "--fusszeile", action="append", default=[], type=_footer_link, metavar="TEXT=ADRESSE",
        help="ein Link in der Fußzeile jeder Seite, z. B. Impressum=https://example.org/impressum "
             "(mehrfach möglich: Impressum, Lizenz, Datenschutz)",
    )
    serve.add_argument(
        "--klasse", type=int, default=0, metavar="N",
        help="so viele Besucher kommen gleichzeitig: N Kernel vorheizen (je etwa 70 MB) – "
             "für die Startadresse (die App) oder für jede --einstieg-Seite",
    )
    serve.add_argument(
        "--einstieg", action="append", default=[], metavar="SEITE",
        help="alte Einzelseiten-Adresse, die eine Klasse zuerst öffnet, z. B. "
             "tutorials/01_Bohnentreppe (mehrfach möglich; ohne: die App)",
    )

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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        from bohnteach.site.publish import footer_env
        from bohnteach.site.addresses import APP_PAGE
        from bohnteach.site.serve import serve_main

        pools = ({page: args.klasse for page in args.einstieg or [APP_PAGE]}
                 if args.klasse > 0 else None)
        return serve_main(port=args.port, public=args.public, pools=pools,
                          footer_env=footer_env(args.fusszeile))
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
