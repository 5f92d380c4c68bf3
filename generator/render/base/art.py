"""Card art: an icon of the bundled set (render/base/iconart.py), or a PNG, JPG or SVG file
(drawn as vectors), fitted by cover or contain.

Paths come from pack files that may come from strangers, so every path must resolve
inside the pack folder: absolute paths, `..` and symlinks that lead out are refused.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.core.paths import resolve_inside
from generator.pack.art import Art, look_of
from generator.render.base.graphics import draw_graphic
from generator.render.base.iconart import draw_look


MAX_ART_BYTES = 20 * 1024 * 1024
# an href naming something other than a fragment (#id) or embedded data (data:...)
_SVG_LINK = re.compile(r"""\bhref\s*=\s*["']\s*((?!#|data:)[^"']+)["']""", re.IGNORECASE)
MAX_ART_PIXELS = 40_000_000  # card art at 300 dpi needs about 1 megapixel; a poster-size image is a mistake


_SVG_ENTITY = re.compile(r"<!ENTITY", re.IGNORECASE)


def _blank(card, relative: str, why: str) -> InputError:
    return InputError([Problem("art.blank", f"card `{card.id}`: the art `{relative}` would print blank: {why}",
                               card.location, found=relative, expected="an image with something to see",
                               fix="re-export the image (or remove `art:` from the card)")])


class ArtLibrary:
    """Reads each image once per build; icon art takes its look from the pack's `art_styles`."""

    def __init__(self, root: Path, styles: dict | None = None):
        self.root = Path(root)
        self.styles = styles or {}
        self.cache: dict = {}
        self._last_look: tuple | None = None  # (art, type, set, its Look): a card's copies follow each other

    def load(self, relative: str, card):
        if relative in self.cache:
            return self.cache[relative]
        path = resolve_inside(self.root, relative, card.location, "art")
        suffix = path.suffix.lower()
        try:
            if path.stat().st_size > MAX_ART_BYTES:
                raise ValueError(f"the file is {path.stat().st_size:,} bytes; art files above "
                                 f"{MAX_ART_BYTES:,} bytes are refused")
            if suffix == ".svg":
                # deferred: svglib (and lxml) load only when SVG art is drawn
                from svglib.svglib import svg2rlg
                source = path.read_text(encoding="utf-8", errors="replace")
                if _SVG_ENTITY.search(source):
                    raise InputError([Problem(
                        "art.unsafe", f"card `{card.id}`: the SVG art `{relative}` declares XML entities",
                        card.location, found="<!ENTITY ...>", expected="an SVG without a DTD of its own",
                        fix="save the SVG again from a drawing program (entities can expand without bound: "
                            "a \"billion laughs\")")])
                link = _SVG_LINK.search(source)
                if link:
                    raise InputError([Problem(
                        "path.outside", f"card `{card.id}`: the SVG art `{relative}` refers to another file "
                        f"(`{link.group(1)[:60]}`)", card.location, found=link.group(1)[:60],
                        expected="an SVG that holds everything it draws (embedded data: images are fine)",
                        fix="embed the image in the SVG, or use a PNG")])
                try:  # references inside the SVG (<image href="../..">) must stay inside the pack too
                    drawing = svg2rlg(str(path), external_reference_root=str(self.root.resolve()))
                except TypeError as exc:
                    if "external_reference_root" not in str(exc):
                        raise
                    raise ValueError("this svglib cannot keep an SVG's references inside the pack; "
                                     "upgrade svglib, or use PNG art") from None
                if drawing is None:
                    raise ValueError("not an SVG drawing")
                if not (drawing.width > 0 and drawing.height > 0):
                    raise ValueError("it has no size (width and height): not a well-formed SVG drawing")
                if drawing.getBounds() is None:
                    raise _blank(card, relative, "the SVG draws nothing (no shape svglib can draw)")
                item = ("svg", drawing, drawing.width, drawing.height)
            elif suffix in (".png", ".jpg", ".jpeg"):
                # deferred: Pillow loads only when an image is made or read
                from PIL import Image
                from reportlab.lib.utils import ImageReader
                with Image.open(path) as img:
                    if img.size[0] * img.size[1] > MAX_ART_PIXELS:
                        raise ValueError(f"{img.size[0]} × {img.size[1]} pixels is more than "
                                         f"{MAX_ART_PIXELS // 1_000_000} megapixels")
                    img.load()
                    size = img.size
                    if "A" in img.getbands() and img.getchannel("A").getbbox() is None:
                        raise _blank(card, relative, "every pixel of the image is transparent")
                item = ("raster", ImageReader(str(path)), float(size[0]), float(size[1]))
            else:
                raise ValueError(f"unsupported image type {suffix}")
        except InputError:
            raise
        except Exception as exc:  # a corrupt file can fail in many ways inside PIL or svglib
            raise InputError([Problem("art.corrupt", f"card `{card.id}`: the art `{relative}` cannot be read ({exc})",
                                      card.location, found=relative, expected="a PNG, JPG or SVG file",
                                      fix="re-export the image")]) from None
        self.cache[relative] = item
        return item

    def draw(self, canvas, art: Art | str, card, x: float, y: float, w: float, h: float, fit: str) -> None:
        """Art in the box (points, bottom-left at x, y): an icon fills it with its look; a file is
        fitted by `fit` (cover or contain). `card` owns the art (its type and set pick the style)."""
        if isinstance(art, Art) and art.icon is not None:
            type_id, set_id = getattr(card, "type", ""), getattr(card, "set", "")
            last = self._last_look
            if last is None or last[0] is not art or last[1] != type_id or last[2] != set_id:
                last = self._last_look = (art, type_id, set_id, look_of(self.styles, art, type_id, set_id))
            draw_look(canvas, last[3], x, y, w, h)  # the same Look object again: its picture is found by it
            return
        relative = art if isinstance(art, str) else str(art.file)
        kind, obj, iw, ih = self.load(relative, card)
        if iw <= 0 or ih <= 0:
            return
        scale = max(w / iw, h / ih) if fit == "cover" else min(w / iw, h / ih)
        dw, dh = iw * scale, ih * scale
        dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
        if kind == "raster":
            canvas.drawImage(obj, dx, dy, dw, dh, mask="auto")
        else:
            canvas.saveState()
            canvas.translate(dx, dy)
            canvas.scale(scale, scale)
            draw_graphic(obj, canvas, 0, 0)
            canvas.restoreState()
