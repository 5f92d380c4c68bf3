"""Checks on `pnp build` options before any work starts."""

from __future__ import annotations

import math

from generator.errors import InputError, Location, Problem

MAX_BACK_OFFSET_MM = 20.0  # a printer further out than 2 cm needs fixing, not compensating


def parse_back_offset(value: str) -> tuple[float, float]:
    """`DX,DY` in millimetres: two finite numbers, each within ±20 mm."""
    where = Location("--back-offset")
    parts = str(value).split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(p) for p in parts)
    except ValueError:
        raise InputError([Problem("cli.back-offset", f"`{value}` is not DX,DY", where, found=str(value),
                                  expected="two numbers in millimetres, e.g. 0.5,-1",
                                  fix="read them off calibration.pdf")]) from None
    for name, v in (("DX", dx), ("DY", dy)):
        if not math.isfinite(v):
            raise InputError([Problem("cli.back-offset", f"{name} in `{value}` is not a finite number", where,
                                      found=str(v), expected="a number of millimetres, e.g. 0.5",
                                      fix="read the offset off calibration.pdf")])
        if abs(v) > MAX_BACK_OFFSET_MM:
            raise InputError([Problem("cli.back-offset", f"{name} = {v:g} mm is too far to be a printer's "
                                      "duplex shift", where, found=f"{v:g} mm",
                                      expected=f"between -{MAX_BACK_OFFSET_MM:g} and {MAX_BACK_OFFSET_MM:g} mm",
                                      fix="print calibration.pdf again and re-read the scales")])
    return dx, dy
