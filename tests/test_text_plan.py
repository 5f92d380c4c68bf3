"""render/base/text.py draws a fitted layout from a plan worked out once per layout (its
strings, fonts and colours in order): drawing the same layout again, elsewhere, writes the
same operators as working the plan out afresh, and a change of colour, alignment or width
makes a plan of its own."""

from __future__ import annotations

import io

from generator.render.base import text as text_module
from generator.render.base.icons import IconSheet
from generator.render.base.pdfout import new_canvas
from generator.render.base.text import TextFitter, draw_layout

TEXT = "**Heavy** :damage:3 deal *Stunned* to a foe; then move 2 :hex: and Stunned again, left or right."


def _ops(layout, fresh: bool, **kwargs) -> list[str]:
    c = new_canvas(io.BytesIO(), (400.0, 400.0), "plan")
    icons = IconSheet(c, {})
    for x, top in ((10.0, 300.0), (123.4, 87.65)):
        if fresh:
            text_module._PLANS.clear()
        draw_layout(c, icons, layout, x, top, 150.0, **kwargs)
    return list(c._code)


def test_a_layout_drawn_again_writes_what_a_fresh_plan_writes():
    fitter = TextFitter(["Stunned"])
    layout = fitter.fit(TEXT, 150.0, 80.0, 9.0, 5.0)
    for kwargs in ({}, {"align": "center", "color": "#5a5246"}, {"align": "right", "keyword_color": "#ffffff"}):
        planned = _ops(layout, fresh=False, **kwargs)
        assert planned == _ops(layout, fresh=True, **kwargs)
        assert any("Tj" in op for op in planned)  # text was drawn


def test_another_colour_alignment_or_width_is_planned_afresh():
    fitter = TextFitter(["Stunned"])
    layout = fitter.fit(TEXT, 150.0, 80.0, 9.0, 5.0)
    first = text_module._plan(layout, "left", 150.0, "#222222", None)
    assert text_module._plan(layout, "left", 150.0, "#222222", None) is first
    assert text_module._plan(layout, "center", 150.0, "#222222", None) is not first
    assert text_module._plan(layout, "left", 150.0, "#ff0000", None) is not first
    assert text_module._plan(layout, "center", 160.0, "#222222", None) != text_module._plan(
        layout, "center", 150.0, "#222222", None)


def _pdf(layout, positions, keep: bool, alpha_first: bool = False, **kwargs) -> tuple[bytes, int]:
    out = io.BytesIO()
    c = new_canvas(out, (400.0, 400.0), "kept")
    if not keep:
        c.kept_text = None  # every drawing through a text object
    icons = IconSheet(c, {})
    if alpha_first:
        c.setFillColorRGB(0.2, 0.4, 0.6, alpha=0.5)
    for x, top in positions:
        draw_layout(c, icons, layout, x, top, 150.0, **kwargs)
    kept = len(c.kept_text) if keep else 0
    c.showPage()
    c.save()
    return out.getvalue(), kept


POSITIONS = ((10.0, 300.0), (123.4, 87.65), (0.0, 0.0), (-3.25, 1e-7), (250.123456789, 399.999999))


def test_a_plan_drawn_again_from_its_kept_operators_writes_what_a_text_object_writes():
    fitter = TextFitter(["Stunned"])
    for text in (TEXT, "100% sure: (a) \\\\ b, 50 %s of it"):
        layout = fitter.fit(text, 150.0, 80.0, 9.0, 5.0)
        for kwargs in ({}, {"align": "center", "color": "#5a5246"}, {"align": "right", "keyword_color": "#ffffff"}):
            kept, n = _pdf(layout, POSITIONS, keep=True, **kwargs)
            assert n == 1  # the plan's operators were kept, and drawn again from them
            assert kept == _pdf(layout, POSITIONS, keep=False, **kwargs)[0]


def test_no_plan_is_kept_once_a_fill_alpha_other_than_one_was_set():
    """A colour set in a text object then writes a `gs` when the canvas's alpha differs."""
    layout = TextFitter(["Stunned"]).fit(TEXT, 150.0, 80.0, 9.0, 5.0)
    kept, n = _pdf(layout, POSITIONS, keep=True, alpha_first=True)
    assert n == 0
    assert kept == _pdf(layout, POSITIONS, keep=False, alpha_first=True)[0]


def _recorded(scratch: bool) -> tuple[list, list[str]]:
    """What a recorder is told of a layout drawn while it records, and the canvas's operators."""
    from generator.render.base.drawn import Recorder

    fitter = TextFitter(["Stunned"])
    layout = fitter.fit(TEXT, 150.0, 80.0, 9.0, 5.0)
    c = new_canvas(io.BytesIO(), (400.0, 400.0), "scratch")
    c.scratch = scratch
    recorder = c.record(Recorder())
    draw_layout(c, IconSheet(c, {}), layout, 12.5, 300.0, 150.0, keyword_color="#aa0000")
    c.setFont("PnpSans", 7)
    c.drawString(20.0, 40.0, "Stunned 3")  # a text object of ReportLab's, noted as it shows
    c.stop_recording()
    return recorder.shown, list(c._code)


def test_a_scratch_canvas_is_told_the_same_strings_and_writes_no_text():
    """`pnp validate` draws faces on a canvas it never saves (canvas.scratch): a text being
    recorded is noted as on the sheets' canvas, and its strings are not written."""
    shown, code = _recorded(scratch=True)
    sheets_shown, sheets_code = _recorded(scratch=False)
    assert shown == sheets_shown and len(shown) > 3
    assert shown[-1][2] == "Stunned 3"
    assert sum("Tj" in op for op in sheets_code) == 2  # the layout's text object and drawString's
    assert not any("Tj" in op for op in code)
