"""`pnp preflight` and the build's layout warnings, on a deliberately bad pack: a 72 dpi
image, text 1 mm from the trim, and (in a PDF made from it) a font that is not embedded.
Every finding must name the card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from reportlab.lib.units import mm

from generator.cli import main
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardPainter, CardShared
from generator.render.base.pdfout import new_canvas
from generator.pack.scaffold import create_pack

REPO = Path(__file__).resolve().parents[1]
ART_W_MM, ART_H_MM = 56.7, 28.4  # the base layout's art box


@pytest.fixture()
def bad_pack(tmp_path) -> Path:
    root = create_pack("badpack", tmp_path)
    # a 72 dpi image at its placed size
    (root / "art").mkdir(exist_ok=True)
    Image.new("RGB", (round(ART_W_MM / 25.4 * 72), round(ART_H_MM / 25.4 * 72)), (180, 60, 40)).save(
        root / "art" / "low.png")
    cards = (root / "cards" / "units.yaml").read_text(encoding="utf-8")
    (root / "cards" / "units.yaml").write_text(cards.replace("    role: Striker\n",
                                                             "    role: Striker\n    art: art/low.png\n"),
                                               encoding="utf-8")
    # text 1 mm from the left trim
    layout = root / "templates" / "cards" / "unit.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") +
                      '  - {id: edge-note, kind: text, x: 1.0, y: 60.0, w: 20.0, h: 5.0, text: "EDGE", size: 7}\n',
                      encoding="utf-8")
    return root


def _pdf_with_unembedded_font(pack_dir: Path, target: Path) -> None:
    """The bad pack's card on a print-shop page, plus a line in Helvetica (never embedded)."""
    pack = load_pack(pack_dir)
    shared = CardShared(pack)
    face = pack_faces(pack, shared, copies=False)[0]
    b = 25.4 / 8 * mm
    w, h = (v * mm for v in pack.card_size_mm())
    c = new_canvas(str(target), (w + 2 * b, h + 2 * b), "bad")
    c.setTrimBox((b, b, w + b, h + b))
    c.setBleedBox((0, 0, w + 2 * b, h + 2 * b))
    CardPainter(c, shared).draw_face(face, b, b)
    c.setFont("Helvetica", 6)
    c.drawString(b + 10 * mm, b + 10 * mm, "standard font")
    c.showPage()
    c.save()


def test_preflight_pack_names_the_card_and_element(bad_pack):
    result = CliRunner().invoke(main, ["preflight", str(bad_pack), "--service", "dtc", "--format", "json"])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["schema"] == "pnp.preflight/1" and doc["verdict"] == "rejected"
    by_rule = {}
    for f in doc["findings"]:
        by_rule.setdefault(f["rule"], []).append(f)
    low = by_rule["art.low-dpi"]
    # the layout's finding is a warning (a home printer prints it, as `pnp build` and `pnp validate`
    # say alike); the service's own file is what the service rejects: pdf.image-dpi below
    assert low[0]["card"] == "first-unit" and low[0]["element"] == "art" and low[0]["severity"] == "warning"
    assert "72 dpi" in low[0]["message"]
    edge = [f for f in by_rule["layout.safe-zone"] if f["element"] == "edge-note"]
    assert edge and edge[0]["card"] == "first-unit" and "1.00 mm from the left" in edge[0]["message"]  # its word box (the E's ink is 0.24 mm further in)
    # the same text found again in the file the service would get, on the card's own page
    pdf_edge = [f for f in by_rule.get("pdf.safe-zone", []) if "EDGE" in f["message"]]
    assert pdf_edge and pdf_edge[0]["card"] == "first-unit"
    pdf_dpi = by_rule["pdf.image-dpi"]
    assert pdf_dpi[0]["card"] == "first-unit" and "72 dpi" in pdf_dpi[0]["message"]
    assert pdf_dpi[0]["severity"] == "error"
    assert all(f["card"] not in ("", "?") for f in doc["findings"])


def test_preflight_pdf_catches_unembedded_font(bad_pack, tmp_path):
    _pdf_with_unembedded_font(bad_pack, tmp_path / "bad.pdf")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "bad.pdf"), "--service", "mpc"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "REJECTED" in lines[0]
    fonts = [line for line in lines if "pdf.font-embedding" in line]
    assert fonts and "card `first-unit`" in fonts[0] and "Helvetica" in fonts[0]
    assert any("pdf.image-dpi" in line and "card `first-unit`" in line for line in lines)
    assert any("pdf.safe-zone" in line and "EDGE" in line for line in lines)


def test_preflight_passes_the_shipped_dtc_output(tmp_path):
    pack_dir = REPO / "card_data" / "boss_fight"
    preset = sorted((pack_dir / "presets").glob("*.yaml"))[0]
    built = CliRunner().invoke(main, ["build", str(pack_dir), "--build", str(preset), "--service", "dtc",
                                      "-o", str(tmp_path)])
    assert built.exit_code == 0, built.output
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / f"{preset.stem}-dtc"), "--service", "dtc"])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output.splitlines()[0]


def test_preflight_rejects_rgb_for_dtc_and_wrong_png_sizes(tmp_path):
    pack = load_pack(REPO / "card_data" / "boss_fight")
    shared = CardShared(pack)
    from generator.render.cards.sheets import write_print_shop
    write_print_shop(pack, pack_faces(pack, shared, copies=False)[:1], tmp_path / "rgb.pdf", shared=shared)
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "rgb.pdf"), "--service", "dtc", "--format", "json"])
    rules = {f["rule"] for f in json.loads(result.output)["findings"]}
    assert result.exit_code == 1 and {"pdf.rgb", "pdf.output-intent", "pdf.bleed"} <= rules  # 3 mm < 1/8 in
    (tmp_path / "png").mkdir()
    Image.new("RGB", (822, 1122)).save(tmp_path / "png" / "a.png")
    assert CliRunner().invoke(main, ["preflight", str(tmp_path / "png"), "--service", "mpc"]).exit_code == 0
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "png"), "--service", "tgc"])
    assert result.exit_code == 1 and "825 x 1125" in result.output


def test_build_warns_naming_the_card(bad_pack, tmp_path):
    result = CliRunner().invoke(main, ["build", str(bad_pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert any("art.low-dpi" in w and "`first-unit`" in w and "element `art`" in w for w in warnings)
    assert any("layout.safe-zone" in w and "`first-unit`" in w and "element `edge-note`" in w for w in warnings)
    assert (tmp_path / "out" / "cards.pdf").is_file()  # warnings, not errors: the kit is still built


def _page(path: Path, draw) -> None:
    """One card-sized print-shop page (1/8 in bleed, boxes set) with what `draw` puts on it."""
    b = 25.4 / 8 * mm
    w, h = 63.5 * mm, 88.9 * mm
    c = new_canvas(str(path), (w + 2 * b, h + 2 * b), "test page")
    c.setTrimBox((b, b, w + b, h + b))
    c.setBleedBox((0, 0, w + 2 * b, h + 2 * b))
    draw(c, b, w, h)
    c.showPage()
    c.save()


def test_preflight_hairlines_bleed_and_ink(tmp_path):
    from generator.preflight.pdfcheck import check_pdf

    def hairline(c, b, w, h):
        c.setFillColorCMYK(0, 0, 0, 0.2)
        c.rect(0, 0, w + 2 * b, h + 2 * b, fill=1, stroke=0)
        c.setLineWidth(0.1)
        c.line(b + 10, b + 10, b + 100, b + 10)

    def short_art(c, b, w, h):  # art that stops at the trim: white bleed
        c.setFillColorCMYK(0.2, 0.6, 0.1, 0)
        c.rect(b, b, w, h, fill=1, stroke=0)

    def heavy_ink(c, b, w, h):
        c.setFillColorCMYK(0.9, 0.8, 0.8, 0.9)  # 340 %
        c.rect(0, 0, w + 2 * b, h + 2 * b, fill=1, stroke=0)

    for name, draw in (("hair", hairline), ("short", short_art), ("ink", heavy_ink)):
        _page(tmp_path / f"{name}.pdf", draw)
    rules = {name: {f.rule for f in check_pdf(tmp_path / f"{name}.pdf", "dtc")} for name in ("hair", "short", "ink")}
    assert "pdf.hairline" in rules["hair"] and "pdf.bleed-art" not in rules["hair"]
    assert "pdf.bleed-art" in rules["short"] and "pdf.hairline" not in rules["short"]
    assert "pdf.ink" in rules["ink"] and "pdf.ink" not in rules["hair"]
    ink = next(f for f in check_pdf(tmp_path / "ink.pdf", "dtc") if f.rule == "pdf.ink")
    assert "340 %" in ink.message and ink.severity == "error"


def test_unreadable_inputs_are_input_errors(tmp_path):
    (tmp_path / "bad.pdf").write_text("not a pdf", encoding="utf-8")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "bad.pdf")])
    assert result.exit_code == 2 and "cannot be read as a PDF" in result.output
    (tmp_path / "png").mkdir()
    (tmp_path / "png" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "png"), "--service", "mpc"])
    assert result.exit_code == 1 and "png.unreadable" in result.output and "broken" in result.output


@pytest.mark.parametrize("service", ["home", "mpc", "dtc"])
def test_preflight_of_a_pack_checks_the_files_its_service_build_makes(tmp_path, service):
    """A pack's preflight makes the service's card files with the same profile writer and
    preset as `pnp build --service` (no copy of its own): the same names, the same bytes."""
    from generator.preflight.target import service_files
    pack_dir = REPO / "card_data" / "tactics"
    built = CliRunner().invoke(main, ["build", str(pack_dir), "--service", service, "--only", "cards", "--duplex",
                                      "long-edge", "--back-offset", "0,0", "-o", str(tmp_path / "built")])
    assert built.exit_code == 0, built.output
    pack = load_pack(pack_dir)
    shared = CardShared(pack)
    made = service_files(pack, pack_faces(pack, shared), shared, service, None, tmp_path / "pre")
    assert made, service
    for path in made:
        twin = tmp_path / "built" / path.relative_to(tmp_path / "pre")
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        assert files and all((twin.parent / f.relative_to(path.parent)).read_bytes() == f.read_bytes()
                             for f in files), path
    assert "calibration.pdf" not in {p.name for p in made}  # a ruler for the printer at home, for no service
