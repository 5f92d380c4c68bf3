"""Checks on the files a pack names besides YAML: its TrueType fonts (parsed once here, so a
damaged or foreign file is refused at load time with a clear message)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfbase.ttfonts import TTFont

MAX_FONT_BYTES = 30 * 1024 * 1024


class FontError(ValueError):
    """A font file that cannot be used: not TrueType, damaged, or too large."""


def read_ttf(path: str | Path) -> TTFont:
    """Parse a TrueType file, turning every way a damaged or foreign file can fail into FontError."""
    # deferred: ReportLab's font module takes ~45 ms to load, and a pack without fonts of its
    # own (or `pnp validate BUILD`) never parses one
    from reportlab.pdfbase.ttfonts import TTFont

    name = os.fspath(path)
    if not name.lower().endswith(".ttf"):
        raise FontError("only TrueType fonts (.ttf) can be embedded")
    size = os.path.getsize(name)
    if size > MAX_FONT_BYTES:
        raise FontError(f"the file is {size:,} bytes; fonts above {MAX_FONT_BYTES:,} bytes are refused")
    try:
        return TTFont(pack_font_name(name), name)
    except Exception as exc:  # TTFError, struct.error, IndexError... on a damaged file
        raise FontError(str(exc) or type(exc).__name__) from None


def pack_font_name(path: str | Path) -> str:
    """A name for a pack's font that depends on its bytes only, so two packs never clash in
    ReportLab's process-wide registry and a changed file is registered afresh."""
    with open(path, "rb") as f:
        return "PackFont-" + hashlib.sha256(f.read()).hexdigest()[:16]
