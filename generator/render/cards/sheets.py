"""Card PDFs: home sheets with duplex backs, gutterfold, print-shop single cards,
and the duplex calibration page."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from generator.core.papers import DEFAULT_PAPER
from generator.core.errors import InputError
from generator.core.files import atomic_output
from generator.pack.translations.own import words_of
from generator.render.base.cutguides import draw_guides, footer, guide_segments
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.pdfout import new_canvas
from generator.render.base.sheets import Grid, SheetSpec, Slot, clip_to_slot, load_sheet, make_grid, page_size_mm
from generator.render.cards.faces import CardFace, CardPainter, CardShared

if TYPE_CHECKING:
    from generator.pack.model import Pack


def _chunks(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _draw_faces(canvas, painter: CardPainter, faces, slots, turn: int = 0) -> None:
    """Each face in its slot; `turn` 90 (or -90): the card lies on its side in a slot of its
    height by its width, its top towards the slot's left (right)."""
    for face, slot in zip(faces, slots):
        canvas.saveState()
        clip_to_slot(canvas, slot)
        if turn == 90:
            canvas.translate(slot.x + slot.w, slot.y)
            canvas.rotate(90)
            painter.draw_face(face, 0, 0)
        elif turn == -90:
            canvas.translate(slot.x, slot.y + slot.h)
            canvas.rotate(-90)
            painter.draw_face(face, 0, 0)
        else:
            painter.draw_face(face, slot.x, slot.y)
        canvas.restoreState()


def size_groups(pack: Pack, faces: list[CardFace]) -> list[tuple[tuple[float, float], list[CardFace]]]:
    """Faces grouped by card size (a pack may give some card types their own size), in
    first-seen order, so each group gets a grid that fits its cards."""
    groups: dict = {}
    for face in faces:
        groups.setdefault(pack.card_size_mm(face.type_id), []).append(face)
    return list(groups.items())


def _finish_page(c, grid: Grid, spec: SheetSpec, slots, label: str) -> None:
    """Footer first (guides keep clear of it), then the cut guides over the cards' bleed."""
    box = footer(c, grid, spec, slots, label)
    draw_guides(c, guide_segments(grid, spec, slots, [box] if box else []))


def home_plans(pack: Pack, faces: list[CardFace], spec: SheetSpec, duplex: str, back_offset=(0.0, 0.0)) -> list:
    """(front grid, back grid, faces) per sheet of the home sheets."""
    plans: list[tuple[Grid, Grid, list[CardFace]]] = []
    for size, group in size_groups(pack, faces):
        grid = make_grid(spec, size)
        back_grid = grid.mirrored(duplex if duplex != "none" else "long-edge", back_offset)
        plans.extend((grid, back_grid, chunk) for chunk in _chunks(group, len(grid.slots)))
    return plans


def home_document(pack: Pack, faces: list[CardFace], spec: SheetSpec, duplex: str, plans: list,
                  title: str | None) -> tuple:
    """The page size, title and subject of the home sheets' PDF."""
    first = plans[0][0] if plans else make_grid(spec, pack.card_size_mm())
    return ((first.page_w, first.page_h), title or f"{pack.spec.name} — cards",
            f"{len(faces)} cards, {spec.name}, duplex {duplex}")


def draw_home_sheet(c, painter: CardPainter, spec: SheetSpec, plans: list, n: int, duplex: str) -> None:
    """Sheet `n` (1-based) of the plans: its fronts page, then its backs mirrored for duplex."""
    pack = painter.shared.pack
    grid, back_grid, chunk = plans[n - 1]
    _draw_faces(c, painter, chunk, grid.slots)
    say = words_of(pack)  # pnp's own words in the pack's language
    _finish_page(c, grid, spec, grid.slots[:len(chunk)],
                 f"{pack.spec.name} {pack.spec.version} · "
                 + say("cards · sheet {n} of {total} · fronts").format(n=n, total=len(plans))
                 + ((" · " + say("print double-sided, flip on the long edge")) if duplex == "long-edge" else
                    (" · " + say("print double-sided, flip on the short edge")) if duplex == "short-edge" else ""))
    c.showPage()
    if duplex == "none":
        return
    backs = [CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id) for f in chunk]
    _draw_faces(c, painter, backs, back_grid.slots)
    _finish_page(c, back_grid, spec, back_grid.slots[:len(chunk)],
                 f"{pack.spec.name} · " + say("cards · sheet {n} of {total} · backs").format(n=n, total=len(plans)))
    c.showPage()


def write_home_sheets(pack: Pack, faces: list[CardFace], out: Path, sheet: str = DEFAULT_PAPER,
                      duplex: str = "long-edge", back_offset=(0.0, 0.0), shared: CardShared | None = None,
                      title: str | None = None, memory=None) -> dict:
    """Fronts page by page; after each, its backs mirrored for duplex (unless duplex is `none`).
    `memory` (render/cards/redraw.py's SheetMemory, under `pnp watch`) keeps what a later
    edit needs to redraw only the sheets it touches."""
    spec = load_sheet(sheet)
    shared = shared or CardShared(pack)
    plans = home_plans(pack, faces, spec, duplex, back_offset)
    size, doc_title, subject = home_document(pack, faces, spec, duplex, plans, title)
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), size, doc_title, subject, keep_streams=True)
        painter = CardPainter(c, shared)
        if memory is not None:
            memory.begin(c, shared)
        for n in range(1, len(plans) + 1):
            shared.looked_up.clear()
            draw_home_sheet(c, painter, spec, plans, n, duplex)
            if memory is not None:
                memory.sheet_done(shared.looked_up)
        c.save()
        if memory is not None:
            memory.remember(c, Path(tmp).read_bytes(), out, plans, (sheet, duplex, tuple(back_offset), title))
    per_page = len(plans[0][0].slots) if plans else len(make_grid(spec, pack.card_size_mm()).slots)
    return {"pages": len(plans) * (1 if duplex == "none" else 2), "cards": len(faces), "per_page": per_page}


def fold_grid(spec: SheetSpec, size: tuple[float, float], fold: float) -> Grid:
    """The front half's grid for one card size: the cards sit against the fold (fold/2
    from it), so the bleed of a front and of its back meet in the fold and the outer margin
    gets all the slack."""
    pw, ph = page_size_mm(spec)
    m = spec.margin
    loose = make_grid(spec, size, (m, m, pw / 2 - fold / 2 - m, ph - 2 * m))
    inner = max(s.x + s.w for s in loose.slots)
    shift, fold_bleed = (pw / 2 - fold / 2) * mm - inner, min(spec.bleed, fold / 2) * mm

    def at_fold(s: Slot) -> Slot:
        right = fold_bleed if abs(s.x + s.w - inner) < 1e-6 else s.bleed[2]
        return replace(s, x=s.x + shift, bleed=(s.bleed[0], s.bleed[1], right, s.bleed[3]))

    return Grid(loose.page_w, loose.page_h, tuple(at_fold(s) for s in loose.slots), loose.columns, loose.rows)


def _fold_grid_or_none(spec: SheetSpec, size: tuple[float, float], fold: float) -> Grid | None:
    try:
        return fold_grid(spec, size, fold)
    except InputError:
        return None


def write_gutterfold(pack: Pack, faces: list[CardFace], out: Path, sheet: str = "gutterfold-a4",
                     shared: CardShared | None = None) -> dict:
    """Fronts on the left half, their backs mirrored about the fold on the right half. A card
    size that fits more to a half on its side (tarot: two instead of one) is laid on its side."""
    spec = load_sheet(sheet)
    shared = shared or CardShared(pack)
    pw, ph = page_size_mm(spec)
    fold = spec.fold_gap if spec.fold_gap is not None else 2 * spec.bleed
    m = spec.margin
    pages: list[tuple[Grid, Grid, bool, list[CardFace]]] = []  # (grid, back grid, turned, faces): each card size gets its own grid, at its real size
    for size, group in size_groups(pack, faces):
        grid, turned = _fold_grid_or_none(spec, size, fold), False
        on_side = _fold_grid_or_none(spec, (size[1], size[0]), fold)
        if on_side is not None and (grid is None or len(on_side.slots) > len(grid.slots)):
            grid, turned = on_side, True  # large cards (tarot): on their side, two to a half
        if grid is None:
            grid = fold_grid(spec, size, fold)  # fits neither way: its error says why
        back_grid = grid.mirrored("none", axis="columns")  # about the fold, whatever the paper
        pages.extend((grid, back_grid, turned, chunk) for chunk in _chunks(group, len(grid.slots)))
    per_page = len(pages[0][0].slots) if pages else 0
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (pw * mm, ph * mm), f"{pack.spec.name} — gutterfold cards", spec.name,
                       keep_streams=True)
        painter = CardPainter(c, shared)
        for n, (grid, back_grid, turned, chunk) in enumerate(pages, 1):
            _draw_faces(c, painter, chunk, grid.slots, 90 if turned else 0)
            backs = [CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id) for f in chunk]
            # folded over, the back's top must meet the front's: so it turns the other way
            _draw_faces(c, painter, backs, back_grid.slots, -90 if turned else 0)
            used = len(chunk)
            every = list(grid.slots[:used]) + list(back_grid.slots[:used])
            box = footer(c, grid, spec, every,
                         f"{pack.spec.name} · gutterfold {n} of {len(pages)} · fold on the dashed line, glue, then cut")
            c.saveState()
            c.setDash(3, 3)
            c.setLineWidth(0.4)
            c.setStrokeColor(HexColor("#888888"))
            low, high = m * mm, (ph - m) * mm  # the fold line, inside the margin and clear of the footer
            if box and box[1] < ph * mm / 2:
                low = box[3]
            elif box:
                high = box[1]
            c.line(pw * mm / 2, low, pw * mm / 2, high)
            c.restoreState()
            draw_guides(c, guide_segments(grid, spec, every, [box] if box else []))
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
                       f"{pack.spec.name} — print-shop cards", f"{bleed_mm} mm bleed", keep_streams=True)
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


CAL_FINE_AT_MM = 14.0  # the fine scales sit this far from the centre, across the cross's arms
CAL_FINE_HALF = 12  # fine scale ticks: -6 .. +6 mm in 0.5 mm steps
CAL_ARM_MM = 25.0  # the back's cross reaches past both fine scales
CAL_CROSS_PT = 0.6  # thin enough to read to a quarter millimetre


@dataclass(frozen=True)
class Scale:
    """A calibration scale's ticks, in mm: `count` each side of 0, `step` apart, every `every`-th
    one long and labelled (0 too, unless `zero` is False: the coarse scales cross there)."""
    count: int
    step: float
    every: int
    long_tick: float  # half the length of a labelled tick
    short_tick: float
    zero: bool = True


COARSE = Scale(count=10, step=1.0, every=5, long_tick=3, short_tick=1.5, zero=False)  # -10 .. +10 mm
FINE = Scale(count=CAL_FINE_HALF, step=0.5, every=6, long_tick=2.5, short_tick=1.2)  # -6 .. +6 mm


def _scale(c, scale: Scale, *, along_x: bool, fixed: float, centre: float, label_at: float) -> None:
    """A scale across a line: along x at height `fixed`, or along y at x `fixed`, its 0 at
    `centre`; labels `label_at` mm to the side (negative: below, or left)."""
    s = scale
    for i in range(-s.count, s.count + 1):
        pos = centre + i * s.step
        tick = s.long_tick if i % s.every == 0 else s.short_tick
        if along_x:
            c.line(pos * mm, (fixed - tick) * mm, pos * mm, (fixed + tick) * mm)
        else:
            c.line((fixed - tick) * mm, pos * mm, (fixed + tick) * mm, pos * mm)
        if i % s.every == 0 and (i or s.zero):
            value = f"{i * s.step:+g}" if i else "0"
            if along_x:
                c.drawCentredString(pos * mm, (fixed + label_at) * mm, value)
            else:
                (c.drawRightString if label_at < 0 else c.drawString)((fixed + label_at) * mm, (pos - 0.6) * mm, value)


def write_calibration(pack: Pack, out: Path, sheet: str = DEFAULT_PAPER, duplex: str = "long-edge") -> dict:
    """Two pages: print double-sided, hold to the light, read where the back's cross falls
    on the front's scales and pass those numbers unchanged to --back-offset DX,DY (the tool
    gives them the sign the flip needs, generator/core/duplex.py)."""
    spec = load_sheet(sheet)
    pw, ph = page_size_mm(spec)
    cx, cy = pw / 2, ph / 2
    say = words_of(pack)  # pnp's own words in the pack's language
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (pw * mm, ph * mm), say("Duplex calibration"), duplex)
        # front: 1 mm scales through the centre, and fine 0.5 mm scales crossing the arms
        c.setLineWidth(0.3)
        c.setStrokeColor(HexColor("#000000"))
        c.setFont(REGULAR, 6)
        # labels of the vertical scale sit right of the horizontal one's end, clear of its labels
        _scale(c, COARSE, along_x=True, fixed=cy, centre=cx, label_at=-5.5)
        _scale(c, COARSE, along_x=False, fixed=cx, centre=cy, label_at=14)
        c.setLineWidth(0.2)
        c.setFont(REGULAR, 5)
        _scale(c, FINE, along_x=True, fixed=cy - CAL_FINE_AT_MM, centre=cx, label_at=-5)
        _scale(c, FINE, along_x=False, fixed=cx - CAL_FINE_AT_MM, centre=cy, label_at=-3.2)
        c.setFont(REGULAR, 6.5)
        c.drawCentredString(cx * mm, (cy - CAL_FINE_AT_MM - 9) * mm, say("DX: fine scale, 0.5 mm ticks"))
        c.drawRightString((cx - CAL_FINE_AT_MM - 1) * mm, (cy + 9) * mm, say("DY: fine scale"))
        c.setFont(BOLD, 12)
        c.drawCentredString(cx * mm, (ph - 25) * mm, say("Duplex calibration — front"))
        c.setFont(REGULAR, 9)
        lines = [
            say("Print both pages double-sided, flip on the short edge, at 100 % / actual size.")
            if duplex == "short-edge" else
            say("Print both pages double-sided, flip on the long edge, at 100 % / actual size."),
            say("Hold the sheet up to a light: the back's thin cross shows through."),
            say("DX: where its upright line crosses the fine scale below the centre (right is +)."),
            say("DY: where its level line crosses the fine scale left of the centre (up is +)."),
            say("Type the two numbers exactly as you read them; pnp gives them the sign the flip needs."),
        ]
        for i, text in enumerate(lines):
            c.drawCentredString(cx * mm, (ph - 40 - i * 5.5) * mm, text)
        c.setFont(BOLD, 9)
        c.drawCentredString(cx * mm, 60 * mm, say("Example: the cross seen 1.5 mm right and 0.5 mm down reads 1.5, "
                                                  "-0.5:"))
        c.setFont(REGULAR, 9)
        for i, text in enumerate([f"pnp build --duplex {duplex} --back-offset 1.5,-0.5",
                                  say("or save it for every later build:") +
                                  f"  pnp calibrate 1.5,-0.5 --duplex {duplex}",
                                  say("A cross on 0, 0 needs no offset.")]):
            c.drawCentredString(cx * mm, (53 - i * 5.5) * mm, text)
        c.showPage()
        # back: one long thin cross at the centre
        c.setLineWidth(CAL_CROSS_PT)
        c.setStrokeColor(HexColor("#000000"))
        c.line((cx - CAL_ARM_MM) * mm, cy * mm, (cx + CAL_ARM_MM) * mm, cy * mm)
        c.line(cx * mm, (cy - CAL_ARM_MM) * mm, cx * mm, (cy + CAL_ARM_MM) * mm)
        c.setFont(BOLD, 12)
        c.drawCentredString(cx * mm, (ph - 25) * mm, say("Duplex calibration — back"))
        c.showPage()
        c.save()
    return {"pages": 2}
