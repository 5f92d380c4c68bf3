"""What tests/test_web_words.py and tests/test_community_social.py both ask of a page under
`?lang=de`: pnp's German words (generator/web/locale/de.po) and the builder's English words a
German page still shows (`english_left`, whose self-test is in test_web_words.py). Needs Babel:
import it after `pytest.importorskip("babel")`."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from generator.pack.translations.catalog import read_catalog
from generator.web.words import LOCALE

NAMES = re.compile(r"\{(\w+)\}")
MARKUP = re.compile(r"</?\w+[^>]*>|&\w+;")
# words German writes as English does (a name, a symbol); any other English word on a German page is a leftover
SAME_IN_GERMAN = {"Deck", "Limit", "Set", "{n} × {name}"}


def german() -> dict[tuple[str | None, str], str]:
    catalog = read_catalog(LOCALE / "de.po", "de")
    return {(m.context, m.id): m.string for m in catalog if m.id and not m.fuzzy}


class Shown(HTMLParser):
    """What a page shows a person or a screen reader: its text, and the labels, titles and
    placeholders of its controls (not scripts, nor the build document's JSON)."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template", "code", "kbd"):  # code: a search operator, a command
            self.skip += 1
        self.parts += [v.strip() for k, v in attrs if k in ("aria-label", "title", "placeholder") and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "code", "kbd"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts += [part.strip() for part in re.split(r"\s*[·↑↓]\s*|\n", data) if part.strip()]


def english_left(page: str) -> set[str]:
    """The builder's English words (those without names to fill in, and other than their
    German) that a page shows whole, as a text or a control's label."""
    shown = Shown()
    shown.feed(page)
    english = {source for (_c, source), text in german().items()
               if not NAMES.search(source) and not MARKUP.search(source) and source != text and source not in SAME_IN_GERMAN}
    return {part for part in shown.parts if part in english or part.rstrip(":") + ":" in english}
