"""One build shape (generator.pack.buildshape): every preset of every pack written as a document
by `character_document` loads back through the loader to the same cards in the same places,
`character_refs` walks them in table order, and the web page's document and `pnp unshare`
both write that shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.yamlio import load_yaml_file
from generator.kit import build_refs
from generator.pack.buildshape import character_document, character_refs
from generator.pack.load import load_build, load_pack
from generator.share.codes import build_document, decode, share_code
from generator.web.state import clean_document, to_build

REPO = Path(__file__).resolve().parents[1]
PRESETS = sorted((p.parent.parent.name, p.name) for p in REPO.glob("card_data/*/presets/*.yaml"))


def places(build) -> list:
    return [[(place, ref.id, n) for place, ref, n in character_refs(c)] for c in build.characters]


def document_of(pack, build) -> dict:
    side = pack.spec.sides[build.side]
    chars = []
    for c in build.characters:
        bases = ([(b.card.id, [e.id for e in b.equipment]) for b in c.bases] if side.base.many
                 else c.bases[0].card.id)
        chars.append(character_document(side, c.name, bases, [e.id for e in c.equipment],
                                        [a.id for a in c.abilities], {d.card.id: d.copies for d in c.deck}))
    return {"pack": pack.spec.id, "name": build.name, "side": build.side, "characters": chars}


@pytest.mark.parametrize("pack_id, preset", PRESETS)
def test_every_preset_goes_to_the_document_shape_and_back(pack_id, preset):
    pack = load_pack(REPO / "card_data" / pack_id)
    path = REPO / "card_data" / pack_id / "presets" / preset
    build = load_build(path, pack)
    assert places(build) and all(places(build))
    again = to_build(document_of(pack, build), pack)
    assert places(again) == places(build)
    # the share code's document and the web page's document are the same shape
    shared = build_document(pack, decode(share_code(pack, build), pack))
    assert places(to_build(shared, pack)) == places(build)
    page = clean_document(load_yaml_file(path).data, pack)
    assert places(to_build(page, pack)) == places(build)
    # the print kit takes the same walk
    assert [(r.id, n) for r, n in build_refs(build)] == [(r, n) for c in places(build) for _, r, n in c]


def test_the_walk_is_in_table_order():
    pack = load_pack(REPO / "card_data" / "boss_fight")
    preset = next(p for k, p in PRESETS if k == "boss_fight")
    build = load_build(REPO / "card_data" / "boss_fight" / "presets" / preset, pack)
    order = [place for place, _, _ in character_refs(build.characters[0])]
    assert order[0] == "base"
    seen = [p for i, p in enumerate(order) if i == 0 or order[i - 1] != p]
    ranks = {"base": 0, "equipment": 0, "abilities": 1, "deck": 2}
    assert [ranks[p] for p in seen] == sorted(ranks[p] for p in seen)


@pytest.mark.parametrize("pack_id, preset", PRESETS)
def test_a_document_read_back_by_its_places_is_the_loaded_build(pack_id, preset):
    """`document_places` (the loader's and the deck-list parser's reading of a character) gives
    the cards of `character_refs`, each with the path the loader points its messages at."""
    from generator.pack.buildshape import document_places
    pack = load_pack(REPO / "card_data" / pack_id)
    doc = load_yaml_file(REPO / "card_data" / pack_id / "presets" / preset)
    build = load_build(REPO / "card_data" / pack_id / "presets" / preset, pack)
    side = pack.spec.sides[build.side]
    for ci, (raw, char) in enumerate(zip(doc.data["characters"], build.characters)):
        read = document_places(side, raw)
        assert [(p.place, p.card, p.copies) for p in read] == [(place, ref.id, n) for place, ref, n in character_refs(char)]
        assert [("characters", ci) + p.path for p in read] == [ref.path for _, ref, _ in character_refs(char)]


def test_equipment_fixed_to_a_base_card_names_that_card():
    from generator.pack.buildshape import document_places
    pack = load_pack(REPO / "card_data" / "boss_fight")
    side = pack.spec.sides["boss"]
    key = side.base.item_key or "card"
    char = {side.base.key: [{key: "a", "equipment": ["x", "y"]}, "b", {key: "c", "equipment": ["z"]}]}
    read = [(p.place, p.card, p.base) for p in document_places(side, char)]
    assert read == [("base", "a", None), ("equipment", "x", 0), ("equipment", "y", 0), ("base", "b", None),
                    ("base", "c", None), ("equipment", "z", 2)]


# ---- the bounds of a build (core/limits.py), the same for a build file and the web page -----------

def _boss(pack, **char) -> dict:
    side = pack.spec.sides["boss"]
    key = side.base.item_key or "card"
    preset = next(p for k, p in PRESETS if k == "boss_fight" and p.startswith("boss-"))
    doc = load_yaml_file(REPO / "card_data" / "boss_fight" / "presets" / preset).data
    first = doc["characters"][0]
    return {**doc, "characters": [{**first, side.base.key: [{key: "titan-arm"}], **char}]}


@pytest.mark.parametrize("what", ["abilities", "deck", "id", "notes"])
def test_a_list_an_id_or_notes_over_its_bound_is_refused_by_the_loader_and_the_page(what):
    from generator.core.errors import InputError
    from generator.core.limits import MAX_ID_TEXT, MAX_ITEMS, MAX_NOTES
    pack = load_pack(REPO / "card_data" / "boss_fight")
    at_bound = {"abilities": {"abilities": ["a"] * MAX_ITEMS},
                "deck": {"deck": {f"c{i}": 1 for i in range(MAX_ITEMS)}},
                "id": {"abilities": ["x" * MAX_ID_TEXT]}}.get(what, {})
    over = {"abilities": {"abilities": ["a"] * (MAX_ITEMS + 1)},
            "deck": {"deck": {f"c{i}": 1 for i in range(MAX_ITEMS + 1)}},
            "id": {"abilities": ["x" * (MAX_ID_TEXT + 1)]}}.get(what, {})
    legal = _boss(pack, **at_bound) | ({"notes": "n" * MAX_NOTES} if what == "notes" else {})
    illegal = _boss(pack, **over) | ({"notes": "n" * (MAX_NOTES + 1)} if what == "notes" else {})
    assert clean_document(legal, pack)["characters"]  # at the bound: the page holds it
    to_build(legal, pack)  # and the loader reads it (unknown cards are the validator's to report)
    for read in (lambda d: clean_document(d, pack), lambda d: clean_document(d, pack, strict=True),
                 lambda d: to_build(d, pack)):
        with pytest.raises(InputError) as caught:
            read(illegal)
        assert any(p.code.startswith("schema.") for p in caught.value.problems), caught.value.problems


def test_the_page_holds_a_name_too_long_for_a_file_up_to_its_own_bound():
    from generator.core.errors import InputError
    from generator.core.limits import MAX_PAGE_NAME
    pack = load_pack(REPO / "card_data" / "boss_fight")
    held = clean_document(_boss(pack) | {"name": "n" * MAX_PAGE_NAME}, pack)
    assert held["name"] == "n" * MAX_PAGE_NAME
    with pytest.raises(InputError):
        to_build(held, pack)  # the validator says the file's bound (80)
    with pytest.raises(InputError):
        clean_document(_boss(pack) | {"name": "n" * (MAX_PAGE_NAME + 1)}, pack)


def test_an_entry_with_no_card_is_refused_by_the_page():
    from generator.core.errors import InputError
    pack = load_pack(REPO / "card_data" / "boss_fight")
    side = pack.spec.sides["boss"]
    with pytest.raises(InputError, match=f"missing required key `{side.base.item_key or 'card'}`"):
        clean_document(_boss(pack, **{side.base.key: [{"equipment": []}]}), pack)
