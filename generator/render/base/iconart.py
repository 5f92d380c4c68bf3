"""Icon art: an icon of the bundled set (generator/pack/gameicons.py) drawn as vector paths
over its background and in its frame, each distinct picture once per PDF.

Three kinds of PDF forms: a glyph (`gi-<name>`: the icon's outline alone, filled with whatever
colour is current where it is placed, in its 512-unit box), a backdrop (`bg-<digest>`: a
background at one box size) and a picture (`art-<digest>`: a look at one box size: its
backdrop, frame, and the glyph in its colour). Every card showing the same look at the same
size places the same picture; pictures of one set share their backdrop, and a picture of
another colour reuses the glyph. Nothing is rasterised.
"""

from __future__ import annotations

import hashlib
import marshal
import math
import weakref
from functools import cache
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from generator.pack.art import Background, Frame, Look
from generator.pack.gameicons import OUTLINES, icon_set
from generator.render.base import templatecache
from generator.render.base.drawn import Box
from generator.render.base.recording import place_form

BOX = 512.0  # the set's icons are drawn in a 512 x 512 box


def outline_path(canvas, name: str):
    """The icon's outline as a ReportLab path in its 512-unit box, y up."""
    path = canvas.beginPath()
    for seg in icon_set().outline(name):
        op = seg[0]
        if op == "M":
            path.moveTo(seg[1], BOX - seg[2])
        elif op == "L":
            path.lineTo(seg[1], BOX - seg[2])
        elif op == "C":
            path.curveTo(seg[1], BOX - seg[2], seg[3], BOX - seg[4], seg[5], BOX - seg[6])
        else:
            path.close()
    return path


# a segment's letter -> its PDF operator after its numbers
_PATH_OPS = {"M": " %s %s m", "L": " %s %s l", "C": " %s %s %s %s %s %s c", "Z": " h"}


def _template(letters: str) -> str:
    """The operators of the segments with a %s for each number, as a path object begins (`n`):
    a replace per kind of segment (what they write has no capital letter), not a call per letter."""
    for letter, text in _PATH_OPS.items():
        letters = letters.replace(letter, text)
    return "n" + letters


@cache
def _halves() -> dict[float, str]:
    """fp_str of every half unit from -64 to 576: the set's coordinates are stored to half a
    unit (pack/iconpath.py), so nineteen numbers of an outline in twenty are found here (all
    but 40 of the set's 1.2 million lie in that range: a wider table costs more to make than
    the few numbers beyond it cost to format one by one)."""
    halves = [k / 2 for k in range(-128, 1153)]
    return dict(zip(halves, fp_str(*halves).split(" ")))  # fp_str formats each number alone


def path_text(segments) -> tuple[str, Box | None]:
    """The PDF operators of an outline's M, L, C and Z segments (y down, in the 512-unit box),
    as `outline_path(...).getCode()` writes them, number for number; and the bounds of the
    points `drawn.filled_bounds` reads back from them filled (drawing_text)."""
    return drawing_text("".join(seg[0] for seg in segments), [v for seg in segments for v in seg[1:]])


def drawing_text(letters: str, numbers: list[float]) -> tuple[str, Box | None]:
    """path_text of an outline given as IconSet.drawing gives it: its segments' letters and their
    numbers in order (x, y pairs, y down). The bounds are those of the points as filled_bounds
    gives them (each number parsed from its text), or None when it must read them itself (a
    move straight after a move, which it leaves out, or a path that does not begin with one).
    Made with a few calls per outline, none per segment or number."""
    if not letters:
        return "", None
    flipped = numbers[:]
    flipped[1::2] = map(BOX.__sub__, numbers[1::2])  # y up: BOX - y
    texts = list(map(_halves().get, flipped))
    # the numbers as filled_bounds reads them back: a half unit's text gives the same float
    # (tests/test_gameicons.py); the others (a quadratic curve's or an arc's, one in 25) are
    # formatted by one fp_str call (which formats each number alone) and read back
    if None in texts:
        missing = [at for at, text in enumerate(texts) if text is None]
        for at, text in zip(missing, fp_str(*[flipped[at] for at in missing]).split(" ")):
            texts[at] = text
            flipped[at] = float(text)
    code = _template(letters) % tuple(texts)
    if letters[0] != "M" or "MM" in letters or not flipped:
        return code, None
    xs, ys = flipped[0::2], flipped[1::2]
    # + 0.0: a float, as float(text) gives (an int given, or a -0.0 whose text is "0")
    return code, (min(xs) + 0.0, min(ys) + 0.0, max(xs) + 0.0, max(ys) + 0.0)


_TEXTS: dict[str, tuple[str, Box | None]] = {}  # icon -> its outline_text, for the process


def outline_text(name: str) -> tuple[str, Box | None]:
    """The PDF operators of `outline_path(canvas, name)`, the same text, and their filled bounds
    (path_text), made without a path object's call per segment (most of the time an icon took to
    draw) and kept for the process (a kit's documents draw the same icons)."""
    text = _TEXTS.get(name)
    if text is None:
        text = _TEXTS[name] = drawing_text(*icon_set().drawing(name))
    return text


def keep_outlines(names) -> None:
    """Have the outline text of each icon of the set named (outline_text) kept for the process
    before anything draws: a pack's card icons (render/cards/faces.py: CardShared), read from the
    user's cache folder where a process made them before (templatecache.load: ~0.5 ms, against
    ~27 ms to read the outlines and make the text of Boss Fight's 141 icons), else made and written
    there. The file is named by the icons and the outlines file's size and mtime (and our code):
    outputs are the same either way. A name the set does not have is left for the drawing to
    report."""
    icons = icon_set()
    keys = sorted({key for key in map(icons.resolve, names) if key is not None} - _TEXTS.keys())
    if not keys:
        return
    outlines = OUTLINES.stat()
    what = f"icon outlines {outlines.st_size} {outlines.st_mtime_ns} {' '.join(keys)}"
    key = hashlib.sha256(templatecache.code_fingerprint() + what.encode()).hexdigest()
    payload = templatecache.load(key, _KEPT)
    texts: Any
    try:
        texts = marshal.loads(payload) if payload is not None else None
    except (EOFError, ValueError, TypeError):
        texts = None
    if not _texts_of(texts, keys):
        texts = {key: outline_text(key) for key in keys}
        templatecache.keep(key, _KEPT, marshal.dumps(texts))
    _TEXTS.update(texts)


_KEPT = b"pnp-icon-outlines-1"  # the form of keep_outlines' files in the cache folder


def _texts_of(value: object, keys: list[str]) -> bool:
    """Is `value` outline texts of exactly these icons: name -> (operators, None or four floats)?"""
    return isinstance(value, dict) and sorted(value) == keys and all(
        isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str)
        and (t[1] is None or (isinstance(t[1], tuple) and len(t[1]) == 4 and all(type(v) is float for v in t[1])))
        for t in value.values())


def fill_outline(canvas, name: str) -> None:
    """Fill the icon's outline (nonzero, as SVG fills) in its 512-unit box: what
    `canvas.drawPath(outline_path(canvas, name), stroke=0, fill=1, fillMode=FILL_NON_ZERO)` writes."""
    draw = getattr(canvas, "draw_path_text", None)  # a RecordingCanvas: the kept text, recorded as drawPath records
    if draw is None:
        canvas.drawPath(outline_path(canvas, name), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    else:
        draw(*outline_text(icon_set().resolve(name) or name), stroke=0, fill=1, fill_mode=FILL_NON_ZERO)


class IconForms:
    """The glyph and picture forms of one canvas (forms belong to one PDF document)."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.defined: set[str] = set()
        self._last_picture: tuple | None = None  # (look, w, h, form): the last picture placed

    def glyph(self, name: str) -> str:
        key = f"gi-{icon_set().resolve(name)}"
        if key not in self.defined:
            c = self.canvas
            c.beginForm(key, 0, 0, BOX, BOX)
            fill_outline(c, name)
            c.endForm()
            self.defined.add(key)
        return key

    def place_glyph(self, name: str, x: float, y: float, size: float, color: str, flip: bool = False) -> None:
        """The icon `size` points square with its bottom-left at (x, y), in `color`."""
        form = self.glyph(name)
        c = self.canvas
        c.saveState()
        c.setFillColor(HexColor(color))
        scale = size / BOX
        c.transform(-scale if flip else scale, 0, 0, scale, x + size if flip else x, y)
        c.doForm(form)
        c.restoreState()

    def backdrop(self, background: str | Background, w: float, h: float) -> str:
        """The form of a background at one box size: every picture with that background shares it."""
        text = background if isinstance(background, str) else background.model_dump_json()
        key = "bg-" + hashlib.sha1(f"{text}|{w:.3f}|{h:.3f}".encode()).hexdigest()[:16]
        if key not in self.defined:
            c = self.canvas
            c.beginForm(key, 0, 0, w, h)  # the form's box clips what spills over (rays, patterns)
            draw_background(c, background, w, h)
            c.endForm()
            self.defined.add(key)
        return key

    def picture(self, look: Look, w: float, h: float) -> str:
        """The form of a look drawn in a w x h point box (origin bottom-left)."""
        last = self._last_picture
        if last is not None and last[0] is look and last[1] == w and last[2] == h:
            return last[3]  # the same Look object (a card's copies; art.py keeps it): no digest to make
        digest = hashlib.sha1(f"{look.key}|{w:.3f}|{h:.3f}".encode()).hexdigest()[:16]
        key = f"art-{digest}"
        if key not in self.defined:
            # defined first: a form is not begun inside another
            glyph = self.glyph(look.icon)
            backdrop = self.backdrop(look.background, w, h) if look.background is not None else None
            c = self.canvas
            c.beginForm(key, 0, 0, w, h)
            if backdrop is not None:
                c.doForm(backdrop)
            side = min(w, h)
            if look.frame is not None:
                draw_frame(c, look.frame, w / 2, h / 2, side * 0.92)
            size = side * look.scale
            c.saveState()
            c.setFillColor(HexColor(look.color))
            scale = size / BOX
            x, y = (w - size) / 2, (h - size) / 2
            c.transform(-scale if look.flip else scale, 0, 0, scale, x + size if look.flip else x, y)
            c.doForm(glyph)
            c.restoreState()
            c.endForm()
            self.defined.add(key)
        self._last_picture = (look, w, h, key)
        return key


_FORMS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def forms_of(canvas) -> IconForms:
    """The icon forms of a canvas, made on first use (a build's documents each have their own)."""
    forms = _FORMS.get(canvas)
    if forms is None:
        forms = _FORMS[canvas] = IconForms(canvas)
    return forms


def draw_look(canvas, look: Look, x: float, y: float, w: float, h: float) -> None:
    """Icon art filling the box (points, bottom-left at x, y)."""
    if w <= 0 or h <= 0:
        return
    place_form(canvas, forms_of(canvas).picture(look, w, h), 1, 0, 0, 1, x, y)  # what translate(x, y) writes


# ---- backgrounds and frames ------------------------------------------------------------------


def draw_background(c, background: str | Background | None, w: float, h: float) -> None:
    if background is None:
        return
    if isinstance(background, str):
        c.setFillColor(HexColor(background))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        return
    colors = [HexColor(v) for v in background.colors]
    kind = background.kind
    c.setFillColor(colors[0])
    c.rect(0, 0, w, h, stroke=0, fill=1)
    if kind == "gradient":
        _bands(c, colors, w, h, background.angle)
    elif kind == "radial":
        _rings(c, colors, w, h)
    elif kind == "burst":
        _burst(c, colors[1], w, h, background.rays)
    elif kind == "pattern":
        _pattern(c, colors[1], w, h, background.pattern)


# Gradients are drawn as steps of flat colour, not PDF shadings: ReportLab gives a form (each
# picture is one) no shading resources, and a step of 1/64 of the way is finer than print shows.
STEPS = 64


def _mix(colors, t: float):
    a, b = colors
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)


def _bands(c, colors, w: float, h: float, angle: float) -> None:
    """From the first colour to the second along `angle` (degrees; 90: bottom to top)."""
    reach = math.hypot(w, h) / 2
    band = 2 * reach / STEPS
    c.saveState()
    c.translate(w / 2, h / 2)
    c.rotate(angle)
    for i in range(STEPS):
        c.setFillColor(_mix(colors, i / (STEPS - 1)))
        c.rect(-reach + i * band, -reach, band * 1.02, 2 * reach, stroke=0, fill=1)  # overlap: no hairline gaps
    c.restoreState()


def _rings(c, colors, w: float, h: float) -> None:
    """From the first colour at the centre to the second at the corners."""
    reach = math.hypot(w, h) / 2
    for i in range(STEPS, 0, -1):
        c.setFillColor(_mix(colors, (i - 1) / (STEPS - 1)))
        c.circle(w / 2, h / 2, reach * i / STEPS, stroke=0, fill=1)


def _burst(c, color, w: float, h: float, rays: int) -> None:
    """`rays` rays of the second colour from the centre, as wide as the gaps between them."""
    cx, cy, r = w / 2, h / 2, math.hypot(w, h)
    step = 2 * math.pi / (2 * rays)
    path = c.beginPath()
    for i in range(rays):
        a0, a1 = (2 * i) * step + math.pi / 2, (2 * i + 1) * step + math.pi / 2
        path.moveTo(cx, cy)
        path.lineTo(cx + r * math.cos(a0), cy + r * math.sin(a0))
        path.lineTo(cx + r * math.cos(a1), cy + r * math.sin(a1))
        path.close()
    c.setFillColor(color)
    c.drawPath(path, stroke=0, fill=1)


PATTERN_STEP_MM = 3.0  # the repeat of a background pattern


def _pattern(c, color, w: float, h: float, pattern: str) -> None:
    step = PATTERN_STEP_MM * mm
    cols, rows = int(w / step) + 2, int(h / step) + 2
    ox, oy = (w - (cols - 1) * step) / 2, (h - (rows - 1) * step) / 2  # centred on the box
    path = c.beginPath()
    if pattern == "dots":
        for i in range(cols):
            for j in range(rows):
                path.circle(ox + i * step + (step / 2 if j % 2 else 0), oy + j * step, step * 0.16)
    elif pattern == "stripes":
        for i in range(-rows, cols + rows):
            x0 = ox + i * step
            path.moveTo(x0, -step)
            path.lineTo(x0 + step * 0.35, -step)
            path.lineTo(x0 + step * 0.35 + h + 2 * step, h + step)
            path.lineTo(x0 + h + 2 * step, h + step)
            path.close()
    elif pattern == "checks":
        for i in range(cols):
            for j in range(rows):
                if (i + j) % 2 == 0:
                    path.rect(ox + (i - 0.5) * step, oy + (j - 0.5) * step, step, step)
    else:  # diamonds
        half = step * 0.3
        for i in range(cols):
            for j in range(rows):
                x, y = ox + i * step, oy + j * step
                path.moveTo(x, y - half)
                path.lineTo(x + half, y)
                path.lineTo(x, y + half)
                path.lineTo(x - half, y)
                path.close()
    c.setFillColor(color)
    c.drawPath(path, stroke=0, fill=1, fillMode=FILL_NON_ZERO)


def frame_path(c, shape: str, cx: float, cy: float, size: float):
    path = c.beginPath()
    r = size / 2
    if shape == "circle":
        path.circle(cx, cy, r)
    elif shape == "square":
        path.rect(cx - r, cy - r, size, size)
    elif shape == "rounded":
        path.roundRect(cx - r, cy - r, size, size, size * 0.18)
    else:  # hexagon, a point up
        for i in range(6):
            a = math.radians(90 + 60 * i)
            (path.moveTo if i == 0 else path.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
        path.close()
    return path


def draw_frame(c, frame: Frame, cx: float, cy: float, size: float) -> None:
    """The medallion behind the icon: its fill, then its outline inside the size given."""
    width = frame.width * mm
    inner = max(size - width, 0)
    c.saveState()
    if frame.fill is not None:
        c.setFillColor(HexColor(frame.fill))
        c.drawPath(frame_path(c, frame.shape, cx, cy, inner), stroke=0, fill=1)
    if width > 0:
        c.setStrokeColor(HexColor(frame.color))
        c.setLineWidth(width)
        c.setLineJoin(1)
        c.drawPath(frame_path(c, frame.shape, cx, cy, inner), stroke=1, fill=0)
    c.restoreState()
