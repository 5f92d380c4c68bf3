"""A rulebook's text layouts and its tables' word widths, kept on disk between processes
(render/base/templatecache.py's folder, a format of their own), as the cards' fits are
(render/base/text.py, TextFitter with `kept`).

Laying out the rulebook's and the quick reference's text (some 1,800 layouts for Boss Fight:
parsing the markup, breaking and hyphenating lines, placing runs) costs the kit's rulebook worker
some 0.08 s of CPU each time; read back, the same layouts cost a fifth of that. A layout is what
TextFitter.layout gives for the same arguments with the same fitter, so a file is named by what
names the fitter's kept fits (TextFitter.kept_key: its fonts' files, words, icons, hyphenation
dictionary, keyword colour and our code) with pyphen's version and the built-in face's file (the
word widths' spaces are measured in it); each layout is marshalled on its own (the same floats,
unpacked only when asked for: another paper's layouts in the file cost little). The rulebook, the
quick reference and `pnp validate`'s rulebook check of one pack in one language share a file.

The quick reference's size (the largest that keeps the sheet on one page, searched from 10 pt
down) is kept too, named by the sheet's text, its title's words, the page and the same fitter: a
later run lays the sheet out at that size and the next larger one (it must fit, and that one not)
rather than at every size from the largest, and searches again when either check fails."""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Callable

import pyphen
from reportlab.pdfbase.pdfmetrics import getFont

from generator.core.bounded import BoundedCache
from generator.render.base import templatecache
from generator.render.base.fonts import REGULAR
from generator.render.base.text import Layout, TextFitter, packed, unpacked

_FORM = b"pnp-book-layouts-1"
MAX_KEPT = 8192  # layouts a file keeps (~5 MB; Boss Fight's rulebook and quick reference ~1,800)


class KeptText:
    """What the books of one text fitter laid out and measured: read from the file at the first
    need, and what this process used (made or read), which `keep` writes with what was kept. The
    file holds the layouts marshalled one after the other in one string, with where each is:
    reading it makes the index and no layout; a layout is unpacked when it is asked for."""

    def __init__(self, key: str | None):
        self.key = key
        self._kept: tuple[dict, dict, bytes] | None = None  # (where each layout is, words, the layouts) as read
        self.layouts: dict = {}  # TextFitter.layout's arguments -> the layout marshalled
        self.words: dict = {}  # (text, size) -> Book.words's (widest word, natural width)

    def _read(self) -> tuple[dict, dict, bytes]:
        if self._kept is None:
            self._kept = ({}, {}, b"")
            payload = templatecache.load(self.key, _FORM) if self.key is not None else None
            try:
                kept = marshal.loads(payload) if payload is not None else None
            except (EOFError, ValueError, TypeError):
                kept = None
            if (type(kept) is tuple and len(kept) == 3 and type(kept[0]) is dict and type(kept[1]) is dict
                    and type(kept[2]) is bytes):
                self._kept = kept
        return self._kept

    def layout(self, fitter: TextFitter, args: tuple) -> Layout:
        """fitter.layout(*args), or the same layout as kept."""
        where, _, blob = self._read()
        at = where.get(args)
        lay = None
        if type(at) is tuple and len(at) == 2:
            try:
                lay = unpacked(marshal.loads(memoryview(blob)[at[0]:at[1]]))
            except (EOFError, ValueError, TypeError):
                lay = None
        if isinstance(lay, Layout):
            self.layouts[args] = at
        else:
            lay = fitter.layout(*args)
            self.layouts[args] = marshal.dumps(packed(lay))
        return lay

    def words_of(self, key: tuple, measure: Callable[[], tuple[float, float]]) -> tuple[float, float]:
        """measure(), or what it gave as kept under `key`."""
        hit = self._read()[1].get(key)
        if not (type(hit) is tuple and len(hit) == 2 and all(type(v) is float for v in hit)):
            hit = measure()
        self.words[key] = hit
        return hit

    def keep(self) -> None:
        """Write what this process used with what was kept (past MAX_KEPT layouts, its own alone),
        unless the file holds it all already."""
        if self.key is None or self._kept is None:
            return
        where, kept_words, blob = self._kept
        if all(type(v) is tuple for v in self.layouts.values()) and self.words.keys() <= kept_words.keys():
            return  # every layout used was read, every width too
        mine = {args: blob[v[0]:v[1]] if type(v) is tuple else v for args, v in self.layouts.items()}
        layouts = {args: blob[at[0]:at[1]] for args, at in where.items() if args not in mine}
        words = {**kept_words, **self.words}
        if len(layouts) + len(mine) > MAX_KEPT:
            layouts, words = {}, self.words
        layouts.update(mine)
        index, parts, end = {}, [], 0
        for args, one in layouts.items():
            index[args] = (end, end + len(one))
            parts.append(one)
            end += len(one)
        templatecache.keep(self.key, _FORM, marshal.dumps((index, words, b"".join(parts))))
        self._kept, self.layouts = None, {}  # read again should it be asked for again


# a few stores a process (a pack in a language: a long-lived process, `pnp watch`, meets others)
_STORES: BoundedCache[tuple[str, str | None], KeptText] = BoundedCache(4)


def kept_text(fitter: TextFitter) -> KeptText:
    """The store of this fitter's layouts in this process (one per file: every book of a pack shares it)."""
    key = _key(fitter)
    where = (str(templatecache.cache_dir()), key)
    store = _STORES.get(where)
    if store is None:
        store = _STORES[where] = KeptText(key)
    return store


def keep_all() -> None:
    """Write every store this process added to (the kit's rulebook worker, once both its PDFs are made)."""
    for store in _STORES.values():
        store.keep()


def _key(fitter: TextFitter) -> str | None:
    name = fitter.kept_key()  # what names the fitter's kept fits (None: a font not read from a file)
    filename = getattr(getattr(getFont(REGULAR), "face", None), "filename", None)
    if name is None or not isinstance(filename, str):
        return None
    st = os.stat(filename)
    what = repr(("book", name, pyphen.__version__, filename, st.st_size, st.st_mtime_ns))
    return hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()


# ---- the quick reference's size ---------------------------------------------------------------

_SIZE_FORM = b"pnp-quickref-size-1"


def kept_size(key: str, sizes: list[float]) -> float | None:
    """The quick reference's size kept under `key` (quickref._size_key), when it is one of `sizes`."""
    payload = templatecache.load(key, _SIZE_FORM)
    try:
        size = marshal.loads(payload) if payload is not None else None
    except (EOFError, ValueError, TypeError):
        return None
    return size if type(size) is float and size in sizes else None


def keep_size(key: str, size: float) -> None:
    templatecache.keep(key, _SIZE_FORM, marshal.dumps(size))
