"""Card text in any script the pack's fonts can print.

- Glyphs are checked against the font each run is actually set in (the pack's own fonts
  from game.yaml `fonts:`, else the built-in family), so a pack with a Hebrew or CJK
  TrueType font prints those scripts and a missing glyph names the style that lacks it.
- Arabic letters are shaped first, in logical order (arabic-reshaper): each letter takes
  its initial, medial, final or isolated form and lam-alef its ligature, so the words are
  joined, measured and checked for glyphs as they will print. The forms are Unicode's
  presentation forms, so the pack's font must have them (DejaVu Sans does). A style
  change inside a word (`**` in mid-word) breaks the joining there.
- Right-to-left text is put in visual order per line, after line breaking: the words of a
  line are reordered by the Unicode bidi rule (L2) at word level, and the characters of a
  right-to-left word by python-bidi. python-bidi and arabic-reshaper are the `rtl` extra:
  without them right-to-left text is an error naming the card, never text in the wrong order.
- Zero-width and bidi control characters are invisible, print as empty boxes in most fonts
  and can hide text: they are removed, with a note.
- Markup: `\\*` is a literal asterisk; an unmatched `**` or `*` is an error naming the card.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib.util import find_spec

from generator.core.errors import InputError, Location, Problem
from generator.core.extras import install_line
from generator.render.base.fonts import BOLD, BOLD_ITALIC, DISPLAY, ITALIC, REGULAR

ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")  # letters that join
INVISIBLE = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_RTL_CLASSES = {"R", "AL"}


def strip_invisible(text: str) -> tuple[str, list[str]]:
    """The text without zero-width and bidi control characters, and the ones removed
    (as `U+200B ZERO WIDTH SPACE`), for a note."""
    found = sorted(set(INVISIBLE.findall(text)))
    if not found:
        return text, []
    names = [f"U+{ord(ch):04X} {unicodedata.name(ch, 'control character')}" for ch in found]
    return INVISIBLE.sub("", text), names


@functools.lru_cache(maxsize=64)
def font_coverage(font_name: str) -> frozenset:
    """Code points a registered TrueType font can draw."""
    # deferred: ReportLab loads only when something is drawn
    from reportlab.pdfbase import pdfmetrics
    return frozenset(pdfmetrics.getFont(font_name).face.charToGlyph)


@functools.lru_cache(maxsize=16)
def common_coverage(font_names: tuple) -> frozenset:
    """Code points every one of these fonts can draw."""
    return frozenset.intersection(*(font_coverage(name) for name in font_names))


STYLE_NAMES = {0: "regular", 1: "bold", 2: "italic", 3: "bold-italic"}


def missing_glyphs(fitter, text: str, font: str = "regular") -> dict[str, list[str]]:
    """Per font style, the characters of `text` that style's font cannot draw."""
    style_of = {REGULAR: "regular", BOLD: "bold", ITALIC: "italic", BOLD_ITALIC: "bold-italic", DISPLAY: "display"}
    # fast path, exact: every run is a piece of the text, so when all four styles draw every
    # character of the text there is nothing to report (this runs for every text of every card)
    common = common_coverage(tuple(sorted(set(fitter.family.values()))))
    chars = set(text)
    if not ARABIC.search(text) and (common.issuperset(map(ord, chars))  # most texts: a test in C
                                    or all(ord(ch) in common or ch.isspace() for ch in chars)):
        return {}  # (Arabic prints in shaped forms: those are checked below, run by run)
    out: dict[str, set] = {}
    for para in fitter.parsed(text, font):
        for word in para:
            for run in word:
                if run.kind != "text":
                    continue
                covered = font_coverage(fitter.family[run.style.font])
                bad = {ch for ch in run.value if ord(ch) not in covered and not ch.isspace()}
                if bad:
                    out.setdefault(style_of.get(run.style.font, "regular"), set()).update(bad)
    return {k: sorted(v) for k, v in out.items()}


def unmatched_markup(styler, text: str) -> str | None:
    """`**` or `*` opened and never closed in one text (it would run bold or italic to the end)."""
    if "*" not in text:  # no mark at all (most card texts): nothing to match
        return None
    bold = italic = None
    for m in styler.token_re.finditer(text.replace("\r\n", "\n")):
        if m.lastgroup == "bold":
            bold = None if bold is not None else m.start()
        elif m.lastgroup == "ital":
            italic = None if italic is not None else m.start()
    for mark, at in (("**", bold), ("*", italic)):
        if at is not None:
            snippet = text[max(0, at - 15):at + 25].replace("\n", " ")
            return f"an unmatched `{mark}` at character {at + 1} (…{snippet}…)"
    return None


# ---- right to left ---------------------------------------------------------------------



@functools.lru_cache(maxsize=1)
def rtl_available() -> bool:
    """python-bidi and arabic-reshaper are the `rtl` extra (most packs have no right-to-left
    text, so the default install leaves them out); text that needs them stops the build with
    a message naming the card (render/cards/text_checks.py) instead of printing in the wrong
    order."""
    return find_spec("bidi") is not None and find_spec("arabic_reshaper") is not None


def rtl_missing(text: str) -> str | None:
    """What is missing to print this text, or None (no right-to-left letters, or the extra is there)."""
    if rtl_available() or not has_rtl(text):  # cached first: with the extra installed no text is scanned
        return None
    return "python-bidi and arabic-reshaper"


def _rtl_import_error(text: str) -> InputError:
    """Right-to-left text outside a card (a rulebook, a roster) when the `rtl` extra is missing."""
    return InputError([Problem("text.rtl", f"the text “{text[:40]}” reads right to left, and putting it in print "
                               "order needs python-bidi and arabic-reshaper, which this install does not have",
                               Location("(text)"), found=text[:60], expected="the `rtl` extra installed",
                               fix=f"add the `rtl` extra: {install_line('rtl')}")])


def shape_arabic(text: str) -> str:
    """Arabic letters in the contextual forms that join them, still in logical order (the
    bidi step puts each line in visual order later). Other text is returned as it is."""
    if not ARABIC.search(text):
        return text
    try:
        import arabic_reshaper  # only text with Arabic letters needs it
    except ModuleNotFoundError:
        raise _rtl_import_error(text) from None
    return arabic_reshaper.reshape(text)


def _strong(text: str) -> int | None:
    """1 for right-to-left, 0 for left-to-right, by the first strong character; None if none."""
    for ch in text:
        cls = unicodedata.bidirectional(ch)
        if cls in _RTL_CLASSES:
            return 1
        if cls == "L":
            return 0
    return None


def has_rtl(text: str) -> bool:
    if not text or max(text) < "\u0590":  # nothing right-to-left comes before Hebrew
        return False
    return any(unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in text)


def visual_words(words: list, text_of) -> list:
    """Words of one line (logical order) in the order they are drawn, left to right, each with
    whether it reads right to left. `text_of(word)` gives a word's text."""
    texts = [text_of(w) for w in words]
    if not any(has_rtl(t) for t in texts):
        return [(w, False) for w in words]
    strong = [_strong(t) for t in texts]
    base = next((s for s in strong if s is not None), 0)
    levels = []
    for i, s in enumerate(strong):
        if s is None:  # numbers and punctuation: between two words of one direction, take it
            before = next((x for x in reversed(strong[:i]) if x is not None), base)
            after = next((x for x in strong[i + 1:] if x is not None), base)
            s = before if before == after else base
        levels.append(s if base == 0 else (1 if s == 1 else 2))
    order = list(range(len(words)))
    for k in range(max(levels), 0, -1):  # rule L2: reverse every run at level k or above
        i = 0
        while i < len(order):
            if levels[order[i]] >= k:
                j = i
                while j < len(order) and levels[order[j]] >= k:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return [(words[i], levels[i] % 2 == 1) for i in order]


def rtl_text(text: str) -> str:
    """The characters of a right-to-left word in visual order (python-bidi)."""
    try:
        # deferred: the `rtl` extra, imported only for right-to-left text
        from bidi import get_display
    except ModuleNotFoundError:
        raise _rtl_import_error(text) from None
    return get_display(text, base_dir="R")
