"""Does a layout fit the card it is drawn on? Every card type prints at its own size, so a
layout drawn for another size (the shared poker frame on a tarot card) is an error naming
the type, and so is an element placed outside the card; never a silent poker-size drawing
clipped by the sheet.

A layout says the size it is drawn for with `size:` (inherited through `extends`); the
shared templates say `size: poker`. A layout without `size:` is accepted on any card its
drawn elements fit.
"""

from __future__ import annotations

from generator.core.errors import InputError, Location, Problem
from generator.pack.model import CARD_SIZES_MM

TOLERANCE_MM = 0.05


def size_text(size: tuple[float, float]) -> str:
    """`63.5 × 88.9 mm (poker)`: a size as people name it."""
    name = next((n for n, s in CARD_SIZES_MM.items() if same_size(s, size)), None)
    return f"{size[0]:g} × {size[1]:g} mm" + (f" ({name})" if name else "")


def same_size(a, b) -> bool:
    return abs(a[0] - b[0]) <= TOLERANCE_MM and abs(a[1] - b[1]) <= TOLERANCE_MM


def layout_fits(layout, card_mm: tuple[float, float]) -> bool:
    return layout.size is None or same_size(layout.size, card_mm)


def wrong_size(layout, type_id: str, card_mm: tuple[float, float], back: bool, pack_root: str) -> InputError:
    """The layout a card type would be drawn with was made for another card size."""
    own = f"back-{type_id}" if back else type_id
    what = "back" if back else "face"
    return InputError([Problem(
        "layout.size", f"card type `{type_id}` is {size_text(card_mm)}, but its {what} layout "
        f"`{layout.name}` is drawn for {size_text(layout.size)}", Location(layout.file),
        found=size_text(layout.size), expected=size_text(card_mm),
        fix=f"run `pnp layout {pack_root} {type_id}` to write {own}.yaml (and the type's other layout) "
            f"scaled to {card_mm[0]:g} × {card_mm[1]:g} mm, then edit it; or add "
            f"{pack_root}/templates/cards/{own}.yaml yourself with `size: {{width: {card_mm[0]:g}, "
            f"height: {card_mm[1]:g}}}`")])


def element_box(e) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) mm of what an element draws, or None for a bleed background."""
    if e.kind == "box" and e.bleed:
        return None
    if e.kind == "line":
        x2 = e.x2 if e.x2 is not None else e.x
        y2 = e.y2 if e.y2 is not None else e.y
        return (min(e.x, x2), min(e.y, y2), max(e.x, x2), max(e.y, y2))
    if e.kind == "icon":
        return (e.x, e.y, e.x + e.size, e.y + e.size)
    return (e.x, e.y, e.x + e.w, e.y + e.h)


def check_inside(e, layout, card_mm: tuple[float, float], type_id: str, card=None) -> None:
    """An element that reaches outside the card would print on its neighbour or be cut off."""
    box = element_box(e)
    if box is None:
        return
    left, top, right, bottom = box
    w, h = card_mm
    t = TOLERANCE_MM
    if left >= -t and top >= -t and right <= w + t and bottom <= h + t:
        return
    named = f" for card `{card.id}`" if card is not None else ""
    raise InputError([Problem(
        "layout.outside", f"layout `{layout.name}` element `{e.id or e.kind}`{named} reaches outside "
        f"the card: it spans x {left:g}–{right:g}, y {top:g}–{bottom:g} mm on a `{type_id}` card of "
        f"{size_text(card_mm)}", layout.where(e), found=f"x {left:g}–{right:g}, y {top:g}–{bottom:g} mm",
        expected=f"within 0–{w:g} × 0–{h:g} mm (backgrounds that print to the edge: `bleed: true`)",
        fix="move or shrink the element, or give this card type a layout of its own size")])
