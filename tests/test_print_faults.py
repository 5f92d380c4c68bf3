"""Layout faults seen on paper (issue 41 item 6), each read back from the printed PDF: the
rulebook cover's set captions no longer print over each other, a standee's initials no longer
sit on its emblem, and a write-in turn-order chip keeps its whole invitation. (The rich black
of DriveThruCards decks: tests/test_cmyk_text_black.py; the DMG label by the trim:
tests/test_type_size.py; the hidden-card image: tests/test_tts_save.py.)"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.pdfwords import page_words
from generator.pack.load import load_pack
from generator.render.rulebook.book import build_rulebook_pdf

REPO = Path(__file__).resolve().parents[1]
PACKS = ["boss_fight", "battle_bosses", "raid_boss", "tactics", "final_boss"]


def _ink_words(pdf: Path, page_no: int) -> list[tuple[str, tuple]]:
    """The words of a page with the boxes of their glyphs' ink (a font's ascent is no ink: a
    60 pt title's loose box reaches into the line under it)."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        textpage = doc[page_no - 1].get_textpage()
        out, word, box = [], "", None
        for i in range(textpage.count_chars()):
            ch = textpage.get_text_range(i, 1)
            if not ch.strip():
                if word:
                    out.append((word, box))
                word, box = "", None
                continue
            b = textpage.get_charbox(i)
            word += ch
            box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
        if word:
            out.append((word, box))
        return out
    finally:
        doc.close()


def _overlap(a, b, slack: float = 0.3) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


@pytest.mark.parametrize("name", PACKS)
def test_no_two_words_of_the_cover_overlap(tmp_path, name):
    """Raid Boss's eight set names were printed in a row of 21 mm columns and ran into each
    other; each set now has a column of 27 mm and up to two lines, the rows wrapping."""
    path = tmp_path / "rulebook.pdf"
    build_rulebook_pdf(load_pack(REPO / "card_data" / name), path)
    words = [(w, b) for w, b in _ink_words(path, 1) if not w.startswith("pnp:")]
    assert len(words) > 20
    for i, (w1, b1) in enumerate(words):
        for w2, b2 in words[i + 1:]:
            assert not _overlap(b1, b2), f"{w1!r} {b1} overlaps {w2!r} {b2}"
    if name == "raid_boss":  # every set's whole name is there
        text = " ".join(w for w, _ in words)
        for s in load_pack(REPO / "card_data" / name).spec.sets.values():
            assert all(part in text for part in s.name.split()), s.name


@pytest.fixture(scope="module")
def bf_pieces(tmp_path_factory):
    out = tmp_path_factory.mktemp("bf")
    result = CliRunner().invoke(main, ["build", str(REPO / "card_data" / "boss_fight"), "-o", str(out), "--only",
                                       "pieces", "-q"])
    assert result.exit_code == 0, result.output
    return out / "pieces.pdf"


def test_standee_initials_never_sit_on_the_emblem(tmp_path):
    """Battle Bosses' standees drew the initials in white over the emblem ("CS" on a pale
    anchor, 1.2:1); the emblem now stands above the initials, both in the side's ink."""
    out = tmp_path / "bb"
    result = CliRunner().invoke(main, ["build", str(REPO / "card_data" / "battle_bosses"), "-o", str(out),
                                       "--only", "pieces", "-q"])
    assert result.exit_code == 0, result.output
    doc = pdfium.PdfDocument(str(out / "pieces.pdf"))
    checked = 0
    try:
        for n in range(len(doc)):
            page = doc[n]
            textpage = page.get_textpage()
            if "glue to base" not in textpage.get_text_range():
                continue
            forms = [obj.get_bounds() for obj in page.get_objects(max_depth=1) if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM]
            assert len(forms) >= 12  # an emblem on each side of every standee
            for i in range(textpage.count_chars()):
                if not textpage.get_text_range(i, 1).strip():
                    continue
                x0, y0, x1, y1 = textpage.get_charbox(i)
                if y1 - y0 < 8:  # the initials are set large; a name label under the front's art sits beside
                    continue     # the art's background form, whose bounds run past the clip that trims it
                for fx0, fy0, fx1, fy1 in forms:
                    assert not _overlap((x0, y0, x1, y1), (fx0, fy0, fx1, fy1), 0.5), (n + 1, textpage.get_text_range(i, 1))
                checked += 1
    finally:
        doc.close()
    assert checked >= 12  # two or more letters of initials on each of six standees


def test_the_write_in_turn_order_chip_keeps_its_words(bf_pieces):
    """The blank chip printed "Hero Party: write a" (its last word dropped to fit one line beside
    the emblem); it now prints the whole invitation, with no emblem in the way."""
    words = [w for page in page_words(bf_pieces).values() for w, _ in page]
    text = " ".join(words)
    assert text.count("write a name") == 2  # one chip for each side
    assert "Hero Party: write a name" in text and "Boss: write a name" in text
