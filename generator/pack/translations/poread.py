"""A PO file read as a pack's load needs it, in two thirds of the time of Babel's `read_po`.

Every pack loaded in another language reads its PO file (`pnp validate`'s language workers,
`pnp build --lang`, the builder's words), and Babel's reader costs calls per line and a Message
per entry (17 ms of Boss Fight's German load, 11 here, much of it for comments and flags the load never
reads). This reader takes the file's usual shape in one loop: an entry is its comments, then
`[msgctxt] msgid [msgid_plural] msgstr|msgstr[N]...`, each string on its keyword's line and the
quoted lines after it, unescaped by Babel's own `unescape`. The load reads each entry's words,
context, fuzzy flag, line and references (PoEntry, the values of Babel's Message); the header
goes through Babel's Catalog as Babel's parser puts it (language, plural rule, charset), and
`PoFile.catalog()` makes the rest the Messages Babel's parser makes, with the same arguments, for
what reads the whole file (`pnp translate`, the count of what falls back).

What it is not sure to read as Babel does (a line Babel refuses, obsolete `#~` entries, a keyword
out of its usual order, an entry twice, no header first, a header naming another charset, text
that is not UTF-8) makes it give up: `quick_po_file` answers None, and Babel reads the file, with
its own errors at their lines. tests/test_po_read.py compares the two on the shipped files and
on generated ones. What it reads is kept in the cache folder for the next process (below).
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple, cast

from generator.core import kept

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

_WS = " \t\n\r\x0b\x0c"  # what bytes.strip() strips: Babel strips each line before decoding it
_IDLE, _CTXT, _ID, _PLURAL, _STR = range(5)  # where the reader is in an entry
# what Babel's parser gives Message(...) for an entry: msgid, msgstr(s), locations, flags, automatic
# and translator's comments, the msgid's line, msgctxt
Where = list[tuple[str, int]]  # Babel's type of a message's references; its parser puts None for a reference without a line
Row = tuple[str | tuple[str, ...], str | tuple[str, ...], list[tuple[str, int | None]], list[str], list[str],
            list[str], int, str | None]


class PoEntry(NamedTuple):
    """An entry as a load reads it, with the values (and names) of Babel's Message."""

    id: str | tuple[str, ...]  # a plural entry's: (singular, plural)
    string: str | tuple[str, ...]  # a plural entry's: each form
    context: str | None
    fuzzy: bool
    lineno: int | None
    locations: Sequence[tuple[str, int | None]]


class PoFile:
    """A PO file as a pack's load reads it: its entries (PoEntry, in the file's order, the
    header left out as Babel's catalog keeps it apart) and its header as Babel reads it (the
    language and the plural rule); `catalog()` the whole file as Babel's Catalog."""

    def __init__(self, locale_identifier: str | None, plural_expr: str, entries: list[PoEntry],
                 make: Callable[[], Catalog], digest: bytes | None = None):
        self.locale_identifier, self.plural_expr, self.entries, self._make = locale_identifier, plural_expr, entries, make
        self.digest = digest  # the sha256 of the file's bytes, when it was read here (not by Babel)
        self._catalog: Catalog | None = None
        self._keys: dict[tuple[str, str | None], PoEntry] | None = None

    @classmethod
    def of(cls, catalog: Catalog) -> PoFile:
        """The file as Babel's catalog holds it."""
        entries = [PoEntry(m.id if isinstance(m.id, str) else tuple(m.id),
                           m.string if isinstance(m.string, str) else tuple(m.string or ()),
                           m.context, m.fuzzy, m.lineno, m.locations)
                   for m in islice(catalog, 1, None)]  # the header (made anew from the catalog's) first
        return cls(catalog.locale_identifier, catalog.plural_expr, entries, lambda: catalog)

    def __iter__(self) -> Iterator[PoEntry]:
        return iter(self.entries)

    def get(self, id: str, context: str | None = None) -> PoEntry | None:
        """The entry of `id` (a plural one's singular) in `context`, as Catalog.get finds it."""
        if self._keys is None:
            self._keys = {(e.id if isinstance(e.id, str) else e.id[0], e.context): e for e in self.entries}
        return self._keys.get((id, context))

    def catalog(self) -> Catalog:
        """The whole file (translators' comments, flags, the header's fields) as Babel's Catalog,
        made once: what `pnp translate` and the count of what falls back read."""
        if self._catalog is None:
            self._catalog = self._make()
        return self._catalog


def quick_po_file(raw: bytes, charset: str = "utf-8") -> PoFile | None:
    """The file `read_po(io.BytesIO(raw), charset=charset, abort_invalid=True)` would read, or
    None where Babel is to read it: as kept by an earlier process (below), else read here."""
    from babel.messages.catalog import Catalog  # deferred: the `translations` extra
    digest = hashlib.sha256(raw).digest()
    key = hashlib.sha256(_reader_fingerprint() + charset.encode() + b"\0" + digest).hexdigest()
    payload = kept.load(key, _FORMAT)
    if payload is not None:
        try:
            locale_identifier, plural_expr, header_row, rows = marshal.loads(payload)
            if type(header_row) is tuple and type(rows) is list and type(plural_expr) is str:
                return _po_file(locale_identifier, plural_expr, header_row, rows, charset, digest)
        except (EOFError, ValueError, TypeError):
            pass  # not what was kept: read and written again
    try:
        text = raw.decode(charset)
    except UnicodeDecodeError:
        return None
    header = Catalog(charset=charset)
    try:
        header_row, rows = _rows(header, text.split("\n"), charset)
    except _Unsure:
        return None
    kept.keep(key, _FORMAT, marshal.dumps((header.locale_identifier, header.plural_expr, header_row, rows)))
    return _po_file(header.locale_identifier, header.plural_expr, header_row, rows, charset, digest)


# A file read here is kept in the cache folder (core/kept.py) as its entries' rows and its header's
# language and plural rule, marshalled, and the next process loads them instead of reading the file
# (Boss Fight's de.po: 10 ms read, ~2 loaded). A file is named by the sha256 of its bytes and of its
# reader (this module, by size and mtime; Babel's version, which reads the header; Python's); a
# file Babel reads (one this reader gives up on) is not kept.
_FORMAT = b"pnp-po-1"


@functools.cache
def _reader_fingerprint() -> bytes:
    import babel  # deferred: the `translations` extra
    st = os.stat(__file__)
    return hashlib.sha256(repr((st.st_size, st.st_mtime_ns, babel.__version__, sys.version)).encode()).digest()


def _po_file(locale_identifier: str | None, plural_expr: str, header_row: Row, rows: list[Row], charset: str,
             digest: bytes) -> PoFile:
    from babel.messages.catalog import Catalog, Message  # deferred: the `translations` extra
    entries = [PoEntry(msgid, string, context, "fuzzy" in flags, lineno, list(dict.fromkeys(locations)))
               for msgid, string, locations, flags, _a, _u, lineno, context in rows]

    def whole() -> Catalog:  # the file's messages into a catalog, the header first, as Babel's parser puts them
        catalog = Catalog(charset=charset)
        for msgid, string, locations, flags, auto, user, lineno, context in [header_row, *rows]:
            catalog[msgid] = Message(msgid, string, cast(Where, locations), flags, auto, user, lineno=lineno,
                                     context=context)
        return catalog

    return PoFile(locale_identifier, plural_expr, entries, whole, digest)


class _Unsure(Exception):
    """A line this reader leaves to Babel."""


def _rows(header: Catalog, lines: list[str], charset: str) -> tuple[Row, list[Row]]:
    """The header (the first entry, msgid "", also put into `header` as Babel puts it, for its
    plural forms) and each entry after it, as Babel's PoFileParser would make its Message."""
    from babel.messages.catalog import Message  # deferred: the `translations` extra
    from babel.messages.pofile import unescape

    def text(pieces: list[str]) -> str:
        return "".join(map(unescape, pieces))

    rows: list[Row] = []
    head: list[Row] = []
    keys: set[object] = set()
    state, offset = _IDLE, 0
    messages: list[list[str]] = []
    translations: dict[int, list[str]] = {}
    locations: list[tuple[str, int | None]] = []
    flags: list[str] = []
    auto_comments: list[str] = []
    user_comments: list[str] = []
    context: list[str] | None = None
    current: list[str] = []  # the string a quoted line continues

    def add() -> None:  # as PoFileParser._add_message, then Catalog.__setitem__
        nonlocal messages, translations, locations, flags, auto_comments, user_comments, context
        msgid: str | tuple[str, ...]
        string: str | tuple[str, ...]
        if len(messages) > 1:
            msgid = tuple(text(m) for m in messages)
            forms = [""] * header.num_plurals
            for idx, pieces in sorted(translations.items()):
                if idx >= len(forms):
                    raise _Unsure
                forms[idx] = text(pieces)
            if not forms:
                raise _Unsure
            string = tuple(forms)
        else:
            msgid, string = text(messages[0]), text(translations[0])
        msgctxt = text(context) if context is not None else None
        if msgid == "":  # the header: the first entry, once (a later one Babel reads over the first)
            if rows or keys or msgctxt is not None:
                raise _Unsure
            keys.add("")
            head.append((msgid, string, locations, flags, auto_comments, user_comments, offset + 1, msgctxt))
            header[""] = Message(msgid, string, cast(Where, locations), flags, auto_comments, user_comments, lineno=offset + 1,
                                 context=msgctxt)
            if header.charset != charset:  # it names another: Babel decodes the lines after it so
                raise _Unsure
        else:
            key = (msgid if isinstance(msgid, str) else msgid[0], msgctxt)
            if key in keys or not keys:  # twice (Babel merges them); no header first
                raise _Unsure
            keys.add(key)
            rows.append((msgid, string, locations, flags, auto_comments, user_comments, offset + 1, msgctxt))
        messages, translations, locations, flags, auto_comments, user_comments = [], {}, [], [], [], []
        context = None

    for lineno, line in enumerate(lines):
        line = line.strip(_WS)
        if not line:
            continue
        first = line[0]
        if first == '"':
            if state == _IDLE:
                raise _Unsure
            current.append(line.strip())
        elif first == "#":
            if state == _STR:
                add()
                state = _IDLE
            elif state != _IDLE:
                raise _Unsure
            prefix = line[:2]
            if prefix == "#:":
                if "\u2068" in line or "\u2069" in line:  # a file name in isolates: Babel's own reading
                    raise _Unsure
                for location in line[2:].lstrip().split():
                    a, colon, b = location.rpartition(":")
                    if colon:
                        try:
                            locations.append((a, int(b)))
                        except ValueError:
                            continue
                    else:
                        locations.append((location, None))
            elif prefix == "#,":
                flags.extend(flag.strip() for flag in line[2:].lstrip().split(","))
            elif prefix == "#.":
                comment = line[2:].strip()
                if comment:
                    auto_comments.append(comment)
            elif prefix in ("#~", "#-"):  # obsolete entries, a merge's conflict markers
                raise _Unsure
            else:
                user_comments.append(line[1:].strip())
        else:
            keyword, _, arg = line.partition(" ")
            if keyword == "msgid":
                if state == _STR:
                    add()
                elif state not in (_IDLE, _CTXT):
                    raise _Unsure
                offset, state = lineno, _ID
                current = [arg.strip()]
                messages.append(current)
            elif keyword == "msgstr":
                if state != _ID:
                    raise _Unsure
                state = _STR
                current = translations[0] = [arg.strip()] if arg != '""' else []
            elif keyword == "msgctxt":
                if state == _STR:
                    add()
                elif state != _IDLE:
                    raise _Unsure
                state = _CTXT
                current = context = [arg.strip()]
            elif keyword == "msgid_plural":
                if state != _ID:
                    raise _Unsure
                state = _PLURAL
                current = [arg.strip()]
                messages.append(current)
            elif keyword.startswith("msgstr[") and keyword.endswith("]") \
                    and keyword[7:-1].isascii() and keyword[7:-1].isdigit() \
                    and state in (_PLURAL, _STR) and len(messages) == 2:
                idx = int(keyword[7:-1])
                if idx in translations:
                    raise _Unsure
                state = _STR
                current = translations[idx] = [arg.strip()] if arg != '""' else []
            else:
                raise _Unsure
    if state == _STR:
        add()
    elif state != _IDLE or not keys:  # an unfinished entry; a file without entries
        raise _Unsure
    return head[0], rows
