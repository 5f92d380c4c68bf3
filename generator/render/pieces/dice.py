"""Dice to cut, fold and glue: each die of `pieces.dice` printed as a cross-shaped net.

The net is a column of four faces with one arm to each side of the second; `faces` run down
the column, then the left and the right arm, so the 1st and 3rd, the 2nd and 4th and the 5th
and 6th faces end up opposite each other. Seven glue tabs close the cube; every outer edge
without a tab meets a tab when folded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.pack.translations.own import words_of
from generator.render.base.fonts import BOLD, REGULAR
from generator.core.typesize import LABEL_PT
from generator.render.base.pdfout import MM
from generator.render.pieces.draw import (BLEED_MM, PagePlan, color, cut_line, fit_lines, fold_line, marker,
                                          page_frame, shelf_pack, text, tint)
from generator.render.pieces.model import pieces_spec

if TYPE_CHECKING:
    from generator.pack.model import DieSpec
    from generator.render.pieces.draw import Kit

TAB_MM = 5.0
# (column, row) of each face in net order, row 0 at the top; the net is 3 wide and 4 tall
CELLS = ((1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1))
# the edges that carry a glue tab: (face index, side)
TABS = ((4, "top"), (4, "bottom"), (5, "top"), (5, "bottom"), (3, "left"), (3, "right"), (3, "bottom"))


def die_box(die: DieSpec) -> tuple[float, float]:
    e = die.size
    return 3 * e + 2 * TAB_MM + 2 * BLEED_MM, 4 * e + TAB_MM + 2 * BLEED_MM


def _tab(x: float, y: float, e: float, side: str) -> list[tuple[float, float]]:
    """A trapezoid glue tab on one side of the face whose bottom-left corner is (x, y)."""
    t, inset = TAB_MM, min(TAB_MM, e / 4)
    return {
        "top": [(x, y + e), (x + inset, y + e + t), (x + e - inset, y + e + t), (x + e, y + e)],
        "bottom": [(x + e, y), (x + e - inset, y - t), (x + inset, y - t), (x, y)],
        "left": [(x, y), (x - t, y + inset), (x - t, y + e - inset), (x, y + e)],
        "right": [(x + e, y + e), (x + e + t, y + e - inset), (x + e + t, y + inset), (x + e, y)],
    }[side]


def _edge(x: float, y: float, e: float, side: str) -> tuple[float, float, float, float]:
    return {"top": (x, y + e, x + e, y + e), "bottom": (x, y, x + e, y),
            "left": (x, y, x, y + e), "right": (x + e, y, x + e, y + e)}[side]


def draw_die(kit: Kit, die: DieSpec, copy: int, left: float, top: float) -> None:
    c = kit.canvas
    e = die.size
    ox, oy = left + BLEED_MM + TAB_MM, top - BLEED_MM - 4 * e  # the net's bottom-left (row 3's bottom)
    ink = die.color or "#555555"

    def corner(i: int) -> tuple[float, float]:
        col, row = CELLS[i]
        return ox + col * e, oy + (3 - row) * e

    c.saveState()
    c.setFillColor(tint(ink, 0.6))
    for i, side in TABS:
        p = c.beginPath()
        pts = _tab(*corner(i), e, side)
        p.moveTo(pts[0][0] * MM, pts[0][1] * MM)
        for px, py in pts[1:]:
            p.lineTo(px * MM, py * MM)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    for i, label in enumerate(die.faces):
        x, y = corner(i)
        c.setFillColor(color(ink))
        c.rect((x - 0.01) * MM, (y - 0.01) * MM, (e + 0.02) * MM, (e + 0.02) * MM, stroke=0, fill=1)
        c.setFillColor(color("#ffffff"))
        inner = e * 0.12
        c.roundRect((x + inner) * MM, (y + inner) * MM, (e - 2 * inner) * MM, (e - 2 * inner) * MM,
                    1.2 * MM, stroke=0, fill=1)
        size_pt, lines = fit_lines(label, BOLD, e - 2 * inner - 1.5, e * 1.6, LABEL_PT, 2)
        height = len(lines) * size_pt * 1.12 / MM
        y_line = y + e / 2 + height / 2
        for ln in lines:
            y_line -= size_pt * 1.12 / MM
            text(c, x + e / 2, y_line + size_pt * 0.22 / MM, ln, size_pt, BOLD, ink, "centre")
    # the die's name beside the net (outside every cut line), under the left arm
    size_pt, lines = fit_lines(die.label, BOLD, e - 1.5, 8.0, LABEL_PT, 2)
    ty = oy + 2 * e - TAB_MM - 3.5
    for ln in lines:
        text(c, ox, ty, ln, size_pt, BOLD, "#333333")
        ty -= size_pt * 1.12 / MM
    text(c, ox, ty - 1, f"{copy + 1} of {die.count}", 6, REGULAR, "#555555")
    c.restoreState()
    # folds: every edge two faces share, and the base of every tab
    shared = [(0, 1, "bottom"), (1, 2, "bottom"), (2, 3, "bottom"), (4, 1, "right"), (5, 1, "left")]
    for i, _, side in shared:
        fold_line(c, *_edge(*corner(i), e, side))
    for i, side in TABS:
        fold_line(c, *_edge(*corner(i), e, side))
    # the cut: round the whole outline, tabs included
    tabs = {(i, side) for i, side in TABS}
    inner_edges = {(0, "bottom"), (1, "top"), (1, "bottom"), (2, "top"), (2, "bottom"), (3, "top"),
                   (1, "left"), (1, "right"), (4, "right"), (5, "left")}
    p = c.beginPath()
    for i in range(6):
        x, y = corner(i)
        for side in ("top", "bottom", "left", "right"):
            if (i, side) in inner_edges:
                continue
            pts = _tab(x, y, e, side) if (i, side) in tabs else list(zip(_edge(x, y, e, side)[::2],
                                                                         _edge(x, y, e, side)[1::2]))
            p.moveTo(pts[0][0] * MM, pts[0][1] * MM)
            for px, py in pts[1:]:
                p.lineTo(px * MM, py * MM)
    cut_line(c, p)
    marker(c, f"pnp:die:{die.id}:{copy + 1}:size={e:g}:faces={'|'.join(die.faces)}", ox + 1.5 * e, oy + 2.5 * e)


def dice_pages(kit: Kit, build) -> list[PagePlan]:
    """The kit's dice nets packed over single-sided pages (none for one build's pieces)."""
    spec = pieces_spec(kit.pack)
    if build is not None or not spec.dice:
        return []
    items = [(die, n) for die in spec.dice for n in range(die.count)]
    pages = shelf_pack([die_box(d) for d, _ in items], kit.area())
    plans = []
    for n, page in enumerate(pages, 1):
        def draw(c, page=page, n=n):
            say = words_of(kit.pack)  # pnp's own words in the pack's language
            page_frame(kit, say("Dice"), say("Cut on the solid line, fold every dashed line away from you and "
                                             "glue each tab inside the face it meets. Thin card rolls best."),
                       f"{kit.title} · " + say("dice {n} of {total} · single-sided").format(n=n, total=len(pages)))
            for index, left, top in page:
                die, copy = items[index]
                draw_die(kit, die, copy, left, top)
            marker(c, f"pnp:page:dice:{n}", 0, 0)
        plans.append(PagePlan("dice", "single", draw, "dice to fold"))
    return plans
