"""Square maps with heights: the file shape (`grid: square`) and the plain `SquareMap` value
the checks and renderers share.

```yaml
title: The Broken Stair
grid: square
tile_size: 30            # mm, the side of a tile (default 30)
columns: 8
rows: 6
heights:                 # one list per row, top row first: a height per tile, left to right
  - [0, 0, 1, 1, 2, null, 3, 3]   # 0 = ground; null (or a short row) = no tile: open air
obstacles: [[3, 2]]      # [x, y]: column, row; 0-based from the top left
terrain: {brush: [[0, 4]]}
zones: {first: [[0, 5], [1, 5]]}
```

As with hex maps, pydantic refuses what is not a map at all (an InputError with
file:line:column); rule-level problems (a tile off the map, an unknown terrain) are kept,
with where each value was written, for the checks to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import Document, PathT
from generator.grids import squaregrid
from generator.grids.squaregrid import Square
from generator.maps.model import CellEntry, TerrainCells
from generator.pack.model import ID_PATTERN, Pack, TerrainSpec
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn

DEFAULT_TILE_MM = 30.0  # a common tile for 25-32 mm miniatures, and one level of height
MAX_SIDE = 60
MAX_HEIGHT = 20

Coord = Annotated[int, Field(ge=-200, le=200)]
TilePair = Annotated[list[Coord], Field(min_length=2, max_length=2)]
TileList = Annotated[list[TilePair], Field(max_length=10_000)]
Height = Annotated[int, Field(ge=0, le=MAX_HEIGHT)]
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=64)]


class SquareMapSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    title: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    notes: Annotated[str, StringConstraints(max_length=2000)] = ""
    grid: Literal["square"]
    tile_size: float = Field(default=DEFAULT_TILE_MM, ge=10, le=80)
    columns: int = Field(ge=1, le=MAX_SIDE)
    rows: int = Field(ge=1, le=MAX_SIDE)
    heights: Annotated[list[Annotated[list[Height | None], Field(max_length=MAX_SIDE)]],
                       Field(max_length=MAX_SIDE)] | None = None
    obstacles: TileList = []
    terrain: dict[Id, TileList] = {}
    zones: dict[Id, TileList] = {}


@dataclass
class SquareMap(TerrainCells[Square]):
    """A square-grid map. `heights` holds the tiles (a tile is a square with a height);
    a square of the board with no height is open air. Coordinates are `Square(x, y)`."""

    id: str
    file: str
    title: str
    notes: str
    columns: int
    rows: int
    tile_size: float  # mm, the side of a tile
    heights: dict[Square, int]  # Square -> int, the tiles of the map
    obstacles: frozenset[Square]  # on tiles only
    terrain: dict[Square, str]  # Square -> terrain id (first listing wins), on tiles only
    zones: dict[str, frozenset[Square]]  # zone id -> frozenset of tiles
    terrain_specs: dict[str, TerrainSpec]  # terrain id -> TerrainSpec (the pack's)
    line_of_sight: str
    entries: tuple[CellEntry, ...] = ()
    height_locations: dict[Square, Location] = field(default_factory=dict)  # Square -> Location of its height value
    doc: Document | None = field(default=None, repr=False)

    grid = "square"
    cell_word = "tile"

    @cached_property
    def cells(self) -> frozenset[Square]:
        """The squares with ground (a height); the rest of the board is open air."""
        return frozenset(self.heights)

    @property
    def hexes(self) -> frozenset[Square]:
        """The cells of the map, under the name map-generic code (counts, legends) uses."""
        return self.cells

    @property
    def board(self) -> list[Square]:
        """Every square of the columns × rows board, tiles and open air."""
        return [Square(x, y) for y in range(self.rows) for x in range(self.columns)]

    def height(self, t: Square) -> int | None:
        return self.heights.get(t)

    @property
    def walkable_cells(self) -> frozenset[Square]:
        return frozenset(t for t in self.heights if self.walkable(t))

    walkable_hexes = walkable_cells

    @property
    def levels(self) -> list[int]:
        return sorted(set(self.heights.values()))

    def layout(self, origin: tuple[float, float] = (0.0, 0.0), scale: float = 1.0) -> squaregrid.Layout:
        return squaregrid.Layout(self.tile_size * scale, origin)

    def can_see(self, a: Square, b: Square, eye: float = 0.5) -> bool:
        """Sight from a unit standing on a to one on b, over the heights of the tiles between."""
        # the sight of a square map is permissive or strict (squaregrid.LosRule): any other rule judges as strict
        rule: squaregrid.LosRule = "permissive" if self.line_of_sight == "permissive" else "strict"
        return squaregrid.line_of_sight_3d(a, b, self.height, self.blocks_sight, eye, rule)

    def at(self, path: PathT, key: bool = False) -> Location:
        return self.doc.at(path, key) if self.doc else Location(self.file)

    def height_at(self, t: Square) -> Location:
        """Where the height of tile t is written (the `heights` list, or the map's size)."""
        data = self.doc.data if self.doc else {}
        return self.height_locations.get(t) or self.at(("heights",) if isinstance(data, dict) and "heights" in data
                                                       else ("columns",))

    def entries_of(self, kind: str, name: str | None = None) -> list[CellEntry]:
        return [e for e in self.entries if e.kind == kind and (name is None or e.name == name)]

    def terrain_ids_in_use(self) -> list[str]:
        used = set(self.terrain.values())
        known = [t for t in self.terrain_specs if t in used]
        return known + sorted(used - set(known))

    def size_text(self) -> str:
        """e.g. `8 × 10 squares (74 tiles), 24 × 30 cm printed (30 mm tiles, heights 0–4)`."""
        return (f"{self.columns} × {self.rows} squares ({len(self.heights)} tiles), "
                f"{self.columns * self.tile_size / 10:g} × {self.rows * self.tile_size / 10:g} cm printed "
                f"({self.tile_size:g} mm tiles, heights {self.levels[0] if self.levels else 0}"
                f"–{self.levels[-1] if self.levels else 0})")


def square_map_from_document(doc: Document, pack: Pack, mid: str) -> SquareMap:
    try:
        spec = SquareMapSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "the map", allowed_keys_fn(SquareMapSpec))) from None

    problems: list[Problem] = []
    heights: dict[Square, int] = {}
    locations: dict[Square, Location] = {}
    if spec.heights is None:
        for t in squaregrid.rectangle(spec.columns, spec.rows):
            heights[t] = 0
    else:
        if len(spec.heights) > spec.rows:
            problems.append(Problem(
                "schema.length", f"`heights` has {len(spec.heights)} rows, but the map has `rows: {spec.rows}`",
                doc.at(("heights", spec.rows)), found=f"{len(spec.heights)} rows", expected=f"at most {spec.rows}",
                fix="remove the extra rows, or raise `rows`"))
        for y, row in enumerate(spec.heights[:spec.rows]):
            if len(row) > spec.columns:
                problems.append(Problem(
                    "schema.length", f"row {y} of `heights` has {len(row)} values, but the map has "
                    f"`columns: {spec.columns}`", doc.at(("heights", y, spec.columns)),
                    found=f"{len(row)} values", expected=f"at most {spec.columns}",
                    fix="remove the extra values, or raise `columns`"))
            for x, h in enumerate(row[:spec.columns]):
                if h is not None:
                    heights[Square(x, y)] = h
                    locations[Square(x, y)] = doc.at(("heights", y, x))
    if problems:
        raise InputError(problems)

    entries: list[CellEntry] = []

    def collect(values: list[list[int]], path: PathT, kind: str, name: str | None = None) -> list[Square]:
        out: list[Square] = []
        for i, pair in enumerate(values):
            t = Square(pair[0], pair[1])
            entries.append(CellEntry(t, kind, name, path + (i,), doc.at(path + (i,))))
            out.append(t)
        return out

    obstacles = collect(spec.obstacles, ("obstacles",), "obstacle")
    terrain: dict[Square, str] = {}
    for tid, values in spec.terrain.items():
        for t in collect(values, ("terrain", tid), "terrain", tid):
            if t in heights:
                terrain.setdefault(t, tid)
    zones: dict[str, frozenset[Square]] = {}
    for zid, values in spec.zones.items():
        zones[zid] = frozenset(t for t in collect(values, ("zones", zid), "zone", zid) if t in heights)

    return SquareMap(
        id=mid, file=doc.file, title=spec.title, notes=spec.notes.strip(), columns=spec.columns,
        rows=spec.rows, tile_size=float(spec.tile_size), heights=heights,
        obstacles=frozenset(t for t in obstacles if t in heights), terrain=terrain, zones=zones,
        terrain_specs=dict(pack.spec.terrain), line_of_sight=pack.spec.line_of_sight,
        entries=tuple(entries), height_locations=locations, doc=doc)
