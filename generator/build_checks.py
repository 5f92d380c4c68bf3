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


def check_not_empty(pack, build, profile: str, only: str) -> None:
    """A build that would print nothing is an error, not an empty (or blank-page) file."""
    if build is not None:
        return
    cards = bool(pack.cards)
    if profile == "home":
        wanted = {"all": cards or pack.map_files or pack.rule_files or pack.spec.pieces is not None,
                  "cards": cards, "maps": pack.map_files, "rulebook": pack.rule_files,
                  "pieces": pack.spec.pieces is not None}.get(only, True)
        what = "cards, maps, rules chapters or pieces" if only == "all" else only
    else:
        wanted, what = cards, "cards"
    if not wanted:
        raise InputError([Problem("build.empty", f"{pack.spec.name} has no {what}: the build would print "
                                  "nothing", Location(pack.game_file), expected=f"at least one of: {what}",
                                  fix="add cards to cards/*.yaml (see docs/formats.md), or build another part")])
