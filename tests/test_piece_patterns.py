"""A counter's pattern gathers its marks and writes them at once (render/pieces/patterns.py:
RecordingCanvas.separate_lines and dots, LinePath), and a counter's hex outline is made at once
(render/pieces/draw.py polygon_path): the text ReportLab's own calls write, one by one."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.render.base.pdfout import MM, new_canvas
from generator.render.pieces import draw, patterns


@pytest.mark.parametrize("kind", ["dots", "hatch", "crosshatch", "bricks", "waves", "grass", "none", None])
@pytest.mark.parametrize("box, step", [((10.0, 20.0, 31.7, 41.7), 2.17), ((-3.3, 5.5, 12.9, 21.1), 1.6)])
def test_a_pattern_writes_what_reportlabs_calls_write(kind, box, step):
    ours, theirs = new_canvas(io.BytesIO(), (300, 300), "pattern"), Canvas(io.BytesIO())
    for c in (ours, theirs):
        c._code.clear()
        patterns.pattern(c, kind, *box, step)
    assert "\n".join(ours._code) == "\n".join(theirs._code)
    assert kind in (None, "none") or len("\n".join(ours._code)) > 500


def test_a_counters_outline_is_a_path_objects_text():
    c = Canvas(io.BytesIO())
    for orientation in ("flat", "pointy"):
        points = draw.hex_points(orientation, 31.3, 47.9, 25.4)
        p = c.beginPath()
        p.moveTo(points[0][0] * MM, points[0][1] * MM)
        for x, y in points[1:]:
            p.lineTo(x * MM, y * MM)
        p.close()
        assert draw.polygon_path(c, points).getCode() == p.getCode()
