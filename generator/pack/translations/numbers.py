"""Numbers as a language writes them: "97,4 %" and "25,4 mm" in German, "97.4 %" in English.
Only for text a person reads (a table's cell, a rulebook's sentence, a label on a sheet); never
for a number a program reads back (SVG and PDF attributes, CSS, URLs, data- attributes, JSON,
CSV, markers), which stay as Python writes them.

The source language (English, or no language) is written exactly as Python's `format` writes it,
so a kit or a page in English is the same to the byte; another language goes through Babel's
number formatting (the `translations` extra, which a translated pack or page needs anyway). An
install without Babel, or a language Babel does not know, writes numbers as Python does."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.pack.model import Pack

SOURCE = ("", "en")  # languages whose numbers print as Python writes them


def number(value: float, lang: str | None = None, digits: int | None = None) -> str:
    """`value` as `lang` writes it: with `digits` decimals ("{:.1f}"), or without them as
    short as it is exact ("{:g}": 25.4, 25)."""
    locale = _locale(lang) if lang and lang not in SOURCE else None
    if locale is None:
        return f"{value:.{digits}f}" if digits is not None else f"{value:g}"
    from babel.numbers import format_decimal  # deferred: Babel (the translations extra) only for another language
    pattern = ("0." + "0" * digits if digits else "0") if digits is not None else "#,##0.######"
    return format_decimal(value, format=pattern, locale=locale)


@lru_cache(maxsize=16)
def _locale(lang: str) -> Any:
    """Babel's locale for `lang` (`de`, `pt-BR`), or None: no Babel, or a language it does not know."""
    try:
        # deferred: Babel is an optional extra, asked for only when a page or kit is in another language
        from babel import Locale, UnknownLocaleError
    except ImportError:
        return None
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


def numbers_of(pack: Pack) -> Callable[..., str]:
    """`number` in the pack's language (the language it was loaded in: its translation's), as
    `words_of(pack)` gives its words: `num(25.4)`, `num(97.43, 1)`."""
    lang = pack.translation.language if pack.translation is not None else None

    def num(value: float, digits: int | None = None) -> str:
        return number(value, lang, digits)
    return num
