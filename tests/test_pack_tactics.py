"""The tactics pack (card_data/tactics) and the general capabilities it brought to the engine:
square maps with heights (`grid: square`), the `map.reachability` check under the pack's
movement model, text fields with a `pattern`, and square maps printed at true scale.

A passing and a failing map for every check, with the tile named and the file:line:column
of the value to change; a malformed push value refused where it is written; and maps.pdf
read back: every tile 30 mm square (within 0.05 mm, /work/shared/PRINT-SPECS.md tolerance
for true-scale maps), neighbouring sheets sharing one row or column of tiles."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from pypdf.generic import ContentStream

from conftest import REPO
from generator.cli import main
from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.maps import load_map, load_pack_maps, validate_map
from generator.maps.reach import weakest_mover
from generator.render.maps.document import build_maps_pdf, draw_map_thumbnail, plan_sheets
from generator.render.maps.palette import COLOUR
from generator.render.base.pdfout import MM, new_canvas
from generator.grids.squaregrid import Square
from generator.render.base.layout import area_cells

TACTICS = REPO / "card_data" / "tactics"
TILE_MM = 30.0
TOLERANCE_MM = 0.05


@pytest.fixture(scope="module")
def pack():
    return load_pack(TACTICS)


@pytest.fixture
def write_map(tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir(exist_ok=True)

    def write(text: str, name: str = "test-map.yaml") -> Path:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def position(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of needle in text."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def found(report, rule: str, severity: str | None = None):
    return [v for v in report.violations if v.rule == rule and (severity is None or v.severity == severity)]


def pnp(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


# ---- the pack ----------------------------------------------------------------------------------


def test_the_pack_validates_with_its_presets_and_maps(in_repo):
    result = pnp("validate", "card_data/tactics")
    assert result.exit_code == 0, result.output
    assert "2 maps" in result.output and "0 warning(s)" in result.output


def test_the_pack_has_units_with_every_attribute_and_at_least_two_square_maps(pack):
    units = pack.cards_of("unit")
    assert len(units) >= 4
    for card in units:
        for name in ("move", "jump", "health", "attack", "reach", "los"):
            assert card.fields.get(name) is not None, (card.id, name)
    assert any(c.fields.get("aoe") for c in units) and any(c.fields.get("push") for c in units)
    assert any(c.fields.get("los") is False for c in units)  # an indirect attacker
    maps = load_pack_maps(pack)
    assert len(maps) >= 2 and all(m.grid == "square" for m in maps)
    assert all(len(m.levels) >= 3 for m in maps)  # real elevation, not a flat board
    assert all(m.tile_size == TILE_MM for m in maps)


def test_treasure_is_a_terrain_kind_on_every_map_that_units_may_share(pack, write_map):
    """The design's Treasure (a tile a unit may end on though it is occupied) is pack data: a
    walkable terrain kind whose rule text says so; each shipped map has some, on real tiles."""
    treasure = pack.spec.terrain["treasure"]
    assert treasure.walkable and not treasure.blocks_sight and "even while another unit" in treasure.text
    for m in load_pack_maps(pack):
        spots = [cell for cell, tid in m.terrain.items() if tid == "treasure"]
        assert len(spots) == 2 and all(m.walkable(cell) for cell in spots), m.title
    # a misspelt kind is named, with the fix
    text = "title: T\ngrid: square\ncolumns: 2\nrows: 1\nterrain:\n  tresure: [[1, 0]]\n"
    (bad,) = found(validate_map(pack, write_map(text)), "map.terrain")
    assert bad.fix == "did you mean `treasure`?"

def test_the_weakest_unit_is_the_smallest_move_and_jump_among_the_cards(pack):
    mover = weakest_mover(pack)
    units = pack.cards_of("unit")
    assert mover.move == min(c.fields["move"] for c in units) == 2
    assert mover.jump == min(c.fields["jump"] for c in units) == 1


# ---- square map files --------------------------------------------------------------------------


def test_a_square_map_reads_heights_open_air_and_its_default_tile(pack, write_map):
    m = load_map(pack, write_map("title: S\ngrid: square\ncolumns: 3\nrows: 2\nheights:\n"
                                 "  - [0, 1, null]\n  - [2]\n"))
    assert m.grid == "square" and m.tile_size == TILE_MM
    assert m.heights == {Square(0, 0): 0, Square(1, 0): 1, Square(0, 1): 2}  # null and a short row: open air
    flat = load_map(pack, write_map("title: F\ngrid: square\ncolumns: 4\nrows: 3\n", "flat.yaml"))
    assert len(flat.heights) == 12 and set(flat.heights.values()) == {0}


@pytest.mark.parametrize("text, code, needle", [
    ("title: X\ngrid: square\ncolumns: 2\nrows: 2\nheights:\n  - [0, 0, 0]\n", "schema.length", "0]"),
    ("title: X\ngrid: square\ncolumns: 2\nrows: 1\nheights:\n  - [0, 0]\n  - [1, 1]\n", "schema.length", "[1, 1]"),
    ("title: X\ngrid: square\ncolumns: 2\nrows: 2\nheights:\n  - [0, high]\n", "schema.type", "high"),
    ("title: X\ngrid: square\ncolumns: 2\nrows: 2\nheights:\n  - [0, -1]\n", "schema.range", "-1"),
    ("title: X\ngrid: square\ncolumns: 2\nrows: 2\nhex_size: 30\n", "schema.unknown-key", "hex_size"),
    ("title: X\ngrid: triangle\nshape: {hexagon: 2}\n", "schema.choice", "triangle"),
])
def test_a_broken_square_map_is_refused_with_its_position(pack, write_map, text, code, needle):
    path = write_map(text)
    with pytest.raises(InputError) as caught:
        load_map(pack, path)
    problem = caught.value.problems[0]
    assert problem.code == code, caught.value
    assert problem.location.file.endswith("test-map.yaml")
    line, column = position(text, needle)
    assert problem.location.line == line


def test_obstacles_and_zones_off_the_tiles_and_unknown_terrain_are_named(pack, write_map):
    text = ("title: T\ngrid: square\ncolumns: 3\nrows: 2\nheights:\n  - [0, 0, null]\n  - [0, 0, 0]\n"
            "obstacles: [[2, 0]]\nterrain:\n  bush: [[0, 1]]\n")
    report = validate_map(pack, write_map(text))
    (off,) = found(report, "map.off-grid")
    assert "tile (2,0)" in off.message and (off.location.line, off.location.column) == position(text, "[2, 0]")
    (terrain,) = found(report, "map.terrain")
    assert terrain.fix == "did you mean `brush`?"


# ---- map.reachability --------------------------------------------------------------------------

STAIRS = """\
title: Stairs
grid: square
columns: 5
rows: 3
heights:
  - [0, 1, 2, 3, 4]
  - [0, 0, 1, 2, 3]
  - [0, 0, 0, 1, 2]
zones:
  dawn: [[0, 0], [0, 1]]
  dusk: [[0, 2], [1, 2]]
"""


def test_a_map_climbable_one_level_at_a_time_passes(pack, write_map):
    report = validate_map(pack, write_map(STAIRS))
    assert report.legal and found(report, "map.reachability") == []
    assert report.stats["reachability"]["jump"] == 1 and report.stats["reachability"]["unreachable"] == 0


CLIFF = STAIRS.replace("  - [0, 1, 2, 3, 4]\n  - [0, 0, 1, 2, 3]\n  - [0, 0, 0, 1, 2]\n",
                       "  - [0, 1, 2, 3, 2]\n  - [0, 0, 1, 2, 5]\n  - [0, 0, 0, 1, 4]\n")


def test_a_plateau_too_high_to_climb_fails_naming_the_tile_file_and_line(pack, write_map):
    path = write_map(CLIFF, "cliff.yaml")
    report = validate_map(pack, path)
    errors = found(report, "map.reachability", "error")
    assert len(errors) == 1 and not report.legal
    v = errors[0]
    # the plateau (4,1) height 5 and (4,2) height 4: every way up is a climb of 3 levels
    assert "tile (4,1) (height 5)" in v.message and "1 tile joined to it" in v.message
    assert "climb of 3 levels" in v.message and "Jump 1" in v.message
    assert v.location.file.endswith("cliff.yaml")
    # the location is the tile's own height value in `heights` (row 1, column 4)
    assert (v.location.line, v.location.column) == position(CLIFF, "5]")
    assert v.path == "heights[1][4]"
    assert "[4, 1]" in str(v.observed) and "[4, 2]" in str(v.observed)


def test_the_failure_reaches_the_command_line_with_file_line_and_exit_code(in_repo, write_map):
    path = write_map(CLIFF, "cliff.yaml")
    result = pnp("validate", path, "--pack", "card_data/tactics")
    assert result.exit_code == 1
    line, column = position(CLIFF, "5]")
    assert re.search(rf"cliff\.yaml:{line}:{column}: error map\.reachability tile \(4,1\)", result.output), \
        result.output


def test_a_one_square_gap_is_leapt_but_a_wider_one_is_not(pack, write_map):
    gap = ("title: G\ngrid: square\ncolumns: 5\nrows: 1\nheights:\n  - [0, null, 0, null, null]\n"
           "zones: {dawn: [[0, 0]]}\n")
    ok = validate_map(pack, write_map(gap.replace(", null, null]", ", 0, 0]"), "gap1.yaml"))
    assert ok.legal, [v.message for v in ok.violations]
    wide = gap.replace("[0, null, 0, null, null]", "[0, null, null, 0, 0]")
    report = validate_map(pack, write_map(wide, "gap2.yaml"))
    (v,) = found(report, "map.reachability", "error")
    assert "tile (3,0)" in v.message and "open air" in v.message


def test_a_pit_with_no_way_out_is_a_trap_warning(pack, write_map):
    pit = ("title: P\ngrid: square\ncolumns: 4\nrows: 3\nheights:\n  - [2, 2, 2, 2]\n  - [2, 0, 0, 2]\n"
           "  - [2, 2, 2, 2]\nzones: {dawn: [[0, 0]], dusk: [[3, 2]]}\n")
    report = validate_map(pack, write_map(pit))
    assert report.legal  # reachable by dropping in: a warning, not an error
    (v,) = found(report, "map.reachability", "warning")
    assert "tile (1,1)" in v.message and "trap" in v.message


def test_every_start_zone_must_reach_every_tile(pack, write_map):
    # a ledge the dusk side can only drop from: dawn starts below and can never climb up to it
    text = ("title: Z\ngrid: square\ncolumns: 3\nrows: 2\nheights:\n  - [3, 3, 3]\n  - [0, 0, 0]\n"
            "zones: {dawn: [[0, 1]], dusk: [[0, 0]]}\n")
    report = validate_map(pack, write_map(text))
    errors = found(report, "map.reachability", "error")
    assert errors and all("`dawn` start zone" in v.message for v in errors)
    assert "climb of 3 levels" in errors[0].message


def test_the_movement_profile_of_the_pack_decides(tmp_path, write_map):
    root = tmp_path / "pack"
    shutil.copytree(TACTICS, root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("  leap: 1 ", "  profile: {move: 2, jump: 3}\n  leap: 1 "),
                                    encoding="utf-8")
    strong = load_pack(root)
    assert weakest_mover(strong).jump == 3
    assert found(validate_map(strong, write_map(CLIFF, "cliff.yaml")), "map.reachability", "error") == []


# ---- pattern fields ----------------------------------------------------------------------------


def _pack_with_card_text(tmp_path, old: str, new: str) -> tuple[Path, str]:
    root = tmp_path / "pack"
    shutil.copytree(TACTICS, root)
    cards = root / "cards" / "units.yaml"
    text = cards.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    cards.write_text(text, encoding="utf-8")
    return root, text


@pytest.mark.parametrize("bad", ["X3", "B", "B0", "back 2", "B2 L1"])
def test_a_malformed_push_is_refused_with_its_file_and_line(tmp_path, bad):
    root, text = _pack_with_card_text(tmp_path, "push: B2\n", f'push: "{bad}"\n')
    with pytest.raises(InputError) as caught:
        load_pack(root)
    (problem,) = caught.value.problems
    assert problem.code == "schema.format"
    assert problem.location.file.endswith("units.yaml")
    assert (problem.location.line, problem.location.column) == position(text, f'"{bad}"')
    assert "push" in problem.message and "B, L or R" in problem.expected  # the field's pattern_help


@pytest.mark.parametrize("good", ["B2", "R1", "F", "B1, L1", "L3,F"])
def test_well_formed_pushes_load(tmp_path, good):
    root, _ = _pack_with_card_text(tmp_path, "push: B2\n", f'push: "{good}"\n')
    assert load_pack(root).cards["ridge-lancer"].fields["push"] == good


def test_a_malformed_push_fails_pnp_validate_with_exit_code_2(in_repo, tmp_path):
    root, text = _pack_with_card_text(tmp_path, "push: R1\n", "push: R\n")
    result = pnp("validate", root)
    assert result.exit_code == 2
    assert f"units.yaml:{position(text, 'push: R')[0]}:" in result.output


def test_a_bad_aoe_is_refused_too(tmp_path):
    root, text = _pack_with_card_text(tmp_path, 'aoe: "+"\n', 'aoe: "cross"\n')
    with pytest.raises(InputError) as caught:
        load_pack(root)
    assert caught.value.problems[0].code == "schema.format"
    assert caught.value.problems[0].location.line == position(text, '"cross"')[0]


@pytest.mark.parametrize("written,value", [("1", "1"), ('"+"', "+"), ("2", "2"), ("3x3", "3x3")])
def test_areas_load_as_the_design_writes_them(tmp_path, written, value):
    """The design: "AOE 1 is a + shape"; `aoe: 1` is the plus shape, `+` its other spelling."""
    root, _ = _pack_with_card_text(tmp_path, 'aoe: "+"\n', f"aoe: {written}\n")
    card = load_pack(root).cards["mortar-crew"]
    assert card.fields["aoe"] == value
    cells = sorted(map(tuple, area_cells(card.fields["aoe"])))
    if value in ("1", "+"):
        assert cells == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]


@pytest.mark.parametrize("bad", ["0", "10", "true"])
def test_an_area_of_no_tiles_or_not_a_number_is_refused(tmp_path, bad):
    root, _ = _pack_with_card_text(tmp_path, 'aoe: "+"\n', f"aoe: {bad}\n")
    with pytest.raises(InputError) as caught:
        load_pack(root)
    assert caught.value.problems[0].code in ("schema.format", "schema.type")


COMPANY = """\
pack: tactics
name: Twins
side: dawn
points_limit: battle
characters:
  - unit: ridge-lancer
  - unit: ridge-lancer
  - unit: cliff-runner
"""


def test_a_company_may_take_the_same_unit_twice(check):
    result = check(COMPANY)
    assert not [v for v in result.report.violations if v.rule == "unit.copies"]


def test_a_third_copy_of_a_unit_is_refused(check):
    result = check(COMPANY + "  - unit: ridge-lancer\n")
    (v,) = [v for v in result.report.violations if v.rule == "unit.copies"]
    assert v.severity == "error" and not result.report.legal
    assert v.message == "Ridge Lancer is taken 3 times; a company may take the same unit at most 2 times"
    assert v.location.line == 9 and (v.observed, v.expected) == (3, "at most 2 printed")  # the third


def test_a_pattern_that_is_not_a_regular_expression_is_a_pack_error(tmp_path):
    root = tmp_path / "pack"
    shutil.copytree(TACTICS, root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("pattern: '^(F|[BLR]", "pattern: '^((F|[BLR]", 1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_pack(root)
    assert "regular expression" in caught.value.problems[0].message
    assert caught.value.problems[0].location.file.endswith("game.yaml")


# ---- maps.pdf at true scale --------------------------------------------------------------------


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def stroked_quads(page, reader) -> list[list[tuple[float, float]]]:
    """Every stroked, unclipped four-corner subpath of a page, in page points."""
    ctm, stack, current, clip, out = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], [], False, []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        nums = [float(x) for x in operands] if op in (b"cm", b"m", b"l", b"re") else []

        def tr(x, y, ctm=ctm):  # the matrix in force at this operator
            a, b, c, d, e, f = ctm
            return (a * x + c * y + e, b * x + d * y + f)

        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(nums), ctm)
        elif op == b"m":
            current.append([tr(*nums)])
        elif op == b"l":
            current[-1].append(tr(*nums))
        elif op == b"re":
            x, y, w, h = nums
            current.append([tr(x, y), tr(x + w, y), tr(x + w, y + h), tr(x, y + h)])
        elif op in (b"W", b"W*"):
            clip = True
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if op in (b"S", b"s", b"B", b"b") and not clip:
                out += [sub for sub in current if len(sub) == 4]
            current, clip = [], False
    return out


@pytest.fixture(scope="module")
def maps_pdf(pack, tmp_path_factory):
    out = tmp_path_factory.mktemp("tactics") / "maps.pdf"
    info = build_maps_pdf(pack, out)
    return out, pypdf.PdfReader(str(out)), info


def _sheet_pages(reader, title: str) -> dict:
    pages = {}
    for i, page in enumerate(reader.pages):
        raw = page.get_contents().get_data()
        label = re.search(rb"\(Sheet (R\d+ C\d+)\)", raw)
        if f"({title})".encode() in raw and label:
            pages[label.group(1).decode()] = i
    return pages


def test_maps_pdf_has_an_overview_and_labelled_true_scale_sheets_for_every_map(pack, maps_pdf):
    out, reader, info = maps_pdf
    maps = load_pack_maps(pack)
    plans = [plan_sheets(m) for m in maps]
    assert info["sheets"] == sum(len(p.windows) for p in plans)
    assert len(reader.pages) == info["pages"] == sum(1 + (len(p.windows) > 1) + len(p.windows) for p in plans)
    raw = b"".join(p.get_contents().get_data() for p in reader.pages)
    assert raw.count(b"(Legend)") == len(maps)
    assert raw.count(b"This bar must measure 100 mm") == info["sheets"]
    assert raw.count(b"one tile is 30 mm square.") == info["sheets"]
    for m, plan in zip(maps, plans):
        assert set(_sheet_pages(reader, m.title)) == {w.label for w in plan.windows}


@pytest.mark.parametrize("title", ["The Broken Terraces", "The Twin Spires"])
def test_tiles_print_at_exactly_30_mm(maps_pdf, title):
    out, reader, info = maps_pdf
    page = _sheet_pages(reader, title)["R1 C1"]
    quads = [q for q in stroked_quads(reader.pages[page], reader)
             if TILE_MM * 0.95 < math.dist(q[0], q[1]) / MM < TILE_MM * 1.05]
    assert len(quads) >= 20
    for q in quads:
        for i in range(4):
            side = math.dist(q[i], q[(i + 1) % 4]) / MM
            assert abs(side - TILE_MM) <= TOLERANCE_MM, side
    # the grid does not drift: every tile sits a whole number of tiles from the first one
    centres = [(sum(p[0] for p in q) / 4, sum(p[1] for p in q) / 4) for q in quads]
    x0, y0 = centres[0]
    for x, y in centres:
        for offset in ((x - x0) / MM, (y - y0) / MM):
            assert abs(offset - round(offset / TILE_MM) * TILE_MM) <= TOLERANCE_MM, offset
    pitches = [min(math.dist(c, o) for o in centres if o != c) / MM for c in centres]
    assert sum(abs(p - TILE_MM) <= TOLERANCE_MM for p in pitches) >= len(pitches) * 0.8


def test_neighbouring_sheets_share_exactly_one_line_of_tiles(pack):
    for m in load_pack_maps(pack):
        plan = plan_sheets(m)
        for win in plan.windows:
            for nb, axis in ((plan.at(win.row, win.col + 1), 0), (plan.at(win.row + 1, win.col), 1)):
                if nb is None:
                    continue
                shared = (win.x1 - nb.x0) if axis == 0 else (win.y1 - nb.y0)
                assert abs(shared - m.tile_size) < 1e-6, (m.id, win.label, nb.label)


def _fills(raw: bytes) -> set:
    """The fill colours a content stream sets, as ("g", grey) and ("rg", r, g, b) rounded to 3 places."""
    greys = {("g", round(float(v), 3)) for v in re.findall(rb"(?:^|\s)([\d.]+) g\b", raw)}
    return greys | {("rg", *(round(float(v), 3) for v in m))
                    for m in re.findall(rb"(?:^|\s)([\d.]+) ([\d.]+) ([\d.]+) rg\b", raw)}


def test_elevation_is_printed_as_numbers_tints_and_thicker_edges(pack, maps_pdf, tmp_path):
    out, reader, info = maps_pdf
    m = next(m for m in load_pack_maps(pack) if m.title == "The Broken Terraces")
    page = reader.pages[_sheet_pages(reader, m.title)["R1 C1"]]
    raw = page.get_contents().get_data()
    for level in m.levels:  # in colour, a tint of the ramp per level
        assert ("rg", *(round(v, 3) for v in COLOUR.height(level))) in _fills(raw), level
    saver = build_maps_pdf(pack, tmp_path / "saver.pdf", ink="saver")
    saver_reader = pypdf.PdfReader(str(tmp_path / "saver.pdf"))
    assert saver["sheets"] == info["sheets"]
    saver_raw = saver_reader.pages[_sheet_pages(saver_reader, m.title)["R1 C1"]].get_contents().get_data()
    assert not any(f[0] == "rg" for f in _fills(saver_raw))  # the ink saver: greys alone
    for level in m.levels:  # a grey per level, a tenth darker each
        assert ("g", round(max(0.5, 1.0 - 0.1 * level), 3)) in _fills(saver_raw), level
    texts = []
    page.extract_text(visitor_text=lambda t, *a: texts.append(t.strip()))
    assert {str(h) for h in m.levels} <= set(texts)  # the big height numbers
    widths = {round(float(w), 2) for w in re.findall(rb"([\d.]+) w\n", raw)}
    assert max(widths) > 3 * min(widths)  # contour lines far heavier than the grid


def test_a_square_map_thumbnail_fits_its_box(pack):
    import io
    m = load_pack_maps(pack)[0]
    c = new_canvas(io.BytesIO(), (200 * MM, 200 * MM), "t", "t")
    scale = draw_map_thumbnail(c, m, 10, 10, 60, 40)
    assert scale * m.rows * m.tile_size <= 40 + 1e-6 and scale * m.columns * m.tile_size <= 60 + 1e-6


def test_the_whole_kit_builds(in_repo, tmp_path):
    result = pnp("build", "card_data/tactics", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    for name in ("cards.pdf", "maps.pdf", "rulebook.pdf"):
        assert (tmp_path / name).stat().st_size > 1000


def test_png_export_states_its_tile_pitch(pack, tmp_path):
    import json

    from PIL import Image

    from generator.render.maps.document import export_map_pngs
    info = export_map_pngs(pack, tmp_path)
    assert info["images"] == len(pack.map_files)
    for m in load_pack_maps(pack):
        sidecar = json.loads((tmp_path / f"{m.id}.json").read_text())
        assert sidecar["grid"] == "square" and sidecar["tile_pitch_px"] == 100
        with Image.open(tmp_path / sidecar["image"]) as image:
            assert image.size == (sidecar["width_px"], sidecar["height_px"])
        # the board plus a 2 mm margin each side, at 100 px per 30 mm tile
        assert abs(sidecar["width_px"] - (m.columns * TILE_MM + 4) * 100 / TILE_MM) <= 1
        assert sidecar["heights"][0][0] == m.heights.get(Square(0, 0))
