"""Flat column names for a card type, one rule set for every pack (docs/spreadsheets.md).

A card's nested YAML values get dotted column names: a mapping adds `.key`
(`stats.health`, `feat.name`, `attacks.heavy.damage`, `deck.Last Stand`), a list of
records adds a 1-based number (`abilities.2.cost`), a list of ids is one cell separated by
`;`, hexes are `q/r` pairs separated by `;`. `Shape`s describe a field's nesting; `to_cell`
and `from_cell` convert single values both ways.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from generator.core.limits import NotANumber, whole_number
from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.model import GameSpec
from generator.core.yamlio import PathT
from generator.pack.sheets.read import CellValue
from generator.pack.sheets.shape import BOOL, INT, REF, TEXT, Shape
from generator.pack.sheets.table import Cell

__all__ = ["BOOL", "INT", "REF", "Shape"]

COMMON_FIRST = ("id", "name", "type", "set", "points", "copies")
COMMON_LAST = ("text", "flavour", "art", "audit_note")
ALIASES = {"kit_copies": "copies"}
LIST_SEP = ";"
_INT = re.compile(r"^[+-]?\d{1,15}(\.0*)?$")
_HEX = re.compile(r"^\s*(-?\d{1,3})\s*[/,]\s*(-?\d{1,3})\s*$")
_TRUE = {"true", "yes", "y", "1", "x"}
_FALSE = {"false", "no", "n", "0"}
DATE_TYPES = (dt.date, dt.datetime, dt.time, dt.timedelta)


# a card's art: a file's path in one cell (`art`), or its parts (`art.icon`, `art.style`, ...); a
# background, frame, scale or mirror image comes from a game.yaml art style (`art.style`)
ART_PARTS = ("icon", "file", "style", "color", "author", "licence", "source")
ART = Shape("text", record=tuple((part, TEXT) for part in ART_PARTS))
_COMMON = {"id": TEXT, "name": TEXT, "type": TEXT, "set": TEXT, "points": INT, "copies": INT,
           "text": TEXT, "flavour": TEXT, "art": ART, "audit_note": TEXT}


def field_shape(ftype: str, spec: GameSpec) -> Shape:
    """A field type's shape, from the field-type registry."""
    return FIELD_KINDS[ftype].sheet_shape(spec)


def type_shapes(spec: GameSpec, type_id: str) -> dict[str, Shape]:
    """The top-level keys of a card type with their shapes, in column order."""
    fields = spec.card_types[type_id].fields
    shapes = {k: _COMMON[k] for k in COMMON_FIRST}
    shapes.update({name: field_shape(f.type, spec) for name, f in fields.items() if name not in _COMMON})
    shapes.update({k: _COMMON[k] for k in COMMON_LAST})
    return shapes


def stat_alias(spec: GameSpec, type_id: str, name: str) -> str | None:
    """A bare stat name (`health`) stands for `F.health` when the type has one stats field F."""
    fields = spec.card_types[type_id].fields
    stats = [n for n, f in fields.items() if FIELD_KINDS[f.type].holds_stats]
    if name in spec.stats and name not in fields and name not in _COMMON and len(stats) == 1:
        return f"{stats[0]}.{name}"
    return None


class ColumnError(ValueError):
    """A column name that does not fit a card type; the message says why."""


def resolve(shapes: dict[str, Shape], column: str) -> tuple[PathT, Shape]:
    """The path into a card (keys and 0-based list indexes) and the leaf shape of a column."""
    parts = column.split(".")
    top = ALIASES.get(parts[0], parts[0])
    shape = shapes.get(top)
    if shape is None:
        raise ColumnError(f"`{top}` is not a field")
    path: list[str | int] = [top]
    rest = parts[1:]
    while rest:
        part = rest.pop(0)
        if shape.mapping:
            path.append(part)  # unknown keys go on: the model names them with a did-you-mean
            shape = shape.item
        elif shape.numbered:
            try:
                number = whole_number(part, 99, 1)
            except NotANumber:
                raise ColumnError(f"`{'.'.join(map(str, path))}` is a list: its columns are numbered, "
                                  f"`{'.'.join(map(str, path))}.1.{shape.item.record[0][0]}`") from None
            path.append(number - 1)
            shape = shape.item
        elif shape.record:
            child = shape.part(part)
            if child is None:
                names = ", ".join(k for k, _ in shape.record)
                raise ColumnError(f"`{'.'.join(map(str, path))}` has no part `{part}` (it has {names})")
            path.append(part)
            shape = child
        else:
            raise ColumnError(f"`{'.'.join(map(str, path))}` is a single value, not `{column}`")
    if shape.leaf is None:
        raise ColumnError(f"`{column}` holds several values: give each its own column, "
                          f"e.g. `{column}.{_example_part(shape)}`")
    return tuple(path), shape


def _example_part(shape: Shape) -> str:
    if shape.mapping:
        return (shape.keys or ("name",))[0]
    if shape.numbered:
        return "1." + shape.item.record[0][0]
    return shape.record[0][0]


# ---- cells to values -------------------------------------------------------------------


class CellProblem(ValueError):
    def __init__(self, code: str, message: str, found: str, expected: str, fix: str | None = None):
        super().__init__(message)
        self.code, self.found, self.expected, self.fix = code, found, expected, fix


def is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def from_cell(value: CellValue | None, shape: Shape, wants_pair: bool = False) -> object:
    """A cell's value as the card model wants it. Values that cannot be converted are passed
    on unchanged, so the card model reports them with its own words (`12a` for a number)."""
    if isinstance(value, DATE_TYPES):
        fix = ("the spreadsheet turned what was typed into a date: format the column as text, or type "
               "an apostrophe first ('3/2)") if wants_pair or shape.leaf in ("hexes", "text", "refs") else \
            "the cell is formatted as a date: format it as a number (or as text) and type the value again"
        raise CellProblem("spreadsheet.date", "the cell holds a date, not the value the column wants",
                          _iso(value), _EXPECTED.get(shape.leaf or "", "a value"), fix)
    leaf = shape.leaf
    if isinstance(value, float) and value.is_integer() and leaf in ("int", "value", "bool"):
        value = int(value)
    if leaf == "int":
        if isinstance(value, str) and _INT.match(value.strip()):
            return int(float(value.strip())) if "." in value else int(value.strip())
        return value
    if leaf == "bool":
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            return bool(value)
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE or word in _FALSE:
                return word in _TRUE
        return value
    if leaf == "value":
        if isinstance(value, str) and _INT.match(value.strip()):
            return int(float(value.strip()))
        return value.strip() if isinstance(value, str) else value
    if isinstance(value, float):
        value = str(int(value)) if value.is_integer() else repr(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if leaf == "ref":
        return value.strip() if isinstance(value, str) else value
    if leaf == "refs":
        if not isinstance(value, str):
            return value
        return [item.strip() for item in value.split(LIST_SEP) if item.strip()]
    if leaf == "hexes":
        if not isinstance(value, str):
            return value
        out = []
        for item in (i for i in value.split(LIST_SEP) if i.strip()):
            match = _HEX.match(item)
            if not match:
                raise CellProblem("schema.format", "hexes are written as q/r pairs separated by `;`",
                                  item.strip(), "pairs such as 0/0; 1/-1", "write each hex as two whole numbers, q/r")
            out.append([int(match.group(1)), int(match.group(2))])
        return out
    if isinstance(value, str) and "\r" in value:  # a CSV written on Windows ends lines inside cells with CR LF
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value  # text: kept exactly as typed, markup and all


def _iso(value: dt.date | dt.time | dt.timedelta) -> str:
    """A date, time or duration as ISO 8601 writes it (a duration as str() gives it: no isoformat)."""
    return str(value) if isinstance(value, dt.timedelta) else value.isoformat()


_EXPECTED = {"int": "a whole number", "bool": "TRUE or FALSE", "text": "text", "ref": "a card id or name",
             "refs": "card ids or names separated by `;`", "hexes": "q/r pairs separated by `;`",
             "value": "a number or text"}


# ---- values to cells (export) ----------------------------------------------------------


def flatten(shapes: dict[str, Shape], values: Mapping[str, object]) -> dict[str, Cell]:
    """A card's values (top-level key -> nested value) as column -> cell value."""
    out: dict[str, Cell] = {}
    for key, value in values.items():
        _flat(out, key, shapes[key], value)
    return out


def _flat(out: dict[str, Cell], name: str, shape: Shape, value: Any) -> None:  # a value of its shape
    if value is None:
        return
    if shape.mapping:
        for key, item in value.items():
            _flat(out, f"{name}.{key}", shape.item, item)
    elif shape.numbered:
        for i, item in enumerate(value, 1):
            _flat(out, f"{name}.{i}", shape.item, item)
    elif shape.record and not (shape.leaf and isinstance(value, str)):  # `art`: a path, or its parts
        for key, child in shape.record:
            item = value.get(key) if isinstance(value, dict) else getattr(value, key, None)
            _flat(out, f"{name}.{key}", child, item)
    else:
        out[name] = to_cell(value, shape)


def to_cell(value: Any, shape: Shape) -> Cell:  # a leaf value of its shape
    if shape.leaf == "refs":
        return f"{LIST_SEP} ".join(value) if value else None
    if shape.leaf == "hexes":
        return f"{LIST_SEP} ".join(f"{q}/{r}" for q, r in value) if value else None
    if value == "" or value is None:
        return None
    cell: Cell = value  # a number, text or yes/no of a leaf shape
    return cell
