"""Pydantic models made from a pack: one per card type, one per build side."""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, create_model,
                      model_validator)
from pydantic_core import PydanticCustomError

from generator.core.limits import MAX_CHARACTERS
from generator.pack.model import CardId, GameSpec, Name

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


def _lit(values):
    values = tuple(values)
    return Literal[values] if values else str


def field_annotation(spec, game: GameSpec):
    stat_ids = _lit(sorted(game.stats))
    t = spec.type
    if t == "int":
        return Annotated[int, Field(ge=spec.min if spec.min is not None else -9999,
                                    le=spec.max if spec.max is not None else 9999)]
    if t == "text":
        if spec.pattern:
            return _patterned_text(spec.pattern, spec.pattern_help)
        return Annotated[str, Field(max_length=2000)]
    if t == "choice":
        return _lit(spec.choices or [])
    if t == "stats":
        return dict[stat_ids, Annotated[int, Field(ge=-99, le=999)]]
    if t == "stat":
        return stat_ids
    if t == "hexes":
        return Annotated[list[Annotated[list[Annotated[int, Field(ge=-50, le=50)]],
                                        Field(min_length=2, max_length=2)]], Field(max_length=200)]
    if t == "attacks":
        return dict[Literal[ATTACK_KINDS], Attack]
    if t == "requirements":
        return list[Requirement]
    if t == "feat":
        return Feat
    if t == "card-refs":
        return list[CardId]
    if t == "card-ref":
        return CardId
    if t == "pair":  # two whole numbers written x/y, e.g. attack/defence "3/2"; a modifier "+4/0", "-2/-1"
        return Annotated[str, StringConstraints(pattern=r"^[+-]?[0-9]{1,4}/[+-]?[0-9]{1,4}$")]
    if t == "counts":
        return dict[Annotated[str, StringConstraints(min_length=1, max_length=40)], Annotated[int, Field(ge=0, le=999)]]
    if t == "bool":
        return bool
    if t == "ability-list":
        return Annotated[list[CostedAbility], Field(max_length=12)]
    raise ValueError(t)


def _patterned_text(pattern: str, help_text: str | None):
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


def card_models(game: GameSpec) -> dict[str, type[BaseModel]]:
    models = {}
    for type_id, type_spec in game.card_types.items():
        fields = {
            "id": (CardId, ...),
            "name": (Name, ...),
            "type": (Literal[type_id], ...),
            "set": (_lit(sorted(game.sets)), ...),
            "points": (Annotated[int, Field(ge=0, le=9999)], 0),
            "text": (Annotated[str, Field(max_length=2000)], ""),
            "flavour": (Annotated[str, Field(max_length=500)], ""),
            "copies": (Annotated[int, Field(ge=0, le=99)] | None, None),
            "art": (str | None, None),
            "audit_note": (str | None, None),
        }
        for name, spec in type_spec.fields.items():
            annotation = field_annotation(spec, game)
            if spec.required:
                fields[name] = (annotation, ...)
            else:
                fields[name] = (annotation | None, spec.default)
        model_name = "Card_" + type_id.replace("-", "_")
        models[type_id] = create_model(model_name, __config__=STRICT, **fields)
    return models


_BUILD_MODELS: dict[int, tuple] = {}


def build_models(game: GameSpec) -> dict[str, type[BaseModel]]:
    """The build models of a game, made once per loaded spec: making them costs milliseconds,
    loading a build with them microseconds (the web builder validates at every click).
    Keyed by identity and holding the spec, so an id is never reused for another spec."""
    hit = _BUILD_MODELS.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_BUILD_MODELS) > 64:  # a process loading pack after pack (the tests) stays bounded
            _BUILD_MODELS.clear()
        hit = _BUILD_MODELS[id(game)] = (game, _make_build_models(game))
    return hit[1]


def _make_build_models(game: GameSpec) -> dict[str, type[BaseModel]]:
    # a number, a named limit of the pack, or `none`: the players agreed to play without a limit
    limits = tuple(sorted(game.points_limits)) + ("none",)
    limit_type = Annotated[int, Field(ge=0, le=99999)] | Literal[limits] | None
    models = {}
    for side_id, side in game.sides.items():
        base = side.base
        char_fields: dict = {"name": (Name | None, None)}
        if base.many:
            item_fields = {(base.item_key or "card"): (str, ...)}
            if side.equipment and side.equipment.attach == "base":
                item_fields["equipment"] = (list[str], [])
            item = create_model(f"{side_id.title()}BaseItem", __config__=STRICT, **item_fields)
            char_fields[base.key] = (list[str | item], ...)
        else:
            char_fields[base.key] = (str, ...)
        if side.equipment and side.equipment.attach == "character":
            char_fields["equipment"] = (list[str], [])
        if side.abilities:
            char_fields["abilities"] = (list[str], [])
        if side.deck:
            char_fields["deck"] = (dict[str, Annotated[int, Field(ge=0, le=999)]], {})
        character = create_model(f"{side_id.title()}CharacterModel", __config__=STRICT, **char_fields)
        models[side_id] = create_model(
            f"{side_id.title()}BuildModel", __config__=STRICT,
            pack=(str | None, None), name=(Name, ...), side=(Literal[side_id], ...),
            points_limit=(limit_type, None), notes=(str | None, None),
            max_characters=(Annotated[int, Field(ge=1, le=MAX_CHARACTERS)] | None, None),
            characters=(Annotated[list[character], Field(max_length=MAX_CHARACTERS)], ...),
        )
    return models


def allowed_keys_fn(model: type[BaseModel]):
    """For a path inside data validated by `model`, the keys allowed there (for did-you-mean)."""

    def keys_at(path: tuple):
        current = model
        for part in path:
            if isinstance(part, int):
                continue
            info = getattr(current, "model_fields", {}).get(part)
            if info is None:
                return []
            current = _inner_model(info.annotation)
            if current is None:
                return []
        return [(f.alias or n) for n, f in getattr(current, "model_fields", {}).items()]

    return keys_at


def _inner_model(annotation):
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
