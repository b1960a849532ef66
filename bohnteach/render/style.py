"""The one stylesheet of the HTML views (prefix ``bt-``) and card colour helpers.

Everything is scoped under the root class ``bt`` so the site's own styles and ours never
mix. Cards are readable on a phone: flex-wrap everywhere, no width beyond ~320 px.
A list of ours (the phase bar) names two classes under ``.bt``: JupyterLab's output styles
(``.jp-RenderedHTMLCommon ol:not(.list-inline)``, two classes and an element) would
otherwise number its pills.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

CSS = """
.bt{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
 color:#1f2328;font-size:14px;line-height:1.35;box-sizing:border-box;max-width:100%}
.bt *,.bt *::before,.bt *::after{box-sizing:border-box}
.bt-table{background:#f6f4ee;border:1px solid #d9d4c7;border-radius:12px;padding:10px;
 display:flex;flex-direction:column;gap:10px}
.bt-top{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center}
.bt-turn{font-weight:600}
.bt .bt-phases.bt-phases{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:0;padding:0}
.bt .bt-phases>li.bt-phase{list-style:none;margin:0}
.bt-phase{border:1px solid #c9c2b2;border-radius:999px;padding:2px 10px;color:#5c5648;
 background:#fff;font-size:13px;white-space:nowrap}
.bt-phase b{margin-right:4px}
.bt-phase.bt-on{background:#1f5f8b;border-color:#1f5f8b;color:#fff;font-weight:600}
.bt-note{background:#fff8e1;border:1px dashed #b58900;border-radius:8px;padding:6px 10px;
 font-size:13px}
.bt-over{background:#eef7ee;border:2px solid #2e7d32;border-radius:10px;padding:8px 12px}
.bt-over h4{margin:0 0 4px 0;font-size:16px}
.bt-over ol{margin:0;padding-left:22px}
.bt-win{font-weight:700}
.bt-middle{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}
.bt-players{display:grid;gap:10px;align-items:start;
 grid-template-columns:repeat(auto-fill,minmax(min(100%,330px),1fr))}
.bt-player{min-width:0;background:#fff;border:1px solid #d9d4c7;
 border-radius:10px;padding:8px;display:flex;flex-direction:column;gap:8px}
.bt-player.bt-active{border:2px solid #1f5f8b;box-shadow:0 0 0 3px #d5e6f3}
.bt-phead{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center}
.bt-name{font-weight:700;font-size:16px;overflow-wrap:anywhere}
.bt-badge{font-size:12px;border-radius:999px;padding:1px 8px;background:#ece8de;
 color:#3d3a33;white-space:nowrap}
.bt-badge.bt-act{background:#1f5f8b;color:#fff}
.bt-badge.bt-start{background:#fff;border:1px solid #8a6d1f;color:#6b5416}
.bt-badge.bt-you{background:#2e7d32;color:#fff}
.bt-coins{margin-left:auto;display:inline-flex;flex-wrap:wrap;align-items:center;gap:5px;font-weight:600;
 white-space:nowrap;border-radius:8px;padding:1px 4px}
.bt-coin{display:inline-block;width:18px;height:18px;border-radius:50%;background:#e0b73a;
 border:2px solid #a67c00;box-shadow:inset 0 0 0 2px #f3d774}
.bt-zone{border-radius:8px;padding:4px;min-width:0}
.bt-zt{font-size:12px;color:#5c5648;margin:0 0 6px 0}
.bt-zt b{color:#1f2328}
.bt-row{display:flex;flex-wrap:wrap;gap:5px;align-items:flex-start}
.bt-fields{display:flex;flex-wrap:wrap;gap:8px}
.bt-field{flex:1 1 88px;max-width:160px;min-width:88px;background:#efe6d2;
 border:1px solid #d3c4a1;border-radius:8px;padding:5px;display:flex;flex-direction:column;
 gap:4px;align-items:stretch}
.bt-field .bt-zt{margin:0}
.bt-stack{display:flex;flex-direction:column;align-items:center;min-height:92px;
 justify-content:flex-start}
.bt-stack .bt-under{margin-bottom:-75px}
.bt-empty{width:76px;height:92px;border:2px dashed #c2b38f;border-radius:8px;color:#5f5440;
 display:flex;align-items:center;justify-content:center;font-size:12px;margin:0 auto}
.bt-card{position:relative;width:76px;height:92px;border-radius:8px;padding:3px 4px;
 border:1px solid rgba(0,0,0,.35);box-shadow:0 1px 2px rgba(0,0,0,.25);display:flex;
 flex-direction:column;gap:2px;flex:0 0 auto}
.bt-cn{font-family:"Arial Narrow","Roboto Condensed","Liberation Sans Narrow",
 "Helvetica Neue",Arial,"Liberation Sans",sans-serif;font-size:12px;font-weight:700;
 line-height:1.15;overflow-wrap:normal}
.bt-under .bt-cn{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:11px}
.bt-sx{display:none;font-style:normal;margin-right:3px;border-radius:3px;padding:0 2px;
 background:rgba(255,255,255,.9);color:#111}
.bt-under .bt-sx{display:inline}
.bt-trait{font-size:11px;font-weight:600;display:inline-flex;gap:2px;align-items:center}
.bt-trait i{font-style:normal;display:inline-block;min-width:14px;text-align:center;
 border-radius:4px;background:rgba(255,255,255,.85);color:#111;padding:0 2px}
.bt-tag{font-size:10px;font-weight:700;border-radius:4px;padding:0 4px;background:#fff;
 color:#111;border:1px solid #111;align-self:flex-start;margin-top:auto}
.bt-quer{width:92px;height:58px}
.bt-back{background:repeating-linear-gradient(45deg,#6b4f2a 0 6px,#7d5e34 6px 12px);
 color:#fff;align-items:center;justify-content:center}
.bt-back span{font-size:11px;font-weight:700;background:rgba(0,0,0,.35);border-radius:4px;
 padding:0 4px}
.bt-hidden .bt-card{margin-right:-52px}
.bt-hidden .bt-card:last-child{margin-right:0}
.bt-front{outline:3px solid #111;outline-offset:1px}
.bt-pile{display:flex;flex-direction:column;gap:3px;align-items:flex-start}
.bt-pile-info{font-size:12px;display:flex;flex-direction:column}
.bt-center{background:#fff;border:1px solid #d9d4c7;border-radius:10px;padding:6px 8px;
 flex:0 1 auto;min-width:0}
.bt-offer{background:#eef4fb;border-color:#1f5f8b}
.bt-offer-side{display:flex;flex-direction:column;gap:2px}
.bt-traithidden .bt-trait i{background:#fff;border:1px dashed #111}
.bt-order{overflow-wrap:anywhere}
.bt-order i{font-style:normal;font-weight:700}
.bt-waiting{background:#fdf3e7;border:2px solid #ef6c00}
.bt-ezone{background:#f7f3ea;border:1px solid #d9d4c7}
.bt-table-zone{flex:1 1 300px;max-width:100%}
.bt-tzs{display:flex;flex-wrap:wrap;gap:6px}
.bt-tz{flex:0 1 auto;min-width:0;border:1px dashed #c2b38f;border-radius:8px;padding:4px}
.bt-blocked{background:#fbe9ec;border:2px solid #ad1457}
.bt-meter{display:flex;flex-wrap:wrap;gap:3px;align-items:center;font-size:11px}
.bt-meter .bt-ml{color:#5c5648;width:100%}
.bt-step{border:1px solid #b9ad8e;border-radius:4px;padding:0 4px;background:#fffdf6;
 white-space:nowrap}
.bt-step.bt-got{background:#2e7d32;border-color:#2e7d32;color:#fff;font-weight:700}
.bt-next{font-size:11px;color:#3d3a33}
.bt-assumed{color:#8a6d00;font-style:italic}
.bt-finfo{font-size:12px;font-weight:600;overflow-wrap:break-word;hyphens:manual}
.bt-changed{outline:3px solid #d81b60;outline-offset:2px}
.bt-zchanged{outline:2px dashed #d81b60;outline-offset:1px}
.bt-card.bt-changed::after{content:attr(data-new);position:absolute;top:-10px;right:-8px;z-index:1;
 background:#d81b60;color:#fff;font-size:10px;font-weight:700;border-radius:999px;
 padding:0 5px;line-height:16px}
.bt-box{border-radius:10px;padding:10px 12px;border:2px solid;display:flex;
 flex-direction:column;gap:5px}
.bt-box h4{margin:0;font-size:16px;display:flex;gap:6px;align-items:flex-start}
.bt-icon{display:inline-flex;flex:0 0 auto;width:22px;height:22px;border-radius:50%;
 background:#c62828;color:#fff;align-items:center;justify-content:center;font-size:13px}
.bt-box p{margin:0}
.bt-refusal{background:#fdecea;border-color:#c62828}
.bt-refusal h4{color:#8e1b1b}
.bt-error{background:#fff4e5;border-color:#ef6c00}
.bt-error h4{color:#8a3d00}
.bt-success{background:#e8f5e9;border-color:#2e7d32}
.bt-success h4{color:#1b5e20}
.bt-info{background:#eef4fb;border-color:#1f5f8b}
.bt-detail{font-weight:600}
.bt-ausl{font-size:13px;color:#3d3a33;border-left:3px solid #b58900;padding-left:8px}
.bt-chips{display:flex;flex-wrap:wrap;gap:5px}
.bt-chip{font-size:12px;border-radius:10px;padding:1px 9px;background:#fff;
 border:1px solid #8a8574;color:#1f2328;overflow-wrap:anywhere}
.bt-chip.bt-rule{border-color:#1f5f8b;color:#12405f}
.bt-chip .bt-rid{font-size:9px;color:#6b6557;margin-left:6px;font-weight:400;letter-spacing:.02em}
@media (max-width:600px){.bt-chip .bt-rid{display:none}}
.bt-chip.bt-src{color:#4a463c}
.bt-narr{font-size:16px;line-height:1.45;margin:0}
.bt-scene-nav{position:sticky;bottom:0;z-index:5;background:#f6f4ee;border-top:2px solid #1f5f8b;
 border-radius:8px 8px 0 0;padding:4px 2px;overflow:visible}
body.bt-projector .bt-scene-nav{bottom:56px}
.bt-scene-nav .bt-scene-line{flex:1 1 280px;min-width:0;width:auto;height:auto;margin:0}
.bt-scene-line p{margin:0;padding:2px 6px;font-size:13.5px;line-height:1.35;max-height:8.3em;
 overflow-y:auto;overflow-wrap:anywhere;white-space:normal}
@media (max-width:700px){
 .bt-scene-nav{max-height:15vh;flex-wrap:wrap;row-gap:2px;box-sizing:border-box}
 .bt-scene-nav>.jupyter-button,.bt-scene-nav>.widget-html:not(.bt-scene-line){flex:0 1 auto;min-width:0}
 .bt-scene-nav .bt-scene-line{order:-1;flex-basis:100%}
 .bt-scene-line p{max-height:min(5.2em,calc(15vh - 48px));padding:0 6px;font-size:13px;line-height:1.3;
  animation:bt-more-below linear both;animation-timeline:scroll(self block)}
 .bt-scene-line b{display:none}
}
"""

BOARD_CSS = """
.bt-board{background:#fff;border:2px solid #1f5f8b;border-radius:10px;padding:8px;gap:8px;
 box-shadow:0 0 0 3px #d5e6f3}
.bt-board .widget-hbox,.bt-board .widget-vbox{gap:6px;overflow:visible}
.bt-tryit,.bt-probespiel{overflow-anchor:none}
.bt-board-row{align-items:flex-start}
.bt-board-row>.bt-answer{flex:1 1 300px;min-width:0}
.bt-board .widget-html,.bt-board .widget-html-content{margin:0;min-width:0;line-height:1.35;height:auto}
.bt-board .jupyter-button{height:auto;min-height:40px;white-space:normal;line-height:1.2;
 padding:4px 8px;margin:0}
.bt-board .jupyter-button:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.bt-pickgroup{border:1px dashed #c2b38f;border-radius:8px;padding:4px 6px}
.bt-board .jupyter-button.bt-pick{width:98px;min-height:72px;border:1px solid rgba(0,0,0,.45);
 border-radius:8px;font-size:12px;font-weight:700;box-shadow:0 1px 2px rgba(0,0,0,.25);
 text-align:left;align-items:flex-start;justify-content:flex-start}
.bt-board .jupyter-button.bt-pick.bt-new{outline:3px solid #d81b60;outline-offset:2px}
.bt-board .jupyter-button.bt-pick.bt-picked{outline:4px solid #111;outline-offset:2px;
 transform:translateY(-4px);box-shadow:0 6px 10px rgba(0,0,0,.35)}
.bt-board .jupyter-button.bt-pick.bt-playable{border:3px solid #1b5e20}
.bt-bfield{flex:1 1 96px;max-width:180px;min-width:94px;border:2px solid transparent;
 border-radius:10px;padding:2px}
.bt-bfield .bt-field{max-width:none;min-width:0}
.bt-fieldrow{flex:0 1 auto;align-items:flex-start}
.bt-bfield.bt-target{border:3px dashed #2e7d32;background:#e8f5e9}
.bt-board .jupyter-button.bt-target{outline:3px solid #1b5e20;outline-offset:2px}
.bt-hier{font-size:12px;font-weight:700;color:#1b5e20}
.bt-pickstatus{font-size:13px;color:#1f2328}
"""
"""Widgets with a board (Mach du!, the trial game: the learner's own place as buttons)."""


def board_style(varieties: Iterable[str]) -> str:
    """``BOARD_CSS`` (unless the page holds it) and a colour class for each of ``varieties``
    (``bt-v-<key>``: its colour, readable text) for the card-shaped buttons, as ``<style>``."""
    from bohnteach.game.beans import find_variety

    colours = "".join(
        f".bt-board .jupyter-button.bt-v-{v.key}{{background:{v.colour};color:{text_colour(v.colour)}}}"
        for v in sorted({find_variety(k) for k in varieties}, key=lambda v: v.key))
    return f"{style_block(BOARD_CSS)}<style>{colours}</style>"


#: Backgrounds of ipywidgets' button styles with white text at WCAG AA (≥ 4.5:1); the stock
#: colours reach 2.2:1 (warning, orange) to 3.7:1 (danger).
BUTTON_COLOURS = {
    "primary": "#1f5f8b", "success": "#2e7d32", "info": "#0b6385", "warning": "#a64b00",
    "danger": "#c62828",
}

PAGE_CSS = "".join(
    f"body .jupyter-button.mod-{name},body .jupyter-button.mod-{name}:hover:enabled"
    f"{{background-color:{colour};color:#fff}}\n"
    for name, colour in BUTTON_COLOURS.items()
) + """
body .jupyter-button:disabled:not(.bt-pick),body .jupyter-button:disabled:not(.bt-pick):hover,
body .jupyter-widgets select:disabled,body .jupyter-widgets input:disabled,
body .jupyter-widgets textarea:disabled{opacity:1;background:#f4f2ec;color:#5c5648;
 border:1px dashed #8a8574;box-shadow:none;cursor:not-allowed}
body .jupyter-button.bt-pick:disabled{opacity:1;cursor:default}
body .widget-radio-box label{height:auto;min-height:var(--jp-widgets-radio-item-height);
 line-height:1.35;display:flex;flex-direction:row-reverse;justify-content:flex-end;
 align-items:flex-start;padding:2px 0;white-space:normal;overflow-wrap:anywhere}
body .widget-radio-box input{flex:0 0 auto;float:none;height:auto;margin:3px 8px 0 1px}
.bt-footer{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
 font-size:14px;color:#3d3a33;border-top:1px solid #d9d4c7;margin:24px auto 8px;
 padding:10px 12px;max-width:1200px;display:flex;flex-wrap:wrap;gap:4px 8px}
.bt-footer a{color:#1f5f8b}
.bt-errorpage{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
 color:#1f2328;background:#f6f4ee;margin:0;padding:24px 16px;line-height:1.5}
.bt-errorpage main{max-width:40em;margin:0 auto;background:#fff;border:1px solid #d9d4c7;
 border-radius:12px;padding:16px 20px}
.bt-errorpage h1{font-size:26px;margin:0 0 8px}
.bt-errorpage a{color:#1f5f8b;font-weight:600}
.jp-RenderedHTMLCommon p a,.jp-RenderedHTMLCommon li a{text-decoration:underline !important}
.bt-stick-out{overflow:visible!important}
.bt-scroll-x{overflow-x:auto;overscroll-behavior-x:contain;
 animation:bt-more-right linear both;animation-timeline:scroll(self inline)}
@keyframes bt-more-right{0%,96%{-webkit-mask-image:linear-gradient(to right,#000 calc(100% - 36px),
 rgba(0,0,0,.2));mask-image:linear-gradient(to right,#000 calc(100% - 36px),rgba(0,0,0,.2))}
 100%{-webkit-mask-image:none;mask-image:none}}
@keyframes bt-more-below{0%,96%{-webkit-mask-image:linear-gradient(#000 calc(100% - 1.2em),
 rgba(0,0,0,.25));mask-image:linear-gradient(#000 calc(100% - 1.2em),rgba(0,0,0,.25))}
 100%{-webkit-mask-image:none;mask-image:none}}
.bt-scroll-x::-webkit-scrollbar{height:10px}
.bt-scroll-x::-webkit-scrollbar-thumb{background:#8a8574;border-radius:5px}
.bt-scroll-x::-webkit-scrollbar-track{background:#ece8dc;border-radius:5px}
@media (max-width:600px){
 .jupyter-widgets.widget-dropdown,.jupyter-widgets.widget-hslider,.jupyter-widgets.widget-text,
 .jupyter-widgets.widget-inttext,.jupyter-widgets.widget-floattext{max-width:100%;flex-wrap:wrap;
  height:auto}
 .widget-dropdown>.widget-label,.widget-hslider>.widget-label,.widget-text>.widget-label,
 .widget-inttext>.widget-label,.widget-floattext>.widget-label{max-width:100%}
 .widget-dropdown>select,.widget-hslider>.slider-container{min-width:0;flex:1 1 8em;max-width:100%}
}
.bt-pagebar{position:fixed;top:6px;right:8px;z-index:1000;display:flex;gap:6px;align-items:stretch}
.bt-viewbar{display:flex;gap:6px}
.bt-lang{display:flex;align-items:center;gap:2px;padding:0 4px;background:#fffdf6;border:2px solid #1f5f8b;
 border-radius:8px;font:600 14px system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
.bt-lang a{color:#1f5f8b;text-decoration:none;padding:2px 6px;border-radius:5px}
.bt-lang a:hover{text-decoration:underline}
.bt-lang a[aria-current]{color:#fff;background:#1f5f8b}
.bt-lang a:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.bt-lang-sep{color:#5c5648}
.bt-pagebar button,.bt-slidebar button{font:600 14px system-ui,-apple-system,"Segoe UI",Roboto,
 "Noto Sans",sans-serif;color:#fff;background:#1f5f8b;border:2px solid #1f5f8b;border-radius:8px;
 padding:4px 10px;cursor:pointer}
.bt-pagebar button[aria-pressed="true"]{background:#fff;color:#12405f}
.bt-pagebar button:focus-visible,.bt-slidebar button:focus-visible{outline:3px solid #b35c00;
 outline-offset:2px}
.bt-slidebar{display:none}
body.bt-projector #rendered_cells{padding-top:44px;padding-bottom:70px}
body.bt-projector #rendered_cells [cell-index]{zoom:1.4}
body.bt-projector .bt-slide-off{display:none!important}
body.bt-projector .bt-slidebar{display:flex;position:fixed;bottom:0;left:0;right:0;z-index:1000;
 justify-content:center;align-items:center;gap:16px;padding:8px;background:#f6f4ee;
 border-top:2px solid #1f5f8b;font:600 18px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
 color:#1f2328}
body.bt-projector .bt-slidebar button,body.bt-projector .bt-pagebar button{font-size:18px}
@media print{
 html,body,#main,#jp-main-content-panel,#rendered_cells,#rendered_cells>div,.jp-Cell,
 .jp-OutputArea,.jp-OutputArea-child,.jp-OutputArea-output,.lm-Widget{height:auto!important;
 max-height:none!important;overflow:visible!important;contain:none!important}
 #main,#jp-main-content-panel,#rendered_cells{position:static!important;width:auto!important}
 body{background:#fff!important}
 body.bt-projector #rendered_cells [cell-index]{zoom:1}
 body.bt-projector .bt-slide-off{display:revert!important}
 #loading,.bt-pagebar,.bt-slidebar,.modebar-container,.jupyter-button,.widget-button,
 .widget-toggle-button,.bt-nav,.bt-exercise .bt-q-correct,.bt-exercise .bt-q-wrong,
 .bt-exercise .bt-q-invalid,.bt-exercise .bt-q-solution,.bt-pickstatus{display:none!important}
 .bt-board .jupyter-button.bt-pick{display:inline-flex!important;print-color-adjust:exact;
  -webkit-print-color-adjust:exact}
 .bt-exercise .widget-text,.bt-estimate .widget-text{border-bottom:1px solid #000;min-width:14em}
 .bt-exercise input[type=text],.bt-estimate input{visibility:hidden}
 .bt-exercise input[type=radio]{appearance:none;width:12px;height:12px;border:1px solid #000;
  border-radius:50%;background:#fff!important}
 .jupyter-widgets select,.jupyter-widgets input[type=number],.jupyter-widgets input[type=text],
 .widget-readout{appearance:none;border:0!important;background:none!important;box-shadow:none;
  padding:0 2px;color:#000!important;font-weight:600;opacity:1}
 .widget-slider .slider-container,.bt-scene-line{display:none!important}
 .jp-OutputArea-child{break-inside:auto!important}
 .bt-exercise,.bt-player,.bt-zone,.bt-box,.bt-table>.bt-row,.js-plotly-plot,tr,figure,
 .bt-scene-toc,.bt-chapter{break-inside:avoid}
 thead{display:table-header-group}
 .bt-chapter-scenes,.bt-chapter-scenes>.lm-Widget,.bt-scene-player,
 .bt-scene-player>.lm-Widget{display:block!important}
 .bt-scene-player>.lm-Widget.bt-scene-nav,.bt-scene-nav{display:none!important}
 .js-plotly-plot{zoom:var(--bt-print-zoom,1)}
 h1,h2,h3,h4,.bt-scene-number,.bt-scene-number+*,.bt-scene-player h3{break-after:avoid}
 a{color:#000!important}
}
"""
"""Page-level rules (the whole Voilà page, not one fragment): footer, error pages, disabled
controls that look disabled (grey, dashed frame, no pointer; text at WCAG AA – the cards of a
board keep their colour, they show the hand), answer options that wrap inside their own row
(ipywidgets draws each 20 px high), the page bar (projector mode), the print stylesheet (no
buttons, but the cards on a board – they show the learner's hand –, blank answers, every
other control's value as plain text, no slider track), and visible
overflow (``bt-stick-out``, set by the page's script) on every box around a scene player's
control bar, which sticks to the bottom of the screen: ``position: sticky`` needs every
box between it and the page's scroller to let it out."""


_ON_PAGE: set[str] = set()
"""The stylesheets the page's header holds (:func:`page_style`); empty in a fresh kernel."""


def new_page() -> None:
    """A new page begins in the same kernel (the app shows another chapter): its header
    carries the stylesheets again (:func:`page_style`)."""
    _ON_PAGE.clear()


def style_block(css: str = CSS) -> str:
    """The ``<style>`` element of ``css`` that a rendered fragment carries, so that it is
    self-contained HTML — empty once the page's header holds that sheet (:func:`page_style`)."""
    return "" if css in _ON_PAGE else f"<style>{css}</style>"


def page_style(*sheets: str) -> str:
    """The fragments' stylesheets (``CSS``, ``BOARD_CSS``) and ``sheets`` once for the whole
    page; fragments rendered after it leave theirs out. Every page of the site begins with it
    (``pages.page_header``, which adds the site's own sheet): otherwise every HTML widget sends
    the same kilobytes again, and the page's widget state, which a visit waits for, grows."""
    every = (CSS, BOARD_CSS, *sheets)
    _ON_PAGE.update(every)
    return f"<style>{''.join(every)}</style>"


def _channel(c: int) -> float:
    x = c / 255
    return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """Relative luminance (WCAG) of ``#rrggbb``."""
    h = colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


@lru_cache(maxsize=None)
def text_colour(background: str) -> str:
    """Black or white, whichever contrasts more with ``background``."""
    lum = luminance(background)
    on_white = 1.05 / (lum + 0.05)
    on_black = (lum + 0.05) / 0.05
    return "#ffffff" if on_white >= on_black else "#111111"


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
