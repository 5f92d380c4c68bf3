"""The roster sheet's measures, colours and building blocks: rows, blocks that know their
height and draw themselves, pages of blocks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.render.base.colors import INK as INK_HEX, tint
from generator.render.base.pdfout import MM

MARGIN = 12 * MM
COLUMNS = 3
COLUMN_GAP = 5 * MM
ROW = 4.0 * MM
ROW_DENSE = 3.6 * MM
MAX_VIOLATIONS = 12  # more than this is not a roster any more: the sheet points to `pnp validate`
QR_SIZE = 40 * MM
QR_BORDER = 4  # modules of quiet zone, as the QR standard asks
QR_LEVEL = "M"
CODE_SIZE = 7.5
CODE_GROUP = 5
CODE_LEADING = 3.5 * MM

INK = HexColor(INK_HEX)
GREY = HexColor("#666666")
RULE = HexColor("#bbbbbb")
PALE = HexColor("#f2f2f2")
LEGAL = "#2e7d32"
NOT_LEGAL = "#b3261e"
WARNING = "#9a5b00"


def hex_color(color: str):
    return HexColor(color)


def tint_color(color: str, amount: float) -> HexColor:
    """`color` mixed with white: amount 0 is the colour, 1 is white."""
    return HexColor(tint(color, amount))


def ellipsize(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


@dataclass
class Row:
    kind: str  # "heading" | "item" | "attached" | "more"
    text: str
    detail: str = ""
    points: str = ""
    icon: str | None = None


@dataclass
class Block:
    height: float
    draw: Callable[[float], None]  # draws with its top at y (points)
    keep_with_next: bool = False


@dataclass
class Page:
    blocks: list = field(default_factory=list)


def plain_text(text: str) -> str:
    """Validator messages are plain text: a `*` in one must not switch to bold or italic."""
    return text.replace("*", "\u2217")
