"""The PO file as a spreadsheet, for translators who work in one (`pnp translate --format
xlsx`): a row per string with its context, source, translation, whether it is fuzzy (stale),
the source it was translated from, where it comes from and a note. Written and read with the
pack's own spreadsheet writer and readers (pack/sheets: text cells stay text, a cell that would
run as a formula is stored as text, a damaged or hostile file is one clear error); a translator
edits the `translation` column and clears `fuzzy` once a stale row is checked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Problem
from generator.core.files import atomic_output
from generator.core.yamlio import display_path
from generator.pack.sheets.read import read_tables, where
from generator.pack.sheets.table import SheetData
from generator.pack.sheets.write import xlsx_bytes

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

COLUMNS = ["context", "source", "translation", "fuzzy", "previous source", "where", "note"]
SHEET = "translations"


def sheet_file(po: Path) -> Path:
    return po.with_suffix(".xlsx")


def write_sheet(catalog: Catalog, path: Path) -> None:
    rows = []
    for m in catalog:
        if not m.id or not isinstance(m.id, str):
            continue
        rows.append([m.context or None, m.id, str(m.string) or None, "fuzzy" if m.fuzzy else None,
                     (m.previous_id[0] if m.previous_id else None) if m.fuzzy else None,
                     " ".join(f"{w}:{n}" if n else w for w, n in m.locations) or None,
                     " / ".join(m.auto_comments) or None])
    data = xlsx_bytes([SheetData(SHEET, COLUMNS, rows, text_columns=set(COLUMNS))])
    with atomic_output(path, suffix=".xlsx") as tmp:
        Path(tmp).write_bytes(data)


def read_sheet(path: Path, catalog: Catalog) -> int:
    """Put the spreadsheet's translations into `catalog` (matched by context and source); the
    number of entries it changed. A row whose source is not in the catalog is an error at its
    cell: the source column is the key, and is not for editing."""
    file = display_path(path)
    tables = read_tables(path, file)
    table = next((t for t in tables if t.sheet == SHEET), tables[0] if tables else None)
    if table is None or not table.rows:
        return 0
    heading = [str(c).strip().lower() if c is not None else "" for c in table.rows[0]]
    missing = [c for c in ("source", "translation") if c not in heading]
    if missing:
        raise InputError([Problem("translation.sheet", f"{file} has no `{missing[0]}` column",
                                  where(file, table.sheet, table.row0, table.col0), found=", ".join(h for h in heading if h),
                                  expected=", ".join(COLUMNS), fix="write the sheet again with `pnp translate --format xlsx`")])
    col = {name: heading.index(name) for name in COLUMNS if name in heading}
    changed, problems = 0, []

    def cell(row: Sequence[object], name: str) -> str:
        i = col.get(name)
        value = row[i] if i is not None and i < len(row) else None
        return "" if value is None else str(value)

    for n, row in enumerate(table.rows[1:], 1):
        source = cell(row, "source")
        if not source:
            continue
        context = cell(row, "context") or None
        message = catalog.get(source, context)
        if message is None:
            problems.append(Problem("translation.sheet", f"{file}: row {table.row0 + n + 1} translates a source that "
                                    "is not one of the pack's strings", where(file, table.sheet, table.row0 + n,
                                                                             table.col0 + col["source"]),
                                    found=source[:80], expected="the source text as `pnp translate` wrote it",
                                    fix="leave the source column as it is; write in the translation column"))
            continue
        text, fuzzy = cell(row, "translation"), bool(cell(row, "fuzzy").strip())
        if text != (message.string or "") or fuzzy != message.fuzzy:
            message.string = text
            message.flags = (set(message.flags) | {"fuzzy"}) if fuzzy and text else set(message.flags) - {"fuzzy"}
            if not message.fuzzy:
                message.previous_id = []
            changed += 1
    if problems:
        raise InputError(problems)
    return changed
