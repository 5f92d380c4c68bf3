"""The calibration contract, tested by simulating a printer (issue 15).

A printer shifts everything on the back side by a vector s, in the back page's own frame.
From the drawn geometry of calibration.pdf (the front's fine scales, the back's cross) we
compute what the user reads on the front's scales, build with that reading exactly as
typed, print the backs through the same printer, and check that every back lands behind
its front to 0.05 mm, for both flips. The geometry of a flip (PRINT-SPECS.md): long edge of
a portrait page mirrors columns, short edge mirrors rows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.core.calibration import load_back_offset, parse_offset, save_back_offset
from generator.core.errors import InputError
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import CAL_CROSS_PT, write_calibration, write_home_sheets
from generator.export.cut import export_cut
from pdflines import segments, with_widths

MM = 72 / 25.4
TOL = 0.05 * MM
REPO = Path(__file__).resolve().parents[1]
SHIFTS = [(1.2, -0.7), (-2.0, 0.0), (0.0, 1.5)]  # mm, the back page's own frame
FLIPS = ["long-edge", "short-edge"]


@pytest.fixture(scope="module")
def pack():
    return load_pack(REPO / "card_data" / "boss_fight")


@pytest.fixture(scope="module")
def faces(pack):
    shared = CardShared(pack)
    return pack_faces(pack, shared, copies=False)[:14], shared  # two sheets, the second part full


def texts(page) -> list[tuple[str, float, float]]:
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((text.strip(), tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)
    return found


def fine_scale(front, along_x: bool) -> tuple[float, float]:
    """The fine scale read along x (ticks are vertical lines) or along y: its zero and the
    length of one unit of its numbers, both measured from the drawing (tick pitch 0.5 mm,
    a number every six ticks: checked against the labels)."""
    ticks = {}
    for x1, y1, x2, y2, _w in segments(front):
        if along_x and abs(x1 - x2) < 1e-6:
            ticks.setdefault(round((y1 + y2) / 2, 2), []).append(x1)
        elif not along_x and abs(y1 - y2) < 1e-6:
            ticks.setdefault(round((x1 + x2) / 2, 2), []).append(y1)
    # the fine scale: 25 evenly spaced ticks 0.5 mm apart
    rows = [sorted(v) for v in ticks.values() if len(v) == 25 and abs((max(v) - min(v)) / 24 - 0.5 * MM) < 0.01]
    assert len(rows) == 1, f"expected one fine scale along {'x' if along_x else 'y'}"
    pos = rows[0]
    zero = pos[12]
    labels = {t: (x, y) for t, x, y in texts(front)}
    # the numbers printed at the ends say what a tick is worth: "+6" six units from zero
    assert "+6" in labels and "-6" in labels
    unit = (pos[24] - zero) / 6
    assert abs(unit - MM) < 1e-3  # one unit of the printed numbers is one millimetre
    return zero, unit


def cross(back) -> tuple[float, float]:
    """The centre of the back's cross: where its level and upright arms meet."""
    arms = [s for s in segments(back) if abs(s[4] - CAL_CROSS_PT) < 1e-6]
    xs = [x1 for x1, y1, x2, y2, _ in arms if abs(x1 - x2) < 1e-6]
    ys = [y1 for x1, y1, x2, y2, _ in arms if abs(y1 - y2) < 1e-6]
    assert len(xs) == 1 and len(ys) == 1
    return xs[0], ys[0]


def seen_from_front(x: float, y: float, shift_mm, flip: str, page_w: float, page_h: float):
    """Where a point drawn at (x, y) on the back page is seen from the front: the printer
    moves it by the shift, then the flip mirrors one axis."""
    px, py = x + shift_mm[0] * MM, y + shift_mm[1] * MM
    return (page_w - px, py) if flip == "long-edge" else (px, page_h - py)


def user_reading(calibration_pdf: Path, shift_mm, flip: str) -> tuple[float, float]:
    reader = PdfReader(calibration_pdf)
    front, back = reader.pages
    page_w, page_h = float(front.mediabox.width), float(front.mediabox.height)
    zero_x, unit_x = fine_scale(front, True)
    zero_y, unit_y = fine_scale(front, False)
    bx, by = cross(back)
    sx, sy = seen_from_front(bx, by, shift_mm, flip, page_w, page_h)
    return round((sx - zero_x) / unit_x, 3), round((sy - zero_y) / unit_y, 3)


def card_markers(page) -> dict[str, tuple[float, float]]:
    out = {}
    for label, x, y in texts(page):
        if label.startswith("pnp:face:") or label.startswith("pnp:back:"):
            out[label.split(":")[2]] = (x, y)
    return out


@pytest.mark.parametrize("flip", FLIPS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_page_scales_and_cross_are_centred(pack, tmp_path, flip, paper):
    out = tmp_path / "calibration.pdf"
    write_calibration(pack, out, sheet=paper, duplex=flip)
    # a printer that does not shift reads 0, 0: the cross is drawn where both scales read 0
    assert user_reading(out, (0.0, 0.0), flip) == (0.0, 0.0)
    words = " ".join(t for t, _x, _y in texts(PdfReader(out).pages[0]))
    assert f"pnp build --duplex {flip} --back-offset 1.5,-0.5" in words  # the command, an example filled in
    assert f"pnp calibrate 1.5,-0.5 --duplex {flip}" in words


@pytest.mark.parametrize("flip", FLIPS)
@pytest.mark.parametrize("shift", SHIFTS)
def test_building_with_the_reading_cancels_the_printer(pack, faces, tmp_path, flip, shift):
    calibration = tmp_path / "calibration.pdf"
    write_calibration(pack, calibration, duplex=flip)
    reading = user_reading(calibration, shift, flip)
    # the reading follows the flip: long edge reverses left-right as seen from the front
    expected = (-shift[0], shift[1]) if flip == "long-edge" else (shift[0], -shift[1])
    assert reading == pytest.approx(expected, abs=1e-3)

    group, shared = faces
    cards = tmp_path / "cards.pdf"
    write_home_sheets(pack, group, cards, duplex=flip, back_offset=reading, shared=shared)
    reader = PdfReader(cards)
    w, h = pack.card_size_mm()
    checked = 0
    for n in range(0, len(reader.pages), 2):
        page_w, page_h = float(reader.pages[n].mediabox.width), float(reader.pages[n].mediabox.height)
        fronts, backs = card_markers(reader.pages[n]), card_markers(reader.pages[n + 1])
        assert fronts.keys() == backs.keys()
        for card_id, (fx, fy) in fronts.items():
            bx, by = backs[card_id]  # the back's trim corner on its own page
            # the back's trim rectangle, printed and seen from the front, must cover the front's
            corners = [seen_from_front(bx + dx, by + dy, shift, flip, page_w, page_h)
                       for dx in (0, w * MM) for dy in (0, h * MM)]
            left, bottom = min(c[0] for c in corners), min(c[1] for c in corners)
            assert abs(left - fx) < TOL and abs(bottom - fy) < TOL, (card_id, left - fx, bottom - fy)
            checked += 1
    assert checked == len(group)


def clip_rects(page) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) points of each rectangle the page clips to (a card and its bleed)."""
    ops = [(operands, op) for operands, op, _w in with_widths(page)]
    out = []
    for (operands, op), (_next, following) in zip(ops, ops[1:]):
        if op == b"re" and following in (b"W", b"W*"):
            x, y, w, h = (float(v) for v in operands)
            out.append((x, y, x + w, y + h))
    return out


@pytest.mark.parametrize("machine", ["silhouette", "cricut"])
@pytest.mark.parametrize("flip", FLIPS)
@pytest.mark.parametrize("shift", SHIFTS[:2])
def test_cut_sheet_backs_follow_the_same_contract(pack, faces, tmp_path, machine, flip, shift):
    """`--profile cut`: the same reading cancels the same printer on cut sheets; backs bleed
    2 mm (the gutter between cards painted whole), and the fronts (with the registration
    marks the cutter reads) do not move with the offset."""
    calibration = tmp_path / "calibration.pdf"
    write_calibration(pack, calibration, sheet="letter", duplex=flip)
    reading = user_reading(calibration, shift, flip)
    group, shared = faces
    export_cut(pack, group, tmp_path / "cut", machine, "letter", shared=shared, dxf=False, duplex=flip,
               back_offset=reading)
    export_cut(pack, group, tmp_path / "plain", machine, "letter", shared=shared, dxf=False, duplex=flip)
    reader, plain = PdfReader(tmp_path / "cut" / "sheets.pdf"), PdfReader(tmp_path / "plain" / "sheets.pdf")
    w, h = pack.card_size_mm()
    checked = 0
    for n in range(0, len(reader.pages), 2):
        front, back = reader.pages[n], reader.pages[n + 1]
        # fronts and marks as without an offset; the backs moved
        assert front.get_contents().get_data() == plain.pages[n].get_contents().get_data()
        assert back.get_contents().get_data() != plain.pages[n + 1].get_contents().get_data()
        page_w, page_h = float(front.mediabox.width), float(front.mediabox.height)
        fronts, backs = card_markers(front), card_markers(back)
        assert fronts and fronts.keys() == backs.keys()
        clips = clip_rects(back)
        assert len(clips) == len(backs)
        for card_id, (fx, fy) in fronts.items():
            bx, by = backs[card_id]
            corners = [seen_from_front(bx + dx, by + dy, shift, flip, page_w, page_h)
                       for dx in (0, w * MM) for dy in (0, h * MM)]
            left, bottom = min(c[0] for c in corners), min(c[1] for c in corners)
            assert abs(left - fx) < TOL and abs(bottom - fy) < TOL, (card_id, left - fx, bottom - fy)
            # the outlines 1 and 2 mm outside the back's trim are painted by some back (0.25 mm steps)
            for grow in (1.0, 2.0):
                x0, y0, x1, y1 = bx - grow * MM, by - grow * MM, bx + (w + grow) * MM, by + (h + grow) * MM
                n_x, n_y = int((x1 - x0) / (0.25 * MM)) + 1, int((y1 - y0) / (0.25 * MM)) + 1
                ring = ([(x0 + i * (x1 - x0) / n_x, y) for i in range(n_x + 1) for y in (y0, y1)]
                        + [(x, y0 + j * (y1 - y0) / n_y) for j in range(n_y + 1) for x in (x0, x1)])
                for px, py in ring:
                    assert any(a - 1e-3 <= px <= c + 1e-3 and b - 1e-3 <= py <= d + 1e-3
                               for a, b, c, d in clips), (card_id, grow, px / MM, py / MM)
            checked += 1
        # the outer backs bleed 2 mm past their trim
        for x0, y0, x1, y1 in clips:
            assert x1 - x0 >= w * MM - TOL and y1 - y0 >= h * MM - TOL
        assert min(x0 for x0, *_ in clips) == pytest.approx(min(x for x, _y in backs.values()) - 2 * MM, abs=TOL)
    assert checked == len(group)


@pytest.mark.parametrize("flip", FLIPS)
def test_counter_backs_follow_the_same_contract(pack, tmp_path, flip):
    from generator.render.pieces.document import build_pieces_pdf
    shift = (1.2, -0.7)
    calibration = tmp_path / "calibration.pdf"
    write_calibration(pack, calibration, duplex=flip)
    reading = user_reading(calibration, shift, flip)
    out = tmp_path / "pieces.pdf"
    build_pieces_pdf(pack, out, "a4", duplex=flip, back_offset=reading)
    reader = PdfReader(out)
    checked = 0
    for n, page in enumerate(reader.pages[:-1]):
        found = texts(page)
        if not any(t.startswith("pnp:page:counters:front") for t, _x, _y in found):
            continue
        page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
        fronts = {":".join(t.split(":")[2:4]): (x, y) for t, x, y in found if ":front:" in t and "counter:" in t}
        backs = {":".join(t.split(":")[2:4]): (x, y) for t, x, y in texts(reader.pages[n + 1])
                 if ":back:" in t and "counter:" in t}
        assert fronts and fronts.keys() == backs.keys()
        for key, (fx, fy) in fronts.items():
            sx, sy = seen_from_front(*backs[key], shift, flip, page_w, page_h)  # centres
            assert abs(sx - fx) < TOL and abs(sy - fy) < TOL, key
            checked += 1
    assert checked


def test_saved_calibration_round_trip_per_flip(tmp_path):
    config = tmp_path / "sub" / "calibration.json"
    assert load_back_offset(config) is None
    save_back_offset((1.2, -0.7), "long-edge", config)
    save_back_offset((-2.0, 0.0), "short-edge", config)
    assert load_back_offset(config, "long-edge") == (1.2, -0.7)
    assert load_back_offset(config, "short-edge") == (-2.0, 0.0)
    doc = json.loads(config.read_text())
    assert doc["flips"]["long-edge"]["printer_shift_mm"] == [-1.2, -0.7]
    config.write_text("{not json")
    with pytest.raises(InputError) as err:
        load_back_offset(config)
    assert err.value.problems[0].code == "calibration.file" and str(config) in err.value.problems[0].location.file


@pytest.mark.parametrize("bad", ["1.5", "a,b", "1,2,3", "nan,0", "40,0"])
def test_bad_offsets_are_input_errors(bad):
    with pytest.raises(InputError):
        parse_offset(bad)


def _pnp(*args, env_config: Path):
    import os
    env = dict(os.environ, PNP_CONFIG=str(env_config))
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO, env=env, capture_output=True,
                          text=True)


def test_calibrate_then_build_uses_it_and_back_offset_overrides(tmp_path):
    config = tmp_path / "cfg" / "calibration.json"
    other = tmp_path / "unused.json"  # --config beats $PNP_CONFIG
    done = _pnp("calibrate", "-1.2,0.7", "--duplex", "long-edge", "--config", str(config), env_config=other)
    assert done.returncode == 0, done.stderr
    assert load_back_offset(config, "long-edge") == (-1.2, 0.7) and not other.exists()

    out = tmp_path / "out"
    built = _pnp("build", "card_data/boss_fight", "--only", "cards", "--config", str(config), "-o", str(out), env_config=other)
    assert built.returncode == 0, built.stderr
    assert f"back offset -1.2,0.7 mm (long-edge) from the saved calibration in {config}" in built.stderr
    reader = PdfReader(out / "cards.pdf")
    page_w = float(reader.pages[0].mediabox.width)
    w = 63.5 * MM
    fronts, backs = card_markers(reader.pages[0]), card_markers(reader.pages[1])
    for card_id, (fx, fy) in fronts.items():
        bx, by = backs[card_id]
        # reading (-1.2, 0.7) long edge: backs move -1.2 right and -0.7 up on their own page
        assert abs(bx - (page_w - fx - w - 1.2 * MM)) < TOL and abs(by - (fy - 0.7 * MM)) < TOL

    built = _pnp("build", "card_data/boss_fight", "--only", "cards", "--config", str(config), "--back-offset", "0,0", "-o", str(out),
                 env_config=other)
    assert built.returncode == 0, built.stderr
    assert "from --back-offset, overriding the saved -1.2,0.7" in built.stderr
    reader = PdfReader(out / "cards.pdf")
    fronts, backs = card_markers(reader.pages[0]), card_markers(reader.pages[1])
    for card_id, (fx, fy) in fronts.items():
        assert abs(backs[card_id][0] - (page_w - fx - w)) < TOL and abs(backs[card_id][1] - fy) < TOL

    short = _pnp("build", "card_data/boss_fight", "--only", "cards", "--duplex", "short-edge", "--config", str(config), "-o", str(out),
                 env_config=other)
    assert short.returncode == 0 and "saved calibration" in short.stderr and "is for long-edge" in short.stderr


def test_calibrate_refuses_a_bad_reading(tmp_path):
    config = tmp_path / "calibration.json"
    done = _pnp("calibrate", "1.5", "--config", str(config), env_config=config)
    assert done.returncode == 2 and "offset.syntax" in done.stderr and "Traceback" not in done.stderr
    assert not config.exists()
