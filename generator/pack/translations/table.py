"""A translation as a loaded pack carries it (`Pack.translation`): the translated strings by
(context, source text), and the pack's strings that print in the source language because the
translation has nothing usable for them (missing, or stale after a change to the source).
Plain values only: the pack travels to the build's worker processes with it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

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
    language_name: str = ""  # `German`, as messages say it
    lines: dict[Key, int] = field(default_factory=dict)  # each entry's line in the PO file, where it has one

    @cached_property
    def digest(self) -> str:
        """What the translation's words are, as a hash: a cache of drawn cards (the builder's
        images) keys on it, since a layout's own words come from here and not from the card."""
        text = "\n".join(f"{c or ''}\x1f{s}\x1f{t}" for (c, s), t in sorted(self.strings.items(), key=str))
        return hashlib.sha256(f"{self.language}\n{text}".encode()).hexdigest()

    @property
    def said(self) -> str:
        """`German (de)`."""
        return f"{self.language_name or self.language} ({self.language})"

    def gettext(self, text: str) -> str:
        return self.strings.get((None, text), text)

    def pgettext(self, context: str, text: str) -> str:
        return self.strings.get((context, text), text)

    @property
    def fallbacks(self) -> tuple[Source, ...]:
        return self.missing + self.stale


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
