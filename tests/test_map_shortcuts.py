"""`pnp validate` draws every map page on a canvas never saved (render/maps/document.py
maps_text_on_paint) to judge the contrast of its text, and leaves out what its recorder does not
read: strings are told to the recorder without a text object (render/base/recording.py), a
terrain pattern's form holds its cell alone (render/maps/cells.py marks_unread). Each shortcut
must judge every text as the whole drawing does, on every shipped map pack, in both looks, on both
papers and in a translation; and the pieces they share with the saved maps.pdf (a cell's path text)
must write what ReportLab writes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.grids import hexgrid
from generator.pack.load import load_pack
from generator.render.base.drawn import Recorder
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.paints import PaintRecorder, outline_of
from generator.render.base.pdfout import new_canvas
from generator.render.base.recording import LinePath, RecordingCanvas, polygon_path
from generator.render.maps import cells, hexes, page, square
from generator.render.maps.document import maps_text_on_paint
from generator.render.maps.page import Frame
from generator.render.maps.palette import TerrainInk

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name, paper, ink", [
    ("boss_fight", "a4", "colour"), ("boss_fight", "a4", "saver"), ("boss_fight", "letter", "colour"),
    ("battle_bosses", "a4", "colour"), ("battle_bosses", "letter", "saver"),
    ("tactics", "a4", "colour"), ("tactics", "letter", "saver"),
])
def test_the_map_pass_judges_every_text_as_the_whole_drawing_does(name, paper, ink):
    pack = load_pack(REPO / "card_data" / name)
    whole = maps_text_on_paint(pack, paper, ink, shortcuts=False).judged
    assert len(whole) > 400  # labels, names, titles, notes, legends
    assert maps_text_on_paint(pack, paper, ink).judged == whole


def test_the_map_pass_of_a_translation_judges_as_the_whole_drawing_does():
    base = load_pack(REPO / "card_data" / "boss_fight")
    pack = load_pack(Path(base.root), base.documents, lang="de", fallbacks=False)
    whole = maps_text_on_paint(pack, shortcuts=False).judged
    assert any(t.text.startswith("Bogen R") for _page, t in whole)  # the sheets' own words, in German
    assert maps_text_on_paint(pack).judged == whole


@pytest.mark.parametrize("name", ["boss_fight", "tactics"])  # hex maps, square maps
def test_a_legend_measured_without_drawing_it_is_as_tall(name, monkeypatch):
    """A map's legend is measured before it is placed (below the map or beside it), on a scratch
    page on which nothing is drawn (cells.for_height_only): the overview comes out the same."""
    pack = load_pack(REPO / "card_data" / name)
    measured = maps_text_on_paint(pack).judged
    with monkeypatch.context() as m:
        m.setattr(page, "height_only", lambda c: False)  # its text drawn as it is measured
        drawn = maps_text_on_paint(pack).judged
    assert len(drawn) > 400 and measured == drawn


def test_only_a_page_never_saved_that_reads_fills_alone_leaves_its_lines_off():
    """cells.strokes_unread: a scratch page recorded by a PaintRecorder (pnp validate's map pass)
    or one whose text alone is read; not a page that is saved, nor one whose recorder reads the
    bounds of what is stroked too (a card's ink, a form's box)."""
    for scratch, recorder, unread in [(True, PaintRecorder, True), (False, PaintRecorder, False),
                                      (True, Recorder, False), (True, None, False)]:
        c = new_canvas(io.BytesIO(), (300, 300), "lines")
        c.scratch = scratch
        if recorder is not None:
            c.record(recorder())
        assert cells.strokes_unread(c) == unread
    c = new_canvas(io.BytesIO(), (300, 300), "text")
    cells.for_text_only(c)
    assert cells.strokes_unread(c)


@pytest.mark.parametrize("name", ["boss_fight", "battle_bosses", "tactics"])
def test_the_saved_maps_judge_the_same_without_noting_the_patterns_marks(name, monkeypatch):
    """`pnp build` judges maps.pdf's text as it draws it, on the saved canvas: a terrain pattern's
    form covers its cell (beginForm's `covers`), so its marks are drawn but not noted; every text
    is judged as with each mark noted and the form's box cut to the cell."""
    pack = load_pack(REPO / "card_data" / name)
    begin = RecordingCanvas.beginForm
    for ink in ("colour", "saver"):
        covered = maps_text_on_paint(pack, ink=ink, shortcuts=False).judged
        with monkeypatch.context() as m:
            m.setattr(RecordingCanvas, "beginForm", lambda self, form, *box, covers=None: begin(self, form, *box))
            noted = maps_text_on_paint(pack, ink=ink, shortcuts=False).judged
        assert len(noted) > 400 and covered == noted


@pytest.mark.parametrize("name", ["boss_fight", "tactics"])  # hex maps, square maps
@pytest.mark.parametrize("shortcuts", [True, False])
def test_a_windows_text_read_as_its_sheet_is_drawn_is_what_a_text_only_drawing_reads(name, shortcuts, monkeypatch):
    """While a PaintRecorder records, draw_sheet reads a window's text (where the seams' crosses
    must not go) from the strings its own sheet shows: the same letter boxes, in the same order,
    as the text-only drawing page.window_text_boxes makes of it. pnp validate's map pass (fills
    alone, no crosses on the right and lower seams) makes no text-only drawing at all."""
    pack = load_pack(REPO / "card_data" / name)
    sheets: list = []  # each map's kept texts, with its plan and painter
    text_only: list = []
    original, text_of = page.draw_sheet, page.window_text_boxes

    def draw_sheet(c, m, plan, win, paint, *args, texts, **kwargs):
        sheets.append((texts, plan, paint))
        return original(c, m, plan, win, paint, *args, texts=texts, **kwargs)

    monkeypatch.setattr(hexes, "draw_sheet", draw_sheet)
    monkeypatch.setattr(square, "draw_sheet", draw_sheet)
    monkeypatch.setattr(page, "window_text_boxes", lambda *a: text_only.append(a) or text_of(*a))
    maps_text_on_paint(pack, shortcuts=shortcuts)
    read = {(id(texts), win): (plan, paint, boxes) for texts, plan, paint in sheets for win, boxes in texts.items()}
    assert len(text_only) == 0 if shortcuts else 0 < len(text_only) < len(read)
    assert sum(len(boxes) for *_rest, boxes in read.values()) > 1000  # letters of labels and names
    for (_texts, win), (plan, paint, boxes) in read.items():
        assert boxes == text_of(plan, win, paint)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_texts_all_over_a_covered_pattern_are_judged_as_with_its_marks_noted(orientation, monkeypatch):
    """Texts every 2.5 points across a pattern's form and around it (on its cell, in its box
    beside the cell, on the paper), on a saved page: judged alike whether the form covers its
    cell or its marks are noted and its box cut to the cell."""
    layout = hexgrid.Layout.from_flat_to_flat(orientation, 25.4)
    frame = Frame(-40.0, -40.0, 20.0, 180.0)

    def judged() -> list:
        c = new_canvas(io.BytesIO(), (400, 600), "on a pattern")
        recorder = c.record(PaintRecorder())
        c.setFillGray(0.62)
        c.drawPath(cells.cell_path(c, frame, layout, (0, 1)), stroke=0, fill=1)  # a plain grey cell below
        cells.draw_pattern(c, frame, layout, (0, 0), "dots", TerrainInk((0.3, 0.5, 0.2), (0.1, 0.2, 0.1), (1, 1, 1)))
        x0, y0 = frame.pt(-25.0, 40.0)  # map mm, y down: from below the grey cell's middle
        for i in range(57):  # to past the pattern's box on every side
            for j in range(74):
                cells.draw_label(c, x0 + 2.5 * i, y0 + 2.5 * j, "+", REGULAR, 4, 0.05)
        c.stop_recording()
        return recorder.judged

    covered = judged()
    begin = RecordingCanvas.beginForm
    monkeypatch.setattr(RecordingCanvas, "beginForm", lambda self, form, *box, covers=None: begin(self, form, *box))
    noted = judged()
    assert len({t.under for _page, t in noted}) == 2  # on the paper, on the grey cell
    assert 1000 < len(noted) < 57 * 74 - 500  # those on the pattern's cell are not judged
    assert covered == noted


@pytest.mark.parametrize("pattern", ["dots", "hatch", "crosshatch", "waves", "bricks", "grass"])
def test_a_patterns_marks_reach_past_its_cell_on_every_side(pattern):
    """What beginForm's `covers` (and cells.marks_unread) take as given: a pattern's form, noted
    mark by mark, covers its cell's box, for every pattern, hex and square cells, small and large,
    in both looks."""
    from generator.grids import squaregrid
    from generator.render.base.drawn import filled_bounds
    for layout in (hexgrid.Layout.from_flat_to_flat("flat", 25.4), hexgrid.Layout.from_flat_to_flat("pointy", 19.05),
                   squaregrid.Layout(25.0)):
        for scale in (1.0, 0.31):
            for look in (None, TerrainInk((0.5, 0.6, 0.4), (0.2, 0.3, 0.1), (0.9, 0.9, 0.8), None)):
                c = new_canvas(io.BytesIO(), (600, 600), "pattern")
                c.record(Recorder())  # notes what each form holds
                frame = Frame(-60.0, -60.0, 20.0, 190.0, scale)
                cells.draw_pattern(c, frame, layout, (1, 2), pattern, look)
                (name, _x, _y, cell), = c.__dict__["_pnp_pattern_forms"].values()
                held, box = c.form_ink[name], filled_bounds([cell.getCode(), "f"])
                assert held[0] < box[0] and held[1] < box[1] and held[2] > box[2] and held[3] > box[3]


def _strings(c) -> None:
    """Strings drawn every way the maps draw them, and some they do not."""
    c.setFont(REGULAR, 9)
    c.setFillGray(0.3)
    c.drawString(100, 50, "12,-3")
    c.drawCentredString(100.25, 80.5, "Sheet A1 · true scale")
    c.drawRightString(280, 20, "Tiles 1 of 2")
    c.drawCentredString(40, 40, "")  # nothing shown
    c.drawCentredString(100.25, 90.5, "Sheet A1 · true scale")  # (its width measured once: kept by text, font, size)
    c.setFont(REGULAR, 7)
    c.drawCentredString(100.25, 99.5, "Sheet A1 · true scale")
    c.setFont(BOLD, 14.5)
    c.drawRightString(100.25, 108.5, "Sheet A1 · true scale")
    c.setFillColorRGB(0.8, 0.1, 0.2)
    c.saveState()
    c.translate(150, 150)
    c.rotate(90)
    c.drawCentredString(0, 0, "CUT here, lay on B2")
    c.restoreState()
    c.drawString(10, 200, "invisible", mode=3)  # a mode: drawn by a text object, as before
    c.setFillAlpha(0.5)
    c.drawRightString(200, 260, "see-through")


@pytest.mark.parametrize("recorder", [None, Recorder, PaintRecorder])
def test_a_plain_string_is_written_and_told_as_its_text_object_writes_and_tells_it(recorder, monkeypatch):
    """drawString and its kin make no text object for a plain string (RecordingCanvas._string):
    on a saved page the same operators, and the recorder told the same; on a page never saved
    that records, the recorder alone is told it."""
    drawn = []
    for way in ("text object", "saved", "never saved"):
        c = new_canvas(io.BytesIO(), (300, 300), "strings")
        c.scratch = way == "never saved"
        ink = c.record(recorder()) if recorder is not None else None
        with monkeypatch.context() as m:
            if way == "text object":
                m.setattr(RecordingCanvas, "_string", lambda *args: False)  # ReportLab's own way
            c.setFont(BOLD, 11)
            c.drawString(5, 5, "Übersicht")  # its subset in use before: the first string's operators
            _strings(c)
        told = [] if ink is None else ink.judged if isinstance(ink, PaintRecorder) else ink.shown
        drawn.append((told, c._code if way != "never saved" or ink is None else None))
        if way == "never saved" and ink is not None:  # no text object made but the one a mode needs
            assert sum(code.startswith("BT") for code in c._code) == 1
    assert recorder is None or len(drawn[0][0]) >= 4
    assert drawn[0][0] == drawn[1][0] == drawn[2][0]
    assert drawn[0][1] == drawn[1][1] and sum(code.startswith("BT") for code in drawn[0][1]) >= 7


_number = st.one_of(st.integers(-2000, 2000), st.floats(-2000, 2000, allow_nan=False, allow_infinity=False))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_number, _number), min_size=1, max_size=8))
def test_a_cells_path_is_the_text_a_path_object_writes(points):
    path = PDFPathObject()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    made = polygon_path([v for point in points for v in point])
    assert made.getCode() == path.getCode()
    assert made.polygons() == outline_of(path.getCode())


@settings(max_examples=200, deadline=None)
@given(st.lists(_number, max_size=40), st.integers(1, 8))
def test_numbers_looked_up_are_the_text_fp_str_writes(numbers, memo):
    """number_texts keeps each number's text by its value (a map's cells share their corners):
    the same as formatting each afresh, also as the kept ones are forgotten (a memo of a few)."""
    from reportlab.lib.rl_accel import fp_str

    from generator.render.base import operators
    saved = operators.NUMBER_MEMO
    operators.NUMBER_MEMO = memo
    try:
        for _ in range(2):  # the second time, from what was kept
            assert operators.number_texts(numbers) == [fp_str(v) for v in numbers]
            assert " ".join(operators.number_texts(numbers)) == (fp_str(*numbers) if numbers else "")
    finally:
        operators.NUMBER_MEMO = saved


@settings(max_examples=300, deadline=None)
@given(_number, _number, st.one_of(st.floats(0, 60, allow_nan=False), st.integers(0, 30)),
       st.sampled_from([(0, 1), (1, 0), (1, 1)]))
def test_a_dot_is_the_text_reportlabs_circle_writes(x, y, r, paint):
    """A pattern's dots, drawn while nothing records, are written at once (RecordingCanvas.circle),
    and so is a disc drawn while a PaintRecorder records, which is given the outline the
    ellipse ReportLab's circle draws gives it."""
    ours, theirs = new_canvas(io.BytesIO(), (300, 300), "dots"), Canvas(io.BytesIO())
    ours._code.clear()
    theirs._code.clear()
    ours.circle(x, y, r, *paint)
    theirs.circle(x, y, r, *paint)
    assert "\n".join(ours._code) == "\n".join(theirs._code)
    recorded = []
    for circle in (RecordingCanvas.circle, Canvas.circle):  # ours, ReportLab's (through our ellipse)
        c = new_canvas(io.BytesIO(), (300, 300), "discs")
        c._code.clear()
        ink = c.record(PaintRecorder())
        circle(c, x, y, r, *paint)
        recorded.append(("\n".join(c._code), ink.paints))
    assert recorded[0] == recorded[1]
    assert recorded[0][1] or not paint[1]  # a filled disc is paint


@settings(max_examples=200, deadline=None)
@given(st.lists(_number, min_size=1, max_size=4), st.lists(_number, min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=12),
       st.one_of(st.floats(0, 60, allow_nan=False), st.integers(0, 30)), st.sampled_from([(0, 1), (1, 0), (1, 1)]),
       st.booleans())
def test_a_patterns_dots_are_the_text_reportlabs_circles_write(xs, ys, picks, r, paint, recording):
    """A dots pattern's centres, in rows and columns (each x and y formatted once:
    operators.dots_text), written at once: the text ReportLab's circles write one by one, and
    while a recorder records, what each circle tells it."""
    centres = [(xs[i % len(xs)], ys[j % len(ys)]) for i, j in picks]
    ours, theirs = new_canvas(io.BytesIO(), (300, 300), "dots"), Canvas(io.BytesIO())
    for c in (ours, theirs):
        c._code.clear()
    ink = ours.record(PaintRecorder()) if recording else None
    ours.dots(centres, r, *paint)
    for x, y in centres:
        theirs.circle(x, y, r, *paint)
    assert "\n".join(ours._code) == "\n".join(theirs._code)
    if recording:
        alone = new_canvas(io.BytesIO(), (300, 300), "discs")
        told = alone.record(PaintRecorder())
        for x, y in centres:
            alone.circle(x, y, r, *paint)
        assert ink is not None and ink.paints == told.paints


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["moveTo", "lineTo", "curveTo", "close"]),
                          st.lists(_number, min_size=6, max_size=6)), min_size=1, max_size=10))
def test_a_gathered_path_is_the_text_a_path_object_writes(steps):
    """A map's waves (and a card back's lines) gathered by a LinePath give a path object's text."""
    gathered, path = LinePath(), PDFPathObject()
    path.moveTo(*steps[0][1][:2])
    gathered.moveTo(*steps[0][1][:2])
    for op, numbers in steps:
        args = numbers[:{"moveTo": 2, "lineTo": 2, "curveTo": 6, "close": 0}[op]]
        getattr(path, op)(*args)
        getattr(gathered, op)(*args)
    assert gathered.path().getCode() == path.getCode()
