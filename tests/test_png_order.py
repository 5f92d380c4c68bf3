"""The PNG export can be ordered from (issue 15): a manifest (CSV and JSON) with each face
file, its back file, its copies in the kit, the card's name and type; names that keep a
face with its back in a sorted listing; 300 dpi stored in every PNG."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from generator.export.order import face_key, plan_files
from generator.export.raster import export_pngs
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kit():
    pack = load_pack(REPO / "card_data" / "boss_fight")
    shared = CardShared(pack)
    return pack, shared, pack_faces(pack, shared)


def test_manifest_copies_match_the_kit_for_every_card(kit):
    pack, _shared, faces = kit
    distinct, backs, rows = plan_files(faces)
    assert sum(r.copies for r in rows) == len(faces)  # 207 cards in the kit
    assert len(rows) == len(distinct) == len({face_key(f) for f in faces})
    by_card = {r.card: r for r in rows}
    for card in pack.cards.values():
        assert by_card[card.id].copies == card.copies, card.id
        assert by_card[card.id].name == card.name
    # every face names the back of its set and type, and there is one back per set and type
    assert len(backs) == len({(f.set_id, f.type_id) for f in faces})
    for face, _name in distinct:
        assert by_card[face_key(face)].back_file == backs[(face.set_id, face.type_id)][1]


def test_png_export_writes_manifest_dpi_and_sortable_names(kit, tmp_path):
    pack, shared, faces = kit
    wanted = [c.id for c in list(pack.cards.values())[:6]]
    subset = [f for f in faces if f.card is None or f.card.id in wanted]
    export_pngs(pack, subset, tmp_path / "png", "mpc", shared)
    folder = tmp_path / "png"
    rows = list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert doc["format"] == "pnp.png-manifest/1" and doc["dpi"] == 300
    assert [r["face_file"] for r in rows] == [r["face_file"] for r in doc["rows"]]
    kit_copies = Counter(face_key(f) for f in subset)
    assert {r["card"]: int(r["copies"]) for r in rows} == dict(kit_copies)
    assert doc["cards"] == len(subset)
    types = {t: spec.name for t, spec in pack.spec.card_types.items()}
    listing = sorted(p.name for p in folder.glob("*.png"))
    for row in rows:
        card = pack.cards.get(row["card"])
        if card is not None:
            assert row["name"] == card.name and row["type"] == types[card.type]
        assert (folder / row["face_file"]).is_file() and (folder / row["back_file"]).is_file()
        # a sorted listing keeps the face with its back: nothing of another back group between
        i, j = sorted((listing.index(row["face_file"]), listing.index(row["back_file"])))
        group = row["back_file"].rsplit("-back.png", 1)[0]
        assert all(name.startswith(group) for name in listing[i:j + 1])
    assert set(listing) == {r["face_file"] for r in rows} | {r["back_file"] for r in rows}
    for name in listing:
        with Image.open(folder / name) as img:
            assert img.size == (822, 1122)
            assert tuple(round(v) for v in img.info["dpi"]) == (300, 300), name
