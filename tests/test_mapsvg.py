"""Maps as SVG for screens: read the SVG back (xml.etree) and check cells, places and classes."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from generator.core.errors import InputError
from generator.grids.hexgrid import Hex
from generator.pack.load import load_pack
from generator.maps.load import load_map
from generator.render.maps.palette import COLOUR, luminance, rgb, svg_colour
from generator.render.maps.svg import MARGIN_MM, map_svg

from conftest import PACK_DIR, REPO

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str):
    return ET.fromstring(svg)


def cells(root) -> dict:
    """data-cell -> the cell polygon."""
    return {p.get("data-cell"): p for p in root.iterfind(".//svg:polygon", NS)
            if p.get("class", "").split()[:1] == ["cell"]}


def centre(polygon) -> tuple[float, float]:
    pts = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def corners(polygon) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]


@pytest.fixture(scope="module")
def crossing(pack):
    return load_map(pack, PACK_DIR / "maps" / "drowned-crossing.yaml")


@pytest.fixture(scope="module")
def tactics():
    return load_pack(REPO / "card_data" / "tactics")


@pytest.fixture(scope="module")
def terraces(tactics):
    return load_map(tactics, REPO / "card_data" / "tactics" / "maps" / "broken-terraces.yaml")


def test_hex_map_cells_positions_and_terrain(pack, crossing):
    root = parse(map_svg(crossing, pack))
    found = cells(root)
    assert len(found) == 127 == len(crossing.hexes)  # a hexagon of radius 6
    assert set(found) == {f"{h.q},{h.r}" for h in crossing.hexes}
    # terrain classes as the file gives them
    assert "terrain-deep-water" in found["0,-6"].get("class").split()
    assert found["0,-6"].get("data-terrain") == "deep-water"
    assert "terrain-thicket" in found["1,-3"].get("class").split()
    assert "terrain-rubble" in found["0,3"].get("class").split()
    assert "obstacle" in found["4,-2"].get("class").split()
    assert "terrain" not in found["1,1"].get("class").split()
    assert {p.get("data-cell") for p in found.values() if "terrain-thicket" in p.get("class")} == \
        {"1,-3", "2,-3", "-2,-2", "-2,-1", "3,0", "2,1", "-1,2", "-2,3"}
    # geometry: flat-top 25.4 mm hexes at true scale, in mm: neighbours 1.5 × size apart in x
    size = 25.4 / math.sqrt(3)
    x0, y0 = centre(found["0,0"])
    x1, y1 = centre(found["1,0"])
    assert x1 - x0 == pytest.approx(1.5 * size, abs=0.05)
    assert y1 - y0 == pytest.approx(25.4 / 2, abs=0.05)
    xq, yq = centre(found["0,1"])
    assert (xq - x0, yq - y0) == pytest.approx((0.0, 25.4), abs=0.05)
    pts = corners(found["0,0"])
    assert len(pts) == 6
    assert max(y for _, y in pts) - min(y for _, y in pts) == pytest.approx(25.4, abs=0.05)  # flat to flat
    # the viewBox holds every hex with the margin round it
    vb = [float(v) for v in root.get("viewBox").split()]
    all_pts = [p for poly in found.values() for p in corners(poly)]
    assert min(x for x, _ in all_pts) == pytest.approx(MARGIN_MM, abs=0.05)
    assert max(x for x, _ in all_pts) == pytest.approx(vb[2] - MARGIN_MM, abs=0.05)
    assert root.get("width") == f"{vb[2]:g}mm" or root.get("width").endswith("mm")


def test_hex_map_zones_labels_title(pack, crossing):
    svg = map_svg(crossing, pack)
    root = parse(svg)
    title = root.find("svg:title", NS)
    assert title.text == "The Drowned Crossing"
    assert root.get("role") == "img" and title.get("id") in root.get("aria-labelledby")
    assert "127 hexes" in root.find("svg:desc", NS).text
    zones = {p.get("data-zone"): p for p in root.iterfind(".//svg:path", NS) if p.get("data-zone")}
    assert set(zones) == {"boss", "hero"}
    assert zones["boss"].get("stroke-dasharray")
    labels = [t.text for t in root.iterfind(".//svg:text", NS) if "zone-label" in t.get("class", "")]
    assert sorted(labels) == ["BOSS", "HERO PARTY"]  # side names from the pack
    coords = [t.text for t in root.iterfind(".//svg:text", NS) if t.get("class") == "coord"]
    assert len(coords) == 127 and "-6,0" in coords
    assert len(root.findall(".//svg:pattern", NS)) == 3  # one per terrain in use


def test_highlight_marks_the_given_hexes(pack, crossing):
    root = parse(map_svg(crossing, pack, highlight=[Hex(0, 0), (1, 0), [0, 1], (40, 40)]))
    marks = [p.get("data-cell") for p in root.iterfind(".//svg:polygon", NS) if p.get("class") == "highlight"]
    assert sorted(marks) == ["0,0", "0,1", "1,0"]  # (40, 40) is off the map
    assert "marked" in cells(root)["0,0"].get("class").split()
    assert "marked" not in cells(root)["2,2"].get("class").split()
    assert "3 highlighted" in root.find("svg:desc", NS).text


@pytest.mark.parametrize("bad", [[(1,)], [("a", 2)], [1], [(1.5, 2)]])
def test_bad_highlight_is_an_input_error(pack, crossing, bad):
    with pytest.raises(InputError) as exc:
        map_svg(crossing, pack, highlight=bad)
    assert exc.value.problems[0].code == "map.highlight"


def test_square_map_tiles_heights_terrain(tactics, terraces):
    root = parse(map_svg(terraces, tactics))
    found = cells(root)
    assert len(found) == 8 * 10  # the whole board: tiles and open air
    air = {k for k, p in found.items() if "air" in p.get("class").split()}
    assert air == {"4,2", "3,3", "4,3", "3,6", "4,6", "3,7"}
    assert found["3,4"].get("data-height") == "4" and "terrain-beacon" in found["3,4"].get("class")
    assert "terrain-brush" in found["0,4"].get("class") and "terrain-shallows" in found["7,9"].get("class")
    assert "obstacle" in found["6,3"].get("class")
    assert found["4,2"].get("data-height") is None
    # 30 mm tiles, x to the right and y down
    x0, y0 = centre(found["0,0"])
    assert centre(found["1,0"]) == pytest.approx((x0 + 30, y0), abs=0.05)
    assert centre(found["0,1"]) == pytest.approx((x0, y0 + 30), abs=0.05)
    # the tint of its height, as printed: darker the higher the tile
    tints = {h: found[k].get("fill") for k, h in (("0,0", 0), ("1,1", 1), ("4,4", 4))}
    assert tints == {h: svg_colour(COLOUR.height(h)) for h in tints}
    light = {h: luminance(rgb(tint)) for h, tint in tints.items()}
    assert light[0] > light[1] > light[4]
    heights = [t.text for t in root.iterfind(".//svg:text", NS) if t.get("class") == "height"]
    assert len(heights) == 80 - 6 - 2  # every tile but open air and the two obstacles
    assert root.find(".//svg:g[@class='height-edges']", NS) is not None
    labels = sorted(t.text for t in root.iterfind(".//svg:text", NS) if "zone-label" in t.get("class", ""))
    assert labels == ["DAWN COMPANY", "DUSK COMPANY"]


def test_every_shipped_map_draws(pack):
    """Every map of every pack: well-formed SVG with one cell per hex (board square)."""
    for pack_dir in sorted((REPO / "card_data").iterdir()):
        p = load_pack(pack_dir)
        for path in p.map_files:
            m = load_map(p, path)
            root = parse(map_svg(path, p))
            expected = len(m.board) if getattr(m, "grid", "hex") == "square" else len(m.hexes)
            assert len(cells(root)) == expected, path
