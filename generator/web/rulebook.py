"""The rules in the browser: the pack's rulebook chapters, its reference pages and the quick
reference as HTML pages, from the same Markdown and Jinja context and the same glossary the
PDF rulebook uses (generator.render.rulebook). markdown-it-py parses with raw HTML off, so
every character of a chapter reaches the page escaped. Also: a server-side search over the
sections, and card text with its keywords linked to their glossary entries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape

from generator.export.iconimage import icon_names, icon_png
from generator.pack.translations.own import words_of
from generator.pack.model import Pack
from generator.render.base.art import ArtLibrary
from generator.render.base.pack_icons import pack_icons
from generator.render.rulebook.book import REFERENCE_PAGES, book_context, glossary, load_maps, read_template
from generator.render.rulebook.templating import chapter_source, render_template
from generator.render.rulebook.quickref import sheet_text
from generator.web.common import per_pack

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")
_ICON = re.compile(r":([a-z0-9][a-z0-9-]*):")
# reference pages whose PDF pages end in generated tables; the browser has its own pages for them
_ELSEWHERE = {"card-list": ("cards", "Browse the cards"), "maps": ("maps", "See the maps"),
              "presets": ("", "The presets are on the pack's home page")}


@dataclass
class Section:
    id: str
    title: str
    text: str = ""


@dataclass
class RulePage:
    slug: str
    title: str
    label: str               # "Chapter 3", "Reference", "Quick reference"
    html: Markup = Markup("")
    sections: list[Section] = field(default_factory=list)  # the first is the page's own text
    link: tuple | None = None  # (path under the pack, words) where the rest of the page lives


@dataclass
class RuleBook:
    pages: list[RulePage]
    terms: dict[str, str]    # glossary term -> anchor id on the glossary page

    def page(self, slug: str) -> RulePage | None:
        return next((p for p in self.pages if p.slug == slug), None)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).casefold()).strip("-") or "section"


def term_id(term: str) -> str:
    return "term-" + slugify(term)


def _plain(token) -> str:
    """The words of an inline token (inline icons `:name:` left out): titles and search text."""
    text = "".join(" " if c.type in ("softbreak", "hardbreak") else c.content
                   for c in token.children or [] if c.type in ("text", "code_inline", "softbreak", "hardbreak"))
    return " ".join(_ICON.sub(" ", text).split())


def icon_url(pack: Pack, name: str) -> str:
    return f"/p/{pack.spec.id}/icons/{name}.png"


def _icon_html(m: re.Match, icons: dict[str, str]) -> str:
    """An inline `:name:` as the icon's picture (the one the cards print), or, for a name the
    pack has no icon for, the word."""
    name = m.group(1)
    words = name.replace("-", " ")
    if name in icons:
        return f'<img class="icon" src="{escape(icons[name])}" alt="{escape(words)}" width="16" height="16">'
    return f'<span class="icon">{words}</span>'


def markdown_page(text: str, slug: str, title: str | None, label: str, icons: dict[str, str] | None = None) -> RulePage:
    """One rendered Markdown document as a page: its first `#` heading is the title (the
    template's `<h1>`), every other heading an `<h2>`/`<h3>` with an id for the contents and
    the search; a ```diagram block shows its caption (the drawing is in the PDF). `icons`:
    the URL of each icon's picture by name."""
    tokens = _MD.parse(text)
    seen: set[str] = set()
    page = RulePage(slug, title or "", label)
    current = Section("", "")
    page.sections.append(current)
    keep: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            words = _plain(tokens[i + 1])
            if tok.tag == "h1" and not page.title:
                page.title = words
                i += 3
                continue
            if tok.tag == "h1" and not keep and words == page.title:
                i += 3
                continue
            for child in tokens[i + 1].children or []:  # a title says its word; its icon would repeat it
                if child.type == "text":
                    child.content = _ICON.sub("", child.content)
            tag = "h2" if tok.tag in ("h1", "h2") else "h3"
            tok.tag = tokens[i + 2].tag = tag
            anchor = slugify(words)
            while anchor in seen:
                anchor += "-x"
            seen.add(anchor)
            tok.attrSet("id", anchor)
            current = Section(anchor, words)
            page.sections.append(current)
        elif tok.type == "table_open":  # a wide table scrolls in its box on a phone: keys must reach it too
            tok.attrSet("tabindex", "0")
        elif tok.type == "th_open" and not _plain(tokens[i + 1]).strip():
            tok.tag = tokens[i + 2].tag = "td"  # an empty header cell (a corner) heads nothing
        elif tok.type == "inline" and tokens[i - 1].type != "heading_open":  # a title is not its own text
            current.text += " " + _plain(tok)
        elif tok.type == "fence" and tok.info.split()[:1] == ["diagram"]:
            caption = next((m.group(1).strip().strip("'\"") for m in
                            re.finditer(r"^caption:\s*(.+)$", tok.content, re.M)), "")
            tok.type, tok.tag = "html_block", ""
            tok.content = (f'<figure class="diagram"><figcaption>{escape(caption)} '
                           f'<span class="muted">(the drawing is in the printed rulebook)</span>'
                           f'</figcaption></figure>\n') if caption else ""
            current.text += " " + caption
        keep.append(tok)
        i += 1
    html = _MD.renderer.render(keep, _MD.options, {})
    # inline icons, as the card pages show them; the HTML is already escaped and `:x:` holds no markup
    page.html = Markup(_ICON.sub(lambda m: _icon_html(m, icons or {}), html))
    page.title = page.title or slug.replace("-", " ").capitalize()
    for s in page.sections:
        s.text = " ".join(s.text.split())
    return page


def _glossary_page(entries: list[dict], icons: dict[str, str]) -> RulePage:
    page = RulePage("glossary", "Glossary", "Reference")
    rows = []
    for e in entries:
        body = markdown_page(e["text"], "glossary", "-", "", icons).html
        rows.append(f'<dt id="{term_id(e["term"])}">{escape(e["term"])}</dt><dd>{body}</dd>')
        page.sections.append(Section(term_id(e["term"]), e["term"], e["text"]))
    page.html = Markup('<dl class="glossary">' + "".join(rows) + "</dl>")
    return page


@per_pack
def rule_book(pack: Pack) -> RuleBook:
    """Every rules page of the pack, rendered once per process."""
    maps, _ = load_maps(pack)
    env, ctx = book_context(pack, maps)
    icons = {name: icon_url(pack, name) for name in icon_names(pack)}
    pages: list[RulePage] = []
    used: set[str] = set()
    say = words_of(pack)  # pnp's own words in the pack's language, as the printed rulebook says them
    for n, path in enumerate(pack.rule_files, 1):
        file, source = chapter_source(path, pack)
        slug = slugify(Path(path).stem.split("-", 1)[-1] if "-" in Path(path).stem else Path(path).stem)
        while slug in used:
            slug += "-x"
        used.add(slug)
        pages.append(markdown_page(render_template(env, source, ctx, file), slug, None, say("Chapter {n}").format(n=n), icons))
    for ref in REFERENCE_PAGES:
        key = ref.template.rsplit(".", 1)[0]
        if key == "glossary":
            if ctx["glossary"]:
                pages.append(_glossary_page(ctx["glossary"], icons))
            continue
        file, source = read_template(pack, ref.template)
        text = render_template(env, source, ctx, file)
        if not text.strip() or key in used:
            continue
        page = markdown_page(text, key, None, say("Reference"), icons)
        page.link = _ELSEWHERE.get(key)
        if page.link and page.link[0] == "maps" and not pack.map_files:
            page.link = None
        pages.append(page)
    _, quick = sheet_text(pack, env)
    if any(line.strip() and not line.startswith("# ") for line in quick.splitlines()):
        pages.append(markdown_page(quick, "quick-reference", None, say("Quick Reference"), icons))
    terms = {e["term"]: term_id(e["term"]) for e in glossary(pack, ctx["reference"])}
    return RuleBook(pages, terms)


@per_pack
def _icon_pictures(pack: Pack) -> dict:
    """The pack's icons drawn so far (name -> PNG bytes): a few dozen small pictures, each drawn
    once per process; the pack's own SVGs are read once."""
    return {"": pack_icons(pack, ArtLibrary(Path(pack.root)))}


def icon_picture(pack: Pack, name: str) -> bytes | None:
    """The PNG of the pack's icon `name`, or None when the pack has no such icon."""
    if name not in icon_names(pack):
        return None
    drawn = _icon_pictures(pack)
    if name not in drawn:
        drawn[name] = icon_png(pack, name, custom=drawn[""])
    return drawn[name]


@dataclass
class Hit:
    page: RulePage
    section: Section
    snippet: str


def search(book: RuleBook, query: str, limit: int = 50) -> list[Hit]:
    """Sections holding every word of the query (case-insensitive), in book order; a hit in a
    title comes first."""
    words = [w for w in query.casefold().split() if w][:10]
    if not words:
        return []
    titled: list[Hit] = []
    other: list[Hit] = []
    for page in book.pages:
        for s in page.sections:
            hay = f"{s.title} {s.text}".casefold()
            if all(w in hay for w in words):
                at = s.text.casefold().find(words[0])
                start = max(0, at - 60) if at >= 0 else 0
                snippet = ("…" if start else "") + s.text[start:start + 180] + ("…" if len(s.text) > start + 180 else "")
                (titled if words[0] in s.title.casefold() else other).append(Hit(page, s, snippet))
    return (titled + other)[:limit]


def _term_pattern(pack: Pack):
    terms = rule_book(pack).terms
    names = sorted(terms, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])") if names else None


def card_terms(text: str, pack: Pack) -> list[tuple[str, str]]:
    """The glossary terms a card's text uses, in order of first use: (term, glossary URL)."""
    pattern = _term_pattern(pack)
    if pattern is None or not text:
        return []
    terms = rule_book(pack).terms
    seen = dict.fromkeys(m.group(1) for m in pattern.finditer(text))
    return [(t, f"/p/{pack.spec.id}/rules/glossary#{terms[t]}") for t in seen]


def linked_keywords(html: Markup, pack: Pack) -> Markup:
    """Card text (already escaped HTML) with each glossary term linked to its entry. Terms are
    matched as written, whole words, in text outside tags."""
    terms = rule_book(pack).terms
    if not terms:
        return html
    names = sorted((str(escape(t)) for t in terms), key=len, reverse=True)
    by_escaped = {str(escape(t)): terms[t] for t in terms}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    base = f"/p/{escape(pack.spec.id)}/rules/glossary#"
    parts = re.split(r"(<[^>]*>)", str(html))
    for i in range(0, len(parts), 2):
        parts[i] = pattern.sub(lambda m: f'<a class="kw" href="{base}{by_escaped[m.group(1)]}">{m.group(1)}</a>',
                               parts[i])
    return Markup("".join(parts))
