"""`pnp preflight` on small crafted PDFs (issue 28): RGB that reaches a CMYK service through an
ICC-based colour space, a shading or a transparency group; text in the bleed; rich black on
small text. Each rule has a legal and an illegal page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import ImageCms
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.preflight.pdfcheck import check_pdf

W, H, BLEED = 63.5 * mm, 88.9 * mm, 25.4 / 8 * mm


def _cmyk_card(path: Path, draw=None) -> None:
    """A poker card with 1/8 in bleed, TrimBox and BleedBox, painted in CMYK only."""
    c = Canvas(str(path), pagesize=(W + 2 * BLEED, H + 2 * BLEED), pageCompression=0)
    c.setTrimBox((BLEED, BLEED, W + BLEED, H + BLEED))
    c.setBleedBox((0, 0, W + 2 * BLEED, H + 2 * BLEED))
    c.setFillColorCMYK(0, 0.2, 0.4, 0)
    c.rect(0, 0, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    if draw:
        draw(c)
    c.showPage()
    c.save()


def _with_output_intent(path: Path, edit=None) -> None:
    """Add an OutputIntent (so only the colour rules speak) and apply `edit(pdf, page)`."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, OutputConditionIdentifier="FOGRA39"))])
        if edit:
            edit(pdf, pdf.pages[0])
        pdf.save(path)


def _append(pdf, page, content: bytes) -> None:
    page.contents_add(pikepdf.Stream(pdf, content), prepend=False)


def _rules(path: Path, service: str = "dtc") -> dict:
    found = {}
    for f in check_pdf(path, service):
        found.setdefault(f.rule, []).append(f)
    return found


def _srgb(pdf) -> pikepdf.Stream:
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return pikepdf.Stream(pdf, profile, N=3)


def test_a_cmyk_card_passes(tmp_path):
    path = tmp_path / "ok.pdf"
    _cmyk_card(path)
    _with_output_intent(path)
    assert "pdf.rgb" not in _rules(path)


def test_icc_based_rgb_is_rgb(tmp_path):
    path = tmp_path / "icc.pdf"
    _cmyk_card(path)

    def edit(pdf, page):
        page.Resources.ColorSpace = pikepdf.Dictionary(CS9=pikepdf.Array([pikepdf.Name.ICCBased, _srgb(pdf)]))
        _append(pdf, page, b"q /CS9 cs 1 0 0 sc 10 10 40 40 re f Q")
    _with_output_intent(path, edit)
    rgb = _rules(path)["pdf.rgb"]
    assert rgb[0].severity == "error" and "1 colour operators" in rgb[0].message
    assert "pdf.rgb" not in _rules(path, "home")  # only CMYK services care


def test_icc_based_cmyk_is_not_rgb(tmp_path):
    path = tmp_path / "icc4.pdf"
    _cmyk_card(path)

    def edit(pdf, page):
        stream = pikepdf.Stream(pdf, b"not read", N=4)
        page.Resources.ColorSpace = pikepdf.Dictionary(CS9=pikepdf.Array([pikepdf.Name.ICCBased, stream]))
        _append(pdf, page, b"q /CS9 cs 0 0 0 1 sc 10 10 40 40 re f Q")
    _with_output_intent(path, edit)
    assert "pdf.rgb" not in _rules(path)


@pytest.mark.parametrize("through", ["sh", "pattern"])
def test_rgb_shading_is_rgb(tmp_path, through):
    path = tmp_path / "shading.pdf"
    _cmyk_card(path)

    def edit(pdf, page):
        fn = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0], C1=[0, 0, 1], N=1)
        shading = pdf.make_indirect(pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB,
                                                       Coords=[0, 0, 100, 0], Function=fn))
        if through == "sh":
            page.Resources.Shading = pikepdf.Dictionary(Sh1=shading)
            _append(pdf, page, b"q 10 10 40 40 re W n /Sh1 sh Q")
        else:
            page.Resources.Pattern = pikepdf.Dictionary(P1=pikepdf.Dictionary(PatternType=2, Shading=shading))
            _append(pdf, page, b"q /Pattern cs /P1 scn 10 10 40 40 re f Q")
    _with_output_intent(path, edit)
    rgb = _rules(path)["pdf.rgb"]
    assert "1 shadings" in rgb[0].message


def test_cmyk_shading_is_not_rgb(tmp_path):
    path = tmp_path / "shading4.pdf"
    _cmyk_card(path)

    def edit(pdf, page):
        fn = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0, 0, 1], N=1)
        shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceCMYK, Coords=[0, 0, 100, 0],
                                     Function=fn)
        page.Resources.Shading = pikepdf.Dictionary(Sh1=shading)
        _append(pdf, page, b"q 10 10 40 40 re W n /Sh1 sh Q")
    _with_output_intent(path, edit)
    assert "pdf.rgb" not in _rules(path)


@pytest.mark.parametrize("space,flagged", [("/DeviceRGB", True), ("/DeviceCMYK", False)])
def test_transparency_group_in_rgb(tmp_path, space, flagged):
    path = tmp_path / "group.pdf"
    _cmyk_card(path)

    def edit(pdf, page):
        page.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name(space))
    _with_output_intent(path, edit)
    rgb = _rules(path).get("pdf.rgb", [])
    assert bool(rgb) == flagged
    if flagged:
        assert "1 transparency groups" in rgb[0].message


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="the safe-zone check reads words with pdftotext")
def test_text_in_the_bleed_says_so(tmp_path):
    path = tmp_path / "bleed-text.pdf"

    def draw(c):
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFont("Helvetica", 8)
        c.drawString(BLEED + 10 * mm, BLEED + 40 * mm, "INSIDE")
        c.drawString(BLEED - 2.5 * mm, BLEED + 20 * mm, "BLEEDING")  # starts 2.5 mm left of the trim
    _cmyk_card(path, draw)
    found = {f.element: f for f in _rules(path, "home").get("pdf.safe-zone", [])}
    bleeding = found["text “BLEEDING”"]
    assert "in the bleed, 2.5 mm outside the trim" in bleeding.message and bleeding.severity == "error"
    assert "text “INSIDE”" not in found


@pytest.mark.parametrize("cmyk,size,warned", [
    ((0.6, 0.4, 0.4, 1.0), 8, True),     # rich black, small: warned
    ((0.6, 0.4, 0.4, 1.0), 14, False),   # rich black on a headline is fine
    ((0.0, 0.0, 0.0, 1.0), 8, False),    # black ink alone
    ((0.6, 0.4, 0.4, 0.0), 8, False),    # no black: a colour, not rich black
    ((0.22, 0.25, 0.38, 0.61), 8, True),  # a rich dark grey: all four plates
    ((0.0, 0.91, 0.67, 0.6), 8, False),   # a deep red: black with its inks, no cyan, a colour
    ((0.05, 0.5, 0.5, 0.6), 8, False),    # a dark brown: hardly any cyan under the black
])
def test_rich_black_on_small_text(tmp_path, cmyk, size, warned):
    path = tmp_path / "rich.pdf"

    def draw(c):
        c.setFillColorCMYK(*cmyk)
        c.setFont("Helvetica", size)
        c.drawString(BLEED + 10 * mm, BLEED + 40 * mm, "Small")
    _cmyk_card(path, draw)
    rich = _rules(path, "home").get("pdf.rich-black", [])
    assert bool(rich) == warned
    if warned:
        assert rich[0].severity == "warning" and f"smallest {size:.1f} pt" in rich[0].message


def test_rich_black_size_follows_the_scale(tmp_path):
    """10 pt type drawn at twice its size is 20 pt on paper: not small."""
    path = tmp_path / "scaled.pdf"

    def draw(c):
        c.setFillColorCMYK(0.5, 0.5, 0.5, 1)
        c.scale(2, 2)
        c.setFont("Helvetica", 10)
        c.drawString(10, 60, "Big")
    _cmyk_card(path, draw)
    assert "pdf.rich-black" not in _rules(path, "home")



def test_invisible_text_is_not_rich_black(tmp_path):
    path = tmp_path / "invisible.pdf"

    def draw(c):
        c.setFillColorCMYK(0.6, 0.4, 0.4, 1.0)
        t = c.beginText(BLEED + 5 * mm, BLEED + 5 * mm)
        t.setTextRenderMode(3)
        t.setFont("Helvetica", 1)
        t.textOut("pnp:face:marker:0")
        c.drawText(t)
    _cmyk_card(path, draw)
    assert "pdf.rich-black" not in _rules(path, "home")
