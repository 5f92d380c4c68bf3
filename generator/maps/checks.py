"""Map checks: can the game actually be played on this map?

Every check returns `Violation`s naming a hex and pointing at the YAML value to change:

- map.terrain       a terrain id the pack does not declare (did-you-mean)
- map.zone          a zone named after no side of the pack
- map.off-grid      an obstacle / terrain / zone / removed hex that is not on the map
- map.overlap       a hex listed twice, or as both obstacle and terrain (warning)
- map.zone-blocked  a start zone's hex no figure may enter (an obstacle, impassable terrain)
- map.region-overlap a hex in two regions
- map.connectivity  walkable hexes that cannot be reached from the rest of the map
- map.boss-fit      a footprint (multi-hex figure) with no legal placement, or one that
                    can be placed but can never move (a step or a 60° turn)
- map.placement     wherever the footprint stands, too few hexes are left more than
                    `min_distance` hexes away for the opposing party

and the map rules the pack declares in game.yaml (generator.maps.pack_rules), under their ids.

Footprints come from builds generically: the union of the base cards' `hexes` fields.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.core.errors import did_you_mean, short_list
from generator.core.report import Violation
from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.maps import placing
from generator.maps.pack_rules import check_pack_map_rules
from generator.pack.load import load_presets

if TYPE_CHECKING:
    from generator.core.errors import Location
    from generator.maps.load import MapModel, OneMap
    from generator.grids.squaregrid import Square
    from generator.maps.model import CellEntry, HexMap, TileSpec
    from generator.pack.model import Build, Pack

DEFAULT_PARTY = 4
MIN_DISTANCE = 2  # heroes start more than this many hexes from every hex of the boss


@dataclass(frozen=True)
class Footprint:
    """The hexes a figure covers, relative to its own (0, 0), and who it belongs to."""

    name: str
    side: str
    hexes: frozenset[Hex]
    source: str  # the build file it came from

    @property
    def size(self) -> int:
        return len(self.hexes)


def _hexes(hexes: Iterable[Hex | Square], limit: int = 4, word: str = "hex") -> str:
    items = [f"{word} {h}" for h in sorted(hexes)]
    return short_list(items, limit)


def _word(m: MapModel) -> str:
    """What messages call one cell of this map: `hex`, or `tile` on a square map."""
    word: str = getattr(m, "cell_word", "hex")
    return word


def map_violation(rule: str, message: str, location: Location, path: str = "", severity: str = "error",
                  observed: object = None, expected: object = None, fix: str | None = None) -> Violation:
    return Violation(rule, severity, message, location, path, observed, expected, fix=fix)


# ---- footprints and parties from builds -------------------------------------------------------


def footprint_sides(pack: Pack) -> set[str]:
    """Sides whose base cards declare a `hexes` field: their figures cover several hexes."""
    out = set()
    for side_id, side in pack.spec.sides.items():
        card_type = pack.spec.card_types.get(side.base.type)
        if card_type and any(f.type == "hexes" for f in card_type.fields.values()):
            out.add(side_id)
    return out


def footprint_of(pack: Pack, build: Build) -> Footprint:
    """Union of the hexes of the build's base cards (an empty union is one hex)."""
    side = pack.spec.sides[build.side]
    card_type = pack.spec.card_types.get(side.base.type)
    fields = [n for n, f in (card_type.fields.items() if card_type else []) if f.type == "hexes"]
    hexes: set[Hex] = set()
    for character in build.characters:
        for entry in character.bases:
            card = pack.cards.get(entry.card.id)
            for name in fields:
                for pair in (card.fields.get(name) or []) if card else []:
                    hexes.add(Hex(pair[0], pair[1]))
    return Footprint(build.name, build.side, frozenset(hexes or {hexgrid.ORIGIN}), build.file)


def preset_footprints(pack: Pack, builds: list[Build] | None = None) -> list[Footprint]:
    sides = footprint_sides(pack)
    builds = load_presets(pack) if builds is None else builds
    return [footprint_of(pack, b) for b in builds if b.side in sides]


def largest_party(pack: Pack, builds: list[Build] | None = None) -> int:
    """The most characters any non-footprint preset fields, else DEFAULT_PARTY."""
    sides = footprint_sides(pack)
    builds = load_presets(pack) if builds is None else builds
    sizes = [len(b.characters) for b in builds if b.side not in sides]
    return max(sizes) if sizes else DEFAULT_PARTY


# ---- data checks -------------------------------------------------------------------------------


def check_terrain(m: MapModel) -> list[Violation]:
    out = []
    for tid in dict.fromkeys(e.name for e in m.entries_of("terrain")):
        if tid is None or tid in m.terrain_specs:  # (a terrain entry always names its terrain)
            continue
        hexes = [e.cell for e in m.entries_of("terrain", tid)]
        guess = did_you_mean(tid, m.terrain_specs)
        known = ", ".join(m.terrain_specs) or "none (the pack declares no terrain)"
        out.append(map_violation("map.terrain", f"terrain `{tid}` on {_hexes(hexes, word=_word(m))} is not declared by the pack",
                                 m.at(("terrain", tid), key=True), f"terrain.{tid}", observed=tid,
                                 expected=f"one of: {known}",
                                 fix=f"did you mean `{guess}`?" if guess else "declare it under `terrain:` in game.yaml"))
    return out


def check_zones(m: MapModel, pack: Pack) -> list[Violation]:
    out = []
    for zid in m.zones:
        if zid in pack.spec.sides:
            continue
        hexes = [e.cell for e in m.entries_of("zone", zid)]
        guess = did_you_mean(zid, pack.spec.sides)
        out.append(map_violation("map.zone", f"zone `{zid}` on {_hexes(hexes, word=_word(m))} names no side of the pack",
                                 m.at(("zones", zid), key=True), f"zones.{zid}", observed=zid,
                                 expected=f"a side: {', '.join(pack.spec.sides)}",
                                 fix=f"did you mean `{guess}`?" if guess else "name the zone after the side that starts there"))
    return out


def check_off_grid(m: MapModel) -> list[Violation]:
    out = []
    for e in m.entries:
        if e.kind == "shape" or e.cell in m.hexes:
            continue
        if e.kind == "remove":
            continue  # removing a hex that is already absent changes nothing
        square = _word(m) != "hex"
        out.append(map_violation("map.off-grid", f"{_word(m)} {e.cell} in `{e.where}` is off the map"
                                 + (" (open air or outside the board)" if square else ""),
                                 e.location, _path(e), observed=list(e.cell),
                                 expected="a tile of the map (a square with a height)" if square else "a hex of the map's shape",
                                 fix="check the coordinates against the printed labels, or give that square a height"
                                 if square else "check the coordinates against the printed labels, or enlarge the shape"))
    return out


def check_overlap(m: MapModel) -> list[Violation]:
    """Warnings: the same hex listed twice, or given two meanings (first listing wins)."""
    out: list[Violation] = []
    seen: dict[Hex | Square, CellEntry] = {}
    for e in m.entries:
        if e.kind in ("shape", "remove", "zone", "region") or e.cell not in m.hexes:
            continue
        first = seen.get(e.cell)
        if first is None:
            seen[e.cell] = e
            continue
        what = "twice" if (first.kind, first.name) == (e.kind, e.name) else f"in `{first.where}` and `{e.where}`"
        out.append(map_violation("map.overlap", f"{_word(m)} {e.cell} is listed {what} (first at line {first.location.line})",
                                 e.location, _path(e), severity="warning", observed=list(e.cell),
                                 fix="keep one listing; the first one is used"))
    return out


def check_zone_ground(m: OneMap) -> list[Violation]:
    """Errors: a start zone's hex that no figure may enter (an obstacle, or terrain the pack
    makes impassable such as a team's base): a side set up there could never be placed."""
    out: list[Violation] = []
    for zid, zone in m.zones.items():
        blocked = sorted(h for h in zone if h in m.hexes and not m.walkable(h))
        if not blocked:
            continue
        entry = next(e for e in m.entries_of("zone", zid) if e.cell == blocked[0])
        what = sorted({_ground(m, h) for h in blocked})
        plural = "hexes" if _word(m) == "hex" else f"{_word(m)}s"
        out.append(map_violation("map.zone-blocked",
                                 f"zone `{zid}` includes {_hexes(blocked, word=_word(m))}, which no figure may enter "
                                 f"({', '.join(what)})", entry.location, _path(entry),
                                 observed=[list(h) for h in blocked], expected=f"{plural} a figure can stand on",
                                 fix=f"take those {plural} out of the zone, or move the obstacle or terrain"))
    return out


def _ground(m: OneMap, cell: Any) -> str:  # a cell of m's own kind
    if cell in m.obstacles:
        return "an obstacle"
    spec = m.spec_of(cell)
    return f"impassable {spec.name}" if spec is not None else "impassable"


def check_regions(m: HexMap) -> list[Violation]:
    """A hex in two regions (an error: which region's rules hold there?), a region with no hex
    on the map (a warning)."""
    out: list[Violation] = []
    seen: dict[Hex | Square, CellEntry] = {}
    for e in m.entries_of("region"):
        if e.cell not in m.hexes:
            continue  # reported by map.off-grid
        first = seen.setdefault(e.cell, e)
        if first is not e and first.name != e.name:
            out.append(map_violation("map.region-overlap", f"{_word(m)} {e.cell} is in region `{first.name}` and in "
                                     f"`{e.name}` (first at line {first.location.line}); a space belongs to one region",
                                     e.location, _path(e), observed=list(e.cell), expected="each hex in one region",
                                     fix=f"take it out of `{e.name}` or out of `{first.name}`"))
    for rid, cells in getattr(m, "regions", {}).items():
        if not cells:
            out.append(map_violation("map.overlap", f"region `{rid}` has no {_word(m)} on the map",
                                     m.at(("regions", rid), key=True), f"regions.{rid}", severity="warning",
                                     fix="give it hexes of the map, or remove it"))
    return out


def _path(e: CellEntry) -> str:
    return f"{e.where}[{e.path[-1]}]"


def check_connectivity(m: HexMap) -> list[Violation]:
    walkable = m.walkable_hexes
    if not walkable:
        return [map_violation("map.connectivity", "the map has no walkable hex", m.at(("shape",)), "shape",
                              fix="give the map a shape, or remove obstacles")]
    groups = hexgrid.connected_components(walkable)
    out = []
    for group in groups[1:]:
        first = group[0]
        wall = _wall_entry(m, group)
        more = f" and {len(group) - 1} more walkable hex{'es' if len(group) > 2 else ''}" if len(group) > 1 else ""
        location, path = (wall.location, _path(wall)) if wall else _shape_location(m, first)
        out.append(map_violation("map.connectivity",
                                 f"hex {first}{more} cannot be reached from the main area of the map "
                                 f"({len(groups[0])} hexes around hex {groups[0][0]})",
                                 location, path, observed=[list(h) for h in group[:12]],
                                 expected="every walkable hex reachable from every other",
                                 fix="open a gap (remove an obstacle next to it), or make the cut-off hexes obstacles"
                                 if wall else "join the islands with a strip of hexes"))
    return out


def _wall_entry(m: HexMap, group: list[Hex]) -> CellEntry | None:
    """The first-written obstacle or impassable-terrain entry bordering an isolated group."""
    border = {nb for h in group for nb in hexgrid.neighbours(h)} - set(group)
    for e in m.entries:
        if e.kind in ("obstacle", "terrain") and e.cell in border and not m.walkable(e.cell):
            return e
    return None


def _shape_location(m: HexMap, h: Hex) -> tuple[Location, str]:
    for e in m.entries_of("shape"):
        if e.cell == h:
            return e.location, _path(e)
    return m.at(("shape",)), "shape"


# ---- footprint checks --------------------------------------------------------------------------


class Placement:
    """A footprint standing on the map: its anchor hex and the cells it covers (made on demand)."""

    __slots__ = ("anchor", "shape", "_cells")

    def __init__(self, anchor: Hex, shape: frozenset[Hex]):
        self.anchor, self.shape = anchor, shape
        self._cells: frozenset[Hex] | None = None

    @property
    def cells(self) -> frozenset[Hex]:  # absolute hexes covered
        if self._cells is None:
            self._cells = hexgrid.translate(self.shape, self.anchor)
        return self._cells


@functools.lru_cache(maxsize=256)
def _shapes(hexes: frozenset[Hex]) -> tuple[placing.Shape, ...]:
    """A footprint's orientations about its centre hex, so a 60° turn is a turn in place. Mirror
    images count: the owner decides which way round to build the figure's base. Made once per
    footprint in a process (their moves and dilation too, when first asked): a pack's bosses
    stand on every one of its maps."""
    pivot = hexgrid.shape_center(hexes)
    base = hexgrid.translate(hexes, Hex(-pivot.q, -pivot.r))
    return tuple(placing.Shape(shape, MIN_DISTANCE) for shape in hexgrid.orientations(base, mirror=True))


def placements(allowed: frozenset[Hex], shapes: list[frozenset[Hex]]) -> list[Placement]:
    return [Placement(placing.hex_of(k), shape.cells) for shape, k in _starts(allowed, shapes)]


def _starts(allowed: Iterable[Hex], shapes: Sequence[frozenset[Hex] | placing.Shape]
            ) -> list[tuple[placing.Shape, int]]:
    """(shape, anchor as int) for every placement, shape by shape, anchors in hex order."""
    return placing.starts(allowed, [given if isinstance(given, placing.Shape) else placing.Shape(given, MIN_DISTANCE)
                                    for given in shapes])


def can_move(p: Placement, walkable: frozenset[Hex]) -> bool:
    """One legal step (the whole body shifted one hex) or a 60° turn about any of its hexes:
    a multi-hex figure moves led by a hex of its choice and may turn around that lead
    hex, but never flips over (so turns only, no reflections)."""
    for d in hexgrid.DIRECTIONS:
        if hexgrid.translate(p.cells, d) <= walkable:
            return True
    for pivot in sorted(p.cells):
        for steps in (1, -1):
            turned = hexgrid.rotate_shape(p.cells, steps, pivot)
            if turned != p.cells and turned <= walkable:
                return True
    return False


def _zone_of(m: HexMap, side: str, use_zones: bool = True) -> frozenset[Hex] | None:
    return m.zones.get(side) if use_zones else None


def _party_cells(m: HexMap, footprint_side: str, pack_sides: Collection[str]) -> tuple[frozenset[Hex], list[str]]:
    """Where the opposing party may start: the zones of the other sides, else anywhere."""
    zones = [z for z in m.zones if z != footprint_side and z in pack_sides]
    walkable = m.walkable_hexes
    if not zones:
        return walkable, []
    cells: set[Hex] = set()
    for z in zones:
        cells |= m.zones[z]
    return frozenset(cells) & walkable, zones


def check_footprint(m: HexMap, fp: Footprint, party: int, pack_sides: Collection[str] = (),
                    use_zones: bool = True) -> tuple[list[Violation], dict[str, Any]]:
    """use_zones: the figure and the party start in the map's zones (a scenario setup); else the
    figure stands anywhere it fits and the party needs room more than MIN_DISTANCE away from
    at least one of those places (the rules' own setup: the boss player chooses the spot)."""
    walkable = m.walkable_hexes
    zone = _zone_of(m, fp.side, use_zones)
    start_cells = walkable & zone if zone is not None else walkable
    shaped = _shapes(fp.hexes)
    shapes = [shape.cells for shape in shaped]
    starts = _starts(start_cells, shaped)
    zone_path = ("zones", fp.side)
    where = m.at(zone_path, key=True) if zone is not None else m.at(("shape",))
    stats = {"size": fp.size, "orientations": len(shapes), "start_placements": len(starts)}
    if not starts:
        return [_no_placement(m, fp, shapes, start_cells, zone is not None, where)], stats
    walk = placing.keys(walkable)
    if not any(placing.can_move(shape, k, walk) for shape, k in starts):
        anchor = placing.hex_of(starts[0][1])
        return [map_violation("map.boss-fit",
                              f"`{fp.name}` ({fp.size} hexes) fits only where it can never move: centred on hex "
                              f"{anchor} it can neither step one hex nor turn 60° about any of its hexes",
                              where, "zones." + fp.side if zone is not None else "shape",
                              observed=f"{len(starts)} placements, none can move",
                              expected="a placement with room to step or turn",
                              fix="widen the space around the start area (remove obstacles next to it)")], stats
    if not use_zones:
        return _check_party_open(m, fp, party, starts), stats
    return _check_party(m, fp, party, starts, pack_sides), stats


def _check_party_open(m: HexMap, fp: Footprint, party: int, starts: list[tuple[placing.Shape, int]]
                      ) -> list[Violation]:
    """The rules' setup: the boss player picks the spot, so one spot with room is enough.
    starts: (placing.Shape, anchor as int) pairs."""
    cells = placing.keys(m.walkable_hexes)
    best: tuple[int, int] | None = None
    for shape, k in starts:
        free = placing.free_after(shape, k, cells)
        if best is None or free > best[1]:
            best = (k, free)
            if free >= party:
                return []
    if best is None:  # no start at all: check_footprint reports that before asking here
        return []
    k, free = best
    return [map_violation("map.placement",
               f"wherever `{fp.name}` stands, at most {free} walkable hex{'es' if free != 1 else ''} "
               f"{'is' if free == 1 else 'are'} more than {MIN_DISTANCE} hexes from it (best: centred on hex "
               f"{placing.hex_of(k)}); a party of {party} needs {party}",
               m.at(("shape",)), "shape", observed=free, expected=f"at least {party}",
               fix="enlarge the map, or clear room away from where the boss can stand")]


def _no_placement(m: HexMap, fp: Footprint, shapes: list[frozenset[Hex]], allowed: frozenset[Hex], zoned: bool,
                  where: Location) -> Violation:
    """Explain the closest miss: where the footprint nearly fits and what is in the way."""
    best = None  # (blocked count, anchor, shape), the first of the fewest
    ok, anchors = placing.keys(allowed), [(h, placing.key(h)) for h in sorted(m.hexes)]
    for shape in shapes:
        offsets = placing.Shape(shape, MIN_DISTANCE).offsets
        for anchor, k in anchors:
            missing = sum(1 for o in offsets if k + o not in ok)
            if best is None or missing < best[0]:
                best = (missing, anchor, shape)
    anchor, blocked = (best[1], sorted(hexgrid.translate(best[2], best[1]) - allowed)) if best else (hexgrid.ORIGIN, [])
    reasons, entry = [], None
    for h in blocked[:4]:
        if h not in m.hexes:
            reasons.append(f"hex {h} is off the map")
        elif h in m.obstacles:
            reasons.append(f"hex {h} is an obstacle")
            entry = entry or next((e for e in m.entries_of("obstacle") if e.cell == h), None)
        elif not m.walkable(h):
            reasons.append(f"hex {h} is {m.terrain_specs[m.terrain[h]].name}")
            entry = entry or next((e for e in m.entries_of("terrain") if e.cell == h), None)
        else:
            reasons.append(f"hex {h} is outside the `{fp.side}` zone")
    extra = f" and {len(blocked) - 4} more" if len(blocked) > 4 else ""
    location = entry.location if entry else where
    return map_violation("map.boss-fit",
                         f"`{fp.name}` ({fp.size} hexes) has no legal placement{' in its start zone' if zoned else ''} "
                         f"(turned and mirrored every way); closest fit centred on hex {anchor}, where "
                         f"{'; '.join(reasons)}{extra}",
                         location, _path(entry) if entry else ("zones." + fp.side if zoned else "shape"),
                         observed=[list(h) for h in blocked], expected=f"{fp.size} clear hexes in the footprint's shape",
                         fix="clear those hexes" + (" or enlarge the zone" if zoned else " or enlarge the map"))


def _check_party(m: HexMap, fp: Footprint, party: int, starts: list[tuple[placing.Shape, int]],
                 pack_sides: Collection[str]) -> list[Violation]:
    """starts: (placing.Shape, anchor as int) pairs."""
    hexes, zones = _party_cells(m, fp.side, pack_sides)
    cells = placing.keys(hexes)
    worst = None
    # A placement rules out its cells dilated by MIN_DISTANCE (each orientation's dilation is
    # worked out once, as offsets from the anchor); an orientation whose dilation leaves
    # enough hexes even if it fell entirely on them is skipped.
    for shape, k in starts:
        if len(cells) - len(shape.dilation) >= party:
            continue
        free = placing.free_after(shape, k, cells)
        if worst is None or free < worst[1]:
            worst = (k, free)
            if free == 0:
                break  # nothing can be worse
    if worst is None or worst[1] >= party:
        return []
    anchor, free = placing.hex_of(worst[0]), worst[1]
    where = m.at(("zones", zones[0]), key=True) if zones else m.at(("shape",))
    in_zone = f" in the `{'`/`'.join(zones)}` zone" if zones else ""
    return [map_violation("map.placement",
                          f"with `{fp.name}` centred on hex {anchor}, only {free} walkable hex{'es' if free != 1 else ''}"
                          f"{in_zone} {'is' if free == 1 else 'are'} more than {MIN_DISTANCE} hexes from it; "
                          f"a party of {party} needs {party}",
                          where, "zones." + zones[0] if zones else "shape", observed=free, expected=f"at least {party}",
                          fix="enlarge the map or the start zones, or restrict where the boss may start")]


SETUPS = ("rules", "zones", "both")  # `pnp validate MAP --setup`; `both` is what a pack check runs


def check_map(m: HexMap, pack: Pack, footprints: list[Footprint], party: int,
              setup: str = "rules") -> tuple[list[Violation], dict[str, Any]]:
    """setup: `rules` checks the pack's own setup (zones only where the pack makes them the
    rule), `zones` the map's start zones, `both` each in turn (zone findings added)."""
    zones_required = getattr(pack.spec, "start_zones", "required") != "optional"
    if zones_required:
        modes = [True]  # the pack's zones are its setup (a map without zones: anywhere, apart)
    elif not m.zones or setup == "rules":
        modes = [False]
    else:
        modes = [True] if setup == "zones" else [False, True]
    violations: list[Violation] = []
    violations += check_terrain(m)
    violations += check_zones(m, pack)
    violations += check_off_grid(m)
    violations += check_overlap(m)
    violations += check_zone_ground(m)
    violations += check_connectivity(m)
    violations += check_regions(m)
    violations += check_pack_map_rules(m, pack)
    fits: dict[str, object] = {}
    # A tile is one piece of a battlefield laid from several: whether a figure fits, and where
    # the other side starts, is a question for the assembled battlefield, not for one tile.
    for fp in (footprints if getattr(m, "tile", None) is None else []):
        for use_zones in modes:
            found, stats = check_footprint(m, fp, party, set(pack.spec.sides), use_zones)
            violations += found
            fits.setdefault(fp.name, stats)
            if any(v.rule == "map.boss-fit" for v in found):
                break  # fitting nowhere on the map, it fits in no zone either: say it once
    stats = {
        "hexes": len(m.hexes), "walkable": len(m.walkable_hexes), "obstacles": len(m.obstacles),
        "terrain": {t: sum(1 for v in m.terrain.values() if v == t) for t in m.terrain_ids_in_use()},
        "hex_size_mm": m.hex_size, "orientation": m.orientation, "party": party, "footprints": fits,
    }
    tile: TileSpec | None = getattr(m, "tile", None)
    if tile is not None:
        stats["tile"] = {"set": tile.set, "label": tile.label, "copies": tile.copies}
    return violations, stats
