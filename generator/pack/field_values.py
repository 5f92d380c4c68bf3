"""The value models of the structured card field types (an attack, a feat, a requirement, a
costed ability) and the small annotation helpers the field types share. The field types
themselves are in generator.pack.fieldtypes; generator.pack.schemas builds the card models."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from generator.pack.model import Name

STRICT = ConfigDict(extra="forbid", strict=True)
ATTACK_KINDS = ("basic", "heavy", "special")


class Attack(BaseModel):
    model_config = STRICT
    damage: int = Field(ge=0, le=99)
    range: int = Field(default=1, ge=0, le=99)
    text: str = ""


class Feat(BaseModel):
    model_config = STRICT
    name: Name
    text: str


class Requirement(BaseModel):
    """Either `{stat, min}` (a character's total stat) or `{field, value, min}` (base cards)."""

    model_config = STRICT
    stat: str | None = None
    field: str | None = None
    value: str | int | None = None
    min: int = Field(default=1, ge=0, le=999)

    @model_validator(mode="after")
    def one_kind(self):
        if (self.stat is None) == (self.field is None):
            raise ValueError("a requirement names either `stat` or `field`")
        if self.field is not None and self.value is None:
            raise ValueError("a `field` requirement needs a `value`")
        return self


class CostedAbility(BaseModel):
    """One entry of an `ability-list` field: an ability used by paying `cost` (in whatever
    resource the pack's layout shows), optionally with an `extra` cost in words."""

    model_config = STRICT
    name: Name
    cost: int = Field(ge=0, le=99)
    text: Annotated[str, Field(max_length=600)]
    extra: Annotated[str, Field(max_length=200)] = ""


def lit(values):
    values = tuple(values)
    return Literal[values] if values else str


def patterned_text(pattern: str, help_text: str | None):
    """Text whose whole value must match `pattern`. The error carries the pattern and the
    field's `pattern_help`, so the report can say what is wanted in words."""
    compiled = re.compile(pattern)

    def check(value: str | int) -> str:
        # a whole number the pattern allows is that text: `aoe: 1` as the design writes it
        value = str(value)
        if not compiled.fullmatch(value):
            raise PydanticCustomError("string_pattern_mismatch", "String should match pattern '{pattern}'",
                                      {"pattern": pattern, "help": help_text or ""})
        return value

    return Annotated[Annotated[str, Field(max_length=2000)] | int, Field(json_schema_extra={"pattern": pattern}),
                     AfterValidator(check)]
