"""`stats`: a row of icon + number pairs (a mapping of stat to value, or [icon, value] pairs).
Reads: x, y, w, h, items, size, color."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.render.base.fonts import BOLD

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "stats"
FIELDS = ("x", "y", "w", "h", "items", "size", "color")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    items = layout.evaluate(e.items or "[]", ctx, e) or []
    if isinstance(items, dict):
        stats = p.shared.pack.spec.stats
        items = [[stats[k].icon if k in stats and stats[k].icon else k, v] for k, v in items.items()]
    items = [it for it in items if it is not None]
    if not items:
        return
    c = p.canvas
    cell = w / len(items)
    size = e.size
    icon_size = min(h * 0.8, size * 1.25)
    color = layout.render(e.color, ctx, e)
    totals = [icon_size + 1.2 + c.stringWidth(str(value), BOLD, size) for _icon, value in items]
    cells = [cell] * len(items)
    if max(totals) > cell and sum(totals) <= w:
        # an item wider than an equal share: each gets its own width and an equal part of the
        # room left, so the row stays inside its box
        spare = (w - sum(totals)) / len(items)
        cells = [t + spare for t in totals]
    start = left
    for i, (icon_name, value) in enumerate(items):
        label = str(value)
        total = totals[i]
        cx = start + (cells[i] - total) / 2
        start += cells[i]
        mid = top - h / 2
        p.icons.draw(str(icon_name), cx, mid - icon_size / 2, icon_size)
        c.setFillColor(p.color(color))
        c.setFont(BOLD, size)
        c.drawString(cx + icon_size + 1.2, mid - size * 0.36, label)
