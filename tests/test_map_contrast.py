"""The contrast of the maps' text, judged as the pages are drawn (render/base/paints.py), against
what PDFium reads back from the written maps.pdf (render/base/readback.py, kept as the oracle):
every text of every shipped pack's maps in both looks lies on the same colour, and packs made
to fail (a side's colour too pale for its zone names, a terrain too dark for the labels on its
bands) give the same findings, word for word. `pnp build` and `pnp validate` read no PDF back."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from generator.core import pdfium
from generator.pack.load import load_pack
from generator.preflight.layout import contrast_findings
from generator.preflight.render_check import map_findings
from generator.render.base.fonts import REGULAR
from generator.render.base.paints import PaintRecorder
from generator.render.base.pdfout import new_canvas
from generator.render.base.readback import low_contrast_text, text_on_paint
from generator.render.maps.document import build_maps_pdf, maps_text_on_paint

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


@pytest.mark.parametrize("ink", ["colour", "saver"])
@pytest.mark.parametrize("name", MAP_PACKS)
def test_every_map_text_lies_on_what_pdfium_reads_under_it(name, ink, tmp_path):
    pack = load_pack(REPO / "card_data" / name)
    low: list = []
    build_maps_pdf(pack, tmp_path / "maps.pdf", low_contrast=low, ink=ink)
    recorded = maps_text_on_paint(pack, ink=ink).judged
    read = _read_back(tmp_path / "maps.pdf")
    assert len(read) > 400  # labels, names, titles: hundreds of texts judged
    assert {t.under for _n, t in read} > {(1.0, 1.0, 1.0)}  # on the paper and on fills
    _same_texts(recorded, read)
    assert low == []


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
def test_hostile_maps_give_the_findings_pdfium_gives(case, ink, tmp_path):
    root = tmp_path / "pack"
    shutil.copytree(REPO / "card_data" / "boss_fight", root)
    _edit(root, *HOSTILE[case])
    pack = load_pack(root)
    low: list = []
    build_maps_pdf(pack, tmp_path / "maps.pdf", low_contrast=low, ink=ink)
    read = low_contrast_text(tmp_path / "maps.pdf")
    assert [f.line() for f in contrast_findings(low)] == [f.line() for f in contrast_findings(read)]
    _same_texts(maps_text_on_paint(pack, ink=ink).judged, _read_back(tmp_path / "maps.pdf"))
    if ink == "colour":  # the saver look draws in its own greys: nothing to find there
        assert low, "the fixture must break the rule"
        assert [f.line() for f in map_findings(pack)] == [f.line() for f in contrast_findings(read)]


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
