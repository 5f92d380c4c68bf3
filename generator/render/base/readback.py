"""Reading a drawn PDF page back with PDFium: what colour each text lies on.

The oracle of the maps' contrast check, which judges each text as the pages are drawn
(render/base/paints.py; tests/test_map_contrast.py holds the two to the same findings, but
where a map's terrain pattern, a form, covers a text by its box and not by its cell, which the
drawing knows and this read-back does not): no
build or validate reads a PDF back. The page's objects are walked in painting order; every
filled path is kept with its outline (a polygon in page points, every point PDFium lists, a
curve's control points too), its clipping paths and fill colour; every text object is judged
against the last fill whose outline, inside its clipping paths, holds the middle of the text
(paper white when none does; nothing when that paint is an image, a shading, a form or
see-through). A fill cut off by a clip (a map cell at the edge of a sheet's window, a band
clipped to its cell) does not count where it is not painted. Card faces are judged element by
element instead (render/cards/ink.py).
"""

from __future__ import annotations

from pathlib import Path

from generator.core import pdfium
from generator.render.base.colors import MIN_CONTRAST, contrast_ratio
from generator.render.base.paints import RGB, TextOnPaint, inside as _inside


def _raw():
    """PDFium's C functions, loaded when a page is first read: pdfium is slow to load, and a
    build of cards alone reads nothing back."""
    import pypdfium2.raw as pdfium_c  # deferred for start-up time
    return pdfium_c


def _ctypes():
    """ctypes, loaded with PDFium when a page is first read (a build of cards alone, which
    imports this module through build.py, loads neither)."""
    import ctypes  # deferred with PDFium (_raw)
    return ctypes


def fill_color(raw) -> RGB | None:
    pdfium_c = _raw()
    ctypes = _ctypes()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetFillColor(raw, r, g, b, a) or a.value < 255:
        return None
    return (r.value / 255, g.value / 255, b.value / 255)


def _polygons(segments, m=None) -> list[list[tuple[float, float]]]:
    """Path segments as polygons (a new one at every move), through the matrix `m` if given."""
    pdfium_c = _raw()
    ctypes = _ctypes()
    polys: list = []
    current: list = []
    for seg in segments:
        x, y = ctypes.c_float(), ctypes.c_float()
        pdfium_c.FPDFPathSegment_GetPoint(seg, x, y)
        point = (x.value, y.value) if m is None else (m.a * x.value + m.c * y.value + m.e,
                                                       m.b * x.value + m.d * y.value + m.f)
        if pdfium_c.FPDFPathSegment_GetType(seg) == pdfium_c.FPDF_SEGMENT_MOVETO and current:
            polys.append(current)
            current = []
        current.append(point)
    if current:
        polys.append(current)
    return polys


def _outline(raw) -> list[list[tuple[float, float]]]:
    """The path's subpaths as polygons in page points (`raw`: PDFium's handle of the path object)."""
    pdfium_c = _raw()
    m = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFPageObj_GetMatrix(raw, m)
    return _polygons((pdfium_c.FPDFPath_GetPathSegment(raw, i)
                      for i in range(pdfium_c.FPDFPath_CountSegments(raw))), m)


def _clips(raw) -> list[list[list[tuple[float, float]]]]:
    """The object's clipping paths (PDFium gives them in page points); a point is painted only
    inside every one of them."""
    pdfium_c = _raw()
    clip = pdfium_c.FPDFPageObj_GetClipPath(raw)
    if not clip:
        return []
    return [_polygons(pdfium_c.FPDFClipPath_GetPathSegment(clip, i, j)
                      for j in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, i)))
            for i in range(pdfium_c.FPDFClipPath_CountPaths(clip))]


class _Paint:
    """A painted object of a page: its bounds, flat colour (None: an image, shading, form or
    see-through fill) and, read from PDFium only when a text's middle falls inside its bounds
    (most never are asked), its outline (None for a plain box) and clipping paths."""

    __slots__ = ("raw", "left", "bottom", "right", "top", "color", "is_path", "_outline", "_clips")

    def __init__(self, raw, bounds, color: RGB | None, is_path: bool):
        self.raw, self.color, self.is_path = raw, color, is_path
        self.left, self.bottom, self.right, self.top = bounds
        self._outline: list | None = None
        self._clips: list | None = None

    def covers(self, x: float, y: float) -> bool:
        """Whether the paint, whose bounds hold (x, y), covers it: inside its outline and its clips."""
        if self.is_path:
            if self._outline is None:
                self._outline = _outline(self.raw)
            if not _inside(self._outline, x, y):
                return False
        if self._clips is None:
            self._clips = _clips(self.raw)
        return all(_inside(clip, x, y) for clip in self._clips)


def _objects(page):
    """(handle, type, bounds) of each of the page's own objects (a form is one object), in painting
    order, through PDFium's C calls: the page holds thousands, and the checks keep few."""
    pdfium_c = _raw()
    ctypes = _ctypes()
    l, b, r, t = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    for i in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        raw = pdfium_c.FPDFPage_GetObject(page.raw, i)
        if not pdfium_c.FPDFPageObj_GetBounds(raw, l, b, r, t):
            raise RuntimeError("PDFium could not locate a page object")
        yield raw, pdfium_c.FPDFPageObj_GetType(raw), (l.value, b.value, r.value, t.value)


def text_on_paint(page) -> list[TextOnPaint]:
    """Every visible text object of a page and the flat colour under its middle."""
    pdfium_c = _raw()
    ctypes = _ctypes()
    paints: list[_Paint] = []
    out = []
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    not_flat = (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_SHADING, pdfium_c.FPDF_PAGEOBJ_FORM)
    for raw, kind, bounds in _objects(page):
        if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            pdfium_c.FPDFPath_GetDrawMode(raw, fill_mode, stroke)
            if fill_mode.value:
                paints.append(_Paint(raw, bounds, fill_color(raw), True))
        elif kind in not_flat:
            paints.append(_Paint(raw, bounds, None, False))
        elif kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            if pdfium_c.FPDFTextObj_GetTextRenderMode(raw) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
                continue
            color = fill_color(raw)
            if color is None:
                continue
            x, y = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
            if not all(_inside(clip, x, y) for clip in _clips(raw)):
                continue  # clipped away (a label of a cell cut off at the edge of a map sheet's window)
            under: RGB | None = (1.0, 1.0, 1.0)
            for paint in reversed(paints):
                if paint.left <= x <= paint.right and paint.bottom <= y <= paint.top and paint.covers(x, y):
                    under = paint.color
                    break
            if under is not None:
                out.append(TextOnPaint("", color, under, contrast_ratio(color, under), tuple(bounds)))
    return out


def low_contrast_text(pdf_path: Path) -> list[tuple[int, TextOnPaint]]:
    """(page number, text) for every text of a PDF below MIN_CONTRAST against its paint, with
    the words it shows."""
    out = []
    with pdfium.document(Path(pdf_path)) as doc:
        for n, page in enumerate(doc, 1):
            low = [t for t in text_on_paint(page) if t.ratio < MIN_CONTRAST - 1e-9]
            if low:
                words = page.get_textpage()
                out += [(n, TextOnPaint(words.get_text_bounded(*t.box).strip(), t.color, t.under, t.ratio, t.box))
                        for t in low]
    return out
