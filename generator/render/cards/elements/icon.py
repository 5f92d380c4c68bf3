"""`icon`: one named icon, its bottom-left corner below (x, y).
Reads: x, y, name, size, color."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.render.base.colors import INK

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "icon"
FIELDS = ("x", "y", "name", "size", "color")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    name = layout.render(e.name or "hex", ctx, e).strip()
    if name:
        color = layout.render(e.color, ctx, e) if e.color != INK else None
        p.icons.draw(name, left, top - e.size * mm, e.size * mm, color)
