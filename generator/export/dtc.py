"""DriveThruCards: one PDF per deck, one card face per page in the order back 1, front 1,
back 2, front 2 ..., 1/8 in bleed on every side, TrimBox and BleedBox set, fonts embedded,
no marks, converted to CMYK with an OutputIntent (generator.export.cmyk).

A deck is the cards of one set that share a card size (a DriveThruCards product has one
card size); the upload folder holds one PDF per deck and a README naming each."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from reportlab.lib.units import mm

from generator.core.staging import replace_dir
from generator.export.credits import write_credits
from generator.export.cmyk import CmykConverter, convert_pdf
from generator.pack.model import Pack
from generator.render.cards.faces import CardFace, CardPainter, CardShared
from generator.render.base.pdfout import new_canvas
from generator.render.base.sheets import Slot, clip_to_slot

DTC_BLEED_MM = 25.4 / 8  # 1/8 in (PRINT-SPECS.md)


def dtc_decks(pack: Pack, faces: list[CardFace]) -> list[tuple[str, list[CardFace]]]:
    """(file stem, faces) per set and card size, in the faces' order."""
    groups: dict = {}
    for face in faces:
        groups.setdefault((face.set_id, pack.card_size_mm(face.type_id)), []).append(face)
    sizes_per_set: dict = {}
    for set_id, size in groups:
        sizes_per_set.setdefault(set_id, []).append(size)
    out = []
    for (set_id, size), members in groups.items():
        stem = set_id if len(sizes_per_set[set_id]) == 1 else f"{set_id}-{size[0]:g}x{size[1]:g}mm"
        out.append((re.sub(r"[^A-Za-z0-9_.-]+", "-", stem), members))
    return out


def write_back_front(pack: Pack, faces: list[CardFace], out: Path, shared: CardShared,
                     bleed_mm: float = DTC_BLEED_MM) -> dict:
    """RGB PDF: for every card its back page, then its front page."""
    b = bleed_mm * mm
    w0, h0 = pack.card_size_mm(faces[0].type_id)
    c = new_canvas(str(out), (w0 * mm + 2 * b, h0 * mm + 2 * b), f"{pack.spec.name} — DriveThruCards deck",
                   f"back, front per card; {bleed_mm:.3f} mm bleed")
    painter = CardPainter(c, shared)
    for face in faces:
        w_mm, h_mm = pack.card_size_mm(face.type_id)
        pw, ph = w_mm * mm + 2 * b, h_mm * mm + 2 * b
        slot = Slot(b, b, w_mm * mm, h_mm * mm, (b, b, b, b))
        back = CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id)
        for side in (back, face):
            c.setPageSize((pw, ph))
            c.setTrimBox((b, b, pw - b, ph - b))
            c.setBleedBox((0, 0, pw, ph))
            c.saveState()
            clip_to_slot(c, slot)
            painter.draw_face(side, slot.x, slot.y)
            c.restoreState()
            c.showPage()
    c.save()
    return {"pages": 2 * len(faces)}


def export_dtc(pack: Pack, faces: list[CardFace], folder: Path, conv: CmykConverter,
               shared: CardShared | None = None) -> dict:
    """The upload folder: <deck>.pdf per deck (CMYK) and README.txt; swapped in whole."""
    shared = shared or CardShared(pack)
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    lines = [f"{pack.spec.name} {pack.spec.version} for DriveThruCards: one PDF per deck, pages back 1, front 1, "
             f"back 2, front 2 ...; {DTC_BLEED_MM:.3f} mm (1/8 in) bleed; CMYK through {conv.description}, "
             f"total ink at most {conv.ink_limit * 100:g} %; no crop marks.", ""]
    pages = 0
    try:
        for stem, members in dtc_decks(pack, faces):
            rgb = tmp / f".{stem}.rgb.pdf"
            pages += write_back_front(pack, members, rgb, shared)["pages"]
            convert_pdf(rgb, tmp / f"{stem}.pdf", conv)
            rgb.unlink()
            w, h = pack.card_size_mm(members[0].type_id)
            n = len(members)
            lines.append(f"{stem}.pdf: {n} card{'s' if n != 1 else ''}, {2 * n} pages, trim {w:g} x {h:g} mm")
        (tmp / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        write_credits(tmp, pack)
        replace_dir(tmp, folder)  # the old folder stays whole until the new one is complete
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"decks": len(lines) - 2, "pages": pages}
