"""Deterministic, atomic PDF output shared by every renderer."""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import threading
import time
import zlib

from reportlab import rl_config
from reportlab.lib import rl_accel
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFStream

from generator.core import kept
from generator.render.base.fonts import register_fonts
from generator.render.base.recording import RecordingCanvas

MM = mm  # points per millimetre

# Binary (Flate-only) streams: ASCII85 makes every page stream 25 % larger and costs a
# pure-Python pass over it; no viewer or print service needs it. ReportLab reads this
# setting when it writes streams, so it is set once, before any document is made.
rl_config.useA85 = 0

# ReportLab encodes every form's stream (a card back's pattern, each icon, each map tile) and the
# strings of its objects in PDFDocEncoding through a charmap codec: about 1 ms per 100 KB. Every
# ASCII character but 0x18-0x1F (which that encoding gives to accents, and refuses as they are)
# encodes to itself, so such text is encoded as ASCII: the same bytes, at C speed. Anything else
# goes through ReportLab's own function (tests/test_pdfout.py compares the two).
# A long text (a form's stream) is encoded first and its bytes searched for each of those eight
# (memchr: a regular expression's character class costs some 15 instructions a character).
_PDFDOC_ENC = pdfdoc.pdfdocEnc
_NOT_ITSELF = re.compile("[\x18-\x1f]")
_NOT_ITSELF_BYTES = tuple(bytes([c]) for c in range(0x18, 0x20))
_LONG = 256


def pdfdoc_enc(x):
    """`pdfdoc.pdfdocEnc(x)`: str in PDFDocEncoding, bytes as they are."""
    if isinstance(x, str) and x.isascii():
        if len(x) < _LONG:
            if _NOT_ITSELF.search(x) is None:
                return x.encode("ascii")
        else:
            encoded = x.encode("ascii")
            for c in _NOT_ITSELF_BYTES:
                if c in encoded:
                    break
            else:
                return encoded
    return _PDFDOC_ENC(x)


pdfdoc.pdfdocEnc = pdfdoc_enc  # looked up by name where ReportLab's pdfdoc calls it

# ReportLab writes every value of a file through pdfdoc.format, which asks each whether it is a
# PDF object before it asks whether it is a number, bytes or text, and makes each key of each
# dictionary a name again (PDFName: a loop over its characters): some 20,000 calls for a 600-object
# card sheet. pdf_format asks the common questions first, and a key's name is made once: the same
# bytes (tests/test_pdfout.py compares them with ReportLab's own).
_FORMAT = pdfdoc.format
_PDF_NAME = pdfdoc.PDFName
_NAMES: dict = {}  # a dictionary key -> its name
_NAMES_KEPT = 4096


def pdf_format(element, document, toplevel=0):
    """`pdfdoc.format(element, document, toplevel)`: the bytes of a value in a PDF file."""
    kind = type(element)
    if kind is bytes:
        return element
    if kind is str:
        return pdfdoc_enc(element)
    if kind is float or kind is int:
        return fp_str(element).encode("ascii")  # what pdfdocEnc makes of fp_str's digits, point and sign
    return _FORMAT(element, document, toplevel)  # a PDF object (or anything else): ReportLab's own


def pdf_name(data, *args):
    """`pdfdoc.PDFName(data)`: a name, `/` and its characters, escaped where PDF says."""
    if args or type(data) is not str:
        return _PDF_NAME(data, *args)
    name = _NAMES.get(data)
    if name is None:
        if len(_NAMES) >= _NAMES_KEPT:
            _NAMES.clear()
        name = _NAMES[data] = _PDF_NAME(data)
    return name


pdfdoc.format = pdf_format  # looked up by name wherever pdfdoc formats a value
pdfdoc.PDFName = pdf_name  # and where it makes a name

# Every number on a page goes through ReportLab's fp_str (C: a printf per number, some 0.4 us a
# call), and a sheet of cards writes the same few again and again: each slot's corners, each
# copy's text origins, the colours, the sizes (three calls in four, on Boss Fight's card sheets).
# The text of a call's numbers is kept: the same text, since equal numbers give equal text (an int
# and its float, 0.0 and -0.0; tests/test_pdfout.py); a call of many numbers (a whole path) is not
# kept, nor one that fails (a number too large), nor one with a list (unhashable).
_FP_STR = rl_accel.fp_str  # (made by rl_accel as it loads)
_FP: dict = {}  # the arguments of a call -> its text
_FP_KEPT = 8192
_FP_MANY = 8  # a call of more numbers than this is made each time


def fp_str(*args) -> str:
    """`reportlab.lib.rl_accel.fp_str(*args)`: numbers as ReportLab writes them into a PDF."""
    if len(args) > _FP_MANY:
        return _FP_STR(*args)
    try:
        text = _FP.get(args)
    except TypeError:  # a list: not a key
        return _FP_STR(*args)
    if text is None:
        text = _FP_STR(*args)
        if len(_FP) >= _FP_KEPT:
            _FP.clear()
        _FP[args] = text
    return text


def _use_kept_numbers() -> None:
    """Have ReportLab's modules and ours call fp_str above: those loaded already hold the C
    function under the name (`from reportlab.lib.rl_accel import fp_str`); those loaded later
    take it from rl_accel."""
    rl_accel.fp_str = fp_str
    for name, module in list(sys.modules.items()):
        if name.startswith(("reportlab.", "generator.")) and getattr(module, "fp_str", None) is _FP_STR:
            vars(module)["fp_str"] = fp_str


_use_kept_numbers()


def source_date() -> float | None:
    """SOURCE_DATE_EPOCH when set: dates inside PDFs then follow it (reproducible builds)."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if value and value.strip().isascii() and value.strip().isdigit():
        return float(value)
    return None


# ---- streams deflated before ------------------------------------------------------------------
# zlib makes the same bytes of the same input (the same library, the same level): a stream a build
# of the same document deflated before (each page of a card sheet, each form, each font) is taken
# from the user's cache folder by its sha256 instead of deflated again, a seventh of a kit's cards
# part. One file a document, named by its title and size and zlib's version, holds the streams of
# its last save (up to MAX_DEFLATED_BYTES), so an edit redeflates only what it changed. A document
# asks for it (new_canvas's `keep_streams`: the card sheets, maps, pieces, rulebook and quick
# reference, a pack's few big documents rebuilt again and again), not an image of one card, one
# icon or a player's roster, made by the thousand under `pnp serve` and each under a title of its own.
_DEFLATED = b"pnp-deflated-1"
MAX_DEFLATED_BYTES = 4 << 20  # a 9,000-card deck's 6 MB are not kept (read back whole, they would add to its peak)
_SAVING = threading.local()  # .store: the DeflateStore of the canvas being saved on this thread


class DeflateStore:
    """The deflated streams of one document: those its last save kept, and those of this one."""

    def __init__(self, name: str):
        self.key = hashlib.sha256(repr(("deflated streams", name, zlib.ZLIB_VERSION, zlib.ZLIB_RUNTIME_VERSION))
                                  .encode("utf-8", "surrogatepass")).hexdigest()
        self._kept: dict | None = None
        self.made: dict[bytes, bytes] = {}  # sha256 of a stream -> the stream deflated, for this save
        self.size = 0

    def kept(self) -> dict:
        if self._kept is None:
            payload = kept.load(self.key, _DEFLATED)
            try:
                found = marshal.loads(payload) if payload is not None else None
            except (EOFError, ValueError, TypeError):
                found = None
            self._kept = found if isinstance(found, dict) else {}
        return self._kept

    def deflate(self, data: bytes) -> bytes:
        """`zlib.compress(data)`."""
        if self.size > MAX_DEFLATED_BYTES and not self.kept():  # too much to keep, none kept: as ReportLab does
            return zlib.compress(data)
        digest = hashlib.sha256(data).digest()
        out = self.made.get(digest)
        if out is None:
            out = self.kept().get(digest)
            if type(out) is not bytes:
                out = zlib.compress(data)
            self.made[digest] = out
            self.size += len(out)
        return out

    def keep(self) -> None:
        """Keep this save's streams for the next (nothing when they are those kept already)."""
        if self.made and self.size <= MAX_DEFLATED_BYTES and self.made.keys() != self.kept().keys():
            kept.keep(self.key, _DEFLATED, marshal.dumps(self.made))


_Z_ENCODE = pdfdoc.PDFStreamFilterZCompress.encode


def _z_encode(self, text):
    """ReportLab's Flate filter (forms, fonts): the stream from the saving canvas's store, if any."""
    store = getattr(_SAVING, "store", None)
    if store is None:
        return _Z_ENCODE(self, text)
    return store.deflate(text.encode("utf8") if isinstance(text, str) else text)


pdfdoc.PDFStreamFilterZCompress.encode = _z_encode


class _Flated:
    """The Flate filter of a page stream compressed already, when its page was closed."""

    pdfname = "FlateDecode"

    @staticmethod
    def encode(content: bytes) -> bytes:
        return content


_FLATED = _Flated()


class FlatCanvas(RecordingCanvas):
    """A canvas that compresses each page's stream as the page closes. ReportLab keeps every
    page's drawing commands as text until `save()` and compresses them there; a 50,000-card
    deck held some 400 MB of them. The stream is compressed by the same zlib call with the same
    input, and written under the same dictionary, so the file's bytes do not change. What it
    draws can be recorded as it is drawn (render/base/recording.py, for the layout checks)."""

    keep_streams = False  # streams deflated before taken from the cache folder, and this save's kept (new_canvas)
    _deflated: DeflateStore | None | bool = False  # False: not asked yet; None: none kept for this document

    def _store(self) -> DeflateStore | None:
        if self._deflated is False:
            self._deflated = DeflateStore(repr((self._doc.info.title, tuple(self._pagesize)))) \
                if self.keep_streams and kept.private_dir() is not None else None
        return self._deflated  # type: ignore[return-value]

    def showPage(self):
        super().showPage()
        page = self._doc.Pages.pages[-1]
        if page.compression and page.stream and not page.Contents and not rl_config.useA85:
            stream = PDFStream(filters=[_FLATED])
            code = page.stream
            data = code.encode("utf8") if isinstance(code, str) else code
            store = self._store()
            stream.content = store.deflate(data) if store is not None else zlib.compress(data)
            stream.__Comment__ = "page stream"
            page.Contents, page.stream = stream, None

    def save(self):
        """Save, the streams deflated before taken from the cache folder (DeflateStore)."""
        store = self._store()
        _SAVING.store = store
        try:
            super().save()
        finally:
            _SAVING.store = None
        if store is not None:
            store.keep()


def new_canvas(target, page_size_pt: tuple[float, float], title: str, subject: str = "",
               keep_streams: bool = False) -> FlatCanvas:
    """A canvas whose bytes depend only on what is drawn: invariant mode, no timestamps
    unless SOURCE_DATE_EPOCH asks for one, fonts registered and embedded. `keep_streams`: the
    streams a save of the same document (its title and size) deflated before are taken from the
    cache folder, and this save's kept for the next (DeflateStore)."""
    register_fonts()
    epoch = source_date()
    c = FlatCanvas(target, pagesize=page_size_pt, invariant=1, pageCompression=1,
                         initialFontName="PnpSans")
    if epoch is not None:
        c._doc._timeStamp.t = epoch  # invariant mode pins the date; SOURCE_DATE_EPOCH replaces it
        c._doc._timeStamp.lt = time.gmtime(epoch)
        c._doc._timeStamp.tzname = "UTC"
        c._doc._timeStamp.dhh = 0
        c._doc._timeStamp.dmm = 0
    c.setTitle(title)
    c.setAuthor("pnp")
    c.setCreator("pnp print-and-play generator")
    c.setSubject(subject)
    c.keep_streams = keep_streams
    return c
