"""A map as SVG, drawn from its data, for screens (the web builder's map pages).

The picture follows the printed colour map (render/maps/hexes.py, render/maps/square.py) and
takes its inks (render/maps/palette.py), patterns and dashes from there: the ground tinted,
obstacles solid stone with a heavy rim, terrain in its colour with its pattern in a darker shade,
zones dashed in their side's colour and named, regions with a heavy outline, square tiles tinted
by height with the height printed on them, coordinates on every cell. Coordinates of
the drawing are millimetres at true scale (the viewBox), y down, so the SVG scales cleanly.

Every cell is one `<polygon class="cell ...">` with `data-cell="q,r"` (hex: also `data-q`,
`data-r`; square: `data-x`, `data-y`, `data-height`), and CSS classes name what is on it
(`terrain terrain-<id>`, `obstacle`, `air`, `zone-<id>`), so a page can style or script it.
`highlight` marks cells (say, where a boss fits) in a `<g class="highlight">` layer.
"""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from generator.core.errors import InputError, Location, Problem
from generator.grids.graph import boundary_loops
from generator.render.maps.cells import ZONE_DASHES
from generator.render.maps.palette import Palette, mix, palette_for, svg_colour
from generator.render.maps.square import edge_width_mm
from generator.maps.load import load_map

MARGIN_MM = 3.0
GRID_LINE_MM = 0.3  # each cell's outline
ZONE_LINE_MM = 0.7  # a start zone's dashed outline
OBSTACLE_RIM_MM = 2.2 * GRID_LINE_MM  # the heavy inset rim that tells an obstacle from a pattern
HIGHLIGHT = "#d9480f"  # one strong colour, visible over every grey and pattern
_NON_ID = re.compile(r"[^A-Za-z0-9_-]+")


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _loops(layout, cells) -> list[list[tuple[float, float]]]:
    """The outline of a group of cells (hex or square) as closed loops of corners."""
    return boundary_loops(cells, layout.corners)


def _path_d(loops) -> str:
    return " ".join("M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in loop) + " Z" for loop in loops)


def _rim_scale(square: bool) -> float:
    """How far inside its cell an obstacle's rim runs (a fraction of the cell)."""
    return 0.9 if square else 0.93


def _pattern_def(pid: str, kind: str, pitch: float, grey: str) -> str:
    """One of the printed maps' terrain patterns as an SVG <pattern> in the colour `grey`, spaced
    by the cell size (the PDF uses pitch/9 steps and a line width that follows the cell size too)."""
    step = pitch / 9
    width = _num(max(0.08, 0.22 * pitch / 25.4))
    line = f'stroke="{grey}" stroke-width="{width}" stroke-linecap="round" fill="none"'
    head = f'<pattern id="{pid}" patternUnits="userSpaceOnUse"'
    if kind == "dots":
        w, h, r = step, step * 1.74, pitch * 0.02
        dots = "".join(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>'
                       for x, y in ((0, 0), (w, 0), (w / 2, h / 2), (0, h), (w, h)))
        return f'{head} width="{_num(w)}" height="{_num(h)}"><g fill="{grey}">{dots}</g></pattern>'
    if kind in ("hatch", "crosshatch"):
        s = step * (1.0 if kind == "hatch" else 1.3)
        cross = f'<line x1="0" y1="{_num(s / 2)}" x2="{_num(s)}" y2="{_num(s / 2)}"/>' if kind == "crosshatch" else ""
        return (f'{head} width="{_num(s)}" height="{_num(s)}" patternTransform="rotate(45)"><g {line}>'
                f'<line x1="{_num(s / 2)}" y1="0" x2="{_num(s / 2)}" y2="{_num(s)}"/>{cross}</g></pattern>')
    if kind == "waves":
        amp, wl, h = step * 0.3 * 1.3, step * 2.2, step * 1.3
        y = h / 2
        d = (f"M0,{_num(y)} C{_num(wl / 6)},{_num(y - amp)} {_num(wl / 3)},{_num(y - amp)} {_num(wl / 2)},{_num(y)} "
             f"C{_num(wl * 2 / 3)},{_num(y + amp)} {_num(wl * 5 / 6)},{_num(y + amp)} {_num(wl)},{_num(y)}")
        return f'{head} width="{_num(wl)}" height="{_num(h)}"><path d="{d}" {line}/></pattern>'
    if kind == "bricks":
        c = step * 1.1
        d = (f"M0,0 H{_num(2 * c)} M0,{_num(c)} H{_num(2 * c)} M0,0 V{_num(c)} M{_num(2 * c)},0 V{_num(c)} "
             f"M{_num(c)},{_num(c)} V{_num(2 * c)}")
        return f'{head} width="{_num(2 * c)}" height="{_num(2 * c)}"><path d="{d}" {line}/></pattern>'
    if kind == "grass":
        w, h, t = step * 1.8, step * 3.2, step * 0.45
        d = " ".join(f"M{_num(bx)},{_num(by)} l{_num(lean * t)},{_num(-t)}"
                     for bx, by in ((w * 0.25, h * 0.35), (w * 0.75, h * 0.85)) for lean in (-0.5, 0.0, 0.5))
        return f'{head} width="{_num(w)}" height="{_num(h)}"><path d="{d}" {line}/></pattern>'
    return ""  # "none": a terrain printed without a pattern


def _cell_key(cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _highlight_cells(highlight, where: str) -> set:
    out = set()
    for i, item in enumerate(highlight or []):
        try:
            a, b = item
            if isinstance(a, bool) or isinstance(b, bool) or int(a) != a or int(b) != b:
                raise ValueError
        except (TypeError, ValueError):
            raise InputError([Problem("map.highlight", f"highlight item {i + 1} is not a cell", Location(where),
                                      found=repr(item)[:60], expected="a pair of whole numbers, e.g. [2, -1]")]) \
                from None
        out.add((int(a), int(b)))
    return out


def _load(map_obj, pack):
    if isinstance(map_obj, (str, Path)):
        return load_map(pack, Path(map_obj))
    return map_obj


def map_svg(map_obj, pack, highlight: list | None = None, *, coords: bool = True) -> str:
    """The SVG text of a map (a HexMap or SquareMap as loaded, or a map file's path).
    `highlight`: cells to mark, as (q, r) / (x, y) pairs; cells off the map are left out."""
    m = _load(map_obj, pack)
    square = getattr(m, "grid", "hex") == "square"
    marked = _highlight_cells(highlight, getattr(m, "file", "<map>"))
    base = m.layout()
    board = m.board if square else sorted(m.cells)
    x0, y0, x1, y1 = base.bounds(board)
    layout = m.layout(origin=(MARGIN_MM - x0, MARGIN_MM - y0))
    width, height = x1 - x0 + 2 * MARGIN_MM, y1 - y0 + 2 * MARGIN_MM
    pitch = layout.flat_to_flat
    # ids unique on a page showing several maps (two packs may both have a `caldera`)
    uid = "pnp-" + _NON_ID.sub("-", str(m.id)) + "-" + hashlib.sha1(str(m.file).encode()).hexdigest()[:6]
    line_mm = GRID_LINE_MM
    palette = palette_for(pack)

    terrain_ids = m.terrain_ids_in_use()
    pattern_of = {tid: (m.terrain_specs[tid].pattern if tid in m.terrain_specs else "none") for tid in terrain_ids}
    inks = {tid: palette.terrain(m.terrain_specs.get(tid)) for tid in terrain_ids}
    defs = []
    for tid in terrain_ids:
        d = _pattern_def(f"{uid}-terrain-{tid}", pattern_of[tid], pitch, svg_colour(inks[tid].marks))
        if d:
            defs.append(d)
    if square:
        defs.append(_pattern_def(f"{uid}-air", "hatch", pitch, svg_colour(palette.air_marks)))
    zone_of: dict = {}
    for zid in sorted(m.zones):
        for cell in m.zones[zid]:
            zone_of.setdefault(cell, []).append(zid)

    title = m.title
    kind = "square" if square else f"{m.orientation}-top hex"
    cell_word = "tile" if square else "hex"
    summary = [f"{kind.capitalize()} map of {len(m.cells)} {cell_word}{'es' if cell_word == 'hex' else 's'}, "
               f"{_num(m.tile_size if square else m.hex_size)} mm {'tiles' if square else 'hexes'}, "
               f"{_num(width / 10)} × {_num(height / 10)} cm"]
    if m.obstacles:
        summary.append(f"{len(m.obstacles)} obstacle{'s' if len(m.obstacles) != 1 else ''}")
    for tid in terrain_ids:
        n = sum(1 for t in m.terrain.values() if t == tid)
        name = m.terrain_specs[tid].name if tid in m.terrain_specs else tid
        summary.append(f"{name}: {n}")
    zone_names = {sid: side.name for sid, side in pack.spec.sides.items()} if pack is not None else {}
    for zid in sorted(m.zones):
        summary.append(f"zone {zone_names.get(zid, zid)}: {len(m.zones[zid])}")
    if square and m.heights:
        summary.append(f"heights {min(m.heights.values())} to {max(m.heights.values())}")
    if marked:
        summary.append(f"{len(marked & set(m.cells))} highlighted")

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} {_num(height)}" '
           f'width="{_num(width)}mm" height="{_num(height)}mm" role="img" class="pnp-map {"square" if square else "hex"}" '
           f'aria-labelledby="{uid}-title {uid}-desc" data-map={quoteattr(str(m.id))} '
           f'font-family="DejaVu Sans, Verdana, sans-serif">',
           f'<title id="{uid}-title">{escape(title)}</title>',
           f'<desc id="{uid}-desc">{escape("; ".join(summary))}.</desc>']
    if defs:
        out.append("<defs>" + "".join(defs) + "</defs>")

    # cells: fill by what is on them; the grid line is each cell's own outline
    out.append(f'<g class="cells" stroke="{svg_colour(palette.grid)}" stroke-width="{_num(line_mm)}" '
               'stroke-linejoin="round">')
    overlays = []
    for cell in board:
        classes = ["cell"]
        attrs = {"data-cell": _cell_key(cell)}
        if square:
            attrs.update({"data-x": str(cell[0]), "data-y": str(cell[1])})
            h = m.heights.get(cell)
            if h is None:
                classes.append("air")
                fill = svg_colour(palette.air)
            else:
                attrs["data-height"] = str(h)
                fill = svg_colour(palette.height(h))
        else:
            attrs.update({"data-q": str(cell[0]), "data-r": str(cell[1])})
            fill = svg_colour(palette.ground if palette.ground is not None else 1.0)
        tid = m.terrain.get(cell)
        if tid is not None:
            classes += ["terrain", f"terrain-{tid}"]
            attrs["data-terrain"] = tid
            tint = inks[tid].fill
            if tint is not None:  # as printed: a hex takes the terrain's colour, a tile leans to it
                fill = svg_colour(mix(palette.height(m.heights[cell]), tint, 0.6)
                                  if square and cell in m.heights else tint)
        if cell in m.obstacles:
            classes.append("obstacle")
            fill = svg_colour(palette.obstacle if not square else palette.crate)
        classes += [f"zone-{z}" for z in zone_of.get(cell, [])]
        if cell in marked:
            classes.append("marked")
        corners = layout.corners(cell)
        stroke = ' stroke="none"' if square and cell not in m.heights else ""
        extra = "".join(f" {k}={quoteattr(v)}" for k, v in attrs.items())
        out.append(f'<polygon class="{" ".join(classes)}"{extra} fill="{fill}"{stroke} points="{_points(corners)}"/>')
        if square and cell not in m.heights:
            overlays.append(f'<polygon class="air-pattern" fill="url(#{uid}-air)" points="{_points(corners)}"/>')
        elif tid is not None and cell not in m.obstacles and pattern_of.get(tid, "none") != "none":
            overlays.append(f'<polygon class="terrain-pattern terrain-{tid}" fill="url(#{uid}-terrain-{tid})" '
                            f'points="{_points(corners)}"/>')
    out.append("</g>")
    if overlays:
        out.append('<g class="patterns" stroke="none" pointer-events="none">' + "".join(overlays) + "</g>")
    if m.obstacles:  # the heavy inset rim that tells an obstacle from a pattern
        rims = "".join(f'<polygon points="{_points(layout.corners(c, _rim_scale(square)))}"/>'
                       for c in sorted(m.obstacles))
        out.append(f'<g class="obstacles" fill="none" stroke="{svg_colour(palette.obstacle_rim)}" '
                   f'stroke-width="{_num(OBSTACLE_RIM_MM)}" '
                   f'stroke-linejoin="round" pointer-events="none">{rims}</g>')
    if square:
        out.append(_height_edges(m, layout, palette))
    out.append(_zones(m, layout, zone_names, uid, palette))
    regions = getattr(m, "regions", None) or {}
    if regions:
        out.append(_regions(m, layout, regions, palette))
    shown = sorted(marked & set(m.cells))
    if shown:
        marks = "".join(f'<polygon class="highlight" data-cell="{_cell_key(c)}" points="{_points(layout.corners(c, 0.8))}"/>'
                        for c in shown)
        out.append(f'<g class="highlight" fill="{HIGHLIGHT}" fill-opacity="0.35" stroke="{HIGHLIGHT}" '
                   f'stroke-width="{_num(0.8)}" pointer-events="none">{marks}'
                   f'<path class="highlight-outline" fill="none" stroke-width="{_num(0.8)}" '
                   f'd="{_path_d(_loops(layout, shown))}"/></g>')
    out.append(_labels(m, layout, square, coords, palette))
    out.append("</svg>")
    return "\n".join(part for part in out if part) + "\n"


def _height_edges(m, layout, palette: Palette) -> str:
    """A heavier line where neighbouring tiles differ in height (a step up or down); the
    printed map's contour lines, simplified to one width per step."""
    lines = []
    for t, h in sorted(m.heights.items()):
        for dx, dy, (a, b) in ((1, 0, (1, 2)), (0, 1, (2, 3))):
            other = m.heights.get((t[0] + dx, t[1] + dy))
            if other is None or other == h:
                continue
            corners = layout.corners(t)
            (ax, ay), (bx, by) = corners[a], corners[b]
            lines.append(f'<line x1="{_num(ax)}" y1="{_num(ay)}" x2="{_num(bx)}" y2="{_num(by)}" '
                         f'stroke-width="{_num(edge_width_mm(abs(other - h)))}"/>')
    if not lines:
        return ""
    return f'<g class="height-edges" stroke="{svg_colour(palette.region)}" stroke-linecap="round" ' \
        'pointer-events="none">' + \
        "".join(lines) + "</g>"


def _label_spot(layout, cells, avoid=frozenset()):
    """The cell nearest the middle of a group (preferring cells not in `avoid`)."""
    centres = {c: layout.center(c) for c in cells}
    mx = sum(x for x, _ in centres.values()) / len(centres)
    my = sum(y for _, y in centres.values()) / len(centres)
    return min(cells, key=lambda c: (c in avoid, (centres[c][0] - mx) ** 2 + (centres[c][1] - my) ** 2, c))


def _zones(m, layout, zone_names: dict, uid: str, palette: Palette) -> str:
    if not m.zones:
        return ""
    size = layout.flat_to_flat * 0.085 * 1.2
    parts = ['<g class="zones" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    labels = []
    for index, zid in enumerate(sorted(m.zones)):
        cells = sorted(m.zones[zid])
        if not cells:
            continue
        dash = " ".join(_num(d) for d in ZONE_DASHES[index % len(ZONE_DASHES)])
        parts.append(f'<path class="zone zone-{zid}" data-zone={quoteattr(zid)} stroke="{svg_colour(palette.zone_ink(zid))}" '
                     f'stroke-width="{_num(ZONE_LINE_MM)}" '
                     f'stroke-dasharray="{dash}" d="{_path_d(_loops(layout, cells))}"/>')
        spot = _label_spot(layout, cells, m.obstacles)
        x, y = layout.center(spot)
        labels.append(_text(zone_names.get(zid, zid).upper(), x, y - layout.size * 0.15, size,
                            f"zone-label zone-{zid}", bold=True, grey=palette.zone_ink(zid)))
    parts.append("</g>")
    return "".join(parts) + "".join(labels)


def _regions(m, layout, regions: dict, palette: Palette) -> str:
    names = getattr(m, "region_names", {}) or {}
    size = layout.flat_to_flat * 0.085 * 1.05
    parts = [f'<g class="regions" fill="none" stroke="{svg_colour(palette.region)}" stroke-width="1.2" '
             'stroke-linejoin="round">']
    labels = []
    for rid in sorted(regions):
        cells = sorted(regions[rid])
        if not cells:
            continue
        parts.append(f'<path class="region region-{rid}" data-region={quoteattr(rid)} '
                     f'd="{_path_d(_loops(layout, cells))}"/>')
        if names.get(rid):
            spot = _label_spot(layout, cells, m.obstacles | set(m.terrain))
            x, y = layout.center(spot)
            labels.append(_text(names[rid].upper(), x, y + size * 0.35, size, f"region-label region-{rid}", bold=True))
    parts.append("</g>")
    return "".join(parts) + "".join(labels)


def _text(text: str, x: float, y: float, size: float, cls: str, bold: bool = False, grey=0.05,
          anchor: str = "middle", halo: float = 0.25) -> str:
    """Text with a white halo (painted under the letters) so it reads over patterns and dashes."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}"{weight} '
            f'text-anchor="{anchor}" fill="{svg_colour(grey)}" stroke="#ffffff" stroke-width="{_num(size * halo)}" '
            f'paint-order="stroke" stroke-linejoin="round" pointer-events="none">{escape(text)}</text>')


def _labels(m, layout, square: bool, coords: bool, palette: Palette) -> str:
    """Coordinates on every cell (as printed: `q,r` under the centre of a hex, `x,y` in a
    tile's corner) and a tile's height in its middle."""
    parts = ['<g class="labels">']
    if square:
        tile = layout.tile
        for t in sorted(m.heights):
            cx, cy = layout.center(t)
            if coords:
                parts.append(_text(_cell_key(t), cx - tile * 0.43, cy - tile * 0.3, tile * 0.09, "coord",
                                   grey=0.25, anchor="start"))
            if t not in m.obstacles:
                parts.append(_text(str(m.heights[t]), cx, cy + tile * 0.11, tile * 0.3, "height", bold=True,
                                   grey=0.0, halo=0.06))
    elif coords:
        size = layout.flat_to_flat * 0.085
        for h in sorted(m.cells):
            cx, cy = layout.center(h)
            parts.append(_text(_cell_key(h), cx, cy + layout.size * 0.58, size, "coord",
                               grey=0.1 if h in m.obstacles else palette.label))
    parts.append("</g>")
    return "".join(parts) if len(parts) > 2 else ""


def map_legend(map_obj, pack) -> list[dict]:
    """What the map's markings mean, for a legend beside its picture: one entry per terrain in
    use (its pattern, name and rule text), obstacles, and each start zone (its dash). Each
    entry is {"key", "name", "text", "swatch"}; the swatch is a small SVG drawn the way the
    map draws that marking."""
    m = _load(map_obj, pack)
    square = getattr(m, "grid", "hex") == "square"
    # a cell at the map's own size, so its pattern has the density and line weight it has on the map
    pitch = float(m.tile_size if square else m.hex_size)
    w = pitch * 1.2

    def cell_points(inset: float = 1.0) -> str:
        if square:
            a, b = (w - pitch * inset) / 2, (w + pitch * inset) / 2
            return _points([(a, a), (b, a), (b, b), (a, b)])
        r = pitch / math.sqrt(3) * inset
        start = 30 if getattr(m, "orientation", "pointy") == "pointy" else 0
        return _points([(w / 2 + r * math.cos(math.radians(start + 60 * k)),
                         w / 2 + r * math.sin(math.radians(start + 60 * k))) for k in range(6)])

    def swatch(body: str, defs: str = "") -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(w)} {_num(w)}" width="40" height="40" '
                f'aria-hidden="true">{"<defs>" + defs + "</defs>" if defs else ""}{body}</svg>')

    palette = palette_for(pack)
    outline = f'stroke="{svg_colour(palette.grid)}" stroke-width="{_num(GRID_LINE_MM)}" stroke-linejoin="round"'
    ground = svg_colour(palette.ground if palette.ground is not None else 1.0)
    entries = []
    for tid in m.terrain_ids_in_use():
        spec = m.terrain_specs.get(tid)
        ink = palette.terrain(spec)
        pid = f"legend-{_NON_ID.sub('-', str(m.id))}-{tid}"
        pattern = _pattern_def(pid, spec.pattern if spec else "none", pitch, svg_colour(ink.marks))
        fill = f"url(#{pid})" if pattern else "none"
        body = (f'<polygon fill="{svg_colour(ink.fill) if ink.fill is not None else ground}" {outline} '
                f'points="{cell_points()}"/><polygon fill="{fill}" stroke="none" points="{cell_points()}"/>')
        notes = [word for word, on in (("blocks movement", not spec.walkable),
                                       ("blocks line of sight", spec.blocks_sight)) if on] if spec else []
        text = (spec.text or "") if spec else ""
        if notes:
            text = (text + " " if text else "") + "(" + "; ".join(notes) + ")"
        entries.append({"key": f"terrain-{tid}", "name": spec.name if spec else tid, "text": text,
                        "swatch": swatch(body, pattern)})
    if square and m.heights:
        top = max(m.heights.values())
        body = (f'<polygon fill="{svg_colour(palette.height(top))}" {outline} points="{cell_points()}"/>'
                + _text(str(top), w / 2, w / 2 + pitch * 0.12, pitch * 0.36, "height", bold=True))
        entries.append({"key": "height", "name": "Height", "text": f"the number on each tile "
                        f"({min(m.heights.values())} to {top}); the higher, the browner its tint",
                        "swatch": swatch(body)})
    if square and any(cell not in m.heights for cell in m.board):
        pid = f"legend-{_NON_ID.sub('-', str(m.id))}-air"
        pattern = _pattern_def(pid, "hatch", pitch, svg_colour(palette.air_marks))
        body = (f'<polygon fill="{svg_colour(palette.air)}" stroke="none" points="{cell_points()}"/>'
                f'<polygon fill="url(#{pid})" stroke="none" points="{cell_points()}"/>')
        entries.append({"key": "air", "name": "Open air", "text": "no tile: nothing stands there",
                        "swatch": swatch(body, pattern)})
    if m.obstacles:
        body = (f'<polygon fill="{svg_colour(palette.crate if square else palette.obstacle)}" {outline} '
                f'points="{cell_points()}"/>'
                f'<polygon fill="none" stroke="{svg_colour(palette.obstacle_rim)}" '
                f'stroke-width="{_num(OBSTACLE_RIM_MM)}" points="{cell_points(_rim_scale(square))}"/>')
        entries.append({"key": "obstacle", "name": "Obstacle", "text": "", "swatch": swatch(body)})
    zone_names = {sid: side.name for sid, side in pack.spec.sides.items()} if pack is not None else {}
    for index, zid in enumerate(sorted(m.zones)):
        if not m.zones[zid]:
            continue
        dash = " ".join(_num(d) for d in ZONE_DASHES[index % len(ZONE_DASHES)])
        body = (f'<polygon fill="{ground}" {outline} points="{cell_points()}"/>'
                f'<polygon fill="none" stroke="{svg_colour(palette.zone_ink(zid))}" '
                f'stroke-width="{_num(ZONE_LINE_MM)}" stroke-dasharray="{dash}" points="{cell_points()}"/>')
        entries.append({"key": f"zone-{zid}", "name": f"{zone_names.get(zid, zid)} start zone", "text": "",
                        "swatch": swatch(body)})
    return entries
