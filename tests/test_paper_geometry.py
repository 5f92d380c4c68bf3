"""What reaches the paper at home (issue 15): every cut line has a guide printed inside a
5 mm margin (home printers leave 3-5 mm unprinted, PRINT-SPECS.md), at least 2 mm of bleed
round every card, the footer clear of every card's bleed, and as many cards a page as fit.
Everything is read back from the PDFs: trims from the cards' corner markers, bleed from the
clip rectangles, guides from the 0.25 pt lines, the footer from pdftotext's word boxes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from pdflines import segments, with_widths

from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_gutterfold, write_home_sheets
from generator.render.base.cutguides import GUIDE_WIDTH_PT, HALO_WIDTH_PT

MM = 72 / 25.4
TOL = 0.05 * MM
REPO = Path(__file__).resolve().parents[1]
MARGIN = 5.0  # mm, PRINT-SPECS.md: marks must stay inside what home printers print
MIN_BLEED = 2.0  # mm
GUTTER = 4.0  # mm between cards, A4 and Letter alike
FOLD = 4.0  # mm, gutterfold: the gap between a front and its back across the fold
PACKS = ["boss_fight", "raid_boss", "battle_bosses"]  # poker, tarot and wide cards, a 180 x 120 dashboard
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def most_that_fit(length: float, card: float, gap: float = GUTTER) -> int:
    n = 1
    while (n + 1) * card + n * gap <= length + 1e-6:
        n += 1
    return n


def page_ops(page) -> dict:
    """Lines (with width), clip rectangles and invisible markers of one page."""
    clips, last_rect = [], None
    for operands, op, _width in with_widths(page):
        if op == b"re":
            last_rect = tuple(float(v) for v in operands)
        elif op in (b"W", b"W*") and last_rect is not None:
            x, y, w, h = last_rect
            clips.append((x, y, x + w, y + h))
            last_rect = None
    markers = []

    def visit(text, cm, tm, font, size):
        if text.startswith("pnp:face:") or text.startswith("pnp:back:"):
            markers.append((text.strip(), tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)
    return {"lines": segments(page), "clips": clips, "markers": markers}


def trims(ops, sizes: dict) -> list[tuple[float, float, float, float]]:
    out = []
    for label, x, y in ops["markers"]:
        w, h = sizes[label.split(":")[2]]
        out.append((x, y, x + w * MM, y + h * MM))
    return out


def footer_boxes(pdf: Path, page_number: int) -> list[tuple[float, float, float, float]]:
    """Word boxes (PDF points, y up) of the footer line: the words on the line of `sheet`
    (or `gutterfold`), the footer's own words."""
    html = subprocess.run(["pdftotext", "-bbox", "-f", str(page_number), "-l", str(page_number), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    height = float(re.search(r'<page width="[\d.]+" height="([\d.]+)"', html).group(1))
    words = [(float(a), height - float(d), float(c), height - float(b), word)
             for a, b, c, d, word in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                                                r'yMax="([\d.]+)">([^<]*)</word>', html)]
    lines = {(round(w[1], 1), round(w[3], 1)) for w in words if w[4] in ("sheet", "gutterfold")}
    assert len(lines) == 1, "expected one footer line"
    return [w[:4] for w in words if (round(w[1], 1), round(w[3], 1)) in lines]


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_sheet(pdf: Path, sizes: dict, expect_per_page: int | None = None, fold: bool = False) -> dict:
    reader = PdfReader(pdf)
    stats = {"min_guide_margin_mm": 99.0, "min_bleed_mm": 99.0, "min_trim_margin_mm": 99.0, "cut_lines": 0,
             "per_page": []}
    for number, page in enumerate(reader.pages, 1):
        W, H = float(page.mediabox.width), float(page.mediabox.height)
        ops = page_ops(page)
        cards = trims(ops, sizes)
        assert cards, f"{pdf.name} page {number}: no cards"
        stats["per_page"].append(len(cards))
        guides = [s for s in ops["lines"] if abs(s[4] - GUIDE_WIDTH_PT) < 1e-6]
        halos = [s for s in ops["lines"] if abs(s[4] - HALO_WIDTH_PT) < 1e-6]
        # every guide (and its halo) prints: inside the 5 mm margin
        for x1, y1, x2, y2, _w in guides + halos:
            edge = min(x1, x2, W - x1, W - x2, y1, y2, H - y1, H - y2) / MM
            stats["min_guide_margin_mm"] = min(stats["min_guide_margin_mm"], edge)
            assert edge >= MARGIN - 1e-3, f"{pdf.name} page {number}: a guide {edge:.2f} mm from the edge"
            for t in cards:  # and never enters a card's trim
                assert not overlaps((min(x1, x2), min(y1, y2), max(x1, x2) + 1e-9, max(y1, y2) + 1e-9),
                                    (t[0] + TOL, t[1] + TOL, t[2] - TOL, t[3] - TOL)), f"{pdf.name} p{number}"
        # every cut line (each trim edge) has at least one guide on it
        for x in {round(t[0], 2) for t in cards} | {round(t[2], 2) for t in cards}:
            assert any(abs(g[0] - x) < TOL and abs(g[2] - x) < TOL and abs(g[1] - g[3]) >= 1 * MM for g in guides), \
                f"{pdf.name} page {number}: no guide on the cut line x = {x / MM:.2f} mm"
            stats["cut_lines"] += 1
        for y in {round(t[1], 2) for t in cards} | {round(t[3], 2) for t in cards}:
            assert any(abs(g[1] - y) < TOL and abs(g[3] - y) < TOL and abs(g[0] - g[2]) >= 1 * MM for g in guides), \
                f"{pdf.name} page {number}: no guide on the cut line y = {y / MM:.2f} mm"
            stats["cut_lines"] += 1
        # every trim inside the printable margin; bleed (the clip round each card) >= 2 mm a side
        for t in cards:
            stats["min_trim_margin_mm"] = min(stats["min_trim_margin_mm"], min(t[0], t[1], W - t[2], H - t[3]) / MM)
            assert min(t[0], t[1], W - t[2], H - t[3]) >= MARGIN * MM - TOL
            clip = next(c for c in ops["clips"] if c[0] <= t[0] + TOL and c[1] <= t[1] + TOL
                        and c[2] >= t[2] - TOL and c[3] >= t[3] - TOL)
            bleed = min(t[0] - clip[0], t[1] - clip[1], clip[2] - t[2], clip[3] - t[3]) / MM
            stats["min_bleed_mm"] = min(stats["min_bleed_mm"], bleed)
            assert bleed >= MIN_BLEED - 0.01, f"{pdf.name} page {number}: {bleed:.2f} mm bleed"
        # the footer: inside the margin, off every card's bleed
        bleeds = [c for c in ops["clips"] if any(c[0] <= t[0] + TOL and c[2] >= t[2] - TOL
                                                  and c[1] <= t[1] + TOL and c[3] >= t[3] - TOL for t in cards)]
        words = footer_boxes(pdf, number)
        assert words, f"{pdf.name} page {number}: no footer"
        for box in words:
            assert min(box[0], box[1], W - box[2], H - box[3]) >= MARGIN * MM - TOL
            assert not any(overlaps(box, b) for b in bleeds), f"{pdf.name} page {number}: footer on a card's bleed"
    if expect_per_page is not None:
        assert max(stats["per_page"]) == expect_per_page
    return stats


@pytest.fixture(scope="module")
def packs():
    out = {}
    for name in PACKS:
        pack = load_pack(REPO / "card_data" / name)
        shared = CardShared(pack)
        faces = pack_faces(pack, shared, copies=False)
        by_size: dict = {}
        for face in faces:
            by_size.setdefault(pack.card_size_mm(face.type_id), []).append(face)
        sizes = {(f.card.id if f.card else f.layout): pack.card_size_mm(f.type_id) for f in faces}
        out[name] = (pack, shared, by_size, sizes)
    return out


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", PACKS)
def test_home_sheets_guides_bleed_footer_and_cards_per_page(packs, tmp_path, paper, name):
    pack, shared, by_size, sizes = packs[name]
    pw, ph = PAPERS[paper]
    for (w, h), group in by_size.items():
        best = most_that_fit(pw - 2 * MARGIN, w) * most_that_fit(ph - 2 * MARGIN, h)
        out = tmp_path / f"{w}x{h}.pdf"
        info = write_home_sheets(pack, group[:best + 2], out, sheet=paper, shared=shared)
        assert info["per_page"] == best
        check_sheet(out, sizes, expect_per_page=min(best, len(group)))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_guides_bleed_footer_and_cards_per_page(packs, tmp_path, paper):
    pack, shared, by_size, sizes = packs["boss_fight"]
    group = by_size[(63.5, 88.9)]
    ph, pw = PAPERS[paper]  # landscape
    best = most_that_fit(pw / 2 - FOLD / 2 - MARGIN, 63.5) * most_that_fit(ph - 2 * MARGIN, 88.9)
    assert best == 4  # 2 x 2 fronts and their backs, A4 and Letter alike
    out = tmp_path / "fold.pdf"
    info = write_gutterfold(pack, group[:9], out, sheet=f"gutterfold-{paper}", shared=shared)
    assert info["per_page"] == best
    stats = check_sheet(out, sizes)
    assert max(stats["per_page"]) == 2 * best  # each card twice: front and back
    # fronts and backs meet at the fold with their bleed: 4 mm between the trims
    ops = page_ops(PdfReader(out).pages[0])
    W = float(PdfReader(out).pages[0].mediabox.width)
    inner = [t for t in trims(ops, sizes) if abs(t[2] - (W / 2 - FOLD / 2 * MM)) < TOL]
    assert inner and all(abs((W / 2 - t[2]) / MM - FOLD / 2) < 0.05 for t in inner)


def test_pieces_cut_lines_print_inside_the_margin(tmp_path):
    """Pieces pages: the cut outlines are themselves the guides; all of them print."""
    from generator.render.pieces.document import build_pieces_pdf
    from generator.render.pieces.draw import CUT_WIDTH_PT
    pack = load_pack(REPO / "card_data" / "boss_fight")
    for paper in ("a4", "letter"):
        out = tmp_path / f"pieces-{paper}.pdf"
        build_pieces_pdf(pack, out, paper)
        reader = PdfReader(out)
        cut_points = 0
        for page in reader.pages:
            W, H = float(page.mediabox.width), float(page.mediabox.height)
            points = []
            for operands, op, width in with_widths(page):
                if op in (b"m", b"l", b"c") and abs(width - CUT_WIDTH_PT) < 1e-6:
                    vals = [float(v) for v in operands]
                    points += list(zip(vals[0::2], vals[1::2]))
            for x, y in points:
                assert min(x, y, W - x, H - y) >= MARGIN * MM - TOL, f"{paper}: a cut line at ({x / MM:.1f}, {y / MM:.1f}) mm"
            cut_points += len(points)
        assert cut_points > 100
