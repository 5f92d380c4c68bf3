"""CMYK conversion of text (export/cmyk.py): text in a near-neutral colour prints in black ink
alone, shapes in the same colour keep their tint, colours that read as colours keep their
inks, and a card kit converted for DriveThruCards draws no rich-black warning of its own."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.export.cmyk import CmykConverter, convert_pdf
from generator.preflight.pdfcheck import check_pdf

WARM_GREY = (90 / 255, 82 / 255, 70 / 255)  # the templates' type-line grey (CIELAB chroma about 8)
DEEP_RED = (122 / 255, 31 / 255, 31 / 255)  # a keyword colour (chroma about 47)


def _page(path: Path) -> None:
    c = Canvas(str(path), pagesize=(200, 200), pageCompression=0)
    c.setFillColorRGB(*WARM_GREY)
    c.rect(10, 10, 50, 20, stroke=0, fill=1)  # a shape before the text
    c.setFont("Helvetica", 8)
    c.drawString(10, 100, "warm grey text")
    c.rect(70, 10, 50, 20, stroke=0, fill=1)  # a shape after it, same fill in force
    c.setFillColorRGB(*DEEP_RED)
    c.drawString(10, 120, "deep red text")
    c.saveState()
    c.setFillColorRGB(*WARM_GREY)
    c.restoreState()  # back to red: the grey inside q/Q must not decide the next text's ink
    c.drawString(10, 140, "red again")
    c.showPage()
    c.save()


def _fills(path: Path) -> list[tuple[str, tuple]]:
    """(what was painted, the CMYK fill in force) in drawing order."""
    out, fill, saved = [], None, []
    with pikepdf.open(path) as pdf:
        for inst in pikepdf.parse_content_stream(pdf.pages[0]):
            op = str(inst.operator)
            if op == "q":
                saved.append(fill)
            elif op == "Q":
                fill = saved.pop()
            elif op == "k":
                fill = tuple(round(float(v), 4) for v in inst.operands)
            elif op in ("Tj", "TJ"):
                out.append(("text", fill))
            elif op in ("f", "re f", "B", "f*"):
                out.append(("shape", fill))
    return out


def test_near_neutral_text_is_black_ink_alone_and_shapes_keep_their_tint(tmp_path):
    src, dst = tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf"
    _page(src)
    conv = CmykConverter()
    convert_pdf(src, dst, conv)
    tinted, red = conv.rgb(*WARM_GREY), conv.rgb(*DEEP_RED)
    k_only = conv.text_black(*WARM_GREY)
    assert k_only[:3] == (0.0, 0.0, 0.0) and 0.7 < k_only[3] < 0.9 and min(tinted[:3]) > 0.1
    assert conv.text_black(*DEEP_RED) is None and conv.text_black(0.2, 0.2, 0.2) is None  # a colour; exact grey is K already
    assert _fills(dst) == [("shape", tinted), ("text", k_only), ("shape", tinted), ("text", red), ("text", red)]
    assert not [f for f in check_pdf(dst, "dtc") if f.rule == "pdf.rich-black"]


def test_a_coloured_dark_grey_that_would_print_rich_is_black_ink_alone():
    """#6b604b (Raid Boss's captions, chroma above the neutral limit) converts to a rich black:
    as text it prints in K alone, at the same lightness; as a shape it keeps its inks."""
    from generator.export.cmyk import is_rich_black
    conv = CmykConverter()
    dark = (0x6b / 255, 0x60 / 255, 0x4b / 255)
    assert is_rich_black(conv.rgb(*dark))
    k_only = conv.text_black(*dark)
    assert k_only is not None and k_only[:3] == (0.0, 0.0, 0.0) and not is_rich_black(k_only)
    assert conv.text_black(*DEEP_RED) is None  # a colour that needs its inks stays one


@pytest.mark.parametrize("name", ["boss_fight", "raid_boss", "final_boss"])
def test_the_shipped_kit_for_drivethrucards_has_no_rich_black_text(tmp_path, name):
    """Issue 41 item 6: Raid Boss's decks had 18 runs of small text in rich black (a warm dark
    grey, #6b604b, too coloured to count as a neutral) and Final Boss's 3: text in any colour that
    would print as a rich black is now black ink alone."""
    from click.testing import CliRunner

    from generator.cli import main
    result = CliRunner().invoke(main, ["build", f"card_data/{name}", "--service", "dtc", "--only", "cards",
                                       "-q", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        rich = [f.message for f in check_pdf(pdf, "dtc") if f.rule == "pdf.rich-black"]
        assert not rich, (pdf.name, rich[:2])
