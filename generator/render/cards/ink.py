"""What each layout element of a face puts on paper, measured from the drawing itself.

The checks of card layouts (generator/preflight/layout.py) must judge the ink, not the boxes
a layout declares: an icon drawn at its own size, a number placed past its box, a text that
renders empty. So each element of a face is drawn alone on its own page of an in-memory PDF
(in the layout's order) and that page is read back with PDFium: the bounds of the ink
(glyph boxes for text, object bounds for paths, images and forms), every text character's
colour and size, and the flat fills painted so far (what lies under a text).

Everything is in mm from the trim's top-left corner, y down.
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from reportlab.lib.units import mm

from generator.core.errors import InputError
from generator.render.base.layout import run_within_budget
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import MAX_BLEED_MM, CardPainter
from generator.render.cards.fit import layout_fits

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout
    from generator.render.cards.faces import CardFace, CardShared

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 mm from the trim's top-left, y down
RGB = tuple[float, float, float]          # 0..1


@dataclass(frozen=True)
class TextRun:
    """Characters of one colour and size on one line."""

    text: str
    color: RGB
    size_pt: float
    box: Box


@dataclass(frozen=True)
class Paint:
    """Something painted over an area: a flat colour (`color`) or not flat (`color` None:
    an image, a form, a shading), in drawing order."""

    box: Box
    color: RGB | None


@dataclass(frozen=True)
class ElementInk:
    element: Element
    name: str               # the element's id, or its kind
    bounds: Box | None      # the union of its ink; None: it drew nothing
    texts: tuple[TextRun, ...]
    paints: tuple[Paint, ...]


@dataclass(frozen=True)
class FaceInk:
    layout: Layout
    size_mm: tuple[float, float]
    elements: tuple[ElementInk, ...]


def face_ink(shared: CardShared, faces: list[CardFace]) -> list[FaceInk | None]:
    """The ink of every element of each face (None for a face whose layout is drawn scaled
    for another card size, or whose drawing fails: the renderer reports those)."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (100, 100), "ink")
    painter = CardPainter(canvas, shared)
    b = MAX_BLEED_MM
    plans: list = []  # per face: (layout, size, [(element, page index)]) or None
    pages = 0
    kept: dict = {}  # a page's drawing -> its index: elements that draw alike share one page
    for face in faces:
        size = shared.pack.card_size_mm(face.type_id)
        layout = shared.back_layout(face.type_id) if face.back else shared.layouts.get(face.layout)
        if not layout_fits(layout, size):
            plans.append(None)
            continue
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        painter.width_mm, painter.height_mm = size
        drawn = []
        try:
            for element in layout.frame + layout.elements:
                canvas.setPageSize(((size[0] + 2 * b) * mm, (size[1] + 2 * b) * mm))
                run_within_budget(partial(painter.draw_element, element, layout, ctx, b * mm, b * mm))
                page = canvas.page_drawing()
                if page in kept:  # drawn alike before (a frame, a label, a card's kit copy): read once
                    canvas.discard_page()
                else:
                    canvas.showPage()
                    kept[page] = pages
                    pages += 1
                drawn.append((element, kept[page]))
        except InputError:
            canvas.showPage()
            pages += 1
            plans.append(None)
            continue
        plans.append((layout, size, drawn))
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    try:
        out = []
        read: dict = {}  # page index -> (bounds, texts, paints)
        for plan in plans:
            if plan is None:
                out.append(None)
                continue
            layout, size, drawn = plan
            inks = []
            for e, n in drawn:
                if n not in read:
                    read[n] = _read_page(doc[n], b)
                inks.append(ElementInk(e, e.id or e.kind, *read[n]))
            out.append(FaceInk(layout, size, tuple(inks)))
        return out
    finally:
        doc.close()


def _read_page(page, b: float) -> tuple:
    """The bounds of a page's ink, its text runs and its paints."""
    page_h = page.get_height()

    def box(left: float, bottom: float, right: float, top: float) -> Box:
        return (left / mm - b, (page_h - top) / mm - b, right / mm - b, (page_h - bottom) / mm - b)

    boxes: list[Box] = []
    paints: list[Paint] = []
    for obj in page.get_objects(max_depth=1):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT:
            continue  # glyph by glyph below
        where = box(*obj.get_bounds())
        boxes.append(where)
        color = None
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
            fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
            pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill_mode, stroke)
            if not fill_mode.value:
                continue  # a line or an outline: ink, but nothing a text sits on
            color = _rgba(pdfium_c.FPDFPageObj_GetFillColor, obj.raw)
        paints.append(Paint(where, color))
    texts = _text_runs(page.get_textpage(), box)
    boxes.extend(t.box for t in texts)
    bounds = None
    if boxes:
        bounds = (min(x[0] for x in boxes), min(x[1] for x in boxes), max(x[2] for x in boxes),
                  max(x[3] for x in boxes))
    return bounds, tuple(texts), tuple(paints)


def _rgba(getter, *args) -> RGB | None:
    r, g, bl, a = (ctypes.c_uint() for _ in range(4))
    if not getter(*args, r, g, bl, a) or a.value < 255:
        return None  # unknown or see-through: not a flat colour
    return (r.value / 255, g.value / 255, bl.value / 255)


def _text_runs(textpage, box) -> list[TextRun]:
    runs: list[TextRun] = []
    current = None  # [text, color, size, box]
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if ch in "\r\n":
            current = _flush(runs, current)
            continue
        if not ch.strip():
            if current:
                current[0] += " "
            continue
        where = box(*textpage.get_charbox(i))
        color = _rgba(pdfium_c.FPDFText_GetFillColor, textpage.raw, i) or (0.0, 0.0, 0.0)
        size = round(pdfium_c.FPDFText_GetFontSize(textpage.raw, i), 2)
        if current and current[1] == color and current[2] == size and abs(current[3][3] - where[3]) < size / 72 * 25.4:
            current[0] += ch
            current[3] = (min(current[3][0], where[0]), min(current[3][1], where[1]),
                          max(current[3][2], where[2]), max(current[3][3], where[3]))
        else:
            current = _flush(runs, current)
            current = [ch, color, size, where]
    _flush(runs, current)
    return runs


def _flush(runs: list[TextRun], current) -> None:
    if current:
        runs.append(TextRun(" ".join(current[0].split()), current[1], current[2], tuple(current[3])))
    return None
