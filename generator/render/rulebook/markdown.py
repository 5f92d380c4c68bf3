"""Rule chapters as rulebook flowables: markdown-it-py parses a chapter (its Jinja already
run by rulebook/templating.py) into blocks (kept on disk between processes: `_blocks`), and its
blocks become headings, paragraphs, lists, tables, quotes, rules and diagrams."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Location, Problem
from generator.render.base import templatecache
from generator.render.rulebook.diagrams import DiagramError, diagram_flowable
from generator.render.rulebook.tables import rich_table
from generator.render.rulebook.text import Heading, RichText, Rule

if TYPE_CHECKING:
    from generator.render.rulebook.text import Book


@dataclass
class Flow:
    """Turns one rendered Markdown document into flowables. Headings are numbered into
    PDF destinations `<key>-s<n>`; `title` is the first `#` heading (taken out of the flow)."""

    book: Book
    width: float
    key: str
    outline: bool = True
    title: str | None = None
    flowables: list = field(default_factory=list)
    _n: int = 0

    def heading(self, text: str, depth: int) -> None:
        st = self.book.style
        self._n += 1
        key = f"{self.key}-s{self._n}" if self.outline and depth <= 3 else None
        level = depth - 1 if key else None
        if depth <= 2:
            self.flowables.append(Heading(self.book, text, st.h2, level=level, key=key, toc=True,
                                          reserve=st.line * 3, space_before=st.body * 1.2,
                                          space_after=st.body * 0.45))
        else:
            self.flowables.append(Heading(self.book, text, st.h3, level=level, key=key, toc=False,
                                          reserve=st.line * 2.5, space_before=st.body * 0.9,
                                          space_after=st.body * 0.3))

    def paragraph(self, text: str, indent: float = 0.0, bullet: str | None = None, italic: bool = False,
                  color: str | None = None, tight: bool = False) -> None:
        st = self.book.style
        if italic:
            text = f"*{text.replace('*', '')}*"
        self.flowables.append(RichText(self.book, text, st.body, indent=indent, bullet=bullet, color=color,
                                       space_after=st.body * (0.25 if tight else 0.55)))

    def table(self, rows: list[list[str]], aligns: list) -> None:
        st = self.book.style
        if not rows:
            return
        ncol = max(len(r) for r in rows)
        rows = [r + [""] * (ncol - len(r)) for r in rows]
        t = rich_table(self.book, rows, self.width, st.table, aligns)
        t.spaceBefore = st.body * 0.3
        t.spaceAfter = st.body * 0.9
        self.flowables.append(t)


def _inline(token) -> str:
    out = []
    for child in token.children or []:
        t = child.type
        if t == "text":
            out.append(child.content.replace("*", "\u2217"))
        elif t in ("softbreak",):
            out.append(" ")
        elif t == "hardbreak":
            out.append("\n")
        elif t in ("strong_open", "strong_close"):
            out.append("**")
        elif t in ("em_open", "em_close"):
            out.append("*")
        elif t == "code_inline":
            out.append(child.content)
        elif t == "image":
            out.append(child.content or "")
    return "".join(out).strip()


@cache
def _markdown():
    # deferred: markdown-it loads only when a rulebook page is set and its parse is not kept
    # (below); a card build fills the quick reference card from this module's Jinja half and
    # never parses Markdown
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark").enable("table")


# A document's blocks, what markdown_flowables makes its flowables from: plain tuples, in order,
#   ("tag", line)                      the flowables made since the last tag come from this Markdown line
#   ("heading", text, depth)           the first `#` becomes the flow's title
#   ("para", text, lists, quotes, bullet)  a paragraph in `lists` open lists and `quotes` quotes
#   ("list-end",)                      the outermost list closed: more room below its last item
#   ("table", rows, aligns)
#   ("diagram", info, source, line)    a ```diagram block, made (and its errors raised) as it is set
#   ("code", text)                     a line of a code block
#   ("hr",)
# They are kept on disk between processes (render/base/templatecache.py's folder, in a format of
# their own): markdown-it costs a rulebook some 0.02 s to import and 0.05 s to parse its chapters,
# in every kit and in each of `pnp validate`'s language workers; kept blocks load in well under a
# millisecond a chapter. A file is named by the sha256 of the text, of everything
# code_fingerprint() covers (our code, this module's reading of the tokens among it; Python's
# version) and of markdown-it's own files, and holds the blocks marshalled: the same data whether
# just parsed or loaded.
_FORMAT = b"pnp-markdown-blocks-1"


@cache
def _parser_fingerprint() -> bytes:
    """markdown-it's files as __pycache__ judges a source (size and mtime), found without importing it."""
    h = hashlib.sha256(templatecache.code_fingerprint())
    spec = importlib.util.find_spec("markdown_it")
    if spec is not None and spec.origin:
        templatecache.sources_fingerprint(h, os.path.dirname(spec.origin))
    return h.digest()


@lru_cache(maxsize=64)
def _blocks(text: str) -> tuple:
    """The document's blocks, parsed once (or loaded as kept: above): the quick reference lays its
    one text out at each size it tries. Read, never changed, by markdown_flowables."""
    h = hashlib.sha256(_parser_fingerprint())
    h.update(b"commonmark+table\0")
    h.update(text.encode("utf-8", "surrogatepass"))
    key = h.hexdigest()
    kept = templatecache.load(key, _FORMAT)
    if kept is not None:
        try:
            blocks = marshal.loads(kept)
            if type(blocks) is tuple and all(type(b) is tuple and b and type(b[0]) is str for b in blocks):
                return blocks
        except (EOFError, ValueError, TypeError):
            pass  # not what was kept: parsed and written again
    payload = marshal.dumps(_parse(text))
    templatecache.keep(key, _FORMAT, payload)
    return marshal.loads(payload)


def _parse(text: str) -> tuple:
    """markdown-it's tokens of the text, read into blocks (above)."""
    tokens = _markdown().parse(text)
    blocks: list[tuple] = []
    lists: list[dict] = []  # open lists: {"ordered", "n"}
    item_first: list[bool] = []
    quote = 0
    i = 0
    lines = _lines_before(tokens)

    def tag(line: int) -> None:  # what was made since the last tag comes from `line`
        if not blocks or blocks[-1][0] != "tag":
            blocks.append(("tag", line))

    while i < len(tokens):
        tag(lines[i])
        tok = tokens[i]
        t = tok.type
        if t == "heading_open":
            blocks.append(("heading", _inline(tokens[i + 1]), int(tok.tag[1])))
            i += 3
            continue
        if t in ("bullet_list_open", "ordered_list_open"):
            lists.append({"ordered": t == "ordered_list_open", "n": int(tok.attrGet("start") or 1) - 1})
        elif t in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                blocks.append(("list-end",))
        elif t == "list_item_open":
            lists[-1]["n"] += 1
            item_first.append(True)
        elif t == "list_item_close":
            item_first.pop()
        elif t == "blockquote_open":
            quote += 1
        elif t == "blockquote_close":
            quote -= 1
        elif t == "inline" and tokens[i - 1].type == "paragraph_open":
            content = _inline(tok)
            bullet = None
            if lists and item_first and item_first[-1]:
                cur = lists[-1]
                bullet = f"{cur['n']}." if cur["ordered"] else ("•" if len(lists) == 1 else "–")
                item_first[-1] = False
            if content:
                blocks.append(("para", content, len(lists), quote, bullet))
        elif t == "table_open":
            rows, aligns, i = _table(tokens, i)
            blocks.append(("table", rows, aligns))
            continue
        elif t == "fence" and tok.info.split()[:1] == ["diagram"]:
            blocks.append(("diagram", tok.info, tok.content, tok.map[0] + 1 if tok.map else 0))
        elif t in ("fence", "code_block"):
            for line in tok.content.rstrip("\n").split("\n"):
                blocks.append(("code", line.replace("*", "\u2217") or " "))
        elif t == "hr":
            blocks.append(("hr",))
        i += 1
    blocks.append(("tag", lines[len(tokens)]))
    return tuple(blocks)


def markdown_flowables(flow: Flow, text: str) -> Flow:
    st = flow.book.style
    tagged = 0
    for block in _blocks(text):
        kind = block[0]
        if kind == "tag":
            tagged = _tag_lines(flow.flowables, tagged, block[1])
        elif kind == "heading":
            _, content, depth = block
            if depth == 1 and flow.title is None and not flow.flowables:
                flow.title = content
            else:
                flow.heading(content, max(depth, 2))
        elif kind == "para":
            _, content, lists, quote, bullet = block
            indent = st.body * 1.6 * lists + st.body * 1.2 * quote
            flow.paragraph(content, indent, bullet, italic=bool(quote), tight=bool(lists),
                           color=st.muted if quote else None)
        elif kind == "list-end":
            if flow.flowables:
                flow.flowables[-1].spaceAfter = st.body * 0.6
        elif kind == "table":
            flow.table(block[1], block[2])
        elif kind == "diagram":
            diagram = _diagram(flow, *block[1:])
            flow.flowables.append(diagram)
            if diagram.caption:
                flow.paragraph(diagram.caption, italic=True, color=st.muted)
        elif kind == "code":
            flow.paragraph(block[1], st.body * 1.6, tight=True, color=st.muted)
        elif kind == "hr":
            flow.flowables.append(Rule(st.rule))
    return flow


def _lines_before(tokens) -> list[int]:
    """Per token index i (and one past the last), the Markdown line of the last token before i
    that has one (1 when none has): where the flowables made before token i come from."""
    lines = [1]
    for tok in tokens:
        lines.append(tok.map[0] + 1 if tok.map else lines[-1])
    return lines


def _tag_lines(flowables: list, tagged: int, line: int) -> int:
    """Give the flowables made since the last call the Markdown line they come from, so a
    layout error names it (render/rulebook/errors.py)."""
    for f in flowables[tagged:]:
        f._pnp_line = line
    return len(flowables)


def _diagram(flow: Flow, info: str, source: str, line: int):
    """A ```diagram KIND block (generator.render.rulebook.diagrams), from its Markdown `line`."""
    try:
        return diagram_flowable(info, source, flow.book.style)
    except DiagramError as exc:
        raise InputError([Problem("rules.diagram", str(exc), Location(flow.key, line),
                                  expected="```diagram line-of-sight with from, to and blockers")]) from None


def _table(tokens, i: int):
    rows: list[list[str]] = []
    aligns: list = []
    row: list[str] = []
    while tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            row = []
        elif tok.type == "tr_close":
            rows.append(row)
        elif tok.type in ("th_open", "td_open"):
            style = tok.attrGet("style") or ""
            if tok.type == "th_open":
                aligns.append("center" if "center" in style else "right" if "right" in style else
                              "left" if "left" in style else None)
            row.append(_inline(tokens[i + 1]))
        i += 1
    return rows, aligns, i + 1
