"""Play pieces for Tabletop Simulator: an image of each kind of counter (front and back)
and of each boss base, cut out of the kit's own pieces.pdf.

We render pieces.pdf and crop each piece at its cut line (found by export.cut_pieces, the
same outlines the cutting machine gets), so the virtual counters look exactly like the
printed ones. The pages' invisible markers say which piece is where:
`pnp:counter:<kind>:<n>:front|back:<shape>:<size mm>` at a counter's centre and
`pnp:base:<side>:<key>:<hexes>` at a base's origin hex.

Writes `pieces/` beside the deck sheets and returns an index for the save (tts_save).
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from generator.core.papers import DEFAULT_PAPER
from generator.export.cut_pieces import cut_paths
from generator.core import pdfium, staging
from generator.core.pdfwords import page_words
from generator.render.pieces.document import build_pieces_pdf

PX_PER_MM = 8.0  # about 200 dpi: crisp on a virtual table, small files
PT_MM = 25.4 / 72


def _markers(pdf: Path) -> dict[int, list[tuple[str, float, float]]]:
    """{page: [(label, x mm, y mm from the top at the marker's box's bottom)]} of every `pnp:` marker."""
    out: dict = {}
    for n, words in page_words(pdf).items():
        for word, (x0, _, _, y1) in words:
            if word.startswith("pnp:"):
                out.setdefault(n, []).append((word, x0 * PT_MM, y1 * PT_MM))
    return out


def _segments(d: str) -> list[list[tuple[float, float]]]:
    """Sub-paths of an SVG path from cut_paths, as point lists (curves by their points)."""
    out: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for tok in re.findall(r"[MLCZ]|-?[\d.]+,-?[\d.]+", d):
        if tok == "M":
            if cur:
                out.append(cur)
            cur = []
        elif tok in "LCZ":
            continue
        else:
            x, y = tok.split(",")
            cur.append((float(x), float(y)))
    if cur:
        out.append(cur)
    return out


def _bbox(points) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _crop(image, box, px: float = PX_PER_MM):
    x0, y0, x1, y1 = box
    return image.crop((round(x0 * px), round(y0 * px), round(x1 * px), round(y1 * px)))


def _base_image(image, box, segments):
    """The base's bounding box with everything outside its outline transparent."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import Image, ImageDraw
    crop = _crop(image, box).convert("RGBA")
    pad = 4  # a ring of outside around the crop joins every outside pocket to one corner
    mask = Image.new("L", (crop.width + 2 * pad, crop.height + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    for seg in segments:
        pts = [((x - box[0]) * PX_PER_MM + pad, (y - box[1]) * PX_PER_MM + pad) for x, y in seg]
        draw.line(pts, fill=255, width=2)
    ImageDraw.floodfill(mask, (0, 0), 128)  # outside: reached from the corner without crossing the outline
    alpha = mask.crop((pad, pad, pad + crop.width, pad + crop.height)).point(lambda v: 0 if v == 128 else 255)
    crop.putalpha(alpha)
    return crop


def export_tts_pieces(pack, folder: Path, build=None, paper: str = DEFAULT_PAPER) -> dict:
    """Write `folder`/pieces/*.png and pieces.json; returns the index (empty without pieces)."""
    if pack.spec.pieces is None:
        return {"counters": [], "bases": []}
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf

    folder = Path(folder) / "pieces"
    folder.mkdir(parents=True, exist_ok=True)
    counters: dict = {}
    bases = []
    with tempfile.TemporaryDirectory(prefix="pnp-tts-pieces-") as d:
        pdf_path = Path(d) / "pieces.pdf"
        with staging.unstaged():  # a work file inside this export's own folder, read back at once
            build_pieces_pdf(pack, pdf_path, paper=paper, build=build)
        markers = _markers(pdf_path)
        with pdfium.document(pdf_path) as doc, pikepdf.open(pdf_path) as pdf:
            for n, labels in sorted(markers.items()):
                wanted = [m for m in labels if m[0].startswith(("pnp:counter:", "pnp:base:"))]
                if not wanted:
                    continue
                outlines = [(seg, _bbox(seg)) for p in cut_paths(pdf.pages[n - 1]) for seg in _segments(p)]
                image = pdfium.image(doc[n - 1], scale=PX_PER_MM * PT_MM).convert("RGB")
                for label, x, y in wanted:
                    parts = label.split(":")
                    if parts[1] == "counter":
                        _counter(parts, x, y, outlines, image, folder, counters)
                    else:
                        base = _base(parts, x, y, outlines, image, folder)
                        if base:
                            bases.append(base)
    index = {"counters": list(counters.values()), "bases": bases}
    (folder / "pieces.json").write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    return index


def _counter(parts, x, y, outlines, image, folder, counters) -> None:
    _, _, kind, number, side, shape, size = parts
    entry = counters.setdefault(kind, {"kind": kind, "shape": shape, "size_mm": float(size), "count": 0,
                                       "front": None, "back": None})
    if side == "front":
        entry["count"] = max(entry["count"], int(number))
    if entry[side] is not None:
        return
    near = [b for seg, b in outlines if b[0] - 0.1 <= x <= b[2] + 0.1 and b[1] - 0.1 <= y <= b[3] + 0.1]
    if not near:
        return
    box = min(near, key=lambda b: abs((b[0] + b[2]) / 2 - x) + abs((b[1] + b[3]) / 2 - y))
    name = f"{kind}-{side}.png"
    _crop(image, box).save(folder / name, format="PNG")
    entry[side] = name


def _base(parts, x, y, outlines, image, folder) -> dict | None:
    _, _, side, key, hexes = parts
    # a base's outline is many short segments: take those around the marker, joined end to end
    groups = _connected([seg for seg, _ in outlines if len(seg) == 2])
    inside = [g for g in groups if _bbox([p for s in g for p in s])[0] <= x <= _bbox([p for s in g for p in s])[2]
              and _bbox([p for s in g for p in s])[1] <= y <= _bbox([p for s in g for p in s])[3]]
    if not inside:
        return None
    group = min(inside, key=lambda g: len(g))
    box = _bbox([p for s in group for p in s])
    name = f"base-{side}-{key}.png"
    _base_image(image, box, group).save(folder / name, format="PNG")
    return {"side": side, "key": key, "hexes": int(hexes), "image": name,
            "width_mm": round(box[2] - box[0], 3), "height_mm": round(box[3] - box[1], 3)}


def _connected(segments: list) -> list[list]:
    """Group segments that share end points (0.01 mm), by union-find."""
    parent = list(range(len(segments)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    owner: dict = {}
    for i, seg in enumerate(segments):
        for p in (seg[0], seg[-1]):
            key = (round(p[0] * 100), round(p[1] * 100))
            if key in owner:
                parent[find(i)] = find(owner[key])
            else:
                owner[key] = i
    groups: dict = {}
    for i in range(len(segments)):
        groups.setdefault(find(i), []).append(segments[i])
    return list(groups.values())
