"""The small grid drawings cards and the rulebook reuse: a multi-hex shape (a boss piece's
footprint: `draw_hex_shape`) and a set of square tiles (an area of effect: `draw_square_shape`),
each fitted in a box. Apart from the map painters (hexes.py, square.py), so a card face that
draws one loads no map model, sheet plan or legend."""

from __future__ import annotations

from generator.grids import hexgrid, squaregrid
from generator.render.base.pdfout import MM
from generator.render.maps.cells import cell_path
from generator.render.maps.page import fit_frame


def draw_hex_shape(canvas, hexes, x: float, y: float, width: float, height: float, *,
                   orientation: hexgrid.Orientation = "pointy", fill_gray: float = 0.78, stroke_gray: float = 0.1,
                   line_width_mm: float = 0.3, max_hex_mm: float | None = None, mark=None) -> float:
    """Draw a multi-hex shape (a boss footprint, a piece's size diagram) fitted and centred
    in the box whose bottom-left corner is (x, y), all in mm. An empty shape is one hex.
    `mark`, if given, is a hex that gets a dot (e.g. the piece's own hex). Returns the
    flat-to-flat size the hexes were drawn at, in mm."""
    cells = sorted(hexgrid.shape_of(hexes)) or [hexgrid.ORIGIN]
    unit = hexgrid.Layout.from_flat_to_flat(orientation, 1.0)
    frame = fit_frame(unit.bounds(cells), x, y, width, height,
                      max_scale=max_hex_mm if max_hex_mm is not None else None)
    canvas.saveState()
    canvas.setLineJoin(1)
    canvas.setFillGray(fill_gray)
    canvas.setStrokeGray(stroke_gray)
    canvas.setLineWidth(line_width_mm * MM)
    for h in cells:
        canvas.drawPath(cell_path(canvas, frame, unit, h), stroke=1, fill=1)
    if mark is not None and hexgrid.as_hex(mark) in cells:
        canvas.setFillGray(stroke_gray)
        cx, cy = unit.center(mark)
        canvas.circle(*frame.pt(cx, cy), 0.12 * frame.scale * MM, stroke=0, fill=1)
    canvas.restoreState()
    return frame.scale


def draw_square_shape(canvas, cells, x: float, y: float, width: float, height: float, *,
                      fill_gray: float = 0.78, stroke_gray: float = 0.1, line_width_mm: float = 0.25,
                      max_cell_mm: float | None = None, mark=None) -> float:
    """Draw a set of square tiles (an area of effect, a footprint) fitted and centred in the
    box whose bottom-left corner is (x, y) mm; nothing for an empty set. `mark` (a tile, e.g.
    the target (0, 0)) is drawn darker with a dot. Returns the tile size drawn, in mm."""
    tiles = sorted({squaregrid.as_square(t) for t in cells})
    if not tiles:
        return 0.0
    unit = squaregrid.Layout(1.0)
    frame = fit_frame(unit.bounds(tiles), x, y, width, height, max_scale=max_cell_mm)
    marked = squaregrid.as_square(mark) if mark is not None else None
    canvas.saveState()
    canvas.setLineJoin(0)
    canvas.setStrokeGray(stroke_gray)
    canvas.setLineWidth(line_width_mm * MM)
    for t in tiles:
        canvas.setFillGray(fill_gray * 0.62 if t == marked else fill_gray)
        canvas.drawPath(cell_path(canvas, frame, unit, t), stroke=1, fill=1)
    if marked in tiles:
        canvas.setFillGray(stroke_gray)
        cx, cy = unit.center(marked)
        canvas.circle(*frame.pt(cx, cy), 0.14 * frame.scale * MM, stroke=0, fill=1)
    canvas.restoreState()
    return frame.scale
