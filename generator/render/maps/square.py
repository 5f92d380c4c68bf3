"""Square maps with heights on paper: true-scale sheets tiled with one row / column of
overlap (the hex maps' cut lines, alignment crosses and scale bar), an overview with the
legend, an assembly diagram, a thumbnail for the rulebook, and a PNG for virtual tables.

Elevation must read at a glance, in colour or in greyscale on any home printer, so it is
shown three ways at once:

- the height in levels, printed large in every tile;
- a tint per level: in colour a hypsometric ramp (pale green ground, sand, brown heights;
  render/maps/palette.py), in the ink saver a grey step per level, ground white, each level a
  tenth darker (the darkest kept light enough for black text and terrain patterns to stay legible);
- contour lines: a line along every edge where the height changes, thicker the bigger the
  step, and teeth on the low side where the drop is 2 levels or more (or into open air).

Open air (a square of the board with no tile) is hatched and says so; obstacles are an
inset crate with a cross. Terrain in colour tints the tile towards the terrain's colour, its
pattern on top. Everything is in millimetres; `Frame` turns map mm into points.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING


from generator.core.papers import DEFAULT_PAPER, paper_title
from generator.grids import squaregrid
from generator.grids.squaregrid import Square
from generator.maps.square import SquareMap
from generator.pack.model import MovementSpec
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.paper import PAPERS_MM
from generator.render.base.pdfout import MM
from generator.render.maps.cells import (Look, cell_path, draw_feature_icon, draw_label, draw_pattern,
                                         for_height_only, height_only, paint_zones, strokes_unread, text_only)
from generator.pack.translations.own import Say, as_written, words_of
from generator.render.maps.palette import (COLOUR, SAVER, Palette, TerrainInk, luminance, mix, palette_for,
                                           set_fill, set_stroke)
from generator.render.maps.page import (MARGIN_MM, Box, Frame, MapImage, SheetPlan, Window, draw_assembly,
                                        draw_paragraph, draw_sheet, draw_text, fit_frame, header_height,
                                        image_pdf, overview_layout, straight_axis, terrain_legend_rows,
                                        window_area)

if TYPE_CHECKING:
    from generator.pack.model import Pack

GRID_GREY = 0.35
EDGE_BASE_MM = 0.45  # a change of height: this plus EDGE_PER_LEVEL_MM per level (up to 4)
EDGE_PER_LEVEL_MM = 0.35
BORDER_MM = 0.6
TEETH_FROM = 2  # drops of this many levels or more get teeth on their low side
PNG_TILE_PX = 100  # pixels per tile side in the exported image


def level_grey(height: int) -> float:
    """The saver's fill of a tile of this height: white at ground level, a tenth darker per level."""
    return SAVER.height(height)  # type: ignore[return-value]  # the saver's inks are greys


def edge_width_mm(step: int) -> float:
    return EDGE_BASE_MM + EDGE_PER_LEVEL_MM * min(max(step, 1), 4)


@dataclass(frozen=True)
class SquareLook:
    """What to draw for one picture of a square map; sizes in mm at true scale."""

    heights: bool = True  # the big height numbers
    coords: bool = True  # the small (x, y) labels
    line_mm: float = 0.3
    zone_tags: bool = True
    air_text: bool = True
    palette: Palette = COLOUR


# ---- painting ----------------------------------------------------------------------------------


def _square_path(c, frame: Frame, layout: squaregrid.Layout, t, inset: float = 1.0):
    return cell_path(c, frame, layout, t, inset)  # any polygon of the layout's corners


def _edge_points(layout: squaregrid.Layout, t: Square, d: Square):
    """The two ends of t's edge towards neighbour direction d (map mm)."""
    tl, tr, br, bl = layout.corners(t)
    return {(1, 0): (tr, br), (0, 1): (br, bl), (-1, 0): (bl, tl), (0, -1): (tl, tr)}[(d.x, d.y)]


def _open_air(c, frame: Frame, layout: squaregrid.Layout, t: Square, look: SquareLook) -> None:
    s = frame.scale
    tile = layout.tile
    cx, cy = layout.center(t)
    palette = look.palette
    if not text_only(c):  # a scratch page whose text alone is read (page.window_text_boxes)
        _air_marks(c, frame, layout, t, palette)
    size_pt = tile * 0.075 * s * MM
    if look.air_text and size_pt >= 4:
        x, y = frame.pt(cx, cy)
        draw_label(c, x, y - size_pt * 0.35, "open air", BOLD, size_pt, palette.tag if palette.colour else 0.3,
                   backdrop=True, paper=palette.air)


def _air_marks(c, frame: Frame, layout: squaregrid.Layout, t: Square, palette: Palette) -> None:
    s = frame.scale
    tile = layout.tile
    cx, cy = layout.center(t)
    c.saveState()
    if palette.colour:
        set_fill(c, palette.air)
        c.drawPath(_square_path(c, frame, layout, t), stroke=0, fill=1)
    if strokes_unread(c):  # the hatching is lines alone
        c.restoreState()
        return
    c.clipPath(_square_path(c, frame, layout, t), stroke=0, fill=0)
    set_stroke(c, palette.air_marks)
    c.setLineWidth(max(0.08, 0.25 * s) * MM)
    step = tile / 7
    k = -tile
    while k <= tile:
        c.line(*frame.pt(cx - tile / 2 + k, cy + tile / 2), *frame.pt(cx + tile / 2 + k, cy - tile / 2))
        k += step
    c.restoreState()


def _teeth(c, frame: Frame, a, b, towards: Square, step: int, tile: float) -> None:
    """Short ticks along edge a–b, pointing into the tile in direction `towards`."""
    length = tile * (0.035 + 0.015 * min(step, 4))
    n = 5
    for i in range(n):
        f = (i + 0.5) / n
        x, y = a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f
        c.line(*frame.pt(x, y), *frame.pt(x + towards.x * length, y + towards.y * length))


def _paint_edges(c, m: SquareMap, frame: Frame, layout: squaregrid.Layout, squares: set, palette: Palette) -> None:
    """Contour lines where the height changes, drops into open air, and the board's rim."""
    s = frame.scale
    tile = layout.tile
    c.saveState()
    set_stroke(c, palette.region if palette.colour else 0.0)
    c.setLineCap(2)
    for t in sorted(squares):
        if t not in m.heights:
            continue
        here = m.heights[t]
        for d in squaregrid.DIRECTIONS:
            n = t + d
            a, b = _edge_points(layout, t, d)
            on_board = 0 <= n.x < m.columns and 0 <= n.y < m.rows
            if n in m.heights:
                step = here - m.heights[n]
                if step <= 0:
                    continue  # each change is drawn once, from its high side
                c.setLineWidth(max(0.25, edge_width_mm(step) * s) * MM)
                c.line(*frame.pt(*a), *frame.pt(*b))
                if step >= TEETH_FROM:
                    c.setLineWidth(max(0.12, 0.35 * s) * MM)
                    _teeth(c, frame, a, b, d, step, tile)
            elif on_board:  # open air: the edge is a drop to nothing
                c.setLineWidth(max(0.25, edge_width_mm(4) * s) * MM)
                c.line(*frame.pt(*a), *frame.pt(*b))
                c.setLineWidth(max(0.12, 0.35 * s) * MM)
                _teeth(c, frame, a, b, d, 4, tile)
            else:
                c.setLineWidth(max(0.2, BORDER_MM * s) * MM)
                c.line(*frame.pt(*a), *frame.pt(*b))
    c.restoreState()


def _obstacle(c, frame: Frame, layout: squaregrid.Layout, t: Square, palette: Palette) -> None:
    s = frame.scale
    c.saveState()
    set_fill(c, palette.crate)
    set_stroke(c, palette.crate_lines)
    c.setLineWidth(max(0.25, 1.0 * s) * MM)
    c.drawPath(_square_path(c, frame, layout, t, 0.7), stroke=1, fill=1)
    if not strokes_unread(c):  # the crate's cross
        tl, tr, br, bl = layout.corners(t, 0.7)
        c.setLineWidth(max(0.2, 0.7 * s) * MM)
        c.line(*frame.pt(*tl), *frame.pt(*br))
        c.line(*frame.pt(*tr), *frame.pt(*bl))
    c.restoreState()



def _paint_tiles(c, m: SquareMap, frame: Frame, layout: squaregrid.Layout, squares: list, tiles: list, inks: dict,
                 look: SquareLook) -> None:
    """What paint_square_map draws over the tiles' fills: terrain, the grid, obstacles, contour lines."""
    palette = look.palette
    for t in tiles:
        spec = m.spec_of(t)
        if t in inks and spec is not None:  # inks holds tiles with a terrain
            draw_pattern(c, frame, layout, t, spec.pattern, inks[t] if palette.colour else None)
    lines = not strokes_unread(c)
    if lines:  # the grid: one closed path per tile, at exactly the stated size
        set_stroke(c, palette.grid if palette.colour else GRID_GREY)
        c.setLineWidth(max(0.1, look.line_mm * frame.scale) * MM)
        for t in tiles:
            c.drawPath(_square_path(c, frame, layout, t), stroke=1, fill=0)
    for t in tiles:
        if t in m.obstacles:
            _obstacle(c, frame, layout, t, palette)
    if lines:  # contour lines
        _paint_edges(c, m, frame, layout, set(squares), palette)

def paint_square_map(c, m: SquareMap, frame: Frame, layout: squaregrid.Layout, squares,
                     look: SquareLook = SquareLook(), zone_names: dict | None = None) -> None:
    """Draw the given squares of the board (tiles and open air): fills by height, open air,
    terrain, the grid, obstacles, contour lines, zones and labels, in that order so the
    lines stay crisp on top of the fills."""
    squares = sorted(squares)
    tiles = [t for t in squares if t in m.heights]
    s = frame.scale
    palette = look.palette
    fills = {t: palette.height(m.heights[t]) for t in tiles}
    inks = {}
    for t in tiles:
        spec = m.spec_of(t)
        if spec is not None and t not in m.obstacles:
            inks[t] = ink = palette.terrain(spec)
            if palette.colour and ink.fill is not None:  # the height's tint leaning to the terrain's colour, the pattern on it
                fills[t] = mix(fills[t], ink.fill, 0.6)
                inks[t] = TerrainInk(None, ink.marks, fills[t], ink.icon)
    c.saveState()
    c.setLineJoin(0)
    shapes = not text_only(c)  # a scratch page whose text alone is read (page.window_text_boxes) has none
    for t in tiles if shapes else ():
        set_fill(c, fills[t])
        c.drawPath(_square_path(c, frame, layout, t), stroke=0, fill=1)
    for t in squares:
        if t not in m.heights:
            _open_air(c, frame, layout, t, look)
    if shapes:
        _paint_tiles(c, m, frame, layout, squares, tiles, inks, look)
    tile = layout.tile
    if palette.colour:  # a feature's icon in the tile's lower right corner, clear of its number
        for t in tiles:
            if t in inks and inks[t].icon:
                cx, cy = layout.center(t)
                draw_feature_icon(c, frame, cx + tile * 0.3, cy + tile * 0.3, tile * 0.3, inks[t])
    paint_zones(c, m, frame, layout, set(tiles), Look(zone_tags=look.zone_tags, palette=palette), zone_names or {})
    number_pt = tile * 0.3 * s * MM
    if look.heights and number_pt >= 4:
        for t in tiles:
            if t in m.obstacles:
                continue
            cx, cy = layout.center(t)
            x, y = frame.pt(cx, cy)
            if t in m.terrain:  # keep the number clear of the pattern, on the tile's own tint
                width = c.stringWidth(str(m.heights[t]), BOLD, number_pt)
                set_fill(c, fills[t])
                c.roundRect(x - width / 2 - number_pt * 0.18, y - number_pt * 0.5, width + number_pt * 0.36,
                            number_pt * 0.98, number_pt * 0.15, stroke=0, fill=1)
            c.setFont(BOLD, number_pt)
            c.setFillGray(0)
            c.drawCentredString(x, y - number_pt * 0.35, str(m.heights[t]))
    coord_pt = tile * 0.07 * s * MM
    if look.coords and coord_pt >= 3.4:
        c.setFont(REGULAR, coord_pt)
        for t in tiles:
            cx, cy = layout.center(t)
            x, y = frame.pt(cx - tile * 0.43, cy - tile * 0.36)
            label = f"{t.x},{t.y}"
            if any(t in zone for zone in m.zones.values()) or t in m.terrain:  # clear of dashes, patterns
                set_fill(c, fills[t])
                # a third of the text size clear all round: no pattern mark touches a digit
                c.rect(x - coord_pt * 0.45, y - coord_pt * 0.5, c.stringWidth(label, REGULAR, coord_pt)
                       + coord_pt * 0.9, coord_pt * 1.45, stroke=0, fill=1)
            # soft grey on light tiles, black on the darker high ground (WCAG 4.5:1 or more)
            c.setFillGray(0.25 if luminance(fills[t]) >= 0.4 else 0.0)
            c.drawString(x, y, label)
    c.restoreState()


# ---- tiling ------------------------------------------------------------------------------------


def _plan(m: SquareMap, paper: str, landscape: bool) -> SheetPlan:
    w, h = PAPERS_MM[paper]
    page = (h, w) if landscape else (w, h)
    avail_w, avail_h = window_area(page)
    t = m.tile_size
    # rows and columns are straight lines of tiles: each sheet holds whole ones, and the next
    # sheet starts with the last row (column) of the one before: one line on both sheets
    xs = straight_axis(list(range(m.columns)), t, t / 2, avail_w)
    ys = straight_axis(list(range(m.rows)), t, t / 2, avail_h)
    windows = tuple(Window(row, col, x0, y0, x1, y1)
                    for row, (y0, y1) in enumerate(ys) for col, (x0, x1) in enumerate(xs))
    return SheetPlan(paper, page, landscape, len(ys), len(xs), windows)


def plan_square_sheets(m: SquareMap, paper: str = DEFAULT_PAPER) -> SheetPlan:
    """How a square map is cut into true-scale sheets: the orientation needing fewer sheets
    (portrait on a tie)."""
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    portrait, landscape = _plan(m, paper, False), _plan(m, paper, True)
    return landscape if len(landscape.windows) < len(portrait.windows) else portrait


def _in_window(layout: squaregrid.Layout, win: Window, t: Square) -> bool:
    cx, cy = layout.center(t)
    h = layout.tile / 2
    return win.touches((cx - h, cy - h, cx + h, cy + h))


# ---- legend ------------------------------------------------------------------------------------


SWATCH_MM = 10.0


def _swatch(c, x: float, top: float, heights: list, look: SquareLook,
            obstacle=False, terrain: str | None = None, zone: str | None = None, m: SquareMap | None = None,
            zone_index: int = 0) -> float:
    """A little strip of tiles (heights left to right; None is open air) with its top-left
    corner at (x, top) mm. Returns its width."""
    if height_only(c):  # a legend measured: its swatches draw nothing it reads
        return SWATCH_MM * len(heights)
    squares = [Square(i, 0) for i in range(len(heights))]
    zones = {}
    if zone is not None and m is not None:
        names = sorted(m.zones)
        zones = {z: (frozenset(squares) if i == zone_index else frozenset()) for i, z in enumerate(names)}
    fake = SquareMap(id="legend", file="", title="", notes="", columns=len(heights), rows=1,
                     tile_size=SWATCH_MM, heights={t: h for t, h in zip(squares, heights) if h is not None},
                     obstacles=frozenset(squares) if obstacle else frozenset(),
                     terrain={t: terrain for t in squares} if terrain else {}, zones=zones,
                     terrain_specs=m.terrain_specs if m else {}, line_of_sight="permissive")
    layout = squaregrid.Layout(SWATCH_MM)
    frame = Frame(-SWATCH_MM / 2, -SWATCH_MM / 2, x, top)
    paint_square_map(c, fake, frame, layout, squares, look)
    return SWATCH_MM * len(heights)


def movement_text(movement: MovementSpec, say: Say = as_written) -> str:
    leap = "" if not movement.leap else " " + (
        say("A figure may leap straight across {n} squares of open air; each counts as a step.") if movement.leap != 1
        else say("A figure may leap straight across {n} square of open air; each counts as a step.")).format(
        n=movement.leap)
    drop = " " + ((say("It may drop at most {n} levels.") if movement.max_drop != 1 else
                   say("It may drop at most {n} level.")).format(n=movement.max_drop)
                  if movement.max_drop is not None else say("It may drop down any number of levels."))
    return say("Moving: a figure steps to a tile beside it (never diagonally) whose height is at most its "
               "Jump above its own.") + f"{drop}{leap}"


def _los_text(rule: str, say: Say) -> str:
    base = say("Line of sight: a straight line from the centre of one tile to the centre of another. It is "
               "blocked by obstacles and sight-blocking terrain it crosses, and by any tile standing higher "
               "than the line (which runs half a level above the ground of both ends).")
    if rule == "strict":
        return base + " " + say("A line through a grid corner is blocked if either tile there blocks.")
    return base + " " + say("A line through a grid corner is blocked only if both tiles there block.")


def _legend_rows(m: SquareMap, pack: Pack, zone_names: dict, palette: Palette = COLOUR) -> list:
    movement = pack.spec.movement or MovementSpec()
    levels = m.levels or [0]
    say = words_of(pack)  # pnp's own words in the pack's language
    rows = [
        ("tile", say("Tile: {size} mm square").format(size=f"{m.tile_size:g}"),
         say("The big number is the tile's height in levels; one level is {size} mm. The small numbers give its "
             "place (x, y): column, then row, from the top left.").format(size=f"{movement.level_mm:g}")),
        ("levels", say("Heights"), (say("Each height has its own tint, pale green on the ground, sand, then brown "
                                        "on the heights: {levels} on this map.") if palette.colour else
                                    say("The higher the tile, the darker its grey: {levels} on this map.")).format(
            levels=", ".join(f"{h}" for h in levels))),
        ("step", say("Change of height"), say("A line between two tiles marks a step; the thicker the line, the "
                                              "bigger the step.")),
        ("cliff", say("Drop of {n} levels or more").format(n=TEETH_FROM),
         say("Teeth on the line point down into the lower tile.")),
    ]
    if len(m.heights) < m.columns * m.rows:
        rows.append(("air", say("Open air"), say("No tile: nothing can stand here. The edge of a tile beside it is "
                                                 "a drop, marked with teeth.")))
    if m.obstacles:
        rows.append(("obstacle", say("Obstacle"), say("Blocks movement and line of sight.")))
    rows.extend(terrain_legend_rows(m, say))
    for zid in sorted(m.zones):
        name = zone_names.get(zid, zid)
        rows.append((f"zone:{zid}", say("{name} start").format(name=name),
                     say("{name} units are set up on these tiles.").format(name=name)))
    return rows


def _draw_legend(c, m: SquareMap, pack: Pack, x: float, top: float, width: float, zone_names: dict,
                 palette: Palette) -> float:
    """The legend from `top` down (mm); returns the y below it."""
    say = words_of(pack)  # pnp's own words in the pack's language
    draw_text(c, x, top - 4, say("Legend"), 10, BOLD)
    y = top - 7
    box = 2 * SWATCH_MM
    levels = (m.levels or [0])[:6]
    for kind, title, text in _legend_rows(m, pack, zone_names, palette):
        if kind == "tile":
            _swatch(c, x + SWATCH_MM / 2, y, [1], SquareLook(coords=False, palette=palette))
        elif kind == "levels" and len(levels) <= 2:
            _swatch(c, x, y, levels, SquareLook(coords=False, palette=palette))
        elif kind == "step":
            _swatch(c, x, y, [1, 2], SquareLook(coords=False, palette=palette))
        elif kind == "cliff":
            _swatch(c, x, y, [3, 0], SquareLook(coords=False, palette=palette))
        elif kind == "air":
            _swatch(c, x, y, [0, None], SquareLook(coords=False, air_text=False, palette=palette))
        elif kind == "obstacle":
            _swatch(c, x + SWATCH_MM / 2, y, [0], SquareLook(coords=False, palette=palette), obstacle=True, m=m)
        elif kind.startswith("terrain:"):
            _swatch(c, x + SWATCH_MM / 2, y, [0], SquareLook(coords=False, heights=False, palette=palette),
                    terrain=kind.split(":", 1)[1], m=m)
        elif kind.startswith("zone:"):
            zid = kind.split(":", 1)[1]
            _swatch(c, x + SWATCH_MM / 2, y, [0],
                    SquareLook(coords=False, heights=False, zone_tags=False, palette=palette), zone=zid, m=m, zone_index=sorted(m.zones).index(zid))
        text_x = x + box + 3
        draw_text(c, text_x, y - 3.5, title, 8.5, BOLD)
        below = draw_paragraph(c, text_x, y - 4.2, width - box - 3, text, 7.5, grey=0.15)
        if kind == "levels" and len(levels) > 2:  # a strip of every level, under its text
            _swatch(c, text_x, below - 1.5, levels, SquareLook(coords=False, palette=palette))
            below -= SWATCH_MM + 1.5
        y = min(y - SWATCH_MM - 2, below - 2.5)
    movement = pack.spec.movement or MovementSpec()
    y = draw_paragraph(c, x, y, width, movement_text(movement, say), 7.5, grey=0.15) - 1.5
    return draw_paragraph(c, x, y, width, _los_text(m.line_of_sight, say), 7.5, grey=0.15) - 2


def _legend_height(m: SquareMap, pack: Pack, width: float, zone_names: dict, palette: Palette) -> float:
    # deferred: ReportLab loads only when something is drawn
    from reportlab.pdfgen.canvas import Canvas
    scratch = Canvas(io.BytesIO(), pagesize=(width * MM, 1000 * MM))
    for_height_only(scratch)  # its text decides the height: nothing is drawn on it
    return 1000 - _draw_legend(scratch, m, pack, 0, 1000, width, zone_names, palette)


# ---- pages -------------------------------------------------------------------------------------


def _overview_layout(m: SquareMap, pack: Pack, paper: str, zone_names: dict, palette: Palette):
    """The page orientation and legend position (below or beside) that print the map largest."""
    return overview_layout(m.layout().bounds(m.board), paper, lambda width: header_height(m, width),
                           lambda width: _legend_height(m, pack, width, zone_names, palette))


def _draw_overview(c, m: SquareMap, pack: Pack, plan: SheetPlan, page, box: Box, legend, zone_names: dict,
                   palette: Palette) -> None:
    W, H = page
    width = W - 2 * MARGIN_MM
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 6, m.title, 18, palette.title_font)
    sheets = len(plan.windows)
    paper = paper_title(plan.paper)
    say = words_of(pack)  # pnp's own words in the pack's language
    grid = say("{columns} × {rows} squares, {tiles} tiles, heights {low}–{high}, {size} mm tiles").format(
        columns=m.columns, rows=m.rows, tiles=len(m.heights), low=(m.levels or [0])[0], high=(m.levels or [0])[-1],
        size=f"{m.tile_size:g}")
    scale = (say("true scale on {count} {paper} sheets") if sheets != 1 else
             say("true scale on {count} {paper} sheet")).format(count=sheets, paper=paper)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 11.5, f"{pack.spec.name} · {grid} · {scale}", 8.5, grey=0.25)
    if m.notes:
        draw_paragraph(c, MARGIN_MM, H - MARGIN_MM - 14, width, m.notes, 8.5, grey=0.1)
    layout = m.layout()
    frame = fit_frame(layout.bounds(m.board), *box, max_scale=1.0)
    paint_square_map(c, m, frame, layout, m.board,
                     SquareLook(line_mm=0.3 if frame.scale > 0.6 else 0.45, palette=palette), zone_names)
    draw_text(c, box[0] + box[2], box[1] - 4,
              say("Overview at {percent} % of true size").format(percent=f"{frame.scale * 100:.0f}"),
              7, grey=0.35, align="right")
    _draw_legend(c, m, pack, legend[0], legend[1], legend[2], zone_names, palette)


def assembly_steps(n: int, say: Say) -> list[str]:
    """How to put a square map's sheets together (a hex map's steps speak of hexes: page.draw_assembly)."""
    return [
        say("1. Print the {count} sheets at 100 % (actual size, no 'fit to page'). Check that the scale bar "
            "at the foot of each sheet measures 100 mm.").format(count=n),
        say("2. On every sheet, cut along the dashed lines only (they are on the left and top edges of "
            "sheets that join a neighbour). Leave the other edges as they are."),
        say("3. Lay each cut sheet over its neighbour to the left and above, so that the cut edge runs "
            "through the centres of the neighbour's crosses: the half-crosses and the grid lines continue "
            "across the seam. One row (or column) of tiles is printed on both sheets; the upper sheet covers it."),
        say("4. Work row by row from the top left (R1 C1). Tape the seams on the back."),
    ]


def render_square_map(c, m: SquareMap, pack: Pack, paper: str, zone_names: dict, palette: Palette = COLOUR) -> int:
    """One square map: overview with legend, assembly diagram when tiled, then the
    true-scale sheets. Returns the number of sheets."""
    plan = plan_square_sheets(m, paper)
    say = words_of(pack)  # pnp's own words in the pack's language
    page, box, legend = _overview_layout(m, pack, paper, zone_names, palette)
    key = f"map-{m.id}"
    c.setPageSize((page[0] * MM, page[1] * MM))
    c.bookmarkPage(key)
    c.addOutlineEntry(m.title, key, level=0)
    _draw_overview(c, m, pack, plan, page, box, legend, zone_names, palette)
    c.showPage()
    layout = m.layout()
    if len(plan.windows) > 1:
        c.setPageSize((page[0] * MM, page[1] * MM))
        draw_assembly(c, m, plan, page,
                      paint=lambda cv, frame: paint_square_map(
                           cv, m, frame, layout, m.board,
                           SquareLook(heights=frame.scale > 0.25, coords=False, line_mm=0.5, zone_tags=False,
                                      air_text=False, palette=palette)),
                       steps=assembly_steps(len(plan.windows), say), title_font=palette.title_font, say=say)
        c.showPage()
    texts: dict = {}  # each window's text boxes, read once for all the sheets beside it
    for win in plan.windows:
        c.setPageSize((plan.page[0] * MM, plan.page[1] * MM))
        draw_sheet(c, m, plan, win, texts=texts,
                   paint=lambda cv, frame, w: paint_square_map(
                       cv, m, frame, layout, [t for t in m.board if _in_window(layout, w, t)],
                       SquareLook(palette=palette),
                       zone_names),
                   scale_note=say("one tile is {size} mm square.").format(size=f"{m.tile_size:g}"),
                   title_font=palette.title_font, say=say)
        c.showPage()
    return len(plan.windows)


def draw_square_thumbnail(canvas, m: SquareMap, x: float, y: float, width: float, height: float, *,
                          labels: bool = False, palette: Palette = COLOUR) -> float:
    """The whole map fitted and centred in the box (x, y bottom-left, mm). Returns the scale."""
    layout = m.layout()
    frame = fit_frame(layout.bounds(m.board), x, y, width, height, max_scale=1.0)
    paint_square_map(canvas, m, frame, layout, m.board,
                     SquareLook(heights=True, coords=labels, line_mm=0.3 if frame.scale > 0.5 else 0.5,
                                zone_tags=False, air_text=False, palette=palette))
    return frame.scale


# ---- images for virtual tables -----------------------------------------------------------------


def square_image(m: SquareMap, pack: Pack) -> MapImage:
    """The map for a PNG: tiles PNG_TILE_PX pixels a side, and the sidecar's grid facts."""
    layout = m.layout()
    zone_names = {sid: side.name for sid, side in pack.spec.sides.items()}
    data, frame, page = image_pdf(m.title, layout.bounds(m.board), lambda c, frame: paint_square_map(
        c, m, frame, layout, m.board, SquareLook(palette=palette_for(pack)), zone_names))

    def facts(name: str, width: int, height: int, pitch: int, px_per_mm: float, origin) -> dict:
        return {
            "map": m.id, "title": m.title, "image": name, "grid": "square",
            "width_px": width, "height_px": height,
            "columns": m.columns, "rows": m.rows, "tile_size_mm": m.tile_size, "tile_pitch_px": pitch,
            "dpi": round(px_per_mm * 25.4, 4),
            "origin_tile_center_px": [round(origin[0], 3), round(origin[1], 3)],
            "heights": [[m.heights.get(Square(x, y)) for x in range(m.columns)] for y in range(m.rows)],
            "coordinates": "tile (x, y): column, row from the top left; pixel y points down; the centre of "
                           "tile (x, y) is origin_tile_center_px + (x, y) × tile_pitch_px",
        }

    return MapImage(data, frame, page, m.tile_size, PNG_TILE_PX, "tile", layout.center(Square(0, 0)), facts)
