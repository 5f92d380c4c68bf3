"""Maps in colour (the default) and the ink saver (`pnp build --ink saver`): real colour where the
colour look says so and none in the saver, every terrain in its own colour on the map and in its
legend, rock on obstacles and icons on feature terrain, every ink within the print shops' CMYK ink
limit, and the option refused with a clear message when misspelt."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.errors import InputError
from generator.export.cmyk import CmykConverter, DEFAULT_INK_LIMIT, convert_pdf
from generator.pack.load import load_pack
from generator.preflight.pdfcheck import rendered_max_ink
from generator.render.maps.document import build_maps_pdf
from generator.render.maps.palette import COLOUR, HEIGHT_COLOURS, PATTERN_COLOURS, SAVER, palette_for, rgb

REPO = Path(__file__).resolve().parents[1]
MAP_PACKS = ("boss_fight", "tactics", "battle_bosses")
COLOUR_OP = re.compile(rb"(?:^|\s)([\d.]+) ([\d.]+) ([\d.]+) (rg|RG)\b")


def _streams(path: Path) -> list[bytes]:
    """Every content stream of the PDF: pages and form XObjects (patterns, icons)."""
    out = []
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            out.append(b"".join(c.read_bytes() for c in ([page.Contents] if isinstance(page.Contents, pikepdf.Stream)
                                                             else page.Contents)))
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Form:
                out.append(obj.read_bytes())
    return out


def _colours(streams: list[bytes]) -> set:
    return {tuple(round(float(v), 3) for v in m[:3]) for s in streams for m in COLOUR_OP.findall(s)}


def _key(ink) -> tuple:
    return tuple(round(v, 3) for v in ink)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The Boss Fight maps in both looks."""
    pack = load_pack(REPO / "card_data" / "boss_fight")
    tmp = tmp_path_factory.mktemp("maps")
    colour = build_maps_pdf(pack, tmp / "colour.pdf")
    saver = build_maps_pdf(pack, tmp / "saver.pdf", ink="saver")
    return pack, tmp / "colour.pdf", tmp / "saver.pdf", colour, saver


def test_colour_maps_carry_every_terrain_colour_and_the_saver_none(built):
    pack, colour_pdf, saver_pdf, colour, saver = built
    assert colour == saver  # the same maps, sheets and pages either way
    palette = palette_for(pack)
    found = _colours(_streams(colour_pdf))
    for tid, spec in pack.spec.terrain.items():
        ink = palette.terrain(spec)
        assert _key(ink.fill) in found and _key(ink.marks) in found, tid  # the fill and its pattern's shade
    assert {_key(COLOUR.ground), _key(COLOUR.obstacle), _key(COLOUR.rock)} <= found
    boss = rgb(pack.spec.sets["boss"].color)  # the boss side's start zone is dashed in its cards' colour
    assert _key(boss) in {tuple(round(float(v), 3) for v in m[:3]) for s in _streams(colour_pdf)
                          for m in COLOUR_OP.findall(s) if m[3] == b"RG"}
    # the ink saver: greys alone, no colour operator anywhere
    assert not _colours(_streams(saver_pdf))


def test_every_terrain_fill_is_on_the_map_and_on_its_legend(built):
    """A terrain's pattern is a form per scale: the overview's hexes and the legend's swatch are
    drawn at different sizes, so each terrain in use has its fill in two forms or more."""
    pack, colour_pdf, *_ = built
    palette = palette_for(pack)
    forms = []
    with pikepdf.open(colour_pdf) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Form:
                forms.append(obj.read_bytes())
    from generator.maps import load_pack_maps
    used = {tid for m in load_pack_maps(pack) for tid in m.terrain_ids_in_use()}
    assert used
    for tid in used:
        fill = _key(palette.terrain(pack.spec.terrain[tid]).fill)
        holding = [f for f in forms if fill in _colours([f])]
        assert len(holding) >= 2, (tid, len(holding))


def test_obstacles_have_rock_and_features_their_icons(built):
    pack, colour_pdf, saver_pdf, *_ = built
    with pikepdf.open(colour_pdf) as pdf:
        names = {str(k) for page in pdf.pages for k in page.Resources.get("/XObject", {}).keys()}
    icons = {spec.icon for spec in pack.spec.terrain.values() if spec.icon}
    assert icons and all(any(name.startswith(f"/FormXob.icon-{icon}-") for name in names) for icon in icons), names
    with pikepdf.open(saver_pdf) as pdf:
        saver_names = {str(k) for page in pdf.pages for k in page.Resources.get("/XObject", {}).keys()}
    assert not any("icon-" in name for name in saver_names)


def test_the_maps_are_byte_identical_when_built_again(built, tmp_path):
    pack, colour_pdf, saver_pdf, *_ = built
    build_maps_pdf(pack, tmp_path / "again.pdf")
    build_maps_pdf(pack, tmp_path / "again-saver.pdf", ink="saver")
    assert (tmp_path / "again.pdf").read_bytes() == colour_pdf.read_bytes()
    assert (tmp_path / "again-saver.pdf").read_bytes() == saver_pdf.read_bytes()


@pytest.mark.parametrize("pack_id", MAP_PACKS)
def test_every_colour_a_map_can_print_is_within_the_print_shop_ink_limit(pack_id):
    """Each ink of the colour palette, the pack's terrain (fill, pattern, label band) and its zones,
    through the shipped FOGRA39 profile with no limit applied: none needs more than DriveThruCards'
    240 %, so the limiter never has to change a map's colours."""
    pack = load_pack(REPO / "card_data" / pack_id)
    palette = palette_for(pack)
    conv = CmykConverter(ink_limit=400)
    inks = {name: value for name, value in palette.__dict__.items() if isinstance(value, tuple) and len(value) == 3
            and isinstance(value[0], float)}
    inks |= {f"zone {zid}": ink for zid, ink in palette.zone_colours}
    inks |= {f"default {k}": rgb(v) for k, v in PATTERN_COLOURS.items()}
    inks |= {f"height {i}": rgb(v) for i, v in enumerate(HEIGHT_COLOURS)}
    for tid, spec in pack.spec.terrain.items():
        ink = palette.terrain(spec)
        inks |= {f"{tid} fill": ink.fill, f"{tid} marks": ink.marks, f"{tid} band": ink.band}
    over = {name: round(sum(conv.rgb(*value)) * 100) for name, value in inks.items()
            if sum(conv.rgb(*value)) * 100 > DEFAULT_INK_LIMIT}
    assert not over


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript renders the CMYK file")
def test_the_colour_maps_in_cmyk_stay_under_the_limit_on_a_render(tmp_path):
    """The print-shop conversion of a whole colour maps PDF (with no limit, so nothing is clipped),
    rendered by Ghostscript as the preflight does: every page within 240 % total ink."""
    pack = load_pack(REPO / "card_data" / "tactics")
    build_maps_pdf(pack, tmp_path / "maps.pdf")
    convert_pdf(tmp_path / "maps.pdf", tmp_path / "cmyk.pdf", CmykConverter(ink_limit=400))
    ink = rendered_max_ink(tmp_path / "cmyk.pdf")
    assert ink and max(ink.values()) <= DEFAULT_INK_LIMIT + 1.0, ink


def test_the_saver_palette_is_the_black_and_white_look():
    assert not SAVER.colour and SAVER.ground is None and SAVER.rock is None
    assert all(isinstance(v, float) for k, v in SAVER.__dict__.items()
               if k not in ("name", "colour", "ground", "rock", "zone_colours", "title_font"))


def test_ink_option_builds_the_saver_and_refuses_a_misspelling(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["build", str(REPO / "card_data" / "tactics"), "--only", "maps", "--ink", "saver",
                                  "-q", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert not _colours(_streams(tmp_path / "maps.pdf"))
    bad = runner.invoke(main, ["build", str(REPO / "card_data" / "tactics"), "--ink", "sepia", "-o", str(tmp_path)])
    assert bad.exit_code == 2 and "sepia" in bad.output and "colour" in bad.output and "saver" in bad.output


def test_a_terrain_icon_that_is_no_built_in_icon_is_refused_where_it_is_written(tmp_path):
    pack_dir = tmp_path / "tactics"
    shutil.copytree(REPO / "card_data" / "tactics", pack_dir, ignore=shutil.ignore_patterns(".cache"))
    game = pack_dir / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "    icon: flame\n" in text
    game.write_text(text.replace("    icon: flame\n", "    icon: flames\n", 1), encoding="utf-8")
    line = game.read_text(encoding="utf-8").splitlines().index("    icon: flames") + 1
    with pytest.raises(InputError) as exc:
        load_pack(pack_dir)
    (problem,) = exc.value.problems
    assert problem.code == "pack.reference" and "flames" in problem.message and "flame" in (problem.fix or "")
    assert problem.location.line == line
