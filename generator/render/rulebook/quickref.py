"""`quick-reference.pdf`: one sheet with the turn, the actions, combat and the status effects,
from templates/rulebook/quick-reference.md over the pack's `reference:` and keywords. The
text size is the largest (in quarter points) that keeps everything on one page.

What the card-sized reference card (templates/cards/reference.yaml) needs besides the usual
card context, `reference_card_context(pack)` and `reference_card_has_lines(pack)`, lives in
rulebook/templating.py, so a card build loads no page layout, no maps and no markdown-it."""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from generator.render.rulebook.platypus import BaseDocTemplate, PageTemplate

from generator.core.papers import DEFAULT_PAPER
from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.pack.translations.own import words_of
from generator.render.base.art import ArtLibrary
from generator.render.base.fonts import REGULAR
from generator.render.base.pack_icons import pack_icons
from generator.render.rulebook.book import (Geometry, book_frame, canvas_maker, pack_book, prose_problems,
                                            read_template)
from generator.render.rulebook.columns import Columns
from generator.render.rulebook.kept import keep_size, kept_size
from generator.render.rulebook.markdown import Flow, markdown_flowables
from generator.render.rulebook.templating import (environment, expand_reference, reference_card_context,
                                                  reference_card_has_lines, render_template, template_context)
from generator.render.rulebook.text import Book, BookStyle, ChapterTitle

if TYPE_CHECKING:
    from generator.pack.model import Pack

TEMPLATE = "quick-reference.md"
SIZES = [s / 4 for s in range(40, 23, -1)]  # 10 pt down to 6 pt


def sheet_text(pack: Pack, env=None) -> tuple[str, str]:
    """(template file, the quick reference's Markdown) for the pack."""
    env = env or environment()
    ctx = template_context(pack)
    ctx["reference"] = expand_reference(pack, env, ctx)
    file, source = read_template(pack, TEMPLATE)
    return file, render_template(env, source, ctx, file)


def has_quick_reference(pack: Pack, text: str | None = None) -> bool:
    """Whether quick-reference.pdf would hold more than its title (the pack's template, or
    the shared one: the reference sections, action types and status effects). `text`: the
    sheet's Markdown, when the caller has it (sheet_text)."""
    if text is None:
        _, text = sheet_text(pack)
    body = [line for line in text.splitlines() if line.strip() and not line.startswith("# ")]
    return bool(body)


class _Overflow(Exception):
    """A size tried runs onto a second page: it does not fit, whatever the rest of the sheet would hold."""


class _Sheet(BaseDocTemplate):
    def __init__(self, target, geometry: Geometry, footer: str, accent: str, **kw):
        super().__init__(target, pagesize=(geometry.width, geometry.height), invariant=1,
                         author="pnp", creator="pnp print-and-play generator", **kw)
        g = geometry
        self.geometry, self.footer, self.accent = g, footer, accent
        self.pages = 0
        self.measuring = False  # a size tried is laid out, not drawn (columns.BookFrame)
        top = g.height - 14 * mm
        frame = book_frame(12 * mm, 14 * mm, g.width - 24 * mm, top - 14 * mm, "sheet")
        self.addPageTemplates([PageTemplate("sheet", [frame], onPageEnd=self._decorate)])

    def handle_pageBegin(self):
        if self.measuring and self.page >= 1:
            raise _Overflow  # a size tried: whether it fits one page is all that is wanted
        super().handle_pageBegin()

    def _decorate(self, canvas, doc):
        self.pages = doc.page
        if self.measuring:
            return  # a size tried is never seen
        g = self.geometry
        canvas.saveState()
        canvas.setFillColor(HexColor("#6b6359"))
        canvas.setFont(REGULAR, 7)
        canvas.drawCentredString(g.width / 2, 8 * mm, self.footer)
        canvas.restoreState()


def _story(pack: Pack, book, geometry: Geometry, text: str) -> list:
    width = geometry.width - 24 * mm
    gap = 6 * mm
    flow = markdown_flowables(Flow(book, (width - gap) / 2, "quick", outline=False), text)
    title = ChapterTitle(book, flow.title or f"{pack.spec.name}: Quick Reference", f"Version {pack.spec.version}", "quick")
    return [title, Columns(flow.flowables, 2, gap)]


def _size_key(book: Book, pack: Pack, geometry: Geometry, text: str) -> str | None:
    """What the size chosen depends on besides the sizes tried: the sheet's Markdown, its title's
    words, the page, the text fitter (book.kept.key: its fonts, words, icons, dictionary, our code)."""
    if book.kept.key is None:
        return None
    what = repr(("quick-reference", book.kept.key, text, pack.spec.name, pack.spec.version, geometry, SIZES))
    return hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()


def _style(size: float) -> BookStyle:
    return replace(BookStyle(), h1=18.0).scaled(size)


def build_quick_reference_pdf(pack: Pack, out_path: Path, paper: str = DEFAULT_PAPER, *, text: str | None = None,
                              checked: bool = False, book: Book | None = None) -> dict:
    """Write the one-sheet quick reference; returns {"pages": 1, "size": body text size}. `text`:
    the sheet's Markdown, when the caller has it (sheet_text); `checked`: the pack's rulebook sources,
    this sheet's template among them, were found free of unknown icons already (prose_problems: the
    kit's rulebook, built just before, stops on them); `book`: the pack's (pack_book, in any style),
    when the caller has one (the kit's rulebook: its text fitter, layouts and icons serve here too)."""
    geometry = Geometry.of(paper)
    problems = [] if checked else prose_problems(pack)
    if problems:
        raise InputError(problems)
    if text is None:
        _, text = sheet_text(pack)
    if not text.strip():
        raise InputError([Problem("rules.quick-reference", "the quick reference has nothing to show",
                                  Location(pack.game_file), expected="a `reference:` key or status keywords",
                                  fix="add `reference:` to game.yaml")])
    say = words_of(pack)  # pnp's own words in the pack's language
    title = f"{pack.spec.name} {pack.spec.version}: {say('Quick Reference')}"
    footer = f"{pack.spec.name} {pack.spec.version} · {say('quick reference · the rulebook has the full rules')}"
    if book is not None:  # pack_book's book in the first size's style, as made below
        first = book.restyled(replace(_style(SIZES[0]), accent=book.style.accent))
    else:
        custom = pack_icons(pack, ArtLibrary(Path(pack.root)))  # read once for every size tried
        first = pack_book(pack, _style(SIZES[0]), custom)  # its fitter and layouts serve every size

    def book_at(size: float):
        return first.restyled(replace(_style(size), accent=first.style.accent))  # the pack's accent, as pack_book sets it

    def fits(size: float) -> bool:
        """Whether the sheet at this size takes one page (laid out, never drawn)."""
        book = book_at(size)
        doc = _Sheet(io.BytesIO(), geometry, footer, book.style.accent, title=title)
        doc.measuring = True  # only its page count is wanted: laid out, not drawn (columns.BookFrame)
        doc._doSave = 0  # nor written (platypus's own switch, as multiBuild sets it for its passes)
        try:
            doc.build(_story(pack, book, geometry, text), canvasmaker=canvas_maker(title, "Quick reference"))
        except _Overflow:
            return False
        return doc.pages <= 1

    # the size a process before chose for the same sheet (text, pack name and version, page, text
    # fitter and our code), taken when it still fits and the next larger one still does not
    key = _size_key(first, pack, geometry, text)
    kept = kept_size(key, SIZES) if key is not None else None
    if kept is not None and fits(kept) and (kept == SIZES[0] or not fits(SIZES[SIZES.index(kept) - 1])):
        chosen = kept
    else:
        chosen = next((size for size in SIZES if fits(size)), SIZES[-1])  # the largest size that fits one page
        if key is not None:
            keep_size(key, chosen)
    book = book_at(chosen)
    with atomic_output(Path(out_path)) as tmp:
        doc = _Sheet(str(tmp), geometry, footer, book.style.accent, title=title)
        doc.build(_story(pack, book, geometry, text), canvasmaker=canvas_maker(title, "Quick reference", keep_streams=True))
    return {"pages": doc.pages, "size": chosen}


__all__ = ["build_quick_reference_pdf", "has_quick_reference", "reference_card_context", "reference_card_has_lines"]
