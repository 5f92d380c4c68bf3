"""No PDF references a font it does not embed (issue 15): a print shop's preflight flags
any font that is only named, even when no glyph is drawn with it. Checked with pdffonts
over every PDF of every pack: the home kit (cards, calibration, maps, pieces, rulebook,
quick reference), gutterfold, print-shop and a roster sheet."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.build import build_folder
from generator.export.options import BuildOptions
from generator.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]
PACKS = sorted(p.name for p in (REPO / "card_data").iterdir() if (p / "game.yaml").is_file())


def fonts_of(pdf: Path) -> list[tuple[str, str]]:
    """(name, emb) for every font pdffonts lists."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()
    rows = []
    for line in out[2:]:
        cols = line.split()
        # name ... type encoding emb sub uni object-id generation: emb is the 5th field from the end
        rows.append((cols[0], cols[-5]))
    return rows


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("pack", PACKS)
def test_every_font_of_every_output_is_embedded(pack, tmp_path):
    out = tmp_path / pack
    for profile in ("home", "gutterfold", "print-shop"):
        try:
            list(build_folder(REPO / "card_data" / pack, options=BuildOptions(profile=profile), out_dir=out, parallel=False))
        except InputError as exc:  # Battle Bosses' 180 mm dashboards do not fit half a gutterfold sheet
            assert profile == "gutterfold" and {p.code for p in exc.problems} == {"sheet.fit"}, exc.problems
    presets = sorted((REPO / "card_data" / pack / "presets").glob("*.yaml"))
    if presets:
        from generator.render.roster.sheet import write_roster
        from generator.share.decklist_files import load_target
        p, build = load_target(presets[0], None)
        write_roster(p, build, out / "roster.pdf")
    pdfs = sorted(out.rglob("*.pdf"))
    names = {p.name for p in pdfs}
    assert {"cards.pdf", "calibration.pdf", "cards-print-shop.pdf"} <= names
    if (REPO / "card_data" / pack / "rules").is_dir():
        assert {"rulebook.pdf", "quick-reference.pdf"} <= names
    for pdf in pdfs:
        fonts = fonts_of(pdf)
        assert fonts, f"{pdf.name}: no fonts at all?"
        missing = [name for name, emb in fonts if emb != "yes"]
        assert not missing, f"{pack}/{pdf.name} names fonts it does not embed: {missing}"
