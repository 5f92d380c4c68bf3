"""Rich text for cards and reference pages: inline icons, keyword styling, hyphenation,
and shrink-to-fit by binary search, cached per (text, box): in the process, and for a card
painter's fitter (`kept`) in the user's cache folder too, read by the next process with the same
fonts, words, icons and dictionary (keep_fits; render/base/templatecache.py).

Markup: `**bold**`, `*italic*`, `:icon-name:`, a blank line or `\\n` for a new paragraph.
Words named by the pack's keywords (status effects, action types) are styled wherever
they appear. We lay text out ourselves rather than with Paragraph: card text is short,
and owning the line breaker makes icons sit exactly on the baseline and keeps the
render loop cheap.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
from typing import NamedTuple

import pyphen
from reportlab.pdfbase.pdfmetrics import getAscent, getDescent, getFont, stringWidth

from generator.core.bounded import BoundedCache
from generator.render.base import templatecache
from generator.render.base.colors import hex_color
from generator.render.base.drawn import flat_color
from generator.render.base.fonts import BOLD, BOLD_ITALIC, DISPLAY, ITALIC, REGULAR, register_fonts
from generator.render.base.hyphenation import hyphenator
from generator.render.base.recording import formatted
from generator.render.base.scripts import has_rtl, rtl_available, rtl_text, visual_words
from generator.render.base.textstyle import Run, TextStyler

ICON_SCALE = 0.95  # icon height relative to the font size
KEYWORD_COLOR = "#7a1f1f"


def hyphenation_language(lang: str) -> str:
    """The pyphen dictionary of a pack's language (game.yaml `language:`, or the language it was
    loaded in): `en` is British English, as the shipped packs are written; `de` German."""
    if lang == "en":
        return "en_GB"
    return pyphen.language_fallback(lang.replace("-", "_")) or lang


class FitError(Exception):
    """Text that cannot fit its box even at the minimum size."""

    def __init__(self, needed_lines: int, size: float, overflow_pt: float):
        self.needed_lines = needed_lines
        self.size = size
        self.overflow_pt = overflow_pt
        super().__init__(f"text does not fit at {size:g} pt (over by {overflow_pt:.1f} pt)")


# Lines and layouts are named tuples rather than frozen dataclasses: a card's text makes
# hundreds of them, and a tuple is made about three times faster (immutable all the same).
class PlacedRun(NamedTuple):
    kind: str
    value: str
    font: str
    color: str | None
    x: float  # offset from the line start, points
    width: float


class Line(NamedTuple):
    runs: tuple[PlacedRun, ...]
    width: float
    paragraph_end: bool


class Layout(NamedTuple):
    size: float
    leading: float
    lines: tuple[Line, ...]
    height: float


class TextFitter:
    """Lays out and fits text; one per build, so its cache never outlives the pack it serves."""

    def __init__(self, keywords: list[str], lang: str = "en_GB", keyword_color: str = KEYWORD_COLOR,
                 fonts: dict | None = None, icons: list[str] | None = None, kept: bool = False,
                 parsed: int = 256):
        register_fonts()
        fonts = fonts or {}  # a pack's own TTFs by style, already registered
        self.family = {REGULAR: fonts.get("regular", REGULAR), BOLD: fonts.get("bold", BOLD),
                       ITALIC: fonts.get("italic", ITALIC), BOLD_ITALIC: fonts.get("bold-italic", BOLD_ITALIC)}
        self.family[DISPLAY] = fonts.get("display", self.family[BOLD])  # titles: the display face, else bold
        self.regular = self.family[REGULAR]
        self.styler = TextStyler(keywords, icons)
        # the dictionary is read when a word first needs breaking (some 0.07 s of CPU; many decks never do)
        self._lang = lang if lang in pyphen.LANGUAGES else None
        self._hyphenator: pyphen.Pyphen | None = None
        self.keyword_color = keyword_color
        self.cache: dict = BoundedCache()
        self._widths: dict = {}  # grows with the vocabulary, not with the deck
        self._parsed: dict = BoundedCache(parsed)  # texts' words: `parsed` texts, the last met
        # `kept`: fits are read from, and written to, the user's cache folder (keep_fits)
        self._keeps = kept
        self._kept: dict | None = None  # what a process fitted before: read at the first fit
        self._fitted: dict = {}  # (text, box, sizes...) -> plain fit, made or read by this one (what keep_fits writes)

    def read_hyphenation(self) -> None:
        """Read the language's hyphenation dictionary now (a process keeps it: hyphenation.py)
        rather than when a word first needs breaking; not when an earlier process kept this
        fitter's fits (`kept`: their file is there), with which a word is broken again only in a
        text not fitted before, so the dictionary waits for one (Boss Fight's kit with its fits
        kept breaks none: 3 ms of its parent's, which read it for the cards worker)."""
        if self._lang is None:
            return
        if self._keeps and (key := self.kept_key()) is not None and templatecache.has(key):
            return
        hyphenator(self._lang)

    # ---- measuring ------------------------------------------------------------------
    # Widths scale linearly with size, so each (font, string) is measured once at 1 pt.
    def unit_width(self, font: str, text: str) -> float:
        key = (font, text)
        w = self._widths.get(key)
        if w is None:
            w = self._widths[key] = stringWidth(text, font, 1.0)
        return w

    def run_width(self, run: Run, size: float) -> float:
        if run.kind == "icon":
            return size * (ICON_SCALE + 0.08)
        return self.unit_width(self.family[run.style.font], run.value) * size

    def word_width(self, word: list[Run], size: float) -> float:
        return sum(self.run_width(r, size) for r in word)

    def parsed(self, text: str, font: str = "regular") -> list[list[list[Run]]]:
        return self._parse(text, font)[0]

    def _parse(self, text: str, font: str) -> tuple[list, list]:
        """The paragraphs of words, and per word its width at 1 pt when it is one run of text
        (most words; width at a size = that times the size, the same float word_width gives),
        else None."""
        hit = self._parsed.get((text, font))
        if hit is None:
            paragraphs = self.styler.paragraphs(text, font)
            units = [[self.unit_width(self.family[w[0].style.font], w[0].value)
                      if len(w) == 1 and w[0].kind == "text" else None for w in para] for para in paragraphs]
            hit = self._parsed[(text, font)] = (paragraphs, units)
        return hit

    # ---- layout ---------------------------------------------------------------------
    def layout(self, text: str, width: float, size: float, leading_ratio: float = 1.18,
               hyphenate: bool = True, font: str = "regular") -> Layout:
        return self._placed(text, self._break(text, width, size, hyphenate, font), size, leading_ratio)

    def _break(self, text: str, width: float, size: float, hyphenate: bool, font: str) -> list:
        """Line breaking alone: rows of (words with their widths, paragraph end). fit() tries
        several sizes on rows and places the runs (_placed) of the one it keeps."""
        space = self.unit_width(self.regular, " ") * size
        rows: list = []
        paragraphs, units = self._parse(text, font)
        for para, para_units in zip(paragraphs, units):
            current: list[tuple[list[Run], float]] = []
            used = 0.0
            stack = list(zip(reversed(para), reversed(para_units)))  # the next word last
            while stack:
                word, unit = stack.pop()
                w = unit * size if unit is not None else self.word_width(word, size)
                gap = space if current else 0.0
                if used + gap + w <= width + 1e-6:
                    current.append((word, w))
                    used += gap + w
                    continue
                room = width - used - gap
                split = self._hyphenate(word, room, size) if hyphenate else None
                if split is None and not current:
                    split = self._force_split(word, width, size)
                    if split is None:  # a lone icon wider than the box: keep it; fit() rejects the size
                        rows.append(([(word, w)], False))
                        continue
                if split is not None:
                    head, tail = split
                    current.append((head, self.word_width(head, size)))
                    stack.append((tail, None))
                rows.append((current, False))
                current, used = [], 0.0
                if split is None:
                    stack.append((word, unit))
            rows.append((current, True))
        return rows

    @staticmethod
    def _height(rows: list, size: float, leading_ratio: float) -> tuple[float, float]:
        """The leading and the height of rows (or lines): a paragraph's end adds a gap."""
        leading = size * leading_ratio
        gaps = sum(1 for row in rows[:-1] if row[-1]) * size * 0.35
        return leading, (len(rows) * leading + gaps if rows else 0.0)

    def _placed(self, text: str, rows: list, size: float, leading_ratio: float) -> Layout:
        space = self.unit_width(self.regular, " ") * size
        rtl = has_rtl(text)  # else no line needs the bidi reorder (its words are pieces of the text)
        lines = tuple(self._line(words, size, space, end, rtl) for words, end in rows)
        leading, height = self._height(rows, size, leading_ratio)
        return Layout(size, leading, lines, height)

    def _row_width(self, words, size: float, space: float) -> float:
        """A left-to-right row's width: _line's `x` at its end, added up in the same order
        (so the same float) without placing runs."""
        x = 0.0
        for i, (word, word_w) in enumerate(words):
            if i:
                x += space
            if len(word) == 1 and word_w:
                x += word_w
            else:
                for run in word:
                    x += self.run_width(run, size)
        return x

    def _line(self, words, size, space, paragraph_end, rtl: bool = True) -> Line:
        runs = []
        x = 0.0
        if rtl:
            ordered = visual_words(words, lambda item: "".join(r.value for r in item[0] if r.kind == "text"))
        else:
            ordered = [(item, False) for item in words]
        for i, ((word, word_w), rtl) in enumerate(ordered):
            if rtl:  # a right-to-left word: its runs and their characters in visual order
                word = [Run(r.kind, rtl_text(r.value) if r.kind == "text" else r.value, r.style)
                        for r in reversed(word)]
            if i:
                x += space
            single = len(word) == 1 and word_w  # a one-run word was measured already: the same float
            for run in word:
                rw = word_w if single else self.run_width(run, size)
                color = self.keyword_color if run.style.keyword else None
                runs.append(PlacedRun(run.kind, run.value, self.family[run.style.font], color, x, rw))
                x += rw
        return Line(tuple(runs), x, paragraph_end)

    def _hyphenate(self, word: list[Run], room: float, size: float):
        """Split a one-run word at a hyphenation point so that `head-` fits in `room`."""
        if self._lang is None or len(word) != 1 or word[0].kind != "text":
            return None
        run = word[0]
        text = run.value
        if len(text) < 6 or room < size * 2:
            return None
        if self._hyphenator is None:
            self._hyphenator = hyphenator(self._lang)  # its patterns parsed as words need them
        core = text.rstrip(".,;:!?)")
        for pos in sorted(self._hyphenator.positions(core), reverse=True):
            if pos < 2 or len(core) - pos < 3:
                continue
            head = Run("text", text[:pos] + "-", run.style)
            if self.run_width(head, size) <= room:
                return [head], [Run("text", text[pos:], run.style)]
        return None

    def _force_split(self, word: list[Run], width: float, size: float):
        """A word wider than the whole line (a URL, a long name): break it where it must."""
        if len(word) == 1 and word[0].kind == "text" and len(word[0].value) > 1:
            run = word[0]
            for cut in range(len(run.value) - 1, 0, -1):
                head = Run("text", run.value[:cut], run.style)
                if self.run_width(head, size) <= width:
                    return [head], [Run("text", run.value[cut:], run.style)]
        if len(word) > 1:
            return word[:1], word[1:]
        return None

    def _single_line(self, text, width, height, size, leading_ratio, font) -> Layout | None:
        paragraphs, units = self._parse(text, font)
        if len(paragraphs) != 1 or size * leading_ratio > height + 1e-6:
            return None
        words = paragraphs[0]
        space = self.unit_width(self.regular, " ") * size
        total: float = 0
        limit = width + 1e-6
        measured = []
        for word, unit in zip(words, units[0]):
            w = unit * size if unit is not None else self.word_width(word, size)
            measured.append((word, w))
            total += w
            if total > limit:  # longer still with the rest and the spaces: not one line
                return None
        total += space * (len(words) - 1)
        if total > limit:
            return None
        line = self._line(measured, size, space, True, has_rtl(text))
        return Layout(size, size * leading_ratio, (line,), size * leading_ratio)

    # ---- fitting --------------------------------------------------------------------
    def fit(self, text: str, width: float, height: float, max_size: float, min_size: float,
            leading_ratio: float = 1.18, hyphenate: bool = True, font: str = "regular") -> Layout:
        """The largest size (in 0.25 pt steps) whose layout fits the box; FitError if none."""
        key = (text, round(width, 3), round(height, 3), max_size, min_size, leading_ratio, hyphenate, font)
        hit = self.cache.get(key)
        if hit is None and self._keeps:  # the exact box: a kept fit is what this one would be
            exact = (text, width, height, max_size, min_size, leading_ratio, hyphenate, font)
            kept = self._fitted.get(exact) or self._kept_fits().get(exact)  # (one the bounded cache let go)
            hit = unpacked(kept) if kept is not None else None
            if hit is None:
                hit = self._fitted_now(text, width, height, max_size, min_size, leading_ratio, hyphenate, font)
                kept = packed(hit)
            self.cache[key] = hit
            if len(self._fitted) < MAX_KEPT_FITS:
                self._fitted[exact] = kept
        elif hit is None:
            hit = self.cache[key] = self._fitted_now(text, width, height, max_size, min_size, leading_ratio,
                                                     hyphenate, font)
        if isinstance(hit, FitError):
            raise hit
        return hit

    def _fitted_now(self, text: str, width: float, height: float, max_size: float, min_size: float,
                    leading_ratio: float, hyphenate: bool, font: str) -> Layout | FitError:
        single = self._single_line(text, width, height, max_size, leading_ratio, font)
        if single is not None:  # titles, type lines, numbers: one plain line at full size
            return single
        rtl = has_rtl(text)

        def fits(size):
            """The rows at this size if they fit the box, else None."""
            rows = self._break(text, width, size, hyphenate, font)
            if self._height(rows, size, leading_ratio)[1] > height + 1e-6:
                return None
            if rtl:  # a line's words are reordered before they are placed: measure the placed lines
                widths = [ln.width for ln in self._placed(text, rows, size, leading_ratio).lines]
            else:
                space = self.unit_width(self.regular, " ") * size
                widths = [self._row_width(words, size, space) for words, _ in rows]
            return rows if all(w <= width + 1e-6 for w in widths) else None

        best, best_size = fits(max_size), max_size
        if best is None:  # most text fits at full size; search only when it does not
            lo, hi = 0, int(round((max_size - min_size) / 0.25)) - 1
            while lo <= hi:  # sizes min_size + k * 0.25
                mid = (lo + hi) // 2
                rows = fits(min_size + mid * 0.25)
                if rows is not None:
                    best, best_size, lo = rows, min_size + mid * 0.25, mid + 1
                else:
                    hi = mid - 1
        if best is None:
            rows = self._break(text, width, min_size, hyphenate, font)
            return FitError(len(rows), min_size, self._height(rows, min_size, leading_ratio)[1] - height)
        return self._placed(text, best, best_size, leading_ratio)

    # ---- fits kept between processes --------------------------------------------------
    # A kept fit is what fit() gave for the same text and box with the same fonts (their files'
    # size and mtime), words, icons, hyphenation dictionary and code: the same floats, marshalled.
    def _kept_fits(self) -> dict:
        if self._kept is None:
            self._kept = {}
            key = self.kept_key()
            if key is None:
                return self._kept
            payload = templatecache.load(key, _KEPT_FORM)
            try:
                kept = marshal.loads(payload) if payload is not None else None
            except (EOFError, ValueError, TypeError):
                kept = None
            if isinstance(kept, dict):
                self._kept = kept
        return self._kept

    def kept_key(self) -> str | None:
        """The name of this fitter's file: everything a fit depends on besides its arguments
        (None: a font not read from a file, which nothing names)."""
        files = []
        for name in sorted(set(self.family.values())):
            filename = getattr(getattr(getFont(name), "face", None), "filename", None)
            if not isinstance(filename, str):
                return None
            st = os.stat(filename)
            files.append((name, filename, st.st_size, st.st_mtime_ns))
        dictionary = pyphen.LANGUAGES.get(pyphen.language_fallback(self._lang)) if self._lang else None
        read = os.stat(dictionary) if dictionary else None
        what = repr(("fits", files, self.regular, sorted(self.family.items()), self._lang, dictionary,
                     (read.st_size, read.st_mtime_ns) if read else None, self.styler.keywords, sorted(self.styler.icons),
                     self.keyword_color, rtl_available()))
        return hashlib.sha256(templatecache.code_fingerprint() + what.encode("utf-8", "surrogatepass")).hexdigest()

    def keep_fits(self) -> None:
        """Write the fits this fitter made, with those it read or found kept (another part's,
        another command's; up to MAX_KEPT_FITS, past it its own alone), for the next process with
        the same fonts, words and language (a fitter made with `kept`; nothing when it made none)."""
        if not self._keeps or self._kept is None or not self._fitted or self._fitted.keys() <= self._kept.keys():
            return  # nothing fitted, or every fit read: the file says it all already
        key = self.kept_key()
        if key is not None:
            both = {**self._kept, **self._fitted}
            templatecache.keep(key, _KEPT_FORM, marshal.dumps(both if len(both) <= MAX_KEPT_FITS else self._fitted))


_KEPT_FORM = b"pnp-fitted-1"
MAX_KEPT_FITS = 4096  # fits a file keeps (~1 MB; Boss Fight's faces 630): a deck of unique cards fits 3-4 a card


def packed(fit: Layout | FitError) -> tuple:
    """A fit as plain tuples (marshal writes no named tuple)."""
    if isinstance(fit, FitError):
        return ("error", fit.needed_lines, fit.size, fit.overflow_pt)
    return ("layout", fit.size, fit.leading, tuple((tuple(map(tuple, ln.runs)), ln.width, ln.paragraph_end)
                                                   for ln in fit.lines), fit.height)


def unpacked(kept) -> Layout | FitError | None:
    """packed's fit again (None: not one)."""
    try:
        if kept[0] == "error":
            _, lines, size, overflow = kept
            return FitError(lines, size, overflow)
        _, size, leading, lines, height = kept
        # the named tuples made as their own __new__ makes them, without its call (a kept rulebook
        # unpacks some 20,000 runs); _make checks each run's length
        make, new = PlacedRun._make, tuple.__new__
        return new(Layout, (size, leading, tuple([new(Line, (tuple(map(make, runs)), width, end))
                                                  for runs, width, end in lines]), height))
    except (TypeError, ValueError, IndexError):
        return None




@functools.lru_cache(maxsize=64)
def _space(font: str) -> float:
    return stringWidth(" ", font, 1.0)


@functools.lru_cache(maxsize=256)
def _ascent_descent(size: float) -> tuple[float, float]:
    """The built-in regular face's ascent and descent at a size (lines and icons sit on them)."""
    return getAscent(REGULAR, size), getDescent(REGULAR, size)


def draw_layout(canvas, icons, layout: Layout, x: float, top: float, width: float,
                align: str = "left", color: str = "#222222", valign_height: float | None = None,
                valign: str = "top", keyword_color: str | None = None) -> None:
    """Draw a fitted layout with its first line's top at `top` (points, y up); keywords in
    `keyword_color` when given (else the colour the fitter gave them)."""
    size = layout.size
    ascent, descent = _ascent_descent(size)
    y = top
    if valign_height is not None and valign != "top":
        spare = valign_height - layout.height
        y -= spare / 2 if valign == "middle" else spare
    # Every string is placed with setTextOrigin (the cursor textOut moves is not used); one text
    # object for the whole layout. While the layout checks record the drawing (render/base/
    # drawn.py), each string is noted here as it is placed, with its font, size and colour.
    ink = getattr(canvas, "ink", None)
    _draw_planned(canvas, icons, layout, _plan(layout, align, width, color, keyword_color), x, y, ascent, descent,
                  ink)


# A layout drawn again (each copy of a card, the same rules line on many cards): the operations
# of its text object, worked out once. The fitter keeps each Layout it made (TextFitter.cache),
# so the same object comes back; it is kept here with what the plan was made for.
_PLANS: dict = {}
_PLANS_KEPT = 256  # as many as the fitter keeps layouts (TextFitter.cache): the plans keep theirs alive
_TEXT, _FONT, _FILL = 0, 1, 2


def _plan(layout: Layout, align: str, width: float, color: str, keyword_color: str | None) -> tuple:
    """Per line: its offset, the text object's operations in order ((_TEXT, x, string),
    (_FONT, name), (_FILL, colour)), its icons (name, x) and how far the next line is down;
    the operations draw_layout's loop makes for it, strings of one style joined alike."""
    hit = _PLANS.get(id(layout))
    if hit is not None and hit[0] is layout and hit[1] == (align, width, color, keyword_color):
        return hit[2]
    size = layout.size
    base_color = hex_color(color)
    current_font = current_color = None
    lines = []
    for line in layout.lines:
        offset = 0.0
        if align == "center":
            offset = (width - line.width) / 2
        elif align == "right":
            offset = width - line.width
        ops: list = []
        icon_runs = []
        pending, pending_x, pending_end = "", 0.0, None
        for run in line.runs:
            if run.kind == "icon":
                icon_runs.append((run.value, run.x))
                continue
            col = (keyword_color or run.color) if run.color else color
            if pending and run.font == current_font and col == current_color and pending_end is not None \
                    and abs(run.x - pending_end - _space(run.font) * size) < 0.01:
                pending += " " + run.value
                pending_end = run.x + run.width
                continue
            if pending:
                ops.append((_TEXT, pending_x, pending))
            if run.font != current_font:
                ops.append((_FONT, run.font))
                current_font = run.font
            if col != current_color:
                ops.append((_FILL, hex_color(col) if col != color else base_color))
                current_color = col
            pending, pending_x, pending_end = run.value, run.x, run.x + run.width
        if pending:
            ops.append((_TEXT, pending_x, pending))
        lines.append((offset, tuple(ops), tuple(icon_runs), layout.leading + (size * 0.35 if line.paragraph_end else 0.0)))
    plan = tuple(lines)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[id(layout)] = (layout, (align, width, color, keyword_color), plan)
    return plan


def _draw_planned(canvas, icons, layout: Layout, plan: tuple, x: float, y: float, ascent: float,
                  descent: float, ink=None) -> None:
    """Draw a layout's plan with its first line's top at `y`; `ink`: the recorder to tell each
    string placed, with its font, size and colour."""
    size = layout.size
    origins: list[float] = []  # each string's origin, x and y, in order
    icon_calls = []
    for offset, ops, icon_runs, step in plan:
        baseline = y - ascent
        left = x + offset
        for op in ops:
            if op[0] == _TEXT:
                origins += (left + op[1], baseline)
        for name, run_x in icon_runs:
            icon_calls.append((name, left + run_x + size * 0.04, baseline + descent * 0.35, size * ICON_SCALE))
        y -= step
    # A RecordingCanvas keeps each plan's operators with the origins left out, made the first
    # time the plan is drawn on it: drawing it again (a card's copies) is one format of the
    # numbers, the same text the text object would write, once no alpha makes colours write `gs`.
    kept = getattr(canvas, "kept_text", None)
    if kept is not None and canvas.alpha_used:
        kept = None
    hit = kept.get(id(plan)) if kept is not None else None
    if ink is not None and canvas.scratch:
        pass  # a canvas never saved: its recorder is all that reads it (told below)
    elif hit is not None and hit[0] is plan:
        canvas.addLiteral(formatted(hit[1], origins))
    else:
        _draw_text_object(canvas, plan, size, origins, kept, ink is not None)
    if ink is not None:
        _note(ink, plan, size, origins)
    for name, ix, iy, isize in icon_calls:
        icons.draw(name, ix, iy, isize)


def _draw_text_object(canvas, plan: tuple, size: float, origins: list[float], kept: dict | None,
                      recording: bool) -> None:
    """The plan's strings at `origins` through one text object; `kept`: the canvas's kept plans,
    to keep this one's operators in; `recording`: the canvas records (the strings are noted by
    _note, not by the text object)."""
    text = canvas.beginText(noted=False) if recording else canvas.beginText()
    if kept is not None:
        text.origins = []
    show = getattr(text, "placed_out", text.textOut)  # each string is placed: no cursor to move
    at = 0
    for _offset, ops, _icons, _step in plan:
        for op in ops:
            if op[0] == _TEXT:
                text.setTextOrigin(origins[at], origins[at + 1])
                at += 2
                show(op[2])
            elif op[0] == _FONT:
                text.setFont(op[1], size)
            else:
                text.setFillColor(op[1])
    if kept is None:
        canvas.drawText(text)
        return
    code, template = text.kept(origins)
    canvas.addLiteral(code)  # what drawText writes for a text object that records nothing
    if template is not None:
        if len(kept) >= _PLANS_KEPT:
            kept.clear()
        kept[id(plan)] = (plan, template)


def _note(ink, plan: tuple, size: float, origins: list[float]) -> None:
    """Tell the recorder each string the plan places at `origins`, with its font, size and colour."""
    font = flat = None
    filled = False
    at = 0
    for _offset, ops, _icons, _step in plan:
        for op in ops:
            if op[0] == _TEXT:
                ink.text_at(font, size, op[2], origins[at], origins[at + 1], flat)
                at += 2
            elif op[0] == _FONT:
                font = op[1]
            else:
                flat = flat_color(op[1])
                filled = True
    if filled:
        ink.fill = flat  # a colour set inside the text outlives it, as in the PDF
