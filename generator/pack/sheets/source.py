"""Spreadsheet rows to the positioned card documents the pack loader reads.

`load_sheet_documents` turns every sheet of a pack's spreadsheet files into a
`SheetDocument`: the same `{"cards": [...]}` data a cards YAML file gives, with a
`SheetLocation` (file, sheet, cell, column heading) for every value, so the loader runs the
same models, checks and did-you-mean on it and every problem names the cell.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

from generator.core.yamlio import PathT
from generator.core.errors import InputError, Problem, ProblemList, SheetLocation, did_you_mean, short_list
from generator.pack.model import ID_PATTERN, Card, FieldSpec, GameSpec, kebab
from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.sheets.columns import (ALIASES, CellProblem, ColumnError, resolve, from_cell, is_empty,
                                      stat_alias, type_shapes)
from generator.pack.sheets.read import CellValue, Table, cell_name, column_letter, read_tables, where
from generator.pack.sheets.shape import Shape

_ID = re.compile(ID_PATTERN)
# a place in a sheet: (sheet, 0-based row, 0-based column or None for the whole row, the column's heading)
Place: TypeAlias = tuple[str | None, int, int | None, str | None]
# a card as its row reads, shaped like a cards YAML file's entry: what each key holds is the card model's to check
CardDoc: TypeAlias = dict[str | int, Any]
Resolved: TypeAlias = tuple[PathT, Shape, FieldSpec | None]  # a column's path, leaf shape and field


def make_location(file: str, place: Place) -> SheetLocation:
    """A location from a stored place (sheet, 0-based row, 0-based column or None, heading):
    places are kept as plain tuples and made into locations only when one is asked for."""
    sheet, row, col, header = place
    if col is None:
        return where(file, sheet, row)
    return SheetLocation(file, row + 1, col + 1, sheet=sheet, cell=f"{column_letter(col)}{row + 1}", header=header)


class SheetDocument:
    """The cards of one spreadsheet file, shaped like a parsed cards YAML file."""

    def __init__(self, file: str):
        self.file = file
        self.data: dict[str, list[CardDoc]] = {"cards": []}
        self.positions: dict[PathT, Place] = {}
        self.key_positions: dict[PathT, Place] = {}

    def at(self, path: PathT = (), key: bool = False) -> SheetLocation:
        path = tuple(path)
        if key and path in self.key_positions:
            return make_location(self.file, self.key_positions[path])
        while True:
            if path in self.positions:
                return make_location(self.file, self.positions[path])
            if not path:
                return SheetLocation(self.file, 1, 0)
            path = path[:-1]


def type_for_name(name: str, spec: GameSpec) -> str | None:
    """The card type a sheet (or CSV file) name stands for: its id or name, singular or plural."""
    word = kebab(name)
    for type_id, type_spec in spec.card_types.items():
        for base in {kebab(type_id), kebab(type_spec.name)}:
            stem = base[:-1] if base.endswith("y") else base
            if word in (base, base + "s", base + "es", stem + "ies"):
                return type_id
    return None


def load_sheet_documents(paths: list[tuple[Path, str]], spec: GameSpec, known: dict[str, Card],
                         problems: ProblemList) -> list[SheetDocument]:
    """Read the spreadsheet files (path, name shown in messages); `known` are the cards already
    read from YAML, for card references given by name. Problems go to `problems`."""
    reader = _Reader(spec, problems)
    docs: list[SheetDocument] = []
    for path, file in paths:
        try:
            tables = read_tables(path, file)
        except InputError as exc:
            problems.problems.extend(exc.problems)
            continue
        doc = SheetDocument(file)
        rows = 0
        for table in tables:
            default = type_for_name(table.sheet or Path(path).stem, spec)
            rows += reader.table(doc, table, default)
        if not rows:  # nothing but headings, or nothing at all: said, not a pack that prints nothing
            _no_cards(file, tables, problems)
        docs.append(doc)
    reader.resolve_refs(known)
    return docs


def _no_cards(file: str, tables: list[Table], problems: ProblemList) -> None:
    """A spreadsheet file with no card in it: empty, or its headings alone."""
    headings = any(t.rows and not all(is_empty(v) for v in t.rows[0]) for t in tables)
    what = "only a header row" if headings else "nothing in it"
    sheets = "" if len(tables) <= 1 else f" on any of its {len(tables)} sheets"
    problems.add(Problem("spreadsheet.empty", f"{file} has no cards: {what}{sheets}", SheetLocation(file, 1, 0),
                         found="a header row and no card rows" if headings else "an empty file",
                         expected="a header row (id, name, type, ...), then one row per card",
                         fix="add a row for each card below the headings (`pnp export-sheet` writes a filled one), "
                             "or delete the file"))


class _Reader:
    def __init__(self, spec: GameSpec, problems: ProblemList):
        self.spec = spec
        self.problems = problems
        self.shapes = {t: type_shapes(spec, t) for t in spec.card_types}
        self.refs: list[tuple[CardDoc, PathT, SheetLocation]] = []  # (card, key path, location) of card references
        self.names: dict[str, list[str]] = {}  # card name (case-folded) -> ids, from the sheets
        self.shown: list[str] = []  # the names as written, for did-you-mean
        self.cache: dict[tuple[str, str], Resolved | ColumnError] = {}  # (type, column) -> resolved, or why not

    def add(self, code: str, message: str, loc: SheetLocation, found: str | None = None, expected: str | None = None,
            fix: str | None = None) -> None:
        self.problems.add(Problem(code, message, loc, found=found, expected=expected, fix=fix))

    def table(self, doc: SheetDocument, table: Table, default: str | None) -> int:
        """Read one sheet's cards into `doc`; returns how many rows below its headings hold anything."""
        rows = table.rows
        filled = sum(not all(is_empty(v) for v in row) for row in rows[1:])
        if not rows or all(is_empty(v) for v in rows[0]):
            if filled:  # rows below an empty first row would be read as nothing: say so
                self.add("spreadsheet.header", "the first row is empty; the headings must be in the first row",
                         where(table.file, table.sheet, table.row0), found="an empty row",
                         expected="the headings (id, name, type, ...) in the first row",
                         fix="delete the empty rows above the headings")
            return filled
        file, sheet, r0, c0 = table.file, table.sheet, table.row0, table.col0

        def pos(r: int, c: int | None, header: str | None = None) -> Place:  # a place in this sheet
            return (sheet, r0 + r, None if c is None else c0 + c, header)

        def loc(r: int, c: int | None, header: str | None = None) -> SheetLocation:
            return make_location(file, pos(r, c, header))

        for (ra, ca), (rb, cb) in table.merged:
            self.add("spreadsheet.merged", f"cells {cell_name(ra, ca)}:{cell_name(rb, cb)} are merged",
                     where(file, sheet, ra, ca), found="merged cells", expected="one value per cell",
                     fix="unmerge them (Format, Merge Cells, Unmerge) and fill in each cell")
        if table.merged:
            return filled
        heads = rows[0]
        for (r, c), text in sorted(table.errors.items()):
            head = heads[c - c0] if 0 <= c - c0 < len(heads) and r > r0 and not is_empty(heads[c - c0]) else None
            at = where(file, sheet, r, c, None if head is None else str(head).strip())
            if text:
                self.add("spreadsheet.formula-error", f"the formula in this cell gives the error {text}",
                         at, found=text, expected="a value",
                         fix="correct the formula (a division by an empty or zero cell? a deleted reference?)")
            else:
                self.add("spreadsheet.formula-error", "the formula in this cell has no computed value saved",
                         at, found="a formula without a value", expected="a value",
                         fix="open the file in a spreadsheet program and save it, so the results are stored")
        errors = {(r - r0, c - c0) for r, c in table.errors}
        header = self.header(rows[0], rows, loc)
        if header is None:
            return filled
        type_col = next((c for c, name in header.items() if name == "type"), None)
        typed: list[tuple[int, list[CellValue], str | None]] = []
        for r in range(1, len(rows)):
            row = rows[r]
            if all(is_empty(v) for v in row):
                continue
            type_id = default
            if type_col is not None and type_col < len(row) and not is_empty(row[type_col]):
                type_id = str(row[type_col]).strip()
            typed.append((r, row, type_id))
        if not self.columns_fit(header, {t for _, _, t in typed if t in self.shapes} or {default} - {None}, loc):
            return filled  # a misnamed column would make every row wrong: say it once, at the heading
        for r, row, type_id in typed:
            if type_id is None:
                self.add("schema.missing", "this row has no card type", loc(r, None),
                         expected=f"a `type` column, or a sheet named after a card type "
                         f"({short_list(sorted(self.spec.card_types))})",
                         fix="add a `type` column, or rename the sheet (or CSV file) after the card type")
                continue
            self.row(doc, row, r, type_id, header, pos, errors)
        return filled

    def columns_fit(self, header: dict[int, str], types: set[str | None],
                    loc: Callable[[int, int | None, str | None], SheetLocation]) -> bool:
        """Every heading must name a field of at least one card type in the sheet."""
        ok = True
        for c, name in header.items():
            if name == "type" or not types:
                continue
            reasons: list[str] = []
            for type_id in sorted(t for t in types if t is not None):
                try:
                    resolve(self.shapes[type_id], stat_alias(self.spec, type_id, name) or name)
                    break
                except ColumnError as exc:
                    reasons.append(str(exc))
            else:
                names = sorted({n for t in types if t is not None for n in self.candidates(t)})
                guess = did_you_mean(name, names)
                kinds = ", ".join(f"`{t}`" for t in sorted(t for t in types if t is not None))
                self.add("schema.unknown-key", f'the column "{name}" is not a field of {kinds} cards'
                         + (f" ({reasons[0]})" if "is not a field" not in reasons[0] else ""),
                         loc(0, c, name), found=name, expected=f"one of: {short_list(names, 12)}",
                         fix=f"did you mean `{guess}`?" if guess else "rename the column (docs/spreadsheets.md)")
                ok = False
        return ok

    def header(self, cells: list[CellValue], rows: list[list[CellValue]],
               loc: Callable[..., SheetLocation]) -> dict[int, str] | None:
        out: dict[int, str] = {}
        seen: dict[str, int] = {}
        ok = True
        for c, value in enumerate(cells):
            name = "" if value is None else str(value).strip()
            if not name:
                if any(c < len(row) and not is_empty(row[c]) for row in rows[1:]):
                    self.add("spreadsheet.header", "this column has values but no heading", loc(0, c),
                             found="an empty heading", expected="the name of a card field, e.g. `health` or `stats.health`",
                             fix="type the field's name in the header row, or delete the column")
                    ok = False
                continue
            key = ALIASES.get(name, name)
            if key in seen:
                self.add("spreadsheet.header", f'the column heading "{name}" is used twice (first in '
                         f"{cell_name(loc(0, seen[key]).line - 1, loc(0, seen[key]).column - 1)})", loc(0, c, name),
                         found=name, expected="each heading once", fix="rename or delete one of the two columns")
                ok = False
                continue
            seen[key] = c
            out[c] = name
        return out if ok else None

    def row(self, doc: SheetDocument, row: list[CellValue], r: int, type_id: str, header: dict[int, str],
            pos: Callable[..., Place], errors: set[tuple[int, int]]) -> None:
        i = len(doc.data["cards"])
        base: PathT = ("cards", i)
        card: CardDoc = {"type": type_id}
        doc.data["cards"].append(card)
        doc.positions[base] = pos(r, None)
        shapes = self.shapes.get(type_id)
        if shapes is None:
            return  # the loader reports the unknown type, at the type cell
        numbered: set[str | int] = set()
        cells: list[tuple[PathT, Place]] = []
        width = len(row)
        for c, name in header.items():
            value = row[c] if c < width else None
            if name == "type":
                doc.positions[base + ("type",)] = pos(r, c, name)
                continue
            if value is None or value == "" or is_empty(value) or (r, c) in errors:
                continue
            cell_loc = pos(r, c, name)
            try:
                path, shape, fspec = self.resolved(type_id, name)
            except ColumnError as exc:
                guess = did_you_mean(name, self.candidates(type_id))
                self.add("schema.unknown-key", f'this row is a `{type_id}` card: the column "{name}" is not '
                         f"one of its fields ({exc}); leave the cell empty",
                         make_location(doc.file, cell_loc), found=name,
                         expected=f"one of: {short_list(self.candidates(type_id), 12)}",
                         fix=f"did you mean `{guess}`?" if guess else "rename the column, or leave it empty for this card")
                continue
            try:
                read = from_cell(value, shape, wants_pair=fspec is not None and FIELD_KINDS[fspec.type].sheet_pair)
            except CellProblem as exc:
                self.add(exc.code, f"{exc}", make_location(doc.file, cell_loc), found=exc.found,
                         expected=exc.expected, fix=exc.fix)
                continue
            if shape.leaf in ("ref", "refs"):
                self.refs.append((card, path, make_location(doc.file, cell_loc)))
            if not _fits(card, path):  # `art` (a file) beside `art.icon` (its parts): one or the other
                self.add("spreadsheet.clash", f'the column "{name}" gives a part of `{path[0]}`, which another '
                         f"column of this row gives whole", make_location(doc.file, cell_loc), found=name,
                         expected=f"`{path[0]}` whole, or its parts (`{path[0]}.…`), not both",
                         fix="leave one of the two cells empty")
                continue
            cells.append((path, cell_loc))
            _put(card, path, read)
            if len(path) > 1 and isinstance(path[1], int):
                numbered.add(path[0])
        remap: dict[tuple[str | int, str | int], int] = {}
        for key in numbered:
            items = sorted(card[key].items())
            card[key] = [v for _, v in items]
            remap.update({(key, old): new for new, (old, _) in enumerate(items)})
        for path, cell_loc in cells:
            if len(path) > 1 and (path[0], path[1]) in remap:
                path = (path[0], remap[(path[0], path[1])]) + path[2:]
            for n in range(1, len(path) + 1):
                doc.positions.setdefault(base + path[:n], cell_loc)
                if n > 1 and isinstance(path[n - 1], str):
                    doc.key_positions.setdefault(base + path[:n], cell_loc)
        if isinstance(card.get("name"), str) and isinstance(card.get("id"), str):
            self.names.setdefault(card["name"].strip().casefold(), []).append(card["id"])
            self.shown.append(card["name"].strip())

    def resolved(self, type_id: str, name: str) -> Resolved:
        """(path, leaf shape, field spec) of a column for a card type, worked out once."""
        key = (type_id, name)
        hit = self.cache.get(key)
        if hit is None:
            try:
                path, shape = resolve(self.shapes[type_id], stat_alias(self.spec, type_id, name) or name)
                hit = (path, shape, self.spec.card_types[type_id].fields.get(str(path[0])))
            except ColumnError as exc:
                hit = exc
            self.cache[key] = hit
        if isinstance(hit, ColumnError):
            raise hit
        return hit

    def candidates(self, type_id: str) -> list[str]:
        out: list[str] = []
        for name, shape in self.shapes[type_id].items():
            if shape.leaf:
                out.append(name)
                out += [f"{name}.{p}" for p, _ in shape.record]  # `art` and `art.icon`
            elif shape.mapping:
                keys = shape.keys or ()
                out += [f"{name}.{k}" for k in keys] if shape.item.leaf else \
                    [f"{name}.{k}.{p}" for k in keys for p, _ in shape.item.record]
            elif shape.numbered:
                out += [f"{name}.1.{p}" for p, _ in shape.item.record]
            else:
                out += [f"{name}.{p}" for p, _ in shape.record]
        return out

    def resolve_refs(self, known: dict[str, Card]) -> None:
        """Card references may name a card instead of giving its id (`Stages Deck`)."""
        names = {k: list(v) for k, v in self.names.items()}
        ids = set(known) | {i for v in names.values() for i in v}
        for known_card in known.values():
            names.setdefault(known_card.name.strip().casefold(), []).append(known_card.id)
        for card, path, cell_loc in self.refs:
            value = _get(card, path)
            items = value if isinstance(value, list) else [value]
            out: list[object] = []
            dropped = False
            for item in items:
                if not isinstance(item, str) or item in ids:
                    out.append(item)
                    continue
                found = names.get(item.strip().casefold(), [])
                if len(set(found)) == 1:
                    out.append(found[0])
                elif found:
                    self.add("pack.ambiguous-ref", f"several cards are named `{item}`", cell_loc, found=item,
                             expected="the name of one card, or an id",
                             fix=f"write the id instead: {', '.join(sorted(set(found)))}")
                    out.append(item)
                elif not _ID.match(item):
                    guess = did_you_mean(item, [*self.shown, *(c.name for c in known.values()), *ids])
                    self.add("pack.dangling-ref", f"no card has the id or name `{item}`", cell_loc, found=item,
                             expected="the id or the name of a card in this pack",
                             fix=f"did you mean `{guess}`?" if guess else None)
                    dropped = True  # reported here; left out so the model does not report it again
                else:
                    out.append(item)  # an id-like word: the loader's own check names it with a did-you-mean
            if isinstance(value, list):
                _set(card, path, out)
            elif dropped:
                _parent(card, path).pop(path[-1], None)
            else:
                _set(card, path, out[0])


def _fits(card: CardDoc, path: PathT) -> bool:
    """Whether a value can go at `path`: no value that is not a mapping is in the way, and none
    is there already (a column giving a whole value beside columns giving its parts)."""
    node = card
    for part in path[:-1]:
        node = node.get(part, {})
        if not isinstance(node, dict):
            return False
    return not isinstance(node.get(path[-1]), dict)


def _put(card: CardDoc, path: PathT, value: object) -> None:
    node = card
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = value


def _get(card: CardDoc, path: PathT) -> Any:  # the value at a path of a card's document
    node = card
    for part in path:
        node = node[part]
    return node


def _parent(card: CardDoc, path: PathT) -> CardDoc:
    node = card
    for part in path[:-1]:
        node = node[part]
    return node


def _set(card: CardDoc, path: PathT, value: object) -> None:
    _parent(card, path)[path[-1]] = value
