"""CMYK print-shop output, DriveThruCards decks and print-service presets, read back from the
files (pikepdf for operators and boxes, Ghostscript for a CMYK render, pdftotext for the
card markers). Numbers: PRINT-SPECS.md (DriveThruCards: 1/8 in bleed, ink <= 240 %)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image
from reportlab.lib.units import mm

from generator.cli import main
from generator.export.cmyk import DEFAULT_ICC, CmykConverter, convert_pdf, limit_ink, read_icc
from generator.export.dtc import DTC_BLEED_MM, export_dtc
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_print_shop
from generator.render.base.pdfout import new_canvas

REPO = Path(__file__).resolve().parents[1]
PACK = REPO / "card_data" / "boss_fight"
PT_MM = 25.4 / 72
RGB_OPS = {"rg", "RG"}
needs_gs = pytest.mark.skipif(not shutil.which("gs"), reason="Ghostscript renders CMYK pages")


@pytest.fixture(scope="module")
def conv():
    return CmykConverter()


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


def _operators(pdf) -> list[tuple[str, list]]:
    """Every colour operator in every content stream (pages and forms)."""
    out = []
    streams = [p.obj.Contents for p in pdf.pages]
    streams += [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == pikepdf.Name.Form]
    for s in streams:
        for inst in pikepdf.parse_content_stream(s):
            if isinstance(inst, pikepdf.ContentStreamInstruction):
                op = str(inst.operator)
                if op in ("rg", "RG", "k", "K", "g", "G"):
                    out.append((op, [float(v) for v in inst.operands]))
    return out


def _gs_cmyk(pdf: Path, page: int, dpi: int = 72) -> np.ndarray:
    out = pdf.with_suffix(f".{page}.tif")
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                    f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={out}", str(pdf)], check=True)
    with Image.open(out) as img:
        assert img.mode == "CMYK"
        return np.asarray(img, dtype=np.int32)


def test_card_pdf_in_cmyk_has_no_rgb_and_names_its_profile(tmp_path, pack, conv):
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:6]
    write_print_shop(pack, faces, tmp_path / "rgb.pdf", shared=shared)
    stats = convert_pdf(tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf", conv)
    assert stats["colours"] > 50
    with pikepdf.open(tmp_path / "cmyk.pdf") as pdf:
        ops = _operators(pdf)
        assert not [o for o, _ in ops if o in RGB_OPS], "an RGB colour operator survived"
        assert [o for o, _ in ops if o in ("k", "K")]
        for obj in pdf.objects:  # no RGB image or colour space either
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image:
                assert obj.get("/ColorSpace") != pikepdf.Name.DeviceRGB
        (intent,) = list(pdf.Root.OutputIntents)
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert str(intent.OutputConditionIdentifier) == conv.description
        assert "FOGRA39" in str(intent.OutputConditionIdentifier)
        profile = intent.DestOutputProfile
        assert int(profile.N) == 4
        assert profile.read_bytes() == read_icc(DEFAULT_ICC)
    # the pages still hold the same cards, fonts still embedded
    fonts = subprocess.run(["pdffonts", str(tmp_path / "cmyk.pdf")], capture_output=True, text=True).stdout
    assert all(line.split()[-5] == "yes" for line in fonts.splitlines()[2:])


def _black_text_pdf(path: Path) -> None:
    c = new_canvas(str(path), (100 * mm, 40 * mm), "black text")
    c.setFillColorRGB(0, 0, 0)
    c.setFont("PnpSans", 24)
    c.drawString(5 * mm, 20 * mm, "Pure black")
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.drawString(5 * mm, 5 * mm, "Grey")
    c.showPage()
    c.save()


@needs_gs
def test_pure_black_text_is_k_only(tmp_path, conv):
    _black_text_pdf(tmp_path / "rgb.pdf")
    convert_pdf(tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf", conv)
    with pikepdf.open(tmp_path / "cmyk.pdf") as pdf:
        fills = [args for op, args in _operators(pdf) if op == "k"]
    assert [0.0, 0.0, 0.0, 1.0] in fills  # pure black: K 100 %, nothing else
    grey = [f for f in fills if 0 < f[3] < 1]
    assert grey and all(f[:3] == [0.0, 0.0, 0.0] for f in grey)  # neutrals stay on the black plate
    pixels = _gs_cmyk(tmp_path / "cmyk.pdf", 1, dpi=150)
    inked = pixels[..., 3] > 0
    assert inked.sum() > 500
    assert pixels[..., :3][inked].max() == 0, "rich black: C, M or Y under the text"


@needs_gs
def test_ink_limit_holds_on_a_rendered_page(tmp_path, conv):
    c = new_canvas(str(tmp_path / "rgb.pdf"), (80 * mm, 80 * mm), "dark")
    c.setFillColorRGB(0.05, 0.05, 0.2)  # a navy near black: about 248 % ink on FOGRA39 unlimited
    c.rect(0, 40 * mm, 80 * mm, 40 * mm, fill=1, stroke=0)
    ramp = Image.fromarray(np.dstack([np.tile(np.linspace(0, 255, 64, dtype=np.uint8), (64, 1))] * 2 +
                                     [np.zeros((64, 64), np.uint8)]), "RGB")  # yellow-to-black ramp
    ramp.save(tmp_path / "ramp.png")
    c.drawImage(str(tmp_path / "ramp.png"), 0, 0, 80 * mm, 40 * mm)
    c.showPage()
    c.save()
    unlimited = CmykConverter(ink_limit=400)
    assert sum(unlimited.rgb(0.05, 0.05, 0.2)) > 2.45  # the test colour really is over the limit
    stats = convert_pdf(tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf", conv)
    assert stats["images"] == 1
    pixels = _gs_cmyk(tmp_path / "cmyk.pdf", 1)
    total = pixels.sum(axis=2) / 255 * 100
    assert total.max() <= 240 + 1.0  # one 8-bit step per channel of rounding
    assert total.max() > 200  # and the dark colours are still dark


def test_limit_ink_keeps_black_and_scales_cmy():
    c, m, y, k = limit_ink(0.8, 0.7, 0.6, 0.9, 2.4)
    assert k == 0.9 and abs(c + m + y + k - 2.4) < 1e-9 and c / m == pytest.approx(0.8 / 0.7)
    assert limit_ink(0.1, 0.2, 0.3, 0.4, 2.4) == (0.1, 0.2, 0.3, 0.4)


def test_user_icc_must_be_cmyk(tmp_path):
    from PIL import ImageCms
    from generator.core.errors import InputError
    rgb_profile = tmp_path / "srgb.icc"
    rgb_profile.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(InputError) as exc:
        CmykConverter(rgb_profile)
    assert "not CMYK" in exc.value.problems[0].message


def _markers(pdf: Path) -> list[str]:
    """The card marker on each page, in page order."""
    text = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True).stdout
    pages = text.split("<page ")[1:]
    out = []
    for p in pages:
        words = [w.split(">")[1].split("<")[0] for w in p.split("<word ")[1:]]
        out.append(next(w for w in words if w.startswith("pnp:")))
    return out


def test_drivethrucards_decks_order_boxes_bleed(tmp_path, pack, conv):
    shared = CardShared(pack)
    all_faces = pack_faces(pack, shared, copies=False)
    faces = [f for f in all_faces if f.set_id == "boss"][:3] + [f for f in all_faces if f.set_id == "hero"][:2]
    info = export_dtc(pack, faces, tmp_path / "dtc", conv, shared)
    assert info == {"decks": 2, "pages": 10}
    assert sorted(p.name for p in (tmp_path / "dtc").glob("*.pdf")) == ["boss.pdf", "hero.pdf"]
    boss = [f.card.id for f in faces[:3]]
    assert _markers(tmp_path / "dtc" / "boss.pdf") == [m for cid in boss for m in
                                                      (f"pnp:back:{cid}:{faces[boss.index(cid)].index}",
                                                       f"pnp:face:{cid}:{faces[boss.index(cid)].index}")]
    trim_w, trim_h = pack.card_size_mm()
    bleed = DTC_BLEED_MM
    with pikepdf.open(tmp_path / "dtc" / "boss.pdf") as pdf:
        assert len(pdf.pages) == 6
        assert "/OutputIntents" in pdf.Root
        assert not [o for o, _ in _operators(pdf) if o in RGB_OPS]
        for page in pdf.pages:
            media = [float(v) * PT_MM for v in page.MediaBox]
            trim = [float(v) * PT_MM for v in page.obj.TrimBox]
            bleed_box = [float(v) * PT_MM for v in page.obj.BleedBox]
            assert media[2] - media[0] == pytest.approx(trim_w + 2 * bleed, abs=0.05)
            assert media[3] - media[1] == pytest.approx(trim_h + 2 * bleed, abs=0.05)
            assert trim == pytest.approx([bleed, bleed, bleed + trim_w, bleed + trim_h], abs=0.05)
            assert bleed_box == pytest.approx(media, abs=0.05)
    fonts = subprocess.run(["pdffonts", str(tmp_path / "dtc" / "boss.pdf")], capture_output=True, text=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(r.split()[-5] == "yes" for r in rows)
    # the ink limit holds on every page rendered to CMYK, and preflight finds nothing to reject
    from generator.preflight.pdfcheck import check_pdf, rendered_max_ink
    inks = rendered_max_ink(tmp_path / "dtc" / "boss.pdf", dpi=72)
    if inks is not None:
        assert len(inks) == 6 and max(inks.values()) <= 240 + 1.0
    assert [f for f in check_pdf(tmp_path / "dtc" / "boss.pdf", "dtc") if f.severity == "error"] == []


def test_dtc_preset_from_the_command_line(tmp_path):
    build_file = REPO / "card_data" / "boss_fight" / "presets"
    preset = sorted(build_file.glob("*.yaml"))[0]
    result = CliRunner().invoke(main, ["build", str(PACK), "--build", str(preset), "--service", "dtc",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / f"{preset.stem}-dtc"
    pdfs = sorted(folder.glob("*.pdf"))
    assert pdfs and (folder / "README.txt").is_file()
    with pikepdf.open(pdfs[0]) as pdf:
        assert len(pdf.pages) % 2 == 0
        assert "FOGRA39" in str(pdf.Root.OutputIntents[0].OutputConditionIdentifier)


def test_build_help_lists_the_presets():
    result = CliRunner().invoke(main, ["build", "--help"])
    assert result.exit_code == 0
    for name in ("home", "mpc", "tgc", "dtc", "printplaygames"):
        assert name in result.output
    assert "--ink-limit" in result.output and "--icc" in result.output and "--tts-url-base" in result.output


def test_printplaygames_sheets_are_12_by_18_inches_with_2mm_bleed_and_mirrored_backs(tmp_path, pack):
    from generator.render.cards.sheets import write_home_sheets
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:4]
    write_home_sheets(pack, faces, tmp_path / "ppg.pdf", sheet="printplaygames", shared=shared)
    with pikepdf.open(tmp_path / "ppg.pdf") as pdf:
        assert len(pdf.pages) == 2
        w, h = (float(v) * PT_MM for v in pdf.pages[0].MediaBox[2:])
        assert (w, h) == (pytest.approx(304.8, abs=0.05), pytest.approx(457.2, abs=0.05))
        clips = []
        for page in pdf.pages:
            rects = []
            ops = list(pikepdf.parse_content_stream(page))
            for i, inst in enumerate(ops):
                if str(inst.operator) == "re" and i + 1 < len(ops) and str(ops[i + 1].operator).startswith("W"):
                    rects.append([float(v) * PT_MM for v in inst.operands])
            clips.append(rects)
    trim_w, trim_h = pack.card_size_mm()
    first = clips[0][0]
    assert first[2] == pytest.approx(trim_w + 2 * 2.0, abs=0.05)  # 2 mm bleed left and right
    assert first[3] == pytest.approx(trim_h + 2 * 2.0, abs=0.05)
    # the back of card 1 sits mirrored about the page's vertical centre line
    back = clips[1][0]
    assert back[0] + back[2] / 2 == pytest.approx(w - (first[0] + first[2] / 2), abs=0.05)
    assert back[1] == pytest.approx(first[1], abs=0.05)


def test_cmyk_is_refused_where_rgb_is_needed():
    result = CliRunner().invoke(main, ["build", str(PACK), "--profile", "tts", "--color", "cmyk"])
    assert result.exit_code == 2 and "stays RGB" in result.output


def test_print_shop_cmyk_from_the_command_line_with_a_users_profile(tmp_path):
    """--profile print-shop --color cmyk --icc FILE: the OutputIntent carries the user's profile."""
    from PIL import ImageCms
    user_icc = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
    if not user_icc.is_file():  # still a CMYK profile named on the command line
        user_icc = tmp_path / "user.icc"
        user_icc.write_bytes(read_icc(DEFAULT_ICC))
    preset = sorted((PACK / "presets").glob("*.yaml"))[0]
    result = CliRunner().invoke(main, ["build", str(PACK), "--build", str(preset), "--profile", "print-shop",
                                       "--color", "cmyk", "--icc", str(user_icc), "--ink-limit", "260",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = tmp_path / f"{preset.stem}-print-shop.pdf"
    description = ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(user_icc))).strip()
    with pikepdf.open(out) as pdf:
        intent = pdf.Root.OutputIntents[0]
        assert str(intent.OutputConditionIdentifier) == description
        assert intent.DestOutputProfile.read_bytes() == user_icc.read_bytes()
        assert "260" in str(intent.Info)
        assert not [o for o, _ in _operators(pdf) if o in RGB_OPS]
        assert len(pdf.pages) % 2 == 0 and "/TrimBox" in pdf.pages[0].obj
    assert not list(tmp_path.glob(".pnp-cmyk-*")), "the scratch RGB file was left behind"


def test_presets_set_the_options_each_service_needs():
    from generator.export.options import BuildOptions
    assert BuildOptions.make(service="mpc").profile == "png"
    tgc = BuildOptions.make(service="tgc")
    assert (tgc.profile, tgc.png_size, tgc.color) == ("png", "tgc", "rgb")
    dtc = BuildOptions.make(service="drivethrucards", ink_limit=300)
    assert (dtc.profile, dtc.color, dtc.ink_limit) == ("dtc", "cmyk", 240.0)
    assert BuildOptions.make(service="printplaygames").profile == "printplaygames"
    assert BuildOptions.make(cut="cricut").profile == "cut"  # --cut implies the profile


def test_build_options_refuse_what_the_command_line_refuses():
    from generator.core.errors import InputError
    from generator.export.options import BuildOptions
    assert BuildOptions.make("print-shop", color="cmyk").color == "cmyk"
    for bad in ({"profile": "png", "color": "cmyk"}, {"paper": "a3"}, {"ink_limit": 401},
                {"back_offset": "21,0"}, {"back_offset": "1;2"}, {"profile": "poster"}):
        with pytest.raises(InputError) as err:
            BuildOptions.make(**bad)
        assert err.value.problems[0].location.file.startswith("--")


def test_printplaygames_preset_from_the_command_line(tmp_path):
    preset = sorted((PACK / "presets").glob("*.yaml"))[0]
    result = CliRunner().invoke(main, ["build", str(PACK), "--build", str(preset), "--service", "printplaygames",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    with pikepdf.open(tmp_path / f"{preset.stem}-printplaygames.pdf") as pdf:
        w, h = (float(v) * PT_MM for v in pdf.pages[0].MediaBox[2:])
    assert (round(w, 1), round(h, 1)) == (304.8, 457.2)


def test_colour_space_operators_and_shadings_are_converted_too(tmp_path, conv):
    """Not only rg/RG: `cs`/`sc` in DeviceRGB, grey `g`, and an axial shading's end colours."""
    pdf = pikepdf.new()
    shading = pdf.make_indirect(pikepdf.Dictionary(
        ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 100, 0],
        Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0], C1=[0, 0, 1], N=1)))
    content = b"/DeviceRGB cs 1 0 0 sc 0 0 50 50 re f 0.5 g 50 0 50 50 re f /Sh0 sh"
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 100, 100],
                              Resources=pikepdf.Dictionary(Shading=pikepdf.Dictionary(Sh0=shading)),
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
    pdf.save(tmp_path / "rgb.pdf")
    convert_pdf(tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf", conv)
    with pikepdf.open(tmp_path / "cmyk.pdf") as out:
        ops = [(str(i.operator), list(i.operands)) for i in pikepdf.parse_content_stream(out.pages[0])]
        assert ("cs", [pikepdf.Name.DeviceCMYK]) in ops
        sc = next(args for op, args in ops if op == "sc")
        assert len(sc) == 4 and [float(v) for v in sc] == pytest.approx(list(conv.rgb(1, 0, 0)))
        k = next(args for op, args in ops if op == "k")
        assert [float(v) for v in k][:3] == [0.0, 0.0, 0.0]  # 50 % grey: black ink only
        sh = out.pages[0].Resources.Shading.Sh0
        assert sh.ColorSpace == pikepdf.Name.DeviceCMYK
        assert [float(v) for v in sh.Function.C0] == pytest.approx(list(conv.rgb(1, 0, 0)))
        assert len(sh.Function.C1) == 4
