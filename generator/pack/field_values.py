"""The value models of the structured card field types (an attack, a feat, a requirement, a
costed ability) and the small annotation helpers the field types share. The field types
themselves are in generator.pack.fieldtypes; generator.pack.schemas builds the card models."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, model_validator
from pydantic_core import PydanticCustomError

from generator.pack.strict import Name

STRICT = ConfigDict(extra="forbid", strict=True)
ATTACK_KINDS = ("basic", "heavy", "special")


def strict_model(name: str, fields: Mapping[str, tuple[object, object]]) -> type[BaseModel]:
    """A pydantic model made at run time from a pack (a card type, a side's build), STRICT: each field
    an (annotation, default) pair, `...` for a required one."""
    # create_model's own keyword parameters (__config__, __doc__, __base__: str or None) keep mypy from
    # matching fields given as a mapping; the pairs are what its **field_definitions take
    model: type[BaseModel] = create_model(name, __config__=STRICT, **fields)  # type: ignore[call-overload]
    return model


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
    def one_kind(self) -> Requirement:
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


# Annotations made at run time from a pack's names (a Literal of its sets, a pattern of its own) have no
# static type: mypy sees them as Any, pydantic reads them
def lit(values: Iterable[str]) -> Any:
    values = tuple(values)
    return Literal[values] if values else str


def patterned_text(pattern: str, help_text: str | None) -> Any:
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
