"""Pictures for the README and docs: small crops of the real output at about 100 dpi.

    .venv/bin/python tools/readme_images.py            # every group of pictures
    .venv/bin/python tools/readme_images.py pieces     # only docs/images/pieces-*.png

Each group builds its PDF into a temporary folder with the normal entry points, finds the
pieces by the invisible `pnp:` markers the renderers draw, rasterises the pages with
pypdfium2 and crops around them. Add a group by writing a function `<name>_images(pack,
tmp, out)` and listing it in GROUPS (cards, maps … can follow the same pattern).
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pypdfium2 as pdfium  # noqa: E402
from PIL import Image  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from generator.grids import hexgrid  # noqa: E402
from generator.pack.load import load_build, load_pack  # noqa: E402

DPI = 100
PT = 72 / 25.4
OUT = REPO / "docs" / "images"
PACK = REPO / "card_data" / "boss_fight"


# ---- reading a PDF back ------------------------------------------------------------------------


class Rendered:
    """A PDF's markers (mm, y up) and its pages rasterised at DPI, on demand."""

    def __init__(self, path: Path):
        self.path = path
        reader = PdfReader(str(path))
        self.sizes = [(float(p.mediabox.width) / PT, float(p.mediabox.height) / PT) for p in reader.pages]
        self.markers = []
        for index, page in enumerate(reader.pages):
            def visit(text, cm, tm, font, size, index=index):
                if text.startswith("pnp:"):
                    self.markers.append((index, text, (tm[4] * cm[0] + cm[4]) / PT, (tm[5] * cm[3] + cm[5]) / PT))
            page.extract_text(visitor_text=visit)
        self.doc = pdfium.PdfDocument(str(path))
        self.images: dict = {}

    def find(self, prefix: str):
        return [m for m in self.markers if m[1].startswith(prefix)]

    def page(self, index: int) -> Image.Image:
        if index not in self.images:
            self.images[index] = self.doc[index].render(scale=DPI / 72).to_pil().convert("RGB")
        return self.images[index]

    def crop(self, index: int, left: float, bottom: float, right: float, top: float) -> Image.Image:
        """A box given in page mm (y up)."""
        _, height = self.sizes[index]
        px = DPI / 25.4
        return self.page(index).crop((round(left * px), round((height - top) * px),
                                      round(right * px), round((height - bottom) * px)))


def isolate(image: Image.Image, shape: str, size_mm: float, orientation: str, grow_mm: float = 1.3) -> Image.Image:
    """White out everything outside one counter's outline (grown by its bleed); the crop
    is centred on the counter."""
    from PIL import ImageDraw
    px = DPI / 25.4
    cx, cy = image.width / 2, image.height / 2
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    if shape == "hex":
        layout = hexgrid.Layout.from_flat_to_flat(orientation, (size_mm + 2 * grow_mm) * px)
        draw.polygon([(cx + dx, cy + dy) for dx, dy in layout.corner_offsets()], fill=255)
    else:
        r = (size_mm / 2 + grow_mm) * px
        box = (cx - r, cy - r, cx + r, cy + r)
        (draw.ellipse if shape == "round" else draw.rectangle)(box, fill=255)
    return Image.composite(image, Image.new("RGB", image.size, "#ffffff"), mask)


def row(images: list[Image.Image], gap: int = 8, background: str = "#ffffff") -> Image.Image:
    width = sum(i.width for i in images) + gap * (len(images) + 1)
    height = max(i.height for i in images) + 2 * gap
    out = Image.new("RGB", (width, height), background)
    x = gap
    for image in images:
        out.paste(image, (x, gap + (height - 2 * gap - image.height) // 2))
        x += image.width + gap
    return out


def save(image: Image.Image, name: str, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    image.save(path, format="PNG", optimize=True)
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path} ({image.width}×{image.height})")
    return path


# ---- play pieces -------------------------------------------------------------------------------


def pieces_images(pack, tmp: Path, out: Path) -> list[Path]:
    from generator.render.pieces.document import build_pieces_pdf
    from generator.render.pieces.model import hex_geometry
    from generator.render.pieces.trackers import clip_track, round_box
    from generator.render.pieces.draw import Kit

    hex_mm, orientation = hex_geometry(pack)
    build_pieces_pdf(pack, tmp / "pieces.pdf")
    kit_pdf = Rendered(tmp / "pieces.pdf")
    written = []

    # counters: one of every kind, front (and the back of a two-sided one)
    picks, seen = [], set()
    for index, label, x, y in kit_pdf.find("pnp:counter:"):
        _, _, kind, _, side, shape, size = label.split(":")
        if side != "front" or kind in seen:
            continue
        seen.add(kind)
        reach = float(size) / (math.sqrt(3) if shape == "hex" else 2) + 1.5
        crop = kit_pdf.crop(index, x - reach, y - reach, x + reach, y + reach)
        picks.append(isolate(crop, shape, float(size), orientation))
    written.append(save(row(picks[:10]), "pieces-counters.png", out))

    # a hero's standee beside its base
    index, label, x, y = kit_pdf.find("pnp:standee:hero:")[0]
    key = label.split(":")[3]
    w, h = (float(v) for v in label.rsplit(":", 1)[1].split("x"))
    tab = hex_mm / math.sqrt(3) / 2 - 0.8
    bottom = y - h / 2 - tab
    standee = kit_pdf.crop(index, x - w / 2 - 2, bottom - 2, x + w / 2 + 2, bottom + 2 * h + 2 * tab + 2)
    bindex, _, bx, by = next(m for m in kit_pdf.find(f"pnp:base:hero:{key}:"))
    reach = hex_mm / math.sqrt(3) + 1.5
    base = isolate(kit_pdf.crop(bindex, bx - reach, by - reach, bx + reach, by + reach), "hex", hex_mm, orientation)
    written.append(save(row([standee, base]), "pieces-standee.png", out))

    # the biggest preset boss: its footprint base and its standee, printed from the build
    bosses = []
    for preset in sorted(Path(pack.root, "presets").glob("*.yaml")):
        build = load_build(preset, pack)
        side = pack.spec.sides[build.side]
        if side.base.max is None or side.base.max > 1:
            bosses.append(build)
    if bosses:
        from generator.render.pieces.model import footprint_of
        build = max(bosses, key=lambda b: len(footprint_of(pack, b, b.characters[0])))
        build_pieces_pdf(pack, tmp / "boss.pdf", build=build)
        boss_pdf = Rendered(tmp / "boss.pdf")
        (index, _, ox, oy), = boss_pdf.find("pnp:base:")
        layout = hexgrid.Layout.from_flat_to_flat(orientation, hex_mm)
        x0, y0, x1, y1 = layout.bounds(footprint_of(pack, build, build.characters[0]))
        base = boss_pdf.crop(index, ox + x0 - 1.2, oy - y1 - 1.2, ox + x1 + 1.2, oy - y0 + 1.2)
        sindex, slabel, sx, sy = boss_pdf.find("pnp:standee:")[0]
        w, h = (float(v) for v in slabel.rsplit(":", 1)[1].split("x"))
        bottom = sy - h / 2 - tab
        standee = boss_pdf.crop(sindex, sx - w / 2 - 2, bottom - 2, sx + w / 2 + 2, bottom + 2 * h + 2 * tab + 2)
        written.append(save(row([standee, base]), "pieces-base.png", out))

    # a hero's health tracker
    clips = [m for m in kit_pdf.find("pnp:tracker:") if ":clip:" in m[1] and "start=None" not in m[1]]
    index, label, x, y = min(clips, key=lambda m: int(m[1].split(":")[6].split("=")[1]))  # the smallest
    top = int(label.split(":")[6].split("=")[1])
    track = clip_track(top + 1)
    written.append(save(kit_pdf.crop(index, x - track.width / 2 - 2, y - track.height / 2 - 2,
                                     x + track.width / 2 + 2, y + track.height / 2 + 2), "pieces-tracker.png", out))

    # the round tracker
    found = kit_pdf.find("pnp:round-tracker:")
    if found:
        index, _, x, y = found[0]
        kit = Kit(pack=pack, hex_mm=hex_mm, orientation=orientation, paper="a4")
        bw, bh = round_box(kit)
        written.append(save(kit_pdf.crop(index, x - bw / 2 - 1, y - bh / 2 - 1, x + bw / 2 + 1, y + bh / 2 + 1),
                            "pieces-round.png", out))

    # a corner of the first blank-board sheet: hexes, coordinates, alignment crosses
    found = kit_pdf.find("pnp:board:")
    if found:
        first = found[0][0]
        sheet = first + (2 if int(found[0][1].split(":")[3]) > 1 else 1)
        width, height = kit_pdf.sizes[sheet]
        written.append(save(kit_pdf.crop(sheet, width - 105, height - 115, width - 3, height - 3),
                            "pieces-board.png", out))
    return written


# ---- cards, maps, rulebook ---------------------------------------------------------------------


def cards_images(pack, tmp: Path, out: Path) -> list[Path]:
    """One card of each type (with a card back) in a row, found by their trim markers."""
    from generator.kit import reference_faces
    from generator.pack.cardlist import card_order
    from generator.render.cards.faces import CardFace, CardShared
    from generator.render.cards.sheets import write_home_sheets

    shared = CardShared(pack)
    picks, seen = [], set()
    for card in card_order(pack):
        if card.type not in seen:
            seen.add(card.type)
            picks.append(CardFace(card, False, 1, len(pack.cards), shared.layout_for(card.type).name,
                                  card.set, card.type))
    picks += reference_faces(pack)
    write_home_sheets(pack, picks, tmp / "cards.pdf", shared=shared)
    pdf = Rendered(tmp / "cards.pdf")
    w, h = pack.card_size_mm()
    crops = [pdf.crop(i, x, y, x + w, y + h) for i, label, x, y in pdf.markers if label.startswith("pnp:face")]
    backs = [pdf.crop(i, x, y, x + w, y + h) for i, label, x, y in pdf.markers if label.startswith("pnp:back")]
    written = [save(row(crops[:4]), "cards-1.png", out), save(row(crops[4:8]), "cards-2.png", out)]
    written.append(save(row(backs[:1] + backs[len(crops) - 3:len(crops) - 2] + backs[-1:]), "cards-backs.png", out))
    return written


def maps_images(pack, tmp: Path, out: Path) -> list[Path]:
    """The overview page of the first map and one true-scale sheet."""
    from generator.render.maps.document import build_maps_pdf
    build_maps_pdf(pack, tmp / "maps.pdf")
    pdf = Rendered(tmp / "maps.pdf")
    small = [pdf.page(i).resize((pdf.page(i).width // 2, pdf.page(i).height // 2)) for i in (0, 2)]
    return [save(row(small), "maps.png", out)]


def rulebook_images(pack, tmp: Path, out: Path) -> list[Path]:
    from generator.render.rulebook.book import build_rulebook_pdf
    build_rulebook_pdf(pack, tmp / "rulebook.pdf")
    pdf = Rendered(tmp / "rulebook.pdf")
    pages = [0, 4, len(pdf.sizes) - 8]
    small = [pdf.page(i).resize((pdf.page(i).width // 2, pdf.page(i).height // 2)) for i in pages]
    return [save(row(small), "rulebook.png", out)]


GROUPS = {"pieces": pieces_images, "cards": cards_images, "maps": maps_images, "rulebook": rulebook_images}


def main(argv: list[str]) -> int:
    names = argv or list(GROUPS)
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        print(f"unknown group(s): {', '.join(unknown)}; known: {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    pack = load_pack(PACK)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            GROUPS[name](pack, Path(tmp), OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
