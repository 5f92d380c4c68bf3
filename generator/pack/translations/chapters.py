"""A rules chapter (Markdown with Jinja) by translatable unit: a heading, a paragraph, a list
item, a table cell. Markers stay out of the text a translator sees (`## `, `- `, the table's
pipes), code blocks and lines of Jinja statements alone are left as they are, and a unit with
no words in it (`| :move: | {{ keywords.move.name }} |`) is not offered. The same cut puts the
translations back, so a chapter keeps its structure in every language."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.pack.translations.sources import has_words
from generator.pack.translations.table import Source

_HEADING = re.compile(r"^(\s{0,3}#{1,6}\s+)(.*?)\s*$")
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d{1,3}[.)])\s+)(.*)$")
_QUOTE = re.compile(r"^(\s*>\s?)(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
# a diagram's caption, the one line of a ```diagram block a player reads: `caption: "..."` or plain
_CAPTION = re.compile(r"""^(\s*caption:\s*)(?:"((?:[^"\\]|\\.)*)"|([^"'\s].*?))\s*$""")
_STATEMENT_ONLY = re.compile(r"^\s*(\{%.*?%\}|\{#.*?#\}|\s)*$")
_TABLE = re.compile(r"^\s*\|")
_RULE = re.compile(r"^\s*\|?[\s:|-]*-[\s:|-]*$")  # a table's separator row: | --- | :-: |


@dataclass(frozen=True)
class Unit:
    """A span of the chapter's lines: from (first line, column) to (last line, column), 0-based
    lines, the end column exclusive."""

    first: int
    start: int
    last: int
    end: int
    text: str
    kind: str  # heading, paragraph, list item, quote, table cell, caption (of a diagram)


def units(text: str) -> list[Unit]:
    lines = text.split("\n")
    out: list[Unit] = []
    block: list[int] = []  # line numbers of the paragraph or item being read
    block_start = 0
    block_kind = "paragraph"
    fenced = False

    def close() -> None:
        nonlocal block
        if block:
            first, last = block[0], block[-1]
            body = "\n".join([lines[first][block_start:]] + [lines[i] for i in block[1:]])
            out.append(Unit(first, block_start, last, len(lines[last]), body, block_kind))
        block = []

    diagram = False
    for n, line in enumerate(lines):
        if _FENCE.match(line):
            close()
            fenced = not fenced
            diagram = fenced and line.strip()[3:].strip().startswith("diagram")
            continue
        caption = _CAPTION.match(line) if diagram else None
        if caption:
            start = len(caption[1]) + (1 if caption[2] is not None else 0)
            raw = caption[2] if caption[2] is not None else caption[3]
            body = re.sub(r"\\(.)", r"\1", raw) if caption[2] is not None else raw  # as the reader sees it
            out.append(Unit(n, start, n, start + len(raw), body, "caption"))
            continue
        if fenced or not line.strip() or _STATEMENT_ONLY.match(line):
            close()
            continue
        if _TABLE.match(line):
            close()
            if not _RULE.match(line):
                out += _cells(n, line)
            continue
        heading = _HEADING.match(line)
        if heading:
            close()
            out.append(Unit(n, len(heading[1]), n, len(heading[1]) + len(heading[2]), heading[2], "heading"))
            continue
        marked = _ITEM.match(line) or _QUOTE.match(line)
        if marked or not block:
            close()
            block, block_start = [n], len(marked[1]) if marked else len(line) - len(line.lstrip())
            block_kind = ("list item" if marked.re is _ITEM else "quote") if marked else "paragraph"
        else:
            block.append(n)
    close()
    return [u for u in out if has_words(u.text)]


def _cells(n: int, line: str) -> list[Unit]:
    out = []
    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
    for a, b in zip(bars, bars[1:]):
        cell = line[a + 1:b]
        stripped = cell.strip()
        if stripped:
            start = a + 1 + cell.index(stripped)
            out.append(Unit(n, start, n, start + len(stripped), stripped, "table cell"))
    return out


_NOTES = {"heading": "a heading of the rules", "paragraph": "a paragraph of the rules",
          "list item": "an item of a list in the rules", "quote": "a quoted paragraph of the rules",
          "table cell": "a cell of a table in the rules (keep it to one line, no |)",
          "caption": "the caption under a diagram of the rules (one line)"}


def chapter_sources(text: str, where: str) -> list[Source]:
    return [Source(where, u.first + 1, u.text, None, _NOTES[u.kind]) for u in units(text)]


def translated_chapter(text: str, lookup: Callable[[str], str]) -> str:
    """The chapter with each unit replaced by `lookup(unit text)` (the unit's markers kept)."""
    lines = text.split("\n")
    for u in reversed(units(text)):
        new = lookup(u.text)
        if new == u.text:
            continue
        if u.kind == "table cell":
            new = new.replace("\n", " ").replace("|", "\\|")
        elif u.kind == "caption":  # stays one YAML string: escaped inside its quotes, quoted when it had none
            new = " ".join(new.split())
            quoted = lines[u.first][u.start - 1:u.start] == '"'
            new = new.replace("\\", "\\\\").replace('"', '\\"')
            new = new if quoted else f'"{new}"'
        lines[u.first:u.last + 1] = (lines[u.first][:u.start] + new + lines[u.last][u.end:]).split("\n")
    return "\n".join(lines)
