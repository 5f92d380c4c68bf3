"""Pure hex-grid geometry: axial/cube coordinates, distances, ranges, lines, shapes, layout.

No drawing and no game knowledge lives here, so maps, map checks and card diagrams all
share one definition of "adjacent", "in range" and "where is this hex on paper".
Conventions follow Red Blob Games' "Hexagonal Grids" (see /work/shared/PRINT-SPECS.md):
axial (q, r) with s = -q - r; page coordinates have y pointing *down* (renderers flip it).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, NamedTuple, TypeAlias

from generator.grids import graph

SQRT3 = math.sqrt(3.0)

Orientation = Literal["pointy", "flat"]
LosRule = Literal["permissive", "strict", "corners"]
HexLike: TypeAlias = "Hex | tuple[int, int] | Sequence[int]"  # a Hex, or (q, r) as YAML gives it
Blocks: TypeAlias = "Callable[[Hex], bool] | set[Hex] | frozenset[Hex]"  # what blocks sight


class Hex(NamedTuple):
    """An axial coordinate. A NamedTuple so (q, r) tuples from YAML compare and hash equal."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: HexLike) -> Hex:  # type: ignore[override]  # vector addition, not tuple concat
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: HexLike) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


ORIGIN = Hex(0, 0)

# The six neighbour steps, clockwise from east (cube order of PRINT-SPECS.md).
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def as_hex(value: HexLike) -> Hex:
    return value if isinstance(value, Hex) else Hex(int(value[0]), int(value[1]))


def neighbours(h: HexLike) -> list[Hex]:
    h = as_hex(h)
    return [h + d for d in DIRECTIONS]


def distance(a: HexLike, b: HexLike) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def hex_range(center: HexLike, n: int) -> list[Hex]:
    """Every hex within distance n of center (3n² + 3n + 1 of them), in (q, r) order."""
    c = as_hex(center)
    out = []
    for dq in range(-n, n + 1):
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
            out.append(Hex(c.q + dq, c.r + dr))
    return out


def ring(center: HexLike, n: int) -> list[Hex]:
    """The hexes at exactly distance n (6n of them, or the centre for n = 0), walked clockwise."""
    c = as_hex(center)
    if n == 0:
        return [c]
    h = c + Hex(DIRECTIONS[4].q * n, DIRECTIONS[4].r * n)
    out = []
    for side in range(6):
        for _ in range(n):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def hexagon(radius: int, center: HexLike = ORIGIN) -> list[Hex]:
    return hex_range(center, radius)


def rectangle(columns: int, rows: int, orientation: Orientation) -> list[Hex]:
    """A rows × columns block that looks rectangular on paper, hex (0, 0) top-left.

    Pointy-top grids have straight rows (r constant) whose start shifts every second row
    ("odd-r" offset); flat-top grids have straight columns (q constant), "odd-q" offset."""
    out = []
    for row in range(rows):
        for col in range(columns):
            out.append(offset_to_axial(col, row, orientation))
    return out


def offset_to_axial(col: int, row: int, orientation: Orientation) -> Hex:
    if orientation == "pointy":
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col, row - (col - (col & 1)) // 2)


def axial_to_offset(h: HexLike, orientation: Orientation) -> tuple[int, int]:
    q, r = h[0], h[1]
    if orientation == "pointy":
        return q + (r - (r & 1)) // 2, r
    return q, r + (q - (q & 1)) // 2


# ---- rounding and lines ------------------------------------------------------------------


def cube_round(fq: float, fr: float, fs: float) -> Hex:
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# A line along a hex edge passes exactly between two hexes. Shifting both ends by a tiny
# cube vector breaks the tie one way; the opposite vector breaks it the other way.
_EPSILON = (1e-6, 2e-6, -3e-6)


def line(a: HexLike, b: HexLike, nudge: int = 1) -> list[Hex]:
    """The hexes a straight line from a to b passes through, both ends included.

    `nudge` is +1 or -1: which side wins where the line runs along an edge. Both
    ends get the same nudge, and the weights are symmetric integers, so
    line(b, a) is exactly line(a, b) reversed."""
    a, b = as_hex(a), as_hex(b)
    n = distance(a, b)
    if n == 0:
        return [a]
    eq, er, es = (nudge * e for e in _EPSILON)
    aq, ar, as_ = a.q + eq, a.r + er, a.s + es
    bq, br, bs = b.q + eq, b.r + er, b.s + es
    out = []
    for i in range(n + 1):
        j = n - i
        out.append(cube_round((aq * j + bq * i) / n, (ar * j + br * i) / n, (as_ * j + bs * i) / n))
    return out


def line_of_sight(a: HexLike, b: HexLike, blocks: Blocks,
                  rule: LosRule = "permissive") -> bool:
    """Whether nothing between a and b blocks sight (the end hexes themselves never block).

    permissive: sight is clear if either tie-break of the line is clear;
    strict: both must be clear (an edge grazing a blocker blocks);
    corners: corner to corner, see corner_line_of_sight."""
    if rule == "corners":
        return corner_line_of_sight(a, b, blocks)
    blocked = blocks.__contains__ if isinstance(blocks, (set, frozenset)) else blocks

    def clear(hexes: list[Hex]) -> bool:
        return not any(blocked(h) for h in hexes[1:-1])

    lines = (line(a, b, 1), line(a, b, -1))
    return any(map(clear, lines)) if rule == "permissive" else all(map(clear, lines))


# ---- corner-to-corner line of sight -------------------------------------------------------
#
# Exact arithmetic on a lattice: a pointy-top hex (q, r) of circumradius 1 has its centre at
# x = √3·(q + r/2), y = 1.5·r. Scaling x by 2/√3 and y by 2 (an affine map: straight lines stay
# straight, what crosses what is unchanged) puts the centre at the integer point (2q + r, 3r)
# and the six corners at integer offsets. Flat-top maps are the same grid mirrored (q and r
# swap roles), and mirroring changes nothing about sight, so one computation serves both.

_CORNERS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


def _lattice_centre(h: HexLike) -> tuple[int, int]:
    return 2 * h[0] + h[1], 3 * h[1]


def hex_corners_lattice(h: HexLike) -> list[tuple[int, int]]:
    """The six corners of hex h in the integer lattice above (for tests and diagrams)."""
    x, y = _lattice_centre(h)
    return [(x + dx, y + dy) for dx, dy in _CORNERS]


def _segment_touches_hex(p0: tuple[int, int], p1: tuple[int, int], h: HexLike) -> bool:
    """Whether the segment p0-p1, its two end points left out, meets the closed hexagon h
    (its inside, an edge or a corner). Liang-Barsky clipping against the six closed
    half-planes |x| <= 1, ±x ± y <= 2 (relative to the centre), in exact integers/fractions."""
    cx, cy = _lattice_centre(h)
    x0, y0 = p0[0] - cx, p0[1] - cy
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    lo, hi = Fraction(0), Fraction(1)
    for nx, ny, bound in ((1, 0, 1), (-1, 0, 1), (1, 1, 2), (1, -1, 2), (-1, 1, 2), (-1, -1, 2)):
        start = nx * x0 + ny * y0  # n·p(t) = start + t·rate must stay <= bound
        rate = nx * dx + ny * dy
        if rate == 0:
            if start > bound:
                return False
            continue
        t = Fraction(bound - start, rate)
        if rate > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
        if lo > hi:
            return False
    # the part of the segment inside the hexagon is [lo, hi]; it must reach past an end point
    return lo < 1 and hi > 0


def corner_line_of_sight(a: HexLike, b: HexLike, blocks: Blocks) -> bool:
    """Whether a and b see each other corner to corner: some straight line from a corner of
    a's hex to a corner of b's hex touches no blocking hex, not even at an edge or a corner
    (a line that only grazes a blocker is blocked, so a blocker exactly between two hexes in
    a row shuts them off). The end hexes themselves never block, and a line may start or end
    on a corner a blocker shares. Symmetric; adjacent hexes always see each other (the line
    along their shared edge touches no third hex)."""
    a, b = as_hex(a), as_hex(b)
    return a == b or corner_sight_line(a, b, blocks) is not None


def corner_sight_line(a: HexLike, b: HexLike, blocks: Blocks) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A clear corner-to-corner line from a to b as two lattice points (hex_corners_lattice),
    the first found in corner order; None when every such line is blocked."""
    a, b = as_hex(a), as_hex(b)
    blocked = blocks.__contains__ if isinstance(blocks, (set, frozenset)) else blocks
    # every hex a corner-to-corner line can touch lies within 2 of the centre line's hexes
    near = set()
    for h in line(a, b, 1) + line(a, b, -1):
        near.update(hex_range(h, 2))
    walls = sorted(h for h in near - {a, b} if blocked(h))
    # nearest walls first: they are the likeliest to cut a line
    walls.sort(key=lambda h: distance(h, a) + distance(h, b))
    for p in hex_corners_lattice(a):
        for q in hex_corners_lattice(b):
            if p != q and not any(_segment_touches_hex(p, q, w) for w in walls):
                return p, q
    return None


def lattice_to_page(point: tuple[int, int], size: float = 1.0) -> tuple[float, float]:
    """A lattice point back on a pointy-top page (y down), hex (0, 0) centred on the origin,
    `size` centre to corner."""
    return point[0] * SQRT3 / 2 * size, point[1] * size / 2


# ---- shapes: rotation, reflection, orientations -------------------------------------------


def rotate(h: HexLike, steps: int = 1, center: HexLike = ORIGIN) -> Hex:
    """Rotate by steps × 60° clockwise (on a y-down page) about center."""
    c = as_hex(center)
    q, r = h[0] - c.q, h[1] - c.r
    s = -q - r
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return Hex(q + c.q, r + c.r)


def reflect(h: HexLike, center: HexLike = ORIGIN) -> Hex:
    """Mirror across the q axis through center: (q, r, s) → (q, s, r)."""
    c = as_hex(center)
    q, r = h[0] - c.q, h[1] - c.r
    return Hex(q + c.q, -q - r + c.r)


Shape = frozenset[Hex]


def shape_of(hexes: Iterable[HexLike]) -> Shape:
    return frozenset(as_hex(h) for h in hexes)


def translate(shape: Iterable[HexLike], offset: HexLike) -> Shape:
    return frozenset(as_hex(h) + offset for h in shape)


def rotate_shape(shape: Iterable[HexLike], steps: int = 1, center: HexLike = ORIGIN) -> Shape:
    return frozenset(rotate(h, steps, center) for h in shape)


def reflect_shape(shape: Iterable[HexLike], center: HexLike = ORIGIN) -> Shape:
    return frozenset(reflect(h, center) for h in shape)


def normalize(shape: Iterable[HexLike]) -> Shape:
    """The shape translated so its smallest hex in (q, r) order sits at the origin:
    two shapes are congruent by translation exactly when their normal forms are equal."""
    shape = shape_of(shape)
    if not shape:
        return shape
    low = min(shape)
    return translate(shape, Hex(-low.q, -low.r))


def orientations(shape: Iterable[HexLike], mirror: bool = True) -> list[Shape]:
    """The distinct rotations (and, with mirror, reflections) of a shape, about the
    origin, without translating it: at most 12, fewer for symmetric shapes. Duplicates
    are judged up to translation; the first of each kind is kept, rotations first."""
    base = shape_of(shape)
    candidates = [rotate_shape(base, k) for k in range(6)]
    if mirror:
        flipped = reflect_shape(base)
        candidates += [rotate_shape(flipped, k) for k in range(6)]
    seen, out = set(), []
    for cand in candidates:
        key = normalize(cand)
        if key not in seen:
            seen.add(key)
            out.append(cand)
    return out


def shape_center(shape: Iterable[HexLike]) -> Hex:
    """The hex of the shape nearest its centroid (ties broken by (q, r)): the natural
    pivot for turning a multi-hex figure."""
    hexes = sorted(shape_of(shape))
    if not hexes:
        return ORIGIN
    mq = sum(h.q for h in hexes) / len(hexes)
    mr = sum(h.r for h in hexes) / len(hexes)

    def key(h: Hex) -> tuple[float, float, Hex]:
        dq, dr = h.q - mq, h.r - mr
        return (max(abs(dq), abs(dr), abs(dq + dr)), dq * dq + dr * dr + (dq + dr) ** 2, h)

    return min(hexes, key=key)


def dilate(shape: Iterable[HexLike], n: int) -> Shape:
    """Every hex within distance n of some hex of the shape."""
    out = set()
    for h in shape_of(shape):
        out.update(hex_range(h, n))
    return frozenset(out)


def connected_components(hexes: Iterable[HexLike]) -> list[list[Hex]]:
    """Groups of hexes joined by shared edges, largest first; each group sorted."""
    return graph.connected_components(shape_of(hexes), neighbours)


# ---- layout: hex to page ------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _corner_offsets(orientation: str, size: float, scale: float) -> tuple[tuple[float, float], ...]:
    """A hex's corners from its centre (Layout.corner_offsets), worked out once per size: a map
    page draws thousands of cells of a few sizes."""
    start = 30.0 if orientation == "pointy" else 0.0
    out = []
    for i in range(6):
        a = math.radians(start + 60.0 * i)
        out.append((size * scale * math.cos(a), size * scale * math.sin(a)))
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """Where hexes sit on a page. `size` is centre to corner; y points down; any unit."""

    orientation: Orientation
    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def from_flat_to_flat(cls, orientation: Orientation, flat_to_flat: float,
                          origin: tuple[float, float] = (0.0, 0.0)) -> "Layout":
        return cls(orientation, flat_to_flat / SQRT3, origin)

    @property
    def flat_to_flat(self) -> float:
        return SQRT3 * self.size

    @property
    def hex_width(self) -> float:
        """Horizontal extent of one hex."""
        return self.flat_to_flat if self.orientation == "pointy" else 2 * self.size

    @property
    def hex_height(self) -> float:
        return 2 * self.size if self.orientation == "pointy" else self.flat_to_flat

    def center(self, h: HexLike) -> tuple[float, float]:
        q, r = h[0], h[1]
        if self.orientation == "pointy":
            x = self.size * (SQRT3 * q + SQRT3 / 2 * r)
            y = self.size * 1.5 * r
        else:
            x = self.size * 1.5 * q
            y = self.size * (SQRT3 / 2 * q + SQRT3 * r)
        return x + self.origin[0], y + self.origin[1]

    def corner_offsets(self, scale: float = 1.0) -> list[tuple[float, float]]:
        return list(_corner_offsets(self.orientation, self.size, scale))

    def corners(self, h: HexLike, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners, clockwise on a y-down page; `scale` < 1 gives an inset outline."""
        cx, cy = self.center(h)
        return [(cx + dx, cy + dy) for dx, dy in self.corner_offsets(scale)]

    def to_hex(self, x: float, y: float) -> Hex:
        x, y = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        if self.orientation == "pointy":
            fq, fr = SQRT3 / 3 * x - y / 3, 2 / 3 * y
        else:
            fq, fr = 2 / 3 * x, -x / 3 + SQRT3 / 3 * y
        return cube_round(fq, fr, -fq - fr)

    def bounds(self, hexes: Iterable[HexLike]) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the hexes' outlines."""
        xs, ys = [], []
        for h in hexes:
            cx, cy = self.center(h)
            xs += [cx - self.hex_width / 2, cx + self.hex_width / 2]
            ys += [cy - self.hex_height / 2, cy + self.hex_height / 2]
        if not xs:
            return (0.0, 0.0, 0.0, 0.0)
        return min(xs), min(ys), max(xs), max(ys)


def outline(layout: Layout, hexes: Iterable[HexLike]) -> list[list[tuple[float, float]]]:
    """The boundary of a group of hexes as closed loops of corner points (in the layout's
    units, y down): every hex edge not shared with another hex of the group, chained end to
    end. A solid group gives one loop; a group with holes gives one more loop per hole.
    Straight runs keep every corner (each edge is one hex side long)."""
    return graph.boundary_loops(set(map(as_hex, hexes)), layout.corners)
