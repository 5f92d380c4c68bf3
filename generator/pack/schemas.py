"""Pydantic models made from a pack: one per card type, one per build side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Protocol, get_args

from pydantic import BaseModel, Field

from generator.pack.art import ArtSpec, FilePath
from generator.core.limits import MAX_CHARACTERS, MAX_COPIES, MAX_ID_TEXT, MAX_ITEMS, MAX_NOTES, MAX_POINTS
from generator.core.yamlio import PathT
from generator.pack.field_values import ATTACK_KINDS, lit as _lit, strict_model
from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.model import FieldSpec, GameSpec
from generator.pack.strict import CardId, Name

__all__ = ["ATTACK_KINDS", "allowed_keys_fn", "build_models", "card_models", "field_annotation"]

class CardRecord(Protocol):
    """A card as its type's model (card_models) validated it: the fields every card type has. The models
    are made at run time, so mypy knows them as BaseModel; the loader reads a validated card through this."""

    id: str
    name: str
    set: str
    points: int
    text: str
    flavour: str
    copies: int | None
    art: str | ArtSpec | None


class CharacterRecord(Protocol):
    name: str | None


class BuildRecord(Protocol):
    """A build as its side's model (build_models) validated it (see CardRecord)."""

    pack: str | None
    name: str
    points_limit: int | str | None  # a number, a named limit of the pack, or `none`
    notes: str | None
    max_characters: int | None
    characters: list[CharacterRecord]


def field_annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time (field_values.lit)
    """The pydantic annotation of a card field, from its type in the field-type registry."""
    return FIELD_KINDS[spec.type].annotation(spec, game)


def card_models(game: GameSpec) -> dict[str, type[BaseModel]]:
    models = {}
    for type_id, type_spec in game.card_types.items():
        fields: dict[str, tuple[object, object]] = {
            "id": (CardId, ...),
            "name": (Name, ...),
            "type": (Literal[type_id], ...),
            "set": (_lit(sorted(game.sets)), ...),
            "points": (Annotated[int, Field(ge=0, le=9999)], 0),
            "text": (Annotated[str, Field(max_length=2000)], ""),
            "flavour": (Annotated[str, Field(max_length=500)], ""),
            "copies": (Annotated[int, Field(ge=0, le=99)] | None, None),
            "art": (FilePath | ArtSpec | None, None),
            "audit_note": (str | None, None),
        }
        for name, spec in type_spec.fields.items():
            annotation = field_annotation(spec, game)
            if spec.required:
                fields[name] = (annotation, ...)
            else:
                fields[name] = (annotation | None, spec.default)
        model_name = "Card_" + type_id.replace("-", "_")
        models[type_id] = strict_model(model_name, fields)
    return models


_BUILD_MODELS: dict[int, tuple[GameSpec, dict[str, type[BaseModel]]]] = {}


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
    limit_type = Annotated[int, Field(ge=0, le=MAX_POINTS)] | _lit(limits) | None
    # the bounds of core/limits.py on every list and id, so a hostile file or page costs bounded work
    card_id = Annotated[str, Field(max_length=MAX_ID_TEXT)]
    ids = Annotated[list[card_id], Field(max_length=MAX_ITEMS)]
    models = {}
    for side_id, side in game.sides.items():
        base = side.base
        char_fields: dict[str, tuple[object, object]] = {"name": (Name | None, None)}
        if base.many:
            item_fields: dict[str, tuple[object, object]] = {(base.item_key or "card"): (card_id, ...)}
            if side.equipment and side.equipment.attach == "base":
                item_fields["equipment"] = (ids, [])
            item = strict_model(f"{side_id.title()}BaseItem", item_fields)
            # (a model made just above is a value to mypy, not a type: it cannot check the annotations made of it)
            char_fields[base.key] = (Annotated[list[card_id | item], Field(max_length=MAX_ITEMS)], ...)  # type: ignore[valid-type]
        else:
            char_fields[base.key] = (card_id, ...)
        if side.equipment and side.equipment.attach == "character":
            char_fields["equipment"] = (ids, [])
        if side.abilities:
            char_fields["abilities"] = (ids, [])
        if side.deck:
            char_fields["deck"] = (Annotated[dict[card_id, Annotated[int, Field(ge=0, le=MAX_COPIES)]],
                                             Field(max_length=MAX_ITEMS)], {})
        character = strict_model(f"{side_id.title()}CharacterModel", char_fields)
        models[side_id] = strict_model(f"{side_id.title()}BuildModel", {
            "pack": (str | None, None), "name": (Name, ...), "side": (_lit([side_id]), ...),
            "points_limit": (limit_type, None), "notes": (Annotated[str, Field(max_length=MAX_NOTES)] | None, None),
            "max_characters": (Annotated[int, Field(ge=1, le=MAX_CHARACTERS)] | None, None),
            "characters": (Annotated[list[character], Field(max_length=MAX_CHARACTERS)], ...),  # type: ignore[valid-type]
        })
    return models


def allowed_keys_fn(model: type[BaseModel]) -> Callable[[PathT], list[str]]:
    """For a path inside data validated by `model`, the keys allowed there (for did-you-mean)."""

    def keys_at(path: PathT) -> list[str]:
        current: type[BaseModel] | None = model
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


def _inner_model(annotation: object) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
