"""Map tiles and map regions, as general capabilities of the map format (docs/maps.md), tried on
the Boss Fight pack so nothing here depends on the game that first needed them:

- a map with `tile:` is a cut-out piece of a battlefield: it is validated like any map except
  for where a boss fits (a question for the assembled battlefield), and maps.pdf prints it on
  tile sheets, several to a page, at true scale, with a cut line round its outline;
- `regions:` name areas of a map: printed with heavy borders and their names, checked for
  hexes off the map or in two regions;
- `hexgrid.outline`, the pure geometry behind both."""

from __future__ import annotations

import math

import pypdf
import pytest

from generator.grids import hexgrid as hg
from generator.core.errors import InputError
from generator.grids.hexgrid import Hex
from generator.maps import load_map, validate_hexmap
from generator.maps.checks import preset_footprints
from generator.pack.load import load_pack
from generator.render.maps.document import build_maps_pdf
from generator.render.maps.tiles import plan_tiles
from conftest import REPO
from test_maps import hexagons, pack_with_maps, painted

TILE = """\
title: Broken Bridge
hex_size: 30
shape: {hexes: [[0, 0], [1, 0], [2, 0]]}
tile: {set: Red tiles, label: R1, color: "#b33a2a", copies: 2}
terrain:
  rubble: [[1, 0]]
"""


@pytest.fixture
def write_map(tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir(exist_ok=True)

    def write(text: str, name: str) -> object:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


# ---- geometry --------------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_outline_of_a_group_of_hexes(orientation):
    layout = hg.Layout.from_flat_to_flat(orientation, 20.0)
    (one,) = hg.outline(layout, [Hex(0, 0)])
    assert sorted(one) == sorted(layout.corners(Hex(0, 0)))
    (flower,) = hg.outline(layout, hg.hexagon(1))  # 7 hexes: 18 outer sides, none shared twice
    assert len(flower) == 18
    sides = [math.dist(flower[i], flower[(i + 1) % 18]) for i in range(18)]
    assert all(abs(s - layout.size) < 1e-9 for s in sides)
    ring = set(hg.hexagon(2)) - {Hex(0, 0)}  # a ring: the outer loop and the hole
    assert sorted(len(loop) for loop in hg.outline(layout, ring)) == [6, 30]


# ---- tiles: the format and the checks ------------------------------------------------------------


def test_a_tile_is_a_map_with_a_set_a_label_a_colour_and_copies(pack, write_map):
    m = load_map(pack, write_map(TILE, "r1.yaml"))
    assert (m.tile.set, m.tile.label, m.tile.color, m.tile.copies) == ("Red tiles", "R1", "#b33a2a", 2)
    assert len(m.hexes) == 3 and m.hex_size == 30


def test_a_tile_is_not_asked_to_hold_a_boss_but_a_board_is(pack, write_map):
    footprints = preset_footprints(pack)
    assert footprints and max(fp.size for fp in footprints) > 3
    tile = load_map(pack, write_map(TILE, "r1.yaml"))
    report = validate_hexmap(tile, pack, footprints, 4)
    assert report.legal and report.violations == [] and report.stats["tile"]["label"] == "R1"
    board = load_map(pack, write_map(TILE.replace("tile:", "# tile:"), "board.yaml"))
    assert "map.boss-fit" in {v.rule for v in validate_hexmap(board, pack, footprints, 4).violations}


def test_tiles_still_get_the_other_map_checks(pack, write_map):
    text = TILE.replace("rubble: [[1, 0]]", "rubbel: [[1, 0]]") + "obstacles: [[5, 5]]\n"
    report = validate_hexmap(load_map(pack, write_map(text, "r1.yaml")), pack, [], 4)
    assert {v.rule for v in report.violations} == {"map.terrain", "map.off-grid"}


@pytest.mark.parametrize("tile, needle", [
    ("{set: Red, label: R1, colour: '#b33a2a'}", "colour"),
    ("{set: Red, label: TOO-LONG-LABEL}", "TOO-LONG-LABEL"),
    ("{set: Red, label: R1, copies: 0}", "0"),
])
def test_a_broken_tile_block_is_an_input_error_at_its_line(pack, write_map, tile, needle):
    text = f"title: T\nshape: {{hexagon: 1}}\ntile: {tile}\n"
    with pytest.raises(InputError) as caught:
        load_map(pack, write_map(text, "t.yaml"))
    assert caught.value.problems[0].location.line == 3


# ---- tiles: printing -----------------------------------------------------------------------------


def test_tiles_pack_several_to_a_sheet_and_never_overlap(pack, write_map):
    tiles = [load_map(pack, write_map(TILE.replace("R1", f"R{n}"), f"r{n}.yaml")) for n in range(1, 6)]
    plan = plan_tiles(tiles, (210.0, 297.0), 10.0, 15.0, 12.0)
    placed = [p for page in plan.pages for p in page]
    assert len(placed) == 10 and len(plan.pages) == 1  # two copies each, all on one A4 sheet
    boxes = []
    for p in placed:
        x0, y0, x1, y1 = p.map.layout().bounds(p.map.hexes)
        boxes.append((p.left, p.top - (y1 - y0), p.left + (x1 - x0), p.top))
    for i, a in enumerate(boxes):
        assert a[0] >= 10 and a[2] <= 200 and a[1] >= 10 + 12 and a[3] <= 297 - 10 - 15
        for b in boxes[i + 1:]:
            assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= 4 - 1e-6


def test_maps_pdf_prints_tiles_at_true_scale_with_cut_lines(pack, write_map, tmp_path):
    paths = [write_map(TILE, "r1.yaml"), write_map(TILE.replace("R1", "R2").replace("copies: 2", "copies: 1"),
                                                    "r2.yaml")]
    out = tmp_path / "maps.pdf"
    info = build_maps_pdf(pack_with_maps(pack, paths), out)
    assert info == {"maps": 0, "tiles": 3, "sheets": 1, "pages": 2}  # the tiles' contents page + 1 sheet
    reader = pypdf.PdfReader(str(out))
    contents = reader.pages[0].get_contents().get_data()
    assert b"(Map tiles)" in contents and b"(Legend)" in contents and b"(Rubble)" in contents
    page = reader.pages[1]
    raw = page.get_contents().get_data()
    assert raw.count(b"pnp:tile:r1:") == 2 and raw.count(b"pnp:tile:r2:1:30:3") == 1
    assert b"This bar must measure 100 mm" in raw
    paths_drawn = painted(page, reader)
    grid = [h for h in hexagons(paths_drawn) if min(h[1]) > 30 * 0.95]
    assert len(grid) >= 9
    for _, flats, edges, _ in grid:
        assert all(abs(f - 30) <= 0.05 for f in flats) and all(abs(e - 30 / math.sqrt(3)) <= 0.05 for e in edges)
    # a 1 x 3 line of hexes has a 14-corner outline; each is stroked as the cut line
    outlines = {tuple(round(c, 1) for p in pts for c in p) for op, clip, subs in paths_drawn
                if not clip and op in (b"S", b"s") for pts in subs if len(pts) == 14}
    assert len(outlines) == 3


# ---- regions -------------------------------------------------------------------------------------


REGIONS = """\
title: Two Halves
shape: {rectangle: {columns: 4, rows: 2}}
regions:
  west: {name: The West, hexes: [[0, 0], [1, 0], [0, 1]]}
  east: {name: The East, hexes: [[2, 0], [3, 0], [1, 1], [2, 1], [3, 1]]}
"""


def test_regions_load_and_a_clean_map_passes(pack, write_map):
    m = load_map(pack, write_map(REGIONS, "halves.yaml"))
    assert m.region_names == {"west": "The West", "east": "The East"}
    assert len(m.regions["west"]) == 3 and len(m.regions["east"]) == 5
    report = validate_hexmap(m, pack, [], 4)
    assert report.legal and report.violations == []


def test_a_hex_in_two_regions_and_one_off_the_map_are_errors(pack, write_map):
    text = REGIONS.replace("[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0], [0, 1], [2, 0], [9, 9]]")
    report = validate_hexmap(load_map(pack, write_map(text, "halves.yaml")), pack, [], 4)
    rules = sorted((v.rule, v.severity) for v in report.violations)
    assert rules == [("map.off-grid", "error"), ("map.region-overlap", "error")]
    assert not report.legal
    overlap = next(v for v in report.violations if v.rule == "map.region-overlap")
    assert "(2,0)" in overlap.message.replace(" ", "") and overlap.location.line == 5
    assert overlap.fix == "take it out of `east` or out of `west`"
    off = next(v for v in report.violations if v.rule == "map.off-grid")
    assert off.path == "regions.west.hexes[4]"


def test_regions_print_with_their_names_and_a_legend_row(pack, write_map, tmp_path):
    out = tmp_path / "maps.pdf"
    build_maps_pdf(pack_with_maps(pack, [write_map(REGIONS, "halves.yaml")]), out)
    reader = pypdf.PdfReader(str(out))
    raw = b"".join(p.get_contents().get_data() for p in reader.pages)
    assert b"(Regions)" in raw and b"(THE WEST)" in raw and b"(THE EAST)" in raw


# ---- start zones on ground no figure may enter -----------------------------------------------

ZONED = """\
title: Gatehouse
hex_size: 30
shape: {hexes: [[0, 0], [1, 0], [2, 0], [3, 0]]}
tile: {set: Red tiles, label: R2}
zones:
  boss: [[0, 0], [1, 0]]
"""


def test_a_start_zone_on_open_ground_is_legal(pack, write_map):
    report = validate_hexmap(load_map(pack, write_map(ZONED, "gate.yaml")), pack, [], 4)
    assert report.legal and report.violations == []


@pytest.mark.parametrize("extra,ground", [
    ("obstacles: [[1, 0]]\n", "an obstacle"),
    ("terrain:\n  chasm: [[1, 0]]\n", "impassable Chasm"),
])
def test_a_start_space_no_figure_may_enter_is_an_error(pack, write_map, extra, ground):
    report = validate_hexmap(load_map(pack, write_map(ZONED + extra, "gate.yaml")), pack, [], 4)
    (v,) = [v for v in report.violations if v.rule != "map.connectivity"]  # (1, 0) also cuts the row
    assert (v.rule, v.severity) == ("map.zone-blocked", "error") and not report.legal
    assert ground in v.message and v.observed == [[1, 0]]
    assert v.location.line == 6 and v.path == "zones.boss[1]"


def test_a_base_hex_inside_a_spawn_zone_is_an_error(write_map):
    """The Battle Bosses arena: its team bases are terrain the pack makes impassable, so a base
    hex inside the bosses' spawn zone is a space no boss can be set up on."""
    bb = load_pack(REPO / "card_data" / "battle_bosses")
    arena = (REPO / "card_data" / "battle_bosses" / "maps" / "arena-6p.yaml").read_text(encoding="utf-8")
    assert validate_hexmap(load_map(bb, write_map(arena, "arena.yaml")), bb, [], 4).legal
    broken = arena.replace("boss: [[1, -6], ", "boss: [[2, -6], [1, -6], ", 1)
    report = validate_hexmap(load_map(bb, write_map(broken, "arena.yaml")), bb, [], 4)
    (v,) = [v for v in report.violations if v.severity == "error"]
    assert v.rule == "map.zone-blocked" and "impassable Team Base" in v.message and v.observed == [[2, -6]]
