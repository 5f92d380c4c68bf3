"""Our DXF writer (export/dxf.py) against ezdxf's reader: closed polylines, their vertices
and bulges exactly, mm units, square corners without bulges, the same bytes every time."""

from __future__ import annotations

import math

import ezdxf
import pytest

from generator.export.cut import rounded_rect_vertices
from generator.export.dxf import dxf_text, write_dxf


def test_polylines_read_back_exactly(tmp_path):
    rounded = rounded_rect_vertices(10.25, 20.5, 63.5, 88.9, 3.0)
    square = rounded_rect_vertices(100.0, 5.0, 40.0, 30.0, 0.0)
    write_dxf(tmp_path / "a.dxf", [("CUT", rounded), ("CUT", square), ("MARK", square)], (0, 0, 210, 297))
    doc = ezdxf.readfile(tmp_path / "a.dxf")
    assert doc.dxfversion == "AC1009" and doc.units == ezdxf.units.MM
    assert not doc.audit().has_errors
    assert {layer.dxf.name for layer in doc.layers} >= {"CUT", "MARK"}
    polys = list(doc.modelspace().query("POLYLINE"))
    assert [p.dxf.layer for p in polys] == ["CUT", "CUT", "MARK"]
    for poly, want in zip(polys, (rounded, square, square)):
        assert poly.is_closed
        got = [(v.dxf.location.x, v.dxf.location.y, v.dxf.bulge) for v in poly.vertices]
        assert len(got) == len(want)
        for (gx, gy, gb), (wx, wy, wb) in zip(got, want):
            assert gx == pytest.approx(wx, abs=1e-6) and gy == pytest.approx(wy, abs=1e-6)
            assert gb == pytest.approx(wb, abs=1e-12)
    assert sum(1 for v in polys[0].vertices if v.dxf.bulge) == 4
    assert not any(v.dxf.bulge for v in polys[1].vertices)  # r = 0: four corners, no arcs


def test_bulges_trace_the_corner_arcs():
    """Each bulge vertex starts a counter-clockwise quarter circle of the radius ending at the next vertex."""
    pts = rounded_rect_vertices(0.0, 0.0, 50.0, 70.0, 4.0)
    for i, (x, y, b) in enumerate(pts):
        if not b:
            continue
        nx, ny, _ = pts[(i + 1) % len(pts)]
        chord = math.hypot(nx - x, ny - y)
        angle = 4 * math.atan(b)
        assert angle == pytest.approx(math.pi / 2)
        assert chord / (2 * math.sin(angle / 2)) == pytest.approx(4.0)  # the radius from chord and angle
    assert rounded_rect_vertices(0, 0, 10, 6, 9)[0] == (3.0, 0, 0.0)  # radius capped at half the short side


def test_same_outlines_same_bytes_and_plain_ascii():
    lines = [("CUT", rounded_rect_vertices(1 / 3, 2 / 3, 63.5, 88.9, 3.0))]
    a, b = dxf_text(lines, (0, 0, 215.9, 279.4)), dxf_text(lines, (0, 0, 215.9, 279.4))
    assert a == b and a.isascii() and a.endswith("  0\nEOF\n")
    assert "0.333333\n" in a and "-0.0" not in a
