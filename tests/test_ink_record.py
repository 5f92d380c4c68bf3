"""The layout checks read the drawing the outputs make (issue 39): each distinct side is
recorded as it is drawn (render/base/drawn.py, recording.py; render/cards/ink.py), with no
second drawing and no PDF read back.

Held here to what the checks gave before, when every element was drawn again on its own page
and read back with PDFium:
- the findings of every shipped pack (and its presets' builds) and every fixture of
  tests/inkfixtures.py, recorded with that code (tests/fixtures/ink_findings.json, made at
  7223785 before anything changed; the fixtures' layout.safe-zone findings recorded again by
  the oracle when the safe zone came to be measured on word boxes, issue 41: distances 0.06-0.9 mm
  smaller, and `left-bolditalic` at 2.90 mm newly warned);
- that read-back itself (tests/inkoracle.py), element by element: bounds, word boxes (PDFium's
  loose character boxes, what the safe zone is measured on), paints and runs of text to a
  ten-thousandth of a millimetre (PDFium measures in 32-bit floats).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import inkfixtures
import inkoracle
from generator.kit import pack_faces
from generator.pack.load import load_build, load_pack
from generator.preflight import layout as layout_checks
from generator.preflight.layout import layout_findings
from generator.render.base import glyphs
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.ink import face_ink

REPO = Path(__file__).resolve().parents[1]
PACKS = ["boss_fight", "raid_boss", "battle_bosses", "final_boss", "tactics"]
RECORDED = json.loads((REPO / "tests" / "fixtures" / "ink_findings.json").read_text(encoding="utf-8"))
TOLERANCE_MM = 1e-4


def _dump(findings, root: Path | None = None) -> list[dict]:
    out = []
    for f in findings:
        d = dict(f.as_dict(), location=str(f.location) if f.location else None)
        if root is not None and d["location"]:  # locations are relative to the working folder, whichever it is
            d["location"] = d["location"].replace(os.path.relpath(root), "PACK").replace(str(root), "PACK")
        out.append(d)
    return out


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("ink")
    return {name: inkfixtures.make(name, folder) for name in inkfixtures.NAMES}


@pytest.mark.parametrize("name", PACKS)
def test_shipped_packs_and_builds_give_the_findings_recorded_before(name):
    pack = load_pack(REPO / "card_data" / name)
    assert _dump(layout_findings(pack)) == RECORDED[f"pack:{name}"]
    for preset in sorted(pack.preset_files)[:3]:
        build = load_build(preset, pack)
        assert _dump(layout_findings(pack, build)) == RECORDED[f"build:{name}/{Path(preset).name}"]


@pytest.mark.parametrize("name", inkfixtures.NAMES)
def test_fixtures_give_the_findings_recorded_before(fixtures, name):
    root = fixtures[name]
    found = _dump(layout_findings(load_pack(root)), root)
    # the location is relative to the working folder: compare from the pack's own folder on
    for f in found + RECORDED[f"fixture:{name}"]:
        if f.get("location"):
            f["location"] = f["location"][f["location"].index("PACK"):]
    assert found == [dict(f) for f in RECORDED[f"fixture:{name}"]]
    assert found, "a fixture that finds nothing holds nothing to the old findings"


def _sides(pack, shared) -> list[CardFace]:
    out, seen = [], set()
    for f in pack_faces(pack, shared, copies=False):
        out.append(f)
        key = pack.back_key(f.set_id, f.type_id, f.card)
        if key not in seen:
            seen.add(key)
            out.append(CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id))
    return out


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return all(abs(x - y) <= TOLERANCE_MM for x, y in zip(a, b))


def ink_differences(root: Path) -> list[str]:
    """Where the recorded ink of a pack's sides differs from PDFium's read-back."""
    pack = load_pack(root)
    shared = CardShared(pack)
    sides = _sides(pack, shared)
    old = inkoracle.face_ink(CardShared(pack), sides)
    new = face_ink(shared, sides)
    out = []
    for side, a, b in zip(sides, old, new):
        where = f"{side.card.id if side.card else side.layout}{' back' if side.back else ''}"
        if (a is None) != (b is None):
            out.append(f"{where}: read back {a is not None}, recorded {b is not None}")
            continue
        for ea, eb in zip(a.elements if a else (), b.elements if b else ()):
            if not _close(ea.bounds, eb.bounds):
                out.append(f"{where} {ea.name}: bounds {ea.bounds} read back, {eb.bounds} recorded")
            if not _close(ea.placed, eb.placed):
                out.append(f"{where} {ea.name}: word boxes {ea.placed} read back, {eb.placed} recorded")
            paints = [(p.box, p.color) for p in eb.paints]
            if len(ea.paints) != len(paints) or not all(
                    _close(p.box, box) and (p.color == color or _close(p.color, color)) for p, (box, color)
                    in zip(ea.paints, paints)):
                out.append(f"{where} {ea.name}: paints {ea.paints} read back, {paints} recorded")
            runs = [(t.color, t.size_pt, t.box) for t in eb.texts]
            if len(ea.texts) != len(runs) or not all(
                    _close(t.color, color) and t.size_pt == size and _close(t.box, box) for t, (color, size, box)
                    in zip(ea.texts, runs)):
                out.append(f"{where} {ea.name}: runs {ea.texts} read back, {runs} recorded")
    return out


@pytest.mark.parametrize("name", inkfixtures.NAMES)
def test_recorded_ink_is_what_pdfium_reads_back(fixtures, name):
    assert ink_differences(fixtures[name]) == []


@pytest.mark.parametrize("name", ["boss_fight", "battle_bosses"])  # every layout kind; the others by their findings
def test_recorded_ink_of_shipped_packs_is_what_pdfium_reads_back(name):
    assert ink_differences(REPO / "card_data" / name) == []


def test_the_ink_comparison_bites(fixtures, monkeypatch):
    """Self-test: with every letter a thousandth of the size wider than the font says, the
    comparison sees the text elements move."""
    glyphs.string_ink.cache_clear()
    glyphs._tables.cache_clear()
    real = glyphs.GlyphBoxes.advance
    monkeypatch.setattr(glyphs.GlyphBoxes, "advance", lambda self, ch: real(self, ch) + 40)
    try:
        found = ink_differences(fixtures["edges"])
    finally:
        monkeypatch.undo()
        glyphs.string_ink.cache_clear()
        glyphs._tables.cache_clear()
    assert any("left-regular: bounds" in line for line in found), found[:5]


def test_contrast_shortcut_agrees_with_the_runs(fixtures, monkeypatch):
    """Text lying wholly on one paint is judged once per colour without working out its runs;
    judged run by run instead, every fixture and pack finds the same."""
    roots = [fixtures[n] for n in inkfixtures.NAMES] + [REPO / "card_data" / "raid_boss"]
    quick = [_dump(layout_findings(load_pack(r))) for r in roots]

    def by_runs(drawn, paints):
        in_mm = [layout_checks.Paint(drawn.mm_box(box), color) for box, color in paints]
        return [(run.color, layout_checks._paint_under(in_mm, run.box)) for run in drawn.texts]

    monkeypatch.setattr(layout_checks, "_texts_on_paint", by_runs)
    assert [_dump(layout_findings(load_pack(r))) for r in roots] == quick


def test_a_kit_build_draws_each_side_once_and_reads_no_pdf(tmp_path):
    """`pnp build --only cards`: the checks take every side from the sheets (duplex: fronts and
    backs), draw none of them again and load no PDF reader."""
    code = (
        "import sys, runpy\n"
        "from generator.render.cards import ink\n"
        "drawn = []\n"
        "real = ink.draw_sides\n"
        "ink.draw_sides = lambda shared, faces: (drawn.extend(faces), real(shared, faces))\n"
        "from generator.preflight import layout\n"
        "layout.draw_sides = ink.draw_sides\n"
        "sys.argv = ['pnp', 'build', sys.argv[1], '--only', 'cards', '-q', '-o', sys.argv[2]]\n"
        "try:\n"
        "    runpy.run_module('generator', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print('drawn again:', len(drawn), 'pdfium:', 'pypdfium2' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code, str(REPO / "card_data" / "boss_fight"), str(tmp_path)],
                            capture_output=True, text=True, cwd=REPO, check=True)
    assert "drawn again: 0 pdfium: False" in result.stdout, result.stdout + result.stderr


def test_text_objects_tell_the_recorder_their_font():
    """InkTextObject reads the font a text object is set in from ReportLab's own state on it
    (`_fontname`, `_fontsize`: no public getter exists), so pyproject.toml caps ReportLab at the
    major versions tested. If a ReportLab release renames them, this fails here, loudly, rather
    than the checks measuring text in the wrong font."""
    import io

    from reportlab.pdfgen.textobject import PDFTextObject

    from generator.render.base.drawn import Recorder
    from generator.render.base.fonts import BOLD, REGULAR
    from generator.render.base.pdfout import new_canvas

    c = new_canvas(io.BytesIO(), (200, 200), "font")
    plain = PDFTextObject(c)
    assert (plain._fontname, plain._fontsize) == (c._fontname, c._fontsize), \
        "ReportLab's PDFTextObject no longer keeps _fontname/_fontsize: see render/base/recording.py"
    recorder = c.record(Recorder())
    c.setFont(REGULAR, 7)
    c.drawString(10, 10, "seven")
    t = c.beginText(20, 20)
    t.setFont(BOLD, 9)
    t.textOut("nine")
    c.drawText(t)
    c.stop_recording()
    assert [(font, size, text) for font, size, text, *_ in recorder.shown] == [(REGULAR, 7, "seven"), (BOLD, 9, "nine")]
