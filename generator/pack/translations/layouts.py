"""The words the templates mark for translation: card layouts (`text: "{{ _('Hero') }} — ..."`)
and the rulebook's page templates, found with Jinja's own extractor (`_`, `gettext`, and
`pgettext(context, text)` with a literal text). The templates a pack uses are its own
`templates/` first, then the ones pnp ships (referenced as `pnp/templates/...`)."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core import kept
from generator.core.errors import InputError
from generator.core.resources import TEMPLATES
from generator.core.yamlio import Document, load_yaml_file
from generator.pack.translations.table import Source

if TYPE_CHECKING:
    from jinja2 import Environment

GETTEXT_FUNCTIONS = ("_", "gettext", "pgettext")
_NOTE = {"cards": "words of a card layout", "rulebook": "words of a rulebook page"}
_EXPRESSION_KEYS = ("items", "hexes", "cells", "when")


def used_templates(root: Path, kind: str, suffix: str) -> list[tuple[Path, str]]:
    """(path, reference name) of each template of `kind` (cards, rulebook) the pack uses: its
    own, then pnp's that it does not replace."""
    out: dict[str, tuple[Path, str]] = {}
    for folder, prefix in ((Path(root) / "templates" / kind, f"templates/{kind}/"),
                           (TEMPLATES / kind, f"pnp/templates/{kind}/")):
        if folder.is_dir():
            for path in sorted(folder.glob(f"*{suffix}")):
                out.setdefault(path.name, (path, prefix + path.name))
    return [out[name] for name in sorted(out)]


def marked(source: str, env: Environment | None = None) -> Iterator[tuple[int, str | None, str]]:
    """(line in the source, context, text) of each literal `_()`/`pgettext()` call of a Jinja
    template (the builder's pages mark their words so too: web/words.py)."""
    # deferred: Jinja (~25 ms) loads only when a layout is read for its words, which loading a pack
    # in its own language (`pnp validate BUILD`) never does
    from jinja2 import Environment, TemplateSyntaxError
    from jinja2.ext import extract_from_ast
    env = env or Environment()
    try:
        tree = env.parse(source)
    except TemplateSyntaxError:
        return  # the renderer reports a broken template where it is used
    for line, function, message in extract_from_ast(tree, GETTEXT_FUNCTIONS, babel_style=False):
        args = tuple(message) if isinstance(message, tuple) else (message,)
        if function == "pgettext" and len(args) == 2 and isinstance(args[0], str) and isinstance(args[1], str):
            yield line, args[0], args[1]
        elif function != "pgettext" and args and isinstance(args[0], str):
            yield line, None, args[0]


def layout_sources(root: Path, read: Callable[[Path], Document] = load_yaml_file) -> list[Source]:
    """The words of the card layouts and rulebook pages the pack uses; `read` parses a layout
    (the run's parsed files: pack/documents.py). Kept in the cache folder for the next process
    (below)."""
    cards, pages = used_templates(root, "cards", ".yaml"), used_templates(root, "rulebook", ".md")
    key = _kept_key(cards + pages)
    payload = kept.load(key, _FORMAT) if key is not None else None
    if payload is not None:
        try:
            rows = marshal.loads(payload)
            if type(rows) is list and all(type(row) is tuple and len(row) == 5 for row in rows):
                return [Source(*row) for row in rows]
        except (EOFError, ValueError, TypeError):
            pass  # not what was kept: found and written again
    out = _found(cards, pages, read)
    if key is not None:
        kept.keep(key, _FORMAT, marshal.dumps([(s.where, s.line, s.text, s.context, s.note) for s in out]))
    return out


# The words found are kept in the cache folder (core/kept.py), marshalled: Jinja's import and its
# parse of every layout text and rulebook page cost a load that counts what falls back (`pnp build
# --lang`, the builder) ~30 ms, the kept words well under one. They are named by the sha256 of the
# templates' names and bytes, of Jinja's files and of the pack package's code (by size and mtime).
_FORMAT = b"pnp-layout-words-1"


def _kept_key(templates: list[tuple[Path, str]]) -> str | None:
    h = hashlib.sha256(kept.folder_fingerprint(Path(__file__).resolve().parents[1]))  # generator/pack
    jinja = importlib.util.find_spec("jinja2")  # its files as __pycache__ judges a source, without importing it
    if jinja is not None and jinja.origin:
        kept.sources_fingerprint(h, os.path.dirname(jinja.origin))
    for path, where in templates:
        try:
            data = path.read_bytes()
        except OSError:
            return None  # found (and said) the usual way
        h.update(f"\0{where}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


def _found(cards: list[tuple[Path, str]], pages: list[tuple[Path, str]], read: Callable[[Path], Document]) -> list[Source]:
    from jinja2 import Environment  # deferred with marked's
    env = Environment()
    out = []
    for path, where in cards:
        try:
            doc = read(path)
        except InputError:
            continue  # the layout loader reports it
        data = doc.data if isinstance(doc.data, dict) else {}
        for part in ("frame", "elements"):
            elements = data.get(part)
            for i, element in enumerate(elements if isinstance(elements, list) else []):
                if not isinstance(element, dict):
                    continue
                for key, value in element.items():
                    if not isinstance(value, str) or (key != "text" and key not in _EXPRESSION_KEYS):
                        continue
                    source = value if key == "text" else "{{ " + value + " }}"
                    line = doc.at((part, i, key)).line or 1
                    for _n, context, text in marked(source, env):
                        out.append(Source(where, line, text, context, _NOTE["cards"]))
    for path, where in pages:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for line, context, words in marked(text, env):
            out.append(Source(where, line, words, context, _NOTE["rulebook"]))
    return out
