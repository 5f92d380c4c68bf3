"""The names of the card field types a card type's `fields:` may use (`type: NAME`).

They live here, below the models, so `game.yaml`'s model (`FieldSpec.type`) can refuse an
unknown type without importing the field types themselves. generator.pack.fieldtypes
registers one class per name and refuses to import when the two lists differ."""

from __future__ import annotations

from typing import Literal, get_args

# `FieldSpec.type` is one of these (a Literal, so mypy checks every name written in the code too)
FieldType = Literal["int", "text", "choice", "stats", "stat", "hexes", "attacks", "requirements", "feat",
                    "card-refs", "card-ref", "bool", "pair", "counts", "ability-list"]
FIELD_TYPES: tuple[FieldType, ...] = get_args(FieldType)
