"""render/base/recording.py place_form: a form placed on a canvas recording nothing writes the
operators of saveState, transform, doForm and restoreState, and leaves ReportLab's state as
those calls leave it (the fast path saves no copy of the state)."""

from __future__ import annotations

import io

from generator.render.base.drawn import Recorder
from generator.render.base.pdfout import new_canvas
from generator.render.base.recording import place_form

PLACES = ((1, 0, 0, 1, 10.5, 20.25), (0.107717, 0, 0, 0.107717, 175.0394, 682.7244), (-0.5, 0, 0, 0.5, 0, -1e-7))


def _canvas():
    c = new_canvas(io.BytesIO(), (300.0, 300.0), "forms")
    c.beginForm("dot", 0, 0, 10, 10)
    c.circle(5, 5, 4, stroke=0, fill=1)
    c.endForm()
    c.translate(3, 4)  # a `cm` last: a transform after it would merge into it
    return c


def _state(c) -> tuple:
    return (list(c._code), c._currentMatrix, len(c.state_stack), list(c._formsinuse), c._extgstate.getValue("ca"))


def test_a_form_placed_writes_and_leaves_what_the_four_calls_do():
    fast, slow = _canvas(), _canvas()
    for a, b, cc, d, e, f in PLACES:
        place_form(fast, "dot", a, b, cc, d, e, f)
        slow.saveState()
        slow.transform(a, b, cc, d, e, f)
        slow.doForm("dot")
        slow.restoreState()
        assert _state(fast) == _state(slow)
    fast.translate(1, 2)  # after a placed form: a `cm` of its own, as after the four calls
    slow.translate(1, 2)
    assert _state(fast) == _state(slow)


def test_while_recording_a_form_placed_is_recorded():
    c = _canvas()
    recorder = c.record(Recorder())
    place_form(c, "dot", 2, 0, 0, 2, 50, 60)
    c.stop_recording()
    assert recorder.objects  # the placed form's ink was told to the recorder


def test_separate_lines_write_what_line_writes_each_time():
    """RecordingCanvas.separate_lines: a set of cut guides formatted once and kept (every full
    sheet draws the same), the page text the same as a `line` call per segment."""
    segments = [(10.5, 0.0, 10.5, 20.123456789), (-3.0, 7.25, 1e-7, 7.25), (100.0, 200.0, 300.0, 200.0)]
    kept, plain = _canvas(), _canvas()
    for _ in range(3):
        kept.separate_lines(list(segments))
        for segment in segments:
            plain.line(*segment)
    assert "\n".join(kept._code) == "\n".join(plain._code) and len(kept.lines_memo) == 1


def test_a_kept_shape_path_gives_the_text_of_a_path_drawn_afresh():
    """recording.shape_path: a rect or roundRect path's text kept by its numbers (the cards in
    one slot of every sheet clip alike) clips as a path object drawn afresh does."""
    from generator.render.base.recording import shape_path
    kept, plain = _canvas(), _canvas()
    shapes = [("rect", 10.62992, 552.6142, 191.3386, 263.3386), ("roundRect", 25.93701, 694.6299, 114.5197, 80.50394, 3.401575),
              ("roundRect", -1.5, 0.0, 1e-7, 20.0, 2.0)]
    for _ in range(2):
        for shape, *numbers in shapes:
            kept.clipPath(shape_path(kept, shape, *numbers), stroke=0, fill=0)
            path = plain.beginPath()
            getattr(path, shape)(*numbers)
            plain.clipPath(path, stroke=0, fill=0)
    assert kept._code == plain._code and len(kept.path_texts) == len(shapes)


def test_a_line_only_pattern_gathered_by_a_line_path_writes_what_a_path_object_writes():
    """The card back's line patterns (hexes, diamonds, chevrons, stripes) are gathered by a
    recording.LinePath and formatted at once: the same getCode() as a path object's."""
    from generator.render.base.recording import LinePath
    from generator.render.cards.elements.pattern import LINES_ONLY, MOTIF_PATHS
    canvas = _canvas()
    for motif in LINES_ONLY:
        for cx, cy, hw, hh, step in ((100.0, 150.0, 95.0, 130.0, 11.338583), (0.5, -2.25, 10.0, 7.5, 1e-1 * 3)):
            lines, path = LinePath(), canvas.beginPath()
            MOTIF_PATHS[motif](lines, cx, cy, hw, hh, step)
            MOTIF_PATHS[motif](path, cx, cy, hw, hh, step)
            assert lines.path().getCode() == path.getCode() != ""
    assert LinePath().path().getCode() == canvas.beginPath().getCode() == ""
