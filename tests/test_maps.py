"""Hex maps: the file format, every map check (a passing and a failing map, the rule id, the
hex named and the file:line:column of the offending value), the Boss Fight maps, and
maps.pdf read back: hex edges at the stated size, overlap rows on both neighbouring
sheets, alignment marks, the PNG export and its stated pitch."""

from __future__ import annotations

import copy
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

from generator.grids import hexgrid as hg
from generator.core.errors import InputError
from generator.grids.hexgrid import Hex
from generator.pack.load import load_build
from generator.maps import Footprint, load_map, validate_hexmap, validate_map
from generator.maps.load import MAPS
from generator.maps.checks import footprint_of, largest_party, preset_footprints
from generator.pack.load import load_presets as preset_builds
from generator.render.maps.document import build_maps_pdf, draw_map_thumbnail, export_map_pngs, plan_sheets
from generator.render.maps.shapes import draw_hex_shape
from generator.render.maps.page import MARGIN_MM
from generator.render.maps.palette import COLOUR
from generator.render.base.pdfout import MM, new_canvas

from conftest import LEGAL_BOSS, PACK_DIR, REPO

HEX_MM = 25.4
TOLERANCE_MM = 0.05


# ---- helpers -------------------------------------------------------------------------------


@pytest.fixture
def write_map(tmp_path):
    """write_map(text, name) -> Path of a map file inside tmp_path/maps/."""
    folder = tmp_path / "maps"
    folder.mkdir(exist_ok=True)

    def write(text: str, name: str = "test-map.yaml") -> Path:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def fp(*hexes, name="Test Boss") -> Footprint:
    return Footprint(name, "boss", frozenset(Hex(*h) for h in hexes), "test")


def check(pack, path: Path, footprints=(), party: int = 0, setup: str = "zones"):
    """These tests check the zone machinery, so zones are enforced unless a test asks for the
    rules' own setup (Boss Fight's zones are an optional scenario: tests/test_boss_fight_design.py)."""
    return validate_hexmap(load_map(pack, path), pack, list(footprints), party, setup)


def rules(report) -> list[str]:
    return sorted(v.rule for v in report.violations)


def one(report, rule: str):
    found = [v for v in report.violations if v.rule == rule]
    assert len(found) == 1, (rule, [v.message for v in report.violations])
    return found[0]


def position(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of needle in text."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def at(violation) -> tuple[int, int]:
    return violation.location.line, violation.location.column


def pack_with_maps(pack, paths):
    """A shallow copy of the pack that holds only the given map files."""
    clone = copy.copy(pack)
    clone.map_files = sorted(Path(p) for p in paths)
    # the copy must not share maps the original has already loaded (load once, per pack)
    clone.loaded = pack.loaded.without(MAPS)
    return clone


# ---- the format ----------------------------------------------------------------------------


def test_shapes_hexagon_rectangle_explicit_and_remove(pack, write_map):
    hexagon = load_map(pack, write_map("title: H\nshape: {hexagon: 3}\n", "h.yaml"))
    assert len(hexagon.hexes) == 37 and hexagon.hex_size == HEX_MM and hexagon.orientation == "pointy"
    rect = load_map(pack, write_map("title: R\norientation: flat\nshape: {rectangle: {columns: 5, rows: 4}}\n", "r.yaml"))
    assert len(rect.hexes) == 20 and rect.orientation == "flat"
    explicit = load_map(pack, write_map("title: E\nhex_size: 30\nshape: {hexes: [[0, 0], [1, 0], [5, 5]]}\n", "e.yaml"))
    assert explicit.hexes == {Hex(0, 0), Hex(1, 0), Hex(5, 5)} and explicit.hex_size == 30
    holed = load_map(pack, write_map("title: O\nshape: {hexagon: 2, remove: [[0, 0]]}\n", "o.yaml"))
    assert len(holed.hexes) == 18 and Hex(0, 0) not in holed.hexes


@pytest.mark.parametrize("text, code, needle", [
    ("title: X\nshape: {hexagon: 2}\nobstacle: [[0, 0]]\n", "schema.unknown-key", "obstacle"),
    ("title: X\nshape: {hexagon: 2}\nhex_size: big\n", "schema.type", "big"),
    ("title: X\nshape: {hexagon: 2, rectangle: {columns: 2, rows: 2}}\n", "schema.shape", "{hexagon"),
    ("title: X\nshape: {hexagon: 2}\nobstacles: [[0, 0, 1]]\n", "schema.length", "[0, 0, 1]"),
    ("title: X\nshape: {hexagon: 2}\norientation: sideways\n", "schema.choice", "sideways"),
    ("shape: {hexagon: 2}\n", "schema.missing", "shape"),
])
def test_a_file_that_is_not_a_map_raises_input_error_with_its_position(pack, write_map, text, code, needle):
    path = write_map(text)
    with pytest.raises(InputError) as caught:
        load_map(pack, path)
    problem = caught.value.problems[0]
    assert problem.code == code, caught.value
    if code != "schema.missing":
        assert (problem.location.line, problem.location.column) == position(text, needle)
    if code == "schema.unknown-key":
        assert "obstacles" in (problem.fix or "")


# ---- map.terrain ---------------------------------------------------------------------------


def test_declared_terrain_passes(pack, write_map):
    report = check(pack, write_map("title: T\nshape: {hexagon: 2}\nterrain:\n  rubble: [[1, 0]]\n"))
    assert report.legal and report.violations == []


def test_unknown_terrain_names_the_hex_and_suggests_the_right_id(pack, write_map):
    text = "title: T\nshape: {hexagon: 2}\nterrain:\n  rubbel: [[1, -1]]\n"
    v = one(check(pack, write_map(text)), "map.terrain")
    assert "hex (1,-1)" in v.message and "rubbel" in v.message
    assert v.fix == "did you mean `rubble`?"
    assert at(v) == position(text, "rubbel")


# ---- map.off-grid --------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["obstacles", "terrain", "zones"])
def test_hexes_off_the_map_are_named_with_their_position(pack, write_map, key):
    values = "[[0, 1], [9, -4]]"
    body = {"obstacles": f"obstacles: {values}\n", "terrain": f"terrain:\n  rubble: {values}\n",
            "zones": f"zones:\n  hero: {values}\n"}[key]
    text = "title: T\nshape: {hexagon: 3}\n" + body
    report = check(pack, write_map(text))
    v = one(report, "map.off-grid")
    assert "hex (9,-4)" in v.message and v.severity == "error"
    assert at(v) == position(text, "[9, -4]")


def test_hexes_on_the_map_are_not_off_grid(pack, write_map):
    report = check(pack, write_map("title: T\nshape: {hexagon: 3}\nobstacles: [[3, -3], [-3, 0]]\n"))
    assert "map.off-grid" not in rules(report)


# ---- map.connectivity ----------------------------------------------------------------------


def test_an_open_map_is_connected(pack, write_map):
    report = check(pack, write_map("title: C\nshape: {hexagon: 3}\nobstacles: [[1, 0], [0, 1]]\n"))
    assert "map.connectivity" not in rules(report)


def test_a_walled_in_hex_is_unreachable_and_named(pack, write_map):
    ring = ", ".join(f"[{h.q}, {h.r}]" for h in hg.ring(Hex(0, 0), 1))
    text = f"title: C\nshape: {{hexagon: 3}}\nobstacles: [{ring}]\n"
    v = one(check(pack, write_map(text)), "map.connectivity")
    assert "hex (0,0)" in v.message and v.severity == "error"
    # it points at the first-written obstacle of the wall around it
    first = hg.ring(Hex(0, 0), 1)[0]
    assert at(v) == position(text, f"[{first.q}, {first.r}]")


def test_impassable_terrain_also_cuts_a_map_in_two(pack, write_map):
    # two rows of hexes with deep water across both at q = 0
    cells = ", ".join([f"[{q}, 0]" for q in range(-3, 4)] + [f"[{q}, 1]" for q in range(-3, 3)])
    text = f"title: R\nshape: {{hexes: [{cells}]}}\nterrain:\n  deep-water: [[0, 0], [0, 1], [-1, 1]]\n"
    v = one(check(pack, write_map(text)), "map.connectivity")
    assert "cannot be reached" in v.message and re.search(r"hex \(-?\d+,-?\d+\)", v.message)


# ---- map.boss-fit --------------------------------------------------------------------------


def test_a_footprint_that_fits_and_moves_passes(pack, write_map):
    report = check(pack, write_map("title: F\nshape: {hexagon: 2}\n"), [fp((0, 0), (1, 0), (2, 0))])
    assert report.legal, [v.message for v in report.violations]
    assert report.stats["footprints"]["Test Boss"]["start_placements"] > 0


def test_rotation_is_tried_a_line_fits_a_corridor_only_when_turned(pack, write_map):
    corridor = ", ".join(f"[0, {r}]" for r in range(6))  # a straight line of hexes along r
    path = write_map(f"title: Corridor\nshape: {{hexes: [{corridor}]}}\n")
    report = check(pack, path, [fp((0, 0), (1, 0), (2, 0))])  # written along q
    assert report.legal, [v.message for v in report.violations]


def test_no_legal_placement_names_the_blocking_hex_and_its_line(pack, write_map):
    text = "title: Tight\nshape: {hexagon: 1}\nobstacles: [[1, 0]]\n"
    report = check(pack, write_map(text), [fp(*hg.hexagon(1), name="Big Boss")])
    v = one(report, "map.boss-fit")
    assert "no legal placement" in v.message and "hex (1,0) is an obstacle" in v.message
    assert "Big Boss" in v.message
    assert at(v) == position(text, "[1, 0]")


def test_a_footprint_that_fits_but_cannot_step_or_turn_fails(pack, write_map):
    text = "title: Pen\nshape: {hexagon: 1}\n"
    v = one(check(pack, write_map(text), [fp(*hg.hexagon(1))]), "map.boss-fit")
    assert "never move" in v.message and "hex (0,0)" in v.message
    assert at(v) == position(text, "{hexagon")


def test_turning_in_place_counts_as_moving(pack, write_map):
    # a domino in a 3-hex triangle cannot step anywhere, but it can swing round a hex
    path = write_map("title: Triangle\nshape: {hexes: [[0, 0], [1, 0], [0, 1]]}\n")
    report = check(pack, path, [fp((0, 0), (1, 0))])
    assert "map.boss-fit" not in rules(report)


def test_the_boss_zone_must_hold_the_whole_footprint(pack, write_map):
    text = "title: Z\nshape: {hexagon: 3}\nzones:\n  boss: [[0, 0], [1, 0]]\n"
    ok = check(pack, write_map(text, "ok.yaml"), [fp((0, 0), (1, 0))])
    assert "map.boss-fit" not in rules(ok)
    v = one(check(pack, write_map(text, "bad.yaml"), [fp((0, 0), (1, 0), (2, 0))]), "map.boss-fit")
    assert "start zone" in v.message and "outside the `boss` zone" in v.message
    assert at(v) == position(text, "boss:")


def test_unknown_zone_names_are_reported(pack, write_map):
    text = "title: Z\nshape: {hexagon: 3}\nzones:\n  bos: [[0, 0]]\n"
    v = one(check(pack, write_map(text)), "map.zone")
    assert v.fix == "did you mean `boss`?" and "hex (0,0)" in v.message


# ---- map.placement -------------------------------------------------------------------------


def test_room_for_the_party_passes(pack, write_map):
    report = check(pack, write_map("title: P\nshape: {hexagon: 3}\n"), [fp((0, 0))], party=4)
    assert "map.placement" not in rules(report)


def test_too_little_room_for_the_party_names_the_boss_hex(pack, write_map):
    # Without zones the rules' setup applies: the boss player picks the spot, so the map fails
    # only when no spot leaves room (a radius-2 map has room at its rim; radius 1 has none)
    assert "map.placement" not in rules(check(pack, write_map("title: P\nshape: {hexagon: 2}\n", "two.yaml"),
                                              [fp((0, 0))], party=4))
    text = "title: P\nshape: {hexagon: 1}\n"
    v = one(check(pack, write_map(text), [fp((0, 0))], party=4), "map.placement")
    assert "best: centred on hex (" in v.message and "party of 4" in v.message and v.observed == 0


def test_the_hero_zone_limits_where_the_party_may_start(pack, write_map):
    text = "title: P\nshape: {hexagon: 4}\nzones:\n  hero: [[4, 0], [4, -1], [3, 1]]\n"
    v = one(check(pack, write_map(text), [fp((0, 0))], party=4), "map.placement")
    assert "`hero` zone" in v.message
    assert at(v) == position(text, "hero:")


def test_the_party_size_comes_from_the_largest_hero_preset(pack):
    builds = preset_builds(pack)
    parties = [len(b.characters) for b in builds if b.side == "hero"]
    assert largest_party(pack) == (max(parties) if parties else 4)


# ---- footprints from builds and the CLI ----------------------------------------------------


def test_a_footprint_is_the_union_of_the_pieces_sizes_or_one_hex(pack):
    for build in preset_builds(pack):
        if build.side != "boss":
            continue
        union = set()
        for entry in build.characters[0].bases:
            union |= {Hex(*h) for h in pack.cards[entry.card.id].fields.get("size") or []}
        assert footprint_of(pack, build).hexes == (union or {Hex(0, 0)})
    assert preset_footprints(pack), "the pack has boss presets"


def test_validate_with_a_boss_build_checks_that_build(pack, write_map, tmp_path):
    build = tmp_path / "brute.yaml"
    build.write_text(LEGAL_BOSS, encoding="utf-8")
    footprint = footprint_of(pack, load_build(build, pack))
    assert footprint.size == 3  # Test Brute: a three-hex triangle
    # two hexes in a row: room for every preset's one-hex boss, not for this triangle
    pair = write_map("title: Pair\nshape: {hexes: [[0, 0], [1, 0]]}\n", "pair.yaml")
    report = validate_map(pack, pair, build)
    assert set(report.stats["footprints"]) == {"Test Brute"}
    v = one(report, "map.boss-fit")
    assert "Test Brute" in v.message and "hex (" in v.message
    roomy = write_map("title: Roomy\nshape: {hexagon: 5}\n", "roomy.yaml")
    assert validate_map(pack, roomy, build).legal


def test_pnp_validate_map_with_build_exits_1_and_reports_json(pack, write_map, tmp_path):
    build = tmp_path / "brute.yaml"
    build.write_text(LEGAL_BOSS.replace("      - piece: basalt-jaw\n", "      - piece: colossus-frame\n"),
                     encoding="utf-8")
    tiny = write_map("title: Tiny\nshape: {hexagon: 1}\n", "tiny.yaml")
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(tiny), "--build", str(build),
                             "--pack", str(PACK_DIR), "--format", "json"],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    found = [v for r in doc["results"] for v in r["violations"] if v["rule"] == "map.boss-fit"]
    assert found and re.search(r"hex \(-?\d+,-?\d+\)", found[0]["message"])
    assert found[0]["file"].endswith("tiny.yaml") and found[0]["line"] >= 1


# ---- the Boss Fight maps -------------------------------------------------------------------


def test_the_pack_has_at_least_six_varied_maps(pack):
    maps = [load_map(pack, p) for p in pack.map_files]
    assert len(maps) >= 6
    kinds = set()
    for p in pack.map_files:
        text = p.read_text()
        kinds |= {k for k in ("hexagon:", "rectangle:", "hexes:", "remove:") if k in text}
    assert kinds == {"hexagon:", "rectangle:", "hexes:", "remove:"}
    assert {m.orientation for m in maps} == {"pointy", "flat"}
    assert len({len(m.hexes) for m in maps}) == len(maps), "maps of different sizes"
    assert max(len(plan_sheets(m, "a4").windows) for m in maps) >= 4, "one map tiles over several sheets"
    assert min(len(plan_sheets(m, "a4").windows) for m in maps) == 1, "one map prints on a single sheet"


@pytest.mark.parametrize("path", sorted((PACK_DIR / "maps").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_pack_map_holds_every_boss_preset(pack, path):
    report = validate_map(pack, path)
    assert report.legal and not report.violations, [str(v.location) + " " + v.message for v in report.violations]
    bosses = {f.name for f in preset_footprints(pack)}
    assert set(report.stats["footprints"]) == bosses


# ---- reading maps.pdf back -----------------------------------------------------------------


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def painted(page, reader):
    """Every painted path of a page: (operator, is_clip, [subpath points in page pt])."""
    ctm, stack, current, clip, out = IDENTITY, [], [], False, []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        nums = [float(x) for x in operands] if op in (b"cm", b"m", b"l", b"c", b"v", b"y", b"re") else []

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
        elif op in (b"c", b"v", b"y"):
            current[-1].append(tr(*nums[-2:]))
        elif op == b"re":
            x, y, w, h = nums
            current.append([tr(x, y), tr(x + w, y), tr(x + w, y + h), tr(x, y + h)])
        elif op in (b"W", b"W*"):
            clip = True
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if current:
                out.append((op, clip, current))
            current, clip = [], False
    return out


def hexagons(paths, stroked=True):
    """Closed six-corner outlines: (centre, flat-to-flat mm, edge lengths mm, corners)."""
    out = []
    for op, clip, subpaths in paths:
        if clip or (stroked and op not in (b"S", b"s", b"B", b"b")):
            continue
        for pts in subpaths:
            if len(pts) != 6:
                continue
            cx, cy = sum(p[0] for p in pts) / 6, sum(p[1] for p in pts) / 6
            mids = [((pts[i][0] + pts[(i + 1) % 6][0]) / 2, (pts[i][1] + pts[(i + 1) % 6][1]) / 2) for i in range(6)]
            flats = [math.dist(mids[i], mids[i + 3]) / MM for i in range(3)]
            edges = [math.dist(pts[i], pts[(i + 1) % 6]) / MM for i in range(6)]
            out.append(((cx, cy), flats, edges, pts))
    return out


def page_texts(page) -> list[tuple[str, float, float]]:
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x, y = tm[4], tm[5]
            a, b, c, d, e, f = cm
            found.append((text.strip(), a * x + c * y + e, b * x + d * y + f))

    page.extract_text(visitor_text=visit)
    return found


class Pages:
    """maps.pdf read back once: each page's painted paths and texts, parsed on first use
    (pypdf parses content streams in pure Python, so every page is parsed only once)."""

    def __init__(self, path: Path):
        self.reader = pypdf.PdfReader(str(path))
        self._paths: dict = {}
        self._texts: dict = {}

    def __len__(self) -> int:
        return len(self.reader.pages)

    def raw(self, i: int) -> bytes:
        return self.reader.pages[i].get_contents().get_data()

    def paths(self, i: int):
        if i not in self._paths:
            self._paths[i] = painted(self.reader.pages[i], self.reader)
        return self._paths[i]

    def texts(self, i: int):
        if i not in self._texts:
            self._texts[i] = page_texts(self.reader.pages[i])
        return self._texts[i]

    def sheet(self, title: str, label: str) -> int:
        """The page of one true-scale sheet (ReportLab writes these ASCII strings as is)."""
        for i in range(len(self)):
            raw = self.raw(i)
            if f"({title})".encode() in raw and f"(Sheet {label})".encode() in raw:
                return i
        raise AssertionError(f"no sheet {label} of {title}")


@pytest.fixture(scope="module")
def maps_pdf(tmp_path_factory):
    from generator.pack.load import load_pack
    pack = load_pack(PACK_DIR)
    out = tmp_path_factory.mktemp("maps") / "maps.pdf"
    info = build_maps_pdf(pack, out)
    return pack, out, Pages(out), info


def test_maps_pdf_has_overview_assembly_and_sheets_for_every_map(maps_pdf):
    pack, out, pages, info = maps_pdf
    maps = [load_map(pack, p) for p in pack.map_files]
    plans = [plan_sheets(m) for m in maps]
    expected = sum(1 + (len(p.windows) > 1) + len(p.windows) for p in plans)
    assert len(pages) == expected == info["pages"]
    assert info["sheets"] == sum(len(p.windows) for p in plans)
    raw = b"".join(pages.raw(i) for i in range(len(pages)))
    for m, plan in zip(maps, plans):
        assert f"({m.title})".encode() in raw
        for w in plan.windows:  # every sheet labelled with its row and column
            assert f"(Sheet {w.label})".encode() in raw
    assert raw.count(b"(Legend)") == len(maps)
    assert raw.count(b"putting the sheets together") == sum(len(p.windows) > 1 for p in plans)
    # a scale bar on every true-scale sheet
    assert raw.count(b"This bar must measure 100 mm") == info["sheets"]


@pytest.mark.parametrize("title", ["The Great Hall", "The Drowned Crossing"])  # pointy and flat
def test_hex_edges_print_at_the_stated_flat_to_flat_size(maps_pdf, title):
    pack, out, pages, info = maps_pdf
    i = pages.sheet(title, "R1 C1")
    grid = [h for h in hexagons(pages.paths(i)) if min(h[1]) > HEX_MM * 0.95]
    assert len(grid) >= 30
    for _centre, flats, edges, _ in grid:
        for flat in flats:  # every pair of opposite edges
            assert abs(flat - HEX_MM) <= TOLERANCE_MM, flat
        for edge in edges:  # a regular hexagon's edge is centre-to-corner: 25.4 / √3
            assert abs(edge - HEX_MM / math.sqrt(3)) <= TOLERANCE_MM, edge
    # neighbouring hexes sit exactly one hex apart, so the grid does not drift across the sheet
    centres = [g[0] for g in grid]
    pitches = [min(math.dist(c, o) for o in centres if o != c) / MM for c in centres]
    assert all(abs(p - HEX_MM) <= TOLERANCE_MM for p in pitches)


def _complete_hexes(pages: Pages, i: int) -> set[str]:
    """Labels of the hexes printed whole on a sheet (inside its clip window)."""
    paths = pages.paths(i)
    window = next(pts for op, clip, sub in paths if clip for pts in sub if len(pts) == 4)
    x0, y0 = min(p[0] for p in window), min(p[1] for p in window)
    x1, y1 = max(p[0] for p in window), max(p[1] for p in window)
    grid = [h for h in hexagons(paths) if min(h[1]) > HEX_MM * 0.95]
    labels = [(t, x, y) for t, x, y in pages.texts(i) if re.fullmatch(r"-?\d+,-?\d+", t)]
    out = set()
    for centre, _, _, corners in grid:
        inside = all(x0 - 0.01 <= x <= x1 + 0.01 and y0 - 0.01 <= y <= y1 + 0.01 for x, y in corners)
        if not inside:
            continue
        label = min(labels, key=lambda item: math.dist((item[1], item[2]), centre))
        assert math.dist((label[1], label[2]), centre) < HEX_MM / 2 * MM
        out.add(label[0])
    return out


def _hex(label: str) -> Hex:
    q, r = label.split(",")
    return Hex(int(q), int(r))


@pytest.mark.parametrize("name", ["great-hall", "drowned-crossing"])  # pointy and flat
def test_neighbouring_sheets_share_one_row_of_whole_hexes(maps_pdf, name):
    pack, out, pages, info = maps_pdf
    m = load_map(pack, PACK_DIR / "maps" / f"{name}.yaml")
    plan = plan_sheets(m)
    assert (plan.rows, plan.cols) == (2, 2)
    whole = {w.label: {_hex(s) for s in _complete_hexes(pages, pages.sheet(m.title, w.label))}
             for w in plan.windows}
    # every hex of the map is printed whole on at least one sheet
    assert set().union(*whole.values()) == m.hexes
    # Pointy grids have straight rows (r) and zigzag columns; flat grids straight columns (q).
    line = (lambda h: h.r) if m.orientation == "pointy" else (lambda h: h.q)
    across = (lambda h: h.q) if m.orientation == "pointy" else (lambda h: h.r)
    straight_seam = ("R1 C1", "R2 C1") if m.orientation == "pointy" else ("R1 C1", "R1 C2")
    zigzag_seam = ("R1 C1", "R1 C2") if m.orientation == "pointy" else ("R1 C1", "R2 C1")
    # across a straight seam exactly one whole line of hexes is printed on both sheets
    a, b = straight_seam
    shared = whole[a] & whole[b]
    lines = {line(h) for h in shared}
    assert len(lines) == 1
    (only,) = lines
    assert shared == {h for h in whole[a] if line(h) == only} == {h for h in whole[b] if line(h) == only}
    # across a zigzag seam, one whole hex of every line is printed on both sheets
    a, b = zigzag_seam
    shared = whole[a] & whole[b]
    assert {line(h) for h in shared} == {line(h) for h in whole[a]}
    assert all(sum(1 for h in shared if line(h) == k) == 1 for k in {line(h) for h in shared})
    assert len({across(h) for h in shared}) >= 2  # a zigzag, not a straight line


def _crosses(paths) -> list[tuple[float, float]]:
    """Centres of alignment crosses: a vertical and a horizontal 8 mm stroke meeting."""
    lines = [sub for op, clip, subs in paths if op == b"S" and not clip for sub in subs if len(sub) == 2]
    vertical = {(round(a[0], 2), round((a[1] + b[1]) / 2, 2)) for a, b in lines
                if abs(a[0] - b[0]) < 1e-6 and abs(abs(a[1] - b[1]) / MM - 8) < 0.01}
    horizontal = {(round((a[0] + b[0]) / 2, 2), round(a[1], 2)) for a, b in lines
                  if abs(a[1] - b[1]) < 1e-6 and abs(abs(a[0] - b[0]) / MM - 8) < 0.01}
    return sorted(vertical & horizontal)


def test_alignment_crosses_sit_on_the_seam_on_both_sheets(maps_pdf):
    pack, out, pages, info = maps_pdf
    hall = load_map(pack, PACK_DIR / "maps" / "great-hall.yaml")
    plan = plan_sheets(hall)
    left, right = plan.at(0, 0), plan.at(0, 1)
    under = _crosses(pages.paths(pages.sheet(hall.title, "R1 C1")))
    over = _crosses(pages.paths(pages.sheet(hall.title, "R1 C2")))
    seam_under = (MARGIN_MM + right.x0 - left.x0) * MM  # where R1 C2's cut edge lands on R1 C1
    seam_over = MARGIN_MM * MM  # R1 C2's own left (cut) edge
    on_under = sorted(y for x, y in under if abs(x - seam_under) < 0.02)
    on_over = sorted(y for x, y in over if abs(x - seam_over) < 0.02)
    assert len(on_under) >= 2 and on_under == on_over


# ---- options, determinism, images, small drawings ------------------------------------------


def test_letter_paper_and_identical_bytes_on_rebuild(pack, tmp_path):
    small = pack_with_maps(pack, [PACK_DIR / "maps" / "ruined-chapel.yaml"])
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    build_maps_pdf(small, a, paper="letter")
    build_maps_pdf(small, b, paper="letter")
    assert a.read_bytes() == b.read_bytes()
    sizes = {(round(float(p.mediabox.width) / MM, 1), round(float(p.mediabox.height) / MM, 1))
             for p in pypdf.PdfReader(str(a)).pages}
    assert sizes <= {(215.9, 279.4), (279.4, 215.9)}
    with pytest.raises(ValueError):
        build_maps_pdf(small, tmp_path / "c.pdf", paper="a3")


def test_png_export_states_its_hex_pitch(pack, tmp_path):
    from PIL import Image
    small = pack_with_maps(pack, [PACK_DIR / "maps" / "ruined-chapel.yaml"])
    result = export_map_pngs(small, tmp_path / "png")
    png = tmp_path / "png" / "ruined-chapel_hex100px.png"
    sidecar = json.loads((tmp_path / "png" / "ruined-chapel.json").read_text())
    assert png in result["files"] and sidecar["image"] == png.name and sidecar["hex_pitch_px"] == 100
    chapel = load_map(pack, PACK_DIR / "maps" / "ruined-chapel.yaml")
    x0, y0, x1, y1 = chapel.layout().bounds(chapel.hexes)
    with Image.open(png) as image:
        assert image.mode == "RGB"
        # the page is the map plus a 2 mm margin, rendered at 100 px per 25.4 mm
        assert abs(image.width - (x1 - x0 + 4) * 100 / HEX_MM) <= 1
        assert abs(image.height - (y1 - y0 + 4) * 100 / HEX_MM) <= 1
        assert (image.width, image.height) == (sidecar["width_px"], sidecar["height_px"])
        # hex (0,0)'s centre is open ground (the colour maps' ground), one pitch to the right is hex (1,0)
        ox, oy = sidecar["origin_hex_center_px"]
        assert image.getpixel((round(ox), round(oy))) == tuple(round(v * 255) for v in COLOUR.ground)


def _vertices(buffer: bytes) -> list[tuple[float, float]]:
    reader = pypdf.PdfReader(io.BytesIO(buffer))
    return [p for op, clip, subs in painted(reader.pages[0], reader) for sub in subs for p in sub]


def test_draw_hex_shape_fits_its_box_and_caps_the_hex_size():
    buffer = io.BytesIO()
    c = new_canvas(buffer, (100 * MM, 100 * MM), "shape")
    f2f = draw_hex_shape(c, [(0, 0), (1, 0), (1, -1)], 10, 20, 30, 15)
    c.showPage()
    single = draw_hex_shape(c, [], 10, 20, 30, 15, max_hex_mm=8)
    c.save()
    assert 0 < f2f and single == 8
    for x, y in _vertices(buffer.getvalue()):
        assert 10 * MM - 0.01 <= x <= 40 * MM + 0.01 and 20 * MM - 0.01 <= y <= 35 * MM + 0.01


def test_draw_map_thumbnail_fits_its_box(pack):
    hall = load_map(pack, PACK_DIR / "maps" / "great-hall.yaml")
    buffer = io.BytesIO()
    c = new_canvas(buffer, (120 * MM, 120 * MM), "thumb")
    scale = draw_map_thumbnail(c, hall, 5, 5, 80, 60)
    c.save()
    assert 0 < scale < 1
    x0, y0, x1, y1 = hall.layout().bounds(hall.hexes)
    assert min(80 / (x1 - x0), 60 / (y1 - y0)) == pytest.approx(scale)
    reader = pypdf.PdfReader(io.BytesIO(buffer.getvalue()))
    outlines = hexagons(painted(reader.pages[0], reader))
    assert len(outlines) >= len(hall.hexes)
    for _, _, _, corners in outlines:
        for x, y in corners:
            assert 5 * MM - 0.05 <= x <= 85 * MM + 0.05 and 5 * MM - 0.05 <= y <= 65 * MM + 0.05
