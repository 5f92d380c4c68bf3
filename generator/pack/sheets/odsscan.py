"""Find merged cells and formula errors in an ODS file's content.xml, with their places.

Only called when a quick byte search has seen either, so ordinary files never pay for this
full parse."""

from __future__ import annotations

import io
from typing import TypedDict

_T = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_CALC = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_MAX_SPAN = 100_000


class SheetMarks(TypedDict):
    """What `locate` found in one sheet (0-based rows and columns)."""

    merged: list[tuple[tuple[int, int], tuple[int, int]]]  # ((r0, c0), (r1, c1)) of each merged range
    errors: dict[tuple[int, int], str]  # (r, c) -> the error shown ("#DIV/0!")


def locate(content: bytes) -> dict[str | None, SheetMarks]:
    """Sheet name -> {"merged": [((r0, c0), (r1, c1)), ...], "errors": {(r, c): "#DIV/0!"}} (0-based)."""
    out: dict[str | None, SheetMarks] = {}
    sheet = None
    row = col = 0
    import xml.etree.ElementTree as ET  # deferred: only an .ods file with merged or error cells is parsed
    for event, elem in ET.iterparse(io.BytesIO(content), events=("start", "end")):
        tag = elem.tag
        if event == "start":
            if tag == f"{{{_T}}}table":
                sheet = elem.get(f"{{{_T}}}name")
                out[sheet] = {"merged": [], "errors": {}}
                row = 0
            elif tag == f"{{{_T}}}table-row":
                col = 0
            continue
        if tag == f"{{{_T}}}table-row":
            row += min(int(elem.get(f"{{{_T}}}number-rows-repeated", "1")), _MAX_SPAN)
            elem.clear()
        elif tag in (f"{{{_T}}}table-cell", f"{{{_T}}}covered-table-cell") and sheet is not None:
            cols = int(elem.get(f"{{{_T}}}number-columns-spanned", "1"))
            rows = int(elem.get(f"{{{_T}}}number-rows-spanned", "1"))
            if cols > 1 or rows > 1:
                out[sheet]["merged"].append(((row, col), (row + min(rows, _MAX_SPAN) - 1, col + min(cols, _MAX_SPAN) - 1)))
            if elem.get(f"{{{_CALC}}}value-type") == "error":
                out[sheet]["errors"][(row, col)] = "".join(elem.itertext()).strip() or "#ERROR"
            col += min(int(elem.get(f"{{{_T}}}number-columns-repeated", "1")), _MAX_SPAN)
    return out
