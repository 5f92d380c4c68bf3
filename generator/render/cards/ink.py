"""What each layout element of a face puts on paper, noted while the face is drawn.

The checks of card layouts (generator/preflight/layout.py) must judge the ink, not the boxes
a layout declares: an icon drawn at its own size, a number placed past its box, a text that
renders empty. While the layout checks listen (an InkLog on the build's CardShared), the card
painter records the first drawing of each side element by element (render/base/drawn.py):
the bounds of the ink (glyph boxes for text, object bounds for paths, images and forms), each
string's colour and size, and the flat fills painted (what lies under a text). Nothing is
drawn twice and nothing is read back from a PDF: the sheets' own drawing is measured.

Everything here is in mm from the trim's top-left corner, y down.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getFont

from generator.core.errors import InputError
from generator.render.base import glyphs, templatecache
from generator.render.base.drawn import NOT_PAINT, Recorder, Shown, shown_strings
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import CardPainter
from generator.render.cards.fit import layout_fits

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout
    from generator.render.cards.faces import CardFace, CardShared

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 mm from the trim's top-left, y down
RGB = tuple[float, float, float]          # 0..1


# Named tuples rather than frozen dataclasses: every element of every distinct face makes some
# (made about three times faster, immutable all the same).
class TextRun(NamedTuple):
    """Characters of one colour and size on one line."""

    text: str
    color: RGB
    size_pt: float
    box: Box


class Paint(NamedTuple):
    """Something painted over an area: a flat colour (`color`) or not flat (`color` None:
    an image, a form, a shading), in drawing order."""

    box: Box
    color: RGB | None


class ElementInk:
    """What one element drew, worked out when first asked: `bounds`, the union of its ink (None:
    it drew nothing); `paints`, in drawing order; `texts`, its runs of text; `text_box` and
    `text_colors`, the union of its letters and their colours in order (which answer most
    questions about its text without the runs). In mm from the trim's top-left, y down; the
    `*_pt` forms are in points from the trim's bottom-left, y up, as recorded."""

    __slots__ = ("element", "name", "drawn", "_objects", "_raw", "_height", "_strings", "_bounds_pt", "_text_pt",
                 "_colors", "_texts", "_paints_pt", "_placed_pt")

    def __init__(self, element: Element, name: str, drawn: bool = True, objects: list | None = None,
                 raw: list | None = None, height_pt: float = 0.0):
        self.element, self.name, self.drawn = element, name, drawn
        self._objects, self._raw, self._height = objects or [], raw or [], height_pt
        self._strings: list | None = None
        self._bounds_pt: Box | None | bool = False
        self._text_pt: Box | None | bool = False
        self._colors: tuple | None = None
        self._texts: tuple[TextRun, ...] | None = None
        self._paints_pt: list | None = None
        self._placed_pt: Box | None | bool = False

    def mm_box(self, b: Box) -> Box:
        """A recorded box (points, y up) in mm from the trim's top-left, y down."""
        k, h = 1 / mm, self._height
        return (b[0] * k, (h - b[3]) * k, b[2] * k, (h - b[1]) * k)

    @property
    def strings(self) -> list[Shown]:
        if self._strings is None:
            self._strings = shown_strings(self._raw) if self._raw else []
        return self._strings

    @property
    def paints_pt(self) -> list:
        """(box, flat RGB or None) of what it painted, in points."""
        if self._paints_pt is None:
            self._paints_pt = [o for o in self._objects if o[1] is not NOT_PAINT]
        return self._paints_pt

    @property
    def text_box_pt(self) -> Box | None:
        if self._text_pt is False:
            self._text_pt = _union([s.box for s in self.strings])
        return self._text_pt  # type: ignore[return-value]

    @property
    def bounds_pt(self) -> Box | None:
        if self._bounds_pt is False:
            boxes = [o[0] for o in self._objects]
            if self.text_box_pt is not None:
                boxes.append(self.text_box_pt)
            self._bounds_pt = _union(boxes)
        return self._bounds_pt  # type: ignore[return-value]

    @property
    def placed_pt(self) -> Box | None:
        """What the safe zone is measured on (core/safezone.py): `bounds_pt` with each string's
        word box in place of its letters' outlines."""
        if self._placed_pt is False:
            self._placed_pt = _union([o[0] for o in self._objects] + [s.word for s in self.strings])
        return self._placed_pt  # type: ignore[return-value]

    @property
    def placed(self) -> Box | None:
        return None if self.placed_pt is None else self.mm_box(self.placed_pt)

    @property
    def text_colors(self) -> tuple:
        if self._colors is None:
            colors: list = []
            for s in self.strings:
                if s.color not in colors:
                    colors.append(s.color)
            self._colors = tuple(colors)
        return self._colors

    @property
    def bounds(self) -> Box | None:
        return None if self.bounds_pt is None else self.mm_box(self.bounds_pt)

    @property
    def text_box(self) -> Box | None:
        return None if self.text_box_pt is None else self.mm_box(self.text_box_pt)

    @property
    def paints(self) -> tuple[Paint, ...]:
        return tuple(Paint(self.mm_box(b), c) for b, c in self.paints_pt)

    @property
    def texts(self) -> tuple[TextRun, ...]:
        if self._texts is None:
            self._texts = text_runs(self.strings, self.mm_box, self._height) if self.strings else ()
        return self._texts


def _union(boxes: list) -> Box | None:
    if not boxes:
        return None
    x0, y0, x1, y1 = boxes[0]
    for b in boxes[1:]:
        if b[0] < x0:
            x0 = b[0]
        if b[1] < y0:
            y0 = b[1]
        if b[2] > x1:
            x1 = b[2]
        if b[3] > y1:
            y1 = b[3]
    return (x0, y0, x1, y1)


@dataclass(frozen=True)
class FaceInk:
    layout: Layout
    size_mm: tuple[float, float]
    elements: tuple[ElementInk, ...]


def side_key(shared: CardShared, face: CardFace) -> tuple:
    """What makes a side distinct for the checks: a card (or a card-less layout) and its type,
    or a back's key (its set and type, and the card when each card has its own back)."""
    if face.back:
        return ("back", shared.pack.back_key(face.set_id, face.type_id, face.card))
    return ("face", face.card.id if face.card else face.layout, face.type_id)


class InkLog:
    """Set on a CardShared while the layout checks listen: the first drawing of each distinct
    side is recorded and handed to `on_side(face, FaceInk)` as soon as the side is drawn."""

    def __init__(self, shared: CardShared, on_side: Callable[[CardFace, FaceInk], None]):
        self.shared = shared
        self.on_side = on_side
        read_inks(sorted(set(shared.fitter.family.values())))  # the strings of card text, measured before
        self.seen: set = set()
        self._forms: dict = {}  # id(recorder) -> (recorder, ElementInk): a frame's or back's elements, read once

    def wants(self, face: CardFace) -> bool:
        return side_key(self.shared, face) not in self.seen

    def drawn(self, face: CardFace, layout: Layout, size_mm: tuple[float, float], recorded: list) -> None:
        if None in recorded:  # a form drawn before the checks listened: draw it again
            return
        self.seen.add(side_key(self.shared, face))
        height = size_mm[1] * mm
        self.on_side(face, FaceInk(layout, size_mm, tuple(self._ink(e, drawn, rec, height) for e, drawn, rec in recorded)))

    def _ink(self, e: Element, drawn: bool, recorder: Recorder, height: float) -> ElementInk:
        if recorder.form_name is None:
            return element_ink(e, drawn, recorder, height)
        hit = self._forms.get(id(recorder))  # a form's element: the same drawing on every face
        if hit is None or hit[0] is not recorder:
            hit = self._forms[id(recorder)] = (recorder, element_ink(e, drawn, recorder, height))
        return hit[1]


def element_ink(element: Element, drawn: bool, recorder: Recorder, height_pt: float) -> ElementInk:
    """An element's recorded drawing (measured when first read)."""
    return ElementInk(element, element.id or element.kind, drawn, recorder.objects, recorder.shown, height_pt)


def _new_line(prev: Shown, this: Shown) -> bool:
    """Does `this` string start a new line after `prev`? Its baseline lies lower (or higher) by
    more than a fraction of a letter's width (PDF text readers' test, for horizontal text)."""
    dy = this.origin[1] - prev.origin[1]
    threshold = max(prev.ink.last_width * prev.size, this.ink.first_width * this.size) / 1000 / 4
    return (dy > 2 * threshold or dy < -3 * threshold) and (abs(dy) >= 1 or abs(dy) > abs(this.origin[0]
                                                                                      - prev.origin[0]))


def _hyphenated(prev: Shown, this: Shown) -> bool:
    """A word broken at a line's end (`re-` / `generate`): read on as one line."""
    return (prev.ink.last in "-\xad" and prev.ink.before_last.isalpha() and this.ink.first.isalnum())


def text_runs(shown: list[Shown], box: Callable, height_pt: float) -> tuple[TextRun, ...]:
    """The strings an element showed, as runs of one colour and size on one line (mm, y down)."""
    runs: list[TextRun] = []
    current = None  # [texts, color, size, box]
    prev = None
    for s in shown:
        if prev is not None and _new_line(prev, s) and not _hyphenated(prev, s):
            current = _flush(runs, current)
        prev = s
        size = round(s.size, 2)
        where = box(s.box)
        bottom = (height_pt - s.first_bottom) / mm
        if current and current[1] == s.color and current[2] == size and abs(current[3][3] - bottom) < size / 72 * 25.4:
            current[0].append(s.text)
            b = current[3]
            current[3] = (min(b[0], where[0]), min(b[1], where[1]), max(b[2], where[2]), max(b[3], where[3]))
        else:
            current = _flush(runs, current)
            current = [[s.text], s.color, size, where]
    _flush(runs, current)
    return tuple(runs)


def _flush(runs: list[TextRun], current: list | None) -> list | None:  # the run gathered next: none yet
    if current:
        runs.append(TextRun(" ".join(" ".join(current[0]).split()), current[1], current[2], current[3]))
    return None


def recordable(shared: CardShared, face: CardFace) -> bool:
    """Is the side drawn from its layout as is (not scaled from another card size: the
    reference card on a pack of another size), so that its drawing can be recorded?"""
    layout = shared.back_layout(face.type_id) if face.back else shared.layouts.get(face.layout)
    return layout_fits(layout, shared.pack.card_size_mm(face.type_id))


def draw_sides(shared: CardShared, faces: list[CardFace]) -> None:
    """Draw sides on a scratch page, for the InkLog listening on `shared` (those it has not seen
    yet; one that fails is left out: the renderer reports it)."""
    log = shared.ink
    assert log is not None, "draw_sides draws for the InkLog listening on `shared`"
    canvas = new_canvas(io.BytesIO(), (100, 100), "ink")
    canvas.scratch = True  # never saved: what it draws is read by the checks alone
    painter = CardPainter(canvas, shared)
    for face in faces:
        if not log.wants(face) or not recordable(shared, face):
            continue
        try:
            painter.draw_face(face, 0.0, 0.0, tick=False)
        except InputError:
            pass


def face_ink(shared: CardShared, faces: list[CardFace]) -> list[FaceInk | None]:
    """The ink of every element of each face, drawn here on a scratch page (None for a face
    whose layout is drawn scaled for another card size, or whose drawing fails: the renderer
    reports those). The build and `pnp validate` record the drawing they make instead."""
    found: dict = {}
    previous = shared.ink
    shared.ink = InkLog(shared, lambda face, ink: found.__setitem__(side_key(shared, face), ink))
    try:
        draw_sides(shared, faces)
    finally:
        shared.ink = previous
    return [found.get(side_key(shared, face)) for face in faces]


# ---- string inks kept between processes ------------------------------------------------------
# A string's ink (render/base/glyphs.py: string_ink) depends on the font's file and our code: the
# inks a process measured are kept in the user's cache folder, one file a font, and read by the
# next before it measures (glyphs.KEPT); a file of the wrong shape is measured past.
_INKS = b"pnp-string-ink-1"


def _inks_key(font_name: str) -> str | None:
    """The file of a font's inks (None: a font not read from a file, which nothing names; a
    pack's font is named by its bytes: pack/assets.py)."""
    filename = getattr(getattr(getFont(font_name), "face", None), "filename", None)
    if not isinstance(filename, str):
        return None
    st = os.stat(filename)
    what = repr(("string inks", font_name, filename, st.st_size, st.st_mtime_ns))
    return hashlib.sha256(templatecache.code_fingerprint() + what.encode("utf-8", "surrogatepass")).hexdigest()


def read_inks(fonts) -> None:
    """Have the inks a process measured before in these fonts (registered names) at hand."""
    for font in fonts:
        if font in glyphs.KEPT:
            continue
        key = _inks_key(font)
        payload = templatecache.load(key, _INKS) if key is not None else None
        try:
            kept = marshal.loads(payload) if payload is not None else None
        except (EOFError, ValueError, TypeError):
            kept = None
        glyphs.KEPT[font] = kept if isinstance(kept, dict) else {}


def keep_inks() -> None:
    """Write the inks measured in each font read_inks read, when some were not kept yet, with
    those kept (another language's, another part's), up to glyphs.MAX_MEASURED a font: past it,
    this process's alone."""
    for font, measured in glyphs.MEASURED.items():
        kept = glyphs.KEPT.get(font)
        if kept is None or measured.keys() <= kept.keys():
            continue
        key = _inks_key(font)
        if key is not None:
            both = {**kept, **measured}
            templatecache.keep(key, _INKS, marshal.dumps(both if len(both) <= glyphs.MAX_MEASURED else measured))
