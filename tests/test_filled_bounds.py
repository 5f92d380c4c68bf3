"""render/base/drawn.py's filled_bounds (what the recording canvas keeps of a filled path:
an icon's outline, a badge) gives exactly what listing the path's points (path_points) and
bounding them gives: same floats, the sign of a zero included, the same paths left out, the
same error on a path operator without its numbers."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.base.drawn import filled_bounds, path_bounds, path_points

_ARGS = {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4, "h": 0, "re": 4, "n": 0, "f": 0, "S": 0, "B": 0, "W": 0, "cm": 6}
_NUMBER = st.sampled_from(["0", "-0", "1.5", "-2", "3", ".5", "-.25", "7", "-9"])


@st.composite
def _code(draw) -> list[str]:
    ops = draw(st.lists(st.sampled_from(sorted(_ARGS)), min_size=1, max_size=10))
    code = []
    for op in ops:
        short = draw(st.integers(0, 20)) == 0  # now and then an operator short of its numbers
        count = max(0, _ARGS[op] - (1 if short else 0))
        code.append(" ".join([draw(_NUMBER) for _ in range(count)] + [op]))
    return code + [draw(st.sampled_from(["f", "S", "B", "n"]))]


def _listed(code: list[str]):
    box = None
    for points, stroke, _fill in path_points(code):
        box = path_bounds(points, stroke, 0.0)  # no line width: the bounds of the points
    return box


def _outcome(fn, code):
    try:
        return fn(code)
    except (IndexError, ValueError) as exc:
        return type(exc).__name__


@settings(max_examples=1500, deadline=None)
@given(_code())
def test_filled_bounds_is_the_bounds_of_the_listed_points(code):
    listed, direct = _outcome(_listed, code), _outcome(filled_bounds, code)
    assert listed == direct
    if isinstance(listed, tuple):
        assert [math.copysign(1, v) for v in listed] == [math.copysign(1, v) for v in direct]


def test_a_lone_move_is_left_out_and_a_closed_one_kept():
    assert filled_bounds(["9 9 m", "0 0 m", "1 2 l", "f"]) == (0.0, 0.0, 1.0, 2.0)
    assert filled_bounds(["9 9 m", "h", "0 0 m", "1 2 l", "f"]) == (0.0, 0.0, 9.0, 9.0)
    assert filled_bounds(["1 1 2 3 re", "f"]) == (1.0, 1.0, 3.0, 4.0)
    assert filled_bounds(["1 1 m", "2 2 l", "n"]) is None
