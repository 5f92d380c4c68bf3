"""Embedded TrueType fonts. ReportLab ships Bitstream Vera, so a fresh machine always has them;
a pack may name its own TTF files (resolved inside the pack)."""

from __future__ import annotations

import functools
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


def missing_glyphs(text: str) -> list[str]:
    """Characters of `text` the card font cannot draw (it would print an empty box instead)."""
    covered = _coverage()
    return sorted({ch for ch in text if ord(ch) not in covered and not ch.isspace()})


@functools.lru_cache(maxsize=1)
def _coverage() -> frozenset:
    """Code points every face of the built-in family can draw."""
    register_fonts()
    faces = [pdfmetrics.getFont(name).face.charToGlyph for name in (REGULAR, BOLD, ITALIC, BOLD_ITALIC)]
    return frozenset.intersection(*(frozenset(f) for f in faces))
