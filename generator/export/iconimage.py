"""One icon as a small PNG, for the rules pages in the browser: drawn by the same icon sheet
as the cards and the rulebook (a built-in icon, or a pack's own SVG from game.yaml `icons:`),
rasterized with pypdfium2 on a transparent ground, so a rules page shows the very mark the
printed card and rulebook show; and the game's emblem as the site's icon (the tab's favicon),
white on its set's colour as its card backs show it."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.colors import HexColor

from generator.core import pdfium
from generator.pack.icon_names import pack_icon_names
from generator.pack.model import Pack
from generator.render.base.art import ArtLibrary
from generator.render.base.icons import IconSheet
from generator.render.base.pack_icons import pack_icons
from generator.render.base.pdfout import new_canvas

ICON_PX = 64  # shown at text height (about 16 CSS px): sharp on a screen of 4 device pixels per px
EMBLEM_PX = 96  # a browser tab shows 16 to 32 CSS px; a phone's home screen up to 96


def icon_names(pack: Pack) -> set[str]:
    return pack_icon_names(pack.spec)


def icon_png(pack: Pack, name: str, px: int = ICON_PX, custom: dict | None = None) -> bytes:
    """The icon `name` (one of `icon_names(pack)`) as PNG bytes, `px` pixels square.
    `custom`: the pack's own icons, when already read (pack_icons)."""
    if name not in icon_names(pack):
        raise KeyError(name)
    return _png(_icon_picture(pack, name, px, custom))


def emblem_png(pack: Pack, px: int = EMBLEM_PX) -> bytes | None:
    """The game's emblem (game.yaml `emblem:`) as the site's icon, PNG bytes `px` pixels square:
    white on its first set's colour in a rounded square, as its card backs show it in their
    medallion. None for a game with no emblem."""
    if not pack.spec.emblem or pack.spec.emblem not in icon_names(pack):
        return None
    ground = next(iter(pack.spec.sets.values())).color if pack.spec.sets else "#444444"
    return _png(_icon_picture(pack, pack.spec.emblem, px, None, color="#ffffff", ground=ground))


def emblem_ico(png: bytes) -> bytes:
    """An emblem PNG (emblem_png) as a .ico file of 16, 32 and 48 pixels, for `/favicon.ico`."""
    from PIL import Image  # deferred: Pillow loads only when a picture is made

    out = io.BytesIO()
    with Image.open(io.BytesIO(png)) as picture:
        picture.save(out, format="ICO", sizes=[(16, 16), (32, 32), (48, 48)])
    return out.getvalue()


def _icon_picture(pack: Pack, name: str, px: int, custom: dict | None, color: str | None = None,
                  ground: str | None = None):
    """The icon drawn by the cards' icon sheet and rasterized on a transparent ground (PIL);
    `ground`: a rounded square of that colour behind it, the icon then 70 % of the size."""
    custom = pack_icons(pack, ArtLibrary(Path(pack.root))) if custom is None else custom
    size = 100.0  # points; the icon's own box, with the 5 % margin its form keeps
    box = size * 1.1
    buf = io.BytesIO()
    canvas = new_canvas(buf, (box, box), f"{pack.spec.name}: icon {name}")
    if ground:
        canvas.setFillColor(HexColor(ground))
        canvas.roundRect(0, 0, box, box, box * 0.18, stroke=0, fill=1)
        inner = size * 0.7
        IconSheet(canvas, custom).draw(name, (box - inner) / 2, (box - inner) / 2, inner, color)
    else:
        IconSheet(canvas, custom).draw(name, size * 0.05, size * 0.05, size, color)
    canvas.showPage()
    canvas.save()
    with pdfium.document(buf.getvalue()) as pdf:
        return pdfium.image(pdf[0], scale=px / box, may_draw_forms=True, fill_color=(255, 255, 255, 0))


def _png(picture) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=False)
    return out.getvalue()
