"""The text objects a RecordingCanvas (render/base/recording.py) hands out: MemoTextObject keeps a
string's text operators per font state, so a string drawn again (a kit's copies, a sheet's
repeated labels) is written from what was kept; InkTextObject also notes, for a Recorder, what ink
each string is set in and where (the contrast and ink checks read it)."""

from __future__ import annotations

from reportlab.lib.colors import toColor
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.textobject import PDFTextObject

from generator.render.base.drawn import flat_color
from generator.render.base.operators import formatted

TEXT_MEMO = 2048  # strings whose text operators a canvas keeps (a kit's copies follow each other; 8,192 found 4 % more, for 3 MB)


_TUPLE_COLORS: dict = {}  # (r, g, b) -> its flat colour: setFillColorRGB makes a new tuple each call


def color_of(value):
    """A fill or stroke colour as the recorder compares it (drawn.flat_color), tuples kept."""
    if type(value) is tuple:
        hit = _TUPLE_COLORS.get(value)
        if hit is None:
            if len(_TUPLE_COLORS) >= 4096:
                _TUPLE_COLORS.clear()
            hit = _TUPLE_COLORS[value] = (flat_color(value),)
        return hit[0]
    return flat_color(toColor(value) if isinstance(value, str) else value)


class MemoTextObject(PDFTextObject):
    """A text object whose strings in a TrueType font are encoded once per document: the
    operators ReportLab writes for a string (its subset's `Tf` when the subset changes, then
    `(…) Tj`) depend only on the font, size, leading, the subset in use and the string, and
    a deck shows the same strings again and again (every copy of a card). The font's subset
    keeps every character it was given, so the string encodes the same way each time."""

    _curSubset: int  # ReportLab's own: the subset of the font in use (-1: none yet)
    _code: list  # ReportLab's own: the operators written so far, one entry per call
    origins: list | None = None  # a list: the index in `_code` of each text origin set from now on

    def setTextOrigin(self, x, y):
        super().setTextOrigin(x, y)
        if self.origins is not None:
            self.origins.append(len(self._code) - 1)

    def setFillAlpha(self, a):
        super().setFillAlpha(a)
        if a != 1:
            self._canvas.alpha_used = True

    def kept(self, numbers: list[float]) -> tuple[str, str | None]:
        """The operators `getCode()` gives (ending the object, as drawing it does), and the same
        with the numbers of each origin set since `origins` was made a list left out (`%s`, for
        `formatted`), in the order of `numbers` (each origin's x and y); None if they do not
        give back the same text (a text object of our own cannot differ; the check is cheap)."""
        origins = self.origins or []
        parts = [op.replace("%", "%%") for op in self._code]
        for i in origins:
            parts[i] = "1 0 0 1 %s %s Tm"  # what setTextOrigin writes on a bottom-up canvas
        code = self.getCode()
        template = " ".join(parts + ["ET"])
        if len(origins) * 2 != len(numbers) or formatted(template, numbers) != code:
            return code, None
        return code, template

    def placed_out(self, text: str) -> None:
        """`textOut(text)` for a string whose origin was just set (setTextOrigin): the same
        operators, without measuring the string to move a cursor that nothing reads."""
        self._code.append(self._formatText(text))

    def encoded(self, text: str) -> str:
        """The operators `textOut(text)` writes (the font's subset named first when it changes),
        without moving the cursor."""
        return self._formatText(text)

    def _formatText(self, text):
        canvas = self._canvas
        if getattr(canvas, "scratch", False) and canvas.ink is not None:
            return ""  # a canvas never saved, recording: its recorder is told the string, nothing reads the rest
        memo = getattr(canvas, "text_memo", None)
        if memo is None or type(text) is not str:  # (a shaped string carries its own positions)
            return super()._formatText(text)
        key = (self._fontname, self._fontsize, self._leading, self._curSubset, text)
        hit = memo.get(key)
        if hit is not None:
            self._curSubset = hit[1]
            return hit[0]
        code = super()._formatText(text)
        if getFont(self._fontname)._dynamicFont:  # TrueType: the operators above, nothing else
            if len(memo) >= TEXT_MEMO:
                memo.clear()
            memo[key] = (code, self._curSubset)
        return code


def at_cursor(m: tuple, x, y) -> tuple:
    """The text matrix `m` moved to the cursor (x, y), given in the space `m` was set in."""
    a, b, c, d, e, f = m
    dx, dy = x - e, y - f  # the cursor, in text space
    return (a, b, c, d, a * dx + c * dy + e, b * dx + d * dy + f)


class InkTextObject(MemoTextObject):
    """A text object that remembers, in order, each colour it sets and each string it shows
    (font, size, text matrix), to be told to the recorder when the canvas draws it."""

    def __init__(self, canvas, x=0, y=0, direction=None):
        self.ink_events: list = []
        self.ink_matrix = (1.0, 0.0, 0.0, 1.0, float(x), float(y))
        super().__init__(canvas, x, y, direction=direction)

    def setTextOrigin(self, x, y):
        super().setTextOrigin(x, y)
        self.ink_matrix = (1.0, 0.0, 0.0, 1.0, float(x), float(y))

    def setTextTransform(self, a, b, c, d, e, f):
        super().setTextTransform(a, b, c, d, e, f)
        self.ink_matrix = (a, b, c, d, e, f)

    def setFillColor(self, aColor, alpha=None):
        super().setFillColor(aColor, alpha)
        self.ink_events.append(("fill", color_of(aColor), alpha))

    def setFillGray(self, gray, alpha=None):
        super().setFillGray(gray, alpha)
        self.ink_events.append(("fill", flat_color(float(gray)), alpha))

    def setFillAlpha(self, a):
        super().setFillAlpha(a)
        self.ink_events.append(("alpha", a))

    def setTextRenderMode(self, mode):
        super().setTextRenderMode(mode)
        self.ink_events.append(("mode", mode))

    def _note(self, text) -> None:
        if text:
            # the text object's current font: ReportLab keeps it as the object's own state
            self.ink_events.append(("show", self._fontname, self._fontsize, str(text),
                                    at_cursor(self.ink_matrix, self.getX(), self.getY())))

    def textOut(self, text):
        self._note(text)
        super().textOut(text)

    def placed_out(self, text: str) -> None:
        self.textOut(text)  # noted where the cursor is

    def textLine(self, text=""):
        self._note(text)
        super().textLine(text)
