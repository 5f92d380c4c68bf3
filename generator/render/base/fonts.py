"""Embedded TrueType fonts. ReportLab ships Bitstream Vera, so a fresh machine always has them;
a pack may name its own TTF files (resolved inside the pack)."""

from __future__ import annotations

import os

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.pack.assets import read_ttf

_VERA = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
FAMILY = "PnpSans"  # Bitstream Vera Sans under our family name
REGULAR, BOLD, ITALIC, BOLD_ITALIC = FAMILY, FAMILY + "-Bold", FAMILY + "-Italic", FAMILY + "-BoldItalic"
_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}


def register_fonts() -> None:
    """Register the built-in family once per process (ReportLab's registry is process-wide)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in _FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, os.path.join(_VERA, filename)))
    addMapping(FAMILY, 0, 0, REGULAR)
    addMapping(FAMILY, 1, 0, BOLD)
    addMapping(FAMILY, 0, 1, ITALIC)
    addMapping(FAMILY, 1, 1, BOLD_ITALIC)


def register_pack_fonts(paths: dict) -> dict:
    """Register a pack's fonts (style -> resolved path); returns style -> registered name."""
    out = {}
    for style, path in paths.items():
        font = read_ttf(path)
        if font.fontName not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(font)
        out[style] = font.fontName
    return out
