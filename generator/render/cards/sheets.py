"""Card PDFs: home sheets with duplex backs, gutterfold, print-shop single cards,
and the duplex calibration page."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from generator.core.files import atomic_output
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.pdfout import new_canvas
from generator.render.base.sheets import (Slot, clip_to_slot, crop_marks, load_sheet, make_grid, page_label,
                                          page_size_mm)
from generator.render.cards.faces import CardFace, CardPainter, CardShared

if TYPE_CHECKING:
    from generator.pack.model import Pack


def _chunks(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _draw_faces(canvas, painter: CardPainter, faces, slots) -> None:
    for face, slot in zip(faces, slots):
        canvas.saveState()
        clip_to_slot(canvas, slot)
        painter.draw_face(face, slot.x, slot.y)
        canvas.restoreState()


def size_groups(pack: Pack, faces: list[CardFace]) -> list[tuple[tuple[float, float], list[CardFace]]]:
    """Faces grouped by card size (a pack may give some card types their own size), in
    first-seen order, so each group gets a grid that fits its cards."""
    groups: dict = {}
    for face in faces:
        groups.setdefault(pack.card_size_mm(face.type_id), []).append(face)
    return list(groups.items())


def write_home_sheets(pack: Pack, faces: list[CardFace], out: Path, sheet: str = "a4",
                      duplex: str = "long-edge", back_offset=(0.0, 0.0), shared: CardShared | None = None,
                      title: str | None = None) -> dict:
    """Fronts page by page; after each, its backs mirrored for duplex (unless duplex is `none`)."""
    spec = load_sheet(sheet)
    shared = shared or CardShared(pack)
    plans = []
    for size, group in size_groups(pack, faces):
        grid = make_grid(spec, size)
        back_grid = grid.mirrored(duplex if duplex != "none" else "long-edge", back_offset)
        plans.extend((grid, back_grid, chunk) for chunk in _chunks(group, len(grid.slots)))
    first = plans[0][0] if plans else make_grid(spec, pack.card_size_mm())
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (first.page_w, first.page_h), title or f"{pack.spec.name} — cards",
                       f"{len(faces)} cards, {spec.name}, duplex {duplex}")
        painter = CardPainter(c, shared)
        for n, (grid, back_grid, chunk) in enumerate(plans, 1):
            _draw_faces(c, painter, chunk, grid.slots)
            crop_marks(c, grid, spec)
            page_label(c, grid, f"{pack.spec.name} {pack.spec.version} · cards · sheet {n} of {len(plans)} · fronts"
                       + (f" · print double-sided, flip on the {duplex.replace('-', ' ')}" if duplex != "none" else ""))
            c.showPage()
            if duplex == "none":
                continue
            backs = [CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id) for f in chunk]
            _draw_faces(c, painter, backs, back_grid.slots)
            crop_marks(c, back_grid, spec)
            page_label(c, grid, f"{pack.spec.name} · cards · sheet {n} of {len(plans)} · backs")
            c.showPage()
        c.save()
    per_page = len(first.slots)
    return {"pages": len(plans) * (1 if duplex == "none" else 2), "cards": len(faces), "per_page": per_page}


def write_gutterfold(pack: Pack, faces: list[CardFace], out: Path, sheet: str = "gutterfold-a4",
                     shared: CardShared | None = None) -> dict:
    """Fronts on the left half, their backs mirrored about the fold on the right half."""
    spec = load_sheet(sheet)
    shared = shared or CardShared(pack)
    pw, ph = page_size_mm(spec)
    fold = spec.fold_gap or 6.0
    half = (pw - fold) / 2
    pages = []  # (grid, back grid, faces): each card size gets its own grid, at its real size
    for size, group in size_groups(pack, faces):
        grid = make_grid(spec, size, (0.0, 0.0, half, ph))
        pages.extend((grid, grid.mirrored("long-edge"), chunk) for chunk in _chunks(group, len(grid.slots)))
    per_page = len(pages[0][0].slots) if pages else 0
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (pw * mm, ph * mm), f"{pack.spec.name} — gutterfold cards", spec.name)
        painter = CardPainter(c, shared)
        for n, (grid, back_grid, chunk) in enumerate(pages, 1):
            _draw_faces(c, painter, chunk, grid.slots)
            backs = [CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id) for f in chunk]
            _draw_faces(c, painter, backs, back_grid.slots)
            crop_marks(c, grid, spec)
            crop_marks(c, back_grid, spec)
            c.saveState()
            c.setDash(3, 3)
            c.setLineWidth(0.4)
            c.setStrokeColor(HexColor("#888888"))
            c.line(pw * mm / 2, 4 * mm, pw * mm / 2, ph * mm - 4 * mm)
            c.restoreState()
            page_label(c, grid, f"{pack.spec.name} · gutterfold {n} of {len(pages)} · fold on the dashed line, glue, then cut")
            c.showPage()
        c.save()
    return {"pages": len(pages), "cards": len(faces), "per_page": per_page}


def write_print_shop(pack: Pack, faces: list[CardFace], out: Path, bleed_mm: float = 3.0,
                     shared: CardShared | None = None, backs: bool = True) -> dict:
    """One card per page, page = trim + bleed on every side; TrimBox and BleedBox set; no marks."""
    shared = shared or CardShared(pack)
    b = bleed_mm * mm
    first_w, first_h = pack.card_size_mm(faces[0].type_id if faces else None)
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (first_w * mm + 2 * b, first_h * mm + 2 * b),
                       f"{pack.spec.name} — print-shop cards", f"{bleed_mm} mm bleed")
        painter = CardPainter(c, shared)
        pages = 0
        for face in faces:
            w_mm, h_mm = pack.card_size_mm(face.type_id)
            pw, ph = w_mm * mm + 2 * b, h_mm * mm + 2 * b
            slot = Slot(b, b, w_mm * mm, h_mm * mm, (b, b, b, b))
            sides = [face] + ([CardFace(face.card, True, face.index, face.total, face.layout, face.set_id,
                                        face.type_id)] if backs else [])
            for side in sides:
                c.setPageSize((pw, ph))
                c.setTrimBox((b, b, pw - b, ph - b))
                c.setBleedBox((0, 0, pw, ph))
                _draw_faces(c, painter, [side], [slot])
                c.showPage()
                pages += 1
        c.save()
    return {"pages": pages, "cards": len(faces)}


def write_calibration(pack: Pack, out: Path, sheet: str = "a4", duplex: str = "long-edge") -> dict:
    """Two pages: print double-sided, hold to the light, read how far the back's cross sits
    from the front's on the scales; pass that as --back-offset DX,DY."""
    spec = load_sheet(sheet)
    pw, ph = page_size_mm(spec)
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (pw * mm, ph * mm), "Duplex calibration", duplex)
        for side in ("front", "back"):
            cx, cy = pw / 2, ph / 2
            c.setLineWidth(0.3)
            c.setStrokeColor(HexColor("#000000"))
            if side == "front":
                # millimetre scales through the centre, labelled every 5 mm
                for i in range(-20, 21):
                    tick = 4 if i % 5 == 0 else 2
                    c.line((cx + i) * mm, (cy - tick) * mm, (cx + i) * mm, (cy + tick) * mm)
                    c.line((cx - tick) * mm, (cy + i) * mm, (cx + tick) * mm, (cy + i) * mm)
                    if i % 5 == 0 and i:
                        c.setFont(REGULAR, 6)
                        c.drawCentredString((cx + i) * mm, (cy - 8) * mm, f"{i:+d}")
                        c.drawString((cx + 6) * mm, (cy + i - 0.7) * mm, f"{i:+d}")
                c.setFont(BOLD, 12)
                c.drawCentredString(cx * mm, (ph - 25) * mm, "Duplex calibration — front")
                c.setFont(REGULAR, 9)
                lines = [
                    f"Print both pages double-sided (flip on the {duplex.replace('-', ' ')}), at 100 % / actual size.",
                    "Hold the sheet up to a light. The back shows a single bold cross.",
                    "Read where its centre falls on the front's scales (right and up are +).",
                    "Then build with: pnp build --back-offset DX,DY using the negated readings,",
                    "e.g. a cross seen at +1.5 right and -0.5 up gives --back-offset -1.5,0.5",
                ]
                for i, text in enumerate(lines):
                    c.drawCentredString(cx * mm, (ph - 40 - i * 6) * mm, text)
            else:
                c.setLineWidth(1.2)
                c.line((cx - 15) * mm, cy * mm, (cx + 15) * mm, cy * mm)
                c.line(cx * mm, (cy - 15) * mm, cx * mm, (cy + 15) * mm)
                c.setFont(BOLD, 12)
                c.drawCentredString(cx * mm, (ph - 25) * mm, "Duplex calibration — back")
            c.showPage()
        c.save()
    return {"pages": 2}
