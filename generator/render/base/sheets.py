"""Imposition: card faces placed on printer sheets from declarative sheet files
(templates/sheets/*.yaml), with crop marks, bleed, and backs mirrored for duplex."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import load_yaml_file
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn
from generator.render.base.fonts import REGULAR
from generator.render.base.paper import PAPERS_MM

# sheet impositions may also use PrintPlayGames' 12 x 18 in press sheet
SHEET_PAPERS_MM = {**PAPERS_MM, "12x18": (304.8, 457.2)}
SHEETS_DIR = Path(__file__).resolve().parents[3] / "templates" / "sheets"
MARK_WIDTH_PT = 0.25


class SheetSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    name: str
    paper: Literal["a4", "letter", "12x18"] = "a4"
    orientation: Literal["portrait", "landscape"] = "portrait"
    columns: Annotated[int, Field(ge=1, le=30)] | Literal["auto"] = "auto"
    rows: Annotated[int, Field(ge=1, le=30)] | Literal["auto"] = "auto"
    gutter: list[Annotated[float, Field(ge=0, le=50)]] = Field(default=[2.0, 2.0], min_length=2, max_length=2)
    _where: Location | None = PrivateAttr(default=None)  # the file it came from, for errors
    bleed: float = Field(default=1.0, ge=0, le=5)
    marks: Literal["crop", "none"] = "crop"
    mark_length: float = Field(default=4.0, ge=0, le=20)
    mark_gap: float = Field(default=1.0, ge=0, le=10)
    fold_gap: float | None = Field(default=None, ge=0, le=40)


def load_sheet(name_or_path: str) -> SheetSpec:
    path = Path(name_or_path)
    if not path.suffix:
        path = SHEETS_DIR / f"{name_or_path}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in SHEETS_DIR.glob("*.yaml"))
        raise InputError([Problem("sheet.missing", f"no sheet named `{name_or_path}`", Location(str(path)),
                                  expected=f"one of: {', '.join(known)}, or a path to a sheet file")])
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)  # an edited sheet (pnp watch) is read afresh
    if key not in _LOADED:
        _LOADED[key] = _read_sheet(path)
    return _LOADED[key]


# sheet files read in this process: the cards and the calibration page of one build share them
_LOADED: dict[tuple, SheetSpec] = {}


def _read_sheet(path: Path) -> SheetSpec:
    doc = load_yaml_file(path)
    if not isinstance(doc.data, dict):
        raise InputError([Problem("schema.type", "a sheet file must be a mapping", doc.at(()))])
    try:
        spec = SheetSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "the sheet", allowed_keys_fn(SheetSpec))) from None
    spec._where = doc.at(("columns",) if "columns" in doc.data else ())
    return spec


@dataclass(frozen=True)
class Slot:
    """A card position on a page: trim rectangle in points (x, y = bottom-left) and the
    bleed it may paint on each side (left, bottom, right, top)."""

    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    slots: tuple[Slot, ...]
    columns: int
    rows: int

    def mirrored(self, duplex: str, offset_mm: tuple[float, float] = (0.0, 0.0)) -> "Grid":
        """Where backs go: long-edge flips columns (x → W − x − w), short-edge flips rows.
        The offset (dx right, dy up, in mm, read off the calibration page) moves every back."""
        dx, dy = offset_mm[0] * mm, offset_mm[1] * mm
        out = []
        for s in self.slots:
            l, b, r, t = s.bleed
            if duplex == "short-edge":
                out.append(Slot(s.x + dx, self.page_h - s.y - s.h + dy, s.w, s.h, (l, t, r, b)))
            else:
                out.append(Slot(self.page_w - s.x - s.w + dx, s.y + dy, s.w, s.h, (r, b, l, t)))
        return Grid(self.page_w, self.page_h, tuple(out), self.columns, self.rows)


def page_size_mm(spec: SheetSpec) -> tuple[float, float]:
    w, h = SHEET_PAPERS_MM[spec.paper]
    return (h, w) if spec.orientation == "landscape" else (w, h)


def make_grid(spec: SheetSpec, card_mm: tuple[float, float], area_mm: tuple[float, float, float, float] | None = None
              ) -> Grid:
    """Centre as many cards as fit (or the sheet's columns × rows) in the area (x, y, w, h mm)."""
    pw, ph = page_size_mm(spec)
    ax, ay, aw, ah = area_mm or (0.0, 0.0, pw, ph)
    cw, ch = card_mm
    gx, gy = spec.gutter
    reserve = 2 * (spec.bleed + spec.mark_gap + min(spec.mark_length, 2.0)) if spec.marks == "crop" else 2 * spec.bleed
    cols = spec.columns if spec.columns != "auto" else max(1, int((aw - reserve + gx) // (cw + gx)))
    rows = spec.rows if spec.rows != "auto" else max(1, int((ah - reserve + gy) // (ch + gy)))
    total_w = cols * cw + (cols - 1) * gx
    total_h = rows * ch + (rows - 1) * gy
    if total_w > aw + 1e-6 or total_h > ah + 1e-6:
        raise InputError([Problem(
            "sheet.fit", f"{cols} × {rows} cards of {cw:g} × {ch:g} mm (gutters {gx:g}, {gy:g} mm) need "
            f"{total_w:.1f} × {total_h:.1f} mm, but the sheet `{spec.name}` has {aw:.1f} × {ah:.1f} mm",
            spec._where or Location(f"sheet `{spec.name}`"), found=f"{total_w:.1f} × {total_h:.1f} mm",
            expected=f"at most {aw:.1f} × {ah:.1f} mm",
            fix="use fewer columns or rows (or `auto`), smaller gutters, landscape, or a smaller card size")])
    x0 = ax + (aw - total_w) / 2
    y_top = ay + (ah + total_h) / 2
    inner_x, inner_y = min(spec.bleed, gx / 2), min(spec.bleed, gy / 2)
    slots = []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (cw + gx)
            y = y_top - (r + 1) * ch - r * gy
            left = spec.bleed if c == 0 else inner_x
            right = spec.bleed if c == cols - 1 else inner_x
            top = spec.bleed if r == 0 else inner_y
            bottom = spec.bleed if r == rows - 1 else inner_y
            slots.append(Slot(x * mm, y * mm, cw * mm, ch * mm, (left * mm, bottom * mm, right * mm, top * mm)))
    return Grid(pw * mm, ph * mm, tuple(slots), cols, rows)


def clip_to_slot(canvas, slot: Slot) -> None:
    l, b, r, t = slot.bleed
    p = canvas.beginPath()
    p.rect(slot.x - l, slot.y - b, slot.w + l + r, slot.h + b + t)
    canvas.clipPath(p, stroke=0, fill=0)


def crop_marks(canvas, grid: Grid, spec: SheetSpec, used: int | None = None) -> list[tuple]:
    """Thin lines extending every trim edge into the margins, starting past the bleed.
    Returns the drawn segments (points) so tests can check them against the trim."""
    if spec.marks != "crop" or not grid.slots:
        return []
    slots = grid.slots[:used] if used is not None else grid.slots
    xs = sorted({round(s.x, 4) for s in slots} | {round(s.x + s.w, 4) for s in slots})
    ys = sorted({round(s.y, 4) for s in slots} | {round(s.y + s.h, 4) for s in slots})
    left = min(s.x - s.bleed[0] for s in grid.slots)
    right = max(s.x + s.w + s.bleed[2] for s in grid.slots)
    bottom = min(s.y - s.bleed[1] for s in grid.slots)
    top = max(s.y + s.h + s.bleed[3] for s in grid.slots)
    gap, length = spec.mark_gap * mm, spec.mark_length * mm
    segments = []
    for x in xs:
        segments.append((x, top + gap, x, top + gap + length))
        segments.append((x, bottom - gap, x, bottom - gap - length))
    for y in ys:
        segments.append((left - gap, y, left - gap - length, y))
        segments.append((right + gap, y, right + gap + length, y))
    canvas.saveState()
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setStrokeColor(HexColor("#000000"))
    for x1, y1, x2, y2 in segments:
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()
    return segments


def page_label(canvas, grid: Grid, text: str) -> None:
    """A small label in the bottom margin, inside the printable area."""
    bottom = min(s.y - s.bleed[1] for s in grid.slots) if grid.slots else 20 * mm
    y = max(5 * mm, bottom / 2 - 2)
    canvas.saveState()
    canvas.setFont(REGULAR, 6)
    canvas.setFillColor(HexColor("#777777"))
    canvas.drawCentredString(grid.page_w / 2, y, text)
    canvas.restoreState()
