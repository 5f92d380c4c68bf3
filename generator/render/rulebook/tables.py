"""Tables for the rulebook: cells of marked-up rich text (icons, keywords), column widths
that fit the frame without breaking words where possible, short tables kept whole."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from generator.render.rulebook.platypus import Table, TableStyle

from generator.render.base.colors import tint
from generator.render.base.fonts import REGULAR
from generator.render.rulebook.text import ICON_RE, RichText, bold

if TYPE_CHECKING:
    from generator.render.rulebook.text import Book

NUMERIC_RE = re.compile(r"^[\s\d+\-–−×/.,%()]*$")


def _numeric(book: Book, text: str) -> bool:
    stripped = ICON_RE.sub("", text).replace("*", "").strip()
    return bool(NUMERIC_RE.match(stripped)) and len(stripped) <= 8


def column_widths(book: Book, rows: list[list[str]], size: float, width: float, pad: float,
                  stretch: bool = True) -> list[float] | None:
    """Widths that fit `width`: every column gets its widest word, the rest of the room goes
    where the text is longest. None when even the widest words do not fit."""
    ncol = len(rows[0])
    minw = [0.0] * ncol
    natw = [0.0] * ncol
    for r, row in enumerate(rows):
        for i, cell in enumerate(row):
            text = bold(cell) if r == 0 else cell
            wmin, wnat = book.words(text, size)
            minw[i] = max(minw[i], wmin + 2 * pad + 0.5)
            natw[i] = max(natw[i], wnat + 2 * pad + 0.5)
    if sum(minw) > width + 1e-6:
        return None
    if sum(natw) <= width:
        widths = natw[:]
        if stretch:
            extra = width - sum(widths)
            weights = [w if not all(_numeric(book, row[i]) for row in rows[1:]) else 0.0
                       for i, w in enumerate(natw)]
            total = sum(weights) or sum(natw)
            weights = weights if sum(weights) else natw
            widths = [w + extra * k / total for w, k in zip(widths, weights)]
        return widths
    room = width - sum(minw)
    want = [n - m for n, m in zip(natw, minw)]
    total = sum(want) or 1.0
    return [m + room * w / total for m, w in zip(minw, want)]


class RichTable(Table):
    """A table that splits only when at least three of its rows stay before the break. Its
    columns have fixed widths and no cell spans, so its rows' heights depend on the width it
    is given alone: wrapped again at the width it was last wrapped at (balanced columns try one
    height after another), it keeps what it found."""

    _wrapped_at: float | None = None
    fitted = False  # each column holds its cells' widest word (rich_table's widths from column_widths)

    def always_fits(self, width: float, height: float) -> bool:
        """Whether a column `width` x `height` takes this table whole, known without laying it out
        (errors.check_story): it is no wider, and its rows, each at most its tallest cell's
        RichText.height_at_most and the cell's paddings, add up to no more."""
        if not self.fitted or self._spanCmds or sum(self._argW) > width + 0.01:  # as check_story allows
            return False
        total = 0.0
        for cells, styles in zip(self._cellvalues, self._cellStyles):
            # a cell holds one RichText (rich_table); once wrapped, platypus keeps it in a tuple
            total += max(sum(f.height_at_most() for f in (cell if isinstance(cell, tuple) else (cell,)))
                         + style.topPadding + style.bottomPadding for cell, style in zip(cells, styles))
            if total > height:
                return False
        return True

    def wrap(self, availWidth, availHeight):
        if self._spanCmds or availWidth != self._wrapped_at:
            size = super().wrap(availWidth, availHeight)
            self._wrapped_at = None if self._spanCmds else availWidth
            return size
        return self._width, self._height

    def split(self, availWidth, availHeight):
        self._wrapped_at = None  # splitting lays the rows out again, at its own width
        parts = super().split(availWidth, availHeight)
        if len(parts) >= 2 and len(parts[0]._cellvalues) - self.repeatRows < 3:
            return []
        return parts


def rich_table(book: Book, rows: list[list[str]], width: float, size: float | None = None,
               aligns: list[str | None] | None = None, stretch: bool = True, header: bool = True,
               min_size: float = 5.5, bold_first_column: bool = False) -> Table:
    """A table of marked-up cells; the font shrinks (to `min_size`) before words would break."""
    st = book.style
    size = size or st.table
    pad = 3.0
    widths = None
    fitted = True  # every word fits its column's width
    while widths is None:
        widths = column_widths(book, rows, size, width, pad, stretch)
        if widths is None:
            if size <= min_size:
                widths = [width / len(rows[0])] * len(rows[0])
                fitted = False
            else:
                size = max(min_size, size - 0.5)
    ncol = len(rows[0])
    aligns = list(aligns or [None] * ncol)
    for i in range(ncol):
        if aligns[i] is None:
            body = [row[i] for row in rows[1 if header else 0:] if row[i].strip()]
            aligns[i] = "center" if i > 0 and body and all(_numeric(book, t) for t in body) else "left"
    data = []
    for r, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            text = cell
            if (header and r == 0) or (bold_first_column and i == 0):
                text = bold(cell)
            color = st.accent if header and r == 0 else st.ink
            cells.append(RichText(book, text, size, color=color, align=aligns[i] or "left", leading=1.22,  # (all set above)
                                  hyphenate=True))
        data.append(cells)
    style = [
        ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), 2.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, HexColor(st.rule)),
        # cells hold RichText flowables, but a Table still selects its cell font (Helvetica
        # by default), which puts an unembedded font in the PDF: name an embedded one
        ("FONTNAME", (0, 0), (-1, -1), REGULAR),
    ]
    if header:
        style += [("BACKGROUND", (0, 0), (-1, 0), HexColor(tint(st.accent, 0.88))),
                  ("LINEBELOW", (0, 0), (-1, 0), 0.8, HexColor(st.accent))]
        if len(rows) > 3:
            style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [HexColor("#ffffff"), HexColor(st.zebra)]))
    table = RichTable(data, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT",
                      style=TableStyle(style))
    table.keep_whole = len(rows) <= 12  # short tables move to the next column rather than split
    # column_widths measured the header row in bold and the rest as written: a first column in bold is wider
    table.fitted = fitted and not bold_first_column
    return table
