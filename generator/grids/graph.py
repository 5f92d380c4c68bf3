"""Grid-agnostic graph helpers shared by the hex and square geometries."""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable


def connected_components(cells: Iterable, neighbours: Callable) -> list[list]:
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
