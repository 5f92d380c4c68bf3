"""Checks for square maps with heights, above all `map.reachability`: can the weakest figure of
the pack get everywhere it is meant to?

The movement model is the pack's (`movement:` in game.yaml, see `MovementSpec`): from a tile
a figure steps to an orthogonal neighbour whose top is at most its Jump higher; it may drop
any depth (unless `max_drop` limits it: falls cost health, not access); and it may leap in a
straight line across up to `leap` squares of open air, each counting as a step of its Move.
Obstacles and impassable terrain are never entered nor leapt over.

- map.reachability  a walkable tile that no figure starting in a start zone can reach (error;
                    without zones: that cannot be reached from the main area of the map), or
                    a tile a figure can get onto but never leave again for every start zone
                    (warning: a trap)

The other data checks (terrain, zones, off-grid, overlap) are the hex maps' own, reused.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.grids import squaregrid
from generator.grids.squaregrid import Square
from generator.maps.checks import (check_off_grid, check_overlap, check_terrain, check_zone_ground, check_zones,
                                   map_violation)
from generator.pack.model import MovementSpec

if TYPE_CHECKING:
    from generator.core.report import Violation
    from generator.maps.square import SquareMap
    from generator.pack.model import Pack

DEFAULT_MOVE = 1
DEFAULT_JUMP = 1
MAX_GROUPS = 6  # violations per zone; the rest are summed up in the last message


@dataclass(frozen=True)
class Mover:
    """The figure the map must serve: its Move and Jump, and where each number came from."""

    move: int
    jump: int
    move_from: str  # a card name, "game.yaml movement.profile" or "the default"
    jump_from: str

    def describe(self) -> str:
        if self.move_from == self.jump_from:
            return f"Move {self.move}, Jump {self.jump}: {self.move_from}"
        return f"Move {self.move}, Jump {self.jump}: {self.move_from}'s Move, {self.jump_from}'s Jump"


def movement_of(pack: Pack) -> MovementSpec:
    return pack.spec.movement or MovementSpec()


def _mover_type(pack: Pack, movement: MovementSpec) -> str | None:
    """The card type whose cards are the moving figures: the declared one, else the first
    type with int fields named like `move_field` and `jump_field`."""
    if movement.card_type is not None:
        return movement.card_type
    for type_id, spec in pack.spec.card_types.items():
        fields = spec.fields
        if all(fields.get(n) is not None and fields[n].type == "int"
               for n in (movement.move_field, movement.jump_field)):
            return type_id
    return None


def weakest_mover(pack: Pack) -> Mover:
    """`movement.profile` if the pack declares one, else the smallest Move and the smallest
    Jump among the cards of the moving card type, else Move 1, Jump 1."""
    movement = movement_of(pack)
    if movement.profile is not None:
        where = "game.yaml movement.profile"
        return Mover(movement.profile.move, movement.profile.jump, where, where)
    type_id = _mover_type(pack, movement)
    cards = [c for c in pack.cards.values() if c.type == type_id] if type_id else []

    def lowest(field: str, default: int) -> tuple[int, str]:
        values = [(v, c.name) for c in cards if isinstance(v := c.fields.get(field), int)]
        if not values:
            return default, "the default"
        value = min(v for v, _ in values)
        return value, next(name for v, name in values if v == value)

    move, move_from = lowest(movement.move_field, DEFAULT_MOVE)
    jump, jump_from = lowest(movement.jump_field, DEFAULT_JUMP)
    return Mover(max(1, move), max(0, jump), move_from, jump_from)


# ---- the move graph ---------------------------------------------------------------------------


def moves_from(m: SquareMap, t: Square, mover: Mover, movement: MovementSpec) -> list[Square]:
    """The tiles one move (a step, or a leap over open air) takes a figure to from t."""
    out = []
    here = m.heights[t]

    def fits(target: Square) -> bool:
        climb = m.heights[target] - here
        return climb <= mover.jump and (movement.max_drop is None or -climb <= movement.max_drop)

    for d in squaregrid.DIRECTIONS:
        n = t + d
        if m.walkable(n):
            if fits(n):
                out.append(n)
            continue
        if n in m.heights:
            continue  # an obstacle or impassable tile: neither entered nor leapt
        for gap in range(1, movement.leap + 1):
            if gap + 1 > mover.move:
                break
            beyond = Square(t.x + d.x * (gap + 1), t.y + d.y * (gap + 1))
            if beyond in m.heights:
                if m.walkable(beyond) and fits(beyond):
                    out.append(beyond)
                break
    return out


Graph = dict[Square, list[Square]]  # a tile -> the tiles one move takes it to


def move_graph(m: SquareMap, mover: Mover, movement: MovementSpec) -> Graph:
    return {t: moves_from(m, t, mover, movement) for t in sorted(m.walkable_cells)}


def reach(graph: Graph, starts: Iterable[Square]) -> set[Square]:
    seen = set(starts)
    queue = deque(sorted(seen))
    while queue:
        for n in graph.get(queue.popleft(), ()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def reversed_graph(graph: Graph) -> Graph:
    back: Graph = {t: [] for t in graph}
    for t, targets in graph.items():
        for n in targets:
            back.setdefault(n, []).append(t)
    return back


def strong_components(graph: Graph) -> list[list[Square]]:
    """Strongly connected groups of the move graph (each tile reaches every other in its
    group), largest first, each sorted (Kosaraju, iterative)."""
    order, seen = [], set()
    for start in sorted(graph):
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(graph[start]))]
        while stack:
            node, it = stack[-1]
            nxt = next((n for n in it if n not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(graph[nxt])))
    back = reversed_graph(graph)
    groups, assigned = [], set()
    for start in reversed(order):
        if start in assigned:
            continue
        group, queue = [start], deque([start])
        assigned.add(start)
        while queue:
            for n in back.get(queue.popleft(), ()):
                if n not in assigned:
                    assigned.add(n)
                    group.append(n)
                    queue.append(n)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


# ---- the check ----------------------------------------------------------------------------------


def _way_in(m: SquareMap, group: set[Square], reached: set[Square]) -> tuple[int, Square, Square] | None:
    """The smallest climb from a reached tile onto a tile of the group: (climb, from, to)."""
    best = None
    for t in sorted(group):
        for nb in squaregrid.neighbours(t):
            if nb in reached and m.walkable(nb):
                climb = m.heights[t] - m.heights[nb]
                if best is None or climb < best[0]:
                    best = (climb, nb, t)
    return best


def _height_path(t: Square) -> str:
    return f"heights[{t.y}][{t.x}]"


def _groups(tiles: set[Square]) -> list[list[Square]]:
    return squaregrid.connected_components(tiles)


def _whence(labels: list[str], total: int) -> str:
    """`the `red` start zone`; `any start zone` when every zone fails alike."""
    if len(labels) == 1:
        return labels[0]
    return "any start zone" if len(labels) == total else " or ".join(labels)


def _tiles(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def _unreachable(m: SquareMap, group: list[Square], reached: set[Square], whence: str, mover: Mover,
                 movement: MovementSpec, path: str) -> Violation:
    way = _way_in(m, set(group), reached)
    named = way[2] if way else group[0]
    others = len(group) - 1
    more = f" and {_tiles(others)} joined to it" if others else ""
    if way:
        climb, frm, to = way
        reason = (f"the lowest way onto it is a climb of {climb} levels from tile {frm} (height "
                  f"{m.heights[frm]}) to tile {to} (height {m.heights[to]}), more than Jump {mover.jump}")
        fix = (f"add a step: give a tile between them height {m.heights[to] - mover.jump}, or lower tile {to} "
               f"to {m.heights[frm] + mover.jump}")
    else:
        reason = ("it is walled off by obstacles, impassable terrain or open air"
                  + (f" wider than {movement.leap} tile(s)" if movement.leap else ""))
        fix = "open a way in (remove an obstacle, or bridge the open air with a tile)"
    return map_violation("map.reachability",
                         f"tile {named} (height {m.heights[named]}){more} cannot be reached from {whence} by the "
                         f"weakest unit ({mover.describe()}): {reason}",
                         m.height_at(named), _height_path(named), observed=[list(t) for t in group[:12]],
                         expected="every walkable tile reachable", fix=fix)


def _trap(m: SquareMap, group: list[Square], whence: str, mover: Mover, path: str) -> Violation:
    named = group[0]
    out_of = min((m.heights[nb] - m.heights[t] for t in group for nb in squaregrid.neighbours(t)
                  if nb not in group and m.walkable(nb)), default=None)
    why = (f"the lowest way out is a climb of {out_of} levels, above Jump {mover.jump}"
           if out_of is not None and out_of > mover.jump else "it has no way out")
    more = f" and {_tiles(len(group) - 1)} joined to it" if len(group) > 1 else ""
    return map_violation("map.reachability",
                         f"tile {named} (height {m.heights[named]}){more} is a trap: a unit that gets there "
                         f"({mover.describe()}) can never get back to {whence}; {why}",
                         m.height_at(named), _height_path(named), severity="warning", observed=[list(t) for t in group[:12]],
                         expected="a way back from every tile",
                         fix="add a step out of it, or make it open air if falling in is meant to be fatal")


def check_reachability(m: SquareMap, pack: Pack) -> tuple[list[Violation], dict[str, Any]]:
    movement = movement_of(pack)
    mover = weakest_mover(pack)
    walkable = m.walkable_cells
    stats: dict[str, Any] = {"move": mover.move, "jump": mover.jump, "leap": movement.leap,
             "max_drop": movement.max_drop, "mover": mover.describe()}
    if not walkable:
        return [map_violation("map.reachability", "the map has no walkable tile", m.at(("heights",)), "heights",
                              fix="give squares a height, or remove obstacles")], stats
    graph = move_graph(m, mover, movement)
    back = reversed_graph(graph)
    out: list[Violation] = []
    zones = {z: tiles & walkable for z, tiles in sorted(m.zones.items()) if z in pack.spec.sides}
    zones = {z: tiles for z, tiles in zones.items() if tiles}
    if zones:
        starts: list[tuple[str, Collection[Square], str]] = [
            (f"the `{z}` start zone", tiles, f"zones.{z}") for z, tiles in zones.items()]
    else:
        main = strong_components(graph)[0]
        starts = [(f"the main area of the map ({_tiles(len(main))} around tile {main[0]})", set(main), "heights")]
    unreached_by: dict[Square, list[str]] = {}  # a tile -> the starts it cannot be reached from
    trapped_by: dict[Square, list[str]] = {}  # a tile -> the starts it cannot return to
    for whence, tiles, _ in starts:
        reached = reach(graph, tiles)
        for t in walkable - reached:
            unreached_by.setdefault(t, []).append(whence)
        returns = reach(back, tiles)
        for t in reached - returns:
            trapped_by.setdefault(t, []).append(whence)
    for whence, tiles, path in starts:
        reached = reach(graph, tiles)
        missing = {t for t, ws in unreached_by.items() if ws and ws[0] == whence}
        groups = _groups(missing)
        for group in groups[:MAX_GROUPS]:
            out.append(_unreachable(m, group, reached, _whence(unreached_by[group[0]], len(starts)),
                                    mover, movement, path))
    for whence, _start, path in starts:
        trapped = {t for t, ws in trapped_by.items() if ws and ws[0] == whence}
        for group in _groups(trapped)[:MAX_GROUPS]:
            out.append(_trap(m, group, _whence(trapped_by[group[0]], len(starts)), mover, path))
    stats["unreachable"] = len(unreached_by)
    stats["traps"] = len(trapped_by)
    return out, stats


def check_square_map(m: SquareMap, pack: Pack) -> tuple[list[Violation], dict[str, Any]]:
    violations: list[Violation] = []
    violations += check_terrain(m)
    violations += check_zones(m, pack)
    violations += check_off_grid(m)
    violations += check_overlap(m)
    violations += check_zone_ground(m)
    found, reach_stats = check_reachability(m, pack)
    violations += found
    levels: dict[int, int] = {}
    for h in m.heights.values():
        levels[h] = levels.get(h, 0) + 1
    stats = {
        "grid": "square", "columns": m.columns, "rows": m.rows, "tiles": len(m.heights),
        "open_air": m.columns * m.rows - len(m.heights), "walkable": len(m.walkable_cells),
        "obstacles": len(m.obstacles), "levels": {str(k): v for k, v in sorted(levels.items())},
        "terrain": {t: sum(1 for v in m.terrain.values() if v == t) for t in m.terrain_ids_in_use()},
        "tile_size_mm": m.tile_size, "reachability": reach_stats,
    }
    return violations, stats
