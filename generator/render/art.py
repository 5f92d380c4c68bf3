"""Card art: PNG, JPG or SVG (drawn as vectors), fitted by cover or contain.

Paths come from pack files that may come from strangers, so every path must resolve
inside the pack folder: absolute paths, `..` and symlinks that lead out are refused.
"""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Problem


def resolve_inside(root: Path, relative: str, owner_location, what: str = "image") -> Path:
    """`relative` resolved inside `root`, or an InputError that says why not."""
    root = root.resolve()
    raw = Path(relative)
    if raw.is_absolute() or relative.startswith(("/", "\\")) or (raw.parts and ":" in raw.parts[0]):
        raise InputError([Problem("path.outside", f"the {what} path `{relative}` is absolute",
                                  owner_location, found=relative, expected="a path relative to the pack folder",
                                  fix=f"copy the file into the pack (e.g. art/) and name it relative to {root.name}/")])
    target = (root / raw).resolve()
    if root != target and root not in target.parents:
        raise InputError([Problem("path.outside", f"the {what} path `{relative}` leads outside the pack",
                                  owner_location, found=relative, expected="a file inside the pack folder",
                                  fix="packs may only use files inside their own folder")])
    if not target.is_file():
        raise InputError([Problem("path.missing", f"the {what} `{relative}` does not exist",
                                  owner_location, found=relative, expected="an existing file in the pack",
                                  fix="check the file name, or remove `art:` to use the placeholder emblem")])
    return target


class ArtLibrary:
    """Reads each image once per build."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.cache: dict = {}

    def load(self, relative: str, card):
        if relative in self.cache:
            return self.cache[relative]
        path = resolve_inside(self.root, relative, card.location, "art")
        suffix = path.suffix.lower()
        try:
            if suffix == ".svg":
                from svglib.svglib import svg2rlg
                drawing = svg2rlg(str(path))
                if drawing is None:
                    raise ValueError("not an SVG drawing")
                item = ("svg", drawing, drawing.width, drawing.height)
            elif suffix in (".png", ".jpg", ".jpeg"):
                from PIL import Image
                from reportlab.lib.utils import ImageReader
                with Image.open(path) as img:
                    img.load()
                    size = img.size
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

    def draw(self, canvas, relative: str, card, x: float, y: float, w: float, h: float, fit: str) -> None:
        kind, obj, iw, ih = self.load(relative, card)
        if iw <= 0 or ih <= 0:
            return
        scale = max(w / iw, h / ih) if fit == "cover" else min(w / iw, h / ih)
        dw, dh = iw * scale, ih * scale
        dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
        if kind == "raster":
            canvas.drawImage(obj, dx, dy, dw, dh, mask="auto")
        else:
            from reportlab.graphics import renderPDF
            canvas.saveState()
            canvas.translate(dx, dy)
            canvas.scale(scale, scale)
            renderPDF.draw(obj, canvas, 0, 0)
            canvas.restoreState()
