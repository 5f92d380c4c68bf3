"""Cut guides and the page footer of card sheets, kept where home printers print.

Home printers leave 3 to 5 mm unprinted at the paper's edge, so classic crop marks just
outside the grid often vanish. Here every cut line (each trim edge, extended across the
sheet) gets a guide wherever the line runs through waste inside the sheet's printable
margin: in the gutters between cards (over the neighbours' bleed, so each guide is a black
hairline on a white halo, visible on any card colour) and in the margins. A guide stops
`mark_gap` short of every trim corner and never enters a card's trim, so nothing of it is
left on a card after cutting.

The footer goes in the widest free band above or below the cards' bleed and is never drawn
over a card's bleed; guides are kept clear of it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from generator.render.base.fonts import REGULAR
from generator.render.base.sheets import Grid, SheetSpec, Slot

GUIDE_WIDTH_PT = 0.25  # the black hairline; tests find guides by this width
HALO_WIDTH_PT = 1.2  # white under it, so a guide shows over dark bleed
MIN_GUIDE_MM = 1.0  # shorter pieces of free line are not worth a guide
FOOTER_PT = (6.0, 5.0, 4.5)  # sizes tried, largest first
FOOTER_CLEAR_MM = 0.8  # between the footer and any bleed or guide
EPS = 1e-3

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points


def _free(lo: float, hi: float, blocked: list[tuple[float, float]], gap: float, reach: float
          ) -> list[tuple[float, float]]:
    """Parts of [lo, hi] outside every blocked interval, pulled back `gap` from each; a part
    with a card at one end only (a margin) reaches at most `reach` from that card."""
    out, at, after_card = [], lo, False
    for a, b in sorted(blocked):
        if a - gap > at:
            out.append((at if after_card else max(at, a - gap - reach), a - gap))
        at, after_card = max(at, b + gap), True
    if at < hi:
        out.append((at, min(hi, at + reach)))
    return [(a, min(b, hi)) for a, b in out if min(b, hi) > a]


def _cut(segments: list[tuple], boxes: list[Box], vertical: bool) -> list[tuple]:
    """Segments with the parts inside any box removed."""
    for x0, y0, x1, y1 in boxes:
        kept = []
        for s in segments:
            pos, a, b = (s[0], s[1], s[3]) if vertical else (s[1], s[0], s[2])
            inside_band = (x0 <= pos <= x1) if vertical else (y0 <= pos <= y1)
            lo, hi = (y0, y1) if vertical else (x0, x1)
            if not inside_band or b <= lo or a >= hi:
                kept.append(s)
                continue
            for u, v in ((a, min(b, lo)), (max(a, hi), b)):
                if v > u:
                    kept.append((pos, u, pos, v) if vertical else (u, pos, v, pos))
        segments = kept
    return segments


def guide_segments(grid: Grid, spec: SheetSpec, slots: list[Slot] | tuple[Slot, ...],
                   avoid: Sequence[Box] = ()) -> list[tuple[float, float, float, float]]:
    """Every cut line's guides (points, x1 y1 x2 y2): the line's stretches through waste
    inside the printable margin, `mark_gap` clear of trims, outside the `avoid` boxes."""
    if spec.marks != "crop" or not slots:
        return []
    return list(_segments(grid.page_w, grid.page_h, spec.margin, spec.mark_gap, spec.bleed, spec.mark_length,
                          tuple(slots), tuple(tuple(b) for b in avoid)))


@functools.lru_cache(maxsize=64)
def _segments(page_w: float, page_h: float, margin: float, mark_gap: float, bleed: float, mark_length: float,
              slots: tuple[Slot, ...], avoid: tuple[Box, ...]) -> tuple:
    """guide_segments' work, kept: every full sheet of a deck has the same grid, and its
    footer (the box the guides avoid) differs only with the sheet number's digits."""
    m, gap, shortest = margin * mm, mark_gap * mm, MIN_GUIDE_MM * mm
    reach = (bleed + mark_length) * mm  # into a margin: past the bleed, then mark_length
    xs = sorted({round(s.x, 4) for s in slots} | {round(s.x + s.w, 4) for s in slots})
    ys = sorted({round(s.y, 4) for s in slots} | {round(s.y + s.h, 4) for s in slots})
    vertical, horizontal = [], []
    for x in xs:
        blocked = [(s.y, s.y + s.h) for s in slots if s.x - EPS <= x <= s.x + s.w + EPS]
        vertical += [(x, a, x, b) for a, b in _free(m, page_h - m, blocked, gap, reach)]
    for y in ys:
        blocked = [(s.x, s.x + s.w) for s in slots if s.y - EPS <= y <= s.y + s.h + EPS]
        horizontal += [(a, y, b, y) for a, b in _free(m, page_w - m, blocked, gap, reach)]
    out = _cut(vertical, list(avoid), True) + _cut(horizontal, list(avoid), False)
    return tuple(s for s in out if abs(s[2] - s[0]) + abs(s[3] - s[1]) >= shortest)


def draw_guides(canvas, segments) -> None:
    canvas.saveState()
    canvas.setLineCap(0)
    for width, colour in ((HALO_WIDTH_PT, "#ffffff"), (GUIDE_WIDTH_PT, "#000000")):
        canvas.setLineWidth(width)
        canvas.setStrokeColor(HexColor(colour))
        canvas.separate_lines(segments)  # every full sheet draws the same guides: a few hundred lines
    canvas.restoreState()


def bleed_box(slots) -> Box:
    return (min(s.x - s.bleed[0] for s in slots), min(s.y - s.bleed[1] for s in slots),
            max(s.x + s.w + s.bleed[2] for s in slots), max(s.y + s.h + s.bleed[3] for s in slots))


def footer(canvas, grid: Grid, spec: SheetSpec, slots, text: str) -> Box | None:
    """Draw `text` centred in the free band below (or else above) the cards' bleed, inside
    the printable margin; returns its box (with clearance) for the guides to avoid, or None
    when no band is tall enough."""
    m, clear = spec.margin * mm, FOOTER_CLEAR_MM * mm
    _, bottom, _, top = bleed_box(slots) if slots else (0, grid.page_h / 2, 0, grid.page_h / 2)
    bands = [(m, bottom - clear), (top + clear, grid.page_h - m)]
    for size in FOOTER_PT:
        ascent, descent = getAscentDescent(REGULAR, size)  # descent is negative
        height, width = ascent - descent, stringWidth(text, REGULAR, size)
        if width > grid.page_w - 2 * m:
            continue
        for lo, hi in bands:
            if hi - lo >= height:
                baseline = lo + (hi - lo - height) / 2 - descent
                canvas.saveState()
                canvas.setFont(REGULAR, size)
                canvas.setFillColor(HexColor("#666666"))
                canvas.drawCentredString(grid.page_w / 2, baseline, text)
                canvas.restoreState()
                x0 = (grid.page_w - width) / 2
                return (x0 - clear, baseline + descent - clear, x0 + width + clear, baseline + ascent + clear)
    return None
