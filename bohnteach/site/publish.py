"""What a published site needs around the pages: a German start, a German 404, titles, a footer.

Voilà serves a folder as an English file browser; this module turns that into a site
(installed by ``python -m bohnteach.site.serve`` before Voilà starts, see :func:`install`):

* ``/`` is the app (``notebooks/app.ipynb``, :mod:`bohnteach.site.app`): one kernel shows
  every chapter and lesson at ``/?kapitel=…`` / ``/?lektion=…``; each page's own address
  (``/voila/render/notebooks/02_Phase_1.ipynb``) still serves it standalone; the file tree (``/voila/tree``) and the contents API
  (``/voila/api/contents``) answer „Seite nicht gefunden“, like every unknown address
  (the template's ``404.html``, with a link back to the start page);
* every page is titled with its first ``# `` heading and declares ``lang="de"`` (the app
  sets the ``lang`` of the page it shows), and carries the language switch and the frame's
  words in every language (:data:`FRAME_WORDS`);
* the publisher's footer links (imprint, licence: ``bohnteach serve --fusszeile
  "Impressum=https://…"``) reach every page and the 404 page through one environment
  variable, :data:`FOOTER_ENV`, which the Voilà process reads once.
"""
from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from bohnteach.i18n import LANGUAGES, N_, Translator
from bohnteach.render.style import PAGE_CSS
from bohnteach.site.addresses import APP_PAGE, LANG_KEY, notebook_key, page_config

#: The site's own page scripts (the template inlines each, :func:`page_scripts`).
PAGE_SCRIPTS = Path(__file__).with_name("js") / "page"
#: Environment variable that carries the footer links (JSON) from ``bohnteach serve`` to Voilà.
FOOTER_ENV = "BOHNTEACH_FUSSZEILE"
#: The site's name, after each page's own title in the browser tab.
SITE_NAME = N_("Bohnanza lernen")
#: The frame's words (the template, the site's page scripts, bohnteach-app's lost
#: connection): German in the page, their translations handed to the page's scripts
#: (:func:`frame_words_json`, ``bohnteach/site/js/page/words.js``).
FRAME_WORDS = (
    N_("Ansicht"), N_("Beamer-Ansicht"), N_("Abschnitte der Beamer-Ansicht"), N_("◀ Zurück"),
    N_("Weiter ▶"), N_("Abschnitt {n} von {total}"),
    N_("Vorschau – Python startet im Browser. Gleich kannst du klicken und ausprobieren."),
    N_("Gleich geht's los …"), N_("Gleich geht's los … ({n} von {total})"),
    N_("Szene – mit den Pfeiltasten ← → blättern"),
    N_("Verbindung verloren – Seite neu laden"),
    N_("Der Server antwortet nicht mehr, zum Beispiel nach einem Neustart. Klicks auf dieser "
       "Seite wirken erst nach dem Neuladen wieder."),
    N_("Seite neu laden"),
)
#: The server's own „Seite nicht gefunden“ (``404.html``): an address that is no page has
#: no language of its own, so the page says it in German and below in every other language.
NOT_FOUND_WORDS = {
    "heading": N_("Seite nicht gefunden"),
    "detail": N_("Unter dieser Adresse gibt es keine Seite. Vielleicht hat sich ein Tippfehler "
                 "eingeschlichen, oder das Kapitel heißt inzwischen anders."),
    "home": N_("Zur Startseite „{site}“"),
}
_URL = re.compile(r"^(https?://[^\s\"'<>]+|/[^\s\"'<>]*|mailto:[^\s\"'<>]+)$")


@dataclass(frozen=True)
class FooterLink:
    """One link in the footer of every page, e.g. „Impressum“ → ``https://…/impressum``."""

    text: str
    url: str


def parse_footer_link(spec: str) -> FooterLink:
    """``"Impressum=https://example.org/impressum"`` → a :class:`FooterLink`.

    Raises ``ValueError`` with a German message for anything else (no text, no ``=``,
    an address that is neither ``http(s)://``, ``mailto:`` nor a path starting with ``/``).
    """
    text, sep, url = spec.partition("=")
    text, url = text.strip(), url.strip()
    if not sep or not text:
        raise ValueError(f"„{spec}“: erwartet wird TEXT=ADRESSE, z. B. "
                         "„Impressum=https://example.org/impressum“.")
    if not _URL.match(url):
        raise ValueError(f"„{url}“ ist keine Adresse: erlaubt sind http://…, https://…, "
                         "mailto:… oder ein Pfad, der mit / beginnt.")
    return FooterLink(text, url)


def footer_env(links: Sequence[FooterLink]) -> dict[str, str]:
    """The environment entry that hands ``links`` to the Voilà process."""
    return {FOOTER_ENV: json.dumps([[link.text, link.url] for link in links])}


def footer_links(env: Mapping[str, str] | None = None) -> list[FooterLink]:
    """The footer links in ``env`` (default: this process's environment)."""
    raw = (os.environ if env is None else env).get(FOOTER_ENV, "")
    return [FooterLink(str(t), str(u)) for t, u in json.loads(raw)] if raw else []


def footer_html(links: Sequence[FooterLink]) -> str:
    """The ``<footer>`` of every page; empty without links."""
    if not links:
        return ""
    items = " · ".join(f'<a href="{escape(link.url)}">{escape(link.text)}</a>' for link in links)
    return f'<footer class="bt-footer" aria-label="Herausgeber">{items}</footer>'


def page_head() -> str:
    """The page-level ``<style>`` of every page (:data:`bohnteach.render.style.PAGE_CSS`)."""
    return f"<style>{PAGE_CSS}</style>"


def site_name(tr: Translator | None = None) -> str:
    """The site's name (:data:`SITE_NAME`) in the reader's language."""
    return tr.gettext(SITE_NAME) if tr is not None else SITE_NAME


def page_title(nb: Any, tr: Translator | None = None) -> str:
    """The browser tab's title: the notebook's first ``# `` heading and the site's name
    (``tr``: the page's language; a translated notebook's heading is already in it)."""
    name = site_name(tr)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        for line in ("".join(src) if isinstance(src, list) else src).splitlines():
            if line.startswith("# "):
                heading = line[2:].strip()
                return heading if heading == name else f"{heading} – {name}"
    return name


# ---- inside the Voilà process ----------------------------------------------------------------
def install() -> None:
    """Patch Voilà (in the serving process, before it starts) as the module docstring says."""
    _titles_and_footer_in_every_page()
    _root_and_unknown_addresses()


def install_static() -> None:
    """Patch Voici's exporter (in the process of ``voici build``) like Voilà's: titles,
    ``lang="de"``, the page stylesheet and the footer in every static page."""
    from bohnteach.upstream.jupyterlite import voici_exporter

    _titles_and_footer_in_every_page(*voici_exporter())


def _titles_and_footer_in_every_page(exporter: type | None = None,
                                     entry: str = "generate_from_notebook_node") -> None:
    """Every notebook gets ``metadata.title`` (nbconvert's ``<title>``) from its heading and
    ``lang="de"``; the template finds the page stylesheet and the footer in ``resources``.
    ``exporter``: Voilà's (default) or Voici's; ``entry``: its method that renders a notebook."""
    from bohnteach.upstream.voila import install_page_resources

    install_page_resources(page_title, {"bohnteach_footer": footer_html(footer_links()),
                                        "bohnteach_head": page_head(),
                                        "bohnteach_scripts": page_scripts(),
                                        "bohnteach_addresses": addresses_json(),
                                        "bohnteach_words": frame_words_json(),
                                        "bohnteach_languages": list(LANGUAGES.items())}, exporter, entry)


def page_scripts() -> dict[str, str]:
    """The scripts the template puts into every page, by name: the site's own
    (``bohnteach/site/js/page``) and those that reach into upstream's page
    (:func:`bohnteach.upstream.page_scripts`)."""
    from bohnteach.upstream import page_scripts as upstream_scripts

    own = {path.stem: path.read_text("utf-8") for path in sorted(PAGE_SCRIPTS.glob("*.js"))}
    return {**own, **upstream_scripts()}


def frame_words() -> dict[str, dict[str, str]]:
    """:data:`FRAME_WORDS` in every language but German: {lang: {German: translation}}."""
    from bohnteach.i18n import LANGUAGES, SOURCE, translator

    return {lang: {de: translator(lang).gettext(de) for de in FRAME_WORDS}
            for lang in LANGUAGES if lang != SOURCE}


def not_found_words() -> dict[str, dict[str, str]]:
    """:data:`NOT_FOUND_WORDS` in every language but German: {lang: {part: text}}."""
    from bohnteach.i18n import SOURCE, translator

    words = {}
    for lang in LANGUAGES:
        if lang != SOURCE:
            tr = translator(lang)
            words[lang] = {part: tr.gettext(text) for part, text in NOT_FOUND_WORDS.items()}
            words[lang]["home"] = words[lang]["home"].format(site=site_name(tr))
    return words


def frame_words_json() -> str:
    """:func:`frame_words` as the JSON the template hands to the page's scripts."""
    return json.dumps(frame_words(), ensure_ascii=False).replace("</", "<\\/")


def addresses_json() -> str:
    """The site's address scheme (:func:`bohnteach.site.addresses.page_config`) as the JSON
    the template hands to the page's scripts, safe inside ``<script>``."""
    return json.dumps(page_config(), ensure_ascii=False).replace("</", "<\\/")


def _root_and_unknown_addresses() -> None:
    """``/`` → the app; the tree, the contents API and unknown addresses → our 404."""
    from bohnteach.upstream.voila import install_site_routes

    install_site_routes(notebook_key(APP_PAGE), lambda: {
        "bohnteach_head": page_head(), "bohnteach_footer": footer_html(footer_links()),
        "bohnteach_not_found": not_found_words(), "bohnteach_lang_key": LANG_KEY})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the redirect becomes an HTTPError: an answer


#: An address no page has: the server answers it at once with its 404 page.
PROBE_PATH = "/voila/render/bohnteach-probe"


def site_answers(base_url: str, timeout: float = 2.0) -> bool:
    """True once the server at ``base_url`` answers at all (its 404 for :data:`PROBE_PATH`:
    the root renders the app, which on a busy machine takes longer than any sensible poll)."""
    try:
        urllib.request.build_opener(_NoRedirect).open(base_url + PROBE_PATH, timeout=timeout).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True
