"""Shared drawing for play pieces: the page frame, exact cut outlines (hex, round, square),
counter faces, fitted labels, low-ink fill patterns and the invisible markers that let tests
and tools find every piece on a sheet.

Coordinates: millimetres with y pointing *up* (ReportLab's), converted to points only in
the calls. Cut outlines are drawn in page coordinates, never inside transformed forms, so
a path read back from the PDF has exactly the size printed.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import getAscent, getDescent, stringWidth

from generator.grids import hexgrid
from generator.pack.translations.own import Say, as_written, words_of
from generator.render.base.colors import INK, strength
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.operators import polygon_path as closed_polygon
from generator.core.typesize import LABEL_PT
from generator.render.base.paper import PAPERS_MM
from generator.render.base.pdfout import MM
from generator.render.pieces.patterns import pattern

if TYPE_CHECKING:
    from generator.pack.art import Art
    from generator.core.yamlio import Document
    from generator.pack.model import Pack
    from generator.render.base.art import ArtLibrary
    from generator.render.base.icons import IconSheet

MARGIN_MM = 10.0  # home printers lose 3-5 mm at the edge
HEADER_MM = 15.0
FOOTER_MM = 9.0
BLEED_MM = 1.0  # each face's colour runs this far past its cut line
GAP_MM = 3.0  # between the cut lines of neighbouring pieces
CUT_WIDTH_PT = 0.5
FOLD_DASH_PT = (2.5, 1.8)


# ---- context -----------------------------------------------------------------------------------


@dataclass
class Kit:
    """What every page of one pieces PDF shares."""

    pack: Pack
    hex_mm: float  # flat to flat
    orientation: hexgrid.Orientation  # pointy | flat
    paper: str
    duplex: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    canvas: Any = None  # the ReportLab canvas of the PDF being drawn (ReportLab has no types)
    icons: IconSheet | None = None
    art: ArtLibrary | None = None
    doc: Document | None = None  # the game.yaml Document, for error locations
    title: str = ""

    @property
    def page_mm(self) -> tuple[float, float]:
        return PAPERS_MM[self.paper]

    def area(self) -> tuple[float, float, float, float]:
        """The printable box (left, bottom, right, top) in mm under the header, above the footer."""
        w, h = self.page_mm
        return (MARGIN_MM, MARGIN_MM + FOOTER_MM, w - MARGIN_MM, h - MARGIN_MM - HEADER_MM)

    def layout(self, f2f: float | None = None) -> hexgrid.Layout:
        return hexgrid.Layout.from_flat_to_flat(self.orientation, f2f or self.hex_mm)

    @property
    def art_library(self) -> ArtLibrary:
        """The pack's art (document.py sets it before a page is drawn)."""
        if self.art is None:
            raise RuntimeError("the pieces kit has no art library yet")
        return self.art

    @property
    def icon_sheet(self) -> IconSheet:
        """The icons of the PDF (document.py sets it before a page is drawn)."""
        if self.icons is None:
            raise RuntimeError("the pieces kit has no icon sheet yet")
        return self.icons

    def owner(self, path: tuple, ident: str):
        """Something ArtLibrary can name in an error: an id and a location in game.yaml."""
        loc = self.doc.at(path) if self.doc is not None else None
        return SimpleNamespace(id=ident, location=loc)


@dataclass
class PagePlan:
    """One page to draw: `section` and `role` go into the page's marker and the contents."""

    section: str
    role: str  # single | front | back
    draw: Callable[[object], None]
    note: str = ""
    size_mm: tuple[float, float] | None = None
    extra: dict = field(default_factory=dict)


# ---- small helpers -----------------------------------------------------------------------------


def color(value: str | None, default: str = INK) -> Color:
    return _hex_color(value or default)


@functools.lru_cache(maxsize=256)
def _hex_color(value: str) -> Color:
    """`HexColor(value)`, once per colour (a sheet of counters sets a few dozen, hundreds of times;
    nothing changes a colour once made)."""
    return HexColor(value)


@functools.lru_cache(maxsize=1024)  # (the same few colours and amounts on every counter; a colour is never changed)
def tint(value: str | None, amount: float, default: str = "#777777") -> Color:
    """`value` (or `default`) at `amount` of its strength on white: 0 = white, 1 = the colour."""
    return strength(value or default, amount)


def marker(c, label: str, x_mm: float, y_mm: float) -> None:
    """Invisible text (render mode 3) at a point: which piece sits where, for tests and tools."""
    c.saveState()  # the text render mode is graphics state: keep mode 3 from leaking into later text
    t = c.beginText(x_mm * MM, y_mm * MM)
    t.setTextRenderMode(3)
    t.setFont(REGULAR, 1)
    t.textOut(label)
    c.drawText(t)
    c.restoreState()


def text(c, x: float, y: float, value: str, size: float, font: str = REGULAR, fill: str = INK,
         align: str = "left") -> None:
    c.setFont(font, size)
    c.setFillColor(color(fill))
    {"left": c.drawString, "right": c.drawRightString, "centre": c.drawCentredString}[align](x * MM, y * MM, value)


def fit_lines(value: str, font: str, width_mm: float, max_pt: float, min_pt: float,
              max_lines: int = 2) -> tuple[float, list[str]]:
    """The largest size (0.25 pt steps) at which `value` fits `width_mm` in at most
    `max_lines` lines broken at spaces; at `min_pt` the last resort is to cut words."""
    words = value.split()
    size = max_pt
    while True:
        lines, current = [], ""
        for word in words:
            trial = f"{current} {word}".strip()
            if not current or stringWidth(trial, font, size) <= width_mm * MM:
                current = trial
            else:
                lines.append(current)
                current = word
        if current:
            lines.append(current)
        fits = all(stringWidth(ln, font, size) <= width_mm * MM for ln in lines)
        if (len(lines) <= max_lines and fits) or size <= min_pt:
            break
        size = max(min_pt, size - 0.25)  # never below the floor the caller gives (5 pt for labels)
    if len(lines) > max_lines:  # words left over: the last line says so rather than dropping them unseen
        lines = lines[:max_lines]
        lines[-1] += "…"
    out = []
    for ln in lines:
        while len(ln) > 1 and stringWidth(ln, font, size) > width_mm * MM:
            ln = ln[:-2] + "…"
        out.append(ln)
    return size, out


def centred_lines(c, lines: list[str], font: str, size: float, cx: float, top: float,
                  fill: str = INK, leading: float = 1.12) -> float:
    """Lines centred on cx from `top` (mm) down; returns the y under the last line."""
    y = top
    for ln in lines:
        y -= size * leading / MM
        text(c, cx, y + size * 0.22 / MM, ln, size, font, fill, "centre")
    return y


# ---- shapes ------------------------------------------------------------------------------------


def hex_points(orientation: hexgrid.Orientation, cx: float, cy: float, f2f: float) -> list[tuple[float, float]]:
    """The six corners (mm, y up) of a hex of the given flat-to-flat size centred at (cx, cy)."""
    lay = hexgrid.Layout.from_flat_to_flat(orientation, f2f)
    return [(cx + dx, cy - dy) for dx, dy in lay.corner_offsets()]


def extent(shape: str, orientation: hexgrid.Orientation, size: float) -> tuple[float, float]:
    """Width and height (mm) of a counter's cut outline."""
    if shape == "hex":
        lay = hexgrid.Layout.from_flat_to_flat(orientation, size)
        return lay.hex_width, lay.hex_height
    return size, size


def inner_radius(shape: str, size: float) -> float:
    """The radius of the largest circle inside the cut outline."""
    return size / 2


def polygon_path(c, points):
    """The closed path through `points` (mm): the text of `c.beginPath()`'s moveTo, lineTos and
    close, made at once (operators.polygon_path)."""
    return closed_polygon([v * MM for point in points for v in point])


def shape_path(c, shape: str, orientation: hexgrid.Orientation, cx: float, cy: float, size: float, grow: float = 0.0):
    """The outline of a counter, `grow` mm outside its cut line (negative: inside)."""
    if shape == "hex":
        return polygon_path(c, hex_points(orientation, cx, cy, size + 2 * grow))
    p = c.beginPath()
    half = size / 2 + grow
    if shape == "round":
        p.circle(cx * MM, cy * MM, half * MM)
    else:
        p.rect((cx - half) * MM, (cy - half) * MM, 2 * half * MM, 2 * half * MM)
    return p


def cut_line(c, path) -> None:
    """The line to cut along: solid, thin, dark; the only stroke exactly on a piece's outline."""
    c.saveState()
    c.setLineWidth(CUT_WIDTH_PT)
    c.setStrokeColor(color("#111111"))
    c.setLineJoin(0)
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def fold_line(c, x1: float, y1: float, x2: float, y2: float, kind: str = "valley", ticks: bool = False) -> None:
    """Dashed for a valley fold, dash-dot for a mountain fold; a thin white line under the
    dashes keeps it visible on dark paper. `ticks` adds short marks just past both ends,
    outside the cut line, where a fold is easiest to line up."""
    c.saveState()
    c.setLineCap(0)
    c.setStrokeColor(color("#ffffff"))
    c.setLineWidth(0.35)
    c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    c.setLineWidth(0.5)
    c.setStrokeColor(color("#333333"))
    c.setDash([4, 1.5, 0.8, 1.5] if kind == "mountain" else list(FOLD_DASH_PT))
    c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    if ticks:
        c.setDash([])
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        for (px, py), sign in (((x1, y1), -1), ((x2, y2), 1)):
            c.line((px + sign * ux * 0.6) * MM, (py + sign * uy * 0.6) * MM,
                   (px + sign * ux * 2.6) * MM, (py + sign * uy * 2.6) * MM)
    c.restoreState()


# ---- faces -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Face:
    """One printed side of a counter, everything resolved (no defaults left to look up)."""

    label: str = ""
    text: str = ""
    icon: str | None = None
    color: str = "#555555"
    art: str | Art | None = None  # a card's art, or a path from the pieces config
    art_owner: object = None
    pattern: str | None = None
    badge: str = ""  # a short tag on the rim, e.g. a copy number


ROUND_TEXT_CLEAR_MM = 1.5  # words on a round counter keep this far inside its cut circle


def _face_blocks(face: Face, inner: float, width: float, cy: float, smaller: float = 1.0):
    """The label and second line fitted to `width` mm, and the icon's size: (blocks of (lines,
    font, size pt), their height mm, icon size mm, the top of the stack mm). `smaller` < 1
    makes the type smaller (a round counter whose words would reach its cut)."""
    label_pt = max(LABEL_PT, min(9.5, inner * 0.34 * 72 / 25.4) * smaller)
    blocks = []  # (lines, font, size)
    if face.label:
        size_pt, label_lines = fit_lines(face.label, BOLD, width, label_pt, LABEL_PT, 3)
        blocks.append((label_lines, BOLD, size_pt))
    if face.text:
        small = max(LABEL_PT, min(label_pt * 0.72, 6.0))
        size_pt, text_lines = fit_lines(face.text, REGULAR, width * 0.92, small, LABEL_PT, 2)
        blocks.append((text_lines, REGULAR, size_pt))
    text_h = sum(len(ls) * s * 1.12 / MM for ls, _, s in blocks)
    isize = 0.0
    if face.icon:  # `smaller` shrinks the icon too: the words then sit nearer the middle of a round face
        isize = min(inner * (0.9 if blocks else 1.25), max(inner * 0.45, 1.8 * inner - text_h - 1.5)) * smaller
    total = isize + (0.8 if isize and blocks else 0.0) + text_h
    top = cy + total / 2 + (inner * 0.04 if isize else 0.0)
    return blocks, text_h, isize, top


def _lines_inside(blocks, isize: float, top: float, cy: float, radius: float) -> bool:
    """Whether every line's box (its width; its slot, or the font's ascent and descent round
    its baseline where they reach further) lies within `radius` of the centre."""
    y = top - isize - (0.8 if isize else 0.0)
    for lines, font, size_pt in blocks:
        for ln in lines:
            y -= size_pt * 1.12 / MM
            baseline = y + size_pt * 0.22 / MM  # as centred_lines sets it
            high = max(y + size_pt * 1.12 / MM, baseline + getAscent(font, size_pt) / MM)
            low = min(y, baseline + getDescent(font, size_pt) / MM)
            half = stringWidth(ln, font, size_pt) / MM / 2
            if max(math.hypot(half, high - cy), math.hypot(half, low - cy)) > radius:
                return False
    return True


def draw_face(kit: Kit, face: Face, shape: str, cx: float, cy: float, size: float) -> None:
    """A counter face centred at (cx, cy) mm: colour past the cut line (bleed), a coloured
    rim, art or a pattern, the icon, the label and the second line; then the cut line."""
    c = kit.canvas
    r = inner_radius(shape, size)
    c.saveState()
    # bleed and rim: the colour runs BLEED_MM past the cut line and ends in a band inside it
    c.setFillColor(color(face.color))
    c.drawPath(shape_path(c, shape, kit.orientation, cx, cy, size, BLEED_MM), stroke=0, fill=1)
    band = max(1.0, r * 0.1)
    c.setFillColor(tint(face.color, 0.13))
    c.drawPath(shape_path(c, shape, kit.orientation, cx, cy, size, -band), stroke=0, fill=1)
    c.saveState()
    c.clipPath(shape_path(c, shape, kit.orientation, cx, cy, size, -band), stroke=0, fill=0)
    if face.art:
        kit.art_library.draw(c, face.art, face.art_owner, (cx - r) * MM, (cy - r) * MM, 2 * r * MM, 2 * r * MM, "cover")
    else:
        pattern(c, face.pattern, cx - r, cy - r, cx + r, cy + r, max(1.6, r / 5))
    c.restoreState()
    inner = r - band
    width = inner * (1.65 if shape == "round" else 1.75)
    for attempt in range(8):  # a round face: narrower lines until every line's box is clear of the cut circle
        blocks, text_h, isize, top = _face_blocks(face, inner, width, cy, 0.93 ** attempt)
        # 0.2 mm more: a font's bounding box reaches a little past its ascent and descent
        if shape != "round" or _lines_inside(blocks, isize, top, cy, r - ROUND_TEXT_CLEAR_MM - 0.2):
            break
        if attempt >= 3:  # the icon has given way first; then narrower lines
            width *= 0.9
    if isize and face.icon:  # (an icon size is given only to a face with an icon)
        kit.icon_sheet.draw(face.icon, (cx - isize / 2) * MM, (top - isize) * MM, isize * MM, None)
    if blocks:
        y = top - isize - (0.8 if isize else 0.0)
        if face.art or face.pattern:  # a white plate keeps the words legible over art
            widest = max(stringWidth(ln, f, s) for ls, f, s in blocks for ln in ls) / MM
            c.setFillColor(Color(1, 1, 1, alpha=0.88))
            c.roundRect((cx - widest / 2 - 1.2) * MM, (y - text_h - 0.9) * MM, (widest + 2.4) * MM,
                        (text_h + 1.3) * MM, 1.2 * MM, stroke=0, fill=1)
        for ls, font, size_pt in blocks:
            y = centred_lines(c, ls, font, size_pt, cx, y, INK)
    if face.badge:
        text(c, cx, cy - r + band * 0.25 + 0.3, face.badge, LABEL_PT, BOLD, "#ffffff", "centre")
    c.restoreState()
    cut_line(c, shape_path(c, shape, kit.orientation, cx, cy, size))


# ---- page furniture ----------------------------------------------------------------------------


def page_frame(kit: Kit, heading: str, note: str, footer: str) -> None:
    """Heading and a note of up to two lines at the top; a 50 mm scale bar and the footer
    line at the bottom."""
    c = kit.canvas
    w, h = kit.page_mm
    text(c, MARGIN_MM, h - MARGIN_MM - 5, heading, 12, BOLD)
    if note:
        _, lines = fit_lines(note, REGULAR, w - 2 * MARGIN_MM, 7.5, 7.5, 2)
        for i, ln in enumerate(lines):
            text(c, MARGIN_MM, h - MARGIN_MM - 9.3 - i * 3.1, ln, 7.5, REGULAR, "#444444")
    scale_bar(c, MARGIN_MM, MARGIN_MM + 2.5, say=words_of(kit.pack))
    text(c, w - MARGIN_MM, MARGIN_MM + 2.8, footer, 6.5, REGULAR, "#555555", "right")


def scale_bar(c, x: float, y: float, length: float = 50.0, say: Say = as_written) -> None:
    """A bar in 10 mm steps: if it does not measure `length` mm, the page was scaled."""
    c.saveState()
    c.setLineWidth(0.4)
    c.setStrokeGray(0)
    steps = int(length // 10)
    for i in range(steps):
        c.setFillGray(0 if i % 2 == 0 else 1)
        c.rect((x + i * 10) * MM, y * MM, 10 * MM, 1.8 * MM, stroke=1, fill=1)
    text(c, x + length + 2, y + 0.2, say("{length} mm at 100 %").format(length=f"{length:g}"), 6, REGULAR, "#444444")
    c.restoreState()


def shelf_pack(sizes: list[tuple[float, float]], area: tuple[float, float, float, float],
               gap: float = GAP_MM - 2 * BLEED_MM) -> list[list[tuple[int, float, float]]]:
    """Place boxes (w, h mm, bleed included) in rows, left to right, then rows top to
    bottom, page after page; the default gap leaves GAP_MM between neighbouring cut lines.
    Returns, per page, (index, left, top) of each box; every row is centred."""
    left, bottom, right, top = area
    width = right - left
    rows: list[list[int]] = []
    used = 0.0
    for i, (w, _h) in enumerate(sizes):
        if rows and rows[-1] and used + gap + w <= width + 1e-6:
            rows[-1].append(i)
            used += gap + w
        else:
            rows.append([i])
            used = w
    pages: list[list[tuple[int, float, float]]] = [[]]
    y = top
    for row in rows:
        height = max(sizes[i][1] for i in row)
        if y - height < bottom - 1e-6 and pages[-1]:
            pages.append([])
            y = top
        row_w = sum(sizes[i][0] for i in row) + gap * (len(row) - 1)
        x = left + (width - row_w) / 2
        for i in row:
            pages[-1].append((i, x, y))
            x += sizes[i][0] + gap
        y -= height + gap
    return [p for p in pages if p]
