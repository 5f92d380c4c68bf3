"""What drawing code asks of a grid's layout, whatever the grid: `hexgrid.Layout` and
`squaregrid.Layout` both answer it (a square layout under the hex layout's names), so one
cell outline, pattern or zone painter serves both kinds of map and mypy checks that they do."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol


class CellLayout(Protocol):
    """Where a grid's cells sit on a page (any unit, y down); a cell is its coordinates (q, r or x, y)."""

    @property
    def orientation(self) -> str: ...  # pointy | flat | square
    @property
    def size(self) -> float: ...  # centre to corner
    @property
    def flat_to_flat(self) -> float: ...
    @property
    def hex_width(self) -> float: ...  # one cell's extent across
    @property
    def hex_height(self) -> float: ...  # and down

    def center(self, cell: Sequence[int], /) -> tuple[float, float]: ...
    def corners(self, cell: Sequence[int], scale: float = 1.0, /) -> list[tuple[float, float]]: ...
    def bounds(self, cells: Iterable[Sequence[int]], /) -> tuple[float, float, float, float]: ...
