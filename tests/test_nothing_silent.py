"""Nothing accepted silently: art that would print blank or that declares XML entities (a
"billion laughs"), a build with nothing to print, and a party's size, which only the pack
(or the table) limits, with one hard bound for hostile files (core/limits.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import LEGAL_BOSS, LEGAL_PARTY, PACK_DIR
from generator.cli import main
from generator.core.limits import MAX_CHARACTERS
from generator.rules.engine import validate_build
from generator.pack.load import load_build, load_pack

SIZES = Path(__file__).resolve().parent / "fixtures" / "packs" / "sizes"

LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY a "aaaaaaaaaa">\n'
          + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">\n' for a, b in zip("abcdefg", "bcdefgh"))
          + ']>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="5">&h;</text>'
          '<circle cx="5" cy="5" r="4"/></svg>\n')
EMPTY_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g/></svg>\n'
GOOD_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4" fill="#dddddd"/></svg>\n'  # light: card text lies over it


def pnp(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def pack_with_art(tmp_path: Path, name: str, write) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(SIZES, pack)
    (pack / "art").mkdir(exist_ok=True)
    write(pack / "art" / name)
    (pack / "cards" / "zz.yaml").write_text(
        "cards:\n  - id: art-unit\n    name: Art Unit\n    type: unit\n    set: core\n    role: Guard\n"
        f"    stats: {{power: 1}}\n    text: Has art.\n    art: art/{name}\n", encoding="utf-8")
    return pack


@pytest.mark.parametrize("name, write, code", [
    ("laughs.svg", lambda p: p.write_text(LAUGHS), "art.unsafe"),
    ("empty.svg", lambda p: p.write_text(EMPTY_SVG), "art.blank"),
    ("clear.png", lambda p: Image.new("RGBA", (40, 40), (0, 0, 0, 0)).save(p), "art.blank"),
    ("good.svg", lambda p: p.write_text(GOOD_SVG), None),
    ("white.png", lambda p: Image.new("RGB", (40, 40), (255, 255, 255)).save(p), None),  # white ink is art
    ("half.png", lambda p: Image.new("RGBA", (40, 40), (200, 0, 0, 128)).save(p), None),
], ids=["billion-laughs", "empty-svg", "transparent-png", "svg", "white-png", "half-transparent-png"])
def test_art_that_would_print_blank_or_is_unsafe_is_an_error(tmp_path, name, write, code):
    pack = pack_with_art(tmp_path, name, write)
    for args in (["validate", pack], ["build", pack, "--only", "cards", "-o", tmp_path / "out"]):
        result = pnp(*args)
        if code is None:
            assert result.exit_code == 0, result.output
        else:
            said = " ".join(result.output.split())
            assert result.exit_code == 2 and code in said and "art-unit" in said, result.output
            assert "Traceback" not in result.output
    made = sorted(p.name for p in (tmp_path / "out").iterdir()) if (tmp_path / "out").exists() else []
    assert made == ([] if code else ["CREDITS.txt", "calibration.pdf", "cards.pdf"])


def test_a_build_with_no_characters_prints_nothing_and_says_so(tmp_path):
    empty = tmp_path / "nobody.yaml"
    empty.write_text(LEGAL_PARTY.split("characters:\n")[0] + "characters: []\n", encoding="utf-8")
    result = pnp("build", PACK_DIR, "--build", empty, "-o", tmp_path / "out")
    assert result.exit_code == 2 and "build.empty" in result.output and "no characters" in result.output
    assert not (tmp_path / "out").exists()  # not a 0-page PDF
    party = tmp_path / "party.yaml"
    party.write_text(LEGAL_PARTY, encoding="utf-8")
    result = pnp("build", PACK_DIR, "--build", party, "--only", "cards", "-o", tmp_path / "out")
    assert result.exit_code == 0 and (tmp_path / "out" / "party-cards.pdf").is_file(), result.output


def party_of(n: int) -> str:
    head, rest = LEGAL_PARTY.split("characters:\n")
    torva = rest.split("  - hero: wren-ashby")[0].replace("    equipment: [knights-longsword]\n", "    equipment: []\n")
    return head.replace("points_limit: 100", "points_limit: none") + "characters:\n" + torva * n


def test_a_party_has_no_maximum_of_its_own_only_the_hard_bound(tmp_path):
    pack = load_pack(PACK_DIR)
    big = tmp_path / "big.yaml"
    big.write_text(party_of(60), encoding="utf-8")  # past the old silent cap of 50
    report = validate_build(pack, load_build(big, pack))
    assert not [v for v in report.violations if v.rule == "build.characters"]
    too_big = tmp_path / "too-big.yaml"
    too_big.write_text(party_of(MAX_CHARACTERS + 1), encoding="utf-8")
    result = pnp("validate", too_big, "--pack", PACK_DIR)
    assert result.exit_code == 2 and f"at most {MAX_CHARACTERS}" in " ".join(result.output.split()), result.output
    assert pnp("validate", big, "--pack", PACK_DIR, "--max-characters", MAX_CHARACTERS).exit_code == 0
    assert pnp("validate", big, "--pack", PACK_DIR, "--max-characters", MAX_CHARACTERS + 1).exit_code == 2


def test_the_packs_own_maximum_still_holds(tmp_path):
    pack = load_pack(PACK_DIR)  # a boss build has exactly one character: the pack's side says so
    head, rest = LEGAL_BOSS.split("characters:\n")
    two = tmp_path / "two-bosses.yaml"
    two.write_text(head + "characters:\n" + rest + rest.replace("Test Brute", "Other Brute"), encoding="utf-8")
    (v,) = [v for v in validate_build(pack, load_build(two, pack)).violations if v.rule == "build.characters"]
    assert (v.observed, v.expected) == (2, "exactly 1")
