"""PDFium (pypdfium2), used by one thread at a time in the whole process.

PDFium is not thread-safe: two threads may not be inside it at once, not even with two
different documents (pypdfium2's documentation says so). Four threads rendering a small PDF
each abort the process within a second ("bad_variant_access"); rarer overlaps corrupt the heap
quietly, and glibc aborts later with "corrupted double-linked list", typically when pypdfium2
frees the library as the interpreter exits, which is how `pnp serve` once died on Ctrl-C. The
web builder uses PDFium from several threads: card pictures and rule icons are drawn on
Starlette's threads, printed PDFs (with their layout checks) on a job thread.

So every use of PDFium in the generator goes through `document()`: it holds one lock for the
process from opening a document to closing it, and closing it closes every page and text page
opened from it, inside the lock too (left to the garbage collector, their finalizers would call
PDFium from whichever thread dropped them last). A rendered bitmap is closed by `image()` as
soon as its picture is taken. tests/test_pdfium_lock.py checks that no other module opens PDFium
and races `pnp serve` with parallel clients.

A process forked while another thread is inside PDFium would inherit its half-changed state
(and a lock held for ever): a fork waits for the lock (os.register_at_fork).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pypdfium2
    from PIL import Image

_lock = threading.RLock()  # re-entrant: a document may be read while another one is open


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.RLock()  # only this thread lives on in the child


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(before=lambda: _lock.acquire(), after_in_parent=lambda: _lock.release(),
                        after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def document(source: Path | str | bytes) -> Iterator[pypdfium2.PdfDocument]:
    """The PDF at `source` (a path, or the bytes of a PDF) opened with PDFium, this thread
    alone inside PDFium until the block ends; the document and everything opened from it are
    closed then. Nothing read from it may be used after the block."""
    with _lock:
        # deferred: PDFium's native library loads only when a page is read back
        import pypdfium2

        doc = pypdfium2.PdfDocument(str(source) if isinstance(source, Path) else source)
        try:
            yield doc
        finally:
            doc.close()


def image(page: pypdfium2.PdfPage, **render: Any) -> Image.Image:
    """The page rendered (pypdfium2's PdfPage.render arguments) as a PIL image that outlives
    the document: the bitmap is closed at once (its pixels are Python's, kept by the image).
    Call it inside `document()`."""
    bitmap = page.render(**render)
    try:
        picture: Image.Image = bitmap.to_pil()
        return picture
    finally:
        bitmap.close()
