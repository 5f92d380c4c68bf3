"""What an export writes, whatever the format: a sheet's title, columns and rows."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

Cell: TypeAlias = str | int | float | bool | None  # what one cell of an export holds


@dataclass
class SheetData:
    title: str
    columns: list[str]
    rows: Sequence[Sequence[Cell]]  # read only: a list of any kind of cells fits
    choices: dict[str, list[str]] = field(default_factory=dict)  # column -> allowed values (drop-down lists)
    text_columns: set[str] = field(default_factory=set)  # columns to format as text


def column_width(sheet: SheetData, i: int) -> float:
    """Characters wide enough for the column's longest line, between 6 and 60."""
    longest = max([len(sheet.columns[i])] + [max((len(line) for line in str(r[i]).splitlines()), default=0)
                                               for r in sheet.rows if r[i] is not None])
    return min(max(longest + 2, 6), 60)


def export_stamp() -> int:
    """The date written into exports: SOURCE_DATE_EPOCH, or 2000-01-01, so exports are reproducible."""
    try:
        return max(int(os.environ.get("SOURCE_DATE_EPOCH", "946684800")), 315532800)
    except ValueError:
        return 946684800


# A cell a spreadsheet program could run as a formula: text starting with = + - @, tab or CR
# (OWASP, "CSV injection"). xlsx and ods write such text as a string cell; CSV has no cell
# types, so the text gets a leading `'`, which the reader takes off again. Text that already
# starts with `'`s before such a character gets one more, so reading back takes exactly one.
RISKY_START = re.compile(r"'*[=+\-@\t\r]")


def risky(text: str) -> bool:
    """Whether a spreadsheet program would read this text as a formula."""
    return bool(re.match(r"[=+\-@\t\r]", text))


def csv_guard(text: str) -> str:
    """The text as a CSV cell: a leading `'` before a risky start (see RISKY_START)."""
    return "'" + text if RISKY_START.match(text) else text


def csv_unguard(text: str) -> str:
    """A CSV cell back to its text: the inverse of `csv_guard`."""
    return text[1:] if text.startswith("'") and RISKY_START.match(text) else text
