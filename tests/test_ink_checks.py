"""Layout checks judged on what is drawn (issue 28): the safe zone measured on what each
element draws, not its declared box (a text by its word box, as `pnp preflight`'s
pdf.safe-zone measures the finished PDF: issue 41); the WCAG contrast of every text run
against the flat fill under it. Run by `pnp validate`, `pnp build` and `pnp preflight`; the
shipped packs pass both.

The distances are checked against the PDF the cards print in, read back with pypdf (the
text's origin, where its word box starts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli import main
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.pack.scaffold import create_pack
from generator.preflight.layout import layout_findings
from generator.preflight.render_check import map_findings
from generator.render.base.colors import contrast_ratio
from generator.render.cards.faces import CardShared
from generator.render.cards.ink import face_ink
from generator.render.cards.sheets import write_print_shop

REPO = Path(__file__).resolve().parents[1]
PACKS = ["boss_fight", "raid_boss", "battle_bosses", "final_boss", "tactics"]
PT_MM = 25.4 / 72


def _pack_with(tmp_path, *elements: str) -> Path:
    root = create_pack("inkpack", tmp_path)
    layout = root / "templates" / "cards" / "unit.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + "".join(f"  - {e}\n" for e in elements), encoding="utf-8")
    return root


def _findings(root: Path, rule: str) -> dict:
    pack = load_pack(root)
    return {(f.card, f.element): f for f in layout_findings(pack) if f.rule == rule}


def test_safe_zone_is_measured_on_what_is_drawn(tmp_path):
    root = _pack_with(
        tmp_path,
        # declared 1 mm from the left, drawn right-aligned far from it: no warning
        '{id: far-right, kind: text, x: 1.0, y: 60.0, w: 50.0, h: 5.0, text: "R", size: 7, align: right}',
        # declared 5 mm from the left, but its stats row overflows its 6 mm box to the left
        '{id: wide-stats, kind: stats, x: 5.0, y: 66.0, w: 6.0, h: 4.0, items: "[[\'health\', \'WWWWWW\']]", size: 8}',
        # drawn at 1.5 mm: warned, with the glyph's own distance
        '{id: near, kind: text, x: 1.5, y: 72.0, w: 20.0, h: 5.0, text: "EDGE", size: 7}',
        # empty elements draw nothing and get no warning, whatever their box
        '{id: empty-text, kind: text, x: 0, y: 0, w: 0, h: 0, text: "{{ \'\' }}"}',
        '{id: empty-stats, kind: stats, x: 0, y: 0, w: 0, h: 0, items: "[]"}',
    )
    found = _findings(root, "layout.safe-zone")
    elements = {element for _card, element in found}
    assert "far-right" not in elements and "empty-text" not in elements and "empty-stats" not in elements
    assert "wide-stats" in elements  # the declared box is 5 mm in; the ink is not
    near = found[("first-unit", "near")]
    # what the PDF says: the text's origin, plus the E's left side bearing in the font's metrics
    pack = load_pack(root)
    shared = CardShared(pack)
    write_print_shop(pack, pack_faces(pack, shared, copies=False)[:1], tmp_path / "card.pdf", bleed_mm=3.0,
                     shared=shared)
    origins = []
    page = PdfReader(tmp_path / "card.pdf").pages[0]
    page.extract_text(visitor_text=lambda t, cm, tm, font, size: origins.append((t, tm[4] * cm[0] + cm[4]))
                      if t.strip() == "EDGE" else None)
    trim_left = float(page.trimbox.left)
    gap = float(near.message.split(" mm ")[0].rsplit(" ", 1)[1])
    expected_origin = (origins[0][1] - trim_left) * PT_MM
    assert expected_origin == pytest.approx(1.5, abs=0.05)  # the text starts where the layout says
    # measured on the word box, which starts at the origin (the E's stem lies 0.24 mm further in)
    assert gap == pytest.approx(expected_origin, abs=0.006)
    assert "from the left trim edge" in near.message and near.severity == "warning"


def test_ink_of_a_stats_row_matches_its_drawn_icon(tmp_path):
    """The Strength icon of Gravestone Shield (issue 28: 2.02 mm from the trim) now keeps 3 mm."""
    pack = load_pack(REPO / "card_data" / "boss_fight")
    shared = CardShared(pack)
    faces = [f for f in pack_faces(pack, shared, copies=False) if f.card and f.card.id == "gravestone-shield"]
    (ink,) = face_ink(shared, faces)
    stats = next(e for e in ink.elements if e.name == "stats")
    assert stats.bounds[0] >= 3.0 and stats.bounds[2] <= ink.size_mm[0] - 3.0


def test_contrast_error_warning_and_pass(tmp_path):
    root = _pack_with(
        tmp_path,
        '{id: blue-bar, kind: box, x: 5, y: 58, w: 50, h: 20, fill: "#1f4e7a"}',
        '{id: red-on-blue, kind: text, x: 6, y: 59, w: 40, h: 5, text: "Attack", size: 8, color: "#7a1f1f"}',
        '{id: cream-bar, kind: box, x: 5, y: 79, w: 50, h: 6, fill: "#f8f4ea"}',
        '{id: grey-on-cream, kind: text, x: 6, y: 80, w: 40, h: 4, text: "faint", size: 6, color: "#8a8171"}',
        '{id: dark-on-cream, kind: text, x: 30, y: 80, w: 20, h: 4, text: "fine", size: 6, color: "#6e6658"}',
        '{id: white-on-blue, kind: text, x: 6, y: 66, w: 40, h: 5, text: "title", size: 8, color: "#ffffff"}',
    )
    found = _findings(root, "text.contrast")
    bad = found[("first-unit", "red-on-blue")]
    assert bad.severity == "error" and "#7a1f1f on #1f4e7a" in bad.message and "1.19:1" in bad.message
    faint = found[("first-unit", "grey-on-cream")]
    assert faint.severity == "warning" and "3.50:1" in faint.message
    assert ("first-unit", "dark-on-cream") not in found and ("first-unit", "white-on-blue") not in found
    # the numbers are WCAG 2's: black on white 21:1, a colour on itself 1:1
    assert contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast_ratio((0.5, 0.2, 0.1), (0.5, 0.2, 0.1)) == pytest.approx(1.0)

    # `pnp validate`: the error stops it (exit 2) naming the card, element and layout line
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2, result.output
    assert "text.contrast" in result.output and "element `red-on-blue`" in result.output
    assert "unit.yaml:" in result.output and "Traceback" not in result.output


def test_validate_reports_drawn_warnings(tmp_path):
    root = _pack_with(tmp_path, '{id: near, kind: text, x: 1.5, y: 72.0, w: 20.0, h: 5.0, text: "EDGE", size: 7}')
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert "layout.safe-zone" in result.output and "element `near`" in result.output
    assert "from the left trim edge" in result.output


@pytest.mark.parametrize("x,warned", [(2.95, True), (3.05, False)])
def test_validate_build_and_preflight_agree_on_the_safe_zone(tmp_path, x, warned):
    """Issue 41 item 6: a label 2.95 mm from the trim (its word box; its ink starts 0.1 mm
    further in) is warned by `pnp validate`, `pnp build` and `pnp preflight` (the layout's check
    and the finished PDF's) alike; one at 3.05 mm by none of them."""
    root = _pack_with(tmp_path, f'{{id: dmg, kind: text, x: {x}, y: 60.0, w: 20.0, h: 4.0, text: "**DMG**", '
                                'size: 5.5, role: label}')
    said = f"{x:.2f} mm from the left trim edge"
    validated = CliRunner().invoke(main, ["validate", str(root)])
    built = CliRunner().invoke(main, ["build", str(root), "--only", "cards", "-o", str(tmp_path / "out")])
    assert validated.exit_code == 0 and built.exit_code == 0, validated.output + built.output
    for output in (validated.output, built.output):
        lines = [line for line in output.splitlines() if "layout.safe-zone" in line and "element `dmg`" in line]
        assert bool(lines) == warned, output
        assert all(said in line for line in lines), lines
    result = CliRunner().invoke(main, ["preflight", str(root), "--service", "dtc", "--format", "json"])
    found = json.loads(result.output)["findings"]
    layout = [f for f in found if f["rule"] == "layout.safe-zone" and f["element"] == "dmg"]
    pdf = [f for f in found if f["rule"] == "pdf.safe-zone" and "“DMG”" in f["message"]]
    assert bool(layout) == warned and bool(pdf) == warned, found
    assert all(said in f["message"] for f in layout)
    assert all(f"is {x:.2f} mm from the trim" in f["message"] and f["severity"] == "warning" for f in pdf), pdf


@pytest.mark.parametrize("name", PACKS)
def test_shipped_packs_have_readable_text_inside_the_safe_zone(name):
    pack = load_pack(REPO / "card_data" / name)
    found = [f.line() for f in layout_findings(pack) if f.rule in ("layout.safe-zone", "text.contrast")]
    assert found == []


@pytest.mark.parametrize("name", ["boss_fight", "battle_bosses", "tactics"])
def test_shipped_maps_have_readable_text(name):
    assert [f.line() for f in map_findings(load_pack(REPO / "card_data" / name))] == []
