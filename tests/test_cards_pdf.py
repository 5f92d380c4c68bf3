"""Card sheets read back from the PDF: sizes, crop marks, duplex backs, names, fonts,
determinism, print-shop boxes, raster sizes. Geometry per PRINT-SPECS.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.kit import pack_faces
from generator.pack.cardlist import card_order
from generator.pack.load import load_pack
from generator.render.cards.faces import CardFace, CardShared
from generator.render.base.cutguides import GUIDE_WIDTH_PT
from generator.render.cards.sheets import write_gutterfold, write_home_sheets, write_print_shop
from pdflines import segments

MM = 72 / 25.4
TOL = 0.05 * MM  # 0.05 mm in points
PACK = Path("card_data/boss_fight")
POKER = (63.5, 88.9)


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


@pytest.fixture(scope="module")
def shared(pack):
    return CardShared(pack)


@pytest.fixture(scope="module")
def home_pdf(pack, shared, tmp_path_factory):
    out = tmp_path_factory.mktemp("cards") / "cards.pdf"
    write_home_sheets(pack, pack_faces(pack, shared), out, shared=shared)
    return out


def markers(page) -> list[tuple[str, float, float]]:
    """The invisible `pnp:face|back:<id>:<n>` labels the painter puts at each trim corner."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.startswith("pnp:"):
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), x, y))

    page.extract_text(visitor_text=visit)
    return found


def mark_segments(reader, page) -> list[tuple[float, float, float, float]]:
    """Cut guides: the 0.25 pt line segments drawn on the page itself (not inside forms)."""
    return [(x1, y1, x2, y2) for x1, y1, x2, y2, width in segments(page) if abs(width - GUIDE_WIDTH_PT) < 1e-6]


def test_every_card_is_on_a_front_with_its_name(pack, home_pdf):
    reader = PdfReader(home_pdf)
    seen = {}
    for number, page in enumerate(reader.pages):
        text = re.sub(r"\s+", " ", page.extract_text())
        for label, _x, _y in markers(page):
            kind, card_id = label.split(":")[1:3]
            if kind == "face" and card_id in pack.cards:
                seen[card_id] = number
                assert pack.cards[card_id].name in text, f"{card_id} name missing on page {number + 1}"
    assert set(seen) == set(pack.cards)


def test_kit_holds_the_declared_copies(pack, home_pdf):
    reader = PdfReader(home_pdf)
    counts: dict[str, int] = {}
    for page in reader.pages:
        for label, _x, _y in markers(page):
            kind, card_id = label.split(":")[1:3]
            if kind == "face":
                counts[card_id] = counts.get(card_id, 0) + 1
    for card in pack.cards.values():
        assert counts[card.id] == card.copies
    assert counts.get("reference", 0) >= 1


def test_cut_guides_extend_the_trim_lines_at_card_size(home_pdf):
    reader = PdfReader(home_pdf)
    page = reader.pages[0]
    segs = mark_segments(reader, page)
    verticals = sorted({round(x1, 3) for x1, y1, x2, y2 in segs if abs(x1 - x2) < 1e-6})
    horizontals = sorted({round(y1, 3) for x1, y1, x2, y2 in segs if abs(y1 - y2) < 1e-6})
    assert len(verticals) == 6 and len(horizontals) == 6  # 3 × 3 cards, each edge marked
    widths = [verticals[i + 1] - verticals[i] for i in range(0, 6, 2)]
    heights = [horizontals[i + 1] - horizontals[i] for i in range(0, 6, 2)]
    for w in widths:
        assert abs(w - POKER[0] * MM) < TOL
    for h in heights:
        assert abs(h - POKER[1] * MM) < TOL
    # guides run through gutters and margins (issue 15): none enters a card's trim
    page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
    for x1, y1, x2, y2 in segs:
        for i in range(0, 6, 2):
            for j in range(0, 6, 2):
                inside_x = verticals[i] + TOL < max(x1, x2) and min(x1, x2) < verticals[i + 1] - TOL
                inside_y = horizontals[j] + TOL < max(y1, y2) and min(y1, y2) < horizontals[j + 1] - TOL
                assert not (inside_x and inside_y)
    # the grid is centred, so long-edge mirroring is exact (PRINT-SPECS.md)
    assert abs(verticals[0] - (page_w - verticals[-1])) < TOL
    assert abs(horizontals[0] - (page_h - horizontals[-1])) < TOL


def test_markers_sit_on_the_trim_corners(home_pdf):
    reader = PdfReader(home_pdf)
    segs = mark_segments(reader, reader.pages[0])
    verticals = sorted({round(x1, 3) for x1, y1, x2, y2 in segs if abs(x1 - x2) < 1e-6})
    xs = sorted({round(x, 3) for _l, x, _y in markers(reader.pages[0])})
    for x in xs:
        assert any(abs(x - v) < TOL for v in verticals[0::2])


def test_backs_sit_exactly_behind_their_fronts_long_edge(home_pdf):
    reader = PdfReader(home_pdf)
    page_w = float(reader.pages[0].mediabox.width)
    for n in range(0, len(reader.pages), 2):
        fronts = [(l.split(":")[2], x, y) for l, x, y in markers(reader.pages[n])]
        backs = [(l.split(":")[2], x, y) for l, x, y in markers(reader.pages[n + 1])]
        assert len(backs) == len(fronts)
        for (fid, fx, fy), (bid, bx, by) in zip(fronts, backs):
            assert fid == bid
            assert abs(bx - (page_w - fx - POKER[0] * MM)) < TOL
            assert abs(by - fy) < TOL


def test_short_edge_and_offset(pack, shared, tmp_path):
    faces = pack_faces(pack, shared, copies=False)[:9]
    out = tmp_path / "short.pdf"
    write_home_sheets(pack, faces, out, duplex="short-edge", back_offset=(1.0, -0.5), shared=shared)
    reader = PdfReader(out)
    page_h = float(reader.pages[0].mediabox.height)
    fronts = markers(reader.pages[0])
    backs = markers(reader.pages[1])
    for (_, fx, fy), (_, bx, by) in zip(fronts, backs):
        # the reading (1.0, -0.5) as typed; short edge moves backs (-1.0, -0.5) on their page
        assert abs(bx - (fx - 1.0 * MM)) < TOL
        assert abs(by - (page_h - fy - POKER[1] * MM - 0.5 * MM)) < TOL


def test_every_font_is_embedded(home_pdf):
    reader = PdfReader(home_pdf)
    fonts = {}

    def collect(resources):
        if resources is None:
            return
        resources = resources.get_object()
        for _name, ref in (resources.get("/Font") or {}).items():
            font = ref.get_object()
            fonts[font["/BaseFont"]] = font
        for _name, ref in (resources.get("/XObject") or {}).items():
            xobj = ref.get_object()
            collect(xobj.get("/Resources"))

    for page in reader.pages[:4]:
        collect(page.get("/Resources"))
    assert fonts
    for base, font in fonts.items():
        descendants = font.get("/DescendantFonts")
        descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
        assert descriptor is not None, base
        descriptor = descriptor.get_object()
        assert any(k in descriptor for k in ("/FontFile2", "/FontFile", "/FontFile3")), f"{base} not embedded"


def test_two_builds_are_byte_identical(pack, tmp_path):
    faces_a = pack_faces(pack, CardShared(pack), copies=False)[:20]
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_home_sheets(pack, faces_a, a, shared=CardShared(pack))
    write_home_sheets(pack, pack_faces(pack, CardShared(pack), copies=False)[:20], b, shared=CardShared(pack))
    assert a.read_bytes() == b.read_bytes()


def test_print_shop_pages_carry_trim_and_bleed_boxes(pack, shared, tmp_path):
    faces = pack_faces(pack, shared, copies=False)[:3]
    out = tmp_path / "shop.pdf"
    write_print_shop(pack, faces, out, bleed_mm=3.0, shared=shared)
    reader = PdfReader(out)
    assert len(reader.pages) == 6  # front, back per card
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        assert abs(media[2] - (POKER[0] + 6) * MM) < TOL and abs(media[3] - (POKER[1] + 6) * MM) < TOL
        assert abs(trim[0] - 3 * MM) < TOL and abs(trim[2] - trim[0] - POKER[0] * MM) < TOL
        assert abs(trim[3] - trim[1] - POKER[1] * MM) < TOL
        assert bleed == media
        assert not mark_segments(reader, page)  # print shops want no crop marks


def test_gutterfold_backs_mirror_about_the_fold(pack, shared, tmp_path):
    faces = pack_faces(pack, shared, copies=False)[:4]
    out = tmp_path / "fold.pdf"
    write_gutterfold(pack, faces, out, shared=shared)
    page = PdfReader(out).pages[0]
    page_w = float(page.mediabox.width)
    found = markers(page)
    fronts = [(l.split(":")[2], x, y) for l, x, y in found if ":face:" in l]
    backs = {l.split(":")[2]: (x, y) for l, x, y in found if ":back:" in l}
    assert fronts
    for card_id, fx, fy in fronts:
        bx, by = backs[card_id]
        assert fx + POKER[0] * MM <= page_w / 2 <= bx
        assert abs(bx - (page_w - fx - POKER[0] * MM)) < TOL and abs(by - fy) < TOL


def test_text_that_cannot_fit_is_an_error_naming_the_card(pack, tmp_path):
    import dataclasses
    card = card_order(pack)[0]
    long = dataclasses.replace(card, text="Very long rules text that goes on. " * 60)
    pack2 = dataclasses.replace(pack, cards={card.id: long})
    shared = CardShared(pack2)
    face = CardFace(long, False, 1, 1, shared.layout_for(long.type).name, long.set, long.type)
    with pytest.raises(InputError) as err:
        write_home_sheets(pack2, [face], tmp_path / "x.pdf", shared=shared)
    problem = err.value.problems[0]
    assert problem.code == "card.text-overflow"
    assert card.id in problem.message and problem.location.line > 0
    assert not (tmp_path / "x.pdf").exists()  # nothing half-written


def test_png_and_tts_sizes(pack, shared, tmp_path):
    from PIL import Image

    from generator.export.raster import export_pngs, export_tts
    faces = pack_faces(pack, shared, copies=False)[:3]
    for size, px in (("mpc", (822, 1122)), ("tgc", (825, 1125))):
        folder = tmp_path / size
        export_pngs(pack, faces, folder, size, shared)
        pngs = sorted(folder.glob("*.png"))
        assert len(pngs) == 4  # three fronts, one shared back
        for png in pngs:
            with Image.open(png) as img:
                assert img.size == px
    export_tts(pack, faces, tmp_path / "tts", shared)
    sheets = [p for p in (tmp_path / "tts").glob("*.png") if not p.name.startswith("back-")]
    assert sheets
    for sheet in sheets:
        with Image.open(sheet) as img:
            assert img.size[0] <= 4096 and img.size[1] <= 4096
            assert img.size[0] % 409 == 0 and img.size[1] % 573 == 0
