"""`box`: a rectangle, rounded or not, filled and/or stroked; `bleed: true` runs it past the trim.
Reads: x, y, w, h, fill, stroke, stroke_width, radius, bleed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout


MAX_BLEED_MM = 3.5  # backgrounds marked `bleed: true` extend this far; sheets clip to what they give

KIND = "box"
FIELDS = ("x", "y", "w", "h", "fill", "stroke", "stroke_width", "radius", "bleed")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    c = p.canvas
    if e.bleed:
        b = MAX_BLEED_MM * mm
        left, top, w, h = ox - b, oy + p.height_mm * mm + b, p.width_mm * mm + 2 * b, p.height_mm * mm + 2 * b
    c.saveState()
    fill = layout.render(e.fill, ctx, e) if e.fill else None
    stroke = layout.render(e.stroke, ctx, e) if e.stroke else None
    if fill:
        c.setFillColor(p.color(fill))
    if stroke:
        c.setStrokeColor(p.color(stroke))
        c.setLineWidth(e.stroke_width * mm)
    if e.radius:
        c.roundRect(left, top - h, w, h, e.radius * mm, fill=1 if fill else 0, stroke=1 if stroke else 0)
    else:
        c.rect(left, top - h, w, h, fill=1 if fill else 0, stroke=1 if stroke else 0)
    c.restoreState()
