"""A translation as a loaded pack carries it (`Pack.translation`): the translated strings by
(context, source text), and the pack's strings that print in the source language because the
translation has nothing usable for them (missing, or stale after a change to the source).
Plain values only: the pack travels to the build's worker processes with it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from collections.abc import Callable
from functools import cached_property, lru_cache

Key = tuple[str | None, str]  # (msgctxt, msgid)


@dataclass(frozen=True)
class Source:
    """One player-visible string of a pack: where it comes from (a PO reference: a file and
    line, or `card/<id>/<field>` without a line), what it says, the context that tells two
    meanings of the same words apart, and a note for the translator."""

    where: str
    line: int | None
    text: str
    context: str | None = None
    note: str = ""
    plural: str | None = None  # the source's plural ("{n} cards" to the text's "{n} card"): a plural entry

    @property
    def key(self) -> Key:
        return (self.context, self.text)

    @property
    def reference(self) -> str:
        return self.where if self.line is None else f"{self.where}:{self.line}"


@dataclass(frozen=True)
class Translation:
    """The strings of one language. `gettext`/`pgettext` answer the source text itself when
    the translation has none, as gettext does."""

    language: str
    source_language: str
    file: str  # the PO file, as messages name it
    strings: dict[Key, str] = field(default_factory=dict)
    # the pack's strings that print in the source language: no translation yet, or a stale one
    missing: tuple[Source, ...] = ()
    stale: tuple[Source, ...] = ()
    # `German`, as messages say it (`language_name`); None: Babel names the language when a message
    # asks (its English locale data costs 9 ms to load, and most loads never say the name)
    named: str | None = ""
    lines: dict[Key, int] = field(default_factory=dict)  # each entry's line in the PO file, where it has one
    # the plural entries (msgid_plural): their forms by (context, singular), and the language's rule
    # choosing one (the PO file's Plural-Forms header, a C expression of n: German "(n != 1)")
    plurals: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    plural_rule: str = "(n != 1)"

    @cached_property
    def digest(self) -> str:
        """What the translation's words are, as a hash: a cache of drawn cards (the builder's
        images) keys on it, since a layout's own words come from here and not from the card."""
        text = "\n".join(f"{c or ''}\x1f{s}\x1f{t}" for (c, s), t in sorted(self.strings.items(), key=str))
        text += "".join(f"\n{c or ''}\x1f{s}\x1e{chr(0x1f).join(t)}" for (c, s), t in sorted(self.plurals.items(), key=str))
        return hashlib.sha256(f"{self.language}\n{text}".encode()).hexdigest()

    @cached_property
    def language_name(self) -> str:
        return self.named if self.named is not None else language_name(self.language)

    @property
    def said(self) -> str:
        """`German (de)`."""
        return f"{self.language_name or self.language} ({self.language})"

    def gettext(self, text: str) -> str:
        return self.strings.get((None, text), text)

    def pgettext(self, context: str, text: str) -> str:
        return self.strings.get((context, text), text)

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        """The words for `n` of a thing ("{n} Karte", "{n} Karten"): the form the language's rule
        picks, or the source's own where the translation has none. `context` tells the entry from
        a singular one of the same words (msgctxt)."""
        forms = self.plurals.get((context, singular))
        if forms is None:
            return source_ngettext(singular, plural, n)
        return forms[min(max(plural_index(self.plural_rule, n), 0), len(forms) - 1)]

    @property
    def fallbacks(self) -> tuple[Source, ...]:
        return self.missing + self.stale


def language_name(lang: str) -> str:
    """`German` for `de`, as Babel's locale data names it (the code itself without Babel or when
    it knows none)."""
    try:
        from babel import Locale, UnknownLocaleError  # deferred: the `translations` extra
    except ImportError:
        return lang
    try:
        return Locale.parse(lang, sep="-").english_name or lang
    except (UnknownLocaleError, ValueError):
        return lang


def source_ngettext(singular: str, plural: str, n: int, context: str | None = None) -> str:
    """English's two forms: one (and minus one) takes the singular, as core/words.py's `counted`
    has always put "N word(s)" right."""
    return singular if n in (1, -1) else plural


@lru_cache(maxsize=16)
def _rule(expression: str) -> Callable[[int], int]:
    import gettext  # deferred: only a translated pack's plural words need it
    return gettext.c2py(expression)


def plural_index(expression: str, n: int) -> int:
    """Which form a PO file's plural rule (`(n != 1)`, Polish's three-way one) picks for `n`;
    gettext's own parser of the rule, which checks it is one."""
    return int(_rule(expression)(abs(n)))


def identity_gettext(text: str) -> str:
    return text


def identity_pgettext(context: str, text: str) -> str:
    return text


def words_for(translation: Translation | None) -> dict[str, object]:
    """What a Jinja template (a card layout, a rules chapter, a rulebook page) calls to look up
    its own words: `_('Hero')`, `gettext('Hero')`, `pgettext('piece_type', card.piece_type)`.
    In the source language each returns the text it is given."""
    if translation is None:
        return {"_": identity_gettext, "gettext": identity_gettext, "pgettext": identity_pgettext}
    return {"_": translation.gettext, "gettext": translation.gettext, "pgettext": translation.pgettext}
