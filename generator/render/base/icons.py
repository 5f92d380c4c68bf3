"""Vector icons, drawn once per document as PDF forms and placed wherever text or a
layout names them (`:strength:` in card text, `icon` elements in layouts).

Every icon is drawn in a 100 × 100 unit box whose baseline is y = 0 (the icon sits on
the text baseline and rises to roughly cap height when scaled to the font size).
"""

from __future__ import annotations

import math

from reportlab.lib.colors import HexColor

from generator.pack.art import PackIcon
from generator.pack.icon_names import registry_matches
from generator.render.base.graphics import draw_graphic
from generator.render.base.iconart import BOX, fill_outline
from generator.render.base.recording import place_form

INK = HexColor("#222222")
PAPER = HexColor("#ffffff")

# name -> (colour, drawing function); colours stay distinct in greyscale by shape, not hue
_ICONS: dict = {}


def icon(name: str, color: str):
    def register(fn):
        _ICONS[name] = (HexColor(color), fn)
        return fn
    return register


def known_icons() -> list[str]:
    return sorted(_ICONS)


def _poly(c, points, fill=1, stroke=0, close=True):
    p = c.beginPath()
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    if close:
        p.close()
    c.drawPath(p, fill=fill, stroke=stroke)


@icon("health", "#b3261e")
def _heart(c):
    p = c.beginPath()
    p.moveTo(50, 8)
    p.curveTo(20, 35, 2, 52, 8, 74)
    p.curveTo(14, 96, 42, 98, 50, 78)
    p.curveTo(58, 98, 86, 96, 92, 74)
    p.curveTo(98, 52, 80, 35, 50, 8)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


@icon("intelligence", "#5b3a8c")
def _eye(c):
    p = c.beginPath()
    p.moveTo(2, 50)
    p.curveTo(25, 92, 75, 92, 98, 50)
    p.curveTo(75, 8, 25, 8, 2, 50)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(50, 50, 22, fill=1, stroke=0)
    c.setFillColor(INK)
    c.circle(50, 50, 11, fill=1, stroke=0)


@icon("strength", "#8a4b12")
def _fist(c):
    # a dumbbell: two plates and a bar
    c.rect(4, 22, 18, 56, fill=1, stroke=0)
    c.rect(78, 22, 18, 56, fill=1, stroke=0)
    c.rect(22, 42, 56, 16, fill=1, stroke=0)
    c.rect(0, 34, 6, 32, fill=1, stroke=0)
    c.rect(94, 34, 6, 32, fill=1, stroke=0)


@icon("agility", "#1e6b3a")
def _bolt(c):
    _poly(c, [(58, 98), (18, 44), (46, 44), (36, 2), (84, 60), (54, 60), (70, 98)])


@icon("slot", "#455a64")
def _slot(c):
    c.setLineWidth(9)
    c.roundRect(8, 8, 84, 84, 14, fill=0, stroke=1)
    c.rect(44, 24, 12, 52, fill=1, stroke=0)
    c.rect(24, 44, 52, 12, fill=1, stroke=0)


@icon("points", "#9c7a00")
def _gem(c):
    _poly(c, [(50, 2), (98, 58), (78, 92), (22, 92), (2, 58)])
    c.setFillColor(PAPER)
    _poly(c, [(50, 20), (74, 58), (50, 80), (26, 58)])


@icon("feat", "#c27c0e")
def _star(c):
    pts = []
    for i in range(10):
        r = 50 if i % 2 == 0 else 21
        a = math.pi / 2 + i * math.pi / 5
        pts.append((50 + r * math.cos(a), 46 + r * math.sin(a)))
    _poly(c, pts)


@icon("damage", "#a31515")
def _burst(c):
    pts = []
    for i in range(16):
        r = 50 if i % 2 == 0 else 26
        a = i * math.pi / 8
        pts.append((50 + r * math.cos(a), 50 + r * math.sin(a)))
    _poly(c, pts)


@icon("range", "#37474f")
def _target(c):
    c.setLineWidth(9)
    c.circle(50, 50, 40, fill=0, stroke=1)
    c.circle(50, 50, 18, fill=0, stroke=1)
    c.rect(46, 0, 8, 100, fill=1, stroke=0)
    c.rect(0, 46, 100, 8, fill=1, stroke=0)


@icon("move", "#2e7d32")
def _arrow(c):
    _poly(c, [(4, 36), (54, 36), (54, 12), (98, 50), (54, 88), (54, 64), (4, 64)])


@icon("attack", "#7f1d1d")
def _sword(c):
    _poly(c, [(90, 98), (98, 90), (40, 32), (32, 40)])
    c.rect(8, 8, 14, 14, fill=1, stroke=0)
    _poly(c, [(16, 40), (40, 16), (48, 24), (24, 48)])
    _poly(c, [(14, 22), (22, 14), (34, 26), (26, 34)])


@icon("item", "#00695c")
def _flask(c):
    p = c.beginPath()
    p.moveTo(38, 98)
    p.lineTo(62, 98)
    p.lineTo(62, 66)
    p.curveTo(96, 52, 96, 4, 50, 2)
    p.curveTo(4, 4, 4, 52, 38, 66)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.rect(24, 22, 52, 8, fill=1, stroke=0)


@icon("immobilised", "#4e342e")
def _lock(c):
    c.roundRect(12, 2, 76, 56, 8, fill=1, stroke=0)
    c.setLineWidth(12)
    p = c.beginPath()
    p.moveTo(28, 56)
    p.lineTo(28, 72)
    p.curveTo(28, 102, 72, 102, 72, 72)
    p.lineTo(72, 56)
    c.drawPath(p, fill=0, stroke=1)
    c.setFillColor(PAPER)
    c.circle(50, 32, 9, fill=1, stroke=0)


@icon("dazzled", "#b28704")
def _sun(c):
    c.circle(50, 50, 22, fill=1, stroke=0)
    for i in range(8):
        a = i * math.pi / 4
        cx, cy = 50 + 38 * math.cos(a), 50 + 38 * math.sin(a)
        dx, dy = 10 * math.cos(a), 10 * math.sin(a)
        px, py = -5 * math.sin(a), 5 * math.cos(a)
        _poly(c, [(cx - dx + px, cy - dy + py), (cx + dx, cy + dy), (cx - dx - px, cy - dy - py)])


@icon("stunned", "#5d4037")
def _spiral(c):
    c.setLineWidth(9)
    p = c.beginPath()
    steps = 60
    for i in range(steps + 1):
        t = i / steps * 4 * math.pi
        r = 6 + 40 * i / steps
        x, y = 50 + r * math.cos(t), 50 + r * math.sin(t)
        p.moveTo(x, y) if i == 0 else p.lineTo(x, y)
    c.drawPath(p, fill=0, stroke=1)


@icon("poisoned", "#33691e")
def _drop(c):
    p = c.beginPath()
    p.moveTo(50, 100)
    p.curveTo(40, 70, 10, 52, 12, 34)
    p.curveTo(14, 4, 86, 4, 88, 34)
    p.curveTo(90, 52, 60, 70, 50, 100)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(38, 34, 7, fill=1, stroke=0)
    c.circle(62, 34, 7, fill=1, stroke=0)


@icon("hex", "#37474f")
def _hex(c):
    pts = [(50 + 48 * math.cos(math.radians(90 + 60 * i)), 50 + 48 * math.sin(math.radians(90 + 60 * i)))
           for i in range(6)]
    c.setLineWidth(10)
    _poly(c, pts, fill=0, stroke=1)


@icon("d6", "#263238")
def _die(c):
    c.roundRect(4, 4, 92, 92, 16, fill=1, stroke=0)
    c.setFillColor(PAPER)
    for x, y in ((28, 28), (72, 72), (50, 50), (28, 72), (72, 28)):
        c.circle(x, y, 9, fill=1, stroke=0)


@icon("boss", "#7a1f1f")
def _crown(c):
    _poly(c, [(4, 14), (96, 14), (96, 84), (74, 56), (50, 92), (26, 56), (4, 84)])


@icon("hero", "#1f4e7a")
def _shield(c):
    p = c.beginPath()
    p.moveTo(50, 2)
    p.curveTo(14, 20, 8, 50, 8, 94)
    p.lineTo(92, 94)
    p.curveTo(92, 50, 86, 20, 50, 2)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


@icon("neutral", "#4a4a4a")
def _ring(c):
    c.setLineWidth(14)
    c.circle(50, 50, 40, fill=0, stroke=1)
    c.circle(50, 50, 12, fill=1, stroke=0)


@icon("token", "#4a4a4a")
def _coin(c):
    c.circle(50, 50, 48, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(50, 50, 34, fill=1, stroke=0)


@icon("skull", "#212121")
def _skull(c):
    c.circle(50, 58, 40, fill=1, stroke=0)
    c.rect(28, 6, 44, 30, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(34, 58, 11, fill=1, stroke=0)
    c.circle(66, 58, 11, fill=1, stroke=0)
    for x in (36, 50, 64):
        c.rect(x - 3, 6, 6, 14, fill=1, stroke=0)


# ---- resources and units (games paying for abilities and cards, armies of minions) ----------


@icon("energy", "#c77700")
def _energy(c):
    # a charged orb: a disc with a lightning bolt cut out of it (the plain bolt is agility)
    c.circle(50, 50, 48, fill=1, stroke=0)
    c.setFillColor(PAPER)
    _poly(c, [(57, 90), (28, 46), (47, 46), (38, 10), (72, 56), (53, 56), (64, 90)])


@icon("crystal", "#2a7ab0")
def _crystal(c):
    # a tall six-sided crystal with two white facet lines
    _poly(c, [(50, 100), (78, 76), (72, 14), (50, 0), (28, 14), (22, 76)])
    c.setStrokeColor(PAPER)
    c.setLineWidth(5)
    _poly(c, [(50, 100), (50, 0)], fill=0, stroke=1, close=False)
    _poly(c, [(22, 76), (50, 62), (78, 76)], fill=0, stroke=1, close=False)


@icon("overload", "#b3261e")
def _overload(c):
    # a circular arrow (roll again) round a small bolt
    c.setLineWidth(11)
    p = c.beginPath()
    p.arc(8, 8, 92, 92, startAng=120, extent=290)
    c.drawPath(p, fill=0, stroke=1)
    a = math.radians(120)
    tip = (50 + 42 * math.cos(a), 50 + 42 * math.sin(a))
    _poly(c, [(tip[0] - 20, tip[1] + 6), (tip[0] + 14, tip[1] + 14), (tip[0] + 2, tip[1] - 20)])
    _poly(c, [(55, 78), (34, 46), (48, 46), (42, 20), (66, 54), (52, 54), (60, 78)])


@icon("minion", "#5d4037")
def _pawn(c):
    # a small pawn: head, neck collar and a wide foot
    c.circle(50, 76, 18, fill=1, stroke=0)
    _poly(c, [(36, 56), (64, 56), (74, 16), (26, 16)])
    c.roundRect(14, 0, 72, 18, 6, fill=1, stroke=0)


@icon("flame", "#b33a1a")
def _flame(c):
    p = c.beginPath()
    p.moveTo(50, 100)
    p.curveTo(58, 76, 88, 62, 86, 34)
    p.curveTo(84, 10, 66, 0, 50, 0)
    p.curveTo(34, 0, 16, 10, 14, 34)
    p.curveTo(13, 52, 26, 62, 32, 70)
    p.curveTo(34, 58, 40, 52, 44, 50)
    p.curveTo(42, 70, 46, 86, 50, 100)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setFillColor(PAPER)
    p = c.beginPath()
    p.moveTo(50, 44)
    p.curveTo(56, 34, 66, 28, 64, 18)
    p.curveTo(62, 8, 38, 8, 36, 18)
    p.curveTo(35, 26, 46, 32, 50, 44)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


@icon("leaf", "#2e6b34")
def _leaf(c):
    p = c.beginPath()
    p.moveTo(10, 6)
    p.curveTo(4, 60, 40, 96, 96, 96)
    p.curveTo(98, 40, 60, 4, 10, 6)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setStrokeColor(PAPER)
    c.setLineWidth(6)
    _poly(c, [(12, 8), (80, 80)], fill=0, stroke=1, close=False)


@icon("anchor", "#1f4e6b")
def _anchor(c):
    c.setLineWidth(10)
    c.circle(50, 86, 10, fill=0, stroke=1)
    c.rect(45, 10, 10, 66, fill=1, stroke=0)
    c.rect(26, 62, 48, 9, fill=1, stroke=0)
    p = c.beginPath()
    p.arc(14, 6, 86, 78, startAng=200, extent=140)
    c.drawPath(p, fill=0, stroke=1)
    _poly(c, [(4, 44), (26, 34), (10, 22)])
    _poly(c, [(96, 44), (74, 34), (90, 22)])


# ---- grid and elevation icons (square or hex boards with heights) ----------------------------


@icon("jump", "#1b5e20")
def _jump(c):
    # a block to climb and an arrow leaping up onto it
    c.rect(52, 2, 46, 46, fill=1, stroke=0)
    c.rect(2, 2, 34, 10, fill=1, stroke=0)
    c.setLineWidth(9)
    p = c.beginPath()
    p.moveTo(14, 18)
    p.curveTo(14, 70, 40, 84, 62, 80)
    c.drawPath(p, fill=0, stroke=1)
    _poly(c, [(56, 98), (88, 76), (54, 60)])


@icon("reach", "#37474f")
def _reach(c):
    # a spear point reaching across dotted squares
    for x in (4, 28):
        c.rect(x, 40, 16, 20, fill=1, stroke=0)
    c.rect(52, 44, 26, 12, fill=1, stroke=0)
    _poly(c, [(74, 30), (100, 50), (74, 70)])


@icon("area", "#6a1b9a")
def _area(c):
    # a 3 × 3 block with the centre struck
    for i in range(3):
        for j in range(3):
            c.rect(3 + i * 33, 3 + j * 33, 28, 28, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(50, 50, 8, fill=1, stroke=0)


@icon("sight", "#0d47a1")
def _sight(c):
    # an eye with a straight line of sight running out of it
    p = c.beginPath()
    p.moveTo(2, 56)
    p.curveTo(18, 86, 54, 86, 70, 56)
    p.curveTo(54, 26, 18, 26, 2, 56)
    p.close()
    c.drawPath(p, fill=1, stroke=0)
    c.setFillColor(PAPER)
    c.circle(36, 56, 13, fill=1, stroke=0)
    c.setFillColor(INK)
    c.circle(36, 56, 6, fill=1, stroke=0)
    c.rect(74, 52, 24, 8, fill=1, stroke=0)
    c.rect(4, 6, 92, 10, fill=1, stroke=0)


@icon("indirect", "#4e342e")
def _indirect(c):
    # a lobbed arc over a wall: needs no line of sight
    c.rect(42, 2, 16, 52, fill=1, stroke=0)
    c.setLineWidth(9)
    p = c.beginPath()
    p.moveTo(8, 4)
    p.curveTo(14, 104, 80, 104, 86, 30)
    c.drawPath(p, fill=0, stroke=1)
    _poly(c, [(72, 34), (98, 34), (86, 6)])


@icon("push", "#bf360c")
def _push(c):
    # a square shoved along by a double arrow
    c.rect(62, 24, 36, 52, fill=1, stroke=0)
    _poly(c, [(2, 38), (26, 38), (26, 20), (54, 50), (26, 80), (26, 62), (2, 62)])


@icon("height", "#455a64")
def _height(c):
    # three stacked steps
    c.rect(2, 2, 96, 28, fill=1, stroke=0)
    c.rect(34, 34, 64, 28, fill=1, stroke=0)
    c.rect(66, 66, 32, 30, fill=1, stroke=0)


@icon("fall", "#8d2a0c")
def _fall(c):
    # a ledge and an arrow dropping off it
    c.rect(2, 62, 46, 36, fill=1, stroke=0)
    c.rect(2, 2, 96, 10, fill=1, stroke=0)
    c.rect(64, 42, 12, 52, fill=1, stroke=0)
    _poly(c, [(54, 44), (86, 44), (70, 16)])


registry_matches(_ICONS)  # the loader checks `:name:` against the same names


class IconSheet:
    """Per-document icon forms: each icon is drawn once into the PDF and reused."""

    def __init__(self, canvas, custom: dict | None = None):
        self.canvas = canvas
        # a pack's own icons (game.yaml `icons:`): name -> svglib drawing, or a PackIcon of the bundled set
        self.custom = custom or {}
        self.defined: set = set()

    def form_name(self, name: str, color: str | None) -> str:
        key = f"icon-{name}" + (f"-{color.lstrip('#')}" if color else "")
        if key not in self.defined:
            col, fn = _ICONS[name] if name in _ICONS else self._custom(name)
            c = self.canvas
            c.beginForm(key, -5, -5, 105, 105)
            fill = HexColor(color) if color else col
            c.setFillColor(fill)
            c.setStrokeColor(fill)
            c.setLineJoin(1)
            c.setLineCap(1)
            fn(c)
            c.endForm()
            self.defined.add(key)
        return key

    def _custom(self, name: str):
        item = self.custom[name]
        if isinstance(item, PackIcon):
            def draw(c):
                c.scale(100 / BOX, 100 / BOX)
                fill_outline(c, item.icon)
            return (HexColor(item.color) if item.color else INK), draw
        return INK, self._svg(name)

    def _svg(self, name: str):
        """Draw a pack's SVG icon into the 100-unit box, centred, in its own colours."""
        drawing = self.custom[name]

        def draw(c):
            scale = 100.0 / max(drawing.width, drawing.height)
            c.translate((100 - drawing.width * scale) / 2, (100 - drawing.height * scale) / 2)
            c.scale(scale, scale)
            draw_graphic(drawing, c, 0, 0)  # not renderPDF.draw: it would name Helvetica, unembedded
        return draw

    def draw(self, name: str, x: float, y: float, size: float, color: str | None = None) -> None:
        """Draw icon `name` with its bottom-left at (x, y) points, `size` points square."""
        if name not in _ICONS and name not in self.custom:
            name = "hex"
        scale = size / 100.0
        place_form(self.canvas, self.form_name(name, color), scale, 0, 0, scale, x, y)
