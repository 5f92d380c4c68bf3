"""The Tabletop Simulator save written by `--profile tts`: its structure against a JSON
Schema of TTS's save format (tests/fixtures/tts/save.schema.json), a fixture save compared
field by field, and every card's CardID pointing at the sheet cell that shows that card
(the cell's pixels against the card rendered alone)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from generator.export import raster
from generator.export.tts_save import build_save, build_saves, file_url, write_tts_save
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_print_shop

REPO = Path(__file__).resolve().parents[1]
PACK = REPO / "card_data" / "boss_fight"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tts"
SCHEMA = json.loads((FIXTURES / "save.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


def _index(tmp: Path) -> None:
    """A decks.json as the deck export writes it: one boss-ability sheet, hero cards on two sheets."""
    decks = [
        {"set": "boss", "type": "ability", "face": "boss-ability-1.png", "back": "back-boss-ability.png",
         "columns": 4, "rows": 1, "cards": 3, "width_px": 1636, "height_px": 572,
         "ids": ["blood-frenzy", "quaking-bellow", "blood-frenzy"]},
        {"set": "hero", "type": "hero", "face": "hero-hero-1.png", "back": "back-hero-hero.png",
         "columns": 3, "rows": 1, "cards": 2, "width_px": 1227, "height_px": 572,
         "ids": ["torva-greymantle", "wren-ashby"]},
        {"set": "hero", "type": "hero", "face": "hero-hero-2.png", "back": "back-hero-hero.png",
         "columns": 2, "rows": 1, "cards": 1, "width_px": 818, "height_px": 572, "ids": ["torva-greymantle"]},
    ]
    (tmp / "decks.json").write_text(json.dumps({"pack": "boss_fight", "version": "1.0.0", "card_px": [409, 572],
                                                "decks": decks}), encoding="utf-8")
    (tmp / "maps").mkdir()
    (tmp / "maps" / "arena.json").write_text(json.dumps({
        "map": "arena", "title": "Arena", "image": "arena_hex100px.png", "width_px": 2000, "height_px": 1500,
        "orientation": "flat", "hex_size_mm": 25.4, "hex_pitch_px": 100, "dpi": 100.0}), encoding="utf-8")


def _diff(expected, actual, path="$") -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = [f"{path}.{k}: missing" for k in expected if k not in actual]
        out += [f"{path}.{k}: unexpected" for k in actual if k not in expected]
        for k in expected:
            if k in actual:
                out += _diff(expected[k], actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: {len(actual)} items, expected {len(expected)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in _diff(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [f"{path}: {actual!r}, expected {expected!r}"]


def test_fixture_save_field_by_field(tmp_path, pack):
    _index(tmp_path)
    save = build_save(pack, tmp_path, url_base="https://example.test/kit/")
    jsonschema.validate(save, SCHEMA)
    expected = json.loads((FIXTURES / "expected_save.json").read_text(encoding="utf-8"))
    assert _diff(expected, save) == []


def test_fixture_save_facts(tmp_path, pack):
    """What the fixture must say, spelled out: keys, ids, names, text, URLs, the split deck, the grid."""
    _index(tmp_path)
    save = build_save(pack, tmp_path)
    ability, heroes, board = save["ObjectStates"]
    assert ability["Name"] == "DeckCustom" and ability["DeckIDs"] == [100, 101, 102]
    assert ability["CustomDeck"]["1"]["FaceURL"] == file_url(tmp_path / "boss-ability-1.png")
    assert ability["CustomDeck"]["1"]["BackURL"].endswith("/back-boss-ability.png")
    assert (ability["CustomDeck"]["1"]["NumWidth"], ability["CustomDeck"]["1"]["NumHeight"]) == (4, 1)
    assert ability["CustomDeck"]["1"]["BackIsHidden"] is True and ability["CustomDeck"]["1"]["UniqueBack"] is False
    frenzy = pack.cards["blood-frenzy"]
    assert [c["Nickname"] for c in ability["ContainedObjects"]] == [frenzy.name, pack.cards["quaking-bellow"].name,
                                                                    frenzy.name]
    assert ability["ContainedObjects"][0]["Description"] == frenzy.text.replace(":health:", "health").replace(
        ":damage:", "damage").strip()
    # the split deck: one DeckCustom, two sheets (keys 2 and 3), ids key * 100 + slot
    assert heroes["DeckIDs"] == [200, 201, 300] and sorted(heroes["CustomDeck"]) == ["2", "3"]
    assert [list(c["CustomDeck"]) for c in heroes["ContainedObjects"]] == [["2"], ["2"], ["3"]]
    assert board["Name"] == "Custom_Board" and board["Locked"] is True
    assert save["Grid"]["Type"] == 1 and save["Grid"]["xSize"] == pytest.approx(1.0)  # 25.4 mm = 1 in = 1 unit


def _cell(sheet: Image.Image, cols: int, rows: int, slot: int) -> Image.Image:
    w, h = sheet.width // cols, sheet.height // rows
    x, y = (slot % cols) * w, (slot // cols) * h
    return sheet.crop((x, y, x + w, y + h))


def test_card_ids_point_at_the_cells_that_show_the_card(tmp_path, pack, monkeypatch):
    shared = CardShared(pack)
    faces = [f for f in pack_faces(pack, shared) if (f.set_id, f.type_id) == ("boss", "ability")]
    faces += [f for f in pack_faces(pack, shared) if (f.set_id, f.type_id) == ("hero", "hero")][:7]
    # small sheets (4 x 2 = 7 cards and the hidden card), so the hero deck splits over sheets
    monkeypatch.setattr(raster, "TTS_MAX_COLUMNS", 4)
    monkeypatch.setattr(raster, "TTS_MAX_ROWS", 2)
    raster.export_tts(pack, faces, tmp_path / "tts", shared)
    info = write_tts_save(pack, tmp_path / "tts", url_base=None, pieces=False)
    save = json.loads((tmp_path / "tts" / "Boss-Fight.json").read_text(encoding="utf-8"))
    jsonschema.validate(save, SCHEMA)
    assert info["cards"] == len(faces)
    decks = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert any(len(d["CustomDeck"]) > 1 for d in decks), "the 8-card ability deck should need two sheets"
    card_px = raster.tts_card_px(pack.card_size_mm())
    own: dict = {}
    checked = 0
    for deck in decks:
        assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
        for card in deck["ContainedObjects"]:
            key, slot = divmod(card["CardID"], 100)
            custom = deck["CustomDeck"][str(key)]
            assert card["CustomDeck"] == {str(key): custom}
            path = Path(custom["FaceURL"].removeprefix("file://"))
            assert path.is_file()
            with Image.open(path) as sheet:
                assert sheet.width <= 4096 and sheet.height <= 4096 and sheet.mode == "RGB"
                assert slot < custom["NumWidth"] * custom["NumHeight"] - 1  # never the hidden-card slot
                cell = np.asarray(_cell(sheet, custom["NumWidth"], custom["NumHeight"], slot), dtype=np.int16)
            card_id = card["GMNotes"]
            assert pack.cards[card_id].name == card["Nickname"]
            if card_id not in own:
                face = next(f for f in faces if f.card.id == card_id)
                write_print_shop(pack, [face], tmp_path / f"{card_id}.pdf", bleed_mm=0.0, shared=shared, backs=False)
                doc = pdfium.PdfDocument(str(tmp_path / f"{card_id}.pdf"))
                img = doc[0].render(scale=(card_px[0] - 1e-6) / doc[0].get_width()).to_pil().convert("RGB")
                doc.close()
                own[card_id] = np.asarray(img.resize(card_px, Image.LANCZOS) if img.size != card_px else img,
                                          dtype=np.int16)
            assert cell.shape == own[card_id].shape
            assert np.abs(cell - own[card_id]).mean() < 1.0, f"cell {card['CardID']} does not show {card_id}"
            # and it is not just any card: another card of the deck differs clearly
            others = [v for k, v in own.items() if k != card_id]
            assert all(np.abs(cell - o).mean() > 3.0 for o in others)
            checked += 1
    assert checked == len(faces)


def test_url_base_replaces_file_urls(tmp_path, pack):
    _index(tmp_path)
    save = build_save(pack, tmp_path, url_base="https://cdn.example.test/game")
    urls = [d["FaceURL"] for o in save["ObjectStates"] for d in o.get("CustomDeck", {}).values()]
    assert urls and all(u.startswith("https://cdn.example.test/game/") for u in urls)
    board = save["ObjectStates"][-1]
    assert board["CustomImage"]["ImageURL"] == "https://cdn.example.test/game/maps/arena_hex100px.png"


def test_counters_and_bases_in_the_save(tmp_path, pack):
    """Counters: a bag per kind holding one tile per counter, of the counter's shape, front and
    back images; bases: a token each. Images cut from the kit's own pieces.pdf."""
    from generator.export.tts_pieces import PX_PER_MM, export_tts_pieces
    from generator.export.tts_save import TTS_TILE_UNITS_AT_SCALE_1
    from generator.render.pieces.draw import extent
    _index(tmp_path)
    index = export_tts_pieces(pack, tmp_path)
    save = build_save(pack, tmp_path)
    jsonschema.validate(save, SCHEMA)
    bags = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "Bag"}
    by_kind = {c["kind"]: c for c in index["counters"]}
    obstacle = by_kind["obstacle"]
    assert obstacle["shape"] == "hex" and obstacle["count"] == 20 and obstacle["back"]
    tiles = bags["Obstacle counters"]["ContainedObjects"]
    assert len(tiles) == 20 and {t["Name"] for t in tiles} == {"Custom_Tile"}
    image = tiles[0]["CustomImage"]
    assert image["CustomTile"]["Type"] == 1  # hex
    assert image["ImageURL"].endswith("/pieces/obstacle-front.png")
    assert image["ImageSecondaryURL"].endswith("/pieces/obstacle-back.png")
    assert tiles[0]["Transform"]["scaleX"] == pytest.approx(25.4 / 25.4 / TTS_TILE_UNITS_AT_SCALE_1, abs=1e-3)
    with Image.open(tmp_path / "pieces" / "obstacle-front.png") as img:  # cropped at the cut line
        w, h = extent("hex", pack.spec.pieces.orientation or "pointy", 25.4)
        assert abs(img.width - w * PX_PER_MM) <= 2 and abs(img.height - h * PX_PER_MM) <= 2
    round_kinds = [c for c in index["counters"] if c["shape"] == "round"]
    assert round_kinds and all(bags[f"{c['kind'].replace('-', ' ').title()} counters"]["ContainedObjects"][0]
                               ["CustomImage"]["CustomTile"]["Type"] == 2 for c in round_kinds)
    tokens = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Token"]
    assert len(tokens) == len(index["bases"]) >= 5
    titan = next(b for b in index["bases"] if b["key"] == "the-worldbreaker-titan")
    with Image.open(tmp_path / "pieces" / titan["image"]) as img:
        alpha = np.asarray(img.convert("RGBA"))[..., 3]
    assert alpha[0, 0] == 0 and alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 255  # cut out, solid inside


def test_cards_of_other_sizes_keep_their_proportions(tmp_path):
    """A tarot boss card: x and z scaled apart from TTS's 2.5 x 3.5 unit card."""
    raid = load_pack(REPO / "card_data" / "raid_boss")
    (tmp_path / "decks.json").write_text(json.dumps({"pack": "raid_boss", "decks": [
        {"set": "karrun", "type": "boss", "face": "karrun-boss-1.png", "back": "back-karrun-boss.png",
         "columns": 2, "rows": 1, "cards": 1, "ids": ["karrun"]}]}), encoding="utf-8")
    (card,) = build_save(raid, tmp_path)["ObjectStates"]
    assert card["Name"] == "Card" and card["CardID"] == 100  # a one-card deck is a card
    assert card["Transform"]["scaleX"] == pytest.approx(69.85 / 25.4 / 2.5, abs=1e-3)
    assert card["Transform"]["scaleZ"] == pytest.approx(120.65 / 25.4 / 3.5, abs=1e-3)


def test_square_maps_get_a_box_grid(tmp_path, pack):
    (tmp_path / "decks.json").write_text(json.dumps({"decks": []}), encoding="utf-8")
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "quarry.json").write_text(json.dumps({
        "map": "quarry", "title": "Quarry", "image": "quarry_tile100px.png", "grid": "square",
        "width_px": 1200, "height_px": 800, "tile_size_mm": 30.0, "tile_pitch_px": 100, "dpi": 84.667}),
        encoding="utf-8")
    save = build_save(pack, tmp_path)
    (board,) = save["ObjectStates"]
    assert board["Name"] == "Custom_Board" and "tiles 30 mm" in board["Description"]
    assert save["Grid"]["Type"] == 0 and save["Grid"]["xSize"] == pytest.approx(30 / 25.4, abs=1e-4)


def _all_urls(save: dict) -> list[str]:
    urls = []

    def walk(value):
        if isinstance(value, dict):
            for k, v in value.items():
                if k.endswith("URL") and isinstance(v, str) and v:
                    urls.append(v)
                else:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(save)
    return urls


def test_each_map_grid_gets_its_own_save(tmp_path, pack):
    """A flat-top map lies on a flat-top grid, a pointy-top one on a pointy-top grid (issue 28:
    the first map's grid was the table's for every map)."""
    _index(tmp_path)  # arena: flat-top
    (tmp_path / "maps" / "hall.json").write_text(json.dumps({
        "map": "hall", "title": "Hall", "image": "hall_hex100px.png", "width_px": 1500, "height_px": 1200,
        "orientation": "pointy", "hex_size_mm": 25.4, "hex_pitch_px": 100, "dpi": 100.0}), encoding="utf-8")
    saves = build_saves(pack, tmp_path)
    assert set(saves) == {"", "-pointy-top-25.4mm"}
    boards = {}
    for suffix, save in saves.items():
        jsonschema.validate(save, SCHEMA)
        for o in save["ObjectStates"]:
            if o["Name"] == "Custom_Board":
                boards.setdefault(o["Nickname"], []).append((suffix, save["Grid"]["Type"]))
        assert sum(o["Name"] == "DeckCustom" for o in save["ObjectStates"]) == 2  # the decks in every save
    # each map once, on the grid of its own orientation (TTS: 1 flat-top hexes, 2 pointy-top)
    assert boards == {"Arena": [("", 1)], "Hall": [("-pointy-top-25.4mm", 2)]}
    assert saves["-pointy-top-25.4mm"]["SaveName"].endswith("(pointy-top-25.4mm maps)")
    # one grid only: one save, as before
    (tmp_path / "maps" / "hall.json").unlink()
    assert set(build_saves(pack, tmp_path)) == {""}


def test_relative_and_absolute_links_name_the_same_files(tmp_path, pack):
    folder = tmp_path / "tts"
    folder.mkdir()
    _index(folder)
    write_tts_save(pack, folder, pieces=False)
    absolute = json.loads((folder / "Boss-Fight.json").read_text(encoding="utf-8"))
    relative = json.loads((folder / "Boss-Fight.relative.json").read_text(encoding="utf-8"))
    abs_urls, rel_urls = _all_urls(absolute), _all_urls(relative)
    assert abs_urls and len(abs_urls) == len(rel_urls)
    assert all(u.startswith("file:///") for u in abs_urls)  # what TTS loads
    assert "maps/arena_hex100px.png" in rel_urls
    for a, r in zip(abs_urls, rel_urls):
        assert ":" not in r and not r.startswith("/")  # relative to the save's folder
        assert a == file_url(folder / r)
    # with a URL base there is nothing to make relative: no second file
    (folder / "Boss-Fight.relative.json").unlink()
    write_tts_save(pack, folder, url_base="https://cdn.example.test/kit", pieces=False)
    assert not (folder / "Boss-Fight.relative.json").exists()


def test_a_deck_of_own_backs_hides_its_cards_behind_one_image(tmp_path):
    """Issue 41 item 6: Raid Boss's heroes each have their own back, and the heroes deck used the
    first hero's back as the image TTS shows for a card hidden in a hand, so the table saw who
    was hidden. The hidden slot is now the set's colour with a frame, the same for every card."""
    rb = load_pack(REPO / "card_data" / "raid_boss")
    shared = CardShared(rb)
    faces = [f for f in pack_faces(rb, shared, copies=False) if f.type_id == "hero"]
    index = raster.export_tts(rb, faces, tmp_path / "tts", shared)["index"]
    (deck,) = [d for d in index["decks"] if d["type"] == "hero"]
    assert deck.get("unique_back") and deck["cards"] == 12
    with Image.open(tmp_path / "tts" / deck["face"]) as sheet, Image.open(tmp_path / "tts" / deck["back"]) as backs:
        cols, rows = deck["columns"], deck["rows"]
        hidden = np.asarray(_cell(sheet, cols, rows, cols * rows - 1).convert("RGB"), dtype=np.int16)
        own = [np.asarray(_cell(backs, cols, rows, i).convert("RGB"), dtype=np.int16) for i in range(deck["cards"])]
    for back in own:  # no hero's back: every one differs from the hidden image over much of the card
        assert np.mean(np.abs(back - hidden)) > 20
    colour = tuple(int(rb.spec.sets["heroes"].color[i:i + 2], 16) for i in (1, 3, 5))
    h, w, _ = hidden.shape
    assert tuple(hidden[h // 2, w // 2]) == colour and tuple(hidden[2, 2]) == colour
