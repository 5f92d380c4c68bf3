"""Per-card backs (`backs: each` on a card type): every card's back is drawn from its own
fields by the type's back layout, behind its own front, in every output profile. Tried on
the Raid Boss heroes (role, five ratings, lore, guide) and bosses (the battle, three ratings,
lore, guide); the other card types of the pack keep one back per set and type."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pack.load import load_pack

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "raid_boss"
MM = 72 / 25.4
PROFILES = ("home", "gutterfold", "print-shop", "png", "tts", "dtc", "cut")


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("backs")
    for profile in PROFILES:
        result = CliRunner().invoke(main, ["build", str(PACK_DIR), "-o", str(out / profile), "--profile", profile,
                                           "--only", "cards"])
        assert result.exit_code == 0, (profile, result.output)
    return out


def heroes(pack):
    return pack.cards_of("hero")


def words(pdf: Path) -> list[tuple[int, float, float, float, float, str]]:
    """(page, x0, y0, x1, y1, word) in PDF points, y up."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out = []
    for n, page in enumerate(html.split("<page ")[1:], 1):
        height = float(re.search(r'height="([\d.]+)"', page).group(1))
        for a, b, c, d, w in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                                        r'([^<]*)</word>', page):
            out.append((n, float(a), height - float(d), float(c), height - float(b), w))
    return out


def backs_hold(pdf: Path, pack, type_id: str = "hero") -> dict[str, set[str]]:
    """For every back of a card of `type_id` on the sheets: the words drawn inside its trim."""
    all_words = words(pdf)
    w, h = (v * MM for v in pack.card_size_mm(type_id))
    found: dict[str, set[str]] = {}
    for page, x0, y0, _x1, _y1, word in all_words:
        m = re.fullmatch(r"pnp:back:([a-z0-9-]+):\d+", word)
        if not m or m.group(1) not in pack.cards or pack.cards[m.group(1)].type != type_id:
            continue
        inside = {wd for p, a, b, c, d, wd in all_words
                  if p == page and x0 - 1 <= (a + c) / 2 <= x0 + w + 1 and y0 - 1 <= (b + d) / 2 <= y0 + h + 1}
        found.setdefault(m.group(1), set()).update(inside)
    return found


@pytest.mark.parametrize("pdf", ["home/cards.pdf", "gutterfold/cards-gutterfold.pdf", "print-shop/cards-print-shop.pdf",
                                 "dtc/dtc/heroes-120.65x69.85mm.pdf", "cut/cut-silhouette/sheets.pdf"])
def test_every_hero_back_shows_its_own_fields(built, pack, pdf):
    held = backs_hold(built / pdf, pack)
    assert set(held) == {h.id for h in heroes(pack)}
    for hero in heroes(pack):
        first = hero.name.split()[0]
        others = {h.name.split()[0] for h in heroes(pack)} - {first}
        assert first in held[hero.id] and "DEFENSE" in held[hero.id], (pdf, hero.id)
        assert not others & held[hero.id], (pdf, hero.id)
        assert hero.fields["role"].split()[-1] in held[hero.id]


BACK_FIELDS = {
    "hero": ("rating_attack", "rating_defense", "rating_healing", "rating_chance", "rating_tactics", "lore", "guide"),
    "boss": ("battle", "rating_difficulty", "rating_tactics", "rating_chance", "lore", "guide"),
}


@pytest.mark.parametrize("type_id", sorted(BACK_FIELDS))
def test_every_hero_and_boss_fills_every_back_field(pack, type_id):
    cards = pack.cards_of(type_id)
    assert len(cards) >= 6 if type_id == "boss" else len(cards) >= 12
    for card in cards:
        for field in BACK_FIELDS[type_id]:
            value = card.fields.get(field)
            assert value not in (None, ""), f"{card.id} has no {field}"
            if field.startswith("rating_"):
                assert 0 <= int(value) <= 5, f"{card.id} {field}={value}"


def test_every_boss_back_shows_its_own_battle(built, pack):
    held = backs_hold(built / "home" / "cards.pdf", pack, "boss")
    bosses = pack.cards_of("boss")
    assert set(held) == {b.id for b in bosses}
    for boss in bosses:
        assert boss.name.split()[-1] in held[boss.id] and "DIFFICULTY" in held[boss.id]
        assert not {b.name.split()[-1] for b in bosses if b is not boss} & held[boss.id]


def test_home_backs_sit_behind_their_own_fronts(built, pack):
    """Long-edge duplex: a back's trim is its front's trim mirrored left to right."""
    found = words(built / "home" / "cards.pdf")
    width = float(re.search(r'<page width="([\d.]+)"', subprocess.run(
        ["pdftotext", "-bbox", "-l", "1", str(built / "home" / "cards.pdf"), "-"],
        capture_output=True, text=True).stdout).group(1))
    w = pack.card_size_mm("hero")[0] * MM
    place = {}
    for page, x0, y0, *_rest, word in found:
        m = re.fullmatch(r"pnp:(face|back):([a-z0-9-]+):\d+", word)
        if m and m.group(2) in {h.id for h in heroes(pack)}:
            place[(m.group(1), m.group(2))] = (page, x0, y0)
    for hero in heroes(pack):
        fp, fx, fy = place[("face", hero.id)]
        bp, bx, by = place[("back", hero.id)]
        assert bp == fp + 1
        assert abs((width - fx - w) - bx) < 0.05 * MM + 0.5 and abs(fy - by) < 0.5  # (pdftotext rounds boxes)


def test_png_export_names_one_back_per_hero_in_its_manifest(built, pack):
    folder = built / "png" / "png-mpc"
    rows = json.loads((folder / "manifest.json").read_text())["rows"]
    hero_rows = [r for r in rows if r["type"] == "Hero"]
    assert len(hero_rows) == len(heroes(pack))
    assert all(r["back_file"] == r["face_file"].replace(".png", "-back.png") for r in hero_rows)
    images = {(folder / r["back_file"]).read_bytes() for r in hero_rows}
    assert len(images) == len(hero_rows)  # every back a different picture
    boss = [r for r in rows if r["type"] == "Boss Card"]
    assert len({r["back_file"] for r in boss}) == len(pack.cards_of("boss"))  # one back per boss deck


def test_tts_deals_heroes_with_unique_backs(built, pack):
    from PIL import Image
    folder = built / "tts" / "tts"
    decks = json.loads((folder / "decks.json").read_text())["decks"]
    (hero,) = [d for d in decks if d["type"] == "hero"]
    assert hero.get("unique_back") is True and hero["back"].endswith("-backs.png")
    with Image.open(folder / hero["back"]) as backs, Image.open(folder / hero["face"]) as faces:
        assert backs.size == faces.size
    assert all(d.get("unique_back") for d in decks if d["type"] == "boss")
    assert not any(d.get("unique_back") for d in decks if d["type"] not in ("hero", "boss"))
    save = json.loads((folder / "Raid-Boss.json").read_text())
    unique = {deck["Nickname"]: {c["UniqueBack"] for c in deck["CustomDeck"].values()}
              for deck in save["ObjectStates"] if deck.get("Name") == "DeckCustom"}
    assert unique["Heroes — Hero"] == {True}
    assert all(v == ({True} if k.endswith("— Boss") else {False}) for k, v in unique.items() if k != "Heroes — Hero")


def test_a_pack_without_per_card_backs_is_unchanged(pack):
    assert pack.back_key("karrun", "boss-card", pack.cards["karrun-burrow"]) == ("karrun", "boss-card")
    hero = heroes(pack)[0]
    assert pack.back_key("heroes", "hero", hero) == ("heroes", "hero", hero.id)
    assert pack.back_key("heroes", "hero", None) == ("heroes", "hero")
