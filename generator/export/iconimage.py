"""One icon as a small PNG, for the rules pages in the browser: drawn by the same icon sheet
as the cards and the rulebook (a built-in icon, or a pack's own SVG from game.yaml `icons:`),
rasterized with pypdfium2 on a transparent ground, so a rules page shows the very mark the
printed card and rulebook show."""

from __future__ import annotations

import io
from pathlib import Path

from generator.pack.icon_names import pack_icon_names
from generator.pack.model import Pack
from generator.render.base.art import ArtLibrary
from generator.render.base.icons import IconSheet
from generator.render.base.pack_icons import pack_icons
from generator.render.base.pdfout import new_canvas

ICON_PX = 64  # shown at text height (about 16 CSS px): sharp on a screen of 4 device pixels per px


def icon_names(pack: Pack) -> set[str]:
    return pack_icon_names(pack.spec)


def icon_png(pack: Pack, name: str, px: int = ICON_PX, custom: dict | None = None) -> bytes:
    """The icon `name` (one of `icon_names(pack)`) as PNG bytes, `px` pixels square.
    `custom`: the pack's own icons, when already read (pack_icons)."""
    # deferred: PDFium's native library loads only when a page is read back
    import pypdfium2 as pdfium

    if name not in icon_names(pack):
        raise KeyError(name)
    custom = pack_icons(pack, ArtLibrary(Path(pack.root))) if custom is None else custom
    size = 100.0  # points; the icon's own box, with the 5 % margin its form keeps
    buf = io.BytesIO()
    canvas = new_canvas(buf, (size * 1.1, size * 1.1), f"{pack.spec.name}: icon {name}")
    IconSheet(canvas, custom).draw(name, size * 0.05, size * 0.05, size)
    canvas.showPage()
    canvas.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        page = pdf[0]
        image = page.render(scale=px / (size * 1.1), may_draw_forms=True, fill_color=(255, 255, 255, 0)).to_pil()
        page.close()
    finally:
        pdf.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
