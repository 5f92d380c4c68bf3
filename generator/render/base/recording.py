"""A ReportLab canvas that tells a Recorder (render/base/drawn.py) what it paints.

Every drawing method the renderers use passes through here: when no recorder is set (most of
the time) it only draws; when one is, the geometry of what it drew goes to the recorder, read
from the call's own arguments and from ReportLab's public path object (the same numbers the
PDF gets). On a canvas that draws cards (`notes_forms`, set by the card painter), a form (an
icon, a card frame) is noted as it is defined, whether or not anything is being recorded, so
placing it later can say what it covers; elsewhere (maps, rulebook pages) only while recording.
"""

from __future__ import annotations

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.pdfgen.textobject import rtlSupport

from generator.render.base.drawn import (PATH_NUMBER, Box, Recorder, filled_bounds, flat_color, path_bounds, path_points,
                                        segment_bounds, summary)
from generator.render.base.textobjects import TEXT_MEMO, InkTextObject, MemoTextObject, at_cursor, color_of
from generator.render.base.operators import CIRCLE_TEXT, KnownPath, circle_numbers, dots_text, formatted
from generator.render.base.operators import LinePath as LinePath, left_out as left_out  # (where they were)
from generator.render.base.operators import place_form as place_form, polygon_path as polygon_path

PATH_MEMO = 4096  # paths whose bounds a canvas keeps (a deck's badges and boxes are a few dozen)
LINES_MEMO = 32  # sets of cut guides whose text a canvas keeps (a deck's sheets differ in their footer's width)


_RGB_CODES: dict = {}  # ((r, g, b), "rg" or "RG") -> the operator ReportLab writes for it (RecordingCanvas._rgb_code)


def _path(code: str, stroke, fill) -> list[str]:
    ops = {(0, 0): "n", (1, 0): "S", (0, 1): "f", (1, 1): "B"}
    return [code, ops[bool(stroke), bool(fill)]]


def _curves_box(ops: list[str]) -> Box:
    """What `filled_bounds` gives for a path of one move and its lines and curves (`n` first),
    each entry its numbers and then its operator: the bounds of all its points."""
    numbers = [float(v) for v in PATH_NUMBER.findall(" ".join(ops))]
    xs, ys = numbers[0::2], numbers[1::2]
    return (min(xs), min(ys), max(xs), max(ys))


class RecordingCanvas(rl_canvas.Canvas):
    """ReportLab's canvas, telling `ink` (the Recorder on top of `ink_stack`) what it paints."""

    ink: Recorder | None = None
    notes_forms = False  # note every form as it is defined (render/cards/faces.py's CardPainter sets it)
    # a canvas that is never saved (`pnp validate`'s faces, the layout checks' own drawing): what it
    # draws matters to its recorders alone, so text drawn while one records writes no operators
    # (a planned text's strings are told to the recorder directly, render/base/text.py; a text
    # object's, from its own notes: InkTextObject)
    scratch = False

    def __init__(self, *args, **kwargs):
        self.ink_stack: list = []
        self.form_noted: list[bool | None] = []  # of each form being defined: is it noted (None: covered)
        self.form_ink: dict = {}  # form name -> the bounds of what it holds
        self.path_boxes: dict = {}  # a drawing call's path (by its arguments) -> its bounds
        self.path_texts: dict = {}  # a shape's path text, by its numbers (shape_path)
        self.text_memo: dict = {}  # a string's text operators, per font state (MemoTextObject)
        self.lines_memo: dict = {}  # the text of separate lines, by their segments
        self.widths: dict = {}  # a string's width, by its text, font and size (a map's labels repeat: _string)
        # a planned text's operators with its origins left out (render/base/text.py), while no
        # fill alpha but 1 was ever set: a text object's colour then writes no `gs` of its own
        self.kept_text: dict = {}
        self.alpha_used = False
        super().__init__(*args, **kwargs)

    # ---- recording ----------------------------------------------------------------------
    def record(self, recorder: Recorder) -> Recorder:
        """Send what is drawn from now on to `recorder`, until `stop_recording`."""
        self.ink_stack.append(recorder)
        self.ink = recorder
        return recorder

    def stop_recording(self) -> Recorder:
        recorder = self.ink_stack.pop()
        self.ink = self.ink_stack[-1] if self.ink_stack else None
        return recorder

    def beginForm(self, name, lowerx=0, lowery=0, upperx=None, uppery=None, covers=None):
        """ReportLab's; `covers`: a path that what the form holds covers every point of and
        paints nothing outside (a map's terrain pattern: marks reaching past its cell on every
        side, clipped to it). A recorder that reads a form by the path it is placed within
        (PaintRecorder.forms_within) reads nothing more of such a form: what it holds is not
        noted (a pattern's hundreds of marks), and it covers that path's bounds, what noting it
        and cutting its box to the path would give."""
        super().beginForm(name, lowerx, lowery, upperx, uppery)
        if covers is not None and self.ink is not None and self.ink.outlines and \
                getattr(self.ink, "forms_within", False):
            self.form_ink[name] = filled_bounds(_path(covers.getCode(), 0, 1))
            self.form_noted.append(None)  # nothing noted until it ends
            self.ink_stack.append(None)
            self.ink = None
            return
        # a map's pattern forms hold thousands of dots that nothing checks: noted only on a
        # card canvas, or inside a drawing being recorded
        noted = self.notes_forms or self.ink is not None
        self.form_noted.append(noted)
        if noted:
            recorder = Recorder()
            recorder.form_name = name
            self.record(recorder)

    def endForm(self, **extra_attributes):
        noted = self.form_noted.pop()
        if not noted:
            if noted is None:  # covered: the recording it suspended goes on
                self.stop_recording()
            super().endForm(**extra_attributes)
            return
        recorder = self.stop_recording()
        super().endForm(**extra_attributes)
        self.form_ink[recorder.form_name] = summary(recorder)

    def showPage(self):
        super().showPage()
        if self.ink is not None and self.ink.outlines:
            self.ink.new_page()

    # ---- graphics state -----------------------------------------------------------------
    def saveState(self):
        super().saveState()
        if self.ink is not None:
            self.ink.save()

    def restoreState(self):
        super().restoreState()
        if self.ink is not None:
            self.ink.restore()

    def transform(self, a, b, c, d, e, f):
        super().transform(a, b, c, d, e, f)
        if self.ink is not None:
            self.ink.transform((a, b, c, d, e, f))

    def setFillColor(self, aColor, alpha=None):
        code = self._rgb_code(aColor, "rg")
        if code is None:
            super().setFillColor(aColor, alpha)
        else:  # what ReportLab does for an RGB colour, its operator kept
            self._fillColorObj = aColor
            self._code.append(code)
            if alpha is not None:
                self.setFillAlpha(alpha)
            elif getattr(aColor, "alpha", None) is not None:
                self.setFillAlpha(aColor.alpha)
        if self.ink is not None:
            self.ink.fill = color_of(aColor)
            if alpha is not None:
                self.ink.alpha = alpha

    def setStrokeColor(self, aColor, alpha=None):
        code = self._rgb_code(aColor, "RG")
        if code is None:
            super().setStrokeColor(aColor, alpha)
            return
        self._strokeColorObj = aColor  # what ReportLab does for an RGB colour, its operator kept
        self._code.append(code)
        if alpha is not None:
            self.setStrokeAlpha(alpha)
        elif getattr(aColor, "alpha", None) is not None:
            self.setStrokeAlpha(aColor.alpha)

    def _rgb_code(self, color, operator: str) -> str | None:
        """The operator setFillColor (`rg`) or setStrokeColor (`RG`) writes for an RGB colour (a
        Color or an (r, g, b) tuple), kept by its channels (a map or a sheet of pieces sets a few
        dozen colours thousands of times); None for any other colour, or on a canvas that
        converts its colours (ReportLab's enforceColorSpace)."""
        kind = type(color)
        if kind is Color:
            rgb = (color.red, color.green, color.blue)
        elif kind is tuple and len(color) == 3:
            rgb = color
        else:
            return None
        if self._enforceColorSpace is not None:
            return None
        key = (rgb, operator)
        code = _RGB_CODES.get(key)
        if code is None:
            if len(_RGB_CODES) >= 4096:
                _RGB_CODES.clear()
            code = _RGB_CODES[key] = f"{fp_str(rgb)} {operator}"
        return code

    def setFillGray(self, gray, alpha=None):
        super().setFillGray(gray, alpha)
        if self.ink is not None:
            self.ink.fill = flat_color(float(gray))
            if alpha is not None:
                self.ink.alpha = alpha

    def setFillAlpha(self, a):
        super().setFillAlpha(a)  # also what setFillColor and setFillGray call for a colour's alpha
        if a != 1:
            self.alpha_used = True
        if self.ink is not None:
            self.ink.alpha = a

    def setLineWidth(self, width):
        super().setLineWidth(width)
        if self.ink is not None:
            self.ink.line_width = width

    # ---- painting -----------------------------------------------------------------------
    def _paint(self, key: tuple, make_path, stroke, fill, filled: Box | None = None) -> None:
        """Tell the recorder about a path painted by a drawing call: its bounds come from the
        path ReportLab writes (`make_path()`, a public PDFPathObject), kept by the call's
        arguments, since cards draw the same badges and boxes again and again (`filled`: what
        filled_bounds gives for it, known already)."""
        ink = self.ink
        assert ink is not None
        if ink.outlines:
            ink.paint_outline(key, make_path, bool(fill))
            return
        if filled is not None and not stroke:  # its bounds known already: nothing to make or keep
            ink.paint_box(filled, False, bool(fill))
            return
        key = key + (bool(stroke), bool(fill), ink.line_width)
        box = self.path_boxes.get(key, False)
        if box is False:
            if len(self.path_boxes) >= PATH_MEMO:
                self.path_boxes.clear()
            code = _path(make_path().getCode(), stroke, fill)
            if stroke and ink.line_width:
                box = None
                for points, s, _f in path_points(code):
                    box = path_bounds(points, s, ink.line_width)
            else:  # filled only (an icon's outline, a badge): the bounds of its points
                box = filled if filled is not None else filled_bounds(code)
            self.path_boxes[key] = box
        ink.paint_box(box, bool(stroke), bool(fill))

    def separate_lines(self, segments) -> None:
        """Each (x1, y1, x2, y2) drawn as `line` draws it (its own `n … m … l S`: the same PDF
        text), with one `fp_str` call for all the numbers when nothing is recording."""
        if self.ink is not None or not segments:
            for x1, y1, x2, y2 in segments:
                self.line(x1, y1, x2, y2)
            return
        key = tuple(segments)
        text = self.lines_memo.get(key)
        if text is None:  # every full sheet of a deck draws the same guides, twice (halo, then line)
            if len(self.lines_memo) >= LINES_MEMO:
                self.lines_memo.clear()
            text = self.lines_memo[key] = formatted("\n".join(["n %s %s m %s %s l S"] * len(segments)),
                                                    [v for segment in segments for v in segment])
        self.addLiteral(text)

    def line(self, x1, y1, x2, y2):
        super().line(x1, y1, x2, y2)
        ink = self.ink
        if ink is None:
            return
        code = self._code[-1][:-2]  # what ReportLab wrote (`n … m … l S`), without its `S`
        if ink.outlines or not ink.line_width:
            self._paint(("line", x1, y1, x2, y2), lambda: PDFPathObject(code=[code]), 1, 0)
            return
        # its two points as the text gives them (what path_points reads from it), bounded at once:
        # a map's hatched terrain draws thousands of lines, each once
        _n, a, b, _m, c, d, _l = code.split()
        ink.paint_box(segment_bounds(float(a), float(b), float(c), float(d), ink.line_width), True, False)

    def lines(self, linelist):
        super().lines(linelist)
        if self.ink is not None:
            for x1, y1, x2, y2 in linelist:
                p = PDFPathObject()
                p.moveTo(x1, y1)
                p.lineTo(x2, y2)
                self.ink.run(_path(p.getCode(), 1, 0))

    def bezier(self, x1, y1, x2, y2, x3, y3, x4, y4):
        super().bezier(x1, y1, x2, y2, x3, y3, x4, y4)
        if self.ink is not None:
            def path():
                p = PDFPathObject()
                p.moveTo(x1, y1)
                p.curveTo(x2, y2, x3, y3, x4, y4)
                return p
            self._paint(("bezier", x1, y1, x2, y2, x3, y3, x4, y4), path, 1, 0)

    def arc(self, x1, y1, x2, y2, startAng=0, extent=90):
        super().arc(x1, y1, x2, y2, startAng, extent)
        if self.ink is not None:
            def path():
                p = PDFPathObject()
                p.arc(x1, y1, x2, y2, startAng, extent)
                return p
            self._paint(("arc", x1, y1, x2, y2, startAng, extent), path, 1, 0)

    def rect(self, x, y, width, height, stroke=1, fill=0):
        super().rect(x, y, width, height, stroke, fill)
        if self.ink is not None:
            def path():
                p = PDFPathObject()
                p.rect(x, y, width, height)
                return p
            self._paint(("rect", x, y, width, height), path, stroke, fill)

    def circle(self, x_cen, y_cen, r, stroke=1, fill=0):
        """ReportLab's; while nothing records (a pattern's dots in its form) or a recorder that
        keeps outlines does (a feature's disc on a map page), the same text written with one
        `fp_str` call for its 26 numbers (a map's dots are thousands), and that recorder given
        the path's outline as the text gives it (as ellipse gives it)."""
        ink = self.ink
        if ink is not None and not ink.outlines:
            super().circle(x_cen, y_cen, r, stroke, fill)
            return
        numbers = fp_str(*circle_numbers(x_cen, y_cen, r)).split(" ")
        self.addLiteral(CIRCLE_TEXT % tuple(numbers) + rl_canvas.PATH_OPS[stroke, fill, self._fillMode])
        if ink is not None:  # what ellipse tells it (canvas.circle draws an ellipse)
            x1, y1, x2, y2 = x_cen - r, y_cen - r, x_cen + r, y_cen + r
            self._paint(("ellipse", x1, y1, x2, y2), lambda: KnownPath(numbers), stroke, fill)

    def dots(self, centres, r, stroke=0, fill=1) -> None:
        """`circle(x, y, r, stroke, fill)` for each (x, y) of `centres` (a terrain pattern's dots,
        hundreds in a form): while nothing records, the same text, written at once, each
        different x or y of a centre formatted once (operators.dots_text)."""
        if self.ink is not None:
            for x, y in centres:
                self.circle(x, y, r, stroke, fill)
        elif centres:
            self.addLiteral(dots_text(centres, r, rl_canvas.PATH_OPS[stroke, fill, self._fillMode]))

    def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):
        start = len(self._code)
        super().ellipse(x1, y1, x2, y2, stroke, fill)
        if self.ink is not None:
            # the path as ReportLab wrote it (`n`, a move, four curves), before its painting
            # operator: a map's terrain pattern draws thousands of dots, each made once
            ops = self._code[start:-1]
            filled = _curves_box(ops) if fill and not stroke and not self.ink.outlines else None
            self._paint(("ellipse", x1, y1, x2, y2), lambda: PDFPathObject(code=ops), stroke, fill, filled)

    def wedge(self, x1, y1, x2, y2, startAng, extent, stroke=1, fill=0):
        super().wedge(x1, y1, x2, y2, startAng, extent, stroke, fill)
        if self.ink is not None:
            def path():
                p = PDFPathObject()
                p.moveTo(0.5 * (x1 + x2), 0.5 * (y1 + y2))
                p.arcTo(x1, y1, x2, y2, startAng, extent)
                p.close()
                return p
            self._paint(("wedge", x1, y1, x2, y2, startAng, extent), path, stroke, fill)

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        super().roundRect(x, y, width, height, radius, stroke, fill)
        if self.ink is not None:
            def path():
                p = PDFPathObject()
                p.roundRect(x, y, width, height, radius)
                return p
            self._paint(("roundRect", x, y, width, height, radius), path, stroke, fill)

    def drawPath(self, aPath, stroke=1, fill=0, fillMode=None):
        super().drawPath(aPath, stroke, fill, fillMode)
        ink = self.ink
        if ink is not None and (fill or not ink.outlines):  # (a PaintRecorder keeps only what is filled)
            self._paint((aPath.getCode(),), lambda: aPath, stroke, fill)

    def draw_path_text(self, code: str, bounds: Box | None = None, *, stroke: int, fill: int, fill_mode: int) -> None:
        """What `drawPath` writes and records for a path whose operators are `code` (its
        `getCode()`), for paths whose text is made once and kept (an icon's outline); `bounds`,
        when known: what `filled_bounds` reads back from it filled."""
        self.addLiteral(code)
        self.addLiteral(rl_canvas.PATH_OPS[stroke, fill, fill_mode])
        if self.ink is not None:
            self._paint((code,), lambda: PDFPathObject(code=[code]), stroke, fill, bounds if fill and not stroke else None)

    def clipPath(self, aPath, stroke=1, fill=0, fillMode=None):
        super().clipPath(aPath, stroke, fill, fillMode)
        if self.ink is not None and (stroke or fill):
            self._paint((aPath.getCode(),), lambda: aPath, stroke, fill)
        if self.ink is not None and self.ink.outlines:
            self.ink.clip((aPath.getCode(),), lambda: aPath)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, preserveAspectRatio=False,
                  anchor="c", anchorAtXY=False, showBoundary=False, extraReturn=None):
        if self.ink is None:
            return super().drawImage(image, x, y, width, height, mask, preserveAspectRatio, anchor, anchorAtXY,
                                     showBoundary, extraReturn)
        # where ReportLab put it (after fitting the aspect ratio, when asked): it fills in the keys given
        placed: dict = dict.fromkeys(("x", "y", "width", "height"), None)
        placed.update(extraReturn or {})
        size = super().drawImage(image, x, y, width, height, mask, preserveAspectRatio, anchor, anchorAtXY,
                                 showBoundary, placed)
        if extraReturn is not None:
            extraReturn.update({k: placed[k] for k in extraReturn})
        self.ink.paint_image((float(placed["width"]), 0.0, 0.0, float(placed["height"]), float(placed["x"]),
                              float(placed["y"])))
        return size

    def doForm(self, name, within=None):
        """Place form `name`; `within`: a path (in the current user space) that all the form
        paints lies inside (a map's pattern, clipped to its cell), which a PaintRecorder counts
        it on instead of the form's box."""
        super().doForm(name)
        ink = self.ink
        if ink is not None and within is not None and ink.outlines:
            ink.paint_form_within(self.form_ink.get(name), (within.getCode(),), lambda: within)
        elif ink is not None:
            ink.paint_form(self.form_ink.get(name))

    def shade(self, shading):
        super().shade(shading)
        if self.ink is not None:
            self.ink.paint_shading()

    # ---- text -------------------------------------------------------------------------
    def beginText(self, x=0, y=0, direction=None, noted=True):
        """ReportLab's text object; while recording, one that notes what it shows (`noted`
        False: the caller notes its strings itself, render/base/text.py's draw_layout)."""
        if self.ink is None or not noted:
            return MemoTextObject(self, x, y, direction=direction)
        return InkTextObject(self, x, y, direction=direction)

    # ---- a plain string, drawn without a text object -----------------------------------------
    def drawString(self, x, y, text, mode=None, charSpace=0, direction=None, wordSpace=None, shaping=False):
        if not self._string(x, y, text, 0.0, mode, charSpace, direction, wordSpace, shaping):
            super().drawString(x, y, text, mode, charSpace, direction, wordSpace, shaping)

    def drawCentredString(self, x, y, text, mode=None, charSpace=0, direction=None, wordSpace=None, shaping=False):
        if not self._string(x, y, text, 0.5, mode, charSpace, direction, wordSpace, shaping):
            super().drawCentredString(x, y, text, mode, charSpace, direction, wordSpace, shaping)

    def drawRightString(self, x, y, text, mode=None, charSpace=0, direction=None, wordSpace=None, shaping=False):
        if not self._string(x, y, text, 1.0, mode, charSpace, direction, wordSpace, shaping):
            super().drawRightString(x, y, text, mode, charSpace, direction, wordSpace, shaping)

    def _string(self, x, y, text, anchor: float, *options) -> bool:
        """What drawString (`anchor` 0), drawCentredString (0.5) or drawRightString (1) does for
        a plain string in a TrueType font, without the text object it makes (a map page shows
        thousands of labels): the same operators (`BT`, its origin, the string's operators as
        MemoTextObject keeps them, `T*`, `ET`), and the recorder told it where and how that text
        object would tell it (InkTextObject). On a page never saved, while it records, the
        recorder alone is told it. False, and nothing done, for a string set any other way (a
        mode, spacing, a direction, shaping, another font)."""
        ink = self.ink
        told_only = ink is not None and self.scratch
        if any(options) or rtlSupport or type(text) is not str or not self.bottomup or \
                not (told_only or getFont(self._fontname)._dynamicFont):
            return False
        if anchor:  # less the width as ReportLab measures it (bidiShapedText's), or half of it
            key = (text, self._fontname, self._fontsize)
            width = self.widths.get(key)
            if width is None:
                if len(self.widths) >= TEXT_MEMO:
                    self.widths.clear()
                width = self.widths[key] = stringWidth(text, self._fontname, self._fontsize)
            x = x - anchor * width
        if not told_only:
            self._code.append("BT 1 0 0 1 %s Tm %s T* ET" % (fp_str(x, y), self._string_code(text)))
        if text and ink is not None:
            ink.show(self._fontname, self._fontsize, text, at_cursor((1.0, 0.0, 0.0, 1.0, float(x), float(y)), x, y),
                     ink.fill if ink.alpha >= 1.0 else None)
        return True

    def _string_code(self, text: str) -> str:
        """The operators a new text object in the canvas's font writes for `text` (its font and
        subset, then `(…) Tj`), kept per document as MemoTextObject keeps them."""
        memo = self.text_memo
        hit = memo.get((self._fontname, self._fontsize, self._leading, -1, text)) if memo is not None else None
        return hit[0] if hit is not None else MemoTextObject(self)._formatText(text)

    def drawText(self, aTextObject):
        super().drawText(aTextObject)
        ink = self.ink
        if ink is not None and isinstance(aTextObject, InkTextObject):
            visible = True  # (a PaintRecorder leaves out invisible text, a marker for tools)
            for event in aTextObject.ink_events:
                if event[0] == "show":
                    _kind, font, size, text, matrix = event
                    if visible:
                        ink.show(font, size, text, matrix, ink.fill if ink.alpha >= 1.0 else None)
                elif event[0] == "mode":
                    visible = not ink.outlines or event[1] not in (3, 7)
                elif event[0] == "fill":
                    ink.fill = event[1]
                    if event[2] is not None:
                        ink.alpha = event[2]
                else:
                    ink.alpha = event[1]


def shape_path(canvas, shape: str, *numbers: float) -> PDFPathObject:
    """`canvas.beginPath()` with one shape drawn in it (`shape`: the path object's `rect` or
    `roundRect`, given `numbers`). A RecordingCanvas keeps the path's text by its numbers (the
    cards in one slot of every sheet clip alike): a path object holding that text as its one
    entry gives the same `getCode()`."""
    kept = getattr(canvas, "path_texts", None)
    if kept is None:
        path = canvas.beginPath()
        getattr(path, shape)(*numbers)
        return path
    key = (shape, *numbers)
    code = kept.get(key)
    if code is None:
        path = PDFPathObject()
        getattr(path, shape)(*numbers)
        code = path.getCode()
        if len(kept) >= PATH_MEMO:
            kept.clear()
        kept[key] = code
    return PDFPathObject(code=[code])
