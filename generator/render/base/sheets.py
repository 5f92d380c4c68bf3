"""Imposition: card faces placed on printer sheets from declarative sheet files
(templates/sheets/*.yaml), with crop marks, bleed, and backs mirrored for duplex."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from reportlab.lib.units import mm

from generator.core.duplex import Axis, back_page_shift, flip_axis
from generator.core.errors import InputError, Location, Problem
from generator.core.resources import TEMPLATES
from generator.core.yamlio import load_yaml_file
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn
from generator.core.papers import DEFAULT_PAPER, SheetPaper
from generator.render.base.paper import PAPERS_MM, PRESS_SHEETS_MM
from generator.render.base.recording import shape_path

SHEET_PAPERS_MM = {**PAPERS_MM, **PRESS_SHEETS_MM}
SHEETS_DIR = TEMPLATES / "sheets"


class SheetSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    name: str
    paper: SheetPaper = DEFAULT_PAPER
    orientation: Literal["portrait", "landscape"] = "portrait"
    columns: Annotated[int, Field(ge=1, le=30)] | Literal["auto"] = "auto"
    rows: Annotated[int, Field(ge=1, le=30)] | Literal["auto"] = "auto"
    gutter: list[Annotated[float, Field(ge=0, le=50)]] = Field(default=[2.0, 2.0], min_length=2, max_length=2)
    _where: Location | None = PrivateAttr(default=None)  # the file it came from, for errors
    bleed: float = Field(default=2.0, ge=0, le=5)
    # home printers leave 3-5 mm unprinted: trims and every cut guide stay this far inside
    margin: float = Field(default=5.0, ge=0, le=30)
    marks: Literal["crop", "none"] = "crop"
    mark_length: float = Field(default=4.0, ge=0, le=20)
    mark_gap: float = Field(default=0.5, ge=0, le=10)
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

    def with_outer_bleed(self, outer_mm: float, count: int | None = None) -> "Grid":
        """The first `count` slots (default all) with `outer_mm` of bleed on every side that
        faces no card, and the whole gutter painted between neighbouring cards (each up to
        the gutter's middle), so no paper shows round a card shifted by up to `outer_mm`."""
        used = self.slots[:len(self.slots) if count is None else count]
        xs = sorted({round(s.x, 3) for s in self.slots})
        ys = sorted({round(s.y, 3) for s in self.slots})
        gap_x = xs[1] - xs[0] - self.slots[0].w if len(xs) > 1 else 0.0
        gap_y = ys[1] - ys[0] - self.slots[0].h if len(ys) > 1 else 0.0
        at = {(round(s.x, 3), round(s.y, 3)) for s in used}
        outer = outer_mm * mm

        def side(s: Slot, dx: float, dy: float, half: float) -> float:
            return half if (round(s.x + dx, 3), round(s.y + dy, 3)) in at else outer

        out = []
        for s in used:
            step_x, step_y = s.w + gap_x, s.h + gap_y
            out.append(Slot(s.x, s.y, s.w, s.h, (side(s, -step_x, 0, gap_x / 2), side(s, 0, -step_y, gap_y / 2),
                                                side(s, step_x, 0, gap_x / 2), side(s, 0, step_y, gap_y / 2))))
        return Grid(self.page_w, self.page_h, tuple(out), self.columns, self.rows)

    def mirrored(self, duplex: str, reading_mm: tuple[float, float] = (0.0, 0.0), axis: Axis | None = None) -> "Grid":
        """Where backs go: a flip about a vertical edge mirrors columns (x → W − x − w), about
        a horizontal edge rows. `reading_mm` is the calibration page's reading (right and up
        positive, as `--back-offset` takes it); generator.core.duplex gives it the flip's sign.
        `axis` (columns | rows) overrides the flip, as a fold does."""
        axis = axis or flip_axis(duplex, self.page_w, self.page_h)
        dx, dy = (v * mm for v in back_page_shift(reading_mm, axis))
        out = []
        for s in self.slots:
            l, b, r, t = s.bleed
            if axis == "rows":
                out.append(Slot(s.x + dx, self.page_h - s.y - s.h + dy, s.w, s.h, (l, t, r, b)))
            else:
                out.append(Slot(self.page_w - s.x - s.w + dx, s.y + dy, s.w, s.h, (r, b, l, t)))
        return Grid(self.page_w, self.page_h, tuple(out), self.columns, self.rows)


def page_size_mm(spec: SheetSpec) -> tuple[float, float]:
    w, h = SHEET_PAPERS_MM[spec.paper]
    return (h, w) if spec.orientation == "landscape" else (w, h)


def fitting(length: float, card: float, gap: float) -> int:
    """How many cards of `card` mm, `gap` mm apart, fit in `length` mm."""
    return max(1, int((length + gap + 1e-6) // (card + gap)))


def make_grid(spec: SheetSpec, card_mm: tuple[float, float], area_mm: tuple[float, float, float, float] | None = None
              ) -> Grid:
    """Centre as many cards as fit (or the sheet's columns × rows) in the area (x, y, w, h mm),
    by default the paper less the sheet's printable margin, so no trim falls where home
    printers cannot print. Bleed fills the gutters up to half their width."""
    pw, ph = page_size_mm(spec)
    m = spec.margin
    ax, ay, aw, ah = area_mm or (m, m, pw - 2 * m, ph - 2 * m)
    cw, ch = card_mm
    gx, gy = spec.gutter
    cols = spec.columns if spec.columns != "auto" else fitting(aw, cw, gx)
    rows = spec.rows if spec.rows != "auto" else fitting(ah, ch, gy)
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
    canvas.clipPath(shape_path(canvas, "rect", slot.x - l, slot.y - b, slot.w + l + r, slot.h + b + t), stroke=0, fill=0)
