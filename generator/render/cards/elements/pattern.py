"""`pattern`: a repeating motif filling a box (rounded or not), or the whole card to the bleed with
`bleed: true`: the texture of a card back. `name` is the motif (hexes, diamonds, scales, chevrons,
stripes, dots, checks; `none` draws nothing), `size` the motif's repeat in mm, `color` its ink,
`stroke_width` its lines in mm. Line motifs are one stroked path, the filled ones (dots, checks)
one filled path: a back is a form drawn once per document, so the motif costs nothing per card.
Reads: x, y, w, h, bleed, radius, name, size, color, stroke_width."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, get_args

from reportlab.lib.units import mm
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.core.bounded import BoundedCache
from generator.core.errors import InputError, Problem
from generator.pack.strict import BackPattern
from generator.render.base.recording import LinePath
from generator.render.cards.elements.box import MAX_BLEED_MM

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

KIND = "pattern"
FIELDS = ("x", "y", "w", "h", "bleed", "radius", "name", "size", "color", "stroke_width")
MOTIFS = get_args(BackPattern)  # game.yaml `back_pattern` offers the same names
FILLED = ("dots", "checks")


def draw(p, e: Element, layout: Layout, ctx: dict, left: float, top: float, w: float, h: float,
         ox: float, oy: float) -> None:
    motif = layout.render(e.name or "hexes", ctx, e).strip() or "none"
    if motif not in MOTIFS:
        raise InputError([Problem("layout.pattern", f"`{motif}` is no pattern", layout.where(e), found=motif,
                                  expected=f"one of: {', '.join(MOTIFS)}")])
    if motif == "none":
        return
    c = p.canvas
    if e.bleed:
        b = MAX_BLEED_MM * mm
        left, top, w, h = ox - b, oy + p.height_mm * mm + b, p.width_mm * mm + 2 * b, p.height_mm * mm + 2 * b
    step = max(e.size, 1.0) * mm
    c.saveState()
    clip = c.beginPath()
    if e.radius:
        clip.roundRect(left, top - h, w, h, e.radius * mm)
    else:
        clip.rect(left, top - h, w, h)
    c.clipPath(clip, stroke=0, fill=0)
    colour = p.color(layout.render(e.color, ctx, e))
    # the motif is laid from the box's centre, so a card's pattern is symmetric about its middle
    cx, cy = left + w / 2, top - h / 2
    path = PDFPathObject(code=[_motif_code(motif, cx, cy, w / 2 + step, h / 2 + step, step)])
    if motif in FILLED:
        c.setFillColor(colour)
        c.drawPath(path, stroke=0, fill=1)
    else:
        c.setStrokeColor(colour)
        c.setLineWidth(e.stroke_width * mm)
        c.setLineJoin(1)
        c.setLineCap(1)
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


# (motif, centre, reach, step) -> the motif's path operators: a pack's backs lay the same motif over
# the same box in different colours (Boss Fight's ten backs: ten hexes of some 2,000 lines each)
_CODES: BoundedCache[tuple, str] = BoundedCache(32)


def _motif_code(motif: str, cx: float, cy: float, hw: float, hh: float, step: float) -> str:
    """The path operators of a motif (what its path object's `getCode()` gives), made once per
    process for each place and size it is laid at."""
    key = (motif, cx, cy, hw, hh, step)
    code = _CODES.get(key)
    if code is None:
        path = LinePath() if motif in LINES_ONLY else PDFPathObject()
        MOTIF_PATHS[motif](path, cx, cy, hw, hh, step)
        code = _CODES[key] = (path.path() if isinstance(path, LinePath) else path).getCode()
    return code


def _span(half: float, step: float) -> range:
    n = int(half / step) + 2
    return range(-n, n + 1)


# a pointy hex's corners on the unit circle (worked out once: a card back holds hundreds of hexes)
_CORNERS = tuple((math.cos(math.radians(30 + 60 * k)), math.sin(math.radians(30 + 60 * k))) for k in range(6))


def _hexes(path, cx, cy, hw, hh, step) -> None:
    """Pointy hexes edge to edge, `step` across the flats."""
    r = step / math.sqrt(3)
    for row in _span(hh, 1.5 * r):
        for col in _span(hw, step):
            x, y = cx + col * step + (step / 2 if row % 2 else 0.0), cy + row * 1.5 * r
            pts = [(x + r * cos, y + r * sin) for cos, sin in _CORNERS]
            path.moveTo(*pts[0])
            for pt in pts[1:]:
                path.lineTo(*pt)
            path.close()


def _diamonds(path, cx, cy, hw, hh, step) -> None:
    """Two families of slanted lines crossing: a lattice of diamonds twice as tall as wide."""
    reach = hw + hh * 0.5
    for k in _span(reach, step):
        x = cx + k * step
        path.moveTo(x - hh * 0.5, cy - hh)
        path.lineTo(x + hh * 0.5, cy + hh)
        path.moveTo(x + hh * 0.5, cy - hh)
        path.lineTo(x - hh * 0.5, cy + hh)


def _scales(path, cx, cy, hw, hh, step) -> None:
    """Rows of half circles, each row shifted half a scale: fish or dragon scales."""
    r = step / 2
    for row in _span(hh, r):
        y = cy + row * r
        shift = r if row % 2 else 0.0
        for col in _span(hw, step):
            x = cx + col * step + shift
            path.moveTo(x - r, y)
            path.arcTo(x - r, y - r, x + r, y + r, startAng=180, extent=180)


def _chevrons(path, cx, cy, hw, hh, step) -> None:
    """Rows of zigzags, a chevron every `step`."""
    for row in _span(hh, step * 0.6):
        y = cy + row * step * 0.6
        cols = list(_span(hw, step))
        path.moveTo(cx + cols[0] * step, y)
        for col in cols:
            x = cx + col * step
            path.lineTo(x + step / 2, y + step * 0.3)
            path.lineTo(x + step, y)


def _stripes(path, cx, cy, hw, hh, step) -> None:
    for k in _span(hw + hh, step):
        x = cx + k * step
        path.moveTo(x - hh, cy - hh)
        path.lineTo(x + hh, cy + hh)


def _dots(path, cx, cy, hw, hh, step) -> None:
    r = step * 0.12
    for row in _span(hh, step * 0.866):
        for col in _span(hw, step):
            path.circle(cx + col * step + (step / 2 if row % 2 else 0.0), cy + row * step * 0.866, r)


def _checks(path, cx, cy, hw, hh, step) -> None:
    """A checkerboard: every other square filled."""
    half = step / 2
    for row in _span(hh, half):
        for col in _span(hw, half):
            if (row + col) % 2 == 0:
                path.rect(cx + col * half, cy + row * half, half, half)


LINES_ONLY = ("hexes", "diamonds", "chevrons", "stripes")  # moves, lines and closes alone: gathered by a LinePath
MOTIF_PATHS = {"hexes": _hexes, "diamonds": _diamonds, "scales": _scales, "chevrons": _chevrons,
               "stripes": _stripes, "dots": _dots, "checks": _checks}
if set(MOTIF_PATHS) | {"none"} != set(MOTIFS):
    raise RuntimeError(f"the pattern element draws {sorted(MOTIF_PATHS)}, game.yaml offers {sorted(MOTIFS)}")
