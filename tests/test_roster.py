"""The roster sheet, read back: pypdf for the words (names, points, verdict, violations, the
share code, pack and hash), pypdfium2 to rasterize the QR code and compare it module by module
with the QR code of the share code."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib.pagesizes import A4, LETTER

from conftest import LEGAL_BOSS, PACK_DIR
from generator.share import codes as share
from generator.cli import main
from generator.core.errors import InputError
from generator.pack.load import build_from_document, load_build
from generator.render.base.pdfout import MM
from generator.render.roster.sheet import write_roster
from generator.rules.engine import validate_build
from generator.core.yamlio import parse_yaml

PRESETS = PACK_DIR / "presets"


def text_of(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(str(path)).pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def make(tmp_path, pack, preset: str, paper: str = "a4", text: str | None = None):
    if text is not None:
        src = tmp_path / f"{preset}.yaml"
        src.write_text(text, encoding="utf-8")
    else:
        src = PRESETS / f"{preset}.yaml"
    build = load_build(src, pack)
    out = tmp_path / f"{preset}-{paper}.pdf"
    info = write_roster(pack, build, out, paper=paper)
    return build, out, info


def test_boss_roster_has_everything_on_one_page(tmp_path, pack):
    build, out, info = make(tmp_path, pack, "boss-worldbreaker-titan")
    report = validate_build(pack, build)
    assert info["pages"] == 1 and info["legal"]
    reader = PdfReader(str(out))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(A4, abs=0.01)
    text = text_of(out)[0]
    assert "The Worldbreaker Titan" in text
    assert "LEGAL" in text and "NOT LEGAL" not in text
    assert f"{report.points.total} / {report.points.limit} points" in text
    assert "146 / 150 points · 4 left" in text
    assert "Boss Fight 1.0.0" in text
    # pieces, attached equipment, abilities and the deck are all listed
    for card_id in ("swollen-cerebrum", "siegebreaker-glaive", "gravestone-shield", "quaking-bellow"):
        assert pack.cards[card_id].name in text
    assert "3 × Lumbering Stride" in text and "DECK · 30 CARDS" in text
    # the statistics the validator computed
    stats = report.stats["characters[0]"]
    assert stats["name"] == "The Worldbreaker Titan"
    for stat_id, spec in pack.spec.stats.items():
        assert f"{stats[stat_id]}\n{spec.name}" in text
    # the share code and the build hash
    code = share.share_code(pack, build)
    assert info["code"] == code
    assert code in squash(text)
    assert f"build hash {share.encode(pack, build).hash}" in text
    assert info["hash"] == share.encode(pack, build).hash


def test_party_of_four_fits_one_page_with_each_characters_points(tmp_path, pack):
    build, out, info = make(tmp_path, pack, "party-long-night")
    assert info["pages"] == 1
    text = text_of(out)[0]
    for char, points in zip(build.characters, (47, 38, 33, 30)):
        assert f"{char.name}\n{points}" in text  # the points table
        assert f"{char.name}\n{points} points" in text  # the character's block
    assert "Total · limit 150 · 2 left\n148" in text
    assert info["code"] in squash(text)


@pytest.mark.parametrize("preset", sorted(p.stem for p in PRESETS.glob("*.yaml")))
def test_every_preset_makes_a_one_page_roster(tmp_path, pack, preset):
    _build, out, info = make(tmp_path, pack, preset)
    assert info["pages"] == 1 == len(PdfReader(str(out)).pages)
    assert info["qr"] is not None and info["qr"]["page"] == 0


def test_letter_paper(tmp_path, pack):
    _build, out, info = make(tmp_path, pack, "party-shieldwall", paper="letter")
    box = PdfReader(str(out)).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(LETTER, abs=0.01)
    assert info["paper"] == "letter" and info["pages"] == 1


def test_an_illegal_build_shows_each_violation_and_its_fix(tmp_path, pack):
    text = (LEGAL_BOSS.replace("points_limit: 100", "points_limit: 60")
            .replace("      - piece: anchor-foot\n", "").replace("walk: 3", "walk: 5"))
    build, out, info = make(tmp_path, pack, "bad-boss", text=text)
    report = validate_build(pack, build)
    assert not info["legal"] and info["errors"] >= 3 and info["warnings"] == 1
    page = words(text_of(out)[0])
    assert "NOT LEGAL" in page
    assert "3 errors, 1 warning" in page or f"{info['errors']} errors, 1 warning" in page
    for v in report.violations:
        assert words(v.message) in page, v.message
        assert words(f"Fix: {v.fix}") in page, v.fix
        assert v.rule in page
    assert "WARNING" in page and "ERROR" in page
    assert f"{report.points.total - 60} over" in page


def test_a_flood_of_violations_is_cut_short_and_points_to_validate(tmp_path, pack):
    abilities = sorted(c.id for c in pack.cards.values() if c.type == "action")[:15]
    text = LEGAL_BOSS.replace("abilities: [blood-frenzy]", f"abilities: [{', '.join(abilities)}]")
    build, out, info = make(tmp_path, pack, "flood", text=text)
    report = validate_build(pack, build)
    hidden = len(report.violations) - 12
    assert hidden > 0
    page = words(" ".join(text_of(out)))
    assert f"… and {hidden} more: pnp validate " in page
    assert info["pages"] <= 2


def test_six_heroes_take_two_pages_and_everything_is_still_there(tmp_path, pack):
    night = (PRESETS / "party-long-night.yaml").read_text()
    knives = (PRESETS / "party-knives-in-the-dark.yaml").read_text()
    extra = knives.split("characters:\n", 1)[1]
    extra = "\n".join(extra.split("\n  - hero: tamsin-lowe")[0].splitlines()) + "\n"
    text = night.replace("points_limit: 150", "points_limit: 250") + extra
    build, out, info = make(tmp_path, pack, "six", text=text)
    assert len(build.characters) == 6
    assert info["pages"] == 2
    pages = text_of(out)
    assert len(pages) == 2
    both = "\n".join(pages)
    for char in build.characters:
        assert char.name in both
    assert "continued · page 2 of 2" in pages[1]
    assert "page 1 of 2" in pages[0]
    assert info["code"] in squash(both)
    # two characters share a name (Nix twice): each keeps its own points
    assert both.count("Nix Marrowind\n") >= 2


def qr_matrix(code: str) -> list[list[bool]]:
    widget = QrCodeWidget(code, barLevel="M")
    widget.qr.make()
    return [[bool(v) for v in row] for row in widget.qr.modules]


def sampled_matrix(pdf: Path, qr: dict, scale: float = 6.0) -> list[list[bool]]:
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[qr["page"]]
    height_pt = page.get_height()
    image = page.render(scale=scale).to_pil().convert("L")
    n, border = qr["modules"], qr["border"]
    module = qr["size"] * MM / (n + 2 * border)
    x0 = qr["x"] * MM + border * module
    top = qr["y"] * MM + qr["size"] * MM - border * module
    out = []
    for r in range(n):
        row = []
        for c in range(n):
            px = (x0 + (c + 0.5) * module) * scale
            py = (height_pt - (top - (r + 0.5) * module)) * scale
            row.append(image.getpixel((int(px), int(py))) < 128)
        out.append(row)
    doc.close()
    return out


@pytest.mark.parametrize("preset", ["boss-ashen-behemoth", "party-long-night"])
def test_the_qr_code_drawn_is_the_share_code(tmp_path, pack, preset):
    _build, out, info = make(tmp_path, pack, preset)
    qr = info["qr"]
    expected = qr_matrix(info["code"])
    assert qr["modules"] == len(expected)
    assert sampled_matrix(out, qr) == expected
    # and the quiet zone around it is white
    assert qr["border"] == 4


def test_the_same_build_gives_the_same_bytes(tmp_path, pack):
    _b, first, _ = make(tmp_path, pack, "party-oathsworn")
    data = first.read_bytes()
    _b, second, _ = make(tmp_path, pack, "party-oathsworn")
    assert second.read_bytes() == data


def test_an_unshared_build_makes_the_same_roster_content(tmp_path, pack):
    build, out, info = make(tmp_path, pack, "party-ember-circle")
    back = build_from_document(parse_yaml(share.unshare_text(info["code"], pack), "back.yaml"), pack)
    other = tmp_path / "back.pdf"
    info2 = write_roster(pack, back, other)
    assert info2["code"] == info["code"] and info2["hash"] == info["hash"]


def test_a_build_naming_unknown_cards_still_gets_a_roster_without_a_code(tmp_path, pack):
    text = LEGAL_BOSS.replace("pillar-leg", "pilar-leg")
    _build, out, info = make(tmp_path, pack, "unknown", text=text)
    page = words(text_of(out)[0])
    assert info["code"] is None and info["qr"] is None and not info["legal"]
    assert "No share code" in page and "pilar-leg" in page
    assert "card.unknown" in page


def test_unknown_paper_is_an_input_error_and_writes_nothing(tmp_path, pack):
    build = load_build(PRESETS / "boss-brood-matron.yaml", pack)
    out = tmp_path / "never.pdf"
    with pytest.raises(InputError):
        write_roster(pack, build, out, paper="a3")
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_cli_roster(in_repo, tmp_path):
    out = tmp_path / "r.pdf"
    result = CliRunner().invoke(main, ["roster", "card_data/boss_fight/presets/boss-brood-matron.yaml",
                                       "-o", str(out), "--paper", "letter"])
    assert result.exit_code == 0, result.output
    assert "1 page(s), LEGAL, 78/100 points, build hash" in result.output
    assert out.is_file() and len(PdfReader(str(out)).pages) == 1
    missing = CliRunner().invoke(main, ["roster", "card_data/boss_fight/presets/nope.yaml"])
    assert missing.exit_code == 2 and "no such build file" in missing.output
