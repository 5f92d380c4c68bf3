"""A canvas keeps the operator it writes for each RGB colour (render/base/recording.py
RecordingCanvas._rgb_code: a map or a sheet of pieces sets a few dozen colours thousands of
times): setting colours in any order, of any kind, with and without alpha, writes what
ReportLab's own canvas writes, and leaves the same colour state behind."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.render.base.pdfout import new_canvas

_channel = st.one_of(st.floats(0, 1, allow_nan=False), st.sampled_from([0, 1, 0.5, 1 / 3]))
_alpha = st.one_of(st.none(), st.floats(0, 1, allow_nan=False))
_colour = st.one_of(
    st.tuples(_channel, _channel, _channel),
    st.builds(Color, _channel, _channel, _channel),
    st.builds(Color, _channel, _channel, _channel, _channel),  # a colour of its own alpha
    st.builds(CMYKColor, _channel, _channel, _channel, _channel),
    st.sampled_from(["#336699", "#ff0000", "#ffffff"]).map(HexColor),
    st.sampled_from(["#a0b0c0", "blue"]),
    st.tuples(_channel, _channel, _channel, _channel),
)


def _code(c, steps) -> tuple[str, object, object, object]:
    c._code.clear()
    for kind, colour, alpha in steps * 2:
        (c.setFillColor if kind == "fill" else c.setStrokeColor)(colour, alpha)
    return "\n".join(c._code), c._fillColorObj, c._strokeColorObj, c._extgstate._d


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["fill", "stroke"]), _colour, _alpha), min_size=1, max_size=12))
def test_a_colours_operator_is_the_text_reportlab_writes(steps):
    ours = _code(new_canvas(io.BytesIO(), (300, 300), "colours"), steps)
    theirs = _code(Canvas(io.BytesIO()), steps)
    assert ours == theirs
