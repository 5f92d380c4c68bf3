"""What an export writes, whatever the format: a sheet's title, columns and rows."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class SheetData:
    title: str
    columns: list[str]
    rows: list[list]
    choices: dict = field(default_factory=dict)  # column -> allowed values (drop-down lists)
    text_columns: set = field(default_factory=set)  # columns to format as text


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
