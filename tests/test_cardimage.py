"""Card images for screens: drawn by the card layouts, cached on disk by a hash of what the
face depends on, redrawn when (and only when) that changes."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from generator.core.errors import InputError
from generator.export import cardimage
from generator.export.cardimage import card_image, card_key
from generator.pack.load import load_pack
from generator.pack.model import CARD_SIZES_MM

from conftest import REPO


@pytest.fixture
def renders(monkeypatch):
    """Counts the drawings card_image makes (a cache hit makes none)."""
    calls = []
    real = cardimage.render_png

    def counting(pack, card_id, face, dpi, shared=None):
        calls.append((card_id, face, dpi))
        return real(pack, card_id, face, dpi, shared)

    monkeypatch.setattr(cardimage, "render_png", counting)
    return calls


def with_card(pack, card_id, **changes):
    """A copy of the pack in which one card has other values."""
    cards = dict(pack.cards)
    cards[card_id] = dataclasses.replace(cards[card_id], **changes)
    return dataclasses.replace(pack, cards=cards)


def test_image_is_the_card_at_its_trim_size(pack, tmp_path):
    path = card_image(pack, "basic-attack", tmp_path, dpi=100)
    w_mm, h_mm = CARD_SIZES_MM["poker"]
    with Image.open(path) as img:
        assert img.format == "PNG"
        assert abs(img.width - w_mm / 25.4 * 100) <= 1 and abs(img.height - h_mm / 25.4 * 100) <= 1
        colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
    assert len(colours) > 50  # drawn text and frame, not a blank page


def test_cache_hit_draws_nothing(pack, tmp_path, renders):
    first = card_image(pack, "basic-attack", tmp_path)
    mtime = first.stat().st_mtime_ns
    again = card_image(pack, "basic-attack", tmp_path)
    assert again == first and first.stat().st_mtime_ns == mtime
    assert renders == [("basic-attack", "front", 150)]
    card_image(pack, "basic-attack", tmp_path, dpi=72)  # another resolution is another image
    assert len(renders) == 2


def test_changed_card_text_is_redrawn(pack, tmp_path, renders):
    before = card_image(pack, "basic-attack", tmp_path, dpi=72)
    old_bytes = before.read_bytes()
    changed = with_card(pack, "basic-attack", text="Deal 9 damage to everything in the room.")
    assert card_key(changed, "basic-attack", dpi=72) != card_key(pack, "basic-attack", dpi=72)
    after = card_image(changed, "basic-attack", tmp_path, dpi=72)
    assert after != before and after.read_bytes() != old_bytes
    assert len(renders) == 2
    assert not before.exists()  # the stale drawing of that face is removed


def test_change_to_another_card_keeps_the_image(pack, tmp_path, renders):
    first = card_image(pack, "basic-attack", tmp_path, dpi=72)
    changed = with_card(pack, "heavy-attack", text="Something else entirely.", points=9)
    assert card_key(changed, "basic-attack", dpi=72) == card_key(pack, "basic-attack", dpi=72)
    assert card_image(changed, "basic-attack", tmp_path, dpi=72) == first
    assert len(renders) == 1


def test_changed_layout_is_redrawn(tmp_path, renders):
    """A pack's own layout (here one that overrides the built-in `action`) is part of the key."""
    import shutil
    root = tmp_path / "pack"
    shutil.copytree(REPO / "card_data" / "boss_fight", root)
    own = root / "templates" / "cards"
    own.mkdir(parents=True, exist_ok=True)
    base = (REPO / "card_data" / "boss_fight" / "templates" / "cards" / "action.yaml").read_text(encoding="utf-8")
    (own / "action.yaml").write_text(base, encoding="utf-8")
    pack = load_pack(root)
    first = card_image(pack, "basic-attack", tmp_path / "cache", dpi=72)
    other = card_image(pack, "bone-cleaver", tmp_path / "cache", dpi=72)  # not an action card
    (own / "action.yaml").write_text(base + "\n# a comment changes the file, so the key\n", encoding="utf-8")
    assert card_image(pack, "basic-attack", tmp_path / "cache", dpi=72) != first
    assert card_image(pack, "bone-cleaver", tmp_path / "cache", dpi=72) == other
    assert [r[0] for r in renders] == ["basic-attack", "bone-cleaver", "basic-attack"]


def test_backs_are_shared_by_set_and_type(pack, tmp_path, renders):
    first = pack.cards["basic-attack"]
    twin = next(c for c in pack.cards.values() if c is not first and (c.set, c.type) == (first.set, first.type))
    a = card_image(pack, first.id, tmp_path, face="back", dpi=72)
    b = card_image(pack, twin.id, tmp_path, face="back", dpi=72)
    assert a == b and len(renders) == 1
    changed = with_card(pack, first.id, text="New words.")
    assert card_image(changed, first.id, tmp_path, face="back", dpi=72) == a
    other = next(c for c in pack.cards.values() if c.set != first.set)
    assert card_image(pack, other.id, tmp_path, face="back", dpi=72) != a


@pytest.mark.parametrize("pack_id", ["raid_boss", "final_boss", "battle_bosses", "tactics"])
def test_other_packs_draw_their_own_sizes(pack_id, tmp_path):
    other = load_pack(REPO / "card_data" / pack_id)
    card = next(iter(other.cards.values()))
    w_mm, h_mm = other.card_size_mm(card.type)
    with Image.open(card_image(other, card.id, tmp_path, dpi=72)) as img:
        assert abs(img.width - w_mm / 25.4 * 72) <= 1 and abs(img.height - h_mm / 25.4 * 72) <= 1


@pytest.mark.parametrize("card_id, face, dpi, code", [
    ("basic-atack", "front", 150, "card.unknown"),
    ("basic-attack", "side", 150, "cardimage.face"),
    ("basic-attack", "front", 5000, "cardimage.dpi"),
    ("basic-attack", "front", 0, "cardimage.dpi"),
])
def test_bad_requests_are_input_errors(pack, tmp_path, card_id, face, dpi, code):
    with pytest.raises(InputError) as exc:
        card_image(pack, card_id, tmp_path, face=face, dpi=dpi)
    assert exc.value.problems[0].code == code
    if code == "card.unknown":
        assert "basic-attack" in exc.value.problems[0].fix
    assert not any(tmp_path.iterdir())


def test_drawing_setup_is_reused_until_a_layout_changes(pack, tmp_path):
    first = cardimage.shared_for(pack)
    assert cardimage.shared_for(pack) is first
    other = load_pack(REPO / "card_data" / "tactics")
    assert cardimage.shared_for(other) is not first
    assert cardimage.shared_for(pack) is first


def test_image_matches_the_print_shop_page_of_the_same_card(pack, tmp_path):
    """The same painter as the kit's PDFs: the card's print-shop page (no bleed), rasterized at
    the same resolution, gives the same pixels."""
    import pypdfium2 as pdfium
    from PIL import ImageChops

    from generator.kit import pack_faces
    from generator.render.cards.faces import CardShared
    from generator.render.cards.sheets import write_print_shop

    shared = CardShared(pack)
    face = next(f for f in pack_faces(pack, shared, copies=False) if f.card and f.card.id == "titan-arm")
    pdf_path = tmp_path / "one.pdf"
    write_print_shop(pack, [face], pdf_path, bleed_mm=0.0, shared=shared, backs=True)
    pdf = pdfium.PdfDocument(str(pdf_path))
    for page_index, side in ((0, "front"), (1, "back")):
        printed = pdf[page_index].render(scale=100 / 72).to_pil().convert("RGB")
        with Image.open(card_image(pack, "titan-arm", tmp_path / "cache", face=side, dpi=100)) as img:
            shown = img.convert("RGB")
        assert shown.size == printed.size
        diff = ImageChops.difference(shown, printed)
        histogram = diff.convert("L").histogram()
        changed = sum(histogram[16:])  # pixels that differ visibly
        assert changed <= shown.width * shown.height * 0.002, (side, changed)
    pdf.close()
