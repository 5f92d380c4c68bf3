"""Embedded TrueType fonts. ReportLab ships Bitstream Vera, so a fresh machine always has them;
a pack may name its own TTF files (resolved inside the pack) and a display face for titles and
headings (a typeface pnp ships, generator/pack/typefaces.py, or its own file). Every font is
embedded as a subset of the glyphs a PDF uses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.pack.assets import read_ttf
from generator.pack.typefaces import font_file

if TYPE_CHECKING:
    from generator.pack.model import Pack

_VERA = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
FAMILY = "PnpSans"  # Bitstream Vera Sans under our family name
REGULAR, BOLD, ITALIC, BOLD_ITALIC = FAMILY, FAMILY + "-Bold", FAMILY + "-Italic", FAMILY + "-BoldItalic"
_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}
# the style of titles and headings: text fitted in it is set in the pack's display face
# (TextFitter.family), or in the built-in bold when the pack names none
DISPLAY = FAMILY + "-Display"


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


_registered: dict = {}  # (path, mtime, size) -> registered name: each file is parsed once per process


def register_pack_fonts(paths: dict) -> dict:
    """Register a pack's fonts (style -> resolved path); returns style -> registered name."""
    out = {}
    for style, path in paths.items():
        st = os.stat(path)
        key = (os.fspath(path), st.st_mtime_ns, st.st_size)
        name = _registered.get(key)
        if name is None:
            font = read_ttf(path)
            if font.fontName not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(font)
            name = _registered[key] = font.fontName
        out[style] = name
    return out


def display_font(pack: Pack) -> str:
    """The registered name of the pack's display face (game.yaml `fonts: {display: ...}`, checked
    by the loader), or the built-in bold when it names none: what titles drawn directly use."""
    value = pack.spec.fonts.get("display")
    if value is None:
        register_fonts()
        return BOLD
    return register_pack_fonts({"display": font_file(value, Path(pack.root))})["display"]
