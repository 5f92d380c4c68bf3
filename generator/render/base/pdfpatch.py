"""Redrawing some pages of a finished PDF and splicing them into it, byte-identical to a
whole new document (`pnp watch`: one card edited redraws only its sheet).

What makes a page's bytes depend on the pages before it is the document's state: the object
numbers handed out so far (forms, images, fonts, pages), the fonts' subset codes given to the
characters used so far (a TrueType subset numbers characters in order of first use), the
internal font names. A recording canvas notes that state after every page (`PageLog`). A page
redrawn on a scratch canvas seeded with the state before it, which ends in the same state as
the old page did and needs the same page resources, has the same bytes in every object but its
content stream: that stream's object is replaced in the old file and the cross-reference table
written again (`SavedPdf`). Forms and images first used on the page must be drawn alike
(`same_objects`); anything else (a new character or font, a form drawn otherwise) is refused,
and the caller builds the whole document."""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (PDFArray, PDFCrossReferenceTable, PDFDictionary, PDFFormXObject,
                                      PDFImageXObject, PDFIndirectObject, PDFObjectReference, PDFPage, PDFTrailer,
                                      pdfdocEnc)
from reportlab.pdfbase.ttfonts import TTFont

FORM_PREFIX = "FormXob."  # ReportLab's internal name of a form XObject


def _font_states(doc) -> dict:
    """Each TrueType font's subset state in `doc`: its assignments in order, next code,
    subsets and internal name (copied: the document goes on changing them)."""
    out = {}
    for font in list(pdfmetrics._fonts.values()):
        if isinstance(font, TTFont):
            state = font.state.get(doc)
            if state is not None:
                out[font.fontName] = (tuple(state.assignments.items()), state.nextCode,
                                      tuple(tuple(s) for s in state.subsets), state.internalName)
    return out


def _plain(value):
    """A page resource value as plain data, object references by name, for comparing."""
    if isinstance(value, PDFDictionary):
        return tuple(sorted((k, _plain(v)) for k, v in value.dict.items()))
    if isinstance(value, PDFArray):
        return tuple(_plain(v) for v in value.sequence)
    if isinstance(value, PDFObjectReference):
        return ("ref", value.name)
    if isinstance(value, dict):
        return tuple(sorted((k, _plain(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return repr(value)


def page_resources(page) -> tuple:
    """Everything of a finished page object but its content stream."""
    return tuple(_plain(getattr(page, a, None)) for a in (
        "pagewidth", "pageheight", "Rotate", "hasImages", "XObjects", "ExtGState", "_colorsUsed",
        "_shadingUsed", "Annots", "CropBox", "ArtBox", "BleedBox", "TrimBox", "Dur", "Trans"))


class PageLog:
    """Per page of a canvas: its resources and the document's state after it. Font states
    change on few pages, so an unchanged one is kept once."""

    def __init__(self):
        self.resources: list[tuple] = []
        self.states: list[tuple] = []  # (object counter, font mapping, font states) after each page
        self._fonts: dict = {}
        self._key = None

    def start(self, canvas) -> tuple:
        """The state before the first page (set when the canvas is made)."""
        return self._state(canvas._doc)

    def _state(self, doc) -> tuple:
        key = tuple((f.fontName, len(f.state[doc].assignments), f.state[doc].nextCode)
                    for f in list(pdfmetrics._fonts.values()) if isinstance(f, TTFont) and doc in f.state)
        if key != self._key:
            self._key, self._fonts = key, _font_states(doc)
        return doc.objectcounter, dict(doc.fontMapping), self._fonts

    def page_done(self, canvas) -> None:
        doc = canvas._doc
        self.resources.append(page_resources(doc.Pages.pages[-1]))
        self.states.append(self._state(doc))


def seed(canvas, old_doc, state: tuple, page_number: int) -> set[str]:
    """Make `canvas`'s document what `old_doc` was in `state` (before page `page_number`,
    1-based): its objects so far, font names and subset codes. Returns the form names known."""
    doc = canvas._doc
    counter, mapping, fonts = state
    names = [old_doc.numberToId[i] for i in range(1, counter + 1)]
    doc.objectcounter = counter
    doc.numberToId = dict(enumerate(names, 1))
    doc.idToObjectNumberAndVersion = {n: old_doc.idToObjectNumberAndVersion[n] for n in names}
    doc.idToObject = {n: old_doc.idToObject[n] for n in names}
    doc.fontMapping = dict(mapping)
    doc.pageCounter = page_number
    canvas._pageNumber = page_number
    for font in list(pdfmetrics._fonts.values()):
        if not isinstance(font, TTFont):
            continue
        font.state.pop(doc, None)
        if font.fontName in fonts:
            assignments, next_code, subsets, internal = fonts[font.fontName]
            s = font.state[doc] = TTFont.State(font._asciiReadable, font)
            s.assignments, s.nextCode, s.subsets = dict(assignments), next_code, [list(x) for x in subsets]
            s.internalName = internal
    return {n[len(FORM_PREFIX):] for n in names if n.startswith(FORM_PREFIX)}


def new_objects(doc, old_counter: int) -> list[str]:
    """Names of the objects `doc` made after it had `old_counter`."""
    return [doc.numberToId[i] for i in range(old_counter + 1, doc.objectcounter + 1)]


def same_objects(new_doc, old_doc, names: list[str]) -> bool:
    """The objects `names` (made while drawing a page) are the same in both documents: pages,
    forms drawn alike (same stream, box and forms inside), images of the same data (ReportLab
    names an image after a digest of it). Anything else (a standard font's objects) is not."""
    for name in names:
        new, old = new_doc.idToObject[name], old_doc.idToObject[name]
        if type(new) is not type(old):
            return False
        if isinstance(new, PDFPage):
            continue
        if isinstance(new, PDFFormXObject):
            if _form_key(new) != _form_key(old):
                return False
        elif not isinstance(new, PDFImageXObject):
            return False
    return True


def _form_key(form) -> tuple:
    return (form.stream, form.lowerx, form.lowery, form.upperx, form.uppery, _plain(form.XObjects),
            form.compression, form.hasImages)


def same_state(a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2]


class SavedPdf:
    """A PDF ReportLab wrote from `doc`, as its objects' bytes, to replace some and write again."""

    def __init__(self, data: bytes, doc):
        self.doc = doc
        count = len(doc.numberToId)
        self.ids = [doc.numberToId[i] for i in range(1, count + 1)]
        starts = [doc.idToOffset[n] for n in self.ids]
        end = data.index(b"endobj\nxref\n", starts[-1]) + len(b"endobj\n")
        self.head = data[:starts[0]]
        self.chunks = {n: data[s:e] for n, s, e in zip(self.ids, starts, starts[1:] + [end])}

    def object_bytes(self, name: str, obj) -> bytes:
        """`obj` formatted as the object `name` of this document."""
        return PDFIndirectObject(name, obj).format(self.doc)

    def replace(self, name: str, chunk: bytes) -> bool:
        """Put `chunk` in place of object `name`; False when it is the same."""
        if self.chunks[name] == chunk:
            return False
        self.chunks[name] = chunk
        return True

    def data(self) -> bytes:
        """The file: objects at their new offsets, the cross-reference table and trailer as
        ReportLab writes them."""
        doc = self.doc
        parts, pos = [self.head], len(self.head)
        for name in self.ids:
            doc.idToOffset[name] = pos
            parts.append(self.chunks[name])
            pos += len(self.chunks[name])
        xref = PDFCrossReferenceTable()
        xref.addsection(0, self.ids)
        xref_bytes = pdfdocEnc(xref.format(doc))
        trailer = PDFTrailer(startxref=pos + 0, Size=len(self.ids) + 1, Root=doc.Reference(doc.Catalog),
                             Info=doc.Reference(doc.info), ID=doc.ID())
        return b"".join(parts) + xref_bytes + pdfdocEnc(trailer.format(doc))
