"""Read CSV, XLSX and ODS files into plain tables of cells, refusing what is unsafe or unclear.

python-calamine (Rust) reads .xlsx and .ods: it is several times faster than the pure-Python
readers and gives formula cells their computed values. Before it runs, the file itself is
checked with the standard library: its zip directory (declared uncompressed sizes, so a zip
bomb is refused before anything is inflated), the row count a sheet declares (so a
1,048,576-row sheet fails at once), encryption, merged cells and formula errors (calamine
reads `#DIV/0!` as an empty cell, which would silently unset a value). CSV goes through the
csv module after the encoding and separator are checked; a cell starting with `'` before
= + - @, tab or CR loses that `'` (the guard against formulas `pnp export-sheet` writes).
"""

from __future__ import annotations

import datetime
import io
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from generator.core.errors import InputError, Problem, SheetLocation
from generator.pack.sheets.odsscan import SheetMarks, locate
from generator.pack.sheets.table import csv_unguard

if TYPE_CHECKING:
    import zipfile

MAX_FILE_BYTES = 32 * 1024 * 1024  # the file on disk
MAX_UNPACKED_BYTES = 256 * 1024 * 1024  # all members of an xlsx/ods, as their zip directory declares
MAX_MEMBER_RATIO = 400  # a member that inflates more than this (and past 8 MiB) is a bomb
MAX_MEMBERS = 5_000
MAX_ROWS = 50_000  # per sheet; a pack is not a database
MAX_COLUMNS = 500

# a cell as read: text (CSV), or what calamine gives (a date or time where the spreadsheet holds one)
CellValue: TypeAlias = int | float | str | bool | datetime.date | datetime.time | datetime.timedelta
Place: TypeAlias = tuple[int, int]  # (row, column), 0-based


@dataclass
class Table:
    """One sheet: its rows of cell values and where they sit (0-based offsets of rows[0][0])."""

    file: str
    sheet: str | None
    rows: list[list[CellValue]]
    row0: int = 0
    col0: int = 0
    merged: list[tuple[Place, Place]] = field(default_factory=list)  # ((row, col), (row, col)), 0-based, inclusive
    errors: dict[Place, str] = field(default_factory=dict)  # (row, col) -> "#DIV/0!" (0-based)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def cell_name(row: int, col: int) -> str:
    return f"{column_letter(col)}{row + 1}"


def _parse_cell(ref: str) -> tuple[int, int]:
    match = re.match(r"([A-Z]+)(\d+)", ref)
    if match is None:  # the callers pass what _REF matched
        raise ValueError(f"not a cell reference: {ref}")
    col = 0
    for ch in match.group(1):
        col = col * 26 + ord(ch) - 64
    return int(match.group(2)) - 1, col - 1


def where(file: str, sheet: str | None = None, row: int | None = None, col: int | None = None,
          header: str | None = None) -> SheetLocation:
    """A location from 0-based row and column (either may be None)."""
    if row is None:
        return SheetLocation(file, 1, 0, sheet=sheet)
    if col is None:
        return SheetLocation(file, row + 1, 0, sheet=sheet, row_only=True)
    return SheetLocation(file, row + 1, col + 1, sheet=sheet, cell=cell_name(row, col), header=header)


def _fail(code: str, message: str, loc: SheetLocation, found: str | None = None, expected: str | None = None,
          fix: str | None = None) -> InputError:
    return InputError([Problem(code, message, loc, found=found, expected=expected, fix=fix)])


def read_tables(path: Path, file: str) -> list[Table]:
    suffix = path.suffix.lower()
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _fail("file.unreadable", f"cannot read {file}: {exc.strerror}", where(file)) from None
    if size > MAX_FILE_BYTES:
        raise _fail("file.too-large", f"{file} is {size:,} bytes; spreadsheets above {MAX_FILE_BYTES:,} bytes "
                    "are refused", where(file), found=f"{size:,} bytes", expected=f"at most {MAX_FILE_BYTES:,} bytes",
                    fix="split the cards over several files")
    raw = path.read_bytes()
    if suffix == ".csv":
        return [read_csv(raw, file)]
    return read_workbook(raw, file, suffix)


# ---- CSV -------------------------------------------------------------------------------


def read_csv(raw: bytes, file: str, sheet: str | None = None) -> Table:
    save_as = "save it again as \"CSV UTF-8\" (LibreOffice: Save As, Text CSV, character set Unicode (UTF-8))"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _fail("spreadsheet.encoding", f"{file} is UTF-16 text", where(file), found="UTF-16 (a byte order mark)",
                    expected="UTF-8 text", fix=save_as)
    if b"\x00" in raw[:4096]:
        raise _fail("spreadsheet.encoding", f"{file} is not UTF-8 text (it holds NUL bytes: UTF-16 or binary?)",
                    where(file), found="NUL bytes", expected="UTF-8 text", fix=save_as)
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (3 if bom else 0)  # the decoder counts from after the byte order mark
        bad_row = raw.count(b"\n", 0, at)
        line_start = raw.rfind(b"\n", 0, at) + 1
        col = raw.count(b",", line_start, at)
        lead = "starts with a UTF-8 byte order mark but " if bom else ""
        raise _fail("spreadsheet.encoding", f"{file} {lead}is not valid UTF-8 (byte {raw[at]:#04x}; "
                    "Latin-1 or Windows-1252 text?)", where(file, sheet, bad_row, col),
                    found=f"the byte {raw[at]:#04x}", expected="UTF-8 text", fix=save_as) from None
    import csv  # deferred: the readers of the formats load only for a pack with spreadsheets (start-up)
    first = next(csv.reader(io.StringIO(text.split("\n", 1)[0])), [])
    if len(first) <= 1 and first:
        for sep, word in ((";", "semicolons"), ("\t", "tabs")):
            if sep in first[0]:
                raise _fail("spreadsheet.delimiter", f"{file} separates its columns with {word}", where(file, sheet, 0, 0),
                            found=f"{word} between the headings", expected="commas between columns (`;` separates "
                            "the items of a list inside a cell)",
                            fix="export again with comma as the field separator, or save as .xlsx or .ods")
    rows: list[list[CellValue]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline="")):
            rows.append([csv_unguard(cell) for cell in row])
            if len(rows) > MAX_ROWS + 1:
                raise _too_many_rows(file, sheet, f"more than {MAX_ROWS:,}")
    except csv.Error as exc:
        raise _fail("spreadsheet.corrupt", f"{file} cannot be read as CSV: {exc}", where(file, sheet, len(rows)),
                    expected="comma-separated values, quotes closed") from None
    return Table(file, sheet, rows)


def _too_many_rows(file: str, sheet: str | None, count: str) -> InputError:
    return _fail("spreadsheet.too-many-rows", f"{'sheet ' + sheet if sheet else file} has {count} rows",
                 where(file, sheet), found=f"{count} rows", expected=f"at most {MAX_ROWS:,} rows of cards",
                 fix="delete the empty rows below the cards (select them, Delete Rows), or split the cards "
                 "over several files")


# ---- XLSX and ODS ----------------------------------------------------------------------


def read_workbook(raw: bytes, file: str, suffix: str) -> list[Table]:
    import zipfile  # deferred: the readers of the formats load only for a pack with spreadsheets (start-up)
    kind = "xlsx" if suffix == ".xlsx" else "ods"
    if raw.startswith(b"\xd0\xcf\x11\xe0"):
        if "EncryptedPackage".encode("utf-16-le") in raw:
            raise _fail("spreadsheet.encrypted", f"{file} is protected by a password", where(file),
                        found="an encrypted workbook", expected="a workbook without a password",
                        fix="open it, remove the password (File, Info / Properties, Protect) and save it again")
        raise _fail("spreadsheet.corrupt", f"{file} is an old binary Excel file, not {kind}", where(file),
                    found="an .xls (BIFF) file", expected=f"an .{kind} file", fix=f"save it as .{kind} (or .ods)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise _fail("spreadsheet.corrupt", f"{file} is not a readable .{kind} file ({exc})", where(file),
                    found="a damaged or different file", expected=f"an .{kind} workbook",
                    fix="open it in a spreadsheet program and save it again") from None
    _check_zip(infos, file, kind)
    try:
        with archive:
            _verify_members(archive, infos)
            if kind == "xlsx":
                prescan = _prescan_xlsx(archive, file)
            else:
                prescan = _prescan_ods(archive, file)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, KeyError, ValueError, NotImplementedError) as exc:
        raise _fail("spreadsheet.corrupt", f"{file} is damaged: {exc}", where(file),
                    found="a part whose size or checksum does not match what the file declares",
                    expected=f"an .{kind} workbook", fix="open it in a spreadsheet program and save it again") from None
    if kind == "ods":
        raw = _ods_tabs(raw)
    return _calamine_tables(raw, file, kind, prescan)


def _ods_tabs(raw: bytes) -> bytes:
    """ODF writes a tab inside a cell as <text:tab/>, which calamine drops; the same file with
    each written as the tab character (the members were checked above; only files with tabs pay)."""
    import zipfile  # deferred with read_workbook's
    with zipfile.ZipFile(io.BytesIO(raw)) as src:
        content = src.read("content.xml")
        if b"<text:tab" not in content:
            return raw
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                data = src.read(info)
                if info.filename == "content.xml":
                    data = re.sub(rb"<text:tab\s*/>|<text:tab>\s*</text:tab>", b"\t", data)
                dst.writestr(info, data)
    return out.getvalue()


def _verify_members(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> None:
    """Inflate every part once, in chunks, before calamine sees the file. Python's zipfile stops
    at the size a part declares and checks its CRC, so a part that lies about its size (a zip
    bomb whose directory was checked above) is refused here instead of inflating in full."""
    for info in infos:
        if info.is_dir():
            continue
        with archive.open(info) as stream:
            while stream.read(1 << 20):
                pass


def _check_zip(infos: list[zipfile.ZipInfo], file: str, kind: str) -> None:
    if len(infos) > MAX_MEMBERS:
        raise _fail("spreadsheet.too-large", f"{file} holds {len(infos):,} files", where(file),
                    expected=f"at most {MAX_MEMBERS:,}")
    total = 0
    for info in infos:
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if total > MAX_UNPACKED_BYTES or (info.file_size > 8 * 1024 * 1024 and ratio > MAX_MEMBER_RATIO):
            raise _fail("spreadsheet.too-large", f"{file} would unpack to {max(total, info.file_size):,} bytes "
                        f"({info.filename} alone is {info.file_size:,} bytes from {info.compress_size:,}): "
                        "a zip bomb, or far more than card data needs", where(file),
                        found=f"{info.file_size:,} bytes declared",
                        expected=f"at most {MAX_UNPACKED_BYTES:,} bytes in all, and no part over 8 MiB that "
                        f"inflates more than {MAX_MEMBER_RATIO} times", fix=f"this is not a normal .{kind} file; do not use it")
    names = {i.filename for i in infos}
    needed = "xl/workbook.xml" if kind == "xlsx" else "content.xml"
    if needed not in names:
        raise _fail("spreadsheet.corrupt", f"{file} is a zip file but not an .{kind} workbook (no {needed})",
                    where(file), expected=f"an .{kind} workbook", fix=f"save it from a spreadsheet program as .{kind}")


_SHEET = re.compile(rb'<sheet\b[^>]*?name="([^"]*)"[^>]*?r:id="([^"]*)"|<sheet\b[^>]*?r:id="([^"]*)"[^>]*?name="([^"]*)"')
_REL = re.compile(rb'<Relationship\b[^>]*?Id="([^"]*)"[^>]*?Target="([^"]*)"|<Relationship\b[^>]*?Target="([^"]*)"[^>]*?Id="([^"]*)"')
_DIM = re.compile(rb'<dimension ref="[A-Z]*\d*:?[A-Z]*(\d+)"')
_CELL = re.compile(rb'<c\b([^>]*?)(?:/>|>(.*?)</c>)', re.S)
_REF = re.compile(rb'\br="([A-Z]+\d+)"')
_VALUE = re.compile(rb"<v>([^<]+)</v>")


def _unescape(raw: bytes) -> str:
    import html  # deferred with read_workbook's zipfile
    return html.unescape(raw.decode("utf-8", "replace"))


def _prescan_xlsx(archive: zipfile.ZipFile, file: str) -> dict[str | None, SheetMarks]:
    """Per sheet name: cells holding formula errors or formulas without a computed value (its merged
    cells calamine reads itself)."""
    workbook = archive.read("xl/workbook.xml")
    try:
        rels = archive.read("xl/_rels/workbook.xml.rels")
    except KeyError:
        rels = b""
    targets: dict[bytes, str] = {}
    for m in _REL.finditer(rels):
        rid, raw_target = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        target = _unescape(raw_target)
        targets[rid] = target.lstrip("/") if target.startswith("/") else "xl/" + target
    out: dict[str | None, SheetMarks] = {}
    for m in _SHEET.finditer(workbook):
        raw_name, rid = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(4), m.group(3))
        name = _unescape(raw_name)
        member = targets.get(rid)
        if member is None or member not in archive.NameToInfo:
            continue
        with archive.open(member) as stream:
            head = stream.read(2048)
        dim = _DIM.search(head)
        if dim and int(dim.group(1)) > MAX_ROWS + 1:
            raise _too_many_rows(file, name, f"{int(dim.group(1)):,}")
        data = archive.read(member)
        if not dim and data.count(b"<row ") > MAX_ROWS + 1:
            raise _too_many_rows(file, name, f"{data.count(b'<row '):,}")
        errors: dict[Place, str] = {}
        if b't="e"' in data or b"<f" in data:  # only then is every cell looked at
            for cm in _CELL.finditer(data):
                attrs, inner = cm.group(1), cm.group(2) or b""
                ref = _REF.search(attrs)
                if ref is None:
                    continue
                value = _VALUE.search(inner)
                if b't="e"' in attrs:
                    errors[_parse_cell(ref.group(1).decode())] = value.group(1).decode("utf-8", "replace") if value else "#ERROR"
                elif b"<f" in inner and value is None:
                    errors[_parse_cell(ref.group(1).decode())] = ""  # a formula never computed (no cached value)
        out[name] = {"merged": [], "errors": errors}
    return out


_ODS_TABLE = re.compile(rb'<table:table\b[^>]*?table:name="([^"]*)"')
_ODS_REPEATED_ROW = re.compile(rb'<table:table-row\b[^>]*?table:number-rows-repeated="(\d+)"[^>]*?(?:/>|>(.*?)</table:table-row>)', re.S)


def _prescan_ods(archive: zipfile.ZipFile, file: str) -> dict[str | None, SheetMarks]:
    data = archive.read("content.xml")
    starts: list[tuple[int, str | None]] = [(m.start(), _unescape(m.group(1))) for m in _ODS_TABLE.finditer(data)]
    starts = starts or [(0, None)]
    for (start, name), (end, _) in zip(starts, starts[1:] + [(len(data), None)]):
        part = data[start:end]  # one sheet: its rows, repeated rows with values counted as many
        rows = part.count(b"<table:table-row")
        for m in _ODS_REPEATED_ROW.finditer(part):
            inner = m.group(2) or b""
            if b"office:value-type" in inner or b"<text:p" in inner:
                rows += int(m.group(1)) - 1
        if rows > MAX_ROWS + 1:
            raise _too_many_rows(file, name, f"{rows:,}")
    if b"-spanned=" in data or b'value-type="error"' in data:
        return locate(data)
    return {}


def _calamine_tables(raw: bytes, file: str, kind: str, prescan: dict[str | None, SheetMarks]) -> list[Table]:
    # deferred: calamine loads only when a spreadsheet is read
    import python_calamine as calamine

    try:
        book = calamine.CalamineWorkbook.from_filelike(io.BytesIO(raw))
        tables = []
        for meta in book.sheets_metadata:
            if meta.visible != calamine.SheetVisibleEnum.Visible or meta.typ != calamine.SheetTypeEnum.WorkSheet:
                continue  # hidden sheets hold helper lists (validation choices), charts hold no rows
            sheet = book.get_sheet_by_name(meta.name)
            start = sheet.start or (0, 0)
            if sheet.height > MAX_ROWS + 1:
                raise _too_many_rows(file, meta.name, f"{sheet.height:,}")
            if sheet.width > MAX_COLUMNS:
                raise _fail("spreadsheet.too-large", f"sheet {meta.name} has {sheet.width:,} columns", where(file, meta.name),
                            expected=f"at most {MAX_COLUMNS}", fix="delete the empty columns right of the cards")
            rows: list[list[CellValue]] = sheet.to_python(skip_empty_area=True) if sheet.height else []
            marks = prescan.get(meta.name)
            errors = marks["errors"] if marks else {}
            merged = (list(sheet.merged_cell_ranges or []) if kind == "xlsx"  # calamine reads an xlsx's merges
                      else marks["merged"] if marks else [])
            tables.append(Table(file, meta.name, rows, start[0], start[1], merged, errors))
        return tables
    except InputError:
        raise
    except Exception as exc:  # calamine raises its own error types for broken XML, zips and passwords
        name = type(exc).__name__
        if "Password" in name:
            raise _fail("spreadsheet.encrypted", f"{file} is protected by a password", where(file),
                        fix="remove the password and save it again") from None
        raise _fail("spreadsheet.corrupt", f"{file} cannot be read: {str(exc)[:200]}", where(file),
                    found="a damaged workbook", expected=f"an .{kind} workbook",
                    fix="open it in a spreadsheet program and save it again") from None
