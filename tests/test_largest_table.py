"""Every game played at its largest table from the printed kit (issue 41 items 2 and 7), read
back from the pack and the PDFs:

- Boss Fight prints its action cards for the boss and six heroes at once (`kit_copies:
  table`), says so in the rulebook, prints a six-sided die to fold, and enough single base
  hexes to tape the largest footprint a boss can have;
- Stepfall (tactics) prints a marker for every unit a company may field and damage tokens;
- each new pack setting is refused at its game.yaml line when it cannot be worked out.
"""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import REPO
from generator.core.errors import InputError
from generator.core.pdfwords import page_words
from generator.pack.kitcopies import printed
from generator.pack.load import load_pack
from generator.render.pieces.document import build_pieces_pdf
from generator.render.pieces.model import check_pieces, largest_footprint
from generator.render.rulebook.book import build_rulebook_pdf
from test_pieces import Doc

BF = REPO / "card_data" / "boss_fight"
BB = REPO / "card_data" / "battle_bosses"
TACTICS = REPO / "card_data" / "tactics"


@pytest.fixture(scope="module")
def bf():
    return load_pack(BF)


@pytest.fixture(scope="module")
def bf_pieces(tmp_path_factory, bf):
    out = tmp_path_factory.mktemp("bf") / "pieces.pdf"
    build_pieces_pdf(bf, out)
    return Doc(out)


def _copy(tmp_path, source, old: str, new: str):
    root = tmp_path / source.name
    shutil.copytree(source, root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root, game


def _line(path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


# ---- Boss Fight: action cards for the largest table ---------------------------------------------


def test_boss_fight_prints_action_cards_for_the_boss_and_six_heroes(bf):
    """Three copies a deck (or the card's own limit), for every character whose side takes
    the card: 3 of a boss action, 18 of a hero action, 21 of a neutral one; Jab (6 a deck) 36."""
    heroes = bf.spec.sides["hero"].characters.kit
    assert heroes == 6
    takers = {"boss": 1, "hero": heroes, "neutral": 1 + heroes}
    actions = bf.cards_of("action")
    assert {c.set for c in actions} == set(takers)
    for card in actions:
        per_deck = card.fields.get("deck_limit") or 3
        assert card.copies == takers[card.set] * per_deck, card.id
    assert bf.cards["jab"].copies == 36
    # six full decks of 30 hero actions can be dealt at once: the old kit (3 of each) ran out at one
    hero_cards = sum(c.copies for c in actions if c.set in ("hero", "neutral"))
    assert hero_cards >= 6 * 30
    assert printed(bf.cards_of("action", "hero"), bf.spec).startswith(
        "18 of each (6 Hero Party characters at the largest table × 3 in a deck)")


def test_the_rulebook_says_how_many_it_printed_and_why(tmp_path, bf):
    out = tmp_path / "rulebook.pdf"
    build_rulebook_pdf(bf, out)
    text = " ".join(w for page in page_words(out).values() for w, _ in page)
    text = re.sub(r"(\w)- (\w)", r"\1\2", text)  # words hyphenated at a line's end, joined again
    assert "the boss and 6 heroes" in text
    assert "Hero action cards: 18 of each (6 Hero Party characters at the largest table × 3 in a deck)" in text
    assert "Neutral action cards: 21 of each (1 Boss character + 6 Hero Party characters" in text
    assert "Jab 36" in text


def test_kit_copies_table_without_a_copy_limit_is_refused_at_its_line(tmp_path):
    root, game = _copy(tmp_path, BF, "check: copy_limit, default: 3, override_field", "check: copy_limit, override_field")
    with pytest.raises(InputError) as err:
        load_pack(root)
    found = [p for p in err.value.problems if p.code == "pack.kit-copies"]
    assert len(found) == 1 and "`copy_limit` rule with its `default`" in found[0].message
    assert found[0].location.line == _line(game, "kit_copies: table")


def test_kit_copies_table_without_a_table_size_is_refused_at_its_line(tmp_path):
    root, game = _copy(tmp_path, BF, "characters: {min: 1, kit: 6}", "characters: {min: 1}")
    with pytest.raises(InputError) as err:
        load_pack(root)
    found = [p for p in err.value.problems if p.code == "pack.kit-copies"]
    assert len(found) == 1 and "`hero`" in found[0].message and "kit: N" in (found[0].fix or "")
    assert found[0].location.line == _line(game, "kit_copies: table")


# ---- Boss Fight: a die and bases for the largest boss -------------------------------------------


def test_boss_fight_prints_two_d6_whose_opposite_faces_add_up_to_7(bf_pieces):
    dice = [label for _, label, _, _ in bf_pieces.find("pnp:die:d6:")]
    assert len(dice) == 2
    for label in dice:
        faces = [int(f) for f in label.split("faces=")[1].split("|")]
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
        # the net's column holds faces 1-4, its arms 5 and 6: 1st/3rd, 2nd/4th, 5th/6th are opposite
        assert faces[0] + faces[2] == faces[1] + faces[3] == faces[4] + faces[5] == 7


def test_boss_fight_prints_base_hexes_for_the_largest_boss_footprint(bf, bf_pieces):
    footprint = largest_footprint(bf, "boss")
    hexes = {tuple(h) for c in bf.cards_of("boss-piece") for h in c.fields.get("size") or []}
    assert footprint == len(hexes) == 14
    spare = [label for _, label, _, _ in bf_pieces.find("pnp:counter:spare-hex:") if ":front:" in label]
    assert len(spare) == footprint  # the old kit printed 10


def test_a_footprint_count_naming_no_side_is_refused(tmp_path):
    root, game = _copy(tmp_path, BF, "count: {per_footprint: boss}", "count: {per_footprint: bosses}")
    problems = check_pieces(load_pack(root))
    assert [p.code for p in problems] == ["pieces.reference"]
    assert "bosses" in problems[0].message and problems[0].location.line == _line(game, "per_footprint: bosses")


# ---- Battle Bosses: trackers of things that are not characters ----------------------------------


def test_named_trackers_are_checked_against_the_stats(tmp_path):
    assert check_pieces(load_pack(BB)) == []
    root, game = _copy(tmp_path, BB, "label: Team Omega base, stat: health", "label: Team Omega base, stat: hp")
    problems = check_pieces(load_pack(root))
    assert [p.code for p in problems] == ["pieces.reference"]
    assert "`hp`" in problems[0].message and problems[0].location.line == _line(game, "stat: hp")


# ---- Stepfall: unit markers and damage tokens ---------------------------------------------------


def test_stepfall_prints_unit_markers_and_damage_tokens(tmp_path):
    pack = load_pack(TACTICS)
    out = tmp_path / "pieces.pdf"
    build_pieces_pdf(pack, out)
    doc = Doc(out)
    units = {side: [c for c in pack.cards_of("unit") if pack.spec.sets[c.set].side in (side, "any")]
             for side in ("dawn", "dusk")}
    for side, kind in (("dawn", "dawn-unit"), ("dusk", "dusk-unit")):
        fronts = [label for _, label, _, _ in doc.find(f"pnp:counter:{kind}:") if ":front:" in label]
        assert len(fronts) == 2 * len(units[side]) > 0, side  # two of each unit, as the kit prints two cards
        assert all(re.search(r":front:square:24$", label) for label in fronts)  # a 30 mm tile takes it
    for kind, n in (("damage-1", 30), ("damage-3", 12)):
        assert sum(1 for _, label, _, _ in doc.find(f"pnp:counter:{kind}:") if ":front:" in label) == n
    words = " ".join(w for page in page_words(out).values() for w, _ in page)
    assert "Fallen" in words and "Dawn Company" in words
