"""Play pieces in game.yaml (`pieces:`, see docs/pieces.md): counters, figures, trackers, dice
and the blank board, as pydantic models. Split from pack/model.py (which imports them back) to
keep each module short; nothing here depends on the rest of the pack's model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from generator.pack.strict import CardId, Color, Name, Strict, TerrainPattern


PieceShape = Literal["hex", "round", "square"]
Label = Annotated[str, StringConstraints(max_length=40)]


class CounterFace(Strict):
    """What one side of a counter shows. Every part is optional; a counter that names a
    card, keyword or terrain takes its label, icon, art and pattern from it by default."""

    label: Label | None = None
    text: Label | None = None  # a second, smaller line under the label
    icon: str | None = None
    color: Color | None = None
    art: str | None = None  # an image inside the pack
    pattern: TerrainPattern | None = None


class CounterCount(Strict):
    """How many to print when the number follows from the pack: the most any shipped map
    needs (`per_map: obstacles` or a terrain id), `per_character` times the most characters
    one game can have, the hexes of a side's largest footprint (`per_footprint`), plus
    `extra`; never fewer than `min`."""

    per_map: str | None = None
    per_character: int = Field(default=0, ge=0, le=10)
    # a side id: as many as the hexes of the largest base a character of that side can have
    # (spare base hexes to build any footprint from)
    per_footprint: str | None = None
    extra: int = Field(default=0, ge=0, le=200)
    min: int = Field(default=0, ge=0, le=500)


class CounterSpec(CounterFace):
    """A kind of punch-out counter. `size` is in mm: flat to flat for a hex (default: the
    pieces' hex size), the diameter of a round counter, the side of a square one."""

    id: CardId
    shape: PieceShape = "round"
    size: float | None = Field(default=None, ge=8, le=120)
    count: Annotated[int, Field(ge=0, le=500)] | CounterCount = 1
    back: Literal["same"] | CounterFace | None = None
    card: CardId | None = None  # the card it stands for on the map (a token card)
    keyword: CardId | None = None  # a keyword it marks (a status effect)
    terrain: CardId | None = None  # a terrain it lays on the board
    for_each: str | None = None  # a side id: one counter per character of that side


class StandeeSpec(Strict):
    height: float = Field(default=45.0, ge=20, le=200)  # the figure's panel, mm


class FigureSpec(Strict):
    """How the characters of one side stand on the map."""

    standee: StandeeSpec | None = StandeeSpec()
    base: bool = True
    footprint: str | None = None  # the base cards' `hexes` field whose union is the base
    kit: Literal["cards", "presets"] | None = None  # whole-kit figures: one per base card or per preset


class StatTrackerSpec(Strict):
    style: Literal["clip", "dial"] = "clip"
    max: Annotated[int, Field(ge=1, le=199)] | Literal["auto"] = "auto"
    headroom: int = Field(default=0, ge=0, le=100)


class RoundTrackerSpec(Strict):
    rounds: int = Field(default=12, ge=1, le=30)
    initiative: str | None = None  # a stat id: adds a turn-order ladder and a chip per character


class PhaseTrackerSpec(Strict):
    """A strip naming the steps of one `reference.turn` section, for a marker to move along."""

    section: str  # the id of a `reference.turn` section
    title: Name | None = None  # default: the section's title


class NamedTrackerSpec(Strict):
    """A tracker for something that is not a character: a team's base, a wild monster, a pet.
    It counts a stat (its icon and name) from `start` (or a value written in) down to 0."""

    id: CardId
    label: Label
    stat: str
    max: int = Field(ge=1, le=199)
    start: int | None = Field(default=None, ge=0, le=199)
    text: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None  # what it is for
    color: Color | None = None
    count: int = Field(default=1, ge=1, le=24)


class TrackersSpec(Strict):
    stats: dict[str, StatTrackerSpec] = {}
    named: list[NamedTrackerSpec] = []  # trackers of things that are not characters (every one printed)
    round: RoundTrackerSpec | None = None
    phases: PhaseTrackerSpec | None = None


class DieSpec(Strict):
    """A six-sided die to cut, fold and glue (a cross-shaped net). `faces` in net order: the
    column from top to bottom, then the left and the right arm; opposite faces are the 1st and
    3rd, the 2nd and 4th, the 5th and 6th. `size` is the edge in mm."""

    id: CardId
    label: Label
    faces: list[Label] = Field(min_length=6, max_length=6)
    size: float = Field(default=18.0, ge=12, le=40)
    color: Color | None = None
    count: int = Field(default=1, ge=1, le=24)


class BoardSpec(Strict):
    title: Name = "Blank board"
    shape: Literal["rectangle", "hexagon"] = "rectangle"
    columns: int = Field(default=12, ge=1, le=40)
    rows: int = Field(default=10, ge=1, le=40)
    radius: int = Field(default=6, ge=1, le=20)


class PiecesSpec(Strict):
    hex_size: float | None = Field(default=None, ge=10, le=80)  # flat to flat, mm; default: the maps'
    orientation: Literal["pointy", "flat"] | None = None  # default: the maps'
    counters: list[CounterSpec] = []
    figures: dict[str, FigureSpec] = {}
    trackers: TrackersSpec = TrackersSpec()
    dice: list[DieSpec] = []
    board: BoardSpec | None = None
