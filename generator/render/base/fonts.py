"""Embedded TrueType fonts. ReportLab ships Bitstream Vera, so a fresh machine always has them;
a pack may name its own TTF files (resolved inside the pack)."""

from __future__ import annotations

import os

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

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


def register_ttf(name: str, path: str) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, path))
    return name


MAX_FONT_BYTES = 30 * 1024 * 1024


class FontError(ValueError):
    """A font file that cannot be used: not TrueType, damaged, or too large."""


def read_ttf(path) -> TTFont:
    """Parse a TrueType file, turning every way a damaged or foreign file can fail into FontError."""
    path = os.fspath(path)
    if not path.lower().endswith(".ttf"):
        raise FontError("only TrueType fonts (.ttf) can be embedded")
    size = os.path.getsize(path)
    if size > MAX_FONT_BYTES:
        raise FontError(f"the file is {size:,} bytes; fonts above {MAX_FONT_BYTES:,} bytes are refused")
    try:
        return TTFont(pack_font_name(path), path)
    except Exception as exc:  # TTFError, struct.error, IndexError... on a damaged file
        raise FontError(str(exc) or type(exc).__name__) from None


def pack_font_name(path) -> str:
    """A name for a pack's font that depends on its bytes only, so two packs never clash in
    ReportLab's process-wide registry and a changed file is registered afresh."""
    import hashlib
    with open(path, "rb") as f:
        return "PackFont-" + hashlib.sha256(f.read()).hexdigest()[:16]


def register_pack_fonts(paths: dict) -> dict:
    """Register a pack's fonts (style -> resolved path); returns style -> registered name."""
    out = {}
    for style, path in paths.items():
        font = read_ttf(path)
        if font.fontName not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(font)
        out[style] = font.fontName
    return out
