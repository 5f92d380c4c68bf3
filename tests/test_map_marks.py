"""Alignment crosses on tiled map sheets keep off the text the sheets print (issue 28: on
The Great Hall they were drawn over "BOSS" and "HERO PARTY"): every cross of every sheet of
every pack's maps, on A4 and Letter, against every character PDFium reads on that page."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.pack.load import load_pack
from generator.render.maps.document import build_maps_pdf
from generator.render.maps.page import MARK_ARM_MM
from pdflines import segments

REPO = Path(__file__).resolve().parents[1]
MM = 72 / 25.4
PACKS = sorted(p.name for p in (REPO / "card_data").iterdir() if any((p / "maps").glob("*.yaml")))


def crosses(page) -> list[tuple[float, float]]:
    """Centres of the crosses: a level arm 2 × MARK_ARM_MM long, 0.2 mm wide (points)."""
    out = []
    for x1, y1, x2, y2, width in segments(page):
        if abs(y1 - y2) < 1e-6 and abs(abs(x2 - x1) - 2 * MARK_ARM_MM * MM) < 0.01 and abs(width - 0.2 * MM) < 0.01:
            out.append(((x1 + x2) / 2, y1))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", PACKS)
def test_no_cross_lies_on_text(tmp_path, name, paper):
    pack = load_pack(REPO / "card_data" / name)
    out = tmp_path / "maps.pdf"
    build_maps_pdf(pack, out, paper=paper)
    reader = PdfReader(out)
    doc = pdfium.PdfDocument(str(out))
    checked = 0
    try:
        for n, page in enumerate(reader.pages):
            marks = crosses(page)
            if not marks:
                continue
            text = doc[n].get_textpage()
            boxes = [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())
                     if text.get_text_range(i, 1).strip()]
            arm, half, ring = MARK_ARM_MM * MM, 0.1 * MM, 0.45 * MARK_ARM_MM * MM
            for cx, cy in marks:
                # the cross's ink: its level arm, its upright arm, the circle round its centre
                ink = [(cx - arm, cy - half, cx + arm, cy + half), (cx - half, cy - arm, cx + half, cy + arm),
                       (cx - ring, cy - ring, cx + ring, cy + ring)]
                hits = [ch for ch, (l, b, r, t) in boxes
                        if any(l < x1 and x0 < r and b < y1 and y0 < t for x0, y0, x1, y1 in ink)]
                assert not hits, (name, paper, n + 1, round(cx / MM, 1), round(cy / MM, 1), "".join(hits))
                checked += 1
    finally:
        doc.close()
    if name == "boss_fight":
        assert checked > 0  # The Great Hall and others are tiled: there are crosses to check
