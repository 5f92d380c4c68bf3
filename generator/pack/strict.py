"""The base of every pack model (unknown keys are errors, values are not coerced, models are
frozen) and the constrained values they share: ids, names, colours, terrain patterns."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
ID_MAX_LENGTH = 64  # card, pack and rule ids
NAME_MAX_LENGTH = 80  # what a person reads as a name: a game, a card, a set
CardId = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=ID_MAX_LENGTH)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_MAX_LENGTH)]
Color = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]
TerrainPattern = Literal["none", "dots", "hatch", "crosshatch", "waves", "bricks", "grass"]  # terrain and counters
# the motif of a card back (game.yaml `back_pattern`; the layout element `pattern` draws it)
BackPattern = Literal["hexes", "diamonds", "scales", "chevrons", "stripes", "dots", "checks", "none"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)
