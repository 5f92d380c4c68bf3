"""JSON Schemas for a pack's files, so an editor with the YAML language server can check them.

`pnp schema` writes three files into `schemas/`:

- `game.schema.json`             game.yaml of any pack (the fixed `GameSpec` shape);
- `cards.<pack>.schema.json`     a `cards/*.yaml` file of that pack (one shape per card type,
                                 chosen by the card's `type:`);
- `build.<pack>.schema.json`     a preset or a player's build (one shape per side, chosen by `side:`).

The card and build schemas come from the same pydantic models the loader validates with
(`generator.schemas`), so what the editor accepts is what `pnp validate` accepts, apart from the
checks a schema cannot express (card ids that exist, points, deck sizes: the rules).
Output is deterministic: sorted keys, fixed indentation, a trailing newline.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import GenericAlias
from typing import Annotated, Union

from pydantic import BaseModel, Field, TypeAdapter
from pydantic.json_schema import JsonSchemaValue

from generator.core.errors import InputError, Location, Problem
from generator.core.files import write_text
from generator.pack.model import GameSpec, Pack
from generator.pack.field_values import strict_model
from generator.pack.schemas import build_models, card_models

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def game_schema() -> JsonSchemaValue:
    schema = GameSpec.model_json_schema()
    return _finish(schema, "Game pack (game.yaml)",
                   "A game pack's game.yaml: sets, card types and their fields, stats, sides, rules.")


def cards_schema(pack: Pack) -> JsonSchemaValue:
    """A cards file: `cards:` is a list whose items take the shape of their `type:`."""
    models = list(card_models(pack.spec).values())
    item: object  # a model, or a union of models, made at run time
    if len(models) > 1:
        item = Annotated[Union[tuple(models)], Field(discriminator="type")]
    else:
        item = models[0]
    model = strict_model("CardsFile", {"cards": (GenericAlias(list, (item,)), ...)})  # list[item]
    return _finish(model.model_json_schema(), f"{pack.spec.name} cards file",
                   f"A cards/*.yaml file of the {pack.spec.name} pack ({pack.id}).")


def build_schema(pack: Pack) -> JsonSchemaValue:
    """A build: the shape of the side named by `side:` (a boss, a hero party, ...)."""
    models = list(build_models(pack.spec).values())
    if not models:
        raise ValueError(f"the pack {pack.id} declares no sides, so it has no builds")
    annotation: object  # a model, or a union of models, made at run time
    if len(models) > 1:
        annotation = Annotated[Union[tuple(models)], Field(discriminator="side")]
    else:
        annotation = models[0]
    # a union of models made at run time has no static type for TypeAdapter's parameter to take
    schema = TypeAdapter(annotation).json_schema()  # type: ignore[arg-type]
    return _finish(schema, f"{pack.spec.name} build",
                   f"A preset or a player's build for the {pack.spec.name} pack ({pack.id}).")


def _finish(schema: JsonSchemaValue, title: str, description: str) -> JsonSchemaValue:
    schema = dict(schema)
    schema["$schema"] = JSON_SCHEMA_DIALECT
    schema["title"] = title
    schema["description"] = description
    return schema


def layout_schema(layout_model: type[BaseModel]) -> JsonSchemaValue:
    """A card layout (templates/cards/*.yaml), from the renderer's layout model (passed in: the
    renderer sits above this layer); every element kind and attribute is in docs/layouts.md."""
    return _finish(layout_model.model_json_schema(), "Card layout (templates/cards/*.yaml)",
                   "A card face or back: frame and elements placed in mm from the trim's top-left corner; "
                   "see docs/layouts.md.")


def resolve_pack(value: str | Path) -> Path:
    """`--pack`: a pack folder, or the name of one in card_data/."""
    path = Path(value)
    if (path / "game.yaml").is_file():
        return path
    named = Path("card_data") / str(value)
    if "/" not in str(value) and (named / "game.yaml").is_file():
        return named
    known = sorted(p.parent.name for p in Path("card_data").glob("*/game.yaml"))
    raise InputError([Problem("pack.missing", f"no game pack `{value}`", Location("--pack"), found=str(value),
                              expected="a pack folder with a game.yaml, or one of: " + (", ".join(known) or "none"),
                              fix="e.g. --pack tactics or --pack card_data/tactics")])


def schema_files(pack: Pack, layout_model: type[BaseModel] | None = None) -> dict[str, JsonSchemaValue]:
    """File name -> schema, for every schema of a pack (and card layouts, given their model)."""
    files = {
        "game.schema.json": game_schema(),
        **({"layout.schema.json": layout_schema(layout_model)} if layout_model is not None else {}),
        f"cards.{pack.id}.schema.json": cards_schema(pack),
    }
    if pack.spec.sides:  # a pack without sides has no player builds
        files[f"build.{pack.id}.schema.json"] = build_schema(pack)
    return files


def dumps(schema: JsonSchemaValue) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(pack: Pack, out_dir: str | Path, layout_model: type[BaseModel] | None = None,
                  only: str | None = None) -> list[Path]:
    """Write the pack's schemas (or only the one of that kind: game, layout, cards, build)
    into `out_dir` (created if needed); returns the paths written."""
    out_dir = Path(out_dir)
    written = []
    for name, schema in schema_files(pack, layout_model).items():
        if only is not None and name.split(".")[0] != only:
            continue
        path = out_dir / name
        write_text(path, dumps(schema))  # whole or not at all; a folder it cannot use is one clear error
        written.append(path)
    return written
