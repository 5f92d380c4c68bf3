"""The README's gallery: what the shipped games print, drawn from card_data/ by the real renderers.

    make gallery                                  # every picture, into docs/images/gallery/
    .venv/bin/python tools/gallery.py maps        # only the pictures whose name has `maps`

Each picture is rasterised with pypdfium2 and saved by Pillow with fixed settings, so the same
packs give the same bytes. GALLERY lists the pictures in the order the README shows them, with
the words under each; tests/test_gallery.py holds the README's gallery to this list.
"""

from __future__ import annotations

import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PIL import Image  # noqa: E402

OUT = REPO / "docs" / "images" / "gallery"
DPI = 90
GAP = 14  # px between cards
BACKDROP = (236, 232, 224)  # a table's light grey-beige, so white card edges show


@dataclass(frozen=True)
class Picture:
    file: str
    alt: str
    make: Callable[[Path], Image.Image]  # (scratch folder) -> the picture


# ---- drawing ---------------------------------------------------------------------------------


def _pack(pack_id: str):
    from generator.pack.load import load_pack
    return load_pack(REPO / "card_data" / pack_id)


def _face(pack, card_id: str, face: str, shared) -> Image.Image:
    from generator.export.cardimage import render_png
    return Image.open(io.BytesIO(render_png(pack, card_id, face, DPI, shared))).convert("RGB")


def _row(images: list[Image.Image]) -> Image.Image:
    """Images side by side on the backdrop, bottoms aligned, with a margin all round."""
    width = sum(i.width for i in images) + GAP * (len(images) + 1)
    height = max(i.height for i in images) + 2 * GAP
    out = Image.new("RGB", (width, height), BACKDROP)
    x = GAP
    for image in images:
        out.paste(image, (x, height - GAP - image.height))
        x += image.width + GAP
    return out


def cards(pack_id: str, types: list[str], back_of: str | None = None) -> Callable[[Path], Image.Image]:
    """The first card of each type named (in the pack's card order), then one back."""
    def make(_tmp: Path) -> Image.Image:
        from generator.pack.cardlist import card_order
        from generator.render.cards.faces import CardShared
        pack = _pack(pack_id)
        shared = CardShared(pack)
        order = card_order(pack)
        chosen = [next(c for c in order if c.type == t) for t in types]
        faces = [_face(pack, c.id, "front", shared) for c in chosen]
        back = next(c for c in order if c.type == (back_of or types[0]))
        return _row(faces + [_face(pack, back.id, "back", shared)])
    return make


def _page(pdf: Path, index: int, dpi: int = DPI) -> Image.Image:
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _find_page(pdf: Path, words: str) -> int:
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            if words in doc[i].get_textpage().get_text_range():
                return i
    finally:
        doc.close()
    raise LookupError(f"no page of {pdf.name} says {words!r}")


def _framed(pages: list[Image.Image]) -> Image.Image:
    """Pages side by side with a thin grey edge, as paper on a table."""
    edged = []
    for page in pages:
        framed = Image.new("RGB", (page.width + 2, page.height + 2), (150, 146, 138))
        framed.paste(page, (1, 1))
        edged.append(framed)
    return _row(edged)


def map_pages(pack_id: str, title: str, sheet: bool = True) -> Callable[[Path], Image.Image]:
    """A map's overview page with its legend, and its first true-scale sheet."""
    def make(tmp: Path) -> Image.Image:
        from generator.render.maps.document import build_maps_pdf
        pdf = tmp / f"{pack_id}-maps.pdf"
        if not pdf.exists():
            build_maps_pdf(_pack(pack_id), pdf)
        first = _find_page(pdf, title)
        pages = [_page(pdf, first, 60)]
        if sheet:
            pages.append(_page(pdf, _find_page(pdf, f"{title}\r\nSheet row 1 of"), 60))
        return _framed(pages)
    return make


def rulebook_pages(pack_id: str, chapter: str) -> Callable[[Path], Image.Image]:
    """The rulebook's cover and a chapter's first page."""
    def make(tmp: Path) -> Image.Image:
        from generator.render.rulebook.book import build_rulebook_pdf
        pdf = tmp / f"{pack_id}-rulebook.pdf"
        build_rulebook_pdf(_pack(pack_id), pdf)
        return _framed([_page(pdf, 0, 60), _page(pdf, _find_page(pdf, chapter), 60)])
    return make


GALLERY = [
    Picture("boss-fight-cards.png", "Boss Fight: a boss piece, a hero, an ability and a boss piece's back",
            cards("boss_fight", ["boss-piece", "hero", "ability"])),
    Picture("raid-boss-cards.png", "Raid Boss: a boss deck card, a boss and the back of a boss deck card",
            cards("raid_boss", ["boss-card", "boss"])),
    Picture("battle-bosses-cards.png", "Battle Bosses: an effect, an upgrade and an effect's back",
            cards("battle_bosses", ["effect", "upgrade"])),
    Picture("final-boss-cards.png", "Final Boss: an enemy, a drop, a stage and the Enemies deck's back",
            cards("final_boss", ["enemy", "drop", "stage"])),
    Picture("stepfall-cards.png", "Stepfall: a unit and its back", cards("tactics", ["unit"])),
    Picture("boss-fight-map.png", "a Boss Fight map in colour: its overview with the legend and a true-scale sheet",
            map_pages("boss_fight", "The Drowned Crossing")),
    Picture("stepfall-map.png", "a square map with heights (Stepfall): overview, legend and a true-scale sheet",
            map_pages("tactics", "The Broken Terraces")),
    Picture("boss-fight-rulebook.png", "the Boss Fight rulebook: its cover and the first page of a chapter",
            rulebook_pages("boss_fight", "CHAPTER 1")),
]


def save(image: Image.Image, path: Path) -> None:
    """PNG with fixed settings and no metadata: the same pixels give the same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = [p for p in GALLERY if not argv or any(a in p.file for a in argv)]
    with tempfile.TemporaryDirectory() as tmp:
        for picture in wanted:
            save(picture.make(Path(tmp)), OUT / picture.file)
            print(f"wrote {(OUT / picture.file).relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
