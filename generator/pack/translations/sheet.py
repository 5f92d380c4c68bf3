"""The PO file as a spreadsheet, for translators who work in one (`pnp translate --format
xlsx`): a row per string with its context, source, translation, whether it is fuzzy (stale),
the source it was translated from, where it comes from and a note. Written and read with the
pack's own spreadsheet writer and readers (pack/sheets: text cells stay text, a cell that would
run as a formula is stored as text, a damaged or hostile file is one clear error); a translator
edits the `translation` column and clears `fuzzy` once a stale row is checked. A plural entry
("remove {n} card" / "remove {n} cards") is a row per form of the language, its `form` cell the
form's number in the PO file's Plural-Forms rule and the numbers it is for ("0: n = 1", "1: n = 0,
2, 3…"); its `source` is the English for one on form 0 and for several on the others."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Problem
from generator.core.files import atomic_output
from generator.core.limits import NotANumber, whole_number
from generator.core.yamlio import display_path
from generator.pack.sheets.read import read_tables, where
from generator.pack.sheets.table import SheetData
from generator.pack.sheets.write import xlsx_bytes
from generator.pack.translations.catalog import forms_of
from generator.pack.translations.table import plural_index

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

COLUMNS = ["context", "source", "translation", "fuzzy", "previous source", "where", "note", "form"]
SHEET = "translations"


def sheet_file(po: Path) -> Path:
    return po.with_suffix(".xlsx")


def write_sheet(catalog: Catalog, path: Path) -> None:
    rows = []
    forms = _form_names(catalog)
    for m in catalog:
        if not m.id:
            continue
        texts = [m.id] if isinstance(m.id, str) else [m.id[0]] + [m.id[1]] * (len(forms) - 1)
        strings = forms_of(m)
        for n, text in enumerate(texts):
            rows.append([m.context or None, text, (strings[n] if n < len(strings) else "") or None,
                         "fuzzy" if m.fuzzy else None,
                         (m.previous_id[0] if m.previous_id else None) if m.fuzzy else None,
                         " ".join(f"{w}:{n}" if n else w for w, n in m.locations) or None,
                         " / ".join(m.auto_comments) or None, None if isinstance(m.id, str) else forms[n]])
    data = xlsx_bytes([SheetData(SHEET, COLUMNS, rows, text_columns=set(COLUMNS))])
    with atomic_output(path, suffix=".xlsx") as tmp:
        Path(tmp).write_bytes(data)


def _form_names(catalog: Catalog) -> list[str]:
    """Each plural form as its `form` cell says it: its number and the first numbers it is for."""
    rule, names = catalog.plural_expr, []
    for form in range(catalog.num_plurals):
        examples = [n for n in range(200) if plural_index(rule, n) == form][:4]
        names.append(f"{form}: n = " + ", ".join(map(str, examples[:3])) + ("…" if len(examples) > 3 else ""))
    return names


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
    singular = {(m.context, m.id[1]): m.id[0] for m in catalog if m.id and not isinstance(m.id, str)}
    plurals: set[int] = set()  # the plural entries a row changed (counted once, whatever its rows)

    def cell(row: Sequence[object], name: str) -> str:
        i = col.get(name)
        value = row[i] if i is not None and i < len(row) else None
        return "" if value is None else str(value)

    for n, row in enumerate(table.rows[1:], 1):
        source = cell(row, "source")
        if not source:
            continue
        context = cell(row, "context") or None
        form = _form_of(cell(row, "form"))
        message = catalog.get(singular.get((context, source), source) if form is not None else source, context)
        if message is None:
            problems.append(Problem("translation.sheet", f"{file}: row {table.row0 + n + 1} translates a source that "
                                    "is not one of the pack's strings", where(file, table.sheet, table.row0 + n,
                                                                             table.col0 + col["source"]),
                                    found=source[:80], expected="the source text as `pnp translate` wrote it",
                                    fix="leave the source column as it is; write in the translation column"))
            continue
        text, fuzzy = cell(row, "translation"), bool(cell(row, "fuzzy").strip())
        if not isinstance(message.id, str):  # a plural entry: a row per form
            if form is None or form >= catalog.num_plurals:
                if "form" not in col:  # a sheet from before counted entries had rows: none of them is one
                    continue
                problems.append(Problem("translation.sheet", f"{file}: row {table.row0 + n + 1} is a form of a counted "
                                        "entry, but its form cell names none of the language's forms",
                                        where(file, table.sheet, table.row0 + n, table.col0 + col.get("form", 0)),
                                        found=cell(row, "form")[:40] or "(empty)",
                                        expected=f"a form from 0 to {catalog.num_plurals - 1}, as `pnp translate` wrote it",
                                        fix="leave the form column as it is; write in the translation column"))
            else:
                was = forms_of(message)
                got = list(was) + [""] * (catalog.num_plurals - len(was))
                got[form] = text
                if tuple(got) != was or fuzzy != message.fuzzy:
                    message.string = tuple(got)
                    message.flags = (set(message.flags) | {"fuzzy"}) if fuzzy and all(got) \
                        else set(message.flags) - {"fuzzy"}
                    if not message.fuzzy:
                        message.previous_id = []
                    plurals.add(id(message))
            continue
        if text != (message.string or "") or fuzzy != message.fuzzy:
            message.string = text
            message.flags = (set(message.flags) | {"fuzzy"}) if fuzzy and text else set(message.flags) - {"fuzzy"}
            if not message.fuzzy:
                message.previous_id = []
            changed += 1
    if problems:
        raise InputError(problems)
    return changed + len(plurals)


def _form_of(text: str) -> int | None:
    """The plural form a row is for, from its `form` cell ("1: n != 1" is form 1), or None: a
    row of a plain entry, or a cell that names no form (a translator's "²" is not form 2)."""
    try:
        return whole_number(text.split(":")[0], 9)
    except NotANumber:
        return None
