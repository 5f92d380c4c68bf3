"""PDF operators written at once: a path's text made with one `fp_str` call for all its numbers
(ReportLab's path objects format each point alone; a map page draws thousands of cells and dots,
a card back thousands of lines), a form placed without ReportLab's copy of the graphics state,
and a kept text's numbers put back in. The same text ReportLab writes: tests/test_map_shortcuts.py
and tests/test_place_form.py compare them."""

from __future__ import annotations

import math

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.render.base.drawn import Recorder


def _whole_turn() -> list[tuple[float, float, float, float, float, float, float, float]]:
    """What ReportLab's bezierArc works out for a whole turn (startAng 0, extent 360: four
    quarters) before it places them: each quarter's cosines and sines, and their mixes with
    its kappa, in its own expressions (so the same floats)."""
    frag = 360.0 / 4
    half = frag * math.pi / 360.
    kappa = abs(4. / 3. * (1. - math.cos(half)) / math.sin(half))
    terms = []
    for i in range(4):
        t0, t1 = (0 + i * frag) * math.pi / 180., (0 + (i + 1) * frag) * math.pi / 180.
        terms.append((math.cos(t0), math.sin(t0),
                      math.cos(t0) - kappa * math.sin(t0), math.sin(t0) + kappa * math.cos(t0),
                      math.cos(t1) + kappa * math.sin(t1), math.sin(t1) - kappa * math.cos(t1),
                      math.cos(t1), math.sin(t1)))
    return terms


_TURN = _whole_turn()
CIRCLE_TEXT = "\n".join(["n", "%s %s m", *["%s %s %s %s %s %s c"] * 4, ""])  # then the painting operator


def circle_numbers(x_cen, y_cen, r) -> list[float]:
    """The numbers of `canvas.circle(x_cen, y_cen, r)`'s path as ReportLab works them out: the
    box canvas.circle gives canvas.ellipse, which gives the path object's ellipse its corner and
    size, which gives bezierArc its corners, then the move and four curves it makes (x, y, x, y,
    …: circle_xs's and circle_ys's, one after the other)."""
    return [v for pair in zip(circle_xs(x_cen, r), circle_ys(y_cen, r)) for v in pair]


def circle_xs(x_cen, r) -> list[float]:
    """The x of each point of `canvas.circle(x_cen, …, r)`'s path (its move, then each curve's
    three points): they depend on the centre's x and the radius alone (circle_numbers)."""
    x1, x2 = x_cen - r, x_cen + r  # canvas.circle
    width = x2 - x1  # canvas.ellipse
    x1, x2 = x1, x1 + width  # PDFPathObject.ellipse
    x1, x2 = min(x1, x2), max(x1, x2)  # bezierArc
    xc, rx = (x1 + x2) / 2., (x2 - x1) / 2.
    xs = [xc + rx * _TURN[0][0]]
    for _c0, _s0, a, _b, c, _d, c1, _s1 in _TURN:
        xs += (xc + rx * a, xc + rx * c, xc + rx * c1)
    return xs


def circle_ys(y_cen, r) -> list[float]:
    """The y of each point of `canvas.circle(…, y_cen, r)`'s path, as circle_xs gives its x."""
    y1, y2 = y_cen - r, y_cen + r  # canvas.circle
    height = y2 - y1  # canvas.ellipse
    y1, y2 = y1, y1 + height  # PDFPathObject.ellipse
    y1, y2 = max(y1, y2), min(y1, y2)  # bezierArc (its corners top left, bottom right)
    yc, ry = (y1 + y2) / 2., (y2 - y1) / 2.
    ys = [yc - ry * _TURN[0][1]]
    for _c0, _s0, _a, b, _c, d, _c1, s1 in _TURN:
        ys += (yc - ry * b, yc - ry * d, yc - ry * s1)
    return ys


# CIRCLE_TEXT with the x of its points first (13 of them), then the y: for `str.format`
_DOT_TEXT = CIRCLE_TEXT.replace("%s %s", "{} {}").format(
    *[f"{{{i}}}" if k % 2 == 0 else f"{{{13 + i}}}" for i in range(13) for k in (0, 1)])


def dots_text(centres, r: float, operator: str) -> str:
    """What `canvas.circle(x, y, r)` writes for each (x, y) of `centres`, painted by `operator`
    (`f`: filled), one after the other (lines joined as a page joins its operators). A pattern's
    dots (hundreds) stand in rows and columns: each different x or y is formatted once."""
    template = _DOT_TEXT + operator
    xs: dict[float, list[str]] = {}
    ys: dict[float, list[str]] = {}
    texts = []
    for x, y in centres:
        across = xs.get(x)
        if across is None:
            across = xs[x] = fp_str(*circle_xs(x, r)).split(" ")
        up = ys.get(y)
        if up is None:
            up = ys[y] = fp_str(*circle_ys(y, r)).split(" ")
        texts.append(template.format(*across, *up))
    return "\n".join(texts)


class LinePath:
    """Moves, lines, curves and closes gathered as a path object takes them; `path()` gives a path
    object whose `getCode()` is the same text, made with one `fp_str` call for all the numbers (a
    card back's pattern holds thousands of lines, a map's waves hundreds of curves; a path object
    formats each point alone)."""

    def __init__(self):
        self.ops: list[str] = []
        self.numbers: list[float] = []

    def moveTo(self, x: float, y: float) -> None:
        self.ops.append("%s %s m")
        self.numbers += (x, y)

    def lineTo(self, x: float, y: float) -> None:
        if not self.ops:
            raise ValueError("path must start with a moveto")  # as a path object refuses it
        self.ops.append("%s %s l")
        self.numbers += (x, y)

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:
        if not self.ops:
            raise ValueError("path must start with a moveto")
        self.ops.append("%s %s %s %s %s %s c")
        self.numbers += (x1, y1, x2, y2, x3, y3)

    def close(self) -> None:
        if not self.ops:
            raise ValueError("path must start with a moveto")
        self.ops.append("h")

    def path(self) -> PDFPathObject:
        return PDFPathObject(code=[formatted(" ".join(["n", *self.ops]), self.numbers)] if self.ops else None)


def _one_polygon(numbers: list[str]) -> list[list[tuple[float, float]]]:
    """The outline of a path of one move and the lines or curves after it, whose numbers its text
    gives as `numbers`: every point, a curve's control points too (paints.outline_of's reading)."""
    values = [float(v) for v in numbers]
    return [list(zip(values[0::2], values[1::2]))]


class KnownPath:
    """A path known by its numbers (one move, then lines or curves), for a PaintRecorder, which
    asks a path drawn for its `polygons`."""

    def __init__(self, numbers: list[str]):
        self.numbers = numbers

    def polygons(self) -> list[list[tuple[float, float]]]:
        return _one_polygon(self.numbers)


NUMBER_MEMO = 65536  # numbers whose text number_texts keeps
_NUMBER_TEXTS: dict[float, str] = {}  # a number -> its text


def number_texts(numbers: list[float]) -> list[str]:
    """Each number as `fp_str` writes it (fp_str formats each of its arguments alone), kept by its
    value: a map's cells share their corners and columns (Boss Fight's maps: 49,080 numbers of
    cells, 5,364 different), and fp_str's formatting (C's printf: some 3,500 instructions a number)
    costs many times looking one up (Boss Fight's maps: 2,034 -> 1,965 M instructions). A
    pattern's hatching, whose numbers repeat less, is formatted in one call (`formatted`)."""
    memo = _NUMBER_TEXTS
    get = memo.get
    texts: list = [get(v) for v in numbers]
    if None in texts:
        if len(memo) >= NUMBER_MEMO:
            memo.clear()
        for i, text in enumerate(texts):
            if text is None:
                texts[i] = memo[numbers[i]] = fp_str(numbers[i])
    return texts


class PolygonPath(PDFPathObject):
    """A closed polygon as a path object's moveTo, lineTos and close write it (`n x y m x y l …
    h`), its text made with each number's text looked up (number_texts; polygon_path), and its outline
    as that text gives it, for a PaintRecorder (paints.outline_of would read the same numbers
    back from the text)."""

    def __init__(self, template: str, numbers: list[float]):
        self.numbers = number_texts(numbers)  # each number as the text gives it
        super().__init__(code=[template % tuple(self.numbers)])

    def polygons(self) -> list[list[tuple[float, float]]]:
        return _one_polygon(self.numbers)


_POLYGON_TEMPLATES: dict[int, str] = {}  # by the number of points


def polygon_path(numbers: list[float]) -> PDFPathObject:
    """The closed polygon through the points x1, y1, x2, y2, … (a map's cell), the same text as
    `p = canvas.beginPath(); p.moveTo(x1, y1); p.lineTo(x2, y2) …; p.close()`: a map page draws
    thousands of cells, and a path object formats each point alone."""
    template = _POLYGON_TEMPLATES.get(len(numbers))
    if template is None:
        template = _POLYGON_TEMPLATES[len(numbers)] = " ".join(
            ["n %s %s m", *["%s %s l"] * (len(numbers) // 2 - 1), "h"])
    return PolygonPath(template, numbers)


def place_form(canvas, name: str, a: float, b: float, c: float, d: float, e: float, f: float,
               within=None) -> None:
    """`saveState(); transform(a, b, c, d, e, f); doForm(name); restoreState()`: a form placed
    (an icon, a card's frame, a picture, a map's pattern `within` its cell: RecordingCanvas.doForm).
    On a RecordingCanvas recording nothing, the same four
    operators are written without saving and restoring ReportLab's copy of the graphics state
    (some two dozen attributes, for each of thousands of icons): nothing between changes it
    but the transform, which the restore would undo. (`transform` right after `q` writes its
    own `cm`: it merges only with a `cm` just before it.) While it records, the recorder is
    told the same save, transform and restore its canvas methods would tell it."""
    ink = getattr(canvas, "ink", True)
    if ink is True:  # not a RecordingCanvas: the calls themselves
        canvas.saveState()
        canvas.transform(a, b, c, d, e, f)
        canvas.doForm(name)
        canvas.restoreState()
        return
    canvas.addLiteral("q")
    canvas.addLiteral("%s cm" % fp_str(a, b, c, d, e, f))
    if isinstance(ink, Recorder):
        ink.save()
        ink.transform((a, b, c, d, e, f))
        canvas.doForm(name, within)  # the recorder notes the form placed, under the transform
        ink.restore()
    else:
        canvas.doForm(name, within)
    canvas.addLiteral("Q")


def left_out(code: str, *parts: str) -> str | None:
    """`code` as a %-template with each of `parts` (in order, each after the one before) left out
    as `%s`; None when they are not all in it."""
    pieces: list[str] = []
    pos = 0
    for part in parts:
        at = code.find(part, pos)
        if at < 0:
            return None
        pieces += (code[pos:at].replace("%", "%%"), "%s")
        pos = at + len(part)
    pieces.append(code[pos:].replace("%", "%%"))
    return "".join(pieces)


def formatted(template: str, numbers: list[float]) -> str:
    """`template` with each `%s` replaced by the next number as ReportLab writes numbers into a
    page (`fp_str`, which formats each of its arguments alone): one call for a whole path
    rather than one per operator."""
    return template % tuple(fp_str(*numbers).split(" ")) if numbers else template
