"""Footprint placement in integer arithmetic: a hex (q, r) is the int q * STRIDE + r, so a
shape moved to an anchor is the anchor's int plus each of the shape's offsets, and a test of
"does it fit" is set membership of ints. A 10,000-hex map has a few hundred thousand
placements; building a frozenset of Hex objects for each (and again for each step and turn
that `can move` tries) made millions of small objects. Here each orientation's offsets, its
moves and its dilation are worked out once, as ints, and placements are (shape, anchor) pairs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from generator.grids import hexgrid
from generator.grids.hexgrid import Hex

STRIDE = 1 << 32  # map coordinates are within ±200 and footprints small: no two hexes share an int
_HALF = STRIDE // 2


def key(h: Sequence[int]) -> int:
    return h[0] * STRIDE + h[1]


def keys(hexes: Iterable[Sequence[int]]) -> set[int]:
    return {h[0] * STRIDE + h[1] for h in hexes}


def hex_of(k: int) -> Hex:
    q, r = divmod(k + _HALF, STRIDE)
    return Hex(q, r - _HALF)


class Shape:
    """One orientation of a footprint, relative to its anchor, with what is derived from it."""

    def __init__(self, cells: frozenset[Hex], distance: int):
        self.cells = cells
        self.offsets = sorted(key(h) for h in sorted(cells))
        self._distance = distance
        self._moves: list[list[int]] | None = None
        self._dilation: list[int] | None = None

    @property
    def moves(self) -> list[list[int]]:
        """Each step (the body shifted one hex) and each 60° turn about one of its hexes that
        changes the cells, as offsets from the anchor: the same moves as `checks.can_move`."""
        if self._moves is None:
            moves = [[o + key(d) for o in self.offsets] for d in hexgrid.DIRECTIONS]
            for pivot in sorted(self.cells):
                for steps in (1, -1):
                    turned = hexgrid.rotate_shape(self.cells, steps, pivot)
                    if turned != self.cells:
                        moves.append(sorted(keys(turned)))
            self._moves = moves
        return self._moves

    @property
    def dilation(self) -> list[int]:
        """Every hex within `distance` of the shape, as offsets from the anchor."""
        if self._dilation is None:
            self._dilation = sorted(keys(hexgrid.dilate(self.cells, self._distance)))
        return self._dilation


def fits(allowed: set[int], offsets: list[int], anchor: int) -> bool:
    return all(anchor + o in allowed for o in offsets)


@functools.lru_cache(maxsize=4)
def _area(allowed_hexes: frozenset[Hex]) -> tuple[set[int], dict[int, set[int]]]:
    """The allowed hexes as ints, and (filled in by `starts`) those hexes moved back by each offset:
    the orientations of a footprint share offsets, and a map's checks place every boss of the pack
    on the same walkable hexes (boss_fight's 5 bosses on 7 maps, in two setups: 65 calls)."""
    return keys(allowed_hexes), {}


def starts(allowed_hexes: Iterable[Hex], shapes: Iterable[Shape]) -> list[tuple[Shape, int]]:
    """(shape, anchor) for every placement lying wholly on `allowed_hexes`, shape by shape, each
    shape's anchors in the order of sorted hexes (ints sort as their hexes do: q, then r)."""
    allowed, shifted = _area(allowed_hexes) if isinstance(allowed_hexes, frozenset) else (keys(allowed_hexes), {})
    out: list[tuple[Shape, int]] = []
    for shape in shapes:
        # an anchor fits where every offset lands on an allowed hex: the intersection of the
        # allowed hexes shifted back by each offset (set operations, not a test per anchor and offset)
        sets = []
        for o in shape.offsets:
            if o not in shifted:
                shifted[o] = {a - o for a in allowed}
            sets.append(shifted[o])
        out += [(shape, k) for k in sorted(allowed.intersection(*sets))]
    return out


def can_move(shape: Shape, anchor: int, walkable: set[int]) -> bool:
    return any(all(anchor + o in walkable for o in move) for move in shape.moves)


def free_after(shape: Shape, anchor: int, cells: set[int]) -> int:
    """How many of `cells` lie outside the shape's dilation when it stands at `anchor`."""
    return len(cells) - sum(1 for o in shape.dilation if anchor + o in cells)
