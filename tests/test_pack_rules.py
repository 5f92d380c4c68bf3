"""Pack-level rules: a boss deck's make-up against what its boss card states; x/y pairs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.validate.checks import pack_report

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "decked"


@pytest.fixture()
def pack_dir(tmp_path):
    target = tmp_path / "decked"
    shutil.copytree(FIXTURE, target)
    return target


def test_a_deck_that_matches_its_boss_card_is_legal(pack_dir):
    report = pack_report(load_pack(pack_dir))
    assert report.legal and not report.violations


def test_a_deck_short_of_what_the_boss_card_states_is_named(pack_dir):
    cards = pack_dir / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 2", "copies: 1"))
    report = pack_report(load_pack(pack_dir))
    assert not report.legal
    (v,) = [v for v in report.violations if v.rule == "deck.composition"]
    assert v.rule == "deck.composition" and v.severity == "error"
    assert (v.observed, v.expected) == (1, 2)
    assert v.location.line == 2 and "Ogre" in v.message and "Easy" in v.message
    assert v.fix == "add 1 Easy card for Ogre"


def test_a_card_naming_a_missing_owner_is_refused(pack_dir):
    cards = pack_dir / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("boss: ogre, phase: Hard", "boss: ogr, phase: Hard"))
    with pytest.raises(InputError) as err:
        load_pack(pack_dir)
    (p,) = err.value.problems
    assert p.code == "pack.dangling-ref" and p.fix == "did you mean `ogre`?"


def test_pairs_must_be_written_x_slash_y(pack_dir):
    cards = pack_dir / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace('power: "4/2"', 'power: "4-2"'))
    with pytest.raises(InputError) as err:
        load_pack(pack_dir)
    (p,) = err.value.problems
    assert p.code == "schema.format" and p.location.line == 4 and p.found == "'4-2'"


def test_pack_count_counts_copies_against_a_minimum(pack_dir):
    report = pack_report(load_pack(pack_dir))
    assert not [v for v in report.violations if v.rule == "deck.minimum"]  # 2 + 1 copies
    cards = pack_dir / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 2", "copies: 1"))
    report = pack_report(load_pack(pack_dir))
    (v,) = [v for v in report.violations if v.rule == "deck.minimum"]
    assert (v.observed, v.expected) == (2, "at least 3") and v.severity == "error"
    assert v.location.file.endswith("game.yaml")
