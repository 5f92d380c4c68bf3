"""Flowables for the rulebook and the quick reference, built on our own rich text engine
(generator.render.text) so that rule text shows exactly the icons and keyword styling of
the cards: paragraphs that split by lines across columns, headings that carry a bookmark,
tables with rich cells, and the table of contents."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import getAscent, stringWidth
from generator.render.rulebook.platypus import Flowable, IndexingFlowable

from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.icons import IconSheet, known_icons
from generator.render.base.text import Layout, TextFitter, draw_layout
from generator.render.rulebook.kept import kept_text

ICON_RE = re.compile(r":([a-z0-9-]+):")


@dataclass(frozen=True)
class BookStyle:
    """Sizes in points and colours of one document; `scaled` shrinks it for the quick reference."""

    body: float = 9.2
    leading: float = 1.34
    h1: float = 24.0
    h2: float = 13.0
    h3: float = 10.4
    table: float = 8.0
    small: float = 7.5
    accent: str = "#7a1f1f"
    ink: str = "#222222"
    muted: str = "#6b6359"
    rule: str = "#cfc6b0"
    zebra: str = "#f7f3ea"

    @property
    def line(self) -> float:
        return self.body * self.leading

    def scaled(self, body: float) -> "BookStyle":
        k = body / self.body
        return replace(self, body=body, h1=self.h1 * k, h2=self.h2 * k, h3=self.h3 * k,
                       table=self.table * k, small=self.small * k)


class Book:
    """What every flowable of one document shares: the pack's text fitter, a layout cache,
    the style, and one icon sheet per canvas (multiBuild draws each pass on a new canvas).
    `custom` holds the pack's own icons (game.yaml `icons:`), drawn in prose as on its cards;
    `display` is the registered name of the face of titles and headings (the pack's display face,
    else the built-in bold)."""

    def __init__(self, keywords: list[str], style: BookStyle, custom: dict | None = None, display: str = BOLD,
                 lang: str = "en_GB"):
        self.custom = custom or {}
        self.icon_names = set(known_icons()) | set(self.custom)
        self.display = display
        # every text's words kept parsed: a table's cells are measured (words) long before they are
        # laid out, and a rulebook has some 1,400 texts (~2 MB)
        self.fitter = TextFitter(keywords, lang, icons=sorted(self.icon_names), fonts={"display": display},
                                 parsed=4096)
        self.style = style
        self._layouts: dict = {}
        self._unbroken: dict = {}  # per text and type: (its widest line, its layout) when no line broke
        self._words: dict = {}  # per text and size: what `words` found
        self.kept = kept_text(self.fitter)  # layouts and word widths kept between processes (rulebook/kept.py)

    def layout(self, text: str, width: float, size: float, leading: float, hyphenate: bool = True,
               font: str = "regular") -> Layout:
        key = (text, round(width, 2), size, leading, hyphenate, font)
        hit = self._layouts.get(key)
        if hit is None:
            hit = self._layouts[key] = self._unbroken_at(text, max(width, size * 2), size, leading, hyphenate, font)
        return hit

    def _unbroken_at(self, text: str, width: float, size: float, leading: float, hyphenate: bool,
                     font: str) -> Layout:
        """The text's layout at `width`. A text whose every paragraph took one line at some width is
        laid out the same at any width no narrower than its widest line (a table's cells, met again
        in columns of other widths): the line breaker starts a new line only where a word does not
        fit (render/base/text.py, TextFitter._break, which allows 1e-6 pt over), and hyphenates only
        there, so no word is moved or split. Such a layout is kept and given again."""
        kind = (text, size, leading, hyphenate, font)
        known = self._unbroken.get(kind)
        if known is not None and width >= known[0]:
            return known[1]
        lay = self.kept.layout(self.fitter, (text, width, size, leading, hyphenate, font))
        if known is None and all(line.paragraph_end for line in lay.lines):  # no paragraph broken (nor an icon too wide)
            self._unbroken[kind] = (max((line.width for line in lay.lines), default=0.0), lay)
        return lay

    def restyled(self, style: BookStyle) -> "Book":
        """This book in another style, sharing its text fitter and its layouts (keyed by size):
        the quick reference tries one size after another."""
        other = copy.copy(self)
        other.style = style
        return other

    def icons(self, canvas) -> IconSheet:
        sheet = getattr(canvas, "_pnp_icon_sheet", None)
        if sheet is None:
            sheet = IconSheet(canvas, self.custom)
            canvas._pnp_icon_sheet = sheet
        return sheet

    def plain(self, text: str) -> str:
        """Markup removed, for bookmarks and the table of contents."""
        text = ICON_RE.sub(lambda m: "" if m.group(1) in self.icon_names else m.group(0), text)
        return re.sub(r"\s+", " ", text.replace("**", "").replace("*", "")).strip()

    def words(self, text: str, size: float) -> tuple[float, float]:
        """(widest word, whole text on one line) in points: what a table column needs (kept: the
        Card List's cells repeat their values, and a table that does not fit is measured again)."""
        hit = self._words.get((text, size))
        if hit is None:
            hit = self._words[(text, size)] = self.kept.words_of((text, size), lambda: self._measured(text, size))
        return hit

    def _measured(self, text: str, size: float) -> tuple[float, float]:
        space = stringWidth(" ", REGULAR, size)
        widest = natural = 0.0
        for para in self.fitter.parsed(text):
            widths = [self.fitter.word_width(w, size) for w in para]
            widest = max([widest, *widths])
            natural = max(natural, sum(widths) + space * max(len(widths) - 1, 0))
        return widest, natural


def bold(text: str) -> str:
    text = text.replace("**", "")
    return f"**{text}**" if text.strip() else text


PARAGRAPH_GAP = 0.35  # below a paragraph's last line, times the size (as the text fitter lays it out)


def _heights(layout: Layout) -> list[float]:
    """The height each line takes, paragraph gaps included."""
    gap = layout.size * PARAGRAPH_GAP
    return [layout.leading + (gap if ln.paragraph_end and i < len(layout.lines) - 1 else 0.0)
            for i, ln in enumerate(layout.lines)]


class RichText(Flowable):
    """A paragraph of marked-up text (bold, italic, :icons:, keywords) that splits by lines,
    keeping at least two lines on each side of a column break. `bullet` hangs in the indent."""

    # what wrap gives, and leaves set (its lines, width and height), depends on the width alone:
    # balanced columns (columns.py) need not wrap it again at the width it was last wrapped at
    width_only = True

    def __init__(self, book: Book, text: str, size: float | None = None, *, color: str | None = None,
                 align: str = "left", indent: float = 0.0, bullet: str | None = None,
                 space_before: float = 0.0, space_after: float = 0.0, leading: float | None = None,
                 hyphenate: bool = True, bullet_color: str | None = None):
        super().__init__()
        self.book = book
        self.text = text
        self.size = size or book.style.body
        self.color = color or book.style.ink
        self.align = align
        self.indent = indent
        self.bullet = bullet
        self.bullet_color = bullet_color
        self.spaceBefore = space_before
        self.spaceAfter = space_after
        self.leading_ratio = leading or book.style.leading
        self.hyphenate = hyphenate
        self.font = "regular"  # a heading's is "display"
        self._fixed: Layout | None = None  # the lines of a split part
        self._layout: Layout | None = None
        self._wrapped_at = 0.0  # the width _layout was made for

    def _lay(self, width: float) -> Layout:
        if self._fixed is not None:
            return self._fixed
        return self.book.layout(self.text, width - self.indent, self.size, self.leading_ratio, self.hyphenate,
                                self.font)

    def wrap(self, aw, ah):
        if self._layout is None or aw != self._wrapped_at:  # wrapped again at its width (columns, tables): as it was
            self._layout = self._lay(aw)
            self._wrapped_at = aw
        self.width = aw
        self.height = self._layout.height
        return aw, self.height

    def split(self, aw, ah):
        lay = self._lay(aw)
        heights = _heights(lay)
        n, used = 0, 0.0
        for h in heights:
            if used + h > ah + 1e-6:
                break
            used += h
            n += 1
        n = min(n, len(heights) - 2)
        if n < 2:
            return []
        return [self._part(lay, 0, n), self._part(lay, n, len(heights))]

    def _part(self, lay: Layout, start: int, end: int) -> "RichText":
        part = RichText(self.book, self.text, self.size, color=self.color, align=self.align,
                        indent=self.indent, bullet=self.bullet if start == 0 else None,
                        space_before=self.spaceBefore if start == 0 else 0.0,
                        space_after=self.spaceAfter if end == len(lay.lines) else 0.0,
                        leading=self.leading_ratio, hyphenate=self.hyphenate, bullet_color=self.bullet_color)
        lines = lay.lines[start:end]
        sub = Layout(lay.size, lay.leading, lines, 0.0)
        part._fixed = Layout(lay.size, lay.leading, lines, sum(_heights(sub)))
        return part

    def always_fits(self, width: float, height: float) -> bool:
        """Whether columns `height` tall take this paragraph whatever its text and their width, so
        that a check need not lay it out (errors.check_story): it splits between any two of its lines
        keeping two on each side (split), so it can be refused only where four of its tallest lines
        (a line and a paragraph's gap) do not fit one column."""
        return self._fixed is None and 4 * self.size * (self.leading_ratio + PARAGRAPH_GAP) <= height

    def height_at_most(self) -> float:
        """The most this paragraph takes, laid out at any width that holds each of its words whole
        (a table cell: tables.column_widths), known without laying it out: a word that does not fit
        the rest of a line starts the next one, or its hyphenated tail does (no wider than the word),
        so each word ends at most one line, and each paragraph one more; no line is taller than the
        leading and a paragraph's gap."""
        paragraphs = self.book.fitter.parsed(self.text, self.font)
        lines = sum(len(words) for words in paragraphs) + len(paragraphs)
        return lines * self.size * (self.leading_ratio + PARAGRAPH_GAP)

    def draw(self):
        lay = self._layout or self._lay(self.width)
        c = self.canv
        draw_layout(c, self.book.icons(c), lay, self.indent, self.height, self.width - self.indent,
                    self.align, self.color)
        if self.bullet:
            size = self.size
            font = BOLD if self.bullet[0].isdigit() else REGULAR
            c.saveState()
            c.setFillColor(HexColor(self.bullet_color or self.book.style.accent))
            c.setFont(font, size)
            baseline = self.height - getAscent(REGULAR, size)
            c.drawRightString(self.indent - size * 0.45, baseline, self.bullet)
            c.restoreState()


class Heading(RichText):
    """A section heading: bookmarked (outline `level`, PDF destination `key`), listed in the
    table of contents when `toc`, and never left alone at the foot of a column."""

    def __init__(self, book: Book, text: str, size: float, *, level: int | None, key: str | None,
                 toc: bool = False, reserve: float = 0.0, color: str | None = None, rule: bool = False,
                 space_before: float = 0.0, space_after: float = 0.0):
        super().__init__(book, bold(text), size, color=color or book.style.accent, hyphenate=False,
                         space_before=space_before, space_after=space_after, leading=1.2)
        self.title = book.plain(text)
        self.width_only = False  # its wrap asks for room below it (`reserve`) too
        self.font = "display"
        self.level = level
        self.key = key
        self.toc = toc
        self.reserve = reserve
        self.rule = rule
        self.keep_with_next = True

    def wrap(self, aw, ah):
        w, h = super().wrap(aw, ah)
        if self.rule:
            self.height = h = h + 3.0
        if h + self.reserve > ah + 1e-6:
            return w, ah + 1  # not enough room for the heading and a few lines after it
        return w, h

    def split(self, aw, ah):
        return []

    def always_fits(self, width: float, height: float) -> bool:
        return False  # never split: a heading too tall for a column stops the layout

    def draw(self):
        super().draw()
        c = self.canv
        if self.rule:
            c.saveState()
            c.setStrokeColor(HexColor(self.book.style.rule))
            c.setLineWidth(0.6)
            c.line(0, 1.0, self.width, 1.0)
            c.restoreState()
        if self.key:
            c.bookmarkHorizontal(self.key, 0, self.height + self.size * 0.6)


class ChapterTitle(Flowable):
    """The head of a chapter or reference page, across the page: a small label ("Chapter 3"),
    the title (shrunk to one line if it can be), a rule."""

    def __init__(self, book: Book, title: str, label: str, key: str, toc_label: str = "",
                 space_before: float = 0.0):
        super().__init__()
        self.book = book
        self.text = title
        self.title = book.plain(title)
        self.label = label
        self.toc_label = toc_label
        self.key = key
        self.level = 0
        self.toc = True
        self.spaceBefore = space_before
        st = book.style
        self.label_size = st.h1 * 0.42
        self.below = st.body * 1.5

    def wrap(self, aw, ah):
        st = self.book.style
        self.width = aw
        try:
            self._lay = self.book.fitter.fit(bold(self.text), aw, st.h1 * 1.3, st.h1, st.h1 * 0.6, 1.1, False,
                                             font="display")
        except Exception:  # a very long title runs over two lines at the smallest size
            self._lay = self.book.layout(bold(self.text), aw, st.h1 * 0.6, 1.1, False, font="display")
        self.height = self.label_size * 1.6 + self._lay.height + st.h1 * 0.25 + self.below
        return aw, self.height

    def draw(self):
        c = self.canv
        st = self.book.style
        top = self.height
        c.saveState()
        c.setFillColor(HexColor(st.muted))
        c.setFont(BOLD, self.label_size)
        c.drawString(0, top - self.label_size, self.label.upper())
        title_top = top - self.label_size * 1.6
        draw_layout(c, self.book.icons(c), self._lay, 0, title_top, self.width, "left", st.accent)
        y = self.below
        c.setStrokeColor(HexColor(st.accent))
        c.setLineWidth(1.4)
        c.line(0, y, self.width * 0.22, y)
        c.setStrokeColor(HexColor(st.rule))
        c.setLineWidth(0.5)
        c.line(self.width * 0.22 + 4, y, self.width, y)
        c.restoreState()
        c.bookmarkHorizontal(self.key, 0, self.height + st.body)


class Rule(Flowable):
    def __init__(self, color: str, space: float = 4.0):
        super().__init__()
        self.color = color
        self.spaceBefore = self.spaceAfter = space

    def wrap(self, aw, ah):
        self.width = aw
        return aw, 0.6

    def draw(self):
        self.canv.setStrokeColor(HexColor(self.color))
        self.canv.setLineWidth(0.5)
        self.canv.line(0, 0.3, self.width, 0.3)


# ---- table of contents -----------------------------------------------------------------------


class Contents(IndexingFlowable):
    """The table of contents, from the headings of the previous pass (multiBuild repeats until
    the page numbers stop changing). Each entry links to its heading."""

    def __init__(self, book: Book, levels: int = 2):
        super().__init__()
        self.book = book
        self.levels = levels
        self._entries: list = []
        self._last: list = []

    def isIndexing(self):
        return 1

    def isSatisfied(self):
        return self._entries == self._last

    def expect(self, entries: list) -> None:
        """The entries the next pass is laid out with (their page numbers aside: see `settled`),
        known before any pass from the story (book.expected_contents)."""
        self._entries = list(entries)

    def settled(self) -> bool:
        """The next pass is laid out as the last one: the same entries at the same levels. A line's
        height does not depend on its page number, so the pages this pass found are those the next
        will find and print (columns.MeasureFirst)."""
        return [e[:2] + e[3:] for e in self._entries] == [e[:2] + e[3:] for e in self._last]

    def beforeBuild(self):
        self._last = self._entries[:]
        self._entries = []

    def notify(self, kind, stuff):
        if kind == "TOCEntry":
            self._entries.append(stuff)

    def _lines(self) -> list[Flowable]:
        entries = self._last or [(0, "Contents", 0, None, "")]
        return [ContentsLine(self.book, *e) for e in entries if e[0] < self.levels]

    def wrap(self, aw, ah):
        self._flow = self._lines()
        self.width = aw
        self.height = sum(f.wrap(aw, ah)[1] + f.spaceBefore for f in self._flow)
        return aw, self.height

    def split(self, aw, ah):
        return self._lines()

    def draw(self):  # only when it fits in one frame
        y = self.height
        for f in self._flow:
            y -= f.spaceBefore
            _, h = f.wrap(self.width, y)
            f.drawOn(self.canv, 0, y - h)
            y -= h


class ContentsLine(Flowable):
    def __init__(self, book: Book, level: int, title: str, page: int, key: str | None, label: str = ""):
        super().__init__()
        self.book, self.level, self.title, self.page, self.key, self.label = book, level, title, page, key, label
        st = book.style
        self.size = st.body * (1.0 if level == 0 else 0.86)
        self.spaceBefore = st.body * 0.55 if level == 0 else 0.0

    def wrap(self, aw, ah):
        self.width = aw
        self.height = self.size * 1.42
        return aw, self.height

    def draw(self):
        c = self.canv
        st = self.book.style
        font = BOLD if self.level == 0 else REGULAR
        indent = 0.0 if self.level == 0 else self.size * 2.3
        base = self.size * 0.38
        c.saveState()
        num = str(self.page)
        num_w = c.stringWidth(num, font, self.size)
        if self.level == 0 and self.label:
            c.setFillColor(HexColor(st.accent))
            c.setFont(BOLD, self.size)
            c.drawString(0, base, self.label)
        text_x = self.size * 2.3 if self.level == 0 else indent
        room = self.width - text_x - num_w - self.size * 1.5
        title = self.title
        while title and c.stringWidth(title, font, self.size) > room:
            title = title[:-2].rstrip() + "…" if len(title) > 2 else ""
        c.setFillColor(HexColor(st.ink if self.level == 0 else st.muted))
        c.setFont(font, self.size)
        c.drawString(text_x, base, title)
        end = text_x + c.stringWidth(title, font, self.size) + self.size * 0.5
        c.setFillColor(HexColor(st.rule))
        c.setFont(REGULAR, self.size)
        dot = c.stringWidth(". ", REGULAR, self.size)
        x = end + (dot - (end % dot))  # dots line up from one entry to the next
        right = self.width - num_w - self.size * 0.5
        dots = int((right - x) / dot)
        if dots > 0:
            c.drawString(x, base, ". " * dots)
        c.setFillColor(HexColor(st.ink))
        c.setFont(font, self.size)
        c.drawRightString(self.width, base, num)
        c.restoreState()
        if self.key:
            c.linkRect("", self.key, (0, 0, self.width, self.height), relative=1, thickness=0)
