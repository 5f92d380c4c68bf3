"""Unreadable input: every problem is reported with file, line, column, what was found, what was
expected and a fix where there is one; nothing is checked further (exit 2 on the command line)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import LEGAL_PARTY, PACK_DIR, line_of
from generator.core.errors import InputError
from generator.pack.load import load_build, load_pack
from generator.validate.target import validate_target
from generator.core.yamlio import display_path


def problems(path: Path, pack) -> list:
    with pytest.raises(InputError) as caught:
        load_build(path, pack)
    return caught.value.problems


def write(tmp_path: Path, text: str | bytes, name: str = "build.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_tab_indentation(tmp_path, pack):
    text = LEGAL_PARTY.replace("    equipment: [knights-longsword]", "\tequipment: [knights-longsword]")
    path = write(tmp_path, text)
    (p,) = problems(path, pack)
    assert p.code == "yaml.syntax"
    assert p.location.file == display_path(path)
    assert (p.location.line, p.location.column) == (line_of(text, "\tequipment"), 1)
    assert "tab" in p.message
    assert p.fix == "YAML indents with spaces only: replace the tab with spaces"
    assert p.found == "equipment: [knights-longsword]"


def test_unclosed_bracket(tmp_path, pack):
    text = LEGAL_PARTY.replace("[knights-longsword]", "[knights-longsword")
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "yaml.syntax"
    assert p.location.line >= line_of(text, "[knights-longsword")


def test_duplicate_key_names_both_lines(tmp_path, pack):
    text = LEGAL_PARTY.replace("name: Test Wardens\n", "name: Test Wardens\nname: Other\n")
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "yaml.duplicate-key"
    assert p.location.line == line_of(text, "name: Other")
    assert p.message == "duplicate key `name` (first given on line 2)"


def test_unknown_key_with_did_you_mean(tmp_path, pack):
    text = LEGAL_PARTY.replace("    equipment: [ashwood-longbow]", "    equipmnet: [ashwood-longbow]")
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "schema.unknown-key"
    assert (p.location.line, p.location.column) == (line_of(text, "equipmnet"), 5)
    assert p.fix == "did you mean `equipment`?"


@pytest.mark.parametrize("key", ["function-x", "str", "literal[1]", "HeroModel"])
def test_an_unknown_key_that_looks_like_a_pydantic_union_tag_is_still_named(tmp_path, pack, key):
    text = LEGAL_PARTY + f"{key}: 1\n"
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "schema.unknown-key" and f"`{key}`" in p.message
    assert p.location.line == text.count("\n")  # the key's own line


def test_a_boss_piece_entry_gives_one_message_not_one_per_union_branch(tmp_path, pack):
    text = ("pack: boss_fight\nname: X\nside: boss\ncharacters:\n  - name: X\n    pieces:\n"
            "      - piece: titan-arm\n        equipmnet: [bone-cleaver]\n")
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "schema.unknown-key"
    assert p.location.line == 8
    assert p.fix == "did you mean `equipment`?"
    text = "pack: boss_fight\nname: X\nside: boss\ncharacters:\n  - name: X\n    pieces: [5]\n"
    (p,) = problems(write(tmp_path, text, "b2.yaml"), pack)
    assert p.code == "schema.type"
    assert p.expected == "text or a mapping"


def test_points_limit_that_is_neither_a_number_nor_a_limit_name(tmp_path, pack):
    text = LEGAL_PARTY.replace("points_limit: 100", "points_limit: standrad")
    (p,) = problems(write(tmp_path, text), pack)
    assert p.code == "schema.choice"
    assert p.location.line == line_of(text, "points_limit")
    # `none` (play without a limit, issue 14) is one of the accepted words now
    assert p.expected == "a whole number, or one of 'beginner', 'epic', 'standard' or 'none'"
    assert p.fix == "did you mean `standard`?"


def test_wrong_types_and_ranges_all_reported_in_file_order(tmp_path, pack):
    maud_deck = LEGAL_PARTY.rindex("    deck:\n")
    text = ((LEGAL_PARTY[:maud_deck] + "    deck: [walk, regroup]\n")
            .replace("      bolas: 3", "      bolas: -1")
            .replace("    abilities: []", "    abilities: hawks-eye", 1))
    found = problems(write(tmp_path, text), pack)
    assert [(p.code, p.location.line) for p in found] == [
        ("schema.type", line_of(text, "abilities: hawks-eye")),
        ("schema.range", line_of(text, "bolas: -1")),
        ("schema.type", line_of(text, "deck: [walk, regroup]")),
    ]
    assert found[1].expected == "at least 0"
    assert found[2].expected == "a mapping"


def test_unknown_or_missing_side(tmp_path, pack):
    (p,) = problems(write(tmp_path, LEGAL_PARTY.replace("side: hero", "side: heros")), pack)
    assert (p.code, p.location.line, p.fix) == ("schema.choice", 3, "did you mean `hero`?")
    (p,) = problems(write(tmp_path, LEGAL_PARTY.replace("side: hero\n", ""), "b2.yaml"), pack)
    assert p.code == "schema.missing"


def test_build_for_another_pack(tmp_path, pack):
    (p,) = problems(write(tmp_path, LEGAL_PARTY.replace("pack: boss_fight", "pack: space_race")), pack)
    assert (p.code, p.location.line, p.found) == ("build.pack", 1, "space_race")


@pytest.mark.parametrize("content, code", [
    ("", "yaml.empty"),
    ("# only a comment\n", "yaml.empty"),
    (b"name: caf\xe9\n", "file.encoding"),
    (b"\x00\x01\x02", "file.binary"),
    ("- just\n- a list\n", "schema.type"),
])
def test_files_that_are_not_builds(tmp_path, pack, content, code):
    (p,) = problems(write(tmp_path, content), pack)
    assert p.code == code
    assert p.location.file.endswith("build.yaml")


def test_missing_file(tmp_path, pack):
    (p,) = problems(tmp_path / "nope.yaml", pack)
    assert p.code == "file.missing"


def test_a_folder_that_is_not_a_pack(tmp_path):
    with pytest.raises(InputError) as caught:
        validate_target(tmp_path)
    (p,) = caught.value.problems
    assert p.code == "pack.missing"
    assert p.fix == "give the pack folder, e.g. card_data/boss_fight"


# ---- broken pack data -----------------------------------------------------------------------


def copy_pack(tmp_path: Path, cards: str) -> Path:
    root = tmp_path / "mini"
    (root / "cards").mkdir(parents=True)
    shutil.copy(PACK_DIR / "game.yaml", root / "game.yaml")
    (root / "cards" / "cards.yaml").write_text(cards, encoding="utf-8")
    return root


GOOD_CARD = """\
  - id: plain-leg
    name: Plain Leg
    type: boss-piece
    set: boss
    points: 4
    piece_type: Leg
    stats: {agility: 2}
"""


def test_every_broken_card_is_reported(tmp_path):
    cards = ("cards:\n" + GOOD_CARD
             + GOOD_CARD.replace("plain-leg", "bad-leg").replace("piece_type: Leg", "piece_type: Lge")
             + GOOD_CARD.replace("plain-leg", "odd-leg").replace("stats: {agility: 2}", "stats: {agillity: 2}")
             + GOOD_CARD.replace("type: boss-piece", "type: boss-peice")
             + GOOD_CARD.replace("plain-leg", "slot-leg").replace("    points: 4\n", "    points: 4\n    slots: many\n")
             + GOOD_CARD)
    root = copy_pack(tmp_path, cards)
    with pytest.raises(InputError) as caught:
        load_pack(root)
    found = caught.value.problems
    assert [p.code for p in found] == ["schema.choice", "schema.choice", "schema.choice",
                                       "schema.type", "pack.duplicate-id"]
    assert found[4].message.startswith("card id `plain-leg` is used twice (first at ")
    lines = (root / "cards" / "cards.yaml").read_text().splitlines()
    assert "Lge" in lines[found[0].location.line - 1]
    assert found[0].fix == "did you mean `Leg`?"
    assert "agillity" in lines[found[1].location.line - 1]
    assert "boss-peice" in lines[found[2].location.line - 1]
    assert found[2].fix == "did you mean `boss-piece`?"
    assert all(p.location.file.endswith("cards.yaml") for p in found)


def test_dangling_card_reference(tmp_path):
    token = ("  - id: grub\n    name: Grub\n    type: token\n    set: neutral\n"
             "    created_by: [plain-leg, brood-cal]\n")
    root = copy_pack(tmp_path, "cards:\n" + GOOD_CARD + token)
    with pytest.raises(InputError) as caught:
        load_pack(root)
    (p,) = caught.value.problems
    assert (p.code, p.found) == ("pack.dangling-ref", "brood-cal")
