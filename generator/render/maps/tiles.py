"""Map tiles on paper: maps marked `tile:` (docs/maps.md) are small pieces of a battlefield
that players cut out and lay side by side. Instead of an overview and tiled sheets, they
print packed several to a sheet at true scale, each with:

- its hexes, terrain, obstacles, zones and coordinates exactly as on a printed map;
- a rim in the tile's colour along its outline, running 1 mm past the cut line (bleed), so a
  slightly imprecise cut never shows white and the tiles of one set are easy to sort;
- a solid cut line round the whole outline (the boundary of its hexes, holes included);
- its label (e.g. `A1`) and title on the hex nearest its middle.

A contents page before the sheets lists the sets and carries the legend of everything the
tiles show. Every tile carries invisible text at the centre of its hex (0, 0) (or its first
hex), `pnp:tile:<map id>:<copy>:<hex mm>:<hexes>`, so tools and tests can find it; the cut
line is drawn in page coordinates, so a path read back from the PDF has the printed size.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor

from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.maps.model import HexMap, TileSpec
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.pdfout import MM
from generator.render.maps.cells import Look, draw_label, strokes_unread
from generator.render.maps.hexes import draw_hex_legend, paint_hex_map
from generator.render.maps.palette import COLOUR, Palette
from generator.render.maps.page import (FOOTER_MM, HEADER_MM, MARGIN_MM, Frame, draw_paragraph,
                                        draw_scale_bar, draw_text)

BLEED_MM = 1.0  # the rim colour runs this far past the cut line
RIM_MM = 2.0  # width of the coloured rim inside the cut line
GAP_MM = 2.0  # white paper between the bleeds of neighbouring tiles (cut lines 4 mm apart)
CUT_LINE_MM = 0.3


def _tile(m: HexMap) -> TileSpec:
    """The `tile:` of a map drawn here (only maps that are tiles come here)."""
    if m.tile is None:
        raise ValueError(f"the map `{m.id}` is not a tile")
    return m.tile


@dataclass(frozen=True)
class PlacedTile:
    """One printed copy of a tile: the map, which copy, and where its hexes' bounding box
    (without bleed) sits on the page: left and top in page mm (y up)."""

    map: HexMap
    copy: int
    left: float
    top: float


@dataclass(frozen=True)
class TilePlan:
    page: tuple[float, float]  # mm, in the orientation used
    pages: tuple[tuple[PlacedTile, ...], ...]


def tile_extent(m: HexMap) -> tuple[float, float]:
    """Width and height (mm) of a tile's hexes, without bleed."""
    x0, y0, x1, y1 = m.layout().bounds(m.hexes)
    return x1 - x0, y1 - y0


def _pack(tiles: list[HexMap], page: tuple[float, float], margin: float, header: float,
          footer: float) -> list[list[PlacedTile]]:
    """Shelf packing in the order given: tiles left to right, a new shelf when a row is
    full, a new page when the page is."""
    width, height = page
    left_edge, right_edge = margin + BLEED_MM, width - margin - BLEED_MM
    top_edge, bottom_edge = height - margin - header - BLEED_MM, margin + footer + BLEED_MM
    pages: list[list[PlacedTile]] = [[]]
    x, y, shelf = left_edge, top_edge, 0.0
    for m in tiles:
        w, h = tile_extent(m)
        if w > right_edge - left_edge + 1e-6 or h > top_edge - bottom_edge + 1e-6:
            raise ValueError(f"the tile `{m.id}` ({w:.0f} × {h:.0f} mm) does not fit on the paper")
        for copy in range(1, _tile(m).copies + 1):
            if x + w > right_edge + 1e-6:  # next shelf
                x, y, shelf = left_edge, y - shelf - 2 * BLEED_MM - GAP_MM, 0.0
            if y - h < bottom_edge - 1e-6:  # next page
                pages.append([])
                x, y, shelf = left_edge, top_edge, 0.0
            pages[-1].append(PlacedTile(m, copy, x, y))
            x += w + 2 * BLEED_MM + GAP_MM
            shelf = max(shelf, h)
    return [p for p in pages if p]


def plan_tiles(tiles: list[HexMap], paper_mm: tuple[float, float], margin: float, header: float,
               footer: float) -> TilePlan:
    """The page orientation that needs fewer sheets (portrait on a tie), and the sheets."""
    w, h = paper_mm
    portrait = _pack(tiles, (w, h), margin, header, footer)
    landscape = _pack(tiles, (h, w), margin, header, footer)
    if len(landscape) < len(portrait):
        return TilePlan((h, w), tuple(tuple(p) for p in landscape))
    return TilePlan((w, h), tuple(tuple(p) for p in portrait))


def _outline_path(c, frame, loops):
    path = c.beginPath()
    for loop in loops:
        path.moveTo(*frame.pt(*loop[0]))
        for point in loop[1:]:
            path.lineTo(*frame.pt(*point))
        path.close()
    return path


def label_hex(m: HexMap) -> Hex:
    """Where the tile's label goes: the hex nearest the middle of its hexes, preferring a
    hex that is not an obstacle."""
    layout = m.layout()
    centres = {h: layout.center(h) for h in m.hexes}
    mx = sum(x for x, _ in centres.values()) / len(centres)
    my = sum(y for _, y in centres.values()) / len(centres)
    return min(m.hexes, key=lambda h: (h in m.obstacles, (centres[h][0] - mx) ** 2 + (centres[h][1] - my) ** 2, h))


def draw_tile(c, m: HexMap, placed: PlacedTile, zone_names: dict, palette: Palette = COLOUR) -> None:
    """One tile at true scale: rim and bleed, the map itself, the cut line, the label."""
    layout = m.layout()
    x0, y0, _, _ = layout.bounds(m.hexes)
    frame = Frame(x0, y0, placed.left, placed.top)
    lines = not strokes_unread(c)  # the rim, its bleed and the cut line are lines alone
    loops = hexgrid.outline(layout, m.hexes) if lines else []
    colour = HexColor(_tile(m).color)
    if lines:
        c.saveState()
        c.setLineJoin(1)
        c.setStrokeColor(colour)
        c.setLineWidth(2 * BLEED_MM * MM)  # half of it lies outside the cut line: the bleed
        c.drawPath(_outline_path(c, frame, loops), stroke=1, fill=0)
        c.clipPath(_outline_path(c, frame, loops), stroke=0, fill=0, fillMode=1)  # even-odd: holes stay out
        c.setLineWidth(2 * RIM_MM * MM)  # clipped to the inside: the rim
        c.drawPath(_outline_path(c, frame, loops), stroke=1, fill=0)
        c.restoreState()

    paint_hex_map(c, m, frame, layout, m.hexes, Look(palette=palette), zone_names)

    if lines:
        c.saveState()
        c.setLineJoin(1)
        c.setStrokeGray(0)
        c.setLineWidth(CUT_LINE_MM * MM)
        c.drawPath(_outline_path(c, frame, loops), stroke=1, fill=0)
        c.restoreState()

    # the label: big on the middle hex, with the title under it
    h = label_hex(m)
    cx, cy = layout.center(h)
    x, y = frame.pt(cx, cy)
    backdrop = h in m.terrain or h in m.obstacles
    f = m.hex_size
    size = f * 0.36 * MM / 2.2  # about a third of the hex wide for two characters
    c.saveState()
    draw_label(c, x, y - size * 0.15, _tile(m).label, BOLD, size, 0.05, backdrop=backdrop)
    title_size = f * 0.075 * MM
    width = c.stringWidth(m.title, REGULAR, title_size)
    if width > f * 0.8 * MM:
        title_size *= f * 0.8 * MM / width
    draw_label(c, x, y - size * 0.15 - title_size * 1.35, m.title, REGULAR, title_size, 0.2, backdrop=backdrop)
    c.restoreState()

    anchor = Hex(0, 0) if Hex(0, 0) in m.hexes else min(m.hexes)
    ax, ay = frame.pt(*layout.center(anchor))
    _marker(c, f"pnp:tile:{m.id}:{placed.copy}:{m.hex_size:g}:{len(m.hexes)}", ax, ay)


def _marker(c, label: str, x: float, y: float) -> None:
    """Invisible text (render mode 3) for tools; the graphics state is restored after it, as
    the text render mode would otherwise stay invisible for everything drawn later."""
    c.saveState()
    t = c.beginText(x, y)
    t.setTextRenderMode(3)
    t.setFont(REGULAR, 1)
    t.textOut(label)
    c.drawText(t)
    c.restoreState()


def _legend_map(tiles: list[HexMap]) -> HexMap:
    """A stand-in map that holds one of everything the tiles show, for the legend."""
    first = tiles[0]
    terrain_ids = []
    for m in tiles:
        terrain_ids += [t for t in m.terrain_ids_in_use() if t not in terrain_ids]
    zone_ids = sorted({z for m in tiles for z, cells in m.zones.items() if cells})
    return HexMap(id="tiles", file="", title="", notes="", orientation=first.orientation,
                  hex_size=first.hex_size, hexes=frozenset({Hex(0, 0)}),
                  obstacles=frozenset({Hex(0, 0)}) if any(m.obstacles for m in tiles) else frozenset(),
                  terrain={Hex(i, 0): t for i, t in enumerate(terrain_ids)},
                  zones={z: frozenset({Hex(0, 0)}) for z in zone_ids},
                  terrain_specs=first.terrain_specs, line_of_sight=first.line_of_sight)


def _sets(tiles: list[HexMap]) -> list[tuple[str, str, list[HexMap]]]:
    """(set name, colour, its tiles) in first-seen order."""
    out: dict = {}
    for m in tiles:
        out.setdefault(_tile(m).set, (_tile(m).color, []))[1].append(m)
    return [(name, colour, ms) for name, (colour, ms) in out.items()]


def _draw_contents(c, tiles: list[HexMap], plan: TilePlan, paper_mm, pack_name: str, zone_names: dict,
                   palette: Palette) -> None:
    W, H = paper_mm
    width = W - 2 * MARGIN_MM
    copies = sum(_tile(m).copies for m in tiles)
    sizes = sorted({m.hex_size for m in tiles})
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 6, "Map tiles", 18, palette.title_font)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 11.5,
              f"{pack_name} · {copies} tiles in {len(_sets(tiles))} set{'s' if len(_sets(tiles)) != 1 else ''} · "
              f"hexes {', '.join(f'{s:g}' for s in sizes)} mm flat to flat · "
              f"{len(plan.pages)} sheet{'s' if len(plan.pages) != 1 else ''} at true scale", 8.5, grey=0.25)
    steps = [
        "1. Print the tile sheets at 100 % (actual size, no 'fit to page'); the scale bar at the foot "
        "of each sheet must measure 100 mm.",
        "2. Cut each tile out along its solid black outline. The coloured rim runs a little past the "
        "line, so a cut that wanders slightly shows colour, not white paper. Gluing the sheet to thin "
        "card first makes sturdier tiles.",
        "3. Lay tiles edge to edge so their hexes line up, hex side against hex side, as the rules of "
        "the game say.",
    ]
    y = H - MARGIN_MM - 16
    for step in steps:
        y = draw_paragraph(c, MARGIN_MM, y, width, step, 9) - 1.5
    y -= 3
    draw_text(c, MARGIN_MM, y, "Sets", 10, BOLD)
    y -= 2
    for name, colour, ms in _sets(tiles):
        y -= 5.5
        c.saveState()
        c.setFillColor(HexColor(colour))
        c.rect(MARGIN_MM * MM, (y - 0.8) * MM, 8 * MM, 4 * MM, stroke=0, fill=1)
        c.restoreState()
        labels = ", ".join(_tile(m).label + (f" ×{_tile(m).copies}" if _tile(m).copies > 1 else "") for m in ms)
        draw_text(c, MARGIN_MM + 11, y, f"{name} ({sum(_tile(m).copies for m in ms)}): {labels}", 8.5)
    draw_hex_legend(c, _legend_map(tiles), MARGIN_MM, y - 6, min(width, 150.0), zone_names, palette)


def _draw_tile_sheet(c, plan: TilePlan, n: int, pack_name: str, zone_names: dict, palette: Palette) -> None:
    W, H = plan.page
    page = plan.pages[n - 1]
    names = []
    for placed in page:
        if _tile(placed.map).set not in names:
            names.append(_tile(placed.map).set)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 5, f"Map tiles · {', '.join(names)}", 12, palette.title_font)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 9.2,
              f"{pack_name} · true scale · cut along the solid outlines", 7.5, grey=0.25)
    draw_text(c, W - MARGIN_MM, H - MARGIN_MM - 7, f"Tiles {n} of {len(plan.pages)}", 14, BOLD, align="right")
    for placed in page:
        draw_tile(c, placed.map, placed, zone_names, palette)
    draw_scale_bar(c, MARGIN_MM, MARGIN_MM + 1.5, page[0].map.hex_size)
    _marker(c, f"pnp:page:tiles:{n}", 0, 0)


def render_tiles(c, tiles: list[HexMap], pack_name: str, paper_mm: tuple[float, float], zone_names: dict,
                 palette: Palette = COLOUR) -> int:
    """The contents page, then every tile sheet. Returns the number of tile sheets."""
    if not tiles:
        return 0
    plan = plan_tiles(tiles, paper_mm, MARGIN_MM, HEADER_MM, FOOTER_MM)
    c.setPageSize((paper_mm[0] * MM, paper_mm[1] * MM))
    c.bookmarkPage("map-tiles")
    c.addOutlineEntry("Map tiles", "map-tiles", level=0)
    _draw_contents(c, tiles, plan, paper_mm, pack_name, zone_names, palette)
    c.showPage()
    for n in range(1, len(plan.pages) + 1):
        c.setPageSize((plan.page[0] * MM, plan.page[1] * MM))
        _draw_tile_sheet(c, plan, n, pack_name, zone_names, palette)
        c.showPage()
    return len(plan.pages)
