"""Figures: fold-over paper standees and the bases they stand on.

A standee is one strip: a glue tab, the front panel, a fold at the figure's top, the back
panel (upside down, so it reads upright once folded) and a second tab. The tabs fold out
to either side and are glued along the standee line printed on the base.

A base is the character's footprint at true hex size: one hex for a single-hex figure,
the union of its base cards' hexes otherwise (see `footprint_of`). Each hex is outlined
and labelled with its axial coordinate so the base matches the cards' size diagrams; the
solid outer outline is the cut line. A standee is as wide as the longest straight run of
hexes across the footprint, so it always stands inside its base.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.pack.translations.own import words_of
from generator.render.base.fonts import BOLD, REGULAR
from generator.core.typesize import LABEL_PT
from generator.render.base.pdfout import MM
from generator.render.pieces.draw import (BLEED_MM, CUT_WIDTH_PT, PagePlan, centred_lines, color, cut_line,
                                          fit_lines, fold_line, marker, page_frame, polygon_path, shelf_pack,
                                          text, tint)
from generator.render.pieces.model import pieces_spec

if TYPE_CHECKING:
    from generator.render.pieces.draw import Kit
    from generator.render.pieces.model import Figure

STANDEE_MARGIN_MM = 1.5  # each side, between the standee and the edge of its base
NAME_BAND_MM = 10.0
AXES = (Hex(1, 0), Hex(0, 1), Hex(1, -1))  # the three straight lines through a hex


# ---- geometry ----------------------------------------------------------------------------------


def longest_run(footprint, orientation: hexgrid.Orientation) -> tuple[list[Hex], Hex]:
    """The longest straight line of hexes in the footprint and its direction. Ties go to
    the direction nearest to horizontal on the page, then to the run nearest the middle."""
    cells = set(footprint)
    unit = hexgrid.Layout.from_flat_to_flat(orientation, 1.0)
    mid = hexgrid.shape_center(cells)

    def tilt(d):
        x, y = unit.center(d)
        return abs(math.atan2(y, x)) % math.pi if abs(y) > 1e-9 else 0.0

    best = None
    for d in AXES:
        for h in sorted(cells):
            if h - d in cells:
                continue
            run = [h]
            while run[-1] + d in cells:
                run.append(run[-1] + d)
            centre = run[len(run) // 2]
            key = (-len(run), round(min(tilt(d), math.pi - tilt(d)), 6), hexgrid.distance(centre, mid), tuple(run[0]))
            if best is None or key < best[0]:
                best = (key, run, d)
    assert best is not None  # a footprint has at least one hex
    return best[1], best[2]


@dataclass(frozen=True)
class StandeeGeometry:
    width: float
    panel: float  # panel height
    tab: float

    @property
    def length(self) -> float:
        return 2 * self.panel + 2 * self.tab


def standee_geometry(kit: Kit, fig: Figure, height: float) -> StandeeGeometry:
    run, _ = longest_run(fig.footprint, kit.orientation)
    left, bottom, right, top = kit.area()
    width = min(len(run) * kit.hex_mm - 2 * STANDEE_MARGIN_MM, right - left - 2 * BLEED_MM)
    tab = kit.hex_mm / math.sqrt(3) / 2 - 0.8  # within the band either side of the line of hexes
    panel = min(height, (top - bottom - 6 - 2 * tab) / 2)
    return StandeeGeometry(width, panel, tab)


# ---- standees ----------------------------------------------------------------------------------


def _initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha() and w.lower() not in ("the", "of")]
    return "".join(w[0].upper() for w in words[:2]) or name[:1].upper()


def _panel(kit: Kit, fig: Figure, x: float, y: float, w: float, h: float, back: bool) -> None:
    """One side of a standee, upright, in the box (x, y bottom-left, mm)."""
    c = kit.canvas
    c.saveState()
    if back:  # drawn upside down, so it reads upright once folded over the top
        cx, cy = (x + w / 2) * MM, (y + h / 2) * MM
        c.translate(cx, cy)
        c.rotate(180)
        c.translate(-cx, -cy)
    c.setFillColor(color(fig.color) if back else tint(fig.color, 0.12))
    c.rect(x * MM, y * MM, w * MM, h * MM, stroke=0, fill=1)
    band = min(NAME_BAND_MM, h * 0.28)
    art_box = (x + 1.2, y + band + 1.2, w - 2.4, h - band - 2.4)
    if fig.art and not back:
        c.saveState()
        p = c.beginPath()
        p.rect(*(v * MM for v in art_box))
        c.clipPath(p, stroke=0, fill=0)
        ax, ay, aw, ah = (v * MM for v in art_box)
        kit.art_library.draw(c, fig.art, fig.art_owner, ax, ay, aw, ah, "cover")
        c.restoreState()
    else:
        # the emblem above, the initials below it in the same ink: never one drawn over the other
        # (white initials over an emblem's gaps read 1.2:1 on the pale panel)
        ink = "#ffffff" if back else fig.color
        ipt = min(art_box[3] * 0.22, 12.0) * 72 / 25.4
        size = min(art_box[2] * 0.9, art_box[3] * 0.72 - ipt / MM)
        ix = art_box[0] + (art_box[2] - size) / 2
        iy = art_box[1] + (art_box[3] - size - ipt / MM * 1.2) / 2 + ipt / MM * 1.2
        if fig.symbol:
            kit.icon_sheet.draw(fig.symbol, ix * MM, iy * MM, size * MM, ink)
        text(c, ix + size / 2, iy - ipt / MM * 1.05, _initials(fig.name), ipt, BOLD, ink, "centre")
    # the name band
    c.setFillColor(tint(fig.color, 0.25) if back else color(fig.color))
    c.rect(x * MM, y * MM, w * MM, band * MM, stroke=0, fill=1)
    size_pt, lines = fit_lines(fig.name, BOLD, w - 2, max(LABEL_PT, min(8.0, band * 0.9)), LABEL_PT, 2)
    block = len(lines) * size_pt * 1.12 / MM
    centred_lines(c, lines, BOLD, size_pt, x + w / 2, y + band / 2 + block / 2, INK_ON(back))
    c.restoreState()


def INK_ON(back: bool) -> str:  # noqa: N802 - reads like a constant at the call site
    return "#222222" if back else "#ffffff"


def draw_standee(kit: Kit, fig: Figure, geo: StandeeGeometry, left: float, top: float) -> None:
    c = kit.canvas
    w, t, h = geo.width, geo.tab, geo.panel
    bottom = top - geo.length
    # bleed under everything, then tabs, panels, folds, and the cut outline last
    c.saveState()
    c.setFillColor(tint(fig.color, 0.35))
    c.rect((left - BLEED_MM) * MM, (bottom - BLEED_MM) * MM, (w + 2 * BLEED_MM) * MM,
           (geo.length + 2 * BLEED_MM) * MM, stroke=0, fill=1)
    c.setFillColor(tint(fig.color, 0.06))
    c.rect(left * MM, bottom * MM, w * MM, t * MM, stroke=0, fill=1)
    c.rect(left * MM, (top - t) * MM, w * MM, t * MM, stroke=0, fill=1)
    c.restoreState()
    _panel(kit, fig, left, bottom + t, w, h, back=False)
    _panel(kit, fig, left, bottom + t + h, w, h, back=True)
    tab_pt = max(LABEL_PT, min(5.5, t * 0.55 * 72 / 25.4))
    text(c, left + w / 2, bottom + t * 0.36, "glue to base", tab_pt, REGULAR, "#555555", "centre")
    c.saveState()
    cx, cy = (left + w / 2) * MM, (top - t / 2) * MM
    c.translate(cx, cy)
    c.rotate(180)
    c.translate(-cx, -cy)
    text(c, left + w / 2, top - t + t * 0.36, "glue to base", tab_pt, REGULAR, "#555555", "centre")
    c.restoreState()
    fold_line(c, left, bottom + t, left + w, bottom + t, "valley", ticks=True)
    fold_line(c, left, bottom + t + h, left + w, bottom + t + h, "mountain", ticks=True)
    fold_line(c, left, top - t, left + w, top - t, "valley", ticks=True)
    p = c.beginPath()
    p.rect(left * MM, bottom * MM, w * MM, geo.length * MM)
    cut_line(c, p)
    marker(c, f"pnp:standee:{fig.side}:{fig.key}:{w:.3f}x{h:.3f}", left + w / 2, bottom + t + h / 2)


# ---- bases -------------------------------------------------------------------------------------


def base_box(kit: Kit, fig: Figure) -> tuple[float, float]:
    x0, y0, x1, y1 = kit.layout().bounds(fig.footprint)
    return x1 - x0 + 2 * BLEED_MM, y1 - y0 + 2 * BLEED_MM


def draw_base(kit: Kit, fig: Figure, left: float, top: float) -> None:
    """The footprint at true size with its top-left bounding corner at (left, top) mm."""
    c = kit.canvas
    lay = kit.layout()
    x0, y0, _, _ = lay.bounds(fig.footprint)
    ox, oy = left + BLEED_MM - x0, top - BLEED_MM + y0  # page = (ox + x, oy - y)
    cells = sorted(fig.footprint)
    cellset = set(cells)

    def centre(h):
        x, y = lay.center(h)
        return ox + x, oy - y

    def corners(h, scale=1.0):
        return [(ox + x, oy - y) for x, y in lay.corners(h, scale)]

    c.saveState()
    c.setFillColor(tint(fig.color, 0.5))
    for h in cells:  # bleed: every hex grown by BLEED_MM
        c.drawPath(polygon_path(c, corners(h, (kit.hex_mm + 2 * BLEED_MM) / kit.hex_mm)), stroke=0, fill=1)
    c.setFillColor(tint(fig.color, 0.1))
    for h in cells:
        c.drawPath(polygon_path(c, corners(h)), stroke=0, fill=1)
    # every hex outlined at exactly the map's size; the outer edges are the cut line
    c.setStrokeColor(tint(fig.color, 0.55))
    c.setLineWidth(0.35)
    for h in cells:
        c.drawPath(polygon_path(c, corners(h)), stroke=1, fill=0)
    c.setStrokeColor(color("#111111"))
    c.setLineWidth(CUT_WIDTH_PT)
    c.setLineCap(1)
    for h in cells:
        pts = corners(h)
        for i in range(6):
            a, b = pts[i], pts[(i + 1) % 6]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            cx, cy = centre(h)
            # the neighbour across this edge sits at twice the edge midpoint's offset
            px, py = 2 * mx - cx - ox, oy - (2 * my - cy)
            if lay.to_hex(px, py) not in cellset:
                c.line(a[0] * MM, a[1] * MM, b[0] * MM, b[1] * MM)
    c.restoreState()
    # the standee line, coordinates, the anchor and the name
    run, d = longest_run(cells, kit.orientation)
    (ax, ay), (bx, by) = centre(run[0]), centre(run[-1])
    ux, uy = (bx - ax, by - ay)
    length = math.hypot(ux, uy)
    if length < 1e-9:
        vx, vy = lay.center(d)
        ux, uy, length = vx, -vy, math.hypot(vx, vy)
    ux, uy = ux / length, uy / length
    reach = kit.hex_mm / 2 - STANDEE_MARGIN_MM
    fold_line(c, ax - ux * reach, ay - uy * reach, bx + ux * reach, by + uy * reach, "valley")
    label_pt = max(LABEL_PT, kit.hex_mm * 0.2 * 0.8)
    for h in cells:
        cx, cy = centre(h)
        text(c, cx, cy - kit.hex_mm * 0.36, f"{h.q},{h.r}", label_pt, REGULAR, "#555555", "centre")
        if h == hexgrid.ORIGIN:
            c.setFillColor(color(fig.color))
            c.circle((cx - kit.hex_mm * 0.28) * MM, (cy - kit.hex_mm * 0.30) * MM, 0.9 * MM, stroke=0, fill=1)
    mx, my = (ax + bx) / 2, (ay + by) / 2  # the middle of the standee line
    name_width = min(len(run) * kit.hex_mm, 3 * kit.hex_mm) * 0.78
    size_pt, lines = fit_lines(fig.name, BOLD, name_width, 7.0, LABEL_PT, 2)
    block = len(lines) * size_pt * 1.12 / MM
    c.saveState()
    c.setFillColor(color("#ffffff"))
    c.setFillAlpha(0.75)
    widest = max(c.stringWidth(ln, BOLD, size_pt) for ln in lines) / MM
    c.roundRect((mx - widest / 2 - 0.8) * MM, (my + 0.6) * MM, (widest + 1.6) * MM, (block + 0.8) * MM,
                0.8 * MM, stroke=0, fill=1)
    c.restoreState()
    centred_lines(c, lines, BOLD, size_pt, mx, my + 1.2 + block, "#222222")
    note = "standee line" if len(cells) == 1 else f"{len(cells)} hexes · standee line"
    text(c, mx, my - 2.6, note, LABEL_PT, REGULAR, "#555555", "centre")
    if len(hexgrid.connected_components(cells)) > 1:
        text(c, mx, my - 5, "parts apart: glue onto card", LABEL_PT, BOLD, "#7a1f1f", "centre")
    ox0, oy0 = centre(hexgrid.ORIGIN) if hexgrid.ORIGIN in cellset else centre(cells[0])
    marker(c, f"pnp:base:{fig.side}:{fig.key}:{len(cells)}", ox0, oy0)


# ---- pages -------------------------------------------------------------------------------------


def figure_pages(kit: Kit, figures: list[Figure]) -> list[PagePlan]:
    """Per side: its standees, then its bases, packed in rows over as many pages as needed."""
    spec = pieces_spec(kit.pack)
    plans: list[PagePlan] = []
    for side_id, side in kit.pack.spec.sides.items():
        config = spec.figures.get(side_id)
        figs = [f for f in figures if f.side == side_id]
        if config is None or not figs:
            continue
        boxes: list[tuple[float, float]] = []
        draws: list[Callable[..., None]] = []  # each box's drawing, given its left and top
        if config.standee is not None:
            for fig in figs:
                geo = standee_geometry(kit, fig, config.standee.height)
                boxes.append((geo.width + 2 * BLEED_MM, geo.length + 2 * BLEED_MM))
                draws.append(lambda l, t, f=fig, g=geo: draw_standee(kit, f, g, l + BLEED_MM, t - BLEED_MM))
        if config.base:
            for fig in figs:
                boxes.append(base_box(kit, fig))
                draws.append(lambda l, t, f=fig: draw_base(kit, f, l, t))
        pages = shelf_pack(boxes, kit.area())
        for n, page in enumerate(pages, 1):
            plans.append(PagePlan("figures", "single", _page(kit, side.name, page, draws, n, len(pages)),
                                  f"{side.name}: standees and bases"))
    return plans


def _page(kit: Kit, side_name: str, page, draws, n: int, total: int):
    def draw(c):
        say = words_of(kit.pack)  # pnp's own words in the pack's language
        page_frame(kit, say("Figures · {side}").format(side=side_name),
                   say("Cut on the solid lines. Standees: fold over at the dash-dot line and glue the panels back "
                       "to back; fold the tabs out at the dashed lines and glue them along the dashed line of the "
                       "base."),
                   f"{kit.title} · " + say("{side} figures {n} of {total} · single-sided").format(
                       side=side_name, n=n, total=total))
        for index, left, top in page:
            draws[index](left, top)
        marker(c, f"pnp:page:figures:{n}", 0, 0)
    return draw
