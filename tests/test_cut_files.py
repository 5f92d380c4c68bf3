"""Cutting-machine output: the SVG (and DXF) outlines read back and compared with each card's
trim on the printed sheet (the clip rectangle the card is drawn in, less the cut bleed) to
0.05 mm; Silhouette's registration marks where Silhouette Studio looks; no crop marks."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import ezdxf
import pikepdf
import pytest
from PIL import Image

from generator.export.cut import CRICUT_AREA_MM, CUT_BLEED_MM, SILHOUETTE, export_cut
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared

REPO = Path(__file__).resolve().parents[1]
PT_MM = 25.4 / 72
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def pack():
    return load_pack(REPO / "card_data" / "boss_fight")


def _svg_outlines(path: Path) -> list[dict]:
    """Each path's bounding box and corner radius, parsed from its data."""
    root = ElementTree.parse(path).getroot()
    assert root.get("viewBox").split()[:2] == ["0", "0"]
    out = []
    for p in root.iter(f"{SVG}path"):
        d = p.get("d")
        tokens = re.findall(r"[MHVAZ]|-?\d+(?:\.\d+)?", d)
        xs, ys, radii, arcs, i, cmd = [], [], set(), 0, 0, None
        while i < len(tokens):  # M x,y  H x  V y  A rx,ry rot large sweep x,y  Z
            if tokens[i] in "MHVAZ":
                cmd, i = tokens[i], i + 1
                continue
            if cmd == "M":
                xs.append(float(tokens[i]))
                ys.append(float(tokens[i + 1]))
                i += 2
            elif cmd == "H":
                xs.append(float(tokens[i]))
                i += 1
            elif cmd == "V":
                ys.append(float(tokens[i]))
                i += 1
            elif cmd == "A":
                radii.add(float(tokens[i]))
                arcs += 1
                xs.append(float(tokens[i + 5]))
                ys.append(float(tokens[i + 6]))
                i += 7
            else:
                raise AssertionError(f"unexpected {tokens[i]} in {d}")
        out.append({"id": p.get("id"), "x0": min(xs), "x1": max(xs), "y0": min(ys), "y1": max(ys),
                    "radii": radii, "arcs": arcs})
    return out


def _card_clips(pdf_path: Path, page_index: int) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) mm from the top-left of each card's clip rectangle on a page."""
    with pikepdf.open(pdf_path) as pdf:
        page = pdf.pages[page_index]
        h = float(page.MediaBox[3]) * PT_MM
        ops = list(pikepdf.parse_content_stream(page))
        rects = []
        for i, inst in enumerate(ops[:-1]):
            if str(inst.operator) == "re" and str(ops[i + 1].operator).startswith("W"):
                x, y, w, hh = (float(v) * PT_MM for v in inst.operands)
                rects.append((x, h - y - hh, x + w, h - y))
    return rects


@pytest.mark.parametrize("machine,paper", [("silhouette", "letter"), ("silhouette", "a4"), ("cricut", "letter")])
def test_svg_outlines_match_the_trim(tmp_path, pack, machine, paper):
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:8]
    info = export_cut(pack, faces, tmp_path / "cut", machine, paper, shared=shared)
    assert info["cuts"] == 8
    svgs = sorted((tmp_path / "cut").glob("sheet-*.svg"))
    assert len(svgs) == info["sheets"]
    total = 0
    # Cricut's files cover Design Space's Print Then Cut area, centred on the page
    page_w, page_h = (215.9, 279.4) if paper == "letter" else (210.0, 297.0)
    ox, oy = ((page_w - CRICUT_AREA_MM[0]) / 2, (page_h - CRICUT_AREA_MM[1]) / 2) if machine == "cricut" else (0, 0)
    for n, svg in enumerate(svgs):
        outlines = [dict(o, x0=o["x0"] + ox, x1=o["x1"] + ox, y0=o["y0"] + oy, y1=o["y1"] + oy)
                    for o in _svg_outlines(svg)]
        clips = _card_clips(tmp_path / "cut" / "sheets.pdf", 2 * n)  # fronts are the even pages
        assert len(outlines) == len(clips)
        if machine == "cricut":
            view = ElementTree.parse(svg).getroot().get("viewBox").split()
            assert [float(v) for v in view[2:]] == pytest.approx(list(CRICUT_AREA_MM), abs=0.01)
            with Image.open(svg.with_suffix(".png")) as img:  # the same area at 300 dpi
                assert img.size == (2025, 2775)
        for o, (x0, y0, x1, y1) in zip(outlines, clips):
            b = CUT_BLEED_MM
            # outer cards bleed CUT_BLEED_MM; inner edges bleed half the gutter, also CUT_BLEED_MM here
            assert o["x0"] == pytest.approx(x0 + b, abs=0.05) and o["x1"] == pytest.approx(x1 - b, abs=0.05)
            assert o["y0"] == pytest.approx(y0 + b, abs=0.05) and o["y1"] == pytest.approx(y1 - b, abs=0.05)
            assert o["x1"] - o["x0"] == pytest.approx(63.5, abs=0.05)
            assert o["y1"] - o["y0"] == pytest.approx(88.9, abs=0.05)
            assert o["radii"] == {3.0} and o["arcs"] == 4  # poker: 3 mm rounded corners
            total += 1
        if machine == "cricut":  # everything inside Design Space's Print Then Cut area, centred on the page
            w, h = 215.9, 279.4
            ax, ay = (w - CRICUT_AREA_MM[0]) / 2, (h - CRICUT_AREA_MM[1]) / 2
            assert all(ax - 1e-6 <= x0 and x1 <= w - ax + 1e-6 and ay - 1e-6 <= y0 and y1 <= h - ay + 1e-6
                       for x0, y0, x1, y1 in clips)
    assert total == 8


def test_inset_moves_every_cut_inside_the_trim(tmp_path, pack):
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:2]
    export_cut(pack, faces, tmp_path / "a", "silhouette", "a4", 0.0, shared)
    export_cut(pack, faces, tmp_path / "b", "silhouette", "a4", 0.5, shared)
    for plain, inset in zip(_svg_outlines(tmp_path / "a" / "sheet-01.svg"), _svg_outlines(tmp_path / "b" / "sheet-01.svg")):
        assert inset["x0"] == pytest.approx(plain["x0"] + 0.5, abs=0.01)
        assert inset["y1"] == pytest.approx(plain["y1"] - 0.5, abs=0.01)
        assert inset["radii"] == {2.5}


@pytest.mark.parametrize("machine,paper", [("silhouette", "letter"), ("cricut", "a4")])
def test_dxf_vertices_are_the_printed_trims(tmp_path, pack, machine, paper):
    """Our DXF read back with ezdxf's reader: one closed POLYLINE per card, in mm, each vertex
    within 0.05 mm of the printed trim's rounded rectangle (the clip rectangle on sheets.pdf
    less the cut bleed, y up), quarter-circle bulges where the SVG has its arcs."""
    import math
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:10]
    info = export_cut(pack, faces, tmp_path / "cut", machine, paper, shared=shared)
    page_w, page_h = (215.9, 279.4) if paper == "letter" else (210.0, 297.0)
    ox, oy = ((page_w - CRICUT_AREA_MM[0]) / 2, (page_h - CRICUT_AREA_MM[1]) / 2) if machine == "cricut" else (0, 0)
    file_h = CRICUT_AREA_MM[1] if machine == "cricut" else page_h
    q = math.tan(math.pi / 8)
    checked = 0
    for n in range(info["sheets"]):
        doc = ezdxf.readfile(tmp_path / "cut" / f"sheet-{n + 1:02d}.dxf")
        assert doc.units == ezdxf.units.MM and not doc.audit().has_errors
        polys = list(doc.modelspace().query("POLYLINE"))
        assert len(doc.modelspace()) == len(polys)  # nothing but the outlines
        clips = _card_clips(tmp_path / "cut" / "sheets.pdf", 2 * n)
        svg = _svg_outlines(tmp_path / "cut" / f"sheet-{n + 1:02d}.svg")
        assert len(polys) == len(clips) == len(svg)
        for poly, (x0, y0, x1, y1), o in zip(polys, clips, svg):
            assert poly.is_closed and poly.dxf.layer == "CUT"
            got = [(v.dxf.location.x, v.dxf.location.y, v.dxf.bulge) for v in poly.vertices]
            b, r = CUT_BLEED_MM, 3.0
            x, w = x0 + b - ox, (x1 - b) - (x0 + b)
            h = (y1 - b) - (y0 + b)
            y = file_h - (y1 - b - oy)  # bottom edge in the file, y up
            want = [(x + r, y, 0), (x + w - r, y, q), (x + w, y + r, 0), (x + w, y + h - r, q),
                    (x + w - r, y + h, 0), (x + r, y + h, q), (x, y + h - r, 0), (x, y + r, q)]
            assert len(got) == 8 and o["arcs"] == 4
            for (gx, gy, gb), (wx, wy, wb) in zip(got, want):
                assert gx == pytest.approx(wx, abs=0.05) and gy == pytest.approx(wy, abs=0.05)
                assert gb == pytest.approx(wb, abs=1e-9)
            checked += 1
    assert checked == 10


def test_silhouette_marks_and_no_crop_marks(tmp_path, pack):
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:1]
    export_cut(pack, faces, tmp_path / "cut", "silhouette", "letter", shared=shared)
    with pikepdf.open(tmp_path / "cut" / "sheets.pdf") as pdf:
        page = pdf.pages[0]
        h = float(page.MediaBox[3]) * PT_MM
        w = float(page.MediaBox[2]) * PT_MM
        ops = list(pikepdf.parse_content_stream(page))
        filled = [tuple(float(v) * PT_MM for v in ops[i].operands) for i in range(len(ops) - 1)
                  if str(ops[i].operator) == "re" and str(ops[i + 1].operator) == "f"]
    i, L, t, s = SILHOUETTE.inset, SILHOUETTE.length, SILHOUETTE.thickness, SILHOUETTE.square
    expect = [(i, h - i - s, s, s),                     # filled square, top left (PDF y up)
              (w - i - L, h - i - t, L, t), (w - i - t, h - i - L, t, L),
              (i, i, L, t), (i, i, t, L)]
    marks = filled[-5:]
    for got, want in zip(marks, expect):
        assert got == pytest.approx(want, abs=0.05)
    # no crop marks: rendered, the page is white everywhere except the card and the five marks
    import numpy as np
    import pypdfium2 as pdfium
    clips = _card_clips(tmp_path / "cut" / "sheets.pdf", 0)
    assert len(clips) == 1
    dpi = 50
    doc = pdfium.PdfDocument(str(tmp_path / "cut" / "sheets.pdf"))
    img = np.asarray(doc[0].render(scale=dpi / 72).to_pil().convert("L"))
    doc.close()
    ink = img < 240
    px = dpi / 25.4
    keep = np.zeros_like(ink)
    for x0, y0, x1, y1 in clips + [(x, h - y - hh, x + ww, h - y) for x, y, ww, hh in expect]:
        keep[int((y0 - 1) * px):int((y1 + 1) * px) + 1, int((x0 - 1) * px):int((x1 + 1) * px) + 1] = True
    assert ink[keep].any()
    assert not ink[~keep].any(), "something besides the card and the registration marks was printed"


def test_cut_files_are_reproducible(tmp_path, pack):
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:2]
    for name in ("a", "b"):
        export_cut(pack, faces, tmp_path / name, "cricut", "letter", shared=shared)
    for f in ("sheets.pdf", "sheet-01.svg", "sheet-01.dxf"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def _path_bbox(d: str) -> tuple[float, float, float, float]:
    pts = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[\d.]+,-?[\d.]+", d)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def test_counter_outlines_match_the_printed_counters(tmp_path, pack):
    """Every counter on pieces.pdf's first counter page has a cut outline of its size, centred
    where the page's marker says the counter is."""
    import subprocess

    from generator.render.pieces.draw import extent
    shared = CardShared(pack)
    info = export_cut(pack, pack_faces(pack, shared, copies=False)[:1], tmp_path / "cut", "silhouette", "a4",
                      shared=shared, pieces=True)
    assert info["piece cut files"] >= 2
    page = 2  # page 1 is the contents page
    text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox",
                           str(tmp_path / "cut" / "pieces.pdf"), "-"], capture_output=True, text=True).stdout
    markers = [(m.group(5), float(m.group(1)) * PT_MM, float(m.group(4)) * PT_MM)
               for m in re.finditer(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                                    r'(pnp:counter:[^<]+:front:[^<]+)<', text)]
    assert len(markers) > 10
    svg = ElementTree.parse(tmp_path / "cut" / f"pieces-p{page:02d}.svg").getroot()
    boxes = [_path_bbox(p.get("d")) for p in svg.iter(f"{SVG}path")]
    orientation = pack.spec.pieces.orientation if getattr(pack.spec.pieces, "orientation", None) else None
    matched = 0
    for label, x, y_bottom in markers:
        *_, shape, size = label.split(":")
        size = float(size)
        box = min(boxes, key=lambda b: abs((b[0] + b[2]) / 2 - x) + abs((b[1] + b[3]) / 2 - y_bottom))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        assert cx == pytest.approx(x, abs=0.05)   # the marker's text starts exactly at the centre
        assert cy == pytest.approx(y_bottom, abs=0.5)  # its box's bottom is the baseline plus the descent
        w, h = box[2] - box[0], box[3] - box[1]
        if shape == "round":
            assert (w, h) == (pytest.approx(size, abs=0.05), pytest.approx(size, abs=0.05))
        elif shape == "hex":
            ew, eh = extent("hex", orientation or ("flat" if w > h else "pointy"), size)
            assert (w, h) == (pytest.approx(ew, abs=0.05), pytest.approx(eh, abs=0.05))
        matched += 1
    assert matched == len(markers)


def test_corner_radius_comes_from_the_card_type(tmp_path):
    from generator.pack.scaffold import create_pack
    root = create_pack("roundy", tmp_path)
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("    kit_copies: 2\n",
                                                            "    kit_copies: 2\n    corner_radius: 5.5\n"),
                    encoding="utf-8")
    pack = load_pack(root)
    assert pack.spec.card_types["unit"].corner_radius == 5.5
    shared = CardShared(pack)
    export_cut(pack, pack_faces(pack, shared, copies=False), tmp_path / "cut", "silhouette", "a4", shared=shared)
    outlines = {o["id"].split("-", 2)[2]: o for o in _svg_outlines(tmp_path / "cut" / "sheet-01.svg")}
    assert outlines["first-unit"]["radii"] == {5.5} and outlines["first-unit"]["arcs"] == 4
    assert all(o["radii"] == {3.0} for k, o in outlines.items() if k != "first-unit")  # other types: 3 mm
    bad = game.read_text(encoding="utf-8").replace("corner_radius: 5.5", "corner_radius: 40")
    game.write_text(bad, encoding="utf-8")
    from generator.core.errors import InputError
    with pytest.raises(InputError) as exc:
        load_pack(root)
    assert "corner_radius" in str(exc.value.problems[0].location) or "corner_radius" in exc.value.problems[0].message
