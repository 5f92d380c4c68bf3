"""Pure square-grid geometry: tiles, orthogonal neighbours, distances, areas, lines of sight,
and where tiles sit on paper. No drawing and no game knowledge lives here.

Conventions: a tile is `Square(x, y)`, x the column (growing right), y the row (growing
*down*), as on the printed maps; page coordinates have y pointing down too (renderers flip
it). Movement is orthogonal: the four neighbours share an edge, diagonals do not count.

Lines of sight run from tile centre to tile centre. They are computed exactly (rational
arithmetic on doubled coordinates), so a line that passes exactly through a grid corner is
a recognised tie between the two tiles that meet there, broken by a `rule` like the hex
grid's: *permissive* (blocked only if both tie tiles block) or *strict* (either blocks).
Because the same segment is examined from both ends, sight is always symmetric.
"""

from __future__ import annotations


import math
import re
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, NamedTuple, TypeAlias

from generator.grids import graph

LosRule = Literal["permissive", "strict"]
SquareLike: TypeAlias = "Square | tuple[int, int] | Sequence[int]"  # a Square, or [x, y] as YAML gives it
Blocks: TypeAlias = "Callable[[Square], bool] | set[Square] | frozenset[Square]"  # what blocks sight


class Square(NamedTuple):
    """A tile: column x, row y. A NamedTuple so [x, y] pairs from YAML compare and hash equal."""

    x: int
    y: int

    def __add__(self, other: SquareLike) -> Square:  # type: ignore[override]  # vector addition, not tuple concat
        return Square(self.x + other[0], self.y + other[1])

    def __sub__(self, other: SquareLike) -> Square:
        return Square(self.x - other[0], self.y - other[1])

    def __str__(self) -> str:
        return f"({self.x},{self.y})"


ORIGIN = Square(0, 0)

# The four orthogonal steps, clockwise from east on a y-down page: E, S, W, N.
DIRECTIONS: tuple[Square, ...] = (Square(1, 0), Square(0, 1), Square(-1, 0), Square(0, -1))
DIAGONALS: tuple[Square, ...] = (Square(1, 1), Square(-1, 1), Square(-1, -1), Square(1, -1))


def as_square(value: SquareLike) -> Square:
    return value if isinstance(value, Square) else Square(int(value[0]), int(value[1]))


def neighbours(t: SquareLike) -> list[Square]:
    """The four tiles sharing an edge with t (no diagonals)."""
    t = as_square(t)
    return [t + d for d in DIRECTIONS]


def distance(a: SquareLike, b: SquareLike) -> int:
    """Orthogonal steps between two tiles on an empty grid (Manhattan distance)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: SquareLike, b: SquareLike) -> int:
    """Steps when diagonal steps are allowed too (king's moves)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def diamond(center: SquareLike, n: int) -> list[Square]:
    """Every tile within n orthogonal steps of center (2n² + 2n + 1 of them), in (x, y) order."""
    c = as_square(center)
    return sorted(Square(c.x + dx, c.y + dy) for dx in range(-n, n + 1)
                  for dy in range(-(n - abs(dx)), n - abs(dx) + 1))


def disc(center: SquareLike, radius: int) -> list[Square]:
    """A rough circle: every tile whose centre is within radius + ½ tile of center's centre
    (dx² + dy² ≤ r² + r, whole numbers only), in (x, y) order."""
    c = as_square(center)
    limit = radius * radius + radius
    return sorted(Square(c.x + dx, c.y + dy) for dx in range(-radius, radius + 1)
                  for dy in range(-radius, radius + 1) if dx * dx + dy * dy <= limit)


def block(center: SquareLike, width: int, height: int) -> list[Square]:
    """A width × height rectangle of tiles centred on center (an even side leans right/down)."""
    c = as_square(center)
    x0, y0 = c.x - (width - 1) // 2, c.y - (height - 1) // 2
    return sorted(Square(x0 + i, y0 + j) for i in range(width) for j in range(height))


AREA_PATTERN = r"^(\+|[1-9]|[1-9]x[1-9])$"


def area(spec: str | int, center: SquareLike = ORIGIN) -> list[Square]:
    """The tiles an area written as text covers around `center`:
    `+` (the tile and its four neighbours), `N` (every tile within N orthogonal steps: `1`
    is the same as `+`), `WxH` (a W × H block). Raises ValueError on anything else."""
    text = str(spec).strip().lower()
    if not re.fullmatch(AREA_PATTERN, text):
        raise ValueError(f"not an area: {spec!r} (use +, a number of steps, or WxH such as 3x3)")
    if text == "+":
        return diamond(center, 1)
    if "x" in text:
        w, h = text.split("x")
        return block(center, int(w), int(h))
    return diamond(center, int(text))


def rectangle(columns: int, rows: int) -> list[Square]:
    """Every tile of a columns × rows board, (0, 0) at the top left, in (x, y) order."""
    return [Square(x, y) for x in range(columns) for y in range(rows)]


def connected_components(tiles: Iterable[SquareLike]) -> list[list[Square]]:
    """Groups of tiles joined by shared edges, largest first; each group sorted."""
    return graph.connected_components((as_square(t) for t in tiles), neighbours)


# ---- lines of sight -------------------------------------------------------------------------


@dataclass(frozen=True)
class Crossing:
    """A tile whose inside the line passes through, between parameters t_in and t_out
    (0 at the first tile's centre, 1 at the last one's)."""

    tile: Square
    t_in: Fraction
    t_out: Fraction

    @property
    def t_mid(self) -> Fraction:
        return (self.t_in + self.t_out) / 2


@dataclass(frozen=True)
class CornerTie:
    """The line passes exactly through a grid corner at parameter t; the two tiles that meet
    there without being entered are `tiles` (the tie the rule decides)."""

    t: Fraction
    tiles: tuple[Square, Square]


def _axis_interval(start: int, delta: int, cell: int) -> tuple[Fraction | None, Fraction | None] | None:
    """Parameters t where start + t·delta lies strictly inside [2·cell, 2·cell + 2] (doubled
    coordinates), as (lo, hi); None when never."""
    lo_edge, hi_edge = 2 * cell, 2 * cell + 2
    if delta == 0:
        return (None, None) if lo_edge < start < hi_edge else None
    a, b = Fraction(lo_edge - start, delta), Fraction(hi_edge - start, delta)
    return (min(a, b), max(a, b))


def crossings(a: SquareLike, b: SquareLike) -> list[Crossing]:
    """The tiles the straight line from a's centre to b's centre passes through (both ends
    included), ordered along the line. Tiles the line only touches at a corner are not
    included (see `corner_ties`)."""
    a, b = as_square(a), as_square(b)
    ax, ay, dx, dy = 2 * a.x + 1, 2 * a.y + 1, 2 * (b.x - a.x), 2 * (b.y - a.y)
    out = []
    for x in range(min(a.x, b.x), max(a.x, b.x) + 1):
        ix = _axis_interval(ax, dx, x)
        if ix is None:
            continue
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1):
            iy = _axis_interval(ay, dy, y)
            if iy is None:
                continue
            los = [v for v in (ix[0], iy[0]) if v is not None]
            his = [v for v in (ix[1], iy[1]) if v is not None]
            lo = max(los) if los else Fraction(0)
            hi = min(his) if his else Fraction(1)
            # the open interval (lo, hi) must meet the closed segment [0, 1]
            if lo < hi and lo < 1 and hi > 0:
                out.append(Crossing(Square(x, y), max(lo, Fraction(0)), min(hi, Fraction(1))))
    return sorted(out, key=lambda c: (c.t_in, c.t_out))


def corner_ties(a: SquareLike, b: SquareLike) -> list[CornerTie]:
    """Every grid corner the line from a's centre to b's centre passes exactly through."""
    a, b = as_square(a), as_square(b)
    ax, ay, dx, dy = 2 * a.x + 1, 2 * a.y + 1, 2 * (b.x - a.x), 2 * (b.y - a.y)
    if dx == 0 or dy == 0:
        return []  # a straight row or column runs through tile centres, never a corner
    out = []
    step = 1 if dx > 0 else -1
    first = ax + step  # the even doubled x values strictly between the ends
    for X in range(first, ax + dx, 2 * step):
        t = Fraction(X - ax, dx)
        Y = ay + t * dy
        if Y.denominator == 1 and int(Y) % 2 == 0:
            px, py = X // 2, int(Y) // 2
            if (dx > 0) == (dy > 0):  # heading down-right or up-left: enters (px-1,py-1), (px,py)
                tiles = (Square(px, py - 1), Square(px - 1, py))
            else:
                tiles = (Square(px - 1, py - 1), Square(px, py))
            low, high = sorted(tiles)
            out.append(CornerTie(t, (low, high)))
    return sorted(out, key=lambda c: c.t)


def _blocker(blocks: Blocks) -> Callable[[Square], bool]:
    return blocks.__contains__ if isinstance(blocks, (set, frozenset)) else blocks


def line_of_sight(a: SquareLike, b: SquareLike, blocks: Blocks,
                  rule: LosRule = "permissive") -> bool:
    """Whether nothing between a and b blocks a flat line of sight (the end tiles never block).
    At a corner the line passes exactly through, permissive sight is blocked only when both
    tiles meeting there block, strict sight when either does."""
    a, b = as_square(a), as_square(b)
    blocked = _blocker(blocks)
    if any(blocked(c.tile) for c in crossings(a, b) if c.tile not in (a, b)):
        return False
    for tie in corner_ties(a, b):
        hits = [blocked(t) for t in tie.tiles]
        if (all(hits) if rule == "permissive" else any(hits)):
            return False
    return True


def line_of_sight_3d(a: SquareLike, b: SquareLike, height_of: Callable[[Square], int | None],
                     blocks: Blocks = frozenset(),
                     eye: Fraction | float = Fraction(1, 2), rule: LosRule = "permissive") -> bool:
    """Sight over ground of varying height. The sight line runs from `eye` above a's top to
    `eye` above b's top; a tile between blocks it when it `blocks` (an obstacle) or when its
    top stands higher than the line where the line crosses that tile's middle (at a corner
    tie, where the line passes the corner). Open air (`height_of` gives None) never blocks.
    Symmetric: the same segment is judged from both ends."""
    a, b = as_square(a), as_square(b)
    blocked = _blocker(blocks)
    eye = Fraction(eye).limit_denominator(1000)
    top_a, top_b = height_of(a), height_of(b)
    ha = Fraction(top_a if top_a is not None else 0) + eye
    hb = Fraction(top_b if top_b is not None else 0) + eye

    def over(tile: Square, t: Fraction) -> bool:
        if blocked(tile):
            return True
        h = height_of(tile)
        return h is not None and h > ha + (hb - ha) * t

    if any(over(c.tile, c.t_mid) for c in crossings(a, b) if c.tile not in (a, b)):
        return False
    for tie in corner_ties(a, b):
        hits = [over(t, tie.t) for t in tie.tiles]
        if (all(hits) if rule == "permissive" else any(hits)):
            return False
    return True


# ---- layout: tile to page -------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where tiles sit on a page: tile (x, y) is a square of side `tile` centred at
    origin + (x·tile, y·tile); y points down; any unit.

    It answers the same questions as `hexgrid.Layout` (`center`, `corners`, `bounds`,
    `flat_to_flat`, `size`) so drawing code written for one grid can fill and clip the other."""

    tile: float
    origin: tuple[float, float] = (0.0, 0.0)

    orientation = "square"  # in place of a hex layout's pointy / flat

    @property
    def flat_to_flat(self) -> float:
        return self.tile

    @property
    def size(self) -> float:
        """Centre to corner."""
        return self.tile / math.sqrt(2.0)

    @property
    def hex_width(self) -> float:  # the extent of one cell, under the hex layout's names
        return self.tile

    @property
    def hex_height(self) -> float:
        return self.tile

    def center(self, t: SquareLike) -> tuple[float, float]:
        return self.origin[0] + t[0] * self.tile, self.origin[1] + t[1] * self.tile

    def corners(self, t: SquareLike, scale: float = 1.0) -> list[tuple[float, float]]:
        """The four corners, clockwise on a y-down page from the top left; `scale` < 1 gives
        an inset outline."""
        cx, cy = self.center(t)
        h = self.tile * scale / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    def to_square(self, x: float, y: float) -> Square:
        return Square(math.floor((x - self.origin[0]) / self.tile + 0.5),
                      math.floor((y - self.origin[1]) / self.tile + 0.5))

    def bounds(self, tiles: Iterable[SquareLike]) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the tiles' outlines."""
        tiles = list(tiles)
        if not tiles:
            return (0.0, 0.0, 0.0, 0.0)
        xs = [t[0] for t in tiles]
        ys = [t[1] for t in tiles]
        h = self.tile / 2
        ox, oy = self.origin
        return (ox + min(xs) * self.tile - h, oy + min(ys) * self.tile - h,
                ox + max(xs) * self.tile + h, oy + max(ys) * self.tile + h)
