"""The floor: the same deck drawn by a plain script that knows only PyYAML and a ReportLab
canvas, as someone would write it by hand. `make bench` runs it as a whole process beside
`pnp build PACK --only cards`, on the same pack folder:

    python bench/floor.py PACK OUT.pdf

It reads game.yaml and cards/*.yaml, and for every card (times its kit copies, as the kit
prints them) draws on a 3 x 3 A4 grid: a background in the set colour, a parchment panel, a
title bar with the name, a points badge, the art box, the type line, the statistics, the
rules text set with Paragraph and shrunk until it fits its box, the flavour and a collation
line; then the backs page, mirrored, with crop marks on both. No layout files, no checks.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import yaml
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Paragraph

W, H = 63.5 * mm, 88.9 * mm
TEXT_W, TEXT_H = W - 9.2 * mm, 24.2 * mm
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FONTS = {"Sans": "Vera.ttf", "Sans-Bold": "VeraBd.ttf", "Sans-Italic": "VeraIt.ttf", "Sans-BoldItalic": "VeraBI.ttf"}


def register() -> None:
    import reportlab
    folder = Path(reportlab.__file__).parent / "fonts"
    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    pdfmetrics.registerFontFamily("Sans", normal="Sans", bold="Sans-Bold", italic="Sans-Italic",
                                  boldItalic="Sans-BoldItalic")


def _markup(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"\*(.+?)\*", r"<i>\1</i>", text)
    text = re.sub(r":([a-z0-9-]+):", '<font color="#a31515">\u2022</font>', text)
    return text.replace("\n", "<br/>")


def load_cards(pack: Path) -> tuple[dict, list[dict]]:
    """game.yaml and every card, each repeated as many times as the kit prints it."""
    game = yaml.load((pack / "game.yaml").read_text(encoding="utf-8"), Loader=LOADER)
    types = game.get("card_types") or {}
    faces = []
    for path in sorted((pack / "cards").glob("*.yaml")):
        for card in yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER).get("cards") or []:
            copies = card.get("copies", (types.get(card["type"]) or {}).get("kit_copies", 1))
            if not isinstance(copies, int):  # `kit_copies: table`: bench/bigpack.py writes each card's
                raise SystemExit(f"floor: {card['id']} states no copies (kit_copies: {copies})")
            faces.extend([card] * copies)
    return game, faces


def _hexagon(c, cx, cy, r):
    p = c.beginPath()
    for i in range(6):
        a = math.radians(60 * i + 30)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    p.close()
    c.drawPath(p, fill=1, stroke=1)


def _slots():
    x0 = (A4[0] - 3 * W - 2 * 2 * mm) / 2
    y0 = (A4[1] - 3 * H - 2 * 2 * mm) / 2
    return [(x0 + c * (W + 2 * mm), y0 + (2 - r) * (H + 2 * mm)) for r in range(3) for c in range(3)]


def _marks(c, slots):
    c.setLineWidth(0.25)
    xs = sorted({x for x, _ in slots} | {x + W for x, _ in slots})
    ys = sorted({y for _, y in slots} | {y + H for _, y in slots})
    top, bottom = max(ys) + 2 * mm, min(ys) - 2 * mm
    left, right = min(xs) - 2 * mm, max(xs) + 2 * mm
    for x in xs:
        c.line(x, top, x, top + 4 * mm)
        c.line(x, bottom, x, bottom - 4 * mm)
    for y in ys:
        c.line(left, y, left - 4 * mm, y)
        c.line(right, y, right + 4 * mm, y)


def _fitted(text: str) -> Paragraph:
    """The rules text at the largest size (8 pt down to 5 pt, in 0.5 pt steps) that fits its box."""
    size = 8.0
    while True:
        p = Paragraph(text, ParagraphStyle("t", fontName="Sans", fontSize=size, leading=size * 1.18))
        _w, h = p.wrap(TEXT_W, TEXT_H)
        if h <= TEXT_H or size <= 5:
            return p
        size -= 0.5


def _front(c, game, card, x, y, n, total):
    sets = game["sets"]
    color = HexColor(sets[card["set"]]["color"])
    c.setFillColor(color)
    c.rect(x - 1 * mm, y - 1 * mm, W + 2 * mm, H + 2 * mm, fill=1, stroke=0)
    c.setFillColor(HexColor("#f8f4ea"))
    c.roundRect(x + 2.2 * mm, y + 2.2 * mm, W - 4.4 * mm, H - 4.4 * mm, 2.2 * mm, fill=1, stroke=0)
    c.setFillColor(color)
    c.roundRect(x + 2.2 * mm, y + H - 11.4 * mm, W - 4.4 * mm, 9.2 * mm, 2.2 * mm, fill=1, stroke=0)
    c.setStrokeColor(HexColor("#d8d0bd"))
    c.setFillColor(HexColor("#ffffff"))
    c.roundRect(x + 3.4 * mm, y + 11 * mm, W - 6.8 * mm, 26.2 * mm, 1.2 * mm, fill=1, stroke=1)
    c.line(x + 3.4 * mm, y + 43.6 * mm, x + W - 3.4 * mm, y + 43.6 * mm)
    c.setFont("Sans-Bold", 10.5)
    c.drawString(x + 4 * mm, y + H - 8 * mm, card["name"])
    if card.get("points"):
        c.setFillColor(HexColor("#f3d57a"))
        c.roundRect(x + 51.2 * mm, y + H - 10.6 * mm, 9 * mm, 7.6 * mm, 3.8 * mm, fill=1, stroke=1)
        c.setFillColor(HexColor("#222222"))
        c.drawCentredString(x + 55.7 * mm, y + H - 8 * mm, str(card["points"]))
    c.setFillColor(HexColor("#ece5d3"))
    c.roundRect(x + 3.4 * mm, y + 48.1 * mm, W - 6.8 * mm, 28.4 * mm, 1.2 * mm, fill=1, stroke=0)
    c.setFillColor(HexColor("#c9c2b4"))
    c.circle(x + W / 2, y + 62 * mm, 8 * mm, fill=1, stroke=0)
    for q, r in (card.get("size") or [])[:12]:
        _hexagon(c, x + (50 + 3 * q + 1.5 * r) * mm, y + (60 - 2.6 * r) * mm, 1.5 * mm)
    c.setFillColor(HexColor("#222222"))
    c.setFont("Sans-Italic", 7.5)
    c.drawString(x + 4 * mm, y + 45 * mm, f"{game['card_types'][card['type']]['name']} — {card.get('set', '')}")
    stats = list((card.get("stats") or card.get("bonus") or {}).values())
    c.setFont("Sans-Bold", 8.5)
    step = (W - 6.8 * mm) / max(1, len(stats))
    for i, value in enumerate(stats):
        c.circle(x + 6 * mm + i * step, y + 40.4 * mm, 1.8 * mm, fill=1, stroke=0)
        c.drawString(x + 8.5 * mm + i * step, y + 39.5 * mm, str(value))
    p = _fitted(_markup(str(card.get("text", ""))))
    _w, h = p.wrap(TEXT_W, TEXT_H)
    p.drawOn(c, x + 4.6 * mm, y + 36 * mm - h)
    c.setFont("Sans-Italic", 6.5)
    c.drawCentredString(x + W / 2, y + 8 * mm, str(card.get("flavour", ""))[:90])
    c.setFont("Sans", 4.6)
    c.drawCentredString(x + W / 2, y + 4 * mm, f"{n}/{total} · {game['name']} {game['version']} · {card['id']}")


def _back(c, game, card, x, y):
    s = game["sets"][card["set"]]
    c.setFillColor(HexColor(s["color"]))
    c.rect(x - 1 * mm, y - 1 * mm, W + 2 * mm, H + 2 * mm, fill=1, stroke=0)
    c.setStrokeColor(HexColor("#ffffff"))
    c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 3 * mm, fill=0, stroke=1)
    c.roundRect(x + 5 * mm, y + 5 * mm, W - 10 * mm, H - 10 * mm, 2.2 * mm, fill=0, stroke=1)
    c.setFillColor(HexColor("#ffffff"))
    c.circle(x + W / 2, y + H / 2, 15 * mm, fill=1, stroke=0)
    c.setFont("Sans-Bold", 14)
    c.drawCentredString(x + W / 2, y + H - 14 * mm, game["name"])
    c.setFont("Sans-Bold", 11)
    c.drawCentredString(x + W / 2, y + 25 * mm, s["name"])
    c.setFont("Sans-Italic", 9)
    c.drawCentredString(x + W / 2, y + 19 * mm, game["card_types"][card["type"]]["name"])


def draw_floor(game: dict, cards: list[dict], out) -> None:
    register()
    c = rl_canvas.Canvas(str(out), pagesize=A4, invariant=1)
    slots = _slots()
    total = len(cards)
    for start in range(0, len(cards), 9):
        chunk = cards[start:start + 9]
        for n, (card, (x, y)) in enumerate(zip(chunk, slots), start + 1):
            _front(c, game, card, x, y, n, total)
        _marks(c, slots[:len(chunk)])
        c.showPage()
        for card, (x, y) in zip(chunk, slots):
            _back(c, game, card, A4[0] - x - W, y)
        _marks(c, slots[:len(chunk)])
        c.showPage()
    c.save()


if __name__ == "__main__":
    game, cards = load_cards(Path(sys.argv[1]))
    draw_floor(game, cards, Path(sys.argv[2]))
