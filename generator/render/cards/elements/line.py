"""`line`: a straight line from (x, y) to (x2, y2).
Reads: x, y, x2, y2, stroke, stroke_width."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.render.base.colors import INK

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "line"
FIELDS = ("x", "y", "x2", "y2", "stroke", "stroke_width")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    c = p.canvas
    c.saveState()
    c.setStrokeColor(p.color(layout.render(e.stroke or INK, ctx, e)))
    c.setLineWidth(e.stroke_width * mm)
    x2 = ox + (e.x2 if e.x2 is not None else e.x) * mm
    y2 = oy + (p.height_mm - (e.y2 if e.y2 is not None else e.y)) * mm
    c.line(left, top, x2, y2)
    c.restoreState()
