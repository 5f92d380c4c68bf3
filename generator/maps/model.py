"""Hex map files: the strict YAML shape, and the plain `HexMap` value the checks and
renderers share.

A map file is read in two steps: pydantic refuses anything that is not a map at all
(unknown keys, wrong types: an InputError with file:line:column), then `load_map` turns
it into sets of hexes while remembering where each hex was written, so rule violations
found later (an obstacle off the grid, an unknown terrain) can point at the exact value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import Document, PathT
from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.pack.model import ID_PATTERN, Pack, TerrainSpec
from generator.pack.pydantic_errors import problems_from

if TYPE_CHECKING:
    from generator.grids.squaregrid import Square
from generator.pack.schemas import allowed_keys_fn

DEFAULT_HEX_MM = 25.4  # 1 inch flat to flat: the usual hex for 25-28 mm miniature bases

# Coordinates and sizes are bounded so a typo (or a hostile file) cannot ask for a
# million-hex map; 60 × 60 sheets of hexes is already far beyond any table.
Coord = Annotated[int, Field(ge=-200, le=200)]
HexPair = Annotated[list[Coord], Field(min_length=2, max_length=2)]
HexList = Annotated[list[HexPair], Field(max_length=10_000)]
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=64)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RectangleSpec(_Strict):
    columns: int = Field(ge=1, le=60)
    rows: int = Field(ge=1, le=60)


class ShapeSpec(_Strict):
    """Exactly one of hexagon / rectangle / hexes, then optionally hexes to cut away."""

    hexagon: int | None = Field(default=None, ge=0, le=30)  # the radius, around hex (0, 0)
    rectangle: RectangleSpec | None = None
    hexes: HexList | None = None
    remove: HexList = []


class TileSpec(_Strict):
    """Marks a map as a *tile*: a small piece of a battlefield that players cut out and lay
    next to other tiles. Tiles print packed several to a sheet at true scale, each with a
    solid cut line round its outline and a rim in `color`, instead of as a tiled board."""

    set: Annotated[str, StringConstraints(min_length=1, max_length=40)]  # e.g. "Red tiles"
    label: Annotated[str, StringConstraints(min_length=1, max_length=8)]  # printed big: "A1"
    color: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] = "#555555"
    copies: int = Field(default=1, ge=1, le=20)


class RegionSpec(_Strict):
    """A named area of the map (a territory, a fog-of-war zone, a province): printed with a
    heavy border round it and its name. Regions say nothing about movement or sight."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    hexes: HexList
    # the side of a team game the region belongs to (Battle Bosses' arena: alpha, omega);
    # the map rule `zone_beside` matches a start space to its own team's base by it
    team: Id | None = None


class MapSpec(_Strict):
    title: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    notes: Annotated[str, StringConstraints(max_length=2000)] = ""
    grid: Literal["hex", "square"] = "hex"  # `square` maps are read by generator.maps.square
    orientation: Literal["pointy", "flat"] = "pointy"
    hex_size: float = Field(default=DEFAULT_HEX_MM, ge=10, le=80)  # flat to flat, mm
    shape: ShapeSpec
    obstacles: HexList = []
    terrain: dict[Id, HexList] = {}
    zones: dict[Id, HexList] = {}
    tile: TileSpec | None = None  # a cut-out map tile rather than a board
    regions: dict[Id, RegionSpec] = {}


SHAPE_KINDS = ("hexagon", "rectangle", "hexes")


@dataclass(frozen=True)
class CellEntry:
    """One cell (a hex, or a square map's tile) as written in the file: which list it came from
    and where. Hex and square maps keep their entries alike, so the checks read both."""

    cell: Hex | Square
    kind: str  # "shape" | "remove" | "obstacle" | "terrain" | "zone" | "region"
    name: str | None  # the terrain, zone or region id
    path: PathT
    location: Location

    @property
    def where(self) -> str:
        return {"shape": "shape.hexes", "remove": "shape.remove", "obstacle": "obstacles",
                "terrain": f"terrain.{self.name}", "zone": f"zones.{self.name}",
                "region": f"regions.{self.name}.hexes"}[self.kind]


C = TypeVar("C", Hex, "Square")  # a map's cell: a Hex, or a square map's Square


class TerrainCells(Generic[C]):
    """What a cell's obstacles and terrain mean, for hex and square maps alike; a map
    provides `cells` (where there is ground), `obstacles`, `terrain` and `terrain_specs`."""

    # what each map declares (HexMap, SquareMap: dataclass fields, and `cells` a property)
    obstacles: frozenset[C]
    terrain: dict[C, str]  # cell -> terrain id
    terrain_specs: dict[str, TerrainSpec]

    @property
    def cells(self) -> frozenset[C]:
        raise NotImplementedError  # each map says where it has ground

    def spec_of(self, cell: C) -> TerrainSpec | None:
        tid = self.terrain.get(cell)
        return self.terrain_specs.get(tid) if tid is not None else None

    def walkable(self, cell: C) -> bool:
        if cell not in self.cells or cell in self.obstacles:
            return False
        spec = self.spec_of(cell)
        return spec is None or spec.walkable

    def blocks_sight(self, cell: C) -> bool:
        if cell in self.obstacles:
            return True
        spec = self.spec_of(cell)
        return spec is not None and spec.blocks_sight


@dataclass
class HexMap(TerrainCells[Hex]):
    id: str
    file: str
    title: str
    notes: str
    orientation: Literal["pointy", "flat"]
    hex_size: float  # flat to flat, mm
    hexes: frozenset[Hex]  # the cells of the map
    obstacles: frozenset[Hex]  # on the map only
    terrain: dict[Hex, str]  # Hex -> terrain id (first listing wins), on the map only
    zones: dict[str, frozenset[Hex]]  # zone id -> frozenset of hexes on the map
    terrain_specs: dict[str, TerrainSpec]  # terrain id -> TerrainSpec (the pack's)
    line_of_sight: hexgrid.LosRule
    entries: tuple[CellEntry, ...] = ()
    doc: Document | None = field(default=None, repr=False)
    tile: TileSpec | None = None  # set when the map is a cut-out tile
    regions: dict[str, frozenset[Hex]] = field(default_factory=dict)  # region id -> frozenset of hexes on the map
    region_names: dict[str, str] = field(default_factory=dict)  # region id -> its printed name
    region_teams: dict[str, str] = field(default_factory=dict)  # region id -> its team, for regions that name one
    zones_optional: bool = False  # the pack's `start_zones: optional`: zones are a scenario setup

    grid = "hex"  # the kind of grid (square maps are `generator.maps.square.SquareMap`)
    cell_word = "hex"  # what messages call one cell

    @property
    def cells(self) -> frozenset[Hex]:
        return self.hexes

    @cached_property
    def walkable_hexes(self) -> frozenset[Hex]:
        # worked out once per map: a pack's checks ask for it per footprint and setup (144 times for
        # the 7 maps and 5 bosses of boss_fight); a map's cells, obstacles and terrain never change
        return frozenset(h for h in self.hexes if self.walkable(h))

    def layout(self, origin: tuple[float, float] = (0.0, 0.0), scale: float = 1.0) -> hexgrid.Layout:
        return hexgrid.Layout.from_flat_to_flat(self.orientation, self.hex_size * scale, origin)

    def can_see(self, a: Hex, b: Hex) -> bool:
        return hexgrid.line_of_sight(a, b, self.blocks_sight, self.line_of_sight)

    def at(self, path: PathT, key: bool = False) -> Location:
        return self.doc.at(path, key) if self.doc else Location(self.file)

    def entries_of(self, kind: str, name: str | None = None) -> list[CellEntry]:
        return [e for e in self.entries if e.kind == kind and (name is None or e.name == name)]

    def terrain_ids_in_use(self) -> list[str]:
        """Terrain ids drawn on this map, in the pack's declaration order, unknown ones last."""
        used = set(self.terrain.values())
        known = [t for t in self.terrain_specs if t in used]
        return known + sorted(used - set(known))


def hex_map_from_document(doc: Document, pack: Pack, mid: str) -> HexMap:
    """A HexMap from a map file's parsed YAML (a mapping without `grid: square`)."""
    try:
        spec = MapSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "the map", allowed_keys_fn(MapSpec))) from None
    given = [k for k in SHAPE_KINDS if getattr(spec.shape, k) is not None]
    if len(given) != 1:
        raise InputError([Problem(
            "schema.shape", "the map's `shape` must give exactly one of hexagon, rectangle or hexes"
            + (f" (it gives {', '.join(given)})" if given else ""),
            doc.at(("shape",)), found=", ".join(given) or "none of them",
            expected="one of: hexagon: RADIUS | rectangle: {columns, rows} | hexes: [[q, r], ...]",
            fix="keep one; cut hexes away with `remove:`")])

    entries: list[CellEntry] = []

    def collect(values: list[list[int]], path: PathT, kind: str, name: str | None = None) -> list[Hex]:
        out: list[Hex] = []
        for i, pair in enumerate(values):
            h = Hex(pair[0], pair[1])
            entries.append(CellEntry(h, kind, name, path + (i,), doc.at(path + (i,))))
            out.append(h)
        return out

    shape = spec.shape
    if shape.hexagon is not None:
        base = set(hexgrid.hexagon(shape.hexagon))
    elif shape.rectangle is not None:
        base = set(hexgrid.rectangle(shape.rectangle.columns, shape.rectangle.rows, spec.orientation))
    else:
        base = set(collect(shape.hexes or [], ("shape", "hexes"), "shape"))  # (the one kind given)
    removed = collect(shape.remove, ("shape", "remove"), "remove")
    cells = frozenset(base - set(removed))

    obstacles = collect(spec.obstacles, ("obstacles",), "obstacle")
    terrain: dict[Hex, str] = {}
    for tid, values in spec.terrain.items():
        for h in collect(values, ("terrain", tid), "terrain", tid):
            if h in cells:
                terrain.setdefault(h, tid)
    zones = {}
    for zid, values in spec.zones.items():
        zones[zid] = frozenset(h for h in collect(values, ("zones", zid), "zone", zid) if h in cells)
    regions = {}
    for rid, region in spec.regions.items():
        regions[rid] = frozenset(h for h in collect(region.hexes, ("regions", rid, "hexes"), "region", rid)
                                 if h in cells)

    return HexMap(
        id=mid, file=doc.file, title=spec.title, notes=spec.notes.strip(),
        orientation=spec.orientation, hex_size=float(spec.hex_size), hexes=cells,
        obstacles=frozenset(h for h in obstacles if h in cells), terrain=terrain, zones=zones,
        terrain_specs=dict(pack.spec.terrain), line_of_sight=pack.spec.line_of_sight,
        entries=tuple(entries), doc=doc, tile=spec.tile, regions=regions,
        region_names={rid: region.name for rid, region in spec.regions.items()},
        region_teams={rid: region.team for rid, region in spec.regions.items() if region.team},
        zones_optional=pack.spec.start_zones == "optional")
