"""What a drawing puts on paper, noted while it is drawn.

The layout checks (generator/preflight/layout.py) judge the ink a card prints, not the boxes a
layout declares. Instead of drawing each element again and reading the PDF back, the canvas
that draws the sheets notes, for whatever is being recorded (one layout element of one face),
each thing it paints: its bounds, and for a filled shape its flat colour; and each string of
text it shows, with its font, size, colour and where its letters' outlines lie
(render/base/glyphs.py). The canvas (render/base/pdfout.py's FlatCanvas) calls a Recorder
from its drawing methods only while one is set, so a build that checks nothing, and every
face after the first of a card, pay nothing.

The bounds follow the conventions of PDF viewers' object bounds (PDFium's, which the checks
used to read back): a path's bounds hold all its points, Bézier control points included; a
stroked path's reach out by the line width at its ends and to the mitre points of its joins;
an image covers its unit square under the current matrix; a form (an icon, drawn once per
document) covers the union of what it holds; clipping is not applied. Coordinates are the
recorder's own: points, y up, from the origin it is given (a card's trim corner).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import NamedTuple

from generator.render.base.glyphs import StringInk, letter_boxes, string_ink

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]  # left, bottom, right, top
RGB = tuple[float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
PATH_NUMBER = re.compile(r"[-.0-9]+")  # a number of a path's text as ReportLab writes it (no operator holds a digit)

NOT_PAINT = "line"
_BLACK = (0.0, 0.0, 0.0)  # an object that only strokes: ink, but no paint a text could sit on


def concat(m: Matrix, ctm: Matrix) -> Matrix:
    """`m` applied first, then `ctm` (what PDF's `cm` does to the current matrix)."""
    a, b, c, d, e, f = m
    a0, b0, c0, d0, e0, f0 = ctm
    return (a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d,
            a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)


def transform_box(m: Matrix, box: Box) -> Box:
    """The bounds of a box's four corners under `m`."""
    a, b, c, d, e, f = m
    l, bt, r, t = box
    if b == 0 and c == 0:
        x0, x1 = a * l + e, a * r + e
        y0, y1 = d * bt + f, d * t + f
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    xs = [a * x + c * y + e for x, y in ((l, bt), (l, t), (r, bt), (r, t))]
    ys = [b * x + d * y + f for x, y in ((l, bt), (l, t), (r, bt), (r, t))]
    return (min(xs), min(ys), max(xs), max(ys))


def union(boxes) -> Box | None:
    boxes = [b for b in boxes if b is not None]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def flat(rgb, alpha: float = 1.0) -> RGB | None:
    """A fill colour as a viewer reports it: 8 bits a channel; None when see-through."""
    if rgb is None or alpha < 1.0:
        return None
    r, g, b = (math.floor(v * 255 + 0.5) / 255 for v in rgb)
    return (r, g, b)


# id(colour object) -> (the object, its flat RGB): the renderers reuse a few dozen Color objects
# (render/base/colors.hex_color); the object is kept, so its id cannot pass to another
_COLORS: dict = {}


def flat_color(color) -> RGB | None:
    """`flat(rgb_of(color))`, kept per colour object."""
    hit = _COLORS.get(id(color))
    if hit is not None and hit[0] is color:
        return hit[1]
    found = flat(rgb_of(color))
    if len(_COLORS) >= 4096:
        _COLORS.clear()
    _COLORS[id(color)] = (color, found)
    return found


class Shown(NamedTuple):
    """One string of text shown: where its letters lie and how it was set (recorder space)."""

    box: Box
    color: RGB
    size: float
    origin: tuple[float, float]
    ink: StringInk
    first_bottom: float       # the bottom of its first letter
    text: str
    word: Box                 # its word box (render/base/glyphs.py), where the safe zone is measured


def shown_strings(raw: list) -> list[Shown]:
    """The strings a recorder noted (`Recorder.shown`) that put letters on paper, measured."""
    out = []
    for font, size, text, e, f, m, color in raw:
        ink = string_ink(font, text)
        if ink.box is None:
            continue  # only blanks
        k = size / 1000
        l, bt, r, t = ink.box
        wl, wb, wr, wt = ink.word or ink.box
        if m is None:  # text as is: a translation only
            out.append(Shown((l * k + e, bt * k + f, r * k + e, t * k + f), color, size, (e, f), ink,
                             ink.first_bottom * k + f, text, (wl * k + e, wb * k + f, wr * k + e, wt * k + f)))
            continue
        box = transform_box(m, (l * k, bt * k, r * k, t * k))
        first_bottom = m[3] * ink.first_bottom * k + f if m[1] == 0 and m[2] == 0 else box[1]
        out.append(Shown(box, color, size, (e, f), ink, first_bottom, text,
                         transform_box(m, (wl * k, wb * k, wr * k, wt * k))))
    return out


def shown_letters(raw: list) -> list[Box]:
    """The box of every letter that is not blank in the strings a recorder noted
    (`Recorder.shown`), in recorder space, as a PDF reader gives each character's box."""
    out = []
    for font, size, text, e, f, m, _color in raw:
        k = size / 1000
        for l, b, r, t in letter_boxes(font, text):
            box = (l * k, b * k, r * k, t * k)
            out.append((box[0] + e, box[1] + f, box[2] + e, box[3] + f) if m is None else transform_box(m, box))
    return out


class Recorder:
    """The graphics state a drawing runs in, and what it paints: `objects` as (bounds, paint)
    with paint a flat RGB, None (an image, a form, a see-through fill) or NOT_PAINT; `shown`,
    the strings of text in drawing order."""

    __slots__ = ("ctm", "fill", "alpha", "line_width", "_stack", "objects", "shown", "form_name")
    outlines = False  # a PaintRecorder (render/base/paints.py) is given each filled path's outline and each clip

    def __init__(self, ctm: Matrix = IDENTITY):
        self.ctm = ctm
        self.fill: RGB | None = (0.0, 0.0, 0.0)  # as a viewer reports it (8 bits a channel)
        self.alpha = 1.0
        self.line_width = 1.0
        self._stack: list = []
        self.objects: list = []
        self.shown: list = []  # (font, size, text, x, y, matrix or None, colour) per string shown
        self.form_name: str | None = None  # set while a form being defined is recorded

    # ---- graphics state ---------------------------------------------------------------
    def save(self) -> None:
        self._stack.append((self.ctm, self.fill, self.alpha, self.line_width))

    def restore(self) -> None:
        if self._stack:
            self.ctm, self.fill, self.alpha, self.line_width = self._stack.pop()

    def transform(self, m: Matrix) -> None:
        self.ctm = concat(m, self.ctm)

    def set_fill(self, color) -> None:
        """A ReportLab colour (a Color, an (r, g, b) or (c, m, y, k) tuple, a grey level)."""
        self.fill = flat_color(color)

    # ---- painting ---------------------------------------------------------------------
    def paint_path(self, points: list, stroke: bool, fill: bool) -> None:
        if points and (stroke or fill):
            self.paint_box(path_bounds(points, stroke, self.line_width), stroke, fill)

    def paint_box(self, box: Box | None, stroke: bool, fill: bool) -> None:
        """Paint a path whose bounds in user space (path_bounds) are `box`."""
        if box is None:
            return
        if self.ctm != IDENTITY:  # (a form's own drawing, a map's dots: as it is)
            box = transform_box(self.ctm, box)
        if stroke and not self.line_width:  # a hairline: half a point each way
            box = (box[0] - 0.5, box[1] - 0.5, box[2] + 0.5, box[3] + 0.5)
        self.objects.append((box, (self.fill if self.alpha >= 1.0 else None) if fill else NOT_PAINT))

    def paint_image(self, m: Matrix) -> None:
        self.objects.append((transform_box(concat(m, self.ctm), (0.0, 0.0, 1.0, 1.0)), None))

    def paint_shading(self) -> None:
        """A shading fills the clip: nothing flat, anywhere."""
        self.objects.append(((-1e9, -1e9, 1e9, 1e9), None))

    def paint_form(self, summary: Box | None) -> None:
        self.objects.append((transform_box(self.ctm, summary or (0.0, 0.0, 0.0, 0.0)), None))

    def show(self, font: str, size: float, text: str, tm: Matrix, color: RGB | None) -> None:
        """A string set in `font` at `size` with the text matrix `tm` (its origin at tm's e, f);
        measured when it is read (shown_strings), so drawing only notes it."""
        ctm = self.ctm
        color = color if color is not None else _BLACK
        if tm[0] == 1 and tm[3] == 1 and not tm[1] and not tm[2] and ctm[0] == 1 and ctm[3] == 1 and not ctm[1] \
                and not ctm[2]:  # text as is: a translation only
            self.shown.append((font, size, text, tm[4] + ctm[4], tm[5] + ctm[5], None, color))
            return
        m = concat(tm, ctm)
        self.shown.append((font, size, text, m[4], m[5], m, color))

    def text_at(self, font: str, size: float, text: str, x: float, y: float, color: RGB | None) -> None:
        """`show` for a string drawn as is at (x, y)."""
        ctm = self.ctm
        if ctm[0] == 1 and ctm[3] == 1 and not ctm[1] and not ctm[2]:
            self.shown.append((font, size, text, x + ctm[4], y + ctm[5], None, color if color is not None else _BLACK))
        else:
            self.show(font, size, text, (1.0, 0.0, 0.0, 1.0, x, y), color)

    # a PaintRecorder's (render/base/paints.py), asked for only when `outlines` is set
    def paint_outline(self, key: tuple, make_path, fill: bool) -> None:
        raise NotImplementedError

    def clip(self, key: tuple, make_path) -> None:
        raise NotImplementedError

    def paint_form_within(self, summary: Box | None, key: tuple, make_path) -> None:
        raise NotImplementedError

    def new_page(self) -> None:
        raise NotImplementedError

    def run(self, code: list[str]) -> None:
        """Paint the paths that PDF path operators describe (see `path_points`)."""
        for points, stroke, fill in path_points(code):
            self.paint_path(points, stroke, fill)

def path_points(code: list[str]) -> list:
    """The paths PDF path operators describe (`m`, `l`, `c`, `v`, `y`, `re`, `h`, then `S`, `f`,
    `B` and their kin, or `n`), as ReportLab's path objects write them: (points, stroke, fill)
    per painted path, each point [x, y, kind, closed] with kind "m", "l" or "c" (every point
    of a Bézier), the way PDF readers keep them (a close adds a line back to the start)."""
    painted: list = []
    points: list = []  # [x, y, kind, closed]: kind "m", "l" or "c" (each Bézier point)
    start = current = None
    for token, stack in _operators(code):
        if token == "m":
            current = start = (stack[-2], stack[-1])
            if points and points[-1][2] == "m" and not points[-1][3]:
                points[-1] = [*current, "m", False]
            else:
                points.append([*current, "m", False])
        elif token == "l":
            current = (stack[-2], stack[-1])
            if points:
                points.append([*current, "l", False])
        elif token in ("c", "v", "y"):
            if token == "c":
                p1, p2, p3 = (stack[-6], stack[-5]), (stack[-4], stack[-3]), (stack[-2], stack[-1])
            elif token == "v":
                p1, p2, p3 = current or (stack[-4], stack[-3]), (stack[-4], stack[-3]), (stack[-2], stack[-1])
            else:
                p1, p2, p3 = (stack[-4], stack[-3]), (stack[-2], stack[-1]), (stack[-2], stack[-1])
            if points:
                points.extend([[*p1, "c", False], [*p2, "c", False], [*p3, "c", False]])
            current = p3
        elif token == "h":
            if points:
                if start is not None and current != start:
                    points.append([*start, "l", True])
                else:
                    points[-1][3] = True
                current = start
        elif token == "re":
            x, y, w, h = stack[-4:]
            points.extend([[x, y, "m", False], [x + w, y, "l", False], [x + w, y + h, "l", False],
                           [x, y + h, "l", False], [x, y, "l", True]])
            current = start = (x, y)
        elif token in _PAINT:
            stroke, fill = _PAINT[token]
            painted.append((points, stroke, fill))
            points, start, current = [], None, None
        elif token == "n":
            points, start, current = [], None, None
    return painted


def _operators(code: list[str]) -> Iterator[tuple[str, list]]:
    """Each operator of PDF content `code` with the operands before it (numbers as floats,
    names as written); the list is reused, so read it before the next operator."""
    stack: list = []
    for token in " ".join(code).split():
        c0 = token[0]
        if (c0.isascii() and c0.isdigit()) or c0 in "-.":
            stack.append(float(token))
            continue
        if c0 == "/":
            stack.append(token)
            continue
        yield token, stack
        stack.clear()


def filled_bounds(code: list[str]) -> Box | None:
    """What `path_bounds(points, False, width)` gives for the last path `path_points(code)`
    paints, without listing its points (an icon's outline holds thousands): the bounds of
    every point it keeps, in the same order, so the same floats. As there, an `m` that
    nothing follows before the next `m` is left out, and `h` adds no point not already in."""
    result: Box | None = None
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    lone = None  # the last `m`'s point while nothing has followed it
    drawn = False  # path_points' `points` is not empty
    for token, stack in _operators(code):
        if token == "m":
            lone = (stack[-2], stack[-1])  # replaces a lone `m` before it
            drawn = True
        else:
            if lone is not None and (token in _SEGMENTS or token in _PAINT):  # followed: it stays
                x0, y0, x1, y1 = min(x0, lone[0]), min(y0, lone[1]), max(x1, lone[0]), max(y1, lone[1])
                lone = None
            n = _SEGMENTS.get(token)
            if n and len(stack) < n:
                raise IndexError(f"path operator `{token}` without its numbers")  # as path_points
            if n and drawn:
                xs, ys = stack[-n::2], stack[1 - n::2]
                x0, y0, x1, y1 = min(x0, *xs), min(y0, *ys), max(x1, *xs), max(y1, *ys)
            elif token == "re":
                x, y, w, h = stack[-4:]
                x0, y0, x1, y1 = min(x0, x, x + w), min(y0, y, y + h), max(x1, x, x + w), max(y1, y, y + h)
                drawn = True
            elif token == "n" or token in _PAINT:
                if token != "n":
                    result = (x0, y0, x1, y1) if drawn else None
                x0 = y0 = math.inf
                x1 = y1 = -math.inf
                lone, drawn = None, False
    return result


_SEGMENTS = {"l": 2, "c": 6, "v": 4, "y": 4, "re": 0, "h": 0}  # path operators, and the numbers whose points they add


_PAINT = {"S": (True, False), "s": (True, False), "f": (False, True), "F": (False, True), "f*": (False, True),
          "B": (True, True), "B*": (True, True), "b": (True, True), "b*": (True, True)}


def rgb_of(color) -> RGB | None:
    """An RGB triple for a ReportLab colour value; None for what has none (a separation)."""
    if isinstance(color, (int, float)):
        return (float(color), float(color), float(color))
    if isinstance(color, (tuple, list)):
        if len(color) == 3:
            return tuple(float(v) for v in color)  # type: ignore[return-value]
        if len(color) == 4:
            c, m, y, k = color
            return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
        return None
    rgb = getattr(color, "rgb", None)
    if rgb is not None:
        return tuple(float(v) for v in rgb())  # type: ignore[return-value]
    return None


def path_bounds(points: list, stroke: bool, line_width: float) -> Box | None:
    """A path's bounds in its own space: its points, or for a stroked path `stroke_bounds`."""
    if not points:
        return None
    if stroke and line_width:
        return stroke_bounds(points, line_width)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def stroke_bounds(points: list, width: float) -> Box:
    """The bounds of a stroked path, as viewers compute them: every Bézier control point, and
    at each end a line-width cap, at each join the point where the two sides' offset lines
    meet (the offset is the whole line width: generous by design)."""
    box = [1e5, 1e5, -1e5, -1e5]

    def add(x: float, y: float) -> None:
        box[0], box[1] = min(box[0], x), min(box[1], y)
        box[2], box[3] = max(box[2], x), max(box[3], y)

    n = len(points)
    i = 0
    while i < n:
        kind = points[i][2]
        if kind == "m":
            if i + 1 == n:
                if points[i][3]:
                    add(points[i][0], points[i][1])
                break
            start, end, mid = i + 1, i, None
        else:
            if kind == "c" and not points[i][3]:
                add(points[i][0], points[i][1])
                add(points[i + 1][0], points[i + 1][1])
                i += 2
            if i == n - 1 or points[i + 1][2] == "m":
                start, end, mid = i - 1, i, None
            else:
                start, mid, end = i - 1, i, i + 1
        if mid is None:
            _end_cap(add, points[start], points[end], width)
        else:
            _join(add, points[start], points[mid], points[end], width)
        i += 1
    return (box[0], box[1], box[2], box[3])


def segment_bounds(x1: float, y1: float, x2: float, y2: float, width: float) -> Box:
    """`stroke_bounds` of one straight segment (a `line`): the caps at its two ends, gathered
    and bounded at once (its first point's cap, then its last's, as stroke_bounds adds them)."""
    xs: list[float] = []
    ys: list[float] = []

    def add(x: float, y: float) -> None:
        xs.append(x)
        ys.append(y)

    _end_cap(add, (x2, y2), (x1, y1), width)
    _end_cap(add, (x1, y1), (x2, y2), width)
    return (min(1e5, *xs), min(1e5, *ys), max(-1e5, *xs), max(-1e5, *ys))  # (stroke_bounds' starting box)


def _end_cap(add, s, e, hw: float) -> None:
    if s[0] == e[0]:
        if s[1] == e[1]:
            add(e[0] + hw, e[1] + hw)
            add(e[0] - hw, e[1] - hw)
            return
        y = e[1] - hw if e[1] < s[1] else e[1] + hw
        add(e[0] + hw, y)
        add(e[0] - hw, y)
        return
    if s[1] == e[1]:
        x = e[0] - hw if e[0] < s[0] else e[0] + hw
        add(x, e[1] + hw)
        add(x, e[1] - hw)
        return
    dx, dy = e[0] - s[0], e[1] - s[1]
    length = math.hypot(dx, dy)
    mx, my = e[0] + hw * dx / length, e[1] + hw * dy / length
    ox, oy = hw * dy / length, hw * dx / length
    add(mx - ox, my + oy)
    add(mx + ox, my - oy)


def _join(add, s, m, e, hw: float) -> None:
    """The outer corner of the join at `m` of the segments s-m and m-e, each side offset by hw."""
    near = 1.0 / 20
    s_vertical = abs(s[0] - m[0]) < near
    e_vertical = abs(m[0] - e[0]) < near
    if s_vertical and e_vertical:
        y = m[1] + hw * (1 if m[1] > s[1] else -1)
        add(m[0] + hw, y)
        add(m[0] - hw, y)
        return
    sk = sc = ek = ec = sdc = edc = 0.0
    if not s_vertical:
        sk = (m[1] - s[1]) / (m[0] - s[0])
        sc = m[1] - sk * m[0]
        sdc = abs(hw * math.hypot(s[0] - m[0], s[1] - m[1]) / (s[0] - m[0]))
    if not e_vertical:
        ek = (e[1] - m[1]) / (e[0] - m[0])
        ec = m[1] - ek * m[0]
        edc = abs(hw * math.hypot(e[0] - m[0], e[1] - m[1]) / (e[0] - m[0]))
    if s_vertical:
        x = s[0] + (hw if e[0] < s[0] else -hw)
        y = ek * x + ec + (edc if s[1] < ek * s[0] + ec else -edc)
        add(x, y)
        return
    if e_vertical:
        x = e[0] + (hw if s[0] < e[0] else -hw)
        y = sk * x + sc + (sdc if e[1] < sk * e[0] + sc else -sdc)
        add(x, y)
        return
    if abs(sk - ek) < near:  # (nearly) straight on: a cap where the line goes on
        if (1 if m[0] > s[0] else -1) == (1 if e[0] > m[0] else -1):
            _end_cap(add, m, e, hw)
        else:
            _end_cap(add, s, m, hw)
        return
    s_out = sc + (sdc if e[1] < sk * e[0] + sc else -sdc)
    e_out = ec + (edc if s[1] < ek * s[0] + ec else -edc)
    x = (e_out - s_out) / (sk - ek)
    add(x, sk * x + s_out)


def summary(recorder: Recorder) -> Box | None:
    """The bounds of everything a form holds (what placing it covers, before its matrix)."""
    return union([box for box, _paint in recorder.objects] + [s.box for s in shown_strings(recorder.shown)])
