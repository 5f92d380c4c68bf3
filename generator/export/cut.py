"""Print-and-cut sheets for desktop cutting machines, and the matching cut files.

`pnp build --profile cut --cut silhouette|cricut` writes, in `cut-<machine>/`:

- `sheets.pdf`: card fronts (and their backs, mirrored for long-edge duplex) with a little
  bleed, NO crop marks; for Silhouette the three registration marks Silhouette Studio
  looks for (see REGISTRATION), drawn on the fronts only;
- `sheet-NN.svg` (and `sheet-NN.dxf`): every card's outline on that sheet, a rounded
  rectangle from the card type's `corner_radius` (default 3 mm), optionally inset, in
  millimetres with the page's top-left corner as origin, so the file lines up with the
  printed page when both are placed at the page's corner.

Cricut Design Space prints its own registration frame around a Print Then Cut image and
reads only that, so for Cricut the sheets carry no marks and fit Design Space's largest
Print Then Cut area (6.75 x 9.25 in); upload the page image and the SVG together.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm

from generator.core.papers import DEFAULT_PAPER, Paper
from generator.core.staging import replace_dir
from generator.export.credits import write_credits
from generator.pack.model import Pack
from generator.render.cards.faces import CardFace, CardPainter, CardShared
from generator.render.base.pdfout import new_canvas
from generator.render.base.paper import PAPERS_MM
from generator.render.base.sheets import SheetSpec, clip_to_slot, make_grid
from generator.core import pdfium, staging
from generator.export.cut_pieces import write_piece_cuts
from generator.export.dxf import write_dxf
from generator.render.pieces.document import build_pieces_pdf

DEFAULT_CORNER_RADIUS_MM = 3.0
CUT_BLEED_MM = 0.5  # printed past the cut line, so a slightly shifted cut shows no paper
# backs: a duplex printer shifts the back side by a millimetre or two (less once calibrated), so
# backs bleed 2 mm where no card neighbours them and fill the whole gutter between cards
BACK_BLEED_MM = 2.0


@dataclass(frozen=True)
class Registration:
    """Where a machine's optical sensor looks. All in mm from the page's edges."""

    inset: float          # from each page edge to the outer edge of the marks
    length: float         # leg of the corner L marks
    thickness: float      # line width of the L marks
    square: float         # the filled square at the top-left corner
    content_inset: float  # cards stay this far from the page edge (clear of the marks)


# Silhouette Studio, "Type 1" marks at its defaults: a filled 5 mm square at top left,
# L-shaped corners at top right and bottom left, 20 mm legs 0.5 mm thick, 10 mm inset
# from the page edge (10 mm is also the smallest inset Studio accepts). Studio must be set
# to the same style, inset, length and thickness for its sensor to find them.
SILHOUETTE = Registration(inset=10.0, length=20.0, thickness=0.5, square=5.0, content_inset=10.5)
MARK_CLEARANCE_MM = 1.0  # no print within this distance of a mark: the sensor must see paper round it
# Cricut Design Space: its own frame, printed by Design Space around a 6.75 x 9.25 in image.
CRICUT_AREA_MM = (6.75 * 25.4, 9.25 * 25.4)


def corner_radius_mm(pack: Pack, type_id: str | None) -> float:
    spec = pack.spec.card_types.get(type_id) if type_id else None
    radius = getattr(spec, "corner_radius", None) if spec is not None else None
    return DEFAULT_CORNER_RADIUS_MM if radius is None else float(radius)


def rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> str:
    """SVG path data of a rounded rectangle (y down), clockwise, arcs as `A` commands."""
    r = max(0.0, min(r, w / 2, h / 2))
    f = lambda v: f"{v:.4f}".rstrip("0").rstrip(".")  # noqa: E731 - short number formatter
    if r == 0:
        return f"M{f(x)},{f(y)} H{f(x + w)} V{f(y + h)} H{f(x)} Z"
    return (f"M{f(x + r)},{f(y)} H{f(x + w - r)} A{f(r)},{f(r)} 0 0 1 {f(x + w)},{f(y + r)} "
            f"V{f(y + h - r)} A{f(r)},{f(r)} 0 0 1 {f(x + w - r)},{f(y + h)} "
            f"H{f(x + r)} A{f(r)},{f(r)} 0 0 1 {f(x)},{f(y + h - r)} "
            f"V{f(y + r)} A{f(r)},{f(r)} 0 0 1 {f(x + r)},{f(y)} Z")


@dataclass(frozen=True)
class Outline:
    """One cut: a card's trim (x, y from the page's top-left, mm), its corner radius, its name."""

    name: str
    x: float
    y: float
    w: float
    h: float
    r: float


def _silhouette_marks(c, page_w_mm: float, page_h_mm: float, reg: Registration) -> list[tuple]:
    """Draw Type 1 marks; return their rectangles (x, y-from-top, w, h, mm) for tests."""
    rects = mark_rects(page_w_mm, page_h_mm, reg)  # top-left square, top-right L, bottom-left L
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for x, y, w, h in rects:
        c.rect(x * mm, (page_h_mm - y - h) * mm, w * mm, h * mm, stroke=0, fill=1)
    c.restoreState()
    return rects


def mark_rects(page_w_mm: float, page_h_mm: float, reg: Registration) -> list[tuple]:
    i, L, t, s = reg.inset, reg.length, reg.thickness, reg.square
    return [(i, i, s, s), (page_w_mm - i - L, i, L, t), (page_w_mm - i - t, i, t, L),
            (i, page_h_mm - i - t, L, t), (i, page_h_mm - i - L, t, L)]


def _hits_marks(grid, page_w: float, page_h: float, reg: Registration) -> bool:
    g = MARK_CLEARANCE_MM
    for s in grid.slots:
        l, b, r, t = (v / mm for v in s.bleed)
        x0, x1 = s.x / mm - l, (s.x + s.w) / mm + r
        y0, y1 = page_h - (s.y + s.h) / mm - t, page_h - s.y / mm + b  # from the top
        for mx, my, mw, mh in mark_rects(page_w, page_h, reg):
            if x0 < mx + mw + g and mx - g < x1 and y0 < my + mh + g and my - g < y1:
                return True
    return False


def _svg(outlines: list[Outline], page_mm: tuple[float, float], inset: float) -> str:
    w, h = page_mm
    paths = []
    for o in outlines:
        d = rounded_rect_path(o.x + inset, o.y + inset, o.w - 2 * inset, o.h - 2 * inset, max(0.0, o.r - inset))
        paths.append(f'  <path id="{o.name}" d="{d}"/>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" viewBox="0 0 {w:g} {h:g}">\n'
            f'<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">\n' + "\n".join(paths) + "\n</g>\n</svg>\n")


def rounded_rect_vertices(x: float, y: float, w: float, h: float, r: float) -> list[tuple[float, float, float]]:
    """A rounded rectangle (x, y its bottom-left, y up) as closed-polyline vertices (x, y, bulge),
    counter-clockwise from the bottom edge; a quarter-circle arc starts at each vertex with a bulge."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return [(x, y, 0.0), (x + w, y, 0.0), (x + w, y + h, 0.0), (x, y + h, 0.0)]
    bulge = math.tan(math.pi / 8)  # a quarter circle, counter-clockwise
    return [(x + r, y, 0.0), (x + w - r, y, bulge), (x + w, y + r, 0.0), (x + w, y + h - r, bulge),
            (x + w - r, y + h, 0.0), (x + r, y + h, bulge), (x, y + h - r, 0.0), (x, y + r, bulge)]


def _dxf(outlines: list[Outline], page_mm: tuple[float, float], inset: float, target: Path) -> None:
    """Closed polylines with arc bulges on layer CUT, in mm, y up (DXF's convention)."""
    page_h = page_mm[1]
    polylines = []
    for o in outlines:
        w, h = o.w - 2 * inset, o.h - 2 * inset
        y = page_h - (o.y + inset) - h  # bottom edge, y up
        polylines.append(("CUT", rounded_rect_vertices(o.x + inset, y, w, h, max(0.0, o.r - inset))))
    write_dxf(target, polylines, (0.0, 0.0, page_mm[0], page_h))


def export_cut(pack: Pack, faces: list[CardFace], folder: Path, machine: str = "silhouette",
               paper: Paper = DEFAULT_PAPER, inset_mm: float = 0.0, shared: CardShared | None = None,
               dxf: bool = True, pieces: bool = False, build=None, duplex: str = "long-edge",
               back_offset: tuple[float, float] = (0.0, 0.0)) -> dict:
    """`duplex` and `back_offset` (the calibration page's reading) place the backs exactly as
    on home sheets (Grid.mirrored, generator/core/duplex.py); the fronts, their registration
    marks and the cut files do not move."""
    shared = shared or CardShared(pack)
    page_w, page_h = PAPERS_MM[paper]
    if machine == "silhouette":
        reg = SILHOUETTE
        area = (reg.content_inset, reg.content_inset, page_w - 2 * reg.content_inset, page_h - 2 * reg.content_inset)
    else:
        reg = None
        aw, ah = CRICUT_AREA_MM
        area = ((page_w - aw) / 2, (page_h - ah) / 2, aw, ah)
    spec = SheetSpec(name=f"cut-{machine}", paper=paper, gutter=[2.0 * CUT_BLEED_MM + 0.5] * 2,
                     bleed=CUT_BLEED_MM, marks="none")
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    sheets, cuts = 0, 0
    try:
        c = new_canvas(str(tmp / "sheets.pdf"), (page_w * mm, page_h * mm), f"{pack.spec.name} — {machine} cut sheets",
                       f"{machine}; cut files sheet-NN.svg")
        painter = CardPainter(c, shared)
        groups: dict = {}
        for face in faces:
            groups.setdefault(pack.card_size_mm(face.type_id), []).append(face)
        for size, group in groups.items():
            grid = make_grid(spec, size, area)
            if reg is not None and _hits_marks(grid, page_w, page_h, reg):
                # centred cards reach a corner mark: keep them clear of the marks' corners too
                inner = reg.inset + reg.length + MARK_CLEARANCE_MM
                grid = make_grid(spec, size, (area[0], inner, area[2], page_h - 2 * inner))
            flip = duplex if duplex != "none" else "long-edge"
            per = len(grid.slots)
            for start in range(0, len(group), per):
                chunk = group[start:start + per]
                sheets += 1
                outlines: list[Outline] = []
                for face, slot in zip(chunk, grid.slots):
                    c.saveState()
                    clip_to_slot(c, slot)
                    painter.draw_face(face, slot.x, slot.y)
                    c.restoreState()
                    name = f"s{sheets:02d}-{len(outlines) + 1:02d}-{face.card.id if face.card else face.layout}"
                    outlines.append(Outline(name, slot.x / mm, page_h - (slot.y + slot.h) / mm, slot.w / mm,
                                            slot.h / mm, corner_radius_mm(pack, face.type_id)))
                if reg is not None:
                    _silhouette_marks(c, page_w, page_h, reg)
                c.showPage()
                back_grid = grid.with_outer_bleed(BACK_BLEED_MM, len(chunk)).mirrored(flip, back_offset)
                for face, slot in zip(chunk, back_grid.slots):
                    back = CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id)
                    c.saveState()
                    clip_to_slot(c, slot)
                    painter.draw_face(back, slot.x, slot.y)
                    c.restoreState()
                c.showPage()
                cut_size = (page_w, page_h)
                if reg is None:  # Cricut: the files cover the Print Then Cut area, as its image does
                    outlines = [Outline(o.name, o.x - area[0], o.y - area[1], o.w, o.h, o.r) for o in outlines]
                    cut_size = (area[2], area[3])
                (tmp / f"sheet-{sheets:02d}.svg").write_text(_svg(outlines, cut_size, inset_mm), encoding="utf-8")
                if dxf:
                    _dxf(outlines, cut_size, inset_mm, tmp / f"sheet-{sheets:02d}.dxf")
                cuts += len(outlines)
        c.save()
        if reg is None:
            _cricut_images(tmp / "sheets.pdf", sheets, area, tmp)
        piece_files = 0
        if pieces and pack.spec.pieces is not None:
            # the pieces as the kit prints them, with the counters' and bases' cut lines as SVG
            with staging.unstaged():  # a work file inside this export's own folder, read back at once
                build_pieces_pdf(pack, tmp / "pieces.pdf", paper=paper, build=build)
            piece_files = write_piece_cuts(tmp / "pieces.pdf", tmp)
        (tmp / "README.txt").write_text(_readme(pack, machine, paper, inset_mm, sheets), encoding="utf-8")
        write_credits(tmp, pack)
        replace_dir(tmp, folder)  # the old folder stays whole until the new one is complete
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"sheets": sheets, "cuts": cuts, "piece cut files": piece_files}


CRICUT_DPI = 300


def _cricut_images(pdf_path: Path, sheets: int, area: tuple, folder: Path) -> None:
    """sheet-NN.png: the Print Then Cut area of each front page at 300 dpi, for Design Space."""
    px = CRICUT_DPI / 25.4
    with pdfium.document(Path(pdf_path)) as doc:
        for n in range(1, sheets + 1):
            image = pdfium.image(doc[2 * (n - 1)], scale=CRICUT_DPI / 72).convert("RGB")
            x0, y0 = round(area[0] * px), round(area[1] * px)  # the area is centred: same from top and bottom
            box = (x0, y0, x0 + round(area[2] * px), y0 + round(area[3] * px))
            image.crop(box).save(folder / f"sheet-{n:02d}.png", format="PNG", dpi=(CRICUT_DPI, CRICUT_DPI))


def _readme(pack: Pack, machine: str, paper: str, inset: float, sheets: int) -> str:
    if machine == "silhouette":
        how = (f"In Silhouette Studio: page size {paper}, Registration Marks ON, style Type 1, "
               f"length {SILHOUETTE.length:g} mm, thickness {SILHOUETTE.thickness:g} mm, inset {SILHOUETTE.inset:g} mm. "
               "Open sheet-NN.svg (or .dxf), place it at the page's top-left corner, print sheets.pdf page by page "
               "at 100 % (odd pages are fronts with the marks), then cut.")
    else:
        how = ("In Cricut Design Space: upload sheet-NN.png (the 6.75 x 9.25 in Print Then Cut area at 300 dpi) "
               "as a Print Then Cut image and sheet-NN.svg (the same area) as its cut lines, align and attach "
               "them; Design Space prints its own registration frame. sheets.pdf has the backs for duplex.")
    return (f"{pack.spec.name} {pack.spec.version}: {sheets} sheet(s) for {machine}, outlines inset {inset:g} mm.\n"
            f"{how}\n"
            "pieces.pdf (when the pack has pieces) comes with pieces-pNN.svg, the cut lines of the counters, "
            "standees and bases on its page NN; it has no registration marks: import the page and its SVG into "
            "the machine's software and let it add its marks.\n")
