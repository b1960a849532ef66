"""Write the HTML of a few table states to /tmp/bt_gallery and screenshot them.

    python tests/visual/render_gallery.py            # HTML + PNGs (1200 px and 390 px)

Not a test: a way to look at the views as a user would.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import bohnteach as b
from bohnteach.render.table import (
    changed_cards, changed_zones, render_error, render_refusal, render_success, render_table,
)
from bohnteach.game.state import CardInfo

OUT = Path("/tmp/bt_gallery")


def page(body: str) -> str:
    return ('<!doctype html><html lang="de"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'</head><body style="margin:8px;background:#fff">{body}</body></html>')


def states() -> dict[str, str]:
    out: dict[str, str] = {}
    s = b.new_game("amigo", ["Anna", "Ben", "Clara <b>"], seed=3)
    out["01_start"] = render_table(s)
    before = s.copy()
    b.apply(s, b.Plant(0, 0))
    b.apply(s, b.Plant(0, 1))
    out["02_trade"] = render_table(s, highlight=changed_cards(before, s) | changed_zones(before, s),
                                   perspective=0)
    g = b.Game(b.new_game("amigo", 4, seed=7))
    # play a while with the first legal non-offer action, harvesting never
    import random
    rnd = random.Random(1)
    for _ in range(60):
        acts = [a for a in b.legal_actions(g.state, offers=False) if not isinstance(a, b.Harvest)]
        if not acts:
            acts = b.legal_actions(g.state, offers=False)
        g.apply(rnd.choice(acts))
    prev = g.state_at(len(g.log) - 1)
    out["03_midgame"] = render_table(g.state, highlight=changed_cards(prev, g.state) | changed_zones(prev, g.state))
    # an offer
    s = g.state.copy()
    while s.phase is not b.Phase.TRADE:
        b.apply(s, [a for a in b.legal_actions(s, offers=False) if not isinstance(a, b.Harvest)][0])
    give = s.revealed[0] if s.revealed else s.players[s.active].hand[0]
    other = (s.active + 1) % 4
    b.apply(s, b.Offer(s.active, other, (give,), (s.players[other].hand[2],)))
    out["04_offer"] = render_table(s, perspective=s.active)
    # game over
    g2 = b.Game(b.new_game("amigo", 3, seed=2))
    while g2.state.phase is not b.Phase.OVER:
        acts = b.legal_actions(g2.state, offers=False)
        harv = [a for a in acts if isinstance(a, b.Harvest)]
        rest = [a for a in acts if not isinstance(a, b.Harvest)]
        g2.apply(rnd.choice(rest) if rest and rnd.random() < 0.8 or not harv else rnd.choice(harv))
    out["05_over"] = render_table(g2.state)
    # sexes and a meter assumption (a made-up Ladybohn-like state)
    s = b.new_game("amigo", 3, seed=5)
    sexes = ["m", "w", "B"]
    s.cards = tuple(CardInfo(c.id, c.variety, sexes[c.id % 3]) for c in s.cards)
    s.ruleset = dataclasses.replace(
        s.ruleset, meter_assumption="Die Bohnometer der Weibchen sind angenommen (eine Karte günstiger je Stufe).")
    blue = [c for c in range(len(s.cards)) if s.variety[c] == "blue" and c in s.deck][:5]
    for c in blue:
        s.deck.remove(c)
    s.players[0].fields[0] = blue
    out["06_sexes"] = render_table(s)
    try:  # the real Ladybohn rule set, if present: a few turns played
        g3 = b.Game(b.new_game("ladybohn", 4, seed=4))
        for _ in range(14):
            acts = b.legal_actions(g3.state, offers=False)
            calm = [a for a in acts if not isinstance(a, b.Harvest)]
            g3.apply((calm or acts)[0])
        out["08_ladybohn"] = render_table(g3.state, perspective=1)
    except ValueError:
        pass
    v = b.check(b.new_game("amigo", 3, seed=3), b.Plant(0, 0, b.new_game("amigo", 3, seed=3).players[0].hand[1]))
    out["07_boxes"] = render_refusal(v) + "<br>" + render_error("Die Szene konnte nicht geladen werden.") + "<br>" + render_success("Du hast die vorderste Karte gepflanzt.", ["p1.plant-front"])
    return out


def shoot(name: str, width: int) -> Path:
    png = OUT / f"{name}_{width}.png"
    subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--screenshot={png}", f"--window-size={width},{1400 if width > 500 else 2400}",
         f"file://{OUT / (name + '.html')}"],
        check=True, capture_output=True, timeout=60,
    )
    if width < 500:
        _split(png)
    return png


def _split(png: Path, height: int = 800) -> None:
    """Phone shots: also cut into 390x800 parts (readable in an image viewer); needs pillow."""
    try:
        from PIL import Image
    except ImportError:
        return
    image = Image.open(png)
    for k, top in enumerate(range(0, image.height, height)):
        part = image.crop((0, top, image.width, min(image.height, top + height)))
        if part.convert("L").getextrema()[0] < 250:  # skip blank white parts
            part.save(png.with_name(f"{png.stem}_part{k + 1}.png"))


def main(argv: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    only = set(argv)
    for name, html in states().items():
        if only and name not in only:
            continue
        (OUT / f"{name}.html").write_text(page(html), encoding="utf-8")
        for width in (1200, 390):
            print(shoot(name, width))


if __name__ == "__main__":
    main(sys.argv[1:])
