"""Pages of a finished PDF replaced by pages of another, through pikepdf's public API (`pnp watch`:
an edited card's sheet is drawn alone in a small document and put in place of the old pages).

The spliced file is not byte-identical to a whole new build: the new pages bring their own font
subsets, forms and images, and qpdf writes the file anew (objects no page uses any more are left
out). It is the same document to a reader and a printer: every page draws the same marks with
the same glyphs (tests/test_watch_redraw.py renders each page of both and compares the pixels).
Two subsets of one font would both be named `AAAAAA+PnpSans` (ReportLab tags subsets in order
of use in each document), so the new pages' subsets are tagged by a digest of their font data:
the names in a file stay unique, as print services' checks want."""

from __future__ import annotations

import hashlib
import io
import re
import string
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pikepdf

_TAGGED = re.compile(r"^[A-Z]{6}\+")
_FONT_FILES = ("/FontFile2", "/FontFile", "/FontFile3")


def _subset_tag(font_file: pikepdf.Object) -> str:
    """Six capital letters from a digest of the embedded font's bytes."""
    digest = hashlib.sha256(font_file.read_raw_bytes()).digest()
    return "".join(string.ascii_uppercase[b % 26] for b in digest[:6])


def _retag(resources: pikepdf.Object, seen: set[tuple[int, int]]) -> None:
    """Tag every subset font under `resources` (and the forms it draws) by its data."""
    import pikepdf  # deferred: every `pnp build` imports this module (pnp watch's redraw), few splice
    fonts = resources.get("/Font")
    for font in fonts.values() if isinstance(fonts, pikepdf.Dictionary) else ():
        descriptor = font.get("/FontDescriptor")
        base = str(font.get("/BaseFont", ""))
        if descriptor is None or not _TAGGED.match(base.lstrip("/")) or font.objgen in seen:
            continue
        seen.add(font.objgen)
        data = next((descriptor[k] for k in _FONT_FILES if k in descriptor), None)
        if data is None:
            continue
        name = _subset_tag(data) + base.lstrip("/")[6:]
        font.BaseFont = descriptor.FontName = pikepdf.Name("/" + name)
    xobjects = resources.get("/XObject")
    for xobject in xobjects.values() if isinstance(xobjects, pikepdf.Dictionary) else ():
        if xobject.get("/Subtype") == "/Form" and "/Resources" in xobject and xobject.objgen not in seen:
            seen.add(xobject.objgen)
            _retag(xobject.Resources, seen)


def splice_pages(old: bytes, new: bytes, places: dict[int, int]) -> bytes:
    """`old` with its page `places[k]` (0-based) replaced by page k of `new`, for each k given."""
    import pikepdf  # deferred: every `pnp build` imports this module (pnp watch's redraw), few splice
    with pikepdf.open(io.BytesIO(old)) as target, pikepdf.open(io.BytesIO(new)) as source:
        seen: set[tuple[int, int]] = set()
        for page in source.pages:
            if "/Resources" in page.obj:
                _retag(page.obj.Resources, seen)
        for k, place in sorted(places.items()):
            target.pages[place] = source.pages[k]
        out = io.BytesIO()
        # the file ID from the content, not the clock: the same edit gives the same bytes
        target.save(out, deterministic_id=True)
        return out.getvalue()
