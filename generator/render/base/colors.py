"""Colours every document shares: the ink of plain text and the tints (a colour mixed with white,
for light panels without transparency, which PDF forms and print shops both handle badly)."""

from __future__ import annotations

import functools

from reportlab.lib.colors import Color, HexColor

INK = "#222222"  # text and lines: a soft black that prints the same on every printer


@functools.lru_cache(maxsize=256)
def hex_color(value: str) -> Color:
    """ReportLab's HexColor of a colour value, made once per value (every element of every card
    sets a colour; a pack uses a few dozen). The Color is shared: read it, never change it."""
    return HexColor(value)


def tint(color: str, amount: float = 0.2) -> str:
    """Mix a #rrggbb colour with white (amount 0..1 of white) to the nearest #rrggbb."""
    color = str(color).lstrip("#")
    if len(color) != 6:
        return "#" + color
    rgb = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(v + (255 - v) * float(amount)) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def shade(color: str, amount: float = 0.2) -> str:
    """Mix a #rrggbb colour with black (amount 0..1 of black) to the nearest #rrggbb."""
    color = str(color).lstrip("#")
    if len(color) != 6:
        return "#" + color
    mixed = [round(int(color[i:i + 2], 16) * (1 - float(amount))) for i in (0, 2, 4)]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def strength(color: str, amount: float) -> Color:
    """The colour at `amount` of its strength on white (0 white, 1 the colour), unrounded."""
    c = HexColor(color)
    return Color(1 - (1 - c.red) * amount, 1 - (1 - c.green) * amount, 1 - (1 - c.blue) * amount)


# WCAG 2 contrast of text against what lies under it: below MIN_CONTRAST it is hard to read
# (the AA level for normal text), below BAD_CONTRAST nearly invisible on paper
MIN_CONTRAST, BAD_CONTRAST = 4.5, 3.0


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels 0..1)."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@functools.lru_cache(maxsize=1024)  # the layout checks ask it of every text of every card: a few dozen colours
def contrast_ratio(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours, 1 (none) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
