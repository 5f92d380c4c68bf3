"""A small, exact DXF writer: closed polylines with arc bulges, in millimetres.

DXF release 12 (AC1009) ASCII, the version every cutting-machine program and CAD reader
opens: a HEADER (version, drawing units = mm, extents), a TABLES section defining the
CONTINUOUS line type and the layers used, and one POLYLINE (flag 1: closed) per outline
with a VERTEX per corner and SEQEND. A vertex's bulge (group 42) is tan(angle / 4) of the
arc that starts there (positive: counter-clockwise), so a quarter circle is tan(pi / 8).
$INSUNITS (4 = mm) is a later header variable; readers that know it take the units from
it, and R12 readers ignore it.

Numbers are written with six decimals (a micrometre) and bulges with twelve: the same
outlines give the same bytes, with no dates or IDs in the file.
"""

from __future__ import annotations

from pathlib import Path

# (x, y, bulge) of a polyline's vertices, mm, y up
Vertex = tuple[float, float, float]


def _num(value: float, places: int = 6) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0.0" if text in ("", "-0") else (text if "." in text else text + ".0")


def _pairs(*items) -> list[str]:
    """DXF lines from (group code, value) pairs: the code right-aligned in three columns."""
    out = []
    for code, value in items:
        out += [f"{code:>3}", str(value)]
    return out


def dxf_text(polylines: list[tuple[str, list[Vertex]]], extents: tuple[float, float, float, float]) -> str:
    """The DXF document of closed polylines [(layer, vertices)] within extents (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = extents
    layers = sorted({layer for layer, _ in polylines})
    lines = _pairs((0, "SECTION"), (2, "HEADER"), (9, "$ACADVER"), (1, "AC1009"), (9, "$INSUNITS"), (70, 4),
                   (9, "$MEASUREMENT"), (70, 1),
                   (9, "$EXTMIN"), (10, _num(x0)), (20, _num(y0)), (30, "0.0"),
                   (9, "$EXTMAX"), (10, _num(x1)), (20, _num(y1)), (30, "0.0"),
                   (9, "$LIMMIN"), (10, _num(x0)), (20, _num(y0)), (9, "$LIMMAX"), (10, _num(x1)), (20, _num(y1)),
                   (0, "ENDSEC"),
                   (0, "SECTION"), (2, "TABLES"),
                   (0, "TABLE"), (2, "LTYPE"), (70, 1),
                   (0, "LTYPE"), (2, "CONTINUOUS"), (70, 0), (3, "Solid line"), (72, 65), (73, 0), (40, "0.0"),
                   (0, "ENDTAB"),
                   (0, "TABLE"), (2, "LAYER"), (70, len(layers)))
    for layer in layers:
        lines += _pairs((0, "LAYER"), (2, layer), (70, 0), (62, 7), (6, "CONTINUOUS"))
    lines += _pairs((0, "ENDTAB"), (0, "ENDSEC"), (0, "SECTION"), (2, "ENTITIES"))
    for layer, vertices in polylines:
        lines += _pairs((0, "POLYLINE"), (8, layer), (66, 1), (10, "0.0"), (20, "0.0"), (30, "0.0"), (70, 1))
        for x, y, bulge in vertices:
            lines += _pairs((0, "VERTEX"), (8, layer), (10, _num(x)), (20, _num(y)), (30, "0.0"))
            if bulge:
                lines += _pairs((42, _num(bulge, 12)))
        lines += _pairs((0, "SEQEND"), (8, layer))
    lines += _pairs((0, "ENDSEC"), (0, "EOF"))
    return "\n".join(lines) + "\n"


def write_dxf(target: Path, polylines: list[tuple[str, list[Vertex]]],
              extents: tuple[float, float, float, float]) -> None:
    Path(target).write_text(dxf_text(polylines, extents), encoding="ascii", newline="\n")
