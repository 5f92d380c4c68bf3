"""`text`: a template's text fitted to its box (shrinking down to `min_size`), with inline icons
and keywords; refused when a glyph is missing or the text cannot fit.
Reads: x, y, w, h, text, font, size, min_size, align, valign, color, keyword_color, leading, hyphenate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from generator.core.errors import InputError, Location, Problem
from generator.render.cards.text_checks import checked_text
from generator.render.base.layout import memo_key
from generator.render.base.text import FitError, draw_layout

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "text"
FIELDS = ("x", "y", "w", "h", "text", "font", "size", "min_size", "align", "valign", "color", "keyword_color", "leading",
          "hyphenate")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    # a copy of the card drawn just before (the face memo, render/cards/faces.py): its fitted
    # text and colours, unless a template of the element runs for every copy (`name_of`)
    memo = getattr(ctx, "memo", None)
    key = _copy_key(e, ctx) if memo is not None else None
    laid = memo.get(key) if memo is not None and key is not None else None
    if laid is None:
        laid = _laid(p, e, layout, ctx, w, h)
        if memo is not None and key is not None:
            memo[key] = laid
    if laid == ():
        return  # nothing to draw
    lay, color, keyword_color = laid
    draw_layout(p.canvas, p.icons, lay, left, top, w, e.align, color,
                valign_height=h, valign=e.valign, keyword_color=keyword_color)


def _copy_key(e: Element, ctx: dict) -> tuple | None:
    """Where the face memo keeps the element's fitted text: with the copy's number, as its
    templates' results are kept (layout.memo_key); None when one of them runs for every copy."""
    every = _EVERY_COPY.get(id(e))
    if every is None or every[0] is not e:  # what memo_key says of a source depends on the source alone
        if len(_EVERY_COPY) >= 4096:
            _EVERY_COPY.clear()
        every = _EVERY_COPY[id(e)] = (e, any(memo_key("render", source, ctx) is None
                                             for source in (e.text or "", e.color, e.keyword_color or "")))
    if every[1]:
        return None
    return ("text", id(e), ctx.get("index"), ctx.get("total"))


_EVERY_COPY: dict = {}  # id(element) -> (the element, frozen: does one of its templates run for every copy?)


def _laid(p, e: Element, layout: Layout, ctx: dict, w: float, h: float) -> tuple:
    """The element's text rendered, checked and fitted, with its colours: (layout, colour,
    keyword colour or None), or () when it renders to nothing."""
    text = layout.render(e.text or "", ctx, e).strip()
    if not text:
        return ()
    text = checked_text(p.shared, e, layout, ctx, text)
    min_size = e.min_size if e.min_size is not None else e.size
    try:
        lay = _fit(p, text, e, w, h, min_size)
    except FitError as exc:
        card = ctx.get("card")
        where = card.location if card is not None else Location(layout.file)
        name = f"card `{card.id}` ({card.name})" if card is not None else f"layout `{layout.name}`"
        translation = p.shared.pack.translation  # a kit in another language: say which, and where to shorten
        raise InputError([Problem(
            "card.text-overflow", f"{name}: the `{e.id or 'text'}` text does not fit its box "
            f"even at {min_size:g} pt" + (f" in {translation.said}" if translation else ""), where,
            found=f"{exc.needed_lines} lines at {min_size:g} pt, {exc.overflow_pt / mm:.1f} mm too tall",
            expected=f"fits in {e.w:g} × {e.h:g} mm",
            fix=f"shorten its translation in {translation.file}" if translation else "shorten the text")]) from None
    keyword_color = layout.render(e.keyword_color, ctx, e).strip() if e.keyword_color else None
    return (lay, layout.render(e.color, ctx, e), keyword_color or None)


def _fit(p, text, e: Element, w: float, h: float, min_size: float):
    return p.shared.fitter.fit(text, w, h, e.size, min_size, e.leading, e.hyphenate, e.font)
