"""Grid-agnostic graph helpers shared by the hex and square geometries."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

C = TypeVar("C", bound=tuple[int, int])  # a cell: a Hex or a Square
Point = tuple[float, float]


def connected_components(cells: Iterable[C], neighbours: Callable[[C], Iterable[C]]) -> list[list[C]]:
    """Groups of cells joined by `neighbours`, largest first; each group sorted."""
    todo = set(cells)
    groups = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        group, queue = [start], deque([start])
        while queue:
            for nb in neighbours(queue.popleft()):
                if nb in todo:
                    todo.discard(nb)
                    group.append(nb)
                    queue.append(nb)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


def boundary_loops(cells: Iterable[C], corners_of: Callable[[C], Sequence[Point]]) -> list[list[Point]]:
    """The boundary of a group of polygon cells (hexes, squares) as closed loops of corner
    points: every cell edge not shared with another cell of the group, chained end to end.
    A solid group gives one loop, each hole one more. `corners_of(cell)` lists a cell's
    corners in order; corners are matched to 1e-6 so neighbours' shared edges cancel."""
    def key(p: Point) -> Point:  # a corner, rounded so two cells' shared corner is one
        return (round(p[0], 6), round(p[1], 6))

    edges: dict[tuple[Point, Point], bool] = {}
    points: dict[Point, Point] = {}
    for cell in sorted(cells):
        corners = corners_of(cell)
        for i, a in enumerate(corners):
            b = corners[(i + 1) % len(corners)]
            points[key(a)], points[key(b)] = a, b
            edges[(key(a), key(b))] = True
    boundary: dict[Point, list[Point]] = {}
    for a, b in edges:
        if (b, a) not in edges:  # a shared edge runs both ways, once per cell
            boundary.setdefault(a, []).append(b)
    loops = []
    while boundary:
        start = min(boundary)
        loop, current = [], start
        while True:
            loop.append(points[current])
            nexts = boundary[current]
            following = nexts.pop(0)
            if not nexts:
                del boundary[current]
            current = following
            if current == start or current not in boundary:
                break
        loops.append(loop)
    return loops
