"""`hexshape`: a multi-hex shape (a boss piece's footprint), its own hex marked.
Reads: x, y, w, h, hexes, size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.render.maps.shapes import draw_hex_shape

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "hexshape"
FIELDS = ("x", "y", "w", "h", "hexes", "size")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    hexes = layout.evaluate(e.hexes or "[]", ctx, e) or []
    draw_hex_shape(p.canvas, [tuple(hx) for hx in hexes], left / mm, (top - h) / mm, w / mm, h / mm,
                   max_hex_mm=e.size, mark=(0, 0))
