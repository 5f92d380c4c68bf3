"""The hex painter: a hex map's cells, regions, legend, overview page and sheets, and the
one-page image for PNG export. The small hex drawing cards and the rulebook reuse,
`draw_hex_shape`, is render/maps/shapes.py's."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING


from generator.core.papers import DEFAULT_PAPER, paper_title
from generator.core.typesize import LABEL_PT
from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.maps.model import HexMap
from generator.pack.translations.own import Say, as_written, words_of
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.paper import PAPERS_MM
from generator.render.base.pdfout import MM
from generator.render.maps.cells import (Look, Outlines, cell_path, draw_feature_icon, draw_label, draw_pattern,
                                         draw_rock, for_height_only, height_only, label_mm, paint_zones,
                                         strokes_unread, text_only)
from generator.render.maps.palette import COLOUR, Ink, Palette, palette_for, set_fill, set_stroke
from generator.render.maps.page import (MARGIN_MM, Box, Frame, MapImage, SheetPlan, Window, draw_assembly,
                                        draw_paragraph, draw_sheet, draw_text, fit_frame, header_height,
                                        image_pdf, overview_layout, straight_axis, terrain_legend_rows,
                                        window_area, zigzag_axis, zone_names_of)

if TYPE_CHECKING:
    from generator.pack.model import Pack



PNG_HEX_PX = 100  # flat-to-flat hex pitch of exported images; 25.4 mm hexes → 100 dpi


def paint_hex_map(c, m: HexMap, frame: Frame, layout: hexgrid.Layout, cells, look: Look,
                  zone_names: dict | None = None) -> None:
    """Draw the given cells of a map: obstacles, terrain, grid, zones, labels, in that order
    so outlines stay crisp on top of fills and patterns."""
    cells = sorted(cells)
    s = frame.scale
    c.saveState()
    c.setLineJoin(1)
    labels = look.labels and label_mm(layout) * s * MM >= LABEL_PT - 0.01  # smaller (a reduced overview): left out
    size_pt = label_mm(layout) * s * MM
    if not text_only(c):  # a scratch page whose text alone is read (page.window_text_boxes) has no cells
        _paint_cells(c, m, frame, layout, cells, look, labels, size_pt)
    paint_zones(c, m, frame, layout, set(cells), look, zone_names or {})
    _paint_regions(c, m, frame, layout, set(cells), look)
    if labels:
        palette = look.palette
        for h in cells:
            cx, cy = layout.center(h)
            x, y = frame.pt(cx, cy - layout.size * 0.58)
            ink: Ink
            if h in m.obstacles:
                ink = 1.0 if palette.colour else 0.1  # on the dark rock in colour, on mid grey in the saver
            else:
                ink = palette.label
            draw_label(c, x, y - size_pt * 0.35, f"{h.q},{h.r}", REGULAR, size_pt, ink)
    c.restoreState()


def _paint_cells(c, m: HexMap, frame: Frame, layout: hexgrid.Layout, cells: list, look: Look, labels: bool,
                 size_pt: float) -> None:
    """The cells of paint_hex_map under its zones and labels: ground, obstacles, terrain, the
    bands under labels, the grid, rims, rock and icons."""
    s = frame.scale
    palette = look.palette
    outlines = Outlines(c, frame, layout)
    if palette.ground is not None:  # colour: the open ground, under everything
        set_fill(c, palette.ground)
        for h in cells:
            if h not in m.obstacles and h not in m.terrain:
                c.drawPath(outlines[h], stroke=0, fill=1)
    # obstacles: a solid mid grey with a heavy rim, unlike any pattern (in colour: rock)
    set_fill(c, palette.obstacle)
    for h in cells:
        if h in m.obstacles:
            c.drawPath(outlines[h], stroke=0, fill=1)
    inks = {}
    for h in cells:
        if h in m.terrain and h not in m.obstacles:
            spec = m.terrain_specs.get(m.terrain[h])
            inks[h] = palette.terrain(spec)
            draw_pattern(c, frame, layout, h, spec.pattern if spec else "none", inks[h] if palette.colour else None)
    if labels:  # a plain band across the top of a patterned hex, under its label, before the grid
        for h in cells:
            if h in m.terrain and h not in m.obstacles:
                c.saveState()
                c.clipPath(outlines[h], stroke=0, fill=0)
                cx, cy = layout.center(h)
                x, y = frame.pt(cx, cy - layout.size * 0.58)
                set_fill(c, inks[h].band)
                c.rect(x - layout.size * 2 * s * MM, y - size_pt * 0.85, layout.size * 4 * s * MM, layout.size * s * MM,
                       stroke=0, fill=1)
                c.restoreState()
    if not strokes_unread(c):
        # the grid: one closed path per hex, at exactly the stated size
        set_stroke(c, palette.grid)
        c.setLineWidth(max(0.1, look.line_mm * s) * MM)
        for h in cells:
            c.drawPath(outlines[h], stroke=1, fill=0)
        c.setLineWidth(max(0.2, 2.2 * look.line_mm * s) * MM)
        set_stroke(c, palette.obstacle_rim)
        for h in cells:
            if h in m.obstacles:
                c.drawPath(cell_path(c, frame, layout, h, 0.93), stroke=1, fill=0)
    if palette.colour:  # rock on obstacles, icons on feature terrain
        for h in cells:
            cx, cy = layout.center(h)
            if h in m.obstacles:
                draw_rock(c, frame, cx, cy + layout.size * 0.08, layout.size * 0.5, palette)
            elif h in inks and inks[h].icon:
                draw_feature_icon(c, frame, cx, cy + layout.size * 0.05, layout.size * 0.62, inks[h])


REGION_LINE_MM = 1.2


REGION_GREY = 0.0


def _paint_regions(c, m: HexMap, frame: Frame, layout, cells: set, look: Look) -> None:
    """Named regions: a heavy line along each region's outline and its name on the hex
    nearest its middle (when big enough to read)."""
    regions = getattr(m, "regions", None) or {}
    if not regions:
        return
    s = frame.scale
    if not strokes_unread(c):
        _region_lines(c, frame, layout, regions, cells, look)
    tag_pt = label_mm(layout) * 1.05 * s * MM
    if not look.zone_tags or tag_pt < 3.5:
        return
    names = getattr(m, "region_names", {})
    for rid in sorted(regions):
        cells_of = sorted(regions[rid])
        if not cells_of or not names.get(rid):
            continue
        centres = {h: layout.center(h) for h in cells_of}
        mx = sum(x for x, _ in centres.values()) / len(centres)
        my = sum(y for _, y in centres.values()) / len(centres)
        # the hex nearest the middle, preferring a plain one (no obstacle, terrain or zone tag)
        h = min(cells_of, key=lambda h: (h in m.obstacles, h in m.terrain, any(h in z for z in m.zones.values()),
                                         (centres[h][0] - mx) ** 2 + (centres[h][1] - my) ** 2, h))
        if h not in cells:
            continue
        x, y = frame.pt(*centres[h])
        ground = look.palette.ground if look.palette.ground is not None else 1.0  # (colour has a ground)
        paper = 1.0 if not look.palette.colour or h in m.obstacles else (
            look.palette.terrain(m.terrain_specs.get(m.terrain[h])).band if h in m.terrain else ground)
        draw_label(c, x, y - tag_pt * 0.35, names[rid].upper(), BOLD, tag_pt,
                   look.palette.tag if look.palette.colour else 0.05, backdrop=True, paper=paper)


def _region_lines(c, frame: Frame, layout, regions: dict, cells: set, look: Look) -> None:
    """The heavy line along the outline of each region shown."""
    c.saveState()
    c.setLineJoin(1)
    c.setLineCap(1)
    set_stroke(c, look.palette.region if look.palette.colour else REGION_GREY)
    c.setLineWidth(max(0.5, REGION_LINE_MM * frame.scale) * MM)
    for rid in sorted(regions):
        shown = regions[rid] & cells
        if not shown:
            continue
        path = c.beginPath()
        for loop in hexgrid.outline(layout, regions[rid]):
            path.moveTo(*frame.pt(*loop[0]))
            for point in loop[1:]:
                path.lineTo(*frame.pt(*point))
            path.close()
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def _plan(m: HexMap, paper: str, landscape: bool) -> SheetPlan:
    w, h = PAPERS_MM[paper]
    page = (h, w) if landscape else (w, h)
    avail_w, avail_h = window_area(page)
    layout = m.layout()
    hexes = sorted(m.hexes)
    s, unit = layout.size, layout.flat_to_flat / 2
    if m.orientation == "pointy":
        xs = zigzag_axis([2 * q + r for q, r in hexes], unit, avail_w)
        ys = straight_axis([r for _, r in hexes], 1.5 * s, s, avail_h)
    else:
        xs = straight_axis([q for q, _ in hexes], 1.5 * s, s, avail_w)
        ys = zigzag_axis([2 * r + q for q, r in hexes], unit, avail_h)
    boxes = [_box(layout, hx) for hx in hexes]
    windows = []
    for row, (y0, y1) in enumerate(ys):
        for col, (x0, x1) in enumerate(xs):
            win = Window(row, col, x0, y0, x1, y1)
            if any(win.touches(b) for b in boxes):
                windows.append(win)
    return SheetPlan(paper, page, landscape, len(ys), len(xs), tuple(windows))


def plan_hex_sheets(m: HexMap, paper: str = DEFAULT_PAPER) -> SheetPlan:
    """How a hex map is cut into true-scale sheets: the page orientation that needs fewer
    sheets (portrait on a tie)."""
    portrait, landscape = _plan(m, paper, False), _plan(m, paper, True)
    return landscape if len(landscape.windows) < len(portrait.windows) else portrait


def draw_hex_thumbnail(canvas, m: HexMap, x: float, y: float, width: float, height: float, *,
                       labels: bool = False, palette: Palette = COLOUR) -> float:
    """The whole map fitted and centred in the box (x, y bottom-left, mm). Returns the scale."""
    layout = m.layout()
    frame = fit_frame(layout.bounds(m.hexes), x, y, width, height, max_scale=1.0)
    paint_hex_map(canvas, m, frame, layout, m.hexes,
                  Look(labels=labels, line_mm=0.3 if frame.scale > 0.5 else 0.5, zone_tags=False, palette=palette))
    return frame.scale


def _box(layout: hexgrid.Layout, h) -> tuple[float, float, float, float]:
    cx, cy = layout.center(h)
    return (cx - layout.hex_width / 2, cy - layout.hex_height / 2,
            cx + layout.hex_width / 2, cy + layout.hex_height / 2)


def _legend_rows(m: HexMap, zone_names: dict, say: Say) -> list[tuple[str, str, str]]:
    """(kind, title, text) for everything drawn on this map, in the pack's language (`say`)."""
    rows = [("grid", say("Hex"), say("{size} mm flat to flat; the label gives its coordinates (q, r).").format(
        size=f"{m.hex_size:g}"))]
    if m.obstacles:
        rows.append(("obstacle", say("Obstacle"), say("Blocks movement and line of sight.")))
    rows.extend(terrain_legend_rows(m, say))
    for zid in sorted(m.zones):
        name = zone_names.get(zid, zid)
        if getattr(m, "zones_optional", False):  # the pack's `start_zones: optional`
            rows.append((f"zone:{zid}", say("{name} start (scenario)").format(name=name),
                         say("Optional scenario setup: if all players agree, {name} figures are set up wholly "
                             "inside these hexes. Otherwise set up as the rules say.").format(name=name)))
        else:
            rows.append((f"zone:{zid}", say("{name} start").format(name=name),
                         say("{name} figures are set up wholly inside these hexes.").format(name=name)))
    regions = getattr(m, "regions", None) or {}
    if regions:
        names = getattr(m, "region_names", {})
        rows.append(("region", say("Regions"), say("Heavy lines border the named regions: {names}.").format(
            names=", ".join(names.get(r, r) for r in regions))))
    return rows


def _los_text(rule: str, say: Say) -> str:
    if rule == "corners":
        return say("Line of sight: two figures see each other if a straight line from a corner of one's hex to "
                   "a corner of the other's touches no obstacle or sight-blocking hex, not even at an edge or "
                   "a corner.")
    base = say("Line of sight: draw a straight line between the centres of two hexes; obstacles and "
               "sight-blocking terrain on the hexes it passes through block it.")
    if rule == "strict":
        return base + " " + say("A line running exactly along a hex edge or through a corner is blocked if a "
                                "hex on either side blocks.")
    return base + " " + say("A line running exactly along a hex edge or through a corner is blocked only if "
                            "hexes on both sides block.")


def draw_hex_legend(c, m: HexMap, x: float, top: float, width: float, zone_names: dict,
                    palette: Palette = COLOUR, say: Say = as_written) -> float:
    """The legend block from `top` down (mm); returns the y below it."""
    rows = _legend_rows(m, zone_names, say)
    draw_text(c, x, top - 4, say("Legend"), 10, BOLD)
    y = top - 7
    swatch = 11.0
    unit = hexgrid.Layout.from_flat_to_flat(m.orientation, swatch)
    for kind, title, text in rows:
        if not height_only(c):  # (a legend measured: its swatches draw nothing it reads)
            _legend_swatch(c, m, kind, x, y, swatch, unit, palette)
        text_x = x + swatch + 3
        draw_text(c, text_x, y - 4, title, 8.5, BOLD)
        below = draw_paragraph(c, text_x, y - 4.6, width - swatch - 3, text, 7.5, grey=0.15)
        y = min(y - swatch - 2, below - 2.5)
    return draw_paragraph(c, x, y, width, _los_text(m.line_of_sight, say), 7.5, grey=0.15) - 2


def _legend_swatch(c, m: HexMap, kind: str, x: float, y: float, swatch: float, unit: hexgrid.Layout,
                   palette: Palette) -> None:
    """One legend row's hex: what `kind` names drawn on it, its top left corner at (x, y) mm."""
    cell = Hex(0, 0)
    fake = HexMap(id="legend", file="", title="", notes="", orientation=m.orientation, hex_size=swatch,
                  hexes=frozenset({cell}), obstacles=frozenset({cell}) if kind == "obstacle" else frozenset(),
                  terrain={cell: kind.split(":", 1)[1]} if kind.startswith("terrain:") else {},
                  zones={kind.split(":", 1)[1]: frozenset({cell})} if kind.startswith("zone:") else {},
                  terrain_specs=m.terrain_specs, line_of_sight=m.line_of_sight,
                  regions={"legend": frozenset({cell})} if kind == "region" else {})
    if kind.startswith("zone:"):  # keep the dash style of this zone's position in the list
        others = sorted(m.zones)
        idx = others.index(kind.split(":", 1)[1])
        fake.zones = {z: (frozenset({cell}) if i == idx else frozenset()) for i, z in enumerate(others)}
    frame = Frame(-unit.hex_width / 2, -unit.hex_height / 2, x, y)
    paint_hex_map(c, fake, frame, unit, [cell], Look(labels=False, zone_tags=False, palette=palette))


def _legend_height(m: HexMap, width: float, zone_names: dict, palette: Palette, say: Say) -> float:
    """Measure the legend by laying out its text on a scratch canvas (text wrapping decides;
    nothing is drawn on it: cells.for_height_only)."""
    # deferred: ReportLab loads only when something is drawn
    from reportlab.pdfgen.canvas import Canvas
    scratch = Canvas(io.BytesIO(), pagesize=(width * MM, 1000 * MM))
    for_height_only(scratch)
    return 1000 - draw_hex_legend(scratch, m, 0, 1000, width, zone_names, palette, say)


def _overview_layout(m: HexMap, paper: str, zone_names: dict, palette: Palette, say: Say):
    """Pick the page orientation and legend position (below or beside the map) that print
    the overview largest. Returns (page, map box (x, y, w, h), legend (x, top, width))."""
    return overview_layout(m.layout().bounds(m.hexes), paper, lambda width: header_height(m, width),
                           lambda width: _legend_height(m, width, zone_names, palette, say))


def _draw_overview(c, m: HexMap, plan: SheetPlan, page, box: Box, legend, zone_names: dict, pack_name: str,
                   palette: Palette, say: Say) -> None:
    W, H = page
    width = W - 2 * MARGIN_MM
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 6, m.title, 18, palette.title_font)
    sheets = len(plan.windows)
    layout = m.layout()
    paper = paper_title(plan.paper)
    grid = (say("{count} hexes, pointy-top, {size} mm") if m.orientation == "pointy" else
            say("{count} hexes, flat-top, {size} mm")).format(count=len(m.hexes), size=f"{m.hex_size:g}")
    scale = (say("true scale on {count} {paper} sheets") if sheets != 1 else
             say("true scale on {count} {paper} sheet")).format(count=sheets, paper=paper)
    draw_text(c, MARGIN_MM, H - MARGIN_MM - 11.5, f"{pack_name} · {grid} · {scale}", 8.5, grey=0.25)
    if m.notes:
        draw_paragraph(c, MARGIN_MM, H - MARGIN_MM - 14, width, m.notes, 8.5, grey=0.1)
    frame = fit_frame(layout.bounds(m.hexes), *box, max_scale=1.0)
    paint_hex_map(c, m, frame, layout, m.hexes, Look(line_mm=0.3 if frame.scale > 0.6 else 0.45, palette=palette),
                  zone_names)
    draw_text(c, box[0] + box[2], box[1] - 4,
              say("Overview at {percent} % of true size").format(percent=f"{frame.scale * 100:.0f}"),
              7, grey=0.35, align="right")
    draw_hex_legend(c, m, legend[0], legend[1], legend[2], zone_names, palette, say)


def render_hex_map(c, m: HexMap, pack: Pack, paper: str, zone_names: dict, palette: Palette = COLOUR) -> int:
    """One hex map: overview with legend, assembly diagram when tiled, then the true-scale
    sheets. Returns the number of sheets."""
    plan = plan_hex_sheets(m, paper)
    say = words_of(pack)  # pnp's own words in the pack's language
    summary_page, box, legend = _overview_layout(m, paper, zone_names, palette, say)
    key = f"map-{m.id}"
    c.setPageSize((summary_page[0] * MM, summary_page[1] * MM))
    c.bookmarkPage(key)
    c.addOutlineEntry(m.title, key, level=0)
    _draw_overview(c, m, plan, summary_page, box, legend, zone_names, pack.spec.name, palette, say)
    c.showPage()
    layout = m.layout()
    if len(plan.windows) > 1:
        c.setPageSize((summary_page[0] * MM, summary_page[1] * MM))
        draw_assembly(c, m, plan, summary_page, paint=lambda cv, frame: paint_hex_map(
            cv, m, frame, layout, m.hexes, Look(labels=False, line_mm=0.5, zone_tags=False, palette=palette)),
            title_font=palette.title_font, say=say)
        c.showPage()
    texts: dict = {}  # each window's text boxes, read once for all the sheets beside it
    boxes = {h: _box(layout, h) for h in m.hexes}  # (each window's hexes are those it touches)
    for win in plan.windows:
        c.setPageSize((plan.page[0] * MM, plan.page[1] * MM))
        draw_sheet(c, m, plan, win, paint=lambda cv, frame, w: paint_hex_map(
            cv, m, frame, layout, [h for h in m.hexes if w.touches(boxes[h])], Look(palette=palette),
            zone_names), title_font=palette.title_font, say=say, texts=texts)
        c.showPage()
    return len(plan.windows)


# ---- images for virtual tables -----------------------------------------------------------------


def map_image_pdf(m: HexMap, pack: Pack) -> tuple[bytes, Frame, tuple[float, float]]:
    """A one-page PDF of the map at true scale with a small margin, no furniture."""
    layout = m.layout()
    return image_pdf(m.title, layout.bounds(m.hexes),
                     lambda c, frame: paint_hex_map(c, m, frame, layout, m.hexes, Look(palette=palette_for(pack)),
                                                    zone_names_of(pack)))


def hex_image(m: HexMap, pack: Pack) -> MapImage:
    """The map for a PNG: hexes PNG_HEX_PX pixels flat to flat, and the sidecar's hex facts."""
    data, frame, page = map_image_pdf(m, pack)

    def facts(name: str, width: int, height: int, pitch: int, px_per_mm: float, origin) -> dict:
        return {
            "map": m.id, "title": m.title, "image": name,
            "width_px": width, "height_px": height,
            "orientation": m.orientation, "hex_size_mm": m.hex_size,
            "hex_pitch_px": pitch, "hex_corner_radius_px": round(pitch / hexgrid.SQRT3, 4),
            "dpi": round(px_per_mm * 25.4, 4),
            "origin_hex_center_px": [round(origin[0], 3), round(origin[1], 3)],
            "coordinates": "axial (q, r); pixel y points down; centre of hex (q, r) follows "
                           "Red Blob Games' layout from origin_hex_center_px",
        }

    return MapImage(data, frame, page, m.hex_size, PNG_HEX_PX, "hex", m.layout().center(Hex(0, 0)), facts)
