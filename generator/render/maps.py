"""Hex maps on paper: true-scale sheets tiled with overlap, an overview, an assembly
diagram, PNG exports for virtual tables, and the small hex drawings cards and the
rulebook reuse (`draw_hex_shape`, `draw_map_thumbnail`).

Everything is measured in millimetres; `Frame.pt` is the one place map millimetres
(y down, from `hexgrid.Layout`) become ReportLab points (y up).
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.utils import simpleSplit

from generator import hexgrid
from generator.hexgrid import Hex
from generator.maps.model import HexMap, load_pack_maps
from generator.model import Pack
from generator.render.fonts import BOLD, REGULAR
from generator.render.pdfout import MM, atomic_output, new_canvas

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0  # home printers lose 3-5 mm at the edge; cut labels and marks live in the rest
HEADER_MM = 15.0  # title lines, then room for the crosses and cut note above a top seam
FOOTER_MM = 12.0  # the scale bar
SCALE_BAR_MM = 100.0
MARK_ARM_MM = 4.0  # alignment crosses reach this far each side of the seam line

GRID_GREY = 0.2
LABEL_GREY = 0.35
PATTERN_GREY = 0.4
OBSTACLE_FILL = 0.62
ZONE_DASHES = ([2.4, 1.4], [0.5, 1.1])  # mm; first zone dashed, second dotted

PNG_HEX_PX = 100  # flat-to-flat hex pitch of exported images; 25.4 mm hexes → 100 dpi
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


def _fit_frame(bounds, x: float, y: float, width: float, height: float, max_scale: float | None = None) -> Frame:
    """A frame that shows `bounds` (map mm) centred in the page box (x, y bottom-left, mm)."""
    bx0, by0, bx1, by1 = bounds
    bw, bh = max(bx1 - bx0, 1e-9), max(by1 - by0, 1e-9)
    scale = min(width / bw, height / bh)
    if max_scale is not None:
        scale = min(scale, max_scale)
    left = x + (width - bw * scale) / 2
    top = y + height - (height - bh * scale) / 2
    return Frame(bx0, by0, left, top, scale)


# ---- painting one hex --------------------------------------------------------------------------


def _hex_path(c, frame: Frame, layout: hexgrid.Layout, h, inset: float = 1.0):
    points = [frame.pt(x, y) for x, y in layout.corners(h, inset)]
    path = c.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    path.close()
    return path


def _line(c, frame: Frame, a, b) -> None:
    c.line(*frame.pt(*a), *frame.pt(*b))


def _pattern(c, frame: Frame, layout: hexgrid.Layout, h, pattern: str) -> None:
    """Fill one hex with a low-ink greyscale pattern, clipped to the hex. Spacing follows
    the hex size so a thumbnail looks like the full-size map."""
    if pattern == "none":
        return
    # Every hex of a terrain carries the same clipped pattern: draw it once per document as
    # a form at the first hex, then place copies, shifted, on the others.
    forms = c.__dict__.setdefault("_pnp_pattern_forms", {})
    key = (pattern, layout.orientation, round(layout.flat_to_flat, 4), round(frame.scale, 6))
    ox, oy = frame.pt(*layout.center(h))
    if key not in forms:
        name = f"pattern{len(forms)}"
        reach = layout.size * frame.scale * MM * 1.2
        c.beginForm(name, ox - reach, oy - reach, ox + reach, oy + reach)
        _pattern_at(c, frame, layout, h, pattern)
        c.endForm()
        forms[key] = (name, ox, oy)
    name, fx, fy = forms[key]
    c.saveState()
    c.translate(ox - fx, oy - fy)
    c.doForm(name)
    c.restoreState()


def _pattern_at(c, frame: Frame, layout: hexgrid.Layout, h, pattern: str) -> None:
    f = layout.flat_to_flat
    big = layout.size * 1.2
    cx, cy = layout.center(h)
    c.saveState()
    c.clipPath(_hex_path(c, frame, layout, h), stroke=0, fill=0)
    c.setStrokeGray(PATTERN_GREY)
    c.setFillGray(PATTERN_GREY)
    c.setLineWidth(max(0.08, 0.22 * frame.scale * f / 25.4) * MM)
    c.setLineCap(1)
    step = f / 9

    def offsets(spacing):
        n = int(big / spacing) + 1
        return [k * spacing for k in range(-n, n + 1)]

    if pattern == "dots":
        radius = f * 0.02 * frame.scale * MM
        for j, dy in enumerate(offsets(step * 0.87)):
            shift = step / 2 if j % 2 else 0.0
            for dx in offsets(step):
                c.circle(*frame.pt(cx + dx + shift, cy + dy), radius, stroke=0, fill=1)
    elif pattern in ("hatch", "crosshatch"):
        spacing = step * (1.0 if pattern == "hatch" else 1.3)
        normals = [(1, 1), (1, -1)] if pattern == "crosshatch" else [(1, 1)]
        for nx, ny in normals:
            nx, ny = nx / math.sqrt(2), ny / math.sqrt(2)
            for u in offsets(spacing):
                ox, oy = cx + u * nx, cy + u * ny
                _line(c, frame, (ox - big * ny, oy + big * nx), (ox + big * ny, oy - big * nx))
    elif pattern == "waves":
        amp, wavelength = step * 0.3, step * 2.2
        for dy in offsets(step * 1.3):
            path = c.beginPath()
            x = cx - big
            path.moveTo(*frame.pt(x, cy + dy))
            while x < cx + big:
                half = wavelength / 2
                c1 = frame.pt(x + half / 3, cy + dy - amp * 1.3)
                c2 = frame.pt(x + 2 * half / 3, cy + dy - amp * 1.3)
                path.curveTo(*c1, *c2, *frame.pt(x + half, cy + dy))
                c1 = frame.pt(x + half + half / 3, cy + dy + amp * 1.3)
                c2 = frame.pt(x + half + 2 * half / 3, cy + dy + amp * 1.3)
                path.curveTo(*c1, *c2, *frame.pt(x + wavelength, cy + dy))
                x += wavelength
            c.drawPath(path, stroke=1, fill=0)
    elif pattern == "bricks":
        course = step * 1.1
        for j, dy in enumerate(offsets(course)):
            _line(c, frame, (cx - big, cy + dy), (cx + big, cy + dy))
            shift = course if j % 2 else 0.0
            for dx in offsets(course * 2):
                _line(c, frame, (cx + dx + shift, cy + dy), (cx + dx + shift, cy + dy + course))
    elif pattern == "grass":
        tuft = step * 0.45
        for j, dy in enumerate(offsets(step * 1.6)):
            shift = step * 0.9 if j % 2 else 0.0
            for dx in offsets(step * 1.8):
                bx, by = cx + dx + shift, cy + dy
                for lean in (-0.5, 0.0, 0.5):
                    _line(c, frame, (bx, by), (bx + lean * tuft, by - tuft))
    c.restoreState()


@dataclass(frozen=True)
class _Look:
    """What to draw for one map picture; sizes in mm at true scale (the frame scales them)."""

    labels: bool = True
    line_mm: float = 0.3
    zone_tags: bool = True


def _label_mm(layout: hexgrid.Layout) -> float:
    return layout.flat_to_flat * 0.085


def _paint_map(c, m: HexMap, frame: Frame, layout: hexgrid.Layout, cells, look: _Look,
               zone_names: dict | None = None) -> None:
    """Draw the given cells of a map: obstacles, terrain, grid, zones, labels, in that order
    so outlines stay crisp on top of fills and patterns."""
    cells = sorted(cells)
    s = frame.scale
    c.saveState()
    c.setLineJoin(1)
    # obstacles: a solid mid grey with a heavy rim, unlike any pattern
    c.setFillGray(OBSTACLE_FILL)
    for h in cells:
        if h in m.obstacles:
            c.drawPath(_hex_path(c, frame, layout, h), stroke=0, fill=1)
    for h in cells:
        if h in m.terrain and h not in m.obstacles:
            spec = m.terrain_specs.get(m.terrain[h])
            _pattern(c, frame, layout, h, spec.pattern if spec else "none")
    # the grid: one closed path per hex, at exactly the stated size
    c.setStrokeGray(GRID_GREY)
    c.setLineWidth(max(0.1, look.line_mm * s) * MM)
    for h in cells:
        c.drawPath(_hex_path(c, frame, layout, h), stroke=1, fill=0)
    c.setLineWidth(max(0.2, 2.2 * look.line_mm * s) * MM)
    c.setStrokeGray(0.1)
    for h in cells:
        if h in m.obstacles:
            c.drawPath(_hex_path(c, frame, layout, h, 0.93), stroke=1, fill=0)
    _paint_zones(c, m, frame, layout, set(cells), look, zone_names or {})
    _paint_regions(c, m, frame, layout, set(cells), look)
    if look.labels and _label_mm(layout) * s >= 1.2:  # below ~3.4 pt labels turn to noise
        size_pt = _label_mm(layout) * s * MM
        for h in cells:
            cx, cy = layout.center(h)
            x, y = frame.pt(cx, cy - layout.size * 0.58)
            _hex_label(c, x, y - size_pt * 0.35, f"{h.q},{h.r}", REGULAR, size_pt,
                       0.1 if h in m.obstacles else LABEL_GREY, backdrop=h in m.terrain and h not in m.obstacles)
    c.restoreState()


def _hex_label(c, x_pt: float, y_pt: float, text: str, font: str, size_pt: float, grey: float,
               backdrop: bool = False) -> None:
    """Centred text; on a patterned hex a white box under it keeps it readable (no ink)."""
    if backdrop:
        width = c.stringWidth(text, font, size_pt)
        c.setFillGray(1)
        c.rect(x_pt - width / 2 - size_pt * 0.25, y_pt - size_pt * 0.25, width + size_pt * 0.5,
               size_pt * 1.05, stroke=0, fill=1)
    c.setFont(font, size_pt)
    c.setFillGray(grey)
    c.drawCentredString(x_pt, y_pt, text)


def _paint_zones(c, m: HexMap, frame: Frame, layout, cells: set, look: _Look, zone_names: dict) -> None:
    s = frame.scale
    for index, zid in enumerate(sorted(m.zones)):
        dash = ZONE_DASHES[index % len(ZONE_DASHES)]
        c.saveState()
        c.setStrokeGray(0.05)
        c.setLineWidth(max(0.15, 0.5 * s) * MM)
        c.setLineCap(1)
        c.setDash([d * s * MM for d in dash])
        for h in sorted(m.zones[zid] & cells):
            c.drawPath(_hex_path(c, frame, layout, h, 0.82), stroke=1, fill=0)
        c.restoreState()
        tag_pt = _label_mm(layout) * 0.85 * s * MM
        if look.zone_tags and tag_pt >= 3.5:
            tag = zone_names.get(zid, zid).upper()
            for h in sorted(m.zones[zid] & cells):
                cx, cy = layout.center(h)
                x, y = frame.pt(cx, cy + layout.size * 0.5)
                _hex_label(c, x, y, tag, BOLD, tag_pt, 0.15, backdrop=h in m.terrain)


REGION_LINE_MM = 1.2
REGION_GREY = 0.0


def _paint_regions(c, m: HexMap, frame: Frame, layout, cells: set, look: _Look) -> None:
    """Named regions: a heavy line along each region's outline and its name on the hex
    nearest its middle (when big enough to read)."""
    regions = getattr(m, "regions", None) or {}
    if not regions:
        return
    s = frame.scale
    c.saveState()
    c.setLineJoin(1)
    c.setLineCap(1)
    c.setStrokeGray(REGION_GREY)
    c.setLineWidth(max(0.5, REGION_LINE_MM * s) * MM)
    for rid in sorted(regions):
        shown = regions[rid] & cells
        if not shown:
            continue
        path = c.beginPath()
        for loop in hexgrid.outline(layout, regions[rid]):
            path.moveTo(*frame.pt(*loop[0]))
            for point in loop[1:]:
                path.lineTo(*frame.pt(*point))
            path.close()
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()
    tag_pt = _label_mm(layout) * 1.05 * s * MM
    if not look.zone_tags or tag_pt < 3.5:
        return
    names = getattr(m, "region_names", {})
    for rid in sorted(regions):
        cells_of = sorted(regions[rid])
        if not cells_of or not names.get(rid):
            continue
        centres = {h: layout.center(h) for h in cells_of}
        mx = sum(x for x, _ in centres.values()) / len(centres)
        my = sum(y for _, y in centres.values()) / len(centres)
        # the hex nearest the middle, preferring a plain one (no obstacle, terrain or zone tag)
        h = min(cells_of, key=lambda h: (h in m.obstacles, h in m.terrain, any(h in z for z in m.zones.values()),
                                         (centres[h][0] - mx) ** 2 + (centres[h][1] - my) ** 2, h))
        if h not in cells:
            continue
        x, y = frame.pt(*centres[h])
        _hex_label(c, x, y - tag_pt * 0.35, names[rid].upper(), BOLD, tag_pt, 0.05, backdrop=True)


# ---- reusable small drawings -------------------------------------------------------------------


def draw_hex_shape(canvas, hexes, x: float, y: float, width: float, height: float, *,
                   orientation: str = "pointy", fill_gray: float = 0.78, stroke_gray: float = 0.1,
                   line_width_mm: float = 0.3, max_hex_mm: float | None = None, mark=None) -> float:
    """Draw a multi-hex shape (a boss footprint, a piece's size diagram) fitted and centred
    in the box whose bottom-left corner is (x, y), all in mm. An empty shape is one hex.
    `mark`, if given, is a hex that gets a dot (e.g. the piece's own hex). Returns the
    flat-to-flat size the hexes were drawn at, in mm."""
    cells = sorted(hexgrid.shape_of(hexes)) or [hexgrid.ORIGIN]
    unit = hexgrid.Layout.from_flat_to_flat(orientation, 1.0)
    frame = _fit_frame(unit.bounds(cells), x, y, width, height,
                       max_scale=max_hex_mm if max_hex_mm is not None else None)
    canvas.saveState()
    canvas.setLineJoin(1)
    canvas.setFillGray(fill_gray)
    canvas.setStrokeGray(stroke_gray)
    canvas.setLineWidth(line_width_mm * MM)
    for h in cells:
        canvas.drawPath(_hex_path(canvas, frame, unit, h), stroke=1, fill=1)
    if mark is not None and hexgrid.as_hex(mark) in cells:
        canvas.setFillGray(stroke_gray)
        cx, cy = unit.center(mark)
        canvas.circle(*frame.pt(cx, cy), 0.12 * frame.scale * MM, stroke=0, fill=1)
    canvas.restoreState()
    return frame.scale


def draw_map_thumbnail(canvas, map_model: HexMap, x: float, y: float, width: float, height: float, *,
                       labels: bool = False) -> float:
    """Draw a whole map fitted and centred in the box (x, y bottom-left, mm), with
    obstacles, terrain and zones as on the printed map. Returns the scale used."""
    if getattr(map_model, "grid", "hex") == "square":
        from generator.render.squaremaps import draw_square_thumbnail
        return draw_square_thumbnail(canvas, map_model, x, y, width, height, labels=labels)
    layout = map_model.layout()
    frame = _fit_frame(layout.bounds(map_model.hexes), x, y, width, height, max_scale=1.0)
    _paint_map(canvas, map_model, frame, layout, map_model.hexes,
               _Look(labels=labels, line_mm=0.3 if frame.scale > 0.5 else 0.5, zone_tags=False))
    return frame.scale


# ---- tiling ------------------------------------------------------------------------------------


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


def _straight_axis(lines: list[int], pitch: float, half: float, length: float) -> list[tuple[float, float]]:
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


def _zigzag_axis(doubled: list[int], unit: float, length: float) -> list[tuple[float, float]]:
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


def _plan(m: HexMap, paper: str, landscape: bool) -> SheetPlan:
    w, h = PAPERS_MM[paper]
    page = (h, w) if landscape else (w, h)
    avail_w, avail_h = window_area(page)
    layout = m.layout()
    hexes = sorted(m.hexes)
    s, unit = layout.size, layout.flat_to_flat / 2
    if m.orientation == "pointy":
        xs = _zigzag_axis([2 * q + r for q, r in hexes], unit, avail_w)
        ys = _straight_axis([r for _, r in hexes], 1.5 * s, s, avail_h)
    else:
        xs = _straight_axis([q for q, _ in hexes], 1.5 * s, s, avail_w)
        ys = _zigzag_axis([2 * r + q for q, r in hexes], unit, avail_h)
    boxes = [_box(layout, hx) for hx in hexes]
    windows = []
    for row, (y0, y1) in enumerate(ys):
        for col, (x0, x1) in enumerate(xs):
            win = Window(row, col, x0, y0, x1, y1)
            if any(win.touches(b) for b in boxes):
                windows.append(win)
    return SheetPlan(paper, page, landscape, len(ys), len(xs), tuple(windows))


def plan_sheets(m: HexMap, paper: str = "a4") -> SheetPlan:
    """How a map is cut into true-scale sheets: the page orientation that needs fewer
    sheets (portrait on a tie)."""
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    if getattr(m, "grid", "hex") == "square":
        from generator.render.squaremaps import plan_square_sheets
        return plan_square_sheets(m, paper)
    portrait, landscape = _plan(m, paper, False), _plan(m, paper, True)
    return landscape if len(landscape.windows) < len(portrait.windows) else portrait


def _box(layout: hexgrid.Layout, h) -> tuple[float, float, float, float]:
    cx, cy = layout.center(h)
    return (cx - layout.hex_width / 2, cy - layout.hex_height / 2,
            cx + layout.hex_width / 2, cy + layout.hex_height / 2)


# ---- pages -------------------------------------------------------------------------------------


def _text(c, x_mm: float, y_mm: float, text: str, size_pt: float, font: str = REGULAR,
          grey: float = 0.0, align: str = "left") -> None:
    c.setFont(font, size_pt)
    c.setFillGray(grey)
    draw = {"left": c.drawString, "right": c.drawRightString, "centre": c.drawCentredString}[align]
    draw(x_mm * MM, y_mm * MM, text)


def _paragraph(c, x_mm, top_mm, width_mm, text, size_pt, font=REGULAR, leading=1.3, grey=0.0) -> float:
    """Wrapped text from its top line down; returns the y (mm) below the last line."""
    y = top_mm
    for para in text.split("\n"):
        for line in simpleSplit(para, font, size_pt, width_mm * MM) or [""]:
            y -= size_pt * leading / MM
            _text(c, x_mm, y, line, size_pt, font, grey)
    return y


def _scale_bar(c, x_mm: float, y_mm: float, hex_mm: float, note: str | None = None) -> None:
    """A 100 mm bar in 10 mm steps: measure it to check the sheet printed at 100 %. `note`
    replaces the line about the hex size (square maps state their tile size)."""
    c.saveState()
    c.setLineWidth(0.2 * MM)
    c.setStrokeGray(0)
    for i in range(10):
        c.setFillGray(0 if i % 2 == 0 else 1)
        c.rect((x_mm + i * 10) * MM, y_mm * MM, 10 * MM, 2.2 * MM, stroke=1, fill=1)
    for value in (0, 50, 100):
        _text(c, x_mm + value, y_mm + 3.2, f"{value}", 6.5, align="centre")
    _text(c, x_mm + SCALE_BAR_MM + 3, y_mm + 0.3, "mm", 6.5)
    _text(c, x_mm + SCALE_BAR_MM + 11, y_mm + 3.0,
          "Print at 100 % (actual size). This bar must measure 100 mm;", 6.5, grey=0.2)
    _text(c, x_mm + SCALE_BAR_MM + 11, y_mm + 0.3,
          note if note is not None else f"one hex is {hex_mm:g} mm flat to flat.", 6.5, grey=0.2)
    c.restoreState()


def _cross(c, x_mm: float, y_mm: float) -> None:
    arm = MARK_ARM_MM
    c.circle(x_mm * MM, y_mm * MM, arm * 0.45 * MM, stroke=1, fill=0)
    c.line((x_mm - arm) * MM, y_mm * MM, (x_mm + arm) * MM, y_mm * MM)
    c.line(x_mm * MM, (y_mm - arm) * MM, x_mm * MM, (y_mm + arm) * MM)


def _mark_positions(lo: float, hi: float) -> list[float]:
    """Where alignment crosses sit along a seam: spread out, clear of the corners."""
    inset = min(12.0, (hi - lo) / 4)
    count = max(2, int((hi - lo - 2 * inset) / 45) + 1)
    return [lo + inset + i * (hi - lo - 2 * inset) / (count - 1) for i in range(count)]


def _rotated_text(c, x_mm, y_mm, text, size_pt, angle, font=REGULAR, grey=0.2) -> None:
    c.saveState()
    c.translate(x_mm * MM, y_mm * MM)
    c.rotate(angle)
    _text(c, 0, 0, text, size_pt, font, grey, align="centre")
    c.restoreState()


def _draw_sheet(c, m: HexMap, plan: SheetPlan, win: Window, zone_names: dict, paint=None,
                scale_note: str | None = None) -> None:
    """One true-scale sheet. `paint(c, frame, win)` draws the map inside the clipped window
    (default: the hex map's cells); `scale_note` is the scale bar's line about cell size."""
    W, H = plan.page
    frame = Frame(win.x0, win.y0, MARGIN_MM, H - MARGIN_MM - HEADER_MM)
    left, top = frame.mm(win.x0, win.y0)
    right, bottom = frame.mm(win.x1, win.y1)

    _text(c, MARGIN_MM, H - MARGIN_MM - 5, m.title, 12, BOLD)
    _text(c, MARGIN_MM, H - MARGIN_MM - 9.2,
          f"Sheet row {win.row + 1} of {plan.rows}, column {win.col + 1} of {plan.cols} · true scale",
          7.5, grey=0.25)
    _text(c, W - MARGIN_MM, H - MARGIN_MM - 7, f"Sheet {win.label}", 16, BOLD, align="right")

    c.saveState()
    clip = c.beginPath()
    clip.rect(left * MM, bottom * MM, (right - left) * MM, (top - bottom) * MM)
    c.clipPath(clip, stroke=0, fill=0)
    if paint is None:
        layout = m.layout()
        cells = [h for h in m.hexes if win.touches(_box(layout, h))]
        _paint_map(c, m, frame, layout, cells, _Look(), zone_names)
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
    c.setDash([2 * MM, 1.2 * MM])
    if left_nb:
        c.line(left * MM, (bottom - 3) * MM, left * MM, (top + 3) * MM)
        marks = _mark_positions(win.y0, win.y1)
        _rotated_text(c, left - 3.2, frame.mm(0, (marks[0] + marks[1]) / 2)[1],
                      f"CUT here, lay on {left_nb.label}", 6.5, 90)
    if top_nb:
        c.line((left - 3) * MM, top * MM, (right + 3) * MM, top * MM)
        marks = _mark_positions(win.x0, win.x1)
        _text(c, frame.mm((marks[0] + marks[1]) / 2, 0)[0], top + 1.6,
              f"CUT here, lay on {top_nb.label}", 6.5, grey=0.2, align="centre")
    c.setDash([])
    c.setLineWidth(0.2 * MM)
    # Crosses straddle each seam: the neighbour's cut edge runs through their centres, so
    # after taping every cross is whole again, half on each sheet.
    if right_nb:
        seam = frame.mm(right_nb.x0, 0)[0]
        ys = _mark_positions(win.y0, win.y1)
        for y in ys:
            _cross(c, seam, frame.mm(0, y)[1])
        _rotated_text(c, right + 3.2, (top + bottom) / 2,
                      f"sheet {right_nb.label} overlaps up to the crosses", 6.5, -90)
    if below_nb:
        seam = frame.mm(0, below_nb.y0)[1]
        for x in _mark_positions(win.x0, win.x1):
            _cross(c, frame.mm(x, 0)[0], seam)
        _text(c, (left + right) / 2, bottom - 3.6, f"sheet {below_nb.label} overlaps up to the crosses",
              6.5, grey=0.2, align="centre")
    if left_nb:
        for y in _mark_positions(win.y0, win.y1):
            _cross(c, left, frame.mm(0, y)[1])
    if top_nb:
        for x in _mark_positions(win.x0, win.x1):
            _cross(c, frame.mm(x, 0)[0], top)
    c.restoreState()
    _scale_bar(c, MARGIN_MM, MARGIN_MM + 1.5, m.hex_size if scale_note is None else 0.0, scale_note)


def terrain_legend_rows(m) -> list[tuple[str, str, str]]:
    """Legend rows for the terrain a map uses, hex or square alike."""
    rows = []
    for tid in m.terrain_ids_in_use():
        spec = m.terrain_specs.get(tid)
        if spec is None:
            rows.append((f"terrain:{tid}", tid, "Terrain not declared by the pack."))
            continue
        facts = ("Walkable" if spec.walkable else "Impassable") + "; " + (
            "blocks line of sight." if spec.blocks_sight else "does not block line of sight.")
        rows.append((f"terrain:{tid}", spec.name, f"{spec.text} {facts}".strip()))
    return rows


def _legend_rows(m: HexMap, zone_names: dict) -> list[tuple[str, str, str]]:
    """(kind, title, text) for everything drawn on this map."""
    rows = [("grid", "Hex", f"{m.hex_size:g} mm flat to flat; the label gives its coordinates (q, r).")]
    if m.obstacles:
        rows.append(("obstacle", "Obstacle", "Blocks movement and line of sight."))
    rows.extend(terrain_legend_rows(m))
    for zid in sorted(m.zones):
        name = zone_names.get(zid, zid)
        if getattr(m, "zones_optional", False):  # the pack's `start_zones: optional`
            rows.append((f"zone:{zid}", f"{name} start (scenario)",
                         f"Optional scenario setup: if all players agree, {name} figures are set up wholly "
                         "inside these hexes. Otherwise set up as the rules say."))
        else:
            rows.append((f"zone:{zid}", f"{name} start",
                         f"{name} figures are set up wholly inside these hexes."))
    regions = getattr(m, "regions", None) or {}
    if regions:
        names = getattr(m, "region_names", {})
        rows.append(("region", "Regions", "Heavy lines border the named regions: "
                     + ", ".join(names.get(r, r) for r in regions) + "."))
    return rows


def _los_text(rule: str) -> str:
    if rule == "corners":
        return ("Line of sight: two figures see each other if a straight line from a corner of one's hex to "
                "a corner of the other's touches no obstacle or sight-blocking hex, not even at an edge or "
                "a corner.")
    base = ("Line of sight: draw a straight line between the centres of two hexes; obstacles and "
            "sight-blocking terrain on the hexes it passes through block it.")
    if rule == "strict":
        return base + (" A line running exactly along a hex edge or through a corner is blocked if a "
                       "hex on either side blocks.")
    return base + (" A line running exactly along a hex edge or through a corner is blocked only if "
                   "hexes on both sides block.")


def _draw_legend(c, m: HexMap, x: float, top: float, width: float, zone_names: dict) -> float:
    """The legend block from `top` down (mm); returns the y below it."""
    rows = _legend_rows(m, zone_names)
    _text(c, x, top - 4, "Legend", 10, BOLD)
    y = top - 7
    swatch = 11.0
    unit = hexgrid.Layout.from_flat_to_flat(m.orientation, swatch)
    for kind, title, text in rows:
        cell = Hex(0, 0)
        fake = HexMap(id="legend", file="", title="", notes="", orientation=m.orientation, hex_size=swatch,
                      hexes=frozenset({cell}), obstacles=frozenset({cell}) if kind == "obstacle" else frozenset(),
                      terrain={cell: kind.split(":", 1)[1]} if kind.startswith("terrain:") else {},
                      zones={kind.split(":", 1)[1]: frozenset({cell})} if kind.startswith("zone:") else {},
                      terrain_specs=m.terrain_specs, line_of_sight=m.line_of_sight,
                      regions={"legend": frozenset({cell})} if kind == "region" else {})
        if kind.startswith("zone:"):  # keep the dash style of this zone's position in the list
            others = sorted(m.zones)
            idx = others.index(kind.split(":", 1)[1])
            fake.zones = {z: (frozenset({cell}) if i == idx else frozenset()) for i, z in enumerate(others)}
        frame = Frame(-unit.hex_width / 2, -unit.hex_height / 2, x, y)
        _paint_map(c, fake, frame, unit, [cell], _Look(labels=False, zone_tags=False))
        text_x = x + swatch + 3
        _text(c, text_x, y - 4, title, 8.5, BOLD)
        below = _paragraph(c, text_x, y - 4.6, width - swatch - 3, text, 7.5, grey=0.15)
        y = min(y - swatch - 2, below - 2.5)
    return _paragraph(c, x, y, width, _los_text(m.line_of_sight), 7.5, grey=0.15) - 2


def _legend_height(m: HexMap, width: float, zone_names: dict) -> float:
    """Measure the legend by drawing it on a scratch canvas (text wrapping decides)."""
    from reportlab.pdfgen.canvas import Canvas
    scratch = Canvas(io.BytesIO(), pagesize=(width * MM, 1000 * MM))
    return 1000 - _draw_legend(scratch, m, 0, 1000, width, zone_names)


LEGEND_SIDE_MM = 78.0  # legend column width when it sits beside the map


def _header_height(m, width: float) -> float:
    lines = len(simpleSplit(m.notes, REGULAR, 8.5, width * MM)) if m.notes else 0
    return 14 + lines * 8.5 * 1.3 / MM + 4


def _overview_layout(m: HexMap, paper: str, zone_names: dict):
    """Pick the page orientation and legend position (below or beside the map) that print
    the overview largest. Returns (page, map box (x, y, w, h), legend (x, top, width))."""
    return overview_layout(m.layout().bounds(m.hexes), paper, lambda width: _header_height(m, width),
                           lambda width: _legend_height(m, width, zone_names))


def overview_layout(bounds, paper: str, header_height, legend_height):
    """For any map picture of `bounds` (mm): the page orientation and legend place (below or
    beside) that print it largest, given the header's and legend's heights at a width."""
    w, h = PAPERS_MM[paper]
    bw, bh = bounds[2] - bounds[0], bounds[3] - bounds[1]
    best = None
    for page in ((w, h), (h, w)):
        W, H = page
        width = W - 2 * MARGIN_MM
        top = H - MARGIN_MM - header_height(width)
        below = legend_height(width)
        side = legend_height(LEGEND_SIDE_MM)
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
    return best[1], best[2], best[3]


def _draw_overview(c, m: HexMap, plan: SheetPlan, page, box, legend, zone_names: dict, pack_name: str) -> None:
    W, H = page
    width = W - 2 * MARGIN_MM
    _text(c, MARGIN_MM, H - MARGIN_MM - 6, m.title, 18, BOLD)
    sheets = len(plan.windows)
    layout = m.layout()
    paper = "A4" if plan.paper == "a4" else plan.paper.title()
    _text(c, MARGIN_MM, H - MARGIN_MM - 11.5,
          f"{pack_name} · {len(m.hexes)} hexes, {m.orientation}-top, {m.hex_size:g} mm · "
          f"true scale on {sheets} {paper} sheet{'s' if sheets != 1 else ''}", 8.5, grey=0.25)
    if m.notes:
        _paragraph(c, MARGIN_MM, H - MARGIN_MM - 14, width, m.notes, 8.5, grey=0.1)
    frame = _fit_frame(layout.bounds(m.hexes), *box, max_scale=1.0)
    _paint_map(c, m, frame, layout, m.hexes, _Look(line_mm=0.3 if frame.scale > 0.6 else 0.45), zone_names)
    _text(c, box[0] + box[2], box[1] - 4, f"Overview at {frame.scale * 100:.0f} % of true size",
          7, grey=0.35, align="right")
    _draw_legend(c, m, legend[0], legend[1], legend[2], zone_names)


def _draw_assembly(c, m: HexMap, plan: SheetPlan, page, paint=None, steps: list[str] | None = None) -> None:
    """The assembly diagram. `paint(c, frame)` draws the whole map small (default: the hex
    map); `steps` replaces the numbered instructions."""
    W, H = page
    width = W - 2 * MARGIN_MM
    _text(c, MARGIN_MM, H - MARGIN_MM - 6, f"{m.title}: putting the sheets together", 16, BOLD)
    steps = steps or [
        f"1. Print the {len(plan.windows)} sheets at 100 % (actual size, no 'fit to page'). Check that "
        "the scale bar at the foot of each sheet measures 100 mm.",
        "2. On every sheet, cut along the dashed lines only (they are on the left and top edges of "
        "sheets that join a neighbour). Leave the other edges as they are.",
        "3. Lay each cut sheet over its neighbour to the left and above, so that the cut edge runs "
        "through the centres of the neighbour's crosses: the half-crosses and hex lines continue "
        "across the seam. One row of hexes is printed on both sheets; the upper sheet covers it.",
        "4. Work row by row from the top left (R1 C1). Tape the seams on the back.",
    ]
    y = H - MARGIN_MM - 10
    for step in steps:
        y = _paragraph(c, MARGIN_MM, y, width, step, 9) - 1.5
    layout = m.layout()
    bx0 = min(w.x0 for w in plan.windows)
    by0 = min(w.y0 for w in plan.windows)
    bx1 = max(w.x1 for w in plan.windows)
    by1 = max(w.y1 for w in plan.windows)
    frame = _fit_frame((bx0, by0, bx1, by1), MARGIN_MM, MARGIN_MM, width, y - 4 - MARGIN_MM)
    if paint is None:
        _paint_map(c, m, frame, layout, m.hexes, _Look(labels=False, line_mm=0.5, zone_tags=False))
    else:
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
    for win in plan.windows:
        (px0, py0), (px1, py1) = frame.mm(win.x0, win.y0), frame.mm(win.x1, win.y1)
        c.rect(px0 * MM, py1 * MM, (px1 - px0) * MM, (py0 - py1) * MM, stroke=1, fill=0)
        size_pt = min(16.0, max(8.0, (px1 - px0) * 0.12 * MM))
        label_w = c.stringWidth(win.label, BOLD, size_pt) / MM + 3  # mm
        label_h = size_pt * 1.4 / MM
        cx, cy = (px0 + px1) / 2, (py0 + py1) / 2
        c.setFillGray(1)
        c.rect((cx - label_w / 2) * MM, (cy - label_h / 2) * MM, label_w * MM, label_h * MM, stroke=1, fill=1)
        _text(c, cx, cy - size_pt * 0.36 / MM, win.label, size_pt, BOLD, align="centre")
    c.restoreState()


def _zone_names(pack: Pack) -> dict:
    return {sid: side.name for sid, side in pack.spec.sides.items()}


def render_maps(c, maps: list[HexMap], pack: Pack, paper: str) -> int:
    """Every map: overview (with legend), assembly diagram when tiled, then the sheets;
    then the map tiles (maps with `tile:`), packed several to a sheet (generator.render.maptiles).
    Returns the number of true-scale sheets."""
    from generator.render.maptiles import render_tiles

    zone_names = _zone_names(pack)
    sheets = 0
    tiles = [m for m in maps if getattr(m, "tile", None) is not None]
    for m in (m for m in maps if getattr(m, "tile", None) is None):
        if getattr(m, "grid", "hex") == "square":
            from generator.render.squaremaps import render_square_map
            sheets += render_square_map(c, m, pack, paper, zone_names)
            continue
        plan = plan_sheets(m, paper)
        summary_page, box, legend = _overview_layout(m, paper, zone_names)
        key = f"map-{m.id}"
        c.setPageSize((summary_page[0] * MM, summary_page[1] * MM))
        c.bookmarkPage(key)
        c.addOutlineEntry(m.title, key, level=0)
        _draw_overview(c, m, plan, summary_page, box, legend, zone_names, pack.spec.name)
        c.showPage()
        if len(plan.windows) > 1:
            c.setPageSize((summary_page[0] * MM, summary_page[1] * MM))
            _draw_assembly(c, m, plan, summary_page)
            c.showPage()
        for win in plan.windows:
            c.setPageSize((plan.page[0] * MM, plan.page[1] * MM))
            _draw_sheet(c, m, plan, win, zone_names)
            c.showPage()
            sheets += 1
    return sheets + render_tiles(c, tiles, pack.spec.name, PAPERS_MM[paper], zone_names)


def build_maps_pdf(pack: Pack, out_path: Path, paper: str = "a4") -> dict:
    """Write every map of the pack to one PDF, atomically. Returns counts for the build
    log ({"maps": n, "sheets": n, "pages": n}); a pack without maps writes nothing."""
    paper = paper.lower()
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    maps = load_pack_maps(pack)
    if not maps:
        return {"maps": 0}
    with atomic_output(Path(out_path)) as tmp:
        w, h = PAPERS_MM[paper]
        c = new_canvas(str(tmp), (w * MM, h * MM), f"{pack.spec.name}: maps", "True-scale hex maps")
        sheets = render_maps(c, maps, pack, paper)
        pages = c.getPageNumber() - 1
        c.save()
    tiles = sum(m.tile.copies for m in maps if getattr(m, "tile", None) is not None)
    return {"maps": len(maps) - sum(1 for m in maps if getattr(m, "tile", None) is not None),
            **({"tiles": tiles} if tiles else {}), "sheets": sheets, "pages": pages}


# ---- images for virtual tables -----------------------------------------------------------------


PNG_MARGIN_MM = 2.0


def map_image_pdf(m: HexMap, pack: Pack) -> tuple[bytes, Frame, tuple[float, float]]:
    """A one-page PDF of the map at true scale with a small margin, no furniture."""
    layout = m.layout()
    x0, y0, x1, y1 = layout.bounds(m.hexes)
    page = (x1 - x0 + 2 * PNG_MARGIN_MM, y1 - y0 + 2 * PNG_MARGIN_MM)
    frame = Frame(x0, y0, PNG_MARGIN_MM, page[1] - PNG_MARGIN_MM)
    buffer = io.BytesIO()
    c = new_canvas(buffer, (page[0] * MM, page[1] * MM), m.title, "map image")
    c.setFillGray(1)
    c.rect(0, 0, page[0] * MM, page[1] * MM, stroke=0, fill=1)
    _paint_map(c, m, frame, layout, m.hexes, _Look(), _zone_names(pack))
    c.save()
    return buffer.getvalue(), frame, page


def export_map_pngs(pack: Pack, out_dir: Path) -> dict:
    """One PNG per map for virtual tabletops, hexes PNG_HEX_PX pixels flat to flat (less
    only if the image would pass PNG_MAX_PX), with the pitch in the file name
    (`<map>_hex100px.png`) and a sidecar `<map>.json` giving the grid geometry in pixels.
    Returns {"images": n, "files": [paths written]}."""
    import pypdfium2 as pdfium

    out_dir = Path(out_dir)
    written = []
    for m in load_pack_maps(pack):
        if getattr(m, "grid", "hex") == "square":
            from generator.render.squaremaps import export_square_png
            written += export_square_png(m, pack, out_dir)
            continue
        data, frame, page = map_image_pdf(m, pack)
        pitch = PNG_HEX_PX
        longest_mm = max(page)
        while pitch > 10 and longest_mm * pitch / m.hex_size > PNG_MAX_PX:
            pitch -= 10
        px_per_mm = pitch / m.hex_size
        doc = pdfium.PdfDocument(data)
        try:
            image = doc[0].render(scale=px_per_mm / MM, grayscale=False).to_pil().convert("RGB")
        finally:
            doc.close()
        name = f"{m.id}_hex{pitch}px.png"
        with atomic_output(out_dir / name, suffix=".png") as tmp:
            image.save(tmp, format="PNG")
        ox, oy = m.layout().center(Hex(0, 0))
        origin = ((frame.page_x + (ox - frame.map_x0)) * px_per_mm,
                  (page[1] - frame.page_top + (oy - frame.map_y0)) * px_per_mm)
        sidecar = {
            "map": m.id, "title": m.title, "image": name,
            "width_px": image.width, "height_px": image.height,
            "orientation": m.orientation, "hex_size_mm": m.hex_size,
            "hex_pitch_px": pitch, "hex_corner_radius_px": round(pitch / hexgrid.SQRT3, 4),
            "dpi": round(px_per_mm * 25.4, 4),
            "origin_hex_center_px": [round(origin[0], 3), round(origin[1], 3)],
            "coordinates": "axial (q, r); pixel y points down; centre of hex (q, r) follows "
                           "Red Blob Games' layout from origin_hex_center_px",
        }
        with atomic_output(out_dir / f"{m.id}.json", suffix=".json") as tmp:
            Path(tmp).write_text(json.dumps(sidecar, indent=2) + "\n", encoding="utf-8")
        written += [out_dir / name, out_dir / f"{m.id}.json"]
    return {"images": len(written) // 2, "files": written}
