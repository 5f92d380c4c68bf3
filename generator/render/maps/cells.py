"""Painting pieces any grid's cells share: the cell outline (a polygon of the layout's
corners), terrain patterns, zone outlines and tags, centred labels, and the `Look` of a picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING


from generator.render.base.fonts import BOLD
from generator.render.base.icons import IconSheet
from generator.render.base.pdfout import MM
from generator.render.base.recording import LinePath, RecordingCanvas, place_form, polygon_path
from generator.render.maps.palette import (COLOUR, GRID_GREY, LABEL_GREY, OBSTACLE_FILL, PATTERN_GREY, Ink, Palette,
                                           TerrainInk, set_fill, set_stroke, svg_colour)

if TYPE_CHECKING:
    from generator.grids.layout import CellLayout
    from generator.maps.load import OneMap
    from generator.render.maps.page import Frame

__all__ = ["GRID_GREY", "LABEL_GREY", "OBSTACLE_FILL", "PATTERN_GREY", "ZONE_DASHES", "Look", "cell_path", "Outlines",
           "draw_label", "draw_pattern", "draw_rock", "draw_feature_icon", "label_mm", "paint_zones"]

ZONE_DASHES = ([2.4, 1.4], [0.5, 1.1])  # mm; first zone dashed, second dotted


# ---- painting one hex --------------------------------------------------------------------------


def cell_path(c, frame: Frame, layout: CellLayout, h, inset: float = 1.0):
    """A cell's outline (`inset` < 1: shrunk about its middle) as a closed path: the text of a
    path object's moveTo, lineTos and close, made at once (recording.polygon_path)."""
    return polygon_path(frame.pts(layout.corners(h, inset)))


class Outlines(dict):
    """Each cell's outline (cell_path), made when first asked for: the same path for a cell's
    fill, the clip of its band and its grid line (a path object is only read when drawn), and
    none for a cell nothing is drawn of (a plain cell in the saver look, on a page its lines are
    left off: strokes_unread)."""

    def __init__(self, c, frame: Frame, layout: CellLayout):
        super().__init__()
        self.canvas, self.frame, self.layout = c, frame, layout

    def __missing__(self, h):
        path = self[h] = cell_path(self.canvas, self.frame, self.layout, h)
        return path


def for_text_only(c) -> None:
    """Mark `c` as a scratch page that only its text is read from (page.window_text_boxes,
    and the legends measured by their wrapped text): the cells' shapes (fills, patterns, grid, rock, icons, zone and region lines), which hold
    no text and set no state their labels depend on, are left off it."""
    c._pnp_text_only = True


def for_height_only(c) -> None:
    """Mark `c` as a scratch page of which only how far down its text runs is read (a legend
    measured before it is placed: page.draw_paragraph gives the y below its lines): nothing is
    drawn on it, not even its strings (page.draw_text), and its cells are left off (for_text_only)."""
    for_text_only(c)
    c._pnp_height_only = True


def height_only(c) -> bool:
    """`c` is a scratch page of which only how far down its text runs is read (for_height_only)."""
    return bool(c.__dict__.get("_pnp_height_only"))


def text_only(c) -> bool:
    """`c` is a scratch page that only its text is read from (for_text_only)."""
    return bool(c.__dict__.get("_pnp_text_only"))


def strokes_unread(c) -> bool:
    """Whether no line only stroked is read from `c`: a scratch page whose text alone is read
    (for_text_only), or a page never saved whose recorder reads only what is filled (pnp validate's
    map pass: a PaintRecorder judges each text on the last fill under its middle). The grid, rims,
    zone, region and contour lines, seams and crosses are left off it."""
    if text_only(c):
        return True
    ink = getattr(c, "ink", None)
    return bool(getattr(c, "scratch", False)) and ink is not None and ink.outlines


def marks_unread(c) -> bool:
    """Whether `c` is a page never saved (pnp validate's map pass) whose recorder reads a pattern's
    form as the cell it is placed within: of the form it needs only that it covers the cell (the
    marks reach past it, and PaintRecorder.paint_form_within cuts the form's box to the cell:
    beginForm's `covers`), so nothing is drawn in it, not its hundred marks (Boss Fight's map
    pass 0.29 -> 0.20 s CPU; the texts judged are the same, tests/test_map_shortcuts.py)."""
    return bool(getattr(c, "scratch", False)) and bool(getattr(c.ink, "forms_within", False))


def draw_pattern(c, frame: Frame, layout: CellLayout, h, pattern: str, ink: TerrainInk | None = None) -> None:
    """Fill one cell with its terrain's pattern, clipped to the cell: in the saver look a
    low-ink grey pattern on the paper, in colour the terrain's fill with the pattern in a
    darker shade of it. Spacing follows the cell size so a thumbnail looks like the full-size map."""
    if (pattern == "none" and (ink is None or ink.fill is None)) or text_only(c):
        return
    # Every cell of a terrain carries the same clipped pattern: draw it once per document as
    # a form at the first cell, then place copies, shifted, on the others. All a copy paints lies
    # in its cell (the first cell's outline, shifted with it), not across the form's box: a text
    # check judges the labels of the cells around it on what they lie on (paints.PaintRecorder).
    forms = c.__dict__.setdefault("_pnp_pattern_forms", {})
    key: tuple[object, ...] = (pattern, layout.orientation, round(layout.flat_to_flat, 4), round(frame.scale, 6))
    if ink is not None and ink.fill is not None:
        key += (ink.fill, ink.marks)
    ox, oy = frame.pt(*layout.center(h))
    if key not in forms:
        name = f"pattern{len(forms)}"
        reach = layout.size * frame.scale * MM * 1.2
        cell = cell_path(c, frame, layout, h)
        marks = not marks_unread(c)  # (asked before the form is begun)
        # the marks reach 1.2 sizes around the middle, past the cell on every side, clipped to
        # it: the form covers its cell (a recorder that reads it so notes none of its marks)
        covering = {"covers": cell} if isinstance(c, RecordingCanvas) else {}
        c.beginForm(name, ox - reach, oy - reach, ox + reach, oy + reach, **covering)
        if marks:
            _pattern_at(c, frame, layout, h, pattern, ink)
        c.endForm()
        forms[key] = (name, ox, oy, cell)
    name, fx, fy, cell = forms[key]
    place_form(c, name, 1, 0, 0, 1, ox - fx, oy - fy, within=cell)  # (saveState, translate, doForm, restoreState)


def _pattern_at(c, frame: Frame, layout: CellLayout, h, pattern: str, ink: TerrainInk | None) -> None:
    f = layout.flat_to_flat
    big = layout.size * 1.2
    cx, cy = layout.center(h)
    c.saveState()
    if ink is not None and ink.fill is not None:
        set_fill(c, ink.fill)
        c.drawPath(cell_path(c, frame, layout, h), stroke=0, fill=1)
    c.clipPath(cell_path(c, frame, layout, h), stroke=0, fill=0)
    marks = ink.marks if ink is not None else PATTERN_GREY
    set_stroke(c, marks)
    set_fill(c, marks)
    c.setLineWidth(max(0.08, 0.22 * frame.scale * f / 25.4) * MM)
    c.setLineCap(1)
    step = f / 9

    def offsets(spacing):
        n = int(big / spacing) + 1
        return [k * spacing for k in range(-n, n + 1)]

    segments: list[tuple[float, float, float, float]] = []  # a pattern's lines, drawn in one go below

    def line(a, b) -> None:
        segments.append((*frame.pt(*a), *frame.pt(*b)))

    if pattern == "dots":
        radius = f * 0.02 * frame.scale * MM
        centres = [frame.pt(cx + dx + (step / 2 if j % 2 else 0.0), cy + dy)
                   for j, dy in enumerate(offsets(step * 0.87)) for dx in offsets(step)]
        if isinstance(c, RecordingCanvas):
            c.dots(centres, radius, stroke=0, fill=1)  # (written at once)
        else:
            for x, y in centres:
                c.circle(x, y, radius, stroke=0, fill=1)
    elif pattern in ("hatch", "crosshatch"):
        spacing = step * (1.0 if pattern == "hatch" else 1.3)
        normals: list[tuple[float, float]] = [(1, 1), (1, -1)] if pattern == "crosshatch" else [(1, 1)]
        for nx, ny in normals:
            nx, ny = nx / math.sqrt(2), ny / math.sqrt(2)
            for u in offsets(spacing):
                ox, oy = cx + u * nx, cy + u * ny
                line((ox - big * ny, oy + big * nx), (ox + big * ny, oy - big * nx))
    elif pattern == "waves":
        amp, wavelength = step * 0.3, step * 2.2
        for dy in offsets(step * 1.3):
            path = LinePath()  # (its text made at once: a pattern holds hundreds of curves)
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
            c.drawPath(path.path(), stroke=1, fill=0)
    elif pattern == "bricks":
        course = step * 1.1
        for j, dy in enumerate(offsets(course)):
            line((cx - big, cy + dy), (cx + big, cy + dy))
            shift = course if j % 2 else 0.0
            for dx in offsets(course * 2):
                line((cx + dx + shift, cy + dy), (cx + dx + shift, cy + dy + course))
    elif pattern == "grass":
        tuft = step * 0.45
        for j, dy in enumerate(offsets(step * 1.6)):
            shift = step * 0.9 if j % 2 else 0.0
            for dx in offsets(step * 1.8):
                bx, by = cx + dx + shift, cy + dy
                for lean in (-0.5, 0.0, 0.5):
                    line((bx, by), (bx + lean * tuft, by - tuft))
    if segments:  # each its own `n … m … l S`, as canvas.line writes it (one fp_str call while nothing records)
        if isinstance(c, RecordingCanvas):
            c.separate_lines(segments)
        else:
            for segment in segments:
                c.line(*segment)
    c.restoreState()


@dataclass(frozen=True)
class Look:
    """What to draw for one map picture; sizes in mm at true scale (the frame scales them)."""

    labels: bool = True
    line_mm: float = 0.3
    zone_tags: bool = True
    palette: Palette = COLOUR


def label_mm(layout: CellLayout) -> float:
    return layout.flat_to_flat * 0.085


def draw_label(c, x_pt: float, y_pt: float, text: str, font: str, size_pt: float, grey: Ink,
               backdrop: bool = False, paper: Ink = 1.0) -> None:
    """Centred text in `grey` (any ink); on a patterned cell a plain patch of `paper` (white:
    no ink) under it, clear of the pattern's marks by a third of the text size all round,
    keeps it readable."""
    if backdrop:
        width = c.stringWidth(text, font, size_pt)
        set_fill(c, paper)
        c.roundRect(x_pt - width / 2 - size_pt * 0.45, y_pt - size_pt * 0.5, width + size_pt * 0.9,
                    size_pt * 1.4, size_pt * 0.3, stroke=0, fill=1)
    c.setFont(font, size_pt)
    set_fill(c, grey)
    c.drawCentredString(x_pt, y_pt, text)


# An obstacle in colour is a heap of rock: three boulders, in a unit circle (x right, y down).
_BOULDERS = (
    ((-0.62, 0.38), (-0.5, -0.12), (-0.12, -0.42), (0.3, -0.3), (0.42, 0.1), (0.2, 0.45)),
    ((0.12, 0.5), (0.3, 0.04), (0.6, -0.08), (0.8, 0.22), (0.7, 0.5)),
    ((-0.34, -0.22), (-0.2, -0.62), (0.12, -0.72), (0.3, -0.42), (0.04, -0.2)),
)


def draw_rock(c, frame: Frame, cx: float, cy: float, radius: float, palette: Palette) -> None:
    """The rock of a colour map's obstacle, centred at (cx, cy) map mm, `radius` mm across."""
    if palette.rock is None or text_only(c):
        return
    c.saveState()
    c.setLineJoin(1)
    set_fill(c, palette.rock)
    set_stroke(c, palette.obstacle_rim)
    c.setLineWidth(max(0.12, radius * 0.06 * frame.scale) * MM)
    for boulder in _BOULDERS:
        c.drawPath(polygon_path(frame.pts((cx + x * radius, cy + y * radius) for x, y in boulder)), stroke=1, fill=1)
    c.restoreState()


def draw_feature_icon(c, frame: Frame, cx: float, cy: float, size: float, ink: TerrainInk) -> None:
    """A terrain's icon (game.yaml `icon:`) on a disc of its light tint, centred at (cx, cy)
    map mm, `size` mm across: colour maps mark features (a beacon, a crystal vein) this way."""
    if not ink.icon or text_only(c):
        return
    sheet = getattr(c, "_pnp_icon_sheet", None)  # the rulebook's, when a thumbnail is drawn there
    if sheet is None:  # one sheet per canvas: an icon's form is defined once per document
        sheet = c._pnp_icon_sheet = IconSheet(c)
    x, y = frame.pt(cx, cy)
    r = size / 2 * frame.scale * MM
    c.saveState()
    set_fill(c, ink.band)
    set_stroke(c, ink.marks)
    c.setLineWidth(max(0.1, size * 0.03 * frame.scale) * MM)
    c.circle(x, y, r, stroke=1, fill=1)
    c.restoreState()
    icon = r * 1.25
    sheet.draw(ink.icon, x - icon / 2, y - icon / 2, icon, svg_colour(ink.marks))


def paint_zones(c, m: OneMap, frame: Frame, layout: CellLayout, cells: set, look: Look, zone_names: dict) -> None:
    s = frame.scale
    palette = look.palette
    for index, zid in enumerate(sorted(m.zones)):
        dash = ZONE_DASHES[index % len(ZONE_DASHES)]
        if not strokes_unread(c):
            c.saveState()
            set_stroke(c, palette.zone_ink(zid))
            c.setLineWidth(max(0.15, 0.5 * s) * MM)
            c.setLineCap(1)
            c.setDash([d * s * MM for d in dash])
            for h in sorted(m.zones[zid] & cells):
                c.drawPath(cell_path(c, frame, layout, h, 0.82), stroke=1, fill=0)
            c.restoreState()
        tag_pt = label_mm(layout) * 0.85 * s * MM
        if look.zone_tags and tag_pt >= 3.5:
            tag = zone_names.get(zid, zid).upper()
            for h in sorted(m.zones[zid] & cells):
                cx, cy = layout.center(h)
                x, y = frame.pt(cx, cy + layout.size * 0.5)
                tag_ink = palette.zone_ink(zid) if palette.colour else 0.15
                paper = palette.terrain(m.terrain_specs.get(m.terrain[h])).band if h in m.terrain else 1.0
                draw_label(c, x, y, tag, BOLD, tag_pt, tag_ink, backdrop=h in m.terrain, paper=paper)
