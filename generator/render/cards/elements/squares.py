"""`squares`: a set of square tiles (an area of effect), the target tile marked.
Reads: x, y, w, h, cells, size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.render.maps.shapes import draw_square_shape

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "squares"
FIELDS = ("x", "y", "w", "h", "cells", "size")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    cells = layout.evaluate(e.cells or "[]", ctx, e) or []
    draw_square_shape(p.canvas, [tuple(t) for t in cells], left / mm, (top - h) / mm, w / mm, h / mm,
                      max_cell_mm=e.size, mark=(0, 0))
