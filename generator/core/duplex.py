"""Duplex geometry: which way a flip mirrors a page, and the one calibration contract.

The contract (README "Duplex alignment", calibration.pdf): the user reads where the back's
cross appears on the front's scales, right and up positive, and passes those two numbers
unchanged as `--back-offset DX,DY`. This module turns that reading into the shift the back
page needs in its own frame, because the flip reverses one axis as seen from the front:

- a flip about a vertical paper edge (long edge of a portrait page) reverses left and right,
  so the horizontal reading moves backs the same way on the back page and the vertical
  reading the opposite way;
- a flip about a horizontal edge (short edge of a portrait page) is the reverse.

Derivation, for a printer that shifts everything on the back side by s = (sx, sy) in the
back page's own frame, flipping about the vertical edge: a back-page point (x, y) is seen
from the front at (W - x - sx, y + sy), so the cross drawn at the centre is read at
(-sx, +sy). Moving the backs by c in their own frame puts them at (W - x - cx - sx,
y + cy + sy); c = (-sx, -sy) = (reading_x, -reading_y) cancels the printer.
"""

from __future__ import annotations

from typing import Literal

Axis = Literal["columns", "rows"]
DUPLEX_MODES = ("long-edge", "short-edge")


def flip_axis(duplex: str, page_w: float, page_h: float) -> Axis:
    """What the flip mirrors, seen from the front: `columns` (left and right swap, the
    paper turns about a vertical edge) or `rows`. The long edge of a portrait page is
    vertical; of a landscape page horizontal."""
    vertical_long = page_h >= page_w
    long_edge = duplex != "short-edge"  # `none` draws backs as for long edge
    return "columns" if long_edge == vertical_long else "rows"


def back_page_shift(reading: tuple[float, float], axis: Axis) -> tuple[float, float]:
    """The shift (mm, in the back page's own frame, right and up positive) that cancels
    the printer whose calibration page was read as `reading` (mm, on the front's scales)."""
    rx, ry = reading
    return (rx, -ry) if axis == "columns" else (-rx, ry)


def printer_shift(reading: tuple[float, float], axis: Axis) -> tuple[float, float]:
    """The printer's own shift of the back side (back page frame) behind a reading."""
    dx, dy = back_page_shift(reading, axis)
    return (-dx, -dy)


def format_offset(value: tuple[float, float]) -> str:
    """`1.5,-0.5`: the form `--back-offset` takes, without float noise."""
    return ",".join(f"{round(v, 3) + 0.0:g}" for v in value)
