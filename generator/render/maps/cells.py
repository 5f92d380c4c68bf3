"""Painting pieces any grid's cells share: the cell outline (a polygon of the layout's
corners), terrain patterns, zone outlines and tags, centred labels, and the `Look` of a picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING


from generator.render.base.fonts import BOLD
from generator.render.base.pdfout import MM

if TYPE_CHECKING:
    from generator.grids import hexgrid
    from generator.maps.model import HexMap
    from generator.render.maps.page import Frame



GRID_GREY = 0.2


LABEL_GREY = 0.35


PATTERN_GREY = 0.4


OBSTACLE_FILL = 0.62


ZONE_DASHES = ([2.4, 1.4], [0.5, 1.1])  # mm; first zone dashed, second dotted


# ---- painting one hex --------------------------------------------------------------------------


def cell_path(c, frame: Frame, layout: hexgrid.Layout, h, inset: float = 1.0):
    points = [frame.pt(x, y) for x, y in layout.corners(h, inset)]
    path = c.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    path.close()
    return path


def _line(c, frame: Frame, a, b) -> None:
    c.line(*frame.pt(*a), *frame.pt(*b))


def draw_pattern(c, frame: Frame, layout: hexgrid.Layout, h, pattern: str) -> None:
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
    c.clipPath(cell_path(c, frame, layout, h), stroke=0, fill=0)
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
class Look:
    """What to draw for one map picture; sizes in mm at true scale (the frame scales them)."""

    labels: bool = True
    line_mm: float = 0.3
    zone_tags: bool = True


def label_mm(layout: hexgrid.Layout) -> float:
    return layout.flat_to_flat * 0.085


def draw_label(c, x_pt: float, y_pt: float, text: str, font: str, size_pt: float, grey: float,
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


def paint_zones(c, m: HexMap, frame: Frame, layout, cells: set, look: Look, zone_names: dict) -> None:
    s = frame.scale
    for index, zid in enumerate(sorted(m.zones)):
        dash = ZONE_DASHES[index % len(ZONE_DASHES)]
        c.saveState()
        c.setStrokeGray(0.05)
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
                draw_label(c, x, y, tag, BOLD, tag_pt, 0.15, backdrop=h in m.terrain)
