"""`pnp export-sheet`: a pack's cards as a spreadsheet that reads back to the same pack.

One sheet per card type (a CSV holds them all, told apart by the `type` column), a header
row of flat column names (see `columns`), values that equal the field's default left empty
(as a YAML file leaves them out). .xlsx is written with openpyxl (the `xlsx` extra; frozen header, fitted
widths, drop-down lists for set, type and choice fields, text format where a spreadsheet
would otherwise turn `3/2` into a date); .ods with our own small ODF writer (`ods`);
.csv with the csv module, UTF-8 with a byte order mark so spreadsheet programs see UTF-8.
Text a spreadsheet program would run as a formula (starting with = + - @, tab or CR) is a
string cell in .xlsx and .ods, and gets a leading `'` in .csv (`table.csv_guard`).
"""

from __future__ import annotations

import csv
import datetime as dt
import errno
import io
import re
import time
import zipfile
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Location, Problem
from generator.core.extras import install_line
from generator.pack.kitcopies import default_copies
from generator.pack.model import Card, GameSpec, Pack
from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.sheets.columns import flatten, type_shapes
from generator.pack.sheets.table import SheetData, column_width, csv_guard, export_stamp, risky
from generator.core.files import atomic_output
from generator.core.staging import output_error
from generator.pack.sheets.ods import ods_bytes

_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
ALWAYS = ("id", "name", "type", "set", "points", "copies", "text", "flavour")


def card_values(card: Card, spec: GameSpec) -> dict[str, object]:
    """A card's top-level values as the columns want them, defaults left out."""
    type_spec = spec.card_types[card.type]
    values: dict[str, object] = {"id": card.id, "name": card.name, "type": card.type, "set": card.set, "points": card.points,
              "copies": card.copies if card.copies != default_copies(spec, card.type, card.set, card.fields) else None,
              "text": card.text, "flavour": card.flavour, "art": _art_cells(card),
              "audit_note": card.fields.get("audit_note")}
    for name, fspec in type_spec.fields.items():
        value = card.fields.get(name)
        if value != fspec.default and value is not None:
            values[name] = value
    return values


def _art_cells(card: Card) -> str | dict[str, Any] | None:
    """A card's art as the `art` columns hold it: its path, or its parts; what a sheet has no
    columns for (a background, a frame, a scale, a mirror image) must come from an art style."""
    art = card.art
    if art is None:
        return None
    loose = [k for k in ("background", "frame", "scale", "flip") if getattr(art, k) is not None]
    if loose:
        raise InputError([Problem(
            "sheet.art", f"card `{card.id}`: its art's {', '.join(f'`{k}`' for k in loose)} cannot be written in a "
            "spreadsheet cell", card.location, found=", ".join(loose), expected="the art's look in a game.yaml art style",
            fix="move them to game.yaml `art_styles:` and name the style with `style:` (docs/formats.md, Card art)")])
    return art.document()


def _order(spec: GameSpec, type_id: str, used: list[str]) -> list[str]:
    """Columns in a stable order: the type's keys in declaration order, each key's parts in
    the order the shape lists them (stats in game.yaml order, list entries by number)."""
    shapes = type_shapes(spec, type_id)
    top = list(shapes)
    offered = [c for c in ALWAYS if c in shapes]  # what a designer may want to fill in, used or not
    for name, fspec in spec.card_types[type_id].fields.items():
        if name not in shapes:
            continue
        if shapes[name].leaf:
            offered.append(name)
        else:  # a nested value: the parts its type offers (stats, a feat's name and text)
            offered += FIELD_KINDS[fspec.type].sheet_offered(name, spec)
    columns = list(dict.fromkeys(offered + used))

    def key(column: str) -> tuple[int, tuple[int, ...]]:
        parts = column.split(".")
        head = parts[0]
        shape = shapes.get(head)
        rank = top.index(head) if head in top else len(top)
        sub: tuple[int, ...] = ()
        if shape is not None and len(parts) > 1:
            if shape.mapping and shape.keys:
                sub = (shape.keys.index(parts[1]) if parts[1] in shape.keys else 99,)
            elif shape.mapping:
                sub = (used.index(column) if column in used else 0,)
            elif shape.numbered:
                sub = (int(parts[1]),)
            if shape.child is not None and shape.child.record and len(parts) > 2:
                names = [p for p, _ in shape.child.record]
                sub += (names.index(parts[2]) if parts[2] in names else 99,)
            elif shape.record:
                names = [p for p, _ in shape.record]
                sub += (names.index(parts[1]) if parts[1] in names else 99,)
        return (rank, sub)

    return sorted(columns, key=key)


def sheets_for(pack: Pack) -> list[SheetData]:
    spec = pack.spec
    out: list[SheetData] = []
    titles: set[str] = set()
    ordered = sorted(pack.cards.values(), key=lambda c: c.order)
    first: dict[str, int] = {}
    for card in ordered:
        first.setdefault(card.type, card.order)
    # sheets in the order the pack's files hold the types; a type without cards gets an empty
    # sheet (its header row) at the end, so a designer can start filling it in
    for type_id in sorted(first, key=lambda t: first[t]) + [t for t in spec.card_types if t not in first]:
        type_spec = spec.card_types[type_id]
        cards = [c for c in ordered if c.type == type_id]
        _check_cells(cards)
        shapes = type_shapes(spec, type_id)
        flat = [flatten(shapes, {k: v for k, v in card_values(c, spec).items() if v is not None}) for c in cards]
        used = list(dict.fromkeys(col for row in flat for col, v in row.items() if v is not None))
        columns = _order(spec, type_id, used)
        rows = [[row.get(col) for col in columns] for row in flat]
        choices = {"set": sorted(spec.sets), "type": list(spec.card_types)}
        text_columns: set[str] = set()
        for name, fspec in type_spec.fields.items():
            kind = FIELD_KINDS[fspec.type]
            offered = kind.sheet_choices(fspec)
            if offered is not None:
                choices[name] = offered
            if kind.sheet_text:
                text_columns.add(name)
        title = _sheet_title(type_spec.name, titles)
        out.append(SheetData(title, columns, rows, choices, text_columns))
    return out


_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _check_cells(cards: list[Card]) -> None:
    """Spreadsheet files are XML: control characters (other than tab and line breaks) cannot be stored."""
    problems: list[Problem] = []
    for card in cards:
        for key, value in (("name", card.name), ("text", card.text), ("flavour", card.flavour), *card.fields.items()):
            found = _ILLEGAL.search(value) if isinstance(value, str) else None
            if found:
                char = found.group(0)
                problems.append(Problem("spreadsheet.value", f"card `{card.id}` has the control character "
                                        f"U+{ord(char):04X} in `{key}`, which a spreadsheet cannot hold",
                                        card.location, found=f"U+{ord(char):04X}", expected="printable text",
                                        fix="remove the character from the card"))
    if problems:
        raise InputError(problems)


def _sheet_title(name: str, taken: set[str]) -> str:
    title = _BAD_SHEET_CHARS.sub(" ", name).strip()[:31] or "Cards"
    base, n = title, 2
    while title.lower() in taken:
        title = f"{base[:28]} {n}"
        n += 1
    taken.add(title.lower())
    return title


def one_table(sheets: list[SheetData]) -> SheetData:
    """All sheets as one (for CSV): the union of the columns, `type` telling the rows apart."""
    sheets = [s for s in sheets if s.rows] or sheets[:1]
    columns = list(dict.fromkeys(c for s in sheets for c in s.columns))
    rows = []
    for s in sheets:
        index = {c: i for i, c in enumerate(s.columns)}
        rows += [[row[index[c]] if c in index else None for c in columns] for row in s.rows]
    return SheetData("cards", columns, rows)


def export_pack(pack: Pack, out: Path) -> Path:

    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".ods") and not xlsx_available():
        raise xlsx_missing(out)
    data = sheet_bytes(pack, suffix)
    try:
        with atomic_output(out, suffix=suffix) as tmp:
            Path(tmp).write_bytes(data)
    except OSError as exc:  # a folder that cannot be made or written: one clear error, not a traceback
        if exc.errno == errno.EEXIST:  # making the folder found a file in its place
            exc = OSError(errno.ENOTDIR, "Not a directory", exc.filename)
        raise output_error(exc, out) from None
    return out


def sheet_bytes(pack: Pack, suffix: str) -> bytes:
    """The pack's cards as a .csv, .ods or (anything else) .xlsx file's bytes."""
    sheets = sheets_for(pack)
    if suffix == ".csv":
        return csv_bytes(one_table(sheets))
    if suffix == ".ods":
        return ods_bytes(sheets)
    return xlsx_bytes(sheets)


def csv_bytes(sheet: SheetData) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(sheet.columns)
    for row in sheet.rows:
        writer.writerow(["" if v is None else "TRUE" if v is True else "FALSE" if v is False
                         else csv_guard(v) if isinstance(v, str) else v for v in row])
    return buffer.getvalue().encode("utf-8-sig")


def xlsx_available() -> bool:
    """openpyxl writes .xlsx; it is the `xlsx` extra (reading .xlsx is python-calamine's, and
    .ods and .csv are written without it), so the default install may lack it."""
    return find_spec("openpyxl") is not None


def xlsx_missing(out: Path) -> InputError:
    return InputError([Problem(
        "sheet.xlsx-extra", f"writing {out.name} needs openpyxl, which this install does not have",
        Location(str(out)), found=out.suffix, expected="the `xlsx` extra installed, or a .ods or .csv file",
        fix=f"{install_line('xlsx')} (the `xlsx` extra); .ods and .csv need nothing more")])


def xlsx_bytes(sheets: list[SheetData]) -> bytes:

    # deferred: openpyxl loads only when an .xlsx file is written
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    book = Workbook()
    book.remove(book.active)
    stamp = export_stamp()
    book.properties.created = book.properties.modified = dt.datetime.fromtimestamp(stamp, dt.timezone.utc).replace(tzinfo=None)
    book.properties.creator = "pnp export-sheet"
    for sheet in sheets:
        ws = book.create_sheet(sheet.title)
        ws.append(sheet.columns)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in sheet.rows:
            ws.append(row)
            for cell in ws[ws.max_row]:
                if isinstance(cell.value, str) and risky(cell.value):
                    cell.data_type = "s"  # openpyxl takes text starting with = for a formula
                    cell.quotePrefix = True  # and editing the cell in a spreadsheet keeps it text
        ws.freeze_panes = "A2"
        last = max(len(sheet.rows) + 1, 2)
        for i, column in enumerate(sheet.columns):
            letter = get_column_letter(i + 1)
            ws.column_dimensions[letter].width = column_width(sheet, i)
            head = column.split(".")[0]
            if head in sheet.text_columns or column in ("text", "flavour", "name", "id"):
                for (cell,) in ws.iter_rows(min_row=2, max_row=last, min_col=i + 1, max_col=i + 1):
                    cell.number_format = "@"  # typed 3/2 stays text, not a date
                    if column in ("text", "flavour"):
                        cell.alignment = Alignment(wrap_text=False)
            choices = sheet.choices.get(column)
            if choices and all("," not in c and '"' not in c for c in choices) and len(",".join(choices)) < 250:
                rule = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=True,
                                      showErrorMessage=True, errorTitle="Not a choice",
                                      error=f"{column}: one of {', '.join(choices)}")
                rule.add(f"{letter}2:{letter}{max(last, 1000)}")
                ws.add_data_validation(rule)
    buffer = io.BytesIO()
    book.save(buffer)
    return _fixed_zip(buffer.getvalue(), stamp)


def _fixed_zip(data: bytes, stamp: int) -> bytes:
    """The same zip with every member dated `stamp`, so two exports of a pack are identical."""
    date = time.gmtime(stamp)[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=date)
            fixed.compress_type = info.compress_type
            fixed.external_attr = 0o644 << 16
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the time of saving here
                when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp)).encode()
                data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)", rb"\g<1>" + when + rb"\g<2>", data)
            dst.writestr(fixed, data)
    return out.getvalue()
