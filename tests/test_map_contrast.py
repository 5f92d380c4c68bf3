"""The contrast of the maps' text, judged as the pages are drawn (render/base/paints.py), against
what PDFium reads back from the written maps.pdf (render/base/readback.py, kept as the oracle):
every text of every shipped pack's maps in both looks lies on the same colour, and packs made
to fail (a side's colour too pale for its zone names, a terrain too dark for the labels on its
bands) give the same findings, word for word, except where a terrain pattern's form covers a text
by its box alone (PDFium's view, kept as is): the drawing knows the cell the pattern is clipped to
and judges the texts of the cells beside it too. `pnp build` and `pnp validate` read no PDF back."""

from __future__ import annotations

import io
import math
import shutil
from pathlib import Path

import pytest

from generator.core import pdfium
from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.pack.load import load_pack
from generator.preflight.layout import contrast_findings
from generator.preflight.render_check import map_findings
from generator.render.base.colors import MIN_CONTRAST
from generator.render.base.fonts import REGULAR
from generator.render.base.paints import PaintRecorder
from generator.render.base.pdfout import new_canvas
from generator.render.base.readback import low_contrast_text, text_on_paint
from generator.render.maps import cells
from generator.render.maps.cells import cell_path, draw_label, draw_pattern
from generator.render.maps.document import build_maps_pdf, maps_text_on_paint
from generator.render.maps.page import Frame

REPO = Path(__file__).resolve().parents[1]
MAP_PACKS = ["boss_fight", "battle_bosses", "tactics"]


def _read_back(pdf: Path) -> list:
    with pdfium.document(pdf) as doc:
        return [(n, t) for n, page in enumerate(doc, 1) for t in text_on_paint(page)]


def _middle(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _same_texts(recorded: list, read: list) -> None:
    """Each text the drawing judged is the one PDFium finds, in the same order, on the same colour."""
    assert len(recorded) == len(read)
    for (page, mine), (their_page, theirs) in zip(recorded, read):
        assert page == their_page and mine.color == theirs.color and mine.under == theirs.under
        assert mine.ratio == pytest.approx(theirs.ratio, abs=1e-9)
        assert _middle(mine.box) == pytest.approx(_middle(theirs.box), abs=0.01)


def _judged_by_both_rules(pack, ink: str, monkeypatch) -> tuple[list, list]:
    """What the drawing judges, and what it judges by the read-back's rule. readback.py sees a
    placed form as one object, by its box: a terrain pattern (a form clipped to its cell, whose
    box reaches 1.2 hex sizes around the cell's middle) hides the labels and names of the
    neighbouring cells from it. The drawing knows the cell each pattern is clipped to
    (cells.draw_pattern: doForm(within=...)) and judges those texts on what they lie on; with
    that knowledge taken away it must find exactly what PDFium finds."""
    judged = maps_text_on_paint(pack, ink=ink).judged
    with monkeypatch.context() as m:
        m.setattr(PaintRecorder, "paint_form_within", lambda self, summary, _key, _path: self.paint_form(summary))
        m.setattr(PaintRecorder, "forms_within", False)  # the box is the marks': they are drawn
        by_box = maps_text_on_paint(pack, ink=ink).judged
    return judged, by_box


def _more_than_by_box(judged: list, by_box: list) -> list:
    """The texts judged beyond those the form's box hid: everything judged by the box is judged
    the same, in the same order; the others lie in a pattern's box but outside its cell."""
    rest = iter(judged)
    assert all(any(t == mine for mine in rest) for t in by_box), "the box's rule judged a text the cell's did not"
    extra = [t for t in judged if t not in by_box]
    assert len(judged) == len(by_box) + len(extra)
    return extra


@pytest.mark.parametrize("ink", ["colour", "saver"])
@pytest.mark.parametrize("name", MAP_PACKS)
def test_every_map_text_lies_on_what_pdfium_reads_under_it(name, ink, tmp_path, monkeypatch):
    pack = load_pack(REPO / "card_data" / name)
    low: list = []
    build_maps_pdf(pack, tmp_path / "maps.pdf", low_contrast=low, ink=ink)
    judged, by_box = _judged_by_both_rules(pack, ink, monkeypatch)
    read = _read_back(tmp_path / "maps.pdf")
    assert len(read) > 400  # labels, names, titles: hundreds of texts judged
    assert {t.under for _n, t in read} > {(1.0, 1.0, 1.0)}  # on the paper and on fills
    _same_texts(by_box, read)
    beside = _more_than_by_box(judged, by_box)
    assert len(beside) > 100  # coordinates and zone names of plain cells next to patterned ones
    assert {t.under for _n, t in beside} - {t.under for _n, t in read} == set()  # on the fills PDFium sees elsewhere
    assert low == []


@pytest.mark.parametrize("ink", ["colour", "saver"])
@pytest.mark.parametrize("name", MAP_PACKS)
def test_a_scratch_page_judges_the_same_without_the_patterns_marks(name, ink, monkeypatch):
    """`pnp validate` draws a pattern's form as the cell it covers (cells.marks_unread): every text
    is judged the same, on the same colour, as with the marks drawn."""
    pack = load_pack(REPO / "card_data" / name)
    shortcut = maps_text_on_paint(pack, ink=ink).judged
    with monkeypatch.context() as m:
        m.setattr(cells, "marks_unread", lambda c: False)
        drawn = maps_text_on_paint(pack, ink=ink).judged
    assert len(drawn) > 400
    assert shortcut == drawn


def test_a_label_on_a_pattern_is_left_unjudged_on_a_scratch_page_too():
    """A text whose middle lies on a pattern's cell lies on a form (marks on a fill: no one
    colour), so it is not judged, whether the page is saved or, as in `pnp validate`, a scratch
    page on which the form holds the cell alone; a text on the paper beside it is judged."""
    layout = hexgrid.Layout.from_flat_to_flat("flat", 25.4, (0.0, 0.0))
    frame = Frame(-40.0, -60.0, 10.0, 140.0)
    judged = []
    for scratch in (False, True):
        c = new_canvas(io.BytesIO(), (200 * 2.8346, 200 * 2.8346), "on a pattern")
        c.scratch = scratch
        recorder = c.record(PaintRecorder())
        assert cells.marks_unread(c) == scratch
        draw_pattern(c, frame, layout, Hex(0, 0), "dots")
        draw_label(c, *frame.pt(*layout.center(Hex(0, 0))), "0,0", REGULAR, 6, 0.35)
        draw_label(c, *frame.pt(100.0, 100.0), "paper", REGULAR, 6, 0.35)
        c.showPage()
        c.stop_recording()
        judged.append([(page, t.text, t.under) for page, t in recorder.judged])
    assert judged[0] == judged[1] == [(1, "paper", (1.0, 1.0, 1.0))]


def _edit(root: Path, old: str, new: str) -> None:
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new), encoding="utf-8")


HOSTILE = {
    # the boss side's zone names in a colour close to the paper and to the bands they sit on
    "pale-side": ('boss: {name: Boss Set, side: boss, color: "#7a1f1f"', 'boss: {name: Boss Set, side: boss, color: "#f4ecd8"'),
    # rubble so dark that its label band (the colour lightened 60 %) is mid grey under grey-brown labels
    "dark-terrain": ('color: "#dcc89a"', 'color: "#000000"'),
    # thicket close to its own label colour
    "muddy-terrain": ('color: "#8fc46e"', 'color: "#3b332c"'),
}


@pytest.mark.parametrize("ink", ["colour", "saver"])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_maps_give_the_findings_pdfium_gives(case, ink, tmp_path, monkeypatch):
    root = tmp_path / "pack"
    shutil.copytree(REPO / "card_data" / "boss_fight", root)
    _edit(root, *HOSTILE[case])
    pack = load_pack(root)
    low: list = []
    build_maps_pdf(pack, tmp_path / "maps.pdf", low_contrast=low, ink=ink)
    read = low_contrast_text(tmp_path / "maps.pdf")
    judged, by_box = _judged_by_both_rules(pack, ink, monkeypatch)
    _same_texts(by_box, _read_back(tmp_path / "maps.pdf"))
    assert [f.line() for f in contrast_findings(_too_low(by_box))] == [f.line() for f in contrast_findings(read)]
    beside = _too_low(_more_than_by_box(judged, by_box))  # what the pattern's box hid from PDFium
    assert low == _too_low(judged) and len(low) == len(read) + len(beside)
    found = (len(beside), {(t.text, t.under, round(t.ratio, 2)) for _n, t in beside})
    assert found == (BESIDE_PATTERNS[case] if ink == "colour" else (0, set()))
    if ink == "colour":  # the saver look draws in its own greys: nothing to find there
        assert low, "the fixture must break the rule"
        assert [f.line() for f in map_findings(pack)] == [f.line() for f in contrast_findings(low)]


# the findings PDFium's read-back misses, on cells beside patterned ones (inside a pattern form's box):
# the pale boss zone names on the open ground (#f4ecd8 on #f5eedd, 1.02:1) next to terrain
BESIDE_PATTERNS = {"pale-side": (29, {("BOSS", (245 / 255, 238 / 255, 221 / 255), 1.02)}), "dark-terrain": (0, set()),
                   "muddy-terrain": (0, set())}


def _too_low(judged: list) -> list:
    return [(n, t) for n, t in judged if t.ratio < MIN_CONTRAST - 1e-9]


def _hex_page(canvas, label_at: tuple[float, float]) -> None:
    """A grey hexagon (fill 0.62), a grey label (0.35) at `label_at` (points), and an invisible one."""
    canvas.setFillGray(0.62)
    p = canvas.beginPath()
    corners = [(100 + 50 * math.cos(math.radians(60 * i)), 100 + 50 * math.sin(math.radians(60 * i))) for i in range(6)]
    p.moveTo(*corners[0])
    for x, y in corners[1:]:
        p.lineTo(x, y)
    p.close()
    canvas.drawPath(p, stroke=0, fill=1)
    canvas.setFillGray(0.35)
    canvas.setFont(REGULAR, 6)
    canvas.drawCentredString(label_at[0], label_at[1], "3,-1")
    t = canvas.beginText(10, 190)
    t.setTextRenderMode(3)  # a marker for tools (as the map tiles carry): not ink, not judged
    t.textOut("pnp:tile")
    canvas.drawText(t)
    canvas.showPage()


@pytest.mark.parametrize("label_at, found", [((100, 98), True), ((58, 62), False)])
def test_text_is_judged_on_the_outline_under_it_not_its_box(label_at, found, tmp_path):
    """On the hexagon: judged against its grey; in the corner of its bounding box: on the paper."""
    c = new_canvas(str(tmp_path / "hex.pdf"), (200, 200), "hex")
    recorder = c.record(PaintRecorder())
    _hex_page(c, label_at)
    c.stop_recording()
    c.save()
    read = low_contrast_text(tmp_path / "hex.pdf")
    assert [f.line() for f in contrast_findings(recorder.low)] == [f.line() for f in contrast_findings(read)]
    assert bool(read) == found
    if found:
        (page, low), = recorder.low
        assert page == 1 and low.text == "3,-1" and low.ratio == pytest.approx(2.61, abs=0.01)
        finding, = contrast_findings(recorder.low)
        assert finding.severity == "error" and finding.page == 1 and "#595959 on #9e9e9e" in finding.message


def test_a_clip_cuts_off_both_the_fill_and_the_text(tmp_path):
    """A fill clipped away where a text's middle lies does not count; a text clipped away is not judged."""
    c = new_canvas(str(tmp_path / "clip.pdf"), (200, 200), "clip")
    recorder = c.record(PaintRecorder())
    for page in range(2):
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, 0, 100, 200)
        c.clipPath(clip, stroke=0, fill=0)
        c.setFillGray(0.4)
        c.rect(0, 0, 200, 200, stroke=0, fill=1)  # painted on the left half only
        c.setFillGray(0.45)
        c.setFont(REGULAR, 8)
        c.drawString(120 if page else 20, 100, "cut")  # right: clipped away; left: on the grey
        c.restoreState()
        c.setFillGray(0.45)
        c.drawString(150, 50, "paper")  # outside the clip, drawn after it: on the paper
        c.showPage()
    c.stop_recording()
    c.save()
    _same_texts(recorder.judged, _read_back(tmp_path / "clip.pdf"))
    assert [(n, t.under) for n, t in recorder.judged] == [(1, (0.4, 0.4, 0.4)), (1, (1.0, 1.0, 1.0)),
                                                          (2, (1.0, 1.0, 1.0))]


def test_the_maps_are_judged_without_a_pdf(monkeypatch):
    """validate's map check draws into memory: no file is written and no PDF library is loaded."""
    def refuse(*_args, **_kwargs):
        raise AssertionError("a PDF was opened")
    monkeypatch.setattr(pdfium, "document", refuse)
    pack = load_pack(REPO / "card_data" / "boss_fight")
    monkeypatch.setattr("generator.render.maps.document.atomic_output", refuse)
    assert map_findings(pack) == []
    assert len(maps_text_on_paint(pack).judged) > 1000


def _plain_beside_pattern(canvas) -> str:
    """A plain grey hex (fill 0.62) with its coordinates in grey (0.35) where the maps put them,
    drawn as the maps draw it: its fill, then the dotted pattern of the hex above it (a form
    whose box, ±1.2 hex sizes around its middle, covers the label), then the label."""
    layout = hexgrid.Layout.from_flat_to_flat("flat", 25.4, (0.0, 0.0))
    frame = Frame(-40.0, -60.0, 10.0, 140.0)
    plain, patterned = Hex(0, 0), Hex(0, -1)
    canvas.setFillGray(0.62)
    canvas.drawPath(cell_path(canvas, frame, layout, plain), stroke=0, fill=1)
    draw_pattern(canvas, frame, layout, patterned, "dots")
    draw_pattern(canvas, frame, layout, Hex(3, -1), "dots")  # the first placed copy of the form is not the only one
    cx, cy = layout.center(plain)
    x, y = frame.pt(cx, cy - layout.size * 0.58)
    draw_label(canvas, x, y - 6 * 0.35, "0,0", REGULAR, 6, 0.35)
    canvas.showPage()
    return "0,0"


def test_a_label_beside_a_patterned_hex_is_judged_on_its_own_hex(tmp_path):
    """A pattern form paints inside its cell only: the label of the plain hex below it, inside
    the form's box but outside its cell, is judged against its own hex's grey (2.61:1, too low).
    PDFium's read-back (the oracle) sees a form by its box alone and so judges nothing here: the
    one place the two differ, on purpose (the old rule let this label through)."""
    c = new_canvas(str(tmp_path / "beside.pdf"), (200 * 2.8346, 200 * 2.8346), "beside")
    recorder = c.record(PaintRecorder())
    label = _plain_beside_pattern(c)
    c.stop_recording()
    c.save()
    (page, low), = recorder.low
    assert page == 1 and low.text == label and low.under == pytest.approx((0.62, 0.62, 0.62), abs=0.002)
    assert low.ratio == pytest.approx(2.61, abs=0.01)
    assert _read_back(tmp_path / "beside.pdf") == []  # under the form's box: PDFium's rule judges nothing
