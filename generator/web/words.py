"""The builder's own words (buttons, menus, headings, form labels, the frame of a message) in
the language a page is shown in. The templates mark them as card layouts mark theirs,
`{{ _("Save") }}` and `{{ _("{n} cards").format(n=3) }}`; pnp ships their translations as its
own PO files, `locale/<lang>.po` beside this module (German: de.po), read by the same code as a
pack's translations (pack/translations/catalog.py, Babel), made and updated with
`python tools/builder_words.py --lang de` (the same `updated_catalog`: a changed word is marked
fuzzy, a new one added empty).

A page speaks the language of the pack it shows (`Site.pack` sets `SHOWN`: the pack's
translation when it has one, else the pack as written), and a page without a pack the one asked
for (`?lang=`, web/language.py); a language pnp has no words for, or an install without Babel,
shows them in English, as written. The words of one language are read once per process."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from generator.core.yamlio import display_path
from generator.pack.translations.catalog import has_babel, plural_rule, read_po_file, usable_plurals, usable_strings
from generator.pack.translations.layouts import marked
from generator.pack.translations.table import Source, Translation
from generator.web.language import LANG, SHOWN

LOCALE = Path(__file__).parent / "locale"
TEMPLATES = Path(__file__).parent / "templates"
COMMUNITY = Path(__file__).parent.parent / "community"  # the shared site's pages draw with the builder's words
SOURCE_LANGUAGE = "en"  # the words as the templates write them
# gettext("...") or pgettext("context", "...") in a route: one line, no escapes
_CALLED = re.compile(r'\b(?:p?gettext)\((?:"((?:[^"\\]|\\.)*)", )?"((?:[^"\\]|\\.)*)"\)')


def builder_languages() -> list[str]:
    """The languages pnp has the builder's words in (locale/*.po)."""
    return sorted(p.stem for p in LOCALE.glob("*.po"))


def builder_words(lang: str | None) -> Translation | None:
    """The builder's words in `lang`, None where they print as written (English, a language
    without a catalogue, no Babel)."""
    if not lang or lang == SOURCE_LANGUAGE or not has_babel():
        return None
    return _read(lang)


@lru_cache(maxsize=16)
def _read(lang: str) -> Translation | None:
    if lang not in builder_languages():
        return None
    path = LOCALE / f"{lang}.po"
    catalog = read_po_file(path, lang)
    return Translation(lang, SOURCE_LANGUAGE, display_path(path), usable_strings(catalog),
                       plurals=usable_plurals(catalog), plural_rule=plural_rule(catalog, display_path(path)))


def page_language() -> str | None:
    """The language of the page being drawn: its pack's, else the one asked for."""
    return SHOWN.get() or LANG.get()


def words_language() -> str:
    """The language of the builder's words on the page being drawn (a page without a pack says
    it in `<html lang>`): the page's, where pnp has its words, else English."""
    lang = page_language()
    return lang if lang and builder_words(lang) is not None else SOURCE_LANGUAGE


def gettext(text: str) -> str:
    """`_("Save")` in a template: the word in the page's language. Markup, as Jinja's own i18n
    extension gives it (typed as the str it is): the words are the template's (and pnp's own
    de.po, whose entries a test holds to the same markup), so they print as written, and
    `.format(name=...)` escapes what it fills in (a route's title, a fix button's label too)."""
    words = builder_words(page_language())
    return Markup(words.gettext(text) if words is not None else text)


def pgettext(context: str, text: str) -> str:
    words = builder_words(page_language())
    return Markup(words.pgettext(context, text) if words is not None else text)


# the words static/app.js writes itself (its `tr("...")`), given to it by the editor page where they are not English
JS_WORDS = ("This is a copy: save it to keep it.", "{name} (copy)", "at most {n}", "({shown} of {count})", " (at character {n})")


def js_words() -> dict[str, str]:
    """JS_WORDS in the page's language, for the editor's script; empty in English (the page
    then carries none, as it did before it had any other language)."""
    words = builder_words(page_language())
    if words is None:
        return {}
    return {text: words.gettext(text) for text in JS_WORDS if words.gettext(text) != text}


def builder_sources() -> list[Source]:
    """Every word the builder's templates mark, with its template and line, and the editor
    script's (what de.po holds)."""
    out: list[Source] = []
    for folder, where in ((TEMPLATES, "web"), (COMMUNITY / "templates", "community")):
        for path in sorted(folder.glob("*.html")):
            for line, context, text in marked(path.read_text(encoding="utf-8")):
                out.append(Source(f"pnp/{where}/{path.name}", line, text, context, "the deck builder's own words"))
    for folder, where in ((Path(__file__).parent, "web"), (COMMUNITY, "community")):
        for path in sorted(p for p in folder.glob("*.py") if p.name != "words.py"):  # a route's title
            for n, code in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                out += [Source(f"pnp/{where}/{path.name}", n, text, context or None, "the deck builder's own words: a page title")
                        for context, text in _CALLED.findall(code)]
    out += [Source("pnp/web/static/app.js", None, text, None, "the deck builder's own words, written by its script")
            for text in JS_WORDS]
    return out
