"""The map page machinery every grid kind shares: paper and margins, the frame that turns map
millimetres (y down) into ReportLab points (y up), true-scale sheets cut with overlap (windows,
seams, alignment crosses, cut notes), the assembly diagram, the overview layout, the scale bar
and the text helpers. What is drawn inside a window comes from the grid's painter, passed in.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from collections.abc import Iterator
from typing import TYPE_CHECKING, Callable

from reportlab.lib.utils import simpleSplit

from generator.render.base.drawn import Recorder, shown_letters
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.paper import PAPERS_MM
from generator.pack.translations.own import Say, as_written
from generator.render.base.pdfout import MM, new_canvas
from generator.render.maps.cells import for_text_only, height_only, strokes_unread

if TYPE_CHECKING:
    from generator.pack.model import Pack





MARGIN_MM = 10.0  # home printers lose 3-5 mm at the edge; cut labels and marks live in the rest


HEADER_MM = 15.0  # title lines, then room for the crosses and cut note above a top seam


FOOTER_MM = 12.0  # the scale bar


SCALE_BAR_MM = 100.0


MARK_ARM_MM = 4.0  # alignment crosses reach this far each side of the seam line
MARK_CLEAR_MM = 0.5  # and keep this far from any text
MARK_SPACING_MM = 36.0  # crosses moved off text stay this far apart: the cut note fits between two


PNG_MAX_PX = 8192


# ---- coordinates -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """Places map millimetres (y down) on a page: the map point (map_x0, map_y0) lands at
    page millimetres (page_x, page_top) (y up), everything scaled by `scale`."""

    map_x0: float
    map_y0: float
    page_x: float
    page_top: float
    scale: float = 1.0

    def mm(self, x: float, y: float) -> tuple[float, float]:
        return (self.page_x + (x - self.map_x0) * self.scale,
                self.page_top - (y - self.map_y0) * self.scale)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        px, py = self.mm(x, y)
        return px * MM, py * MM

    def pts(self, points) -> list[float]:
        """Each (x, y) map point's `pt`, one after the other: x1, y1, x2, y2, …"""
        x0, y0, left, top, s = self.map_x0, self.map_y0, self.page_x, self.page_top, self.scale
        out: list[float] = []
        for x, y in points:
            out += ((left + (x - x0) * s) * MM, (top - (y - y0) * s) * MM)
        return out


def fit_frame(bounds, x: float, y: float, width: float, height: float, max_scale: float | None = None) -> Frame:
    """A frame that shows `bounds` (map mm) centred in the page box (x, y bottom-left, mm)."""
    bx0, by0, bx1, by1 = bounds
    bw, bh = max(bx1 - bx0, 1e-9), max(by1 - by0, 1e-9)
    scale = min(width / bw, height / bh)
    if max_scale is not None:
        scale = min(scale, max_scale)
    left = x + (width - bw * scale) / 2
    top = y + height - (height - bh * scale) / 2
    return Frame(bx0, by0, left, top, scale)


# ---- tiling ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapImage:
    """A map drawn alone at true scale on a one-page PDF, ready to turn into a PNG, with what
    the PNG's sidecar says about its grid (each grid kind's painter makes one)."""

    pdf: bytes
    frame: Frame
    page: tuple[float, float]  # mm
    cell_mm: float  # the cell pitch the pixel pitch counts
    base_px: int  # pixels per cell wanted (fewer only past PNG_MAX_PX)
    tag: str  # the file is <map>_<tag><pitch>px.png
    origin_mm: tuple[float, float]  # centre of cell (0, 0), map mm
    facts: Callable[..., dict]  # (name, width_px, height_px, pitch_px, px_per_mm, origin_px) -> sidecar


@dataclass(frozen=True)
class Window:
    """One sheet's view of the map, in map mm (y down), and its place in the grid of sheets."""

    row: int
    col: int
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def label(self) -> str:
        return f"R{self.row + 1} C{self.col + 1}"

    def contains(self, box) -> bool:
        return box[0] >= self.x0 - 1e-6 and box[1] >= self.y0 - 1e-6 and box[2] <= self.x1 + 1e-6 and box[3] <= self.y1 + 1e-6

    def touches(self, box) -> bool:
        return box[0] < self.x1 - 1e-6 and box[2] > self.x0 + 1e-6 and box[1] < self.y1 - 1e-6 and box[3] > self.y0 + 1e-6


@dataclass(frozen=True)
class SheetPlan:
    paper: str
    page: tuple[float, float]  # mm, in the orientation used
    landscape: bool
    rows: int
    cols: int
    windows: tuple[Window, ...]  # only windows that show part of the map

    def at(self, row: int, col: int) -> Window | None:
        return next((w for w in self.windows if w.row == row and w.col == col), None)


def straight_axis(lines: list[int], pitch: float, half: float, length: float) -> list[tuple[float, float]]:
    """Windows along the axis where hexes form straight lines (rows of a pointy grid):
    each window holds whole lines, and the next one starts with the last line of the
    previous one, so exactly one hex row is printed on both sheets."""
    per_sheet = int((length - 2 * half) / pitch + 1e-9) + 1
    if per_sheet < 2:
        raise ValueError("the hexes are too large for the paper")
    lo, hi = min(lines), max(lines)
    out, a = [], lo
    while True:
        b = min(a + per_sheet - 1, hi)
        out.append((a * pitch - half, b * pitch + half))
        if b == hi:
            return out
        a = b


def zigzag_axis(doubled: list[int], unit: float, length: float) -> list[tuple[float, float]]:
    """Windows along the axis where hex lines zigzag (columns of a pointy grid). A hex with
    doubled coordinate c spans [(c-1)·unit, (c+1)·unit]; edges are cut on multiples of
    `unit`, and consecutive windows share 3 units: one whole hex of every row."""
    per_sheet = int(length / unit + 1e-9)
    if per_sheet < 5:
        raise ValueError("the hexes are too large for the paper")
    lo, hi = min(doubled) - 1, max(doubled) + 1
    out, k0 = [], lo
    while True:
        k1 = min(k0 + per_sheet, hi)
        out.append((k0 * unit, k1 * unit))
        if k1 == hi:
            return out
        k0 = k1 - 3


def window_area(page: tuple[float, float]) -> tuple[float, float]:
    return page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM


# ---- pages -------------------------------------------------------------------------------------


def draw_text(c, x_mm: float, y_mm: float, text: str, size_pt: float, font: str = REGULAR,
              grey: float = 0.0, align: str = "left") -> None:
    if height_only(c):  # a legend measured: its lines' count is all that is read
        return
    c.setFont(font, size_pt)
    c.setFillGray(grey)
    draw = {"left": c.drawString, "right": c.drawRightString, "centre": c.drawCentredString}[align]
    draw(x_mm * MM, y_mm * MM, text)


def draw_paragraph(c, x_mm, top_mm, width_mm, text, size_pt, font=REGULAR, leading=1.3, grey=0.0) -> float:
    """Wrapped text from its top line down; returns the y (mm) below the last line."""
    y = top_mm
    for para in text.split("\n"):
        for line in simpleSplit(para, font, size_pt, width_mm * MM) or [""]:
            y -= size_pt * leading / MM
            draw_text(c, x_mm, y, line, size_pt, font, grey)
    return y


def draw_scale_bar(c, x_mm: float, y_mm: float, hex_mm: float, note: str | None = None,
                   say: Say = as_written) -> None:
    """A 100 mm bar in 10 mm steps: measure it to check the sheet printed at 100 %. `note`
    replaces the line about the hex size (square maps state their tile size)."""
    c.saveState()
    c.setLineWidth(0.2 * MM)
    c.setStrokeGray(0)
    for i in range(10):
        c.setFillGray(0 if i % 2 == 0 else 1)
        c.rect((x_mm + i * 10) * MM, y_mm * MM, 10 * MM, 2.2 * MM, stroke=1, fill=1)
    for value in (0, 50, 100):
        draw_text(c, x_mm + value, y_mm + 3.2, f"{value}", 6.5, align="centre")
    draw_text(c, x_mm + SCALE_BAR_MM + 3, y_mm + 0.3, "mm", 6.5)
    draw_text(c, x_mm + SCALE_BAR_MM + 11, y_mm + 3.0,
              say("Print at 100 % (actual size). This bar must measure 100 mm;"), 6.5, grey=0.2)
    draw_text(c, x_mm + SCALE_BAR_MM + 11, y_mm + 0.3,
              note if note is not None else say("one hex is {size} mm flat to flat.").format(size=f"{hex_mm:g}"),
              6.5, grey=0.2)
    c.restoreState()


def _cross(c, x_mm: float, y_mm: float) -> None:
    arm = MARK_ARM_MM
    c.circle(x_mm * MM, y_mm * MM, arm * 0.45 * MM, stroke=1, fill=0)
    c.line((x_mm - arm) * MM, y_mm * MM, (x_mm + arm) * MM, y_mm * MM)
    c.line(x_mm * MM, (y_mm - arm) * MM, x_mm * MM, (y_mm + arm) * MM)


class _Lazy:
    """The items of an iterator as a list read again and again, each made when first read."""

    __slots__ = ("_items", "_made")

    def __init__(self, items: Iterator[float]):
        self._items = items
        self._made: list[float] = []

    def __iter__(self) -> Iterator[float]:
        made = self._made
        i = 0
        while True:
            if i == len(made):
                item = next(self._items, None)
                if item is None:
                    return
                made.append(item)
            yield made[i]
            i += 1

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None


def _mark_positions(lo: float, hi: float, seam: float | None = None, along_x: bool = True,
                    avoid: list | tuple = ()) -> list[float]:
    """Where alignment crosses sit along a seam (map mm): spread out, clear of the corners,
    each moved along the seam (in 1 mm steps, nearest first) off any text in `avoid` (boxes
    x0, y0, x1, y1 map mm) when the seam's cross position `seam` is given."""
    inset = min(12.0, (hi - lo) / 4)
    count = max(2, int((hi - lo - 2 * inset) / 45) + 1)
    spots = [lo + inset + i * (hi - lo - 2 * inset) / (count - 1) for i in range(count)]
    if seam is None or not avoid:
        return spots
    reach = MARK_ARM_MM + MARK_CLEAR_MM
    # only text across the seam's line can touch a cross on it: the rest of the window's text
    # (hundreds of labels on a big map) is left out once here rather than at each of 81 tries
    # (what is near holds each box's reach across the seam, so a try only asks along it)
    if along_x:
        near = [(b[0], b[2]) for b in avoid if b[1] < seam + reach and seam - reach < b[3]]
    else:
        near = [(b[1], b[3]) for b in avoid if b[0] < seam + reach and seam - reach < b[2]]

    def clear(p: float) -> bool:
        high, low = p + reach, p - reach
        return not any(start < high and low < end for start, end in near)

    # each spot's places, nearest first, checked only as far as the choice below reads them
    # (mostly the first: the spot itself)
    # (sorted as (distance, place) pairs: the order a key of the same pair gives, with no call per place)
    tries = [_Lazy(q for _d, q in sorted([(abs(q - p), q) for q in [p + k for k in range(-40, 41)]])
                   if lo + MARK_ARM_MM <= q <= hi - MARK_ARM_MM and clear(q)) for p in spots]
    # the first two crosses keep the room the cut note between them needs (as far apart as
    # planned, at most MARK_SPACING_MM); the others only keep clear of each other
    first_gap = min(MARK_SPACING_MM, spots[1] - spots[0])
    for first in tries[0] or [spots[0]]:
        out = [first]
        for i, options in enumerate(tries[1:], 1):
            apart = first_gap if i == 1 else 2 * reach
            found = next((q for q in options if all(abs(q - o) >= apart - 1e-6 for o in out)), None)
            if found is None:
                break
            out.append(found)
        if len(out) == len(spots):
            return out
    return spots  # nowhere clear: where they were planned


def window_text_boxes(plan: SheetPlan, win: Window, paint) -> list[tuple[float, float, float, float]]:
    """The text `paint` draws in a window (cell labels, zone names, start marks), as the boxes
    of its letters in map mm, so the crosses of a seam can keep off what either of its two
    sheets prints there: the window's text alone is painted on a scratch canvas that records
    each string it shows (render/base/recording.py), and each letter's box is worked out from
    the font as a PDF reader gives it (base/drawn.py: shown_letters); nothing is written."""
    W, H = plan.page
    frame = Frame(win.x0, win.y0, MARGIN_MM, H - MARGIN_MM - HEADER_MM)
    c = new_canvas(io.BytesIO(), (W * MM, H * MM), "marks")
    c.scratch = True  # never saved: its strings are told to the recorder alone (render/base/recording.py)
    for_text_only(c)  # only the text is wanted: the cells' shapes are left off it
    recorder = c.record(Recorder())
    paint(c, frame, win)
    c.stop_recording()
    return _letter_boxes(recorder.shown, frame)


def _letter_boxes(shown: list, frame: Frame) -> list[tuple[float, float, float, float]]:
    """Each letter of the strings `shown` (a Recorder's notes) as a box in map mm."""
    boxes = []
    for left, bottom, right, top in shown_letters(shown):
        left, bottom, right, top = left / MM, bottom / MM, right / MM, top / MM
        boxes.append((frame.map_x0 + (left - frame.page_x) / frame.scale,
                      frame.map_y0 + (frame.page_top - top) / frame.scale,
                      frame.map_x0 + (right - frame.page_x) / frame.scale,
                      frame.map_y0 + (frame.page_top - bottom) / frame.scale))
    return boxes


def _rotated_text(c, x_mm, y_mm, text, size_pt, angle, font=REGULAR, grey=0.2) -> None:
    c.saveState()
    c.translate(x_mm * MM, y_mm * MM)
    c.rotate(angle)
    draw_text(c, 0, 0, text, size_pt, font, grey, align="centre")
    c.restoreState()


def draw_sheet(c, m, plan: SheetPlan, win: Window, paint, scale_note: str | None = None,
               title_font: str = BOLD, say: Say = as_written, texts: dict | None = None) -> None:
    """One true-scale sheet of any grid. `paint(c, frame, win)` draws the map inside the
    clipped window; `scale_note` is the scale bar's line about cell size (default: the hex size).
    `texts` keeps each window's text boxes (window_text_boxes) across the sheets of one map:
    a window is a neighbour of up to four sheets, and is read once; while a PaintRecorder
    records, a window not read yet is read as its own sheet draws it (its strings_of), the same
    strings at the same places (pnp validate's map pass, drawing fills alone, reads every window
    so: a sheet's crosses on its right and lower seams, which need the next sheets' text, are
    lines, left off there)."""
    W, H = plan.page
    frame = Frame(win.x0, win.y0, MARGIN_MM, H - MARGIN_MM - HEADER_MM)
    left, top = frame.mm(win.x0, win.y0)
    right, bottom = frame.mm(win.x1, win.y1)

    draw_text(c, MARGIN_MM, H - MARGIN_MM - 5, m.title, 12, title_font)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 9.2,
              say("Sheet row {row} of {rows}, column {col} of {cols} · true scale").format(
                  row=win.row + 1, rows=plan.rows, col=win.col + 1, cols=plan.cols),
              7.5, grey=0.25)
    draw_text(c, W - MARGIN_MM, H - MARGIN_MM - 7, say("Sheet {label}").format(label=win.label), 16, BOLD,
              align="right")

    texts = {} if texts is None else texts
    c.saveState()
    clip = c.beginPath()
    clip.rect(left * MM, bottom * MM, (right - left) * MM, (top - bottom) * MM)
    c.clipPath(clip, stroke=0, fill=0)
    strings_of = getattr(getattr(c, "ink", None), "strings_of", None)
    if strings_of is not None and win not in texts:  # its recorder notes its strings: its text, read as it is drawn
        texts[win] = _letter_boxes(strings_of(lambda: paint(c, frame, win)), frame)
    else:
        paint(c, frame, win)
    c.restoreState()

    c.saveState()
    c.setStrokeGray(0)
    c.setLineWidth(0.25 * MM)
    left_nb, top_nb = plan.at(win.row, win.col - 1), plan.at(win.row - 1, win.col)
    right_nb, below_nb = plan.at(win.row, win.col + 1), plan.at(win.row + 1, win.col)
    # Edges shared with a sheet to the left or above are cut; this sheet is then laid over
    # that neighbour so its cut edge sits on the neighbour's row of crosses.
    # The cut notes sit halfway between the first two crosses so they never cross an arm.
    # Crosses keep off the text either sheet of their seam prints there.

    def text_of(w: Window) -> list:  # read when a seam first needs it (a sheet alone has no seam)
        if w not in texts:
            texts[w] = window_text_boxes(plan, w, paint)
        return texts[w]

    def along_y(other: Window, x: float) -> list[float]:  # crosses of a vertical seam at map x
        return _mark_positions(win.y0, win.y1, x, False, text_of(win) + text_of(other))

    def along_x(other: Window, y: float) -> list[float]:  # crosses of a horizontal seam at map y
        return _mark_positions(win.x0, win.x1, y, True, text_of(win) + text_of(other))

    lines = not strokes_unread(c)  # (a page whose recorder reads fills alone has no seams or crosses)
    c.setDash([2 * MM, 1.2 * MM])
    if left_nb:
        if lines:
            c.line(left * MM, (bottom - 3) * MM, left * MM, (top + 3) * MM)
        marks = along_y(left_nb, win.x0)
        _rotated_text(c, left - 3.2, frame.mm(0, (marks[0] + marks[1]) / 2)[1],
                      say("CUT here, lay on {label}").format(label=left_nb.label), 6.5, 90)
    if top_nb:
        if lines:
            c.line((left - 3) * MM, top * MM, (right + 3) * MM, top * MM)
        marks = along_x(top_nb, win.y0)
        draw_text(c, frame.mm((marks[0] + marks[1]) / 2, 0)[0], top + 1.6,
                  say("CUT here, lay on {label}").format(label=top_nb.label), 6.5, grey=0.2, align="centre")
    c.setDash([])
    c.setLineWidth(0.2 * MM)
    # Crosses straddle each seam: the neighbour's cut edge runs through their centres, so
    # after taping every cross is whole again, half on each sheet.
    if right_nb:
        seam = frame.mm(right_nb.x0, 0)[0]
        for y in along_y(right_nb, right_nb.x0) if lines else ():
            _cross(c, seam, frame.mm(0, y)[1])
        _rotated_text(c, right + 3.2, (top + bottom) / 2,
                      say("sheet {label} overlaps up to the crosses").format(label=right_nb.label), 6.5, -90)
    if below_nb:
        seam = frame.mm(0, below_nb.y0)[1]
        for x in along_x(below_nb, below_nb.y0) if lines else ():
            _cross(c, frame.mm(x, 0)[0], seam)
        draw_text(c, (left + right) / 2, bottom - 3.6,
                  say("sheet {label} overlaps up to the crosses").format(label=below_nb.label),
                  6.5, grey=0.2, align="centre")
    if left_nb and lines:
        for y in along_y(left_nb, win.x0):
            _cross(c, left, frame.mm(0, y)[1])
    if top_nb and lines:
        for x in along_x(top_nb, win.y0):
            _cross(c, frame.mm(x, 0)[0], top)
    c.restoreState()
    draw_scale_bar(c, MARGIN_MM, MARGIN_MM + 1.5, m.hex_size if scale_note is None else 0.0, scale_note, say)


def terrain_legend_rows(m, say: Say = as_written) -> list[tuple[str, str, str]]:
    """Legend rows for the terrain a map uses, hex or square alike."""
    rows = []
    for tid in m.terrain_ids_in_use():
        spec = m.terrain_specs.get(tid)
        if spec is None:
            rows.append((f"terrain:{tid}", tid, say("Terrain not declared by the pack.")))
            continue
        facts = (say("Walkable") if spec.walkable else say("Impassable")) + "; " + (
            say("blocks line of sight.") if spec.blocks_sight else say("does not block line of sight."))
        rows.append((f"terrain:{tid}", spec.name, f"{spec.text} {facts}".strip()))
    return rows


LEGEND_SIDE_MM = 78.0  # legend column width when it sits beside the map


def header_height(m, width: float) -> float:
    lines = len(simpleSplit(m.notes, REGULAR, 8.5, width * MM)) if m.notes else 0
    return 14 + lines * 8.5 * 1.3 / MM + 4


Box = tuple[float, float, float, float]  # x, y (bottom left), width, height in mm
OverviewPlace = tuple[tuple[float, float], Box, tuple[float, float, float]]  # page size, picture box, legend x, y, width


def overview_layout(bounds: Box, paper: str, header_height: Callable[[float], float],
                    legend_height: Callable[[float], float]) -> OverviewPlace:
    """For any map picture of `bounds` (mm): the page orientation and legend place (below or
    beside) that print it largest, given the header's and legend's heights at a width."""
    w, h = PAPERS_MM[paper]
    bw, bh = bounds[2] - bounds[0], bounds[3] - bounds[1]
    best: tuple[float, tuple[float, float], Box, tuple[float, float, float]] | None = None
    side = legend_height(LEGEND_SIDE_MM)  # the same in either orientation: measured (drawn) once
    for page in ((w, h), (h, w)):
        W, H = page
        width = W - 2 * MARGIN_MM
        top = H - MARGIN_MM - header_height(width)
        below = legend_height(width)
        options = [
            ((MARGIN_MM, MARGIN_MM + below + 7, width, top - MARGIN_MM - below - 7),
             (MARGIN_MM, MARGIN_MM + below, width)),
        ]
        if side <= top - MARGIN_MM:
            options.append(((MARGIN_MM, MARGIN_MM + 6, width - LEGEND_SIDE_MM - 6, top - MARGIN_MM - 6),
                            (W - MARGIN_MM - LEGEND_SIDE_MM, top, LEGEND_SIDE_MM)))
        for box, legend in options:
            if box[2] <= 0 or box[3] <= 0:
                continue
            scale = min(box[2] / bw, box[3] / bh, 1.0)
            if best is None or scale > best[0] + 1e-9:
                best = (scale, page, box, legend)
    if best is None:  # a header and legend taller than the page leave no room (no paper we offer is that small)
        raise ValueError(f"no page of {paper} fits the map picture")
    return best[1], best[2], best[3]


def draw_assembly(c, m, plan: SheetPlan, page, paint, steps: list[str] | None = None,
                  title_font: str = BOLD, say: Say = as_written) -> None:
    """The assembly diagram of any grid. `paint(c, frame)` draws the whole map small; `steps`
    replaces the numbered instructions (the default speaks of hexes)."""
    W, H = page
    width = W - 2 * MARGIN_MM
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 6, say("{title}: putting the sheets together").format(title=m.title), 16,
              title_font)
    steps = steps or [
        say("1. Print the {count} sheets at 100 % (actual size, no 'fit to page'). Check that "
            "the scale bar at the foot of each sheet measures 100 mm.").format(count=len(plan.windows)),
        say("2. On every sheet, cut along the dashed lines only (they are on the left and top edges of "
            "sheets that join a neighbour). Leave the other edges as they are."),
        say("3. Lay each cut sheet over its neighbour to the left and above, so that the cut edge runs "
            "through the centres of the neighbour's crosses: the half-crosses and hex lines continue "
            "across the seam. One row of hexes is printed on both sheets; the upper sheet covers it."),
        say("4. Work row by row from the top left (R1 C1). Tape the seams on the back."),
    ]
    y = H - MARGIN_MM - 10
    for step in steps:
        y = draw_paragraph(c, MARGIN_MM, y, width, step, 9) - 1.5
    bx0 = min(w.x0 for w in plan.windows)
    by0 = min(w.y0 for w in plan.windows)
    bx1 = max(w.x1 for w in plan.windows)
    by1 = max(w.y1 for w in plan.windows)
    frame = fit_frame((bx0, by0, bx1, by1), MARGIN_MM, MARGIN_MM, width, y - 4 - MARGIN_MM)
    paint(c, frame)
    c.saveState()
    # the overlaps: shaded bands where two sheets print the same hexes
    c.setFillGray(0.3)
    c.setFillAlpha(0.22)
    for win in plan.windows:
        for nb in (plan.at(win.row, win.col + 1), plan.at(win.row + 1, win.col)):
            if nb is None:
                continue
            ox0, oy0 = max(win.x0, nb.x0), max(win.y0, nb.y0)
            ox1, oy1 = min(win.x1, nb.x1), min(win.y1, nb.y1)
            (px0, py0), (px1, py1) = frame.mm(ox0, oy0), frame.mm(ox1, oy1)
            c.rect(px0 * MM, py1 * MM, (px1 - px0) * MM, (py0 - py1) * MM, stroke=0, fill=1)
    c.setFillAlpha(1)
    c.setStrokeGray(0)
    c.setLineWidth(0.5 * MM)
    lines = not strokes_unread(c)
    for win in plan.windows:
        (px0, py0), (px1, py1) = frame.mm(win.x0, win.y0), frame.mm(win.x1, win.y1)
        if lines:
            c.rect(px0 * MM, py1 * MM, (px1 - px0) * MM, (py0 - py1) * MM, stroke=1, fill=0)
        size_pt = min(16.0, max(8.0, (px1 - px0) * 0.12 * MM))
        label_w = c.stringWidth(win.label, BOLD, size_pt) / MM + 3  # mm
        label_h = size_pt * 1.4 / MM
        cx, cy = (px0 + px1) / 2, (py0 + py1) / 2
        c.setFillGray(1)
        c.rect((cx - label_w / 2) * MM, (cy - label_h / 2) * MM, label_w * MM, label_h * MM, stroke=1, fill=1)
        draw_text(c, cx, cy - size_pt * 0.36 / MM, win.label, size_pt, BOLD, align="centre")
    c.restoreState()


def zone_names_of(pack: Pack) -> dict:
    return {sid: side.name for sid, side in pack.spec.sides.items()}


# ---- images for virtual tables -----------------------------------------------------------------


PNG_MARGIN_MM = 2.0


def image_pdf(title: str, bounds, paint) -> tuple[bytes, Frame, tuple[float, float]]:
    """A one-page PDF of a map picture of `bounds` (map mm) at true scale with a small margin,
    no furniture; `paint(c, frame)` draws it. Returns (PDF bytes, frame, page size mm)."""
    x0, y0, x1, y1 = bounds
    page = (x1 - x0 + 2 * PNG_MARGIN_MM, y1 - y0 + 2 * PNG_MARGIN_MM)
    frame = Frame(x0, y0, PNG_MARGIN_MM, page[1] - PNG_MARGIN_MM)
    buffer = io.BytesIO()
    c = new_canvas(buffer, (page[0] * MM, page[1] * MM), title, "map image")
    c.setFillGray(1)
    c.rect(0, 0, page[0] * MM, page[1] * MM, stroke=0, fill=1)
    paint(c, frame)
    c.save()
    return buffer.getvalue(), frame, page
