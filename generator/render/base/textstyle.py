"""Marked-up card text read into styled runs: `**bold**`, `*italic*`, `:icon-name:`, a blank
line or `\\n` for a new paragraph, and the pack's keywords (status effects, action types) styled
wherever they appear. The words and runs render/base/text.py measures, breaks and fits."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from generator.render.base.fonts import BOLD, BOLD_ITALIC, DISPLAY, ITALIC, REGULAR
from generator.render.base.icons import known_icons
from generator.render.base.scripts import ARABIC, shape_arabic


@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    keyword: bool = False
    display: bool = False  # a title's text: the display face whatever its emphasis
    font: str = field(init=False, compare=False, repr=False)  # read for every run measured and placed

    def __post_init__(self):
        if self.display:
            font = DISPLAY
        elif self.bold or self.keyword:
            font = BOLD_ITALIC if self.italic else BOLD
        else:
            font = ITALIC if self.italic else REGULAR
        object.__setattr__(self, "font", font)


# The sixteen styles a run can have, made once (every run of every card text takes one).
STYLES = {(b, i, k, d): Style(b, i, k, d) for b in (False, True) for i in (False, True) for k in (False, True)
          for d in (False, True)}


# A run is a named tuple rather than a frozen dataclass: a card's text makes hundreds of them,
# and a tuple is made about three times faster (immutable all the same).
class Run(NamedTuple):
    kind: str  # "text" | "icon"
    value: str
    style: Style



class TextStyler:
    """Splits marked-up text into words of styled runs, knowing the pack's keywords."""

    def __init__(self, keywords: list[str], icons: list[str] | None = None):
        self.icons = set(icons or known_icons())
        words = sorted({k for k in keywords if k}, key=len, reverse=True)
        self.keywords = sorted(words)
        keyword_re = "|".join(re.escape(w) for w in words)
        parts = [r"(?P<nl>\n)", r"(?P<space>[ \t]+)", r"(?P<esc>\\\*)", r"(?P<bold>\*\*)", r"(?P<ital>\*)",
                 r"(?P<icon>:[a-z0-9-]+:)"]
        if keyword_re:
            parts.append(rf"(?P<kw>(?<![\w-])(?:{keyword_re})(?![\w-]))")
        # a word's text and the spaces after it, one match (most of a text: half the matches to loop
        # over), else `other` alone: the same runs and words as `other` then `space`
        parts.append(r"(?P<spaced>(?:[^\s*:\\]|\\(?!\*))+)[ \t]+")
        parts.append(r"(?P<other>(?:[^\s*:\\]|\\(?!\*))+|:)")
        self.token_re = re.compile("|".join(parts))
        # Plain text: no mark (`*`, `:`, `\`), no whitespace but spaces, tabs and new lines, no
        # keyword anywhere (the tokenizer finds keywords only where this search finds them too).
        # Its words are then exactly str.split()'s, one run each.
        plain = [r"[*:\\]", r"[^\S \t\n]"] + ([rf"(?<![\w-])(?:{keyword_re})(?![\w-])"] if keyword_re else [])
        self.not_plain_re = re.compile("|".join(plain))

    def paragraphs(self, text: str, font: str = "regular") -> list[list[list[Run]]]:
        """Paragraphs → words → runs."""
        text = text.replace("\r\n", "\n").strip()
        if self.not_plain_re.search(text) or ARABIC.search(text):
            return self._tokenized(text, font)
        style = STYLES[("bold" in font, "italic" in font, False, font == "display")]
        paragraphs = []
        for line in text.split("\n"):
            words = line.split()
            if words:
                paragraphs.append([[Run("text", w, style)] for w in words])
        return paragraphs

    def _tokenized(self, text: str, font: str = "regular") -> list[list[list[Run]]]:
        """Paragraphs → words → runs, token by token. (Every marked-up card text passes here: the
        loop keeps the current styles in hand and tests the commonest tokens first.)"""
        paragraphs: list[list[list[Run]]] = [[]]
        para = paragraphs[0]  # the paragraph being filled
        word: list[Run] = []
        base_bold, base_italic = "bold" in font, "italic" in font  # the element's font
        display = font == "display"
        marked_bold = marked_italic = False  # markup adds emphasis; it never removes the base
        plain, keyword = STYLES[(base_bold, base_italic, False, display)], STYLES[(base_bold, base_italic, True, display)]
        # every run is a piece of the text: with no Arabic letter in it, no run needs shaping
        shape = shape_arabic if ARABIC.search(text) else None
        icons = self.icons
        run = tuple.__new__  # Run(...) without its Python-level __new__: the same tuple

        for m in self.token_re.finditer(text):
            kind = m.lastgroup
            if kind == "spaced":  # a word's last run, then the word ends
                value = m.group(kind)
                word.append(run(Run, ("text", shape(value) if shape else value, plain)))
                para.append(word)
                word = []
            elif kind == "other" or kind == "kw" or (kind == "icon" and m.group()[1:-1] not in icons):
                value = m.group()
                word.append(run(Run, ("text", shape(value) if shape else value, keyword if kind == "kw" else plain)))
            elif kind == "space" or kind == "nl":
                if word:
                    para.append(word)
                    word = []
                if kind == "nl" and para:
                    para = []
                    paragraphs.append(para)
            elif kind == "icon":
                word.append(run(Run, ("icon", m.group()[1:-1], plain)))
            elif kind == "esc":  # `\*`: a literal asterisk
                word.append(run(Run, ("text", "*", plain)))
            else:  # `**` or `*`: emphasis on or off from here
                if kind == "bold":
                    marked_bold = not marked_bold
                else:
                    marked_italic = not marked_italic
                bold, italic = base_bold or marked_bold, base_italic or marked_italic
                plain, keyword = STYLES[(bold, italic, False, display)], STYLES[(bold, italic, True, display)]
        if word:
            para.append(word)
        return [p for p in paragraphs if p]
