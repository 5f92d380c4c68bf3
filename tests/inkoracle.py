"""The oracle of the layout checks' ink (tests only): each layout element of a face drawn
alone on its own page of an in-memory PDF and read back with PDFium, as the checks measured
before they read the drawing itself (issue 39; generator/render/cards/ink.py now). PDFium
gives the bounds of the ink (glyph boxes for text, object bounds for paths, images and
forms), every text character's colour and size, and the flat fills painted (what lies under
a text). tests/test_ink_record.py holds the recorded ink to this, element by element.

Everything is in mm from the trim's top-left corner, y down.
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from reportlab.lib.units import mm

from generator.core.errors import InputError
from generator.core.safezone import too_close
from generator.core.typesize import UNREADABLE_PT, floor_pt
from generator.kit import build_faces, pack_faces
from generator.preflight.layout import _PLACED, BAD_CONTRAST, MIN_CONTRAST, MIN_DPI, REJECT_DPI, SAFE_MM, Finding
from generator.render.base.colors import contrast_ratio
from generator.render.base.layout import run_within_budget
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import MAX_BLEED_MM, CardFace, CardPainter, CardShared
from generator.render.cards.fit import layout_fits

if TYPE_CHECKING:
    from generator.render.base.layout import Element, Layout

REPO = Path(__file__).resolve().parents[1]
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
    placed: Box | None      # `bounds` with each letter's loose (word) box: the safe zone's measure


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
                canvas.showPage()
                drawn.append((element, pages))
                pages += 1
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
    textpage = page.get_textpage()
    texts = _text_runs(textpage, box)
    # the safe zone is measured on the word boxes PDFium gives (pnp preflight's pdf.safe-zone)
    words = [box(*textpage.get_charbox(i, loose=True)) for i in range(textpage.count_chars())
             if textpage.get_text_range(i, 1).strip()]
    return _union(boxes + [t.box for t in texts]), tuple(texts), tuple(paints), _union(boxes + words)


def _union(boxes: list) -> Box | None:
    if not boxes:
        return None
    return (min(x[0] for x in boxes), min(x[1] for x in boxes), max(x[2] for x in boxes), max(x[3] for x in boxes))


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


# ---- the layout checks as they were (generator/preflight/layout.py at 7223785), on the ink above ----
# To record tests/fixtures/ink_findings.json again after a deliberate change of the shared
# templates: python tests/inkoracle.py (the old path's findings of every pack and fixture).



def oracle_findings(pack, build=None, safe_mm: float = SAFE_MM) -> list:
    """layout_findings as the old path made them: every element drawn again and read back."""
    shared = CardShared(pack)
    findings: list = []
    try:
        _check_faces(pack, build, shared, safe_mm, findings)
    except _TemplateFailed:
        pass
    return findings


def _faces_to_check(pack, shared, build=None, faces=None):
    """Each distinct face once: of `faces` when given (the build's own, made once), else made here."""
    if faces is None:
        faces = build_faces(pack, build, shared) if build else pack_faces(pack, shared)
    seen, out = set(), []
    for f in faces:
        key = (f.card.id if f.card else f.layout, f.type_id)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


class _TemplateFailed(Exception):
    """A layout's template failed: the drawing will report it; checking stops at once, so a
    template that runs too long costs its time budget once, not once per card."""


def layout_findings(pack, build=None, shared=None, safe_mm: float = SAFE_MM, faces=None) -> list[Finding]:
    shared = shared or CardShared(pack)
    findings: list[Finding] = []
    try:
        _check_faces(pack, build, shared, safe_mm, findings, faces)
    except _TemplateFailed:
        pass
    return findings


def _check_faces(pack, build, shared, safe_mm: float, findings: list, faces=None) -> None:
    sides = []  # (name, face, card, context): each distinct face, then its set's and type's back once
    backs_done = set()
    for face in _faces_to_check(pack, shared, build, faces):
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        sides.append((face.card.id if face.card else face.layout, face, face.card, ctx))
        back_key = pack.back_key(face.set_id, face.type_id, face.card)
        if back_key not in backs_done:
            backs_done.add(back_key)
            back = CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id)
            # a type whose cards each have their own back (backs: each) is checked with that card
            sides.append(("back-" + "-".join(back_key), back, face.card if len(back_key) > 2 else None, ctx))
    inks = face_ink(shared, [face for _n, face, _c, _x in sides])
    for (name, face, card, ctx), ink in zip(sides, inks):
        width, height = pack.card_size_mm(face.type_id)
        layout = shared.back_layout(face.type_id) if face.back else shared.layouts.get(face.layout)
        findings += _check_layout(layout, layout.frame + layout.elements, ctx, name, shared, card)
        if ink is not None:
            findings += _check_ink(ink, name, width, height, safe_mm)


def _check_layout(layout, elements, ctx, name, shared, card) -> list[Finding]:
    out = []
    reaches_bleed = False
    for e in elements:
        try:
            if e.when is not None and not layout.evaluate(e.when, ctx, e):
                continue
        except Exception:  # a template that fails (or runs too long) is the renderer's to report
            raise _TemplateFailed from None
        if e.kind == "box" and e.bleed and e.fill:
            reaches_bleed = True
        if e.kind == "image" and card is not None and card.art is not None and card.art.file:
            dpi = _art_dpi(shared, card, e)
            if dpi is not None and dpi < MIN_DPI:
                out.append(Finding("art.low-dpi", "error" if dpi < REJECT_DPI else "warning", name,
                                   f"the art `{card.art.file}` prints at {dpi:.0f} dpi at its placed size "
                                   f"({e.w:g} x {e.h:g} mm); print services want {MIN_DPI} dpi", element=e.id or "image"))
    if not reaches_bleed:
        out.append(Finding("layout.bleed", "warning", name,
                           "nothing on this face reaches the bleed edge: a cut a little off the line shows a white edge; "
                           "give a background box `bleed: true`", element=None))
    return out


def _check_ink(ink: FaceInk, name: str, width: float, height: float, safe_mm: float) -> list[Finding]:
    """The safe zone and the contrast of text, judged on what each element drew."""
    out = []
    paints = []  # everything painted so far, in drawing order
    for drawn in ink.elements:
        kind = drawn.element.kind
        if kind in _PLACED and drawn.placed is not None:  # the word box since issue 41 (was the ink)
            x0, y0, x1, y1 = drawn.placed
            gaps = {"left": x0, "top": y0, "right": width - x1, "bottom": height - y1}
            close = {side: gap for side, gap in gaps.items() if too_close(gap, safe_mm)}
            if close:
                side, gap = min(close.items(), key=lambda kv: kv[1])
                out.append(Finding("layout.safe-zone", "warning", name,
                                   f"{kind} is drawn {gap:.2f} mm from the {side} trim edge; keep it {safe_mm:g} mm "
                                   f"inside the trim, where the cut cannot touch it", element=drawn.name,
                                   location=ink.layout.where(drawn.element)))
        paints.extend(drawn.paints)
        if drawn.texts:  # type.min-size (issue 41): the smallest run against the element's role
            role = drawn.element.role if kind == "text" else "label"
            small, floor = min(run.size_pt for run in drawn.texts), floor_pt(role)
            if small < floor - 0.005:
                hint = "; a caption or tag may be marked `role: label` (5 pt)" if role == "rules" else ""
                out.append(Finding("type.min-size", "error" if small < UNREADABLE_PT - 0.005 else "warning", name,
                                   f"{role} text prints at {small:g} pt, under the {floor:g} pt it needs to be read "
                                   f"(below {UNREADABLE_PT:g} pt it is an error){hint}", element=drawn.name,
                                   location=ink.layout.where(drawn.element)))
        worst: dict = {}  # (text colour, colour under it): the lowest ratio, once per element
        for run in drawn.texts:
            under = _paint_under(paints, run.box)
            if under is None:
                continue  # an image or a gradient: no flat colour to measure against
            ratio = contrast_ratio(run.color, under)
            if ratio < MIN_CONTRAST - 1e-9:
                worst.setdefault((_hex(run.color), _hex(under)), (ratio, run.text))
        for (fg, bg), (ratio, _text) in worst.items():
            out.append(Finding("text.contrast", "error" if ratio < BAD_CONTRAST else "warning", name,
                               f"text in {fg} on {bg} has a contrast of {ratio:.2f}:1; text needs at least "
                               f"{MIN_CONTRAST:g}:1 to be read (below {BAD_CONTRAST:g}:1 it is an error)",
                               element=drawn.name, location=ink.layout.where(drawn.element)))
    return out


def _paint_under(paints, box) -> tuple[float, float, float] | None:
    """The flat colour under the middle of a text run: the last paint covering it, paper
    white when nothing does, None when that paint is not flat."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for paint in reversed(paints):
        x0, y0, x1, y1 = paint.box
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            return paint.color
    return (1.0, 1.0, 1.0)


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def _art_dpi(shared, card, e) -> float | None:
    try:
        kind, _obj, iw, ih = shared.art.load(card.art.file, card)
    except Exception:
        return None
    if kind != "raster" or iw <= 0 or ih <= 0:
        return None
    # `cover` scales the image to fill the box, `contain` to fit it: pixels per mm follow
    mm_per_px = max(e.w / iw, e.h / ih) if e.fit == "cover" else min(e.w / iw, e.h / ih)
    return 25.4 / mm_per_px if mm_per_px > 0 else None




def record(path: Path) -> None:
    import json
    import tempfile

    import inkfixtures
    from generator.pack.load import load_build, load_pack

    def dump(found, root=None):
        out = []
        for f in found:
            d = dict(f.as_dict(), location=str(f.location) if f.location else None)
            if root is not None and d["location"]:
                d["location"] = d["location"].replace(str(root), "PACK")
            out.append(d)
        return out

    recorded = {}
    for name in ["boss_fight", "raid_boss", "battle_bosses", "final_boss", "tactics"]:
        pack = load_pack(REPO / "card_data" / name)
        recorded[f"pack:{name}"] = dump(oracle_findings(pack))
        for preset in sorted(pack.preset_files):
            recorded[f"build:{name}/{Path(preset).name}"] = dump(oracle_findings(pack, load_build(preset, pack)))
    with tempfile.TemporaryDirectory() as folder:
        for name in inkfixtures.NAMES:
            root = inkfixtures.make(name, Path(folder))
            recorded[f"fixture:{name}"] = dump(oracle_findings(load_pack(root)), root)
    path.write_text(json.dumps(recorded, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    record(REPO / "tests" / "fixtures" / "ink_findings.json")
