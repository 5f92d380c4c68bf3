"""`image`: the card's art clipped to the box (cover or contain), or a placeholder emblem.
Reads: x, y, w, h, radius, fit, fill, emblem, color."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.render.base.colors import INK
from generator.render.base.recording import shape_path

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "image"
FIELDS = ("x", "y", "w", "h", "radius", "fit", "fill", "emblem", "color")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    card = ctx.get("card")
    art = getattr(card, "art", None) if card is not None else None
    c = p.canvas
    c.saveState()
    if e.radius:
        clip = shape_path(c, "roundRect", left, top - h, w, h, e.radius * mm)
    else:
        clip = shape_path(c, "rect", left, top - h, w, h)
    c.clipPath(clip, stroke=0, fill=0)
    if art:
        p.shared.art.draw(c, art, card, left, top - h, w, h, e.fit)
    else:
        fill = layout.render(e.fill or "#eeeeee", ctx, e)
        c.setFillColor(p.color(fill))
        c.rect(left, top - h, w, h, fill=1, stroke=0)
        emblem = layout.render(e.emblem or "hex", ctx, e).strip() or "hex"
        size = min(w, h) * 0.55
        p.icons.draw(emblem, left + (w - size) / 2, top - h + (h - size) / 2, size,
                     layout.render(e.color, ctx, e) if e.color != INK else "#c9c2b4")
    c.restoreState()
