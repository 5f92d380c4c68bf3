"""`rulebook.pdf`: a cover, the contents with page numbers, the pack's Markdown chapters
(rules/*.md, Jinja first so every number comes from the pack) in two hyphenated columns with
the cards' inline icons, then reference pages made from the data: summaries, status effects,
the Card List, presets, maps, glossary and credits. Bookmarks for every chapter and section,
running headers, page numbers; byte-identical output for identical input."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from generator.render.rulebook.platypus import (ActionFlowable, BaseDocTemplate, Frame, FrameBreak, LayoutError,
                                                NextPageTemplate, PageBreak, PageTemplate)

from generator.core.papers import DEFAULT_PAPER
from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.core.resources import TEMPLATES
from generator.maps.load import load_pack_maps
from generator.pack.display import deals_in_points, pack_in_points
from generator.pack.icon_names import pack_icon_names
from generator.pack.load import load_presets
from generator.pack.typefaces import font_credits
from generator.pack.translations.own import words_of
from generator.render.base.art import ArtLibrary
from generator.render.base.fonts import BOLD, ITALIC, REGULAR, display_font
from generator.render.base.pack_icons import pack_icons
from generator.render.base.text import hyphenation_language
from generator.render.base.paper import PAPERS, page_size_pt
from generator.render.base.pdfout import new_canvas
from generator.render.maps.document import draw_map_thumbnail
from generator.render.maps.palette import DEFAULT_INK, palette_for
from generator.render.rulebook.columns import BookFrame, Columns, MeasureFirst, NewPageUnless
from generator.render.rulebook.cover import Cover
from generator.render.rulebook.errors import layout_error, tag_chapter
from generator.render.rulebook.markdown import Flow, markdown_flowables
from generator.render.rulebook.templating import (chapter_source, environment, expand_reference, prose_icon_problems,
                                                  reference_icon_problems, render_template, template_context)
from generator.render.rulebook.reference import card_list, map_catalogue, presets
from generator.render.rulebook.text import Book, BookStyle, ChapterTitle, Contents, Heading

if TYPE_CHECKING:
    from generator.pack.model import Pack



@dataclass(frozen=True)
class RefPage:
    template: str  # a Markdown + Jinja file in templates/rulebook/
    generate: str | None = None  # generated flowables appended after the template's text
    columns: int = 2
    new_page: bool = False  # always start on a new page


REFERENCE_PAGES = (
    RefPage("round-and-turn.md"),
    RefPage("combat.md"),
    RefPage("status-effects.md"),
    RefPage("card-list.md", "card-list", columns=1, new_page=True),
    RefPage("presets.md", "presets"),
    RefPage("maps.md", "maps"),
    RefPage("glossary.md"),
    RefPage("credits.md", columns=1),
)


# ---- page geometry and the document template ----------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    width: float
    height: float
    margin_x: float = 17 * mm
    margin_top: float = 21 * mm
    margin_bottom: float = 19 * mm
    gap: float = 7 * mm
    title_height: float = 27 * mm

    @classmethod
    def of(cls, paper: str) -> "Geometry":
        if paper not in PAPERS:
            raise InputError([Problem("cli.paper", f"unknown paper `{paper}`", Location("command line"),
                                      expected=", ".join(PAPERS))])
        w, h = page_size_pt(paper)
        return cls(w, h)

    @property
    def body_width(self) -> float:
        return self.width - 2 * self.margin_x

    @property
    def column_width(self) -> float:
        return (self.body_width - self.gap) / 2

    def columns(self, n: int, top: float, prefix: str) -> list[Frame]:
        bottom = self.margin_bottom
        height = top - bottom
        if n == 1:
            return [book_frame(self.margin_x, bottom, self.body_width, height, f"{prefix}-1")]
        w = self.column_width
        return [book_frame(self.margin_x, bottom, w, height, f"{prefix}-1"),
                book_frame(self.margin_x + w + self.gap, bottom, w, height, f"{prefix}-2")]


def book_frame(x, y, w, h, name) -> Frame:
    return BookFrame(x, y, w, h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id=name)


def outline_level(level: int, previous: int) -> int:
    """A heading's outline level after one at `previous`: outline levels may only deepen one at a time."""
    return max(0, min(level, previous + 1))


def expected_contents(story: list) -> list[tuple]:
    """The table of contents' entries, their pages aside (0): every chapter title and heading
    the story holds, in drawing order, as RulebookDoc lists them when they are drawn."""
    entries: list[tuple] = []
    previous = -1

    def walk(flowables: list) -> None:
        nonlocal previous
        for f in flowables:
            if isinstance(f, Columns):
                walk(f.content)
            elif isinstance(f, ChapterTitle):
                previous = outline_level(0, previous)
                if f.toc:
                    entries.append((previous, f.title, 0, f.key, f.toc_label))
            elif isinstance(f, Heading) and f.key and f.level is not None:
                previous = outline_level(f.level, previous)
                if f.toc:
                    entries.append((previous, f.title, 0, f.key, ""))

    walk(story)
    return entries


class RulebookDoc(BaseDocTemplate):
    """Page templates: `cover`; `contents-first`/`contents` (two frames, for the table of
    contents, which platypus must see at the top level); `page`, one full-width frame in which
    chapters flow as balanced `Columns`. Headings report here after they are drawn: outline
    entries, contents entries, the running header."""

    def __init__(self, filename, book: Book, geometry: Geometry, header: str, **kw):
        super().__init__(filename, pagesize=(geometry.width, geometry.height), invariant=1,
                         author="pnp", creator="pnp print-and-play generator", **kw)
        self.measuring = False  # a pass that only finds where everything falls (columns.BookFrame)
        self.book = book
        self.geometry = geometry
        self.header = header
        self.current = ""
        self.page_title = ""
        self.page_count = 0
        self._fresh = True
        self._level = -1
        g = geometry
        top = g.height - g.margin_top
        title = book_frame(g.margin_x, top - g.title_height, g.body_width, g.title_height, "title")
        self.addPageTemplates([
            PageTemplate("cover", [book_frame(0, 0, g.width, g.height, "cover")], onPage=self._begin,
                         onPageEnd=self._count),
            PageTemplate("contents-first", [title] + g.columns(2, top - g.title_height, "t"),
                         onPage=self._begin, onPageEnd=self._footer),
            PageTemplate("contents", g.columns(2, top, "c"), onPage=self._begin, onPageEnd=self._decorate),
            PageTemplate("page", g.columns(1, top, "p"), onPage=self._begin, onPageEnd=self._decorate),
        ])

    def handle_flowable(self, flowables):
        self.placing = flowables[0] if flowables else None  # named by a layout error
        return super().handle_flowable(flowables)

    def beforeDocument(self):
        self.current = ""
        self._level = -1
        self.canv.showOutline()

    def _begin(self, canvas, doc):
        self.page_title = self.current  # the chapter running at the top of the page...
        self._fresh = True

    def afterFlowable(self, flowable):
        if isinstance(flowable, ChapterTitle):
            self.current = flowable.title
            if self._fresh:  # ...unless a new one starts the page
                self.page_title = flowable.title
            self._outline(flowable.title, flowable.key, 0, flowable.toc, flowable.toc_label)
        elif isinstance(flowable, Heading) and flowable.key and flowable.level is not None:
            self._outline(flowable.title, flowable.key, flowable.level, flowable.toc, "")
        if not isinstance(flowable, (ActionFlowable, PageBreak, NewPageUnless)):
            self._fresh = False

    def _outline(self, title: str, key: str, level: int, toc: bool, label: str) -> None:
        level = self._level = outline_level(level, self._level)
        self.canv.addOutlineEntry(title, key, level=level, closed=level == 0)
        if toc:
            self.notify("TOCEntry", (level, title, self.page, key, label))

    # ---- page decoration --------------------------------------------------------------------------
    def _count(self, canvas, doc):
        self.page_count = max(self.page_count, doc.page)

    def _footer(self, canvas, doc):
        self._count(canvas, doc)
        if self.measuring:
            return  # a measured page is never seen: its number is all that counts
        st = self.book.style
        g = self.geometry
        canvas.saveState()
        canvas.setFillColor(HexColor(st.muted))
        canvas.setFont(REGULAR, 8)
        canvas.drawCentredString(g.width / 2, g.margin_bottom - 10 * mm, str(doc.page))
        canvas.restoreState()

    def _decorate(self, canvas, doc):
        self._footer(canvas, doc)
        if self.measuring:
            return
        st = self.book.style
        g = self.geometry
        y = g.height - g.margin_top + 5 * mm
        canvas.saveState()
        canvas.setFont(BOLD, 7.5)
        canvas.setFillColor(HexColor(st.accent))
        canvas.drawString(g.margin_x, y + 2, self.header)
        canvas.setFont(ITALIC, 7.5)
        canvas.setFillColor(HexColor(st.muted))
        canvas.drawRightString(g.width - g.margin_x, y + 2, self.page_title)
        canvas.setStrokeColor(HexColor(st.rule))
        canvas.setLineWidth(0.5)
        canvas.line(g.margin_x, y - 1.5, g.width - g.margin_x, y - 1.5)
        canvas.restoreState()


# ---- building ------------------------------------------------------------------------------------------


def pack_book(pack: Pack, style: BookStyle | None = None, custom: dict | None = None) -> Book:
    """The text engine of the cards, with the pack's keywords, its own icons (`custom`, read
    here when not given) and its first set's colour."""
    # action types ("Move", "Attack") are everyday words in rule text: only statuses and terms stand out
    names = [k.name for k in pack.spec.keywords.values() if k.kind != "action-type"]
    sets = list(pack.spec.sets.values())
    style = style or BookStyle()
    if sets and style.accent == BookStyle.accent:
        style = replace(style, accent=sets[0].color)
    return Book(names, style, pack_icons(pack, ArtLibrary(Path(pack.root))) if custom is None else custom,
                display_font(pack), hyphenation_language(pack.spec.language))


def template_folders(pack: Pack) -> list[Path]:
    return [f for f in (Path(pack.root) / "templates" / "rulebook", TEMPLATES / "rulebook") if f.is_dir()]


def read_template(pack: Pack, name: str) -> tuple[str, str]:
    for folder in template_folders(pack):
        if (folder / name).is_file():
            return chapter_source(folder / name)
    raise InputError([Problem("rules.template-missing", f"no rulebook template `{name}`",
                              Location(str(TEMPLATES / "rulebook" / name)),
                              expected=f"{name} in templates/rulebook/")])


def glossary(pack: Pack, reference: dict) -> list[dict]:
    """The pack's keywords and its glossary, one entry per term, alphabetically."""
    entries: dict[str, dict] = {}
    for k in pack.spec.keywords.values():
        if k.text:
            entries[k.name.casefold()] = {"term": k.name, "text": k.text, "icon": k.icon}
    for g in reference.get("glossary", []):
        entries.setdefault(g["term"].casefold(), {"term": g["term"], "text": g["text"], "icon": None})
    return [entries[k] for k in sorted(entries)]


def book_context(pack: Pack, maps: list) -> tuple:
    env = environment()
    ctx = template_context(pack)
    ctx["reference"] = expand_reference(pack, env, ctx)
    ctx["glossary"] = glossary(pack, ctx["reference"])
    ctx["maps"] = [{"title": m.title, "hexes": len(m.hexes)} for m in maps]
    ctx["typefaces"] = font_credits(pack.spec.fonts, pack.root)  # the credits page names them
    # what the generated pages may speak of: only what this pack has
    builds = load_presets(pack)
    ctx["priced"] = pack_in_points(pack)
    ctx["preset_summary"] = {
        "count": len(pack.preset_files),
        "points": any(deals_in_points(pack, pack.spec.sides[b.side]) for b in builds if b.side in pack.spec.sides),
        "decks": any(ch.deck for b in builds for ch in b.characters)}
    return env, ctx


def load_maps(pack: Pack, ink: str = DEFAULT_INK):
    """The pack's maps and the helper that draws their thumbnails in the maps' ink (colour or saver)."""
    if not pack.map_files:
        return [], None
    return load_pack_maps(pack), functools.partial(draw_map_thumbnail, palette=palette_for(pack, ink))


def _chapter(book: Book, geometry: Geometry, flow: Flow, label: str, toc_label: str, columns: int,
             first: bool, extra: list | None = None) -> list:
    """A chapter: a new page when it is the first of its part or when less than ~40 % of the
    page is left, the title across the page, then the body in balanced columns."""
    frame_height = geometry.height - geometry.margin_top - geometry.margin_bottom
    title = ChapterTitle(book, flow.title or flow.key, label, flow.key, toc_label,
                         space_before=0 if first else 10 * mm)
    body = [*flow.flowables, *(extra or [])]
    if columns == 2:
        body = [Columns(body, 2, geometry.gap)]
        body[0]._pnp_file = getattr(flow.flowables[0], "_pnp_file", None) if flow.flowables else None
    else:  # the page's width, which errors.check_story and layout_error measure these blocks against
        for f in body:
            f._pnp_width = geometry.body_width
    start = [NextPageTemplate("page"), PageBreak()] if first else [NewPageUnless(frame_height * 0.4, [title, *body])]
    return [*start, title, *body]


def prose_problems(pack: Pack, chapters: list[tuple[str, str]] | None = None) -> list[Problem]:
    """Every `:name:` in the rulebook's sources (chapters, its page templates, game.yaml's
    `reference:`) that no icon of the pack has, each at its file and line. `chapters`: the
    chapters' (file, text), when the caller has read them already (rulebook_story)."""
    known = pack_icon_names(pack.spec)
    problems = reference_icon_problems(pack)
    sources = list(chapters) if chapters is not None else [chapter_source(path, pack) for path in pack.rule_files]
    sources += [read_template(pack, name) for name in [p.template for p in REFERENCE_PAGES] + ["quick-reference.md"]]
    for file, source in sources:
        problems += prose_icon_problems(source, file, known)
    return problems


def rulebook_story(pack: Pack, book: Book, geometry: Geometry, ink: str = DEFAULT_INK) -> tuple[list, dict]:
    chapters = [chapter_source(path, pack) for path in pack.rule_files]  # read (and translated) once
    problems = prose_problems(pack, chapters)
    if problems:
        raise InputError(problems)
    maps, draw_fn = load_maps(pack, ink)
    env, ctx = book_context(pack, maps)
    say = words_of(pack)  # pnp's own words in the pack's language
    contents_title = ChapterTitle(book, say("Contents"), pack.spec.name, "contents")
    contents_title.toc = False
    story: list = [Cover(book, pack, geometry),
                   NextPageTemplate("contents-first"), PageBreak(), NextPageTemplate("contents"),
                   contents_title, FrameBreak(), Contents(book)]
    counts = {"chapters": 0, "cards": len(pack.cards), "presets": 0, "maps": len(maps),
              "thumbnails": len(maps) if draw_fn else 0}
    for n, (path, (file, source)) in enumerate(zip(pack.rule_files, chapters), 1):
        text = render_template(env, source, ctx, file)
        flow = markdown_flowables(Flow(book, geometry.column_width, f"ch{n}"), text)
        tag_chapter(flow.flowables, file)
        if flow.title is None:
            flow.title = Path(path).stem.split("-", 1)[-1].replace("-", " ").capitalize()
        story += _chapter(book, geometry, flow, say("Chapter {n}").format(n=n), str(n), 2, first=n == 1)
        counts["chapters"] += 1
    letter = 0
    for page in REFERENCE_PAGES:
        file, source = read_template(pack, page.template)
        text = render_template(env, source, ctx, file)
        if not text.strip():
            continue
        width = geometry.column_width if page.columns == 2 else geometry.body_width
        key = "ref-" + page.template.rsplit(".", 1)[0]
        flow = markdown_flowables(Flow(book, width, key), text)
        tag_chapter(flow.flowables, file)
        extra = []
        if page.generate == "card-list":
            extra = card_list(book, pack, width, key)
        elif page.generate == "presets":
            extra = presets(book, pack, width, key)
            counts["presets"] = len(pack.preset_files)
        elif page.generate == "maps":
            extra = map_catalogue(book, pack, width, key, maps, draw_fn)
        tag_chapter(extra, file)  # a generated table too tall for a page names the page it is on
        letter += 1
        story += _chapter(book, geometry, flow, say("Reference"), chr(64 + letter), page.columns,
                          first=letter == 1 or page.new_page, extra=extra)
    return story, counts


def canvas_maker(title: str, subject: str, keep_streams: bool = False):
    """`keep_streams`: a book written to a file (the kit's) takes the streams its last save deflated
    from the cache folder (pdfout.DeflateStore); one laid out in memory (`pnp validate`) does not."""
    def make(filename, pagesize=None, **_ignored):
        return new_canvas(filename, pagesize, title, subject, keep_streams=keep_streams)
    return make


def build_rulebook_pdf(pack: Pack, out_path, paper: str = DEFAULT_PAPER, ink: str = DEFAULT_INK,
                       book: Book | None = None) -> dict:
    """Write the rulebook (to a path, or to a file object: `pnp validate` lays it out in
    memory), its map pictures in `ink` (the maps' colour or saver look); returns counts
    ({"pages", "chapters", "cards", "presets", ...}). `book`: the pack's (pack_book), when the
    caller has one (the kit's quick reference shares it)."""
    geometry = Geometry.of(paper)
    book = book or pack_book(pack)
    story, counts = rulebook_story(pack, book, geometry, ink)
    say = words_of(pack)
    title = f"{pack.spec.name} {pack.spec.version}: {say('Rulebook')}"
    subject = pack.spec.summary or say("Rules of {game}").format(game=pack.spec.name)
    if hasattr(out_path, "write"):
        doc = _lay_out(out_path, book, geometry, story, pack, title, subject)
    else:
        with atomic_output(Path(out_path)) as tmp:
            doc = _lay_out(str(tmp), book, geometry, story, pack, title, subject, keep_streams=True)
    return {"pages": doc.page_count, **counts}


def _lay_out(target, book, geometry, story, pack, title, subject, keep_streams=False):
    doc = RulebookDoc(target, book, geometry, f"{pack.spec.name} · {words_of(pack)('Rulebook')}", title=title,
                      subject=subject)
    try:
        # the passes that only find the contents' page numbers are measured, not drawn; the last is drawn
        for contents in (f for f in story if isinstance(f, Contents)):
            contents.expect(expected_contents(story))  # so the first pass lays the contents out at their length
        doc.multiBuild([MeasureFirst(doc, story), *story], canvasmaker=canvas_maker(title, subject, keep_streams))
    except LayoutError as exc:
        height = geometry.height - geometry.margin_top - geometry.margin_bottom
        placing = getattr(doc, "placing", None)
        width = getattr(placing, "_pnp_width", geometry.column_width)  # a one-column page is wider
        raise layout_error(exc, placing, doc.canv, width, height) from None
    return doc
