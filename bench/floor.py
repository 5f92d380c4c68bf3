"""The floor: the same card elements drawn with nothing but a ReportLab canvas and
Paragraph, as a hand-written script would, on the same 3 × 3 A4 grid with backs and
crop marks. Card strings are composed beforehand (`prepare`), outside the timing, the
way such a script would hold them in a list; only drawing is timed."""

from __future__ import annotations

import math
import re

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Paragraph

from generator.render.base.fonts import BOLD, ITALIC, REGULAR, register_fonts

W, H = 63.5 * mm, 88.9 * mm


def _slots():
    x0 = (A4[0] - 3 * W - 2 * 2 * mm) / 2
    y0 = (A4[1] - 3 * H - 2 * 2 * mm) / 2
    return [(x0 + c * (W + 2 * mm), y0 + (2 - r) * (H + 2 * mm)) for r in range(3) for c in range(3)]


def _markup(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"\*(.+?)\*", r"<i>\1</i>", text)
    text = re.sub(r":([a-z0-9-]+):", '<font name="ZapfDingbats" color="#a31515">n</font>', text)
    return text.replace("\n", "<br/>")


def prepare(pack, shared, faces) -> list[dict]:
    """The strings and values each card shows, composed with the same layouts as ours."""
    out = []
    for face in faces:
        layout = shared.layouts.get(face.layout)
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        texts, items = {}, []
        for e in layout.elements:
            if e.kind == "text":
                texts[e.id] = layout.render(e.text or "", ctx, e)
            elif e.kind == "stats":
                value = layout.evaluate(e.items or "[]", ctx, e) or []
                items = list(value.items()) if isinstance(value, dict) else list(value)
        card = face.card
        out.append({
            "color": pack.spec.sets[card.set].color, "name": card.name, "points": str(card.points),
            "type": texts.get("type-line", ""), "stats": [str(v) for _, v in items],
            "text": _markup(texts.get("text", "")), "flavour": card.flavour,
            "collation": texts.get("collation", ""), "hexes": card.fields.get("size") or [],
            "set_name": pack.spec.sets[card.set].name, "type_name": face.type_id, "game": pack.spec.name,
        })
    return out


def _hexagon(c, cx, cy, r):
    p = c.beginPath()
    for i in range(6):
        a = math.radians(60 * i + 30)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    p.close()
    c.drawPath(p, fill=1, stroke=1)


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


def draw_floor(cards: list[dict], out) -> None:
    register_fonts()
    style = ParagraphStyle("t", fontName=REGULAR, fontSize=7.5, leading=9)
    c = rl_canvas.Canvas(str(out), pagesize=A4, invariant=1)
    slots = _slots()
    for start in range(0, len(cards), 9):
        chunk = cards[start:start + 9]
        for card, (x, y) in zip(chunk, slots):
            color = HexColor(card["color"])
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
            c.setFont(BOLD, 10.5)
            c.drawString(x + 4 * mm, y + H - 8 * mm, card["name"])
            c.setFillColor(HexColor("#f3d57a"))
            c.roundRect(x + 51.2 * mm, y + H - 10.6 * mm, 9 * mm, 7.6 * mm, 3.8 * mm, fill=1, stroke=1)
            c.setFillColor(HexColor("#222222"))
            c.drawCentredString(x + 55.7 * mm, y + H - 8 * mm, card["points"])
            c.setFillColor(HexColor("#ece5d3"))
            c.roundRect(x + 3.4 * mm, y + 48.1 * mm, W - 6.8 * mm, 28.4 * mm, 1.2 * mm, fill=1, stroke=0)
            c.setFillColor(HexColor("#c9c2b4"))
            c.circle(x + W / 2, y + 62 * mm, 8 * mm, fill=1, stroke=0)
            for i, (q, r) in enumerate(card["hexes"][:12]):
                _hexagon(c, x + (50 + 3 * q + 1.5 * r) * mm, y + (60 - 2.6 * r) * mm, 1.5 * mm)
            c.setFillColor(HexColor("#222222"))
            c.setFont(ITALIC, 7.5)
            c.drawString(x + 4 * mm, y + 45 * mm, card["type"][:60])
            c.circle(x + 58 * mm, y + 45.5 * mm, 1.6 * mm, fill=1, stroke=0)
            c.setFont(BOLD, 8.5)
            step = (W - 6.8 * mm) / max(1, len(card["stats"]))
            for i, value in enumerate(card["stats"]):
                c.circle(x + 6 * mm + i * step, y + 40.4 * mm, 1.8 * mm, fill=1, stroke=0)
                c.drawString(x + 8.5 * mm + i * step, y + 39.5 * mm, value)
            p = Paragraph(card["text"], style)
            _, h = p.wrap(W - 9.2 * mm, 24 * mm)
            p.drawOn(c, x + 4.6 * mm, y + 36 * mm - h)
            c.setFont(ITALIC, 6.5)
            c.drawCentredString(x + W / 2, y + 8 * mm, card["flavour"][:90])
            c.setFont(REGULAR, 4.6)
            c.drawCentredString(x + W / 2, y + 4 * mm, card["collation"])
        _marks(c, slots[:len(chunk)])
        c.showPage()
        for card, (x, y) in zip(chunk, slots):
            x = A4[0] - x - W
            c.setFillColor(HexColor(card["color"]))
            c.rect(x - 1 * mm, y - 1 * mm, W + 2 * mm, H + 2 * mm, fill=1, stroke=0)
            c.setStrokeColor(HexColor("#ffffff"))
            c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 3 * mm, fill=0, stroke=1)
            c.roundRect(x + 5 * mm, y + 5 * mm, W - 10 * mm, H - 10 * mm, 2.2 * mm, fill=0, stroke=1)
            c.setFillColor(HexColor("#ffffff"))
            c.circle(x + W / 2, y + H / 2, 15 * mm, fill=1, stroke=0)
            c.setFont(BOLD, 14)
            c.drawCentredString(x + W / 2, y + H - 14 * mm, card["game"])
            c.setFont(BOLD, 11)
            c.drawCentredString(x + W / 2, y + 25 * mm, card["set_name"])
            c.setFont(ITALIC, 9)
            c.drawCentredString(x + W / 2, y + 19 * mm, card["type_name"])
        _marks(c, slots[:len(chunk)])
        c.showPage()
    c.save()
