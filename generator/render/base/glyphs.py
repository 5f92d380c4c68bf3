"""Where the letters of a string put ink, from the font's own glyph boxes.

The layout checks judge what a card prints (render/base/drawn.py): how close a word comes to
the trim is measured on its letters' outlines, not on its line box. Each glyph's box is read
from the TrueType `glyf` and `hmtx` tables of the font ReportLab embeds, in thousandths of
the font size the way PDF viewers report character boxes (PDFium's FPDFText_GetCharBox): the
left side bearing, the bottom, the right (left side bearing plus the outline's width) and the
top, each `round(units * 1000 / unitsPerEm)` with halves rounded up, in integers; each letter
is placed after the whole-thousandth advances of those before it (a PDF reader's reading of
the /Widths array). A glyph with no outline (a space) has no box; a string's ink is the union
of its letters' boxes.

A string's word box is what a PDF reader gives as its letters' loose boxes (PDFium's
FPDFText_GetLooseCharBox, what `pnp preflight` reads back): each non-blank letter from its pen
position to its advance, from the font's descent to its ascent as the embedded font's
descriptor gives them (read as integers, the descent no lower than the font's box), grown to
the letter's outline where that reaches further. The safe zone is measured on it
(core/safezone.py).
"""

from __future__ import annotations

import math
import struct
from functools import lru_cache
from itertools import accumulate
from operator import add
from typing import Any, NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont


class StringInk(NamedTuple):
    """A string's letters at font size 1000 (so in thousandths of the font size), origin at 0."""

    box: tuple[float, float, float, float] | None  # union of the non-blank letters: left, bottom, right, top
    first_bottom: float      # the bottom of its first non-blank letter
    first: str               # its first and last non-blank characters ("" when it has none)
    last: str
    before_last: str         # the character before the last non-blank one (hyphenation: "a-")
    first_width: float       # advances of its first and last characters
    last_width: float
    width: float             # its whole advance
    word: tuple[float, float, float, float] | None  # its word box (see above): left, bottom, right, top


def _per_mille(units: int, em: int) -> int:
    """Font units to thousandths of the size, as integers: halves rounded up, toward zero."""
    scaled = units * 1000 + em // 2
    q = abs(scaled) // em
    return q if scaled >= 0 else -q


class GlyphBoxes:
    """Per character: its advance and its outline's box, in thousandths of the font size."""

    def __init__(self, font_name: str):
        font = getFont(font_name)
        self.font = font
        face: Any = getattr(font, "face", None)
        self._char_to_glyph: dict = getattr(face, "charToGlyph", None) or {}
        self._boxes: dict = {}
        self._advances: dict = {}
        self._tables: tuple | None = None
        # the ascent and descent a PDF reader takes from the font descriptor ReportLab writes
        bbox = getattr(face, "bbox", None) or (0, -1e9, 0, 1e9)
        self.ascent = float(min(math.trunc(getattr(face, "ascent", 1000)), math.trunc(bbox[3])))
        self.descent = float(max(math.trunc(getattr(face, "descent", 0)), math.trunc(bbox[1])))
        if not self._char_to_glyph:  # a Type 1 font: its own bounding boxes are not kept; use its metrics
            return
        head = face.get_table("head")
        hhea = face.get_table("hhea")
        self._em = struct.unpack(">H", head[18:20])[0]
        self._long_loca = struct.unpack(">h", head[50:52])[0] == 1
        self._hmetrics = struct.unpack(">H", hhea[34:36])[0]
        self._tables = (face.get_table("loca"), face.get_table("glyf"), face.get_table("hmtx"))

    def advance(self, ch: str) -> float:
        """How far the letter moves the pen, in whole thousandths: the PDF's /Widths value as
        viewers read it (an integer; ReportLab writes a decimal)."""
        width = self._advances.get(ch)
        if width is None:
            width = self._advances[ch] = float(int(float(fp_str(self.font.stringWidth(ch, 1000)))))
        return width

    def box(self, ch: str) -> tuple[int, int, int, int] | None:
        """The glyph's box (left, bottom, right, top), or None when it draws no outline."""
        hit = self._boxes.get(ch, False)
        if hit is not False:
            return hit
        box = self._read(ch)
        self._boxes[ch] = box
        return box

    def _read(self, ch: str):
        if self._tables is None:
            width = self.advance(ch)
            return (0, self.font.face.descent, int(width), self.font.face.ascent) if width else None
        loca, glyf, hmtx = self._tables
        gid = self._char_to_glyph.get(ord(ch), 0)
        if self._long_loca:
            start, end = struct.unpack(">II", loca[4 * gid:4 * gid + 8])
        else:
            start, end = (2 * v for v in struct.unpack(">HH", loca[2 * gid:2 * gid + 4]))
        if end <= start:
            return None
        _contours, x_min, y_min, x_max, y_max = struct.unpack(">hhhhh", glyf[start:start + 10])
        at = 4 * gid + 2 if gid < self._hmetrics else 4 * self._hmetrics + 2 * (gid - self._hmetrics)
        lsb = struct.unpack(">h", hmtx[at:at + 2])[0]
        em = self._em
        return (_per_mille(lsb, em), _per_mille(y_min, em), _per_mille(lsb + x_max - x_min, em),
                _per_mille(y_max, em))


class _Table(dict):
    """One side of every glyph's box (or its advance), char -> value, filled as chars are met.
    A blank's box sides are +inf or -inf, so min() and max() over a string pass it by."""

    def __init__(self, glyphs: GlyphBoxes, side: int):
        super().__init__()
        self.glyphs, self.side = glyphs, side

    def __missing__(self, ch: str) -> float:
        glyphs = self.glyphs
        advance = glyphs.advance(ch)
        if self.side < 0:
            value = advance
        elif ch.isspace():
            value = math.inf if self.side in (0, 1) else -math.inf
        else:
            box = glyphs.box(ch) or (0, 0, 0, 0)  # an outline-less glyph: a sliver at the baseline
            l, b, r, t = (float(v) for v in box)
            if t == b:
                t = b + 1  # a flat glyph still covers its line (PDFium gives it a sliver of height)
            if r == l:
                r = l + advance
            value = (l, b, r, t)[self.side]
        self[ch] = value
        return value


@lru_cache(maxsize=32)
def glyph_boxes(font_name: str) -> GlyphBoxes:
    return GlyphBoxes(font_name)


@lru_cache(maxsize=32)
def _tables(font_name: str) -> tuple:
    glyphs = glyph_boxes(font_name)
    return tuple(_Table(glyphs, side) for side in (-1, 0, 1, 2, 3))  # advance, left, bottom, right, top


# String inks kept between processes, as plain tuples by font and text: what a process measured
# before (KEPT, read from the user's cache folder by render/cards/ink.py: read_inks) and what this
# one measured or read (MEASURED, at most MAX_MEASURED a font, what ink.keep_inks writes back).
KEPT: dict[str, dict] = {}
MEASURED: dict[str, dict] = {}
MAX_MEASURED = 8192


@lru_cache(maxsize=8192)
def string_ink(font_name: str, text: str) -> StringInk:
    """The ink of `text` set in `font_name` (cached: card text repeats its words; a kept one is
    the same tuple of numbers, measured by a process before)."""
    plain = KEPT.get(font_name, {}).get(text)
    ink = None
    if plain is not None:
        try:
            ink = StringInk(*plain)
        except TypeError:
            ink = None
    if ink is None:
        ink = _measured(font_name, text)
        plain = tuple(ink)
    measured = MEASURED.setdefault(font_name, {})
    if len(measured) < MAX_MEASURED:
        measured[text] = plain
    return ink


def _measured(font_name: str, text: str) -> StringInk:
    """string_ink worked out, with C-level loops (map, accumulate), since a deck of unique cards
    measures every line."""
    advance, left, bottom, right, top = _tables(font_name)
    xs = list(accumulate(map(advance.__getitem__, text), initial=0.0))
    stripped = text.strip()
    if not stripped:
        return StringInk(None, 0.0, "", "", "", 0.0, 0.0, xs[-1], None)
    box = (min(map(add, xs, map(left.__getitem__, text))), min(map(bottom.__getitem__, text)),
           max(map(add, xs, map(right.__getitem__, text))), max(map(top.__getitem__, text)))
    end = len(text.rstrip()) - 1
    first, last = stripped[0], stripped[-1]
    glyphs = advance.glyphs
    word = (min(xs[len(text) - len(text.lstrip())], box[0]), min(glyphs.descent, box[1]),
            max(xs[end + 1], box[2]), max(glyphs.ascent, box[3]))
    return StringInk(box, bottom[first], first, last, text[end - 1] if end > 0 else "", advance[first],
                     advance[last], xs[-1], word)


def letter_boxes(font_name: str, text: str) -> list[tuple[float, float, float, float]]:
    """The box of each letter of `text` that is not blank, set in `font_name`, from the
    string's origin in thousandths of the font size: what a PDF reader gives as each
    character's box (PDFium's FPDFText_GetCharBox; the map sheets keep their alignment crosses
    off them)."""
    advance, left, bottom, right, top = _tables(font_name)
    boxes = []
    x = 0.0
    for ch in text:
        if not ch.isspace():
            boxes.append((x + left[ch], bottom[ch], x + right[ch], top[ch]))
        x += advance[ch]
    return boxes
