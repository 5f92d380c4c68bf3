"""What each text of a page drawn whole lies on, noted while it is drawn.

For the contrast check of the map pages (sheets, overviews, assembly diagrams, tiles). The
rule is the one a PDF reader would give (render/base/readback.py reads a written PDF back
with PDFium by the same rule, and the tests hold the two to the same findings): the page's
paints are kept in painting order, each filled path with its outline (a polygon in page
points, every point of a curve, Bézier control points included, as PDFium lists a path's
points), the clipping paths in force and its flat fill colour; each text is judged against
the last paint that, inside its clipping paths, holds the middle of the text (paper white
when none does; nothing when that paint is an image, a shading, a form or see-through). A
text whose middle its own clip cuts off is not printed there, and not judged. One place where
this rule knows more than PDFium's: a form placed with the outline all it paints lies in (a
map's terrain pattern, clipped to its cell: RecordingCanvas.doForm's `within`) covers that
outline, not its box, so the label of a plain cell beside it is judged on its own cell's fill.

A PaintRecorder is the Recorder (render/base/drawn.py) a RecordingCanvas tells what it draws;
its `outlines` flag asks the canvas for each filled path's operators and each clip, which a
card's recorder does not need. Bounds follow drawn.py's conventions (PDFium's): a form covers
the union of what it holds, an image its unit square under the current matrix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.core.bounded import BoundedCache
from generator.render.base.colors import MIN_CONTRAST, contrast_ratio
from generator.render.base.drawn import PATH_NUMBER, IDENTITY, RGB, Box, Matrix, Recorder, concat, transform_box
from generator.render.base.glyphs import string_ink

Polygons = list[list[tuple[float, float]]]
PAPER: RGB = (1.0, 1.0, 1.0)
_EVERYWHERE: Box = (-1e9, -1e9, 1e9, 1e9)
OUTLINE_MEMO = 4096  # outlines a recorder keeps by their path's text (a map repeats few shapes)


@dataclass(frozen=True)
class TextOnPaint:
    text: str
    color: RGB
    under: RGB
    ratio: float
    box: tuple[float, float, float, float]  # page points, y up


def inside(polys: Polygons, x: float, y: float) -> bool:
    """Whether (x, y) is inside the polygons, by the even-odd rule over all of them."""
    result = False
    for poly in polys:
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
    return result


def outline_of(code: str) -> Polygons:
    """The subpaths of path operators `code` (a path object's `getCode()`) as polygons: a new
    one at each move or rectangle, every point of a segment kept (a curve's control points
    too). A close adds nothing: a polygon closes itself."""
    if " re" not in code and code.count(" m") == 1:  # one subpath (a cell, a band, a dot): its numbers in pairs
        values = [float(v) for v in PATH_NUMBER.findall(code)]
        return [list(zip(values[0::2], values[1::2]))]
    polys: Polygons = []
    numbers: list[str] = []
    for token in code.split():
        op = _OPERATORS.get(token)
        if op is None:
            numbers.append(token)
            continue
        if op == 1:  # m
            polys.append([(float(numbers[-2]), float(numbers[-1]))])
        elif op == 2 and polys:  # l, c, v, y: each point
            n = _POINTS[token]
            polys[-1].extend((float(numbers[i]), float(numbers[i + 1])) for i in range(len(numbers) - n, len(numbers), 2))
        elif op == 3:  # re
            x, y, w, h = (float(v) for v in numbers[-4:])
            polys.append([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        numbers.clear()
    return polys


_BLANK = re.compile(r"\s")  # (str.isspace's characters)
_OPERATORS = {"m": 1, "l": 2, "c": 2, "v": 2, "y": 2, "re": 3}
_OPERATORS.update(dict.fromkeys(("h", "n", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "W", "W*"), 0))
_POINTS = {"l": 2, "c": 6, "v": 4, "y": 4}


def _moved(m: Matrix, polys: Polygons) -> Polygons:
    if m == IDENTITY:
        return polys
    a, b, c, d, e, f = m
    return [[(a * x + c * y + e, b * x + d * y + f) for x, y in poly] for poly in polys]


def _bounds(polys: Polygons) -> Box | None:
    xs = [x for poly in polys for x, _y in poly]
    ys = [y for poly in polys for _x, y in poly]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


class PaintRecorder(Recorder):
    """Keeps a page's paints in painting order, with the clips in force, and judges each text
    as it is shown against the paints before it (`judged`: (page, TextOnPaint) of every text
    with a flat colour under it; `low`: those below MIN_CONTRAST)."""

    __slots__ = ("clips", "paints", "page", "judged", "outline_memo", "noting")
    outlines = True
    forms_within = True  # a form placed `within` a path covers that path alone (paint_form_within)

    def __init__(self, ctm: Matrix = IDENTITY):
        super().__init__(ctm)
        self.clips: tuple = ()  # each clipping path in force, as polygons in page points
        self.paints: list = []  # (bounds, colour or None, outline polygons or None, clips)
        self.page = 1
        self.judged: list[tuple[int, TextOnPaint]] = []
        self.outline_memo: BoundedCache[tuple, tuple[Polygons, Box | None]] = BoundedCache(OUTLINE_MEMO)
        self.noting = False  # each string shown is noted in `shown` too (strings_of)

    @property
    def low(self) -> list[tuple[int, TextOnPaint]]:
        return [(page, t) for page, t in self.judged if t.ratio < MIN_CONTRAST - 1e-9]

    # ---- graphics state ---------------------------------------------------------------
    def save(self) -> None:
        super().save()
        self._stack.append(self.clips)

    def restore(self) -> None:
        if self._stack:
            self.clips = self._stack.pop()
        super().restore()

    def new_page(self) -> None:
        """A page ends: what the next one paints starts on blank paper, in a fresh state."""
        self.page += 1
        self.paints = []
        self.clips = ()
        self.ctm = IDENTITY
        self.fill, self.alpha, self.line_width = (0.0, 0.0, 0.0), 1.0, 1.0
        self._stack.clear()

    def _outline(self, key: tuple, make_path) -> tuple[Polygons, Box | None]:
        """A path's outline in page points and its bounds, kept by `key` as the path gives them (a
        map page fills a cell, clips to it and strokes it; most pages draw untransformed)."""
        kept = self.outline_memo.get(key)
        if kept is None:
            path = make_path()
            known = getattr(path, "polygons", None)  # (a map's cell: recording.PolygonPath knows its outline)
            polys = known() if known is not None else outline_of(path.getCode())
            kept = self.outline_memo[key] = (polys, _bounds(polys))
        if self.ctm == IDENTITY:
            return kept
        polys = _moved(self.ctm, kept[0])
        return polys, _bounds(polys)

    def clip(self, key: tuple, make_path) -> None:
        self.clips = self.clips + (self._outline(key, make_path)[0],)

    # ---- painting ---------------------------------------------------------------------
    def paint_outline(self, key: tuple, make_path, fill: bool) -> None:
        """A path painted (`make_path()`: its path object, `key`: what its outline is kept by);
        only a filled one is paint a text can lie on."""
        if fill:
            self._fill(*self._outline(key, make_path))

    def paint_box(self, box: Box | None, stroke: bool, fill: bool) -> None:
        """A path known by its bounds alone (Recorder.run's lines): a filled one as its rectangle."""
        if box is not None and fill:
            left, bottom, right, top = box
            polys = _moved(self.ctm, [[(left, bottom), (right, bottom), (right, top), (left, top)]])
            self._fill(polys, _bounds(polys))

    def _fill(self, polys: Polygons, bounds: Box | None) -> None:
        if bounds is not None:
            self.paints.append((bounds, self.fill if self.alpha >= 1.0 else None, polys, self.clips))

    def paint_image(self, m: Matrix) -> None:
        self._opaque(transform_box(concat(m, self.ctm), (0.0, 0.0, 1.0, 1.0)))

    def paint_shading(self) -> None:
        self._opaque(_EVERYWHERE)

    def paint_form(self, summary: Box | None) -> None:
        self._opaque(transform_box(self.ctm, summary or (0.0, 0.0, 0.0, 0.0)))

    def paint_form_within(self, summary: Box | None, key: tuple, make_path) -> None:
        """A form all of whose paint lies inside a path (`make_path()`, kept by `key`; a map's
        pattern clipped to its cell): unjudgeable paint there only, not across its box (what
        the read-back oracle, readback.py, still counts: it sees the box alone)."""
        polys, bounds = self._outline(key, make_path)
        box = transform_box(self.ctm, summary or (0.0, 0.0, 0.0, 0.0))
        if bounds is not None:
            box = (max(box[0], bounds[0]), max(box[1], bounds[1]), min(box[2], bounds[2]), min(box[3], bounds[3]))
            self.paints.append((box, None, polys, self.clips))

    def _opaque(self, bounds: Box) -> None:
        self.paints.append((bounds, None, None, self.clips))

    # ---- text -------------------------------------------------------------------------
    def strings_of(self, draw) -> list:
        """Draw (`draw()`), noting each string it shows as a Recorder notes it (`shown`): what a
        text-only drawing of the same strings would note (a sheet's window, whose text its seams'
        crosses keep off: render/maps/page.py), besides judging each."""
        self.shown, self.noting = [], True
        try:
            draw()
        finally:
            self.noting = False
        return self.shown

    def show(self, font: str, size: float, text: str, tm: Matrix, color: RGB | None) -> None:
        if self.noting:
            Recorder.show(self, font, size, text, tm, color)
        if color is None:
            return  # see-through text: no colour of its own to judge
        m = tm if self.ctm == IDENTITY else concat(tm, self.ctm)
        ink = string_ink(font, text).box  # its letters' boxes at size 1000 (drawn.shown_strings)
        if ink is None:
            return  # only blanks
        k = size / 1000
        box = transform_box(m, (ink[0] * k, ink[1] * k, ink[2] * k, ink[3] * k))
        if _BLANK.search(text):  # a blank's box is a point on the baseline (PDFium)
            box = _with_blanks(box, m)
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not all(inside(clip, x, y) for clip in self.clips):
            return  # clipped away (a label of a cell cut off at the edge of a sheet's window)
        under: RGB | None = PAPER
        for (left, bottom, right, top), paint, polys, clips in reversed(self.paints):
            if left <= x <= right and bottom <= y <= top and (polys is None or inside(polys, x, y)) \
                    and all(inside(clip, x, y) for clip in clips):
                under = paint
                break
        if under is not None:
            self.judged.append((self.page, TextOnPaint(text, color, under, contrast_ratio(color, under), box)))

    def text_at(self, font: str, size: float, text: str, x: float, y: float, color: RGB | None) -> None:
        self.show(font, size, text, (1.0, 0.0, 0.0, 1.0, x, y), color)


def _with_blanks(box: Box, m: Matrix) -> Box:
    """A shown string's box with its baseline in: PDFium counts a blank's empty box as the
    point where it stands."""
    if m[1] == 0 and m[2] == 0:
        base = m[5]
        return (box[0], min(box[1], base), box[2], max(box[3], base))
    return box

