"""Small diagrams a rules chapter asks for with a fenced block, drawn from data:

    ```diagram line-of-sight
    from: [0, 0]
    to: [3, -1]
    blockers: [[1, 0]]
    ```

An optional `caption:` is set below the diagram as a paragraph of the chapter.
`line-of-sight` draws the hexes around two figures, the blocking hexes, the corner-to-corner
line the geometry finds clear (generator.grids.hexgrid.corner_sight_line) and, for comparison, the
centre-to-centre line. The scene is the chapter's; the engine only draws it.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from generator.render.rulebook.platypus import Flowable

from generator.core.errors import InputError
from generator.core.yamlio import parse_kept
from generator.grids import hexgrid
from generator.render.base.fonts import BOLD
from generator.render.base.pdfout import MM


class DiagramError(ValueError):
    """A diagram block the renderer cannot draw (unknown kind, bad scene)."""


def _pair(value, what: str) -> hexgrid.Hex:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DiagramError(f"`{what}` must be a hex [q, r], got {value!r}")
    return hexgrid.Hex(*value)


class LineOfSightDiagram(Flowable):
    """Two figures' hexes, blockers, a clear corner-to-corner line and the centre line."""

    HEX = 6.0 * MM  # centre to corner

    def __init__(self, scene: object, style):
        super().__init__()
        if not isinstance(scene, dict):
            raise DiagramError("a line-of-sight diagram needs `from`, `to` and `blockers`")
        self.a = _pair(scene.get("from"), "from")
        self.b = _pair(scene.get("to"), "to")
        self.blockers = frozenset(_pair(h, "blockers") for h in scene.get("blockers") or [])
        self.caption = str(scene.get("caption") or "")
        self.style = style
        line = set(hexgrid.line(self.a, self.b, 1)) | set(hexgrid.line(self.a, self.b, -1))
        self.cells = sorted(hexgrid.dilate(line | self.blockers, 1))
        self.sight = hexgrid.corner_sight_line(self.a, self.b, self.blockers)
        self.spaceBefore = self.spaceAfter = 4.0
        xs, ys = zip(*(self._centre(h) for h in self.cells))
        self.x0, self.y0 = min(xs) - self.HEX, min(ys) - self.HEX
        self.w, self.h = max(xs) + self.HEX - self.x0, max(ys) + self.HEX - self.y0

    def _centre(self, h) -> tuple[float, float]:
        return hexgrid.lattice_to_page((2 * h[0] + h[1], 3 * h[1]), self.HEX)

    def _page(self, point) -> tuple[float, float]:
        """Diagram point (y down) to the flowable's own frame (y up)."""
        return point[0] - self.x0, self.h - (point[1] - self.y0)

    def wrap(self, aw, ah):
        self.width = aw
        return aw, self.h

    def draw(self):
        c = self.canv
        ox = max(0.0, (self.width - self.w) / 2)
        c.saveState()
        c.translate(ox, 0)
        for h in self.cells:
            corners = [self._page(hexgrid.lattice_to_page(p, self.HEX)) for p in hexgrid.hex_corners_lattice(h)]
            path = c.beginPath()
            path.moveTo(*corners[0])
            for p in corners[1:]:
                path.lineTo(*p)
            path.close()
            fill = "#8a8a8a" if h in self.blockers else ("#f1e3c6" if h in (self.a, self.b) else "#ffffff")
            c.setFillColor(HexColor(fill))
            c.setStrokeColor(HexColor("#9a9080"))
            c.setLineWidth(0.5)
            c.drawPath(path, fill=1, stroke=1)
        # the centre-to-centre line, dashed: what the centre rule would look at
        c.setDash(2, 2)
        c.setStrokeColor(HexColor(self.style.muted))
        c.setLineWidth(0.7)
        c.line(*self._page(self._centre(self.a)), *self._page(self._centre(self.b)))
        c.setDash()
        if self.sight is not None:
            p, q = (self._page(hexgrid.lattice_to_page(pt, self.HEX)) for pt in self.sight)
            c.setStrokeColor(HexColor(self.style.accent))
            c.setLineWidth(1.4)
            c.line(*p, *q)
            c.setFillColor(HexColor(self.style.accent))
            for x, y in (p, q):
                c.circle(x, y, 0.9, fill=1, stroke=0)
        c.setFillColor(HexColor(self.style.ink))
        for h, label in ((self.a, "A"), (self.b, "B")):
            x, y = self._page(self._centre(h))
            c.setFont(BOLD, 9)
            c.drawCentredString(x, y - 3, label)
        c.restoreState()


DIAGRAMS = {"line-of-sight": LineOfSightDiagram}


def diagram_flowable(info: str, body: str, style) -> Flowable:
    """The flowable for a ```diagram KIND block; raises DiagramError when it cannot be drawn."""
    parts = info.split()
    kind = parts[1] if len(parts) > 1 else ""
    if kind not in DIAGRAMS:
        raise DiagramError(f"unknown diagram `{kind}`; known: {', '.join(DIAGRAMS)}")
    try:  # read as every pack file is (bounded, duplicate keys refused), and kept in the cache folder
        scene = parse_kept(body, "diagram").data if body.strip() else {}
    except InputError as exc:
        raise DiagramError(f"the diagram's scene is not YAML: {exc.problems[0].message}") from None
    return DIAGRAMS[kind](scene, style)
