"""Parts of the editor's HTML drawn once and used again: a card's row in a character's list,
a chart. A click changes one or two of them; the others come back as they were drawn the last
time, in this worker, for the same values.

A part is a macro of a template the macro imports nothing into, called with everything it
shows as its arguments, so those arguments (with the template's and the macro's name) are the
whole of what its HTML is made from: they are the key. They are plain values (text, numbers,
None, tuples of them; a violation list already drawn as HTML), so equal keys draw equal HTML.
The parts are kept in a bounded map (generator.web.memo.Recent), least recently used dropped
first; nothing in it is needed."""

from __future__ import annotations

from typing import cast

from jinja2 import Environment
from markupsafe import Markup

from generator.web.memo import Recent
from generator.web.words import page_language

MAX_BYTES = 4 * 1024 * 1024  # per worker and app: some 6,000 rows of a card list
MAX_ENTRY = 64 * 1024


class Fragments:
    """`kept(template, macro, *args)` in a template: the macro's HTML for these arguments,
    drawn at the first call and kept. The templates are read once per environment
    (templates() sets no auto-reload), so a kept part never outlives its template."""

    def __init__(self, env: Environment, max_bytes: int = MAX_BYTES, max_entry: int = MAX_ENTRY):
        self.env = env
        self.kept = Recent(max_bytes, max_entry)

    def __call__(self, template: str, macro: str, *args) -> Markup:
        key = (template, macro, page_language(), args)  # the builder's words are the page's language's
        html = self.kept.get(key)
        if html is None:
            html = getattr(self.env.get_template(template).module, macro)(*args)
            self.kept.put(key, html)
        return cast(Markup, html)  # what the macro gave (a Markup: the environment autoescapes)
