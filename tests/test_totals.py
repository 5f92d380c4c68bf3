"""The validator's statistics summary totals what the pack names in `totals:` (game.yaml), and
nothing else: the engine knows no game's field names."""

from __future__ import annotations

import re
from pathlib import Path

from generator.pack.load import load_build, load_pack
from generator.rules import engine
from generator.rules.engine import validate_build

REPO = Path(__file__).resolve().parents[1]
PACK = REPO / "card_data" / "boss_fight"


def test_boss_fight_names_its_totals_and_the_summary_adds_them_up():
    pack = load_pack(PACK)
    assert pack.spec.totals == ["slots", "feat_cost", "size"]
    build = load_build(PACK / "presets" / "boss-ashen-behemoth.yaml", pack)
    (stats,) = validate_build(pack, build).stats.values()
    bases = [pack.cards[entry.card.id] for entry in build.characters[0].bases]
    assert stats["slots"] == sum(card.fields["slots"] for card in bases)
    assert stats["size"] == len({tuple(cell) for card in bases for cell in card.fields["size"]}) > 1
    assert "feat_cost" not in stats  # no boss piece has one: nothing to total
    party = load_build(PACK / "presets" / "party-shieldwall.yaml", pack)
    for character, stats in zip(party.characters, validate_build(pack, party).stats.values()):
        hero = pack.cards[character.bases[0].card.id]
        assert stats["feat_cost"] == hero.fields["feat_cost"] and "size" not in stats  # heroes have no size


def test_a_pack_that_names_other_totals_gets_those_only():
    pack = load_pack(PACK)
    pack.spec = pack.spec.model_copy(update={"totals": ["slots"]})
    build = load_build(PACK / "presets" / "boss-ashen-behemoth.yaml", pack)
    (stats,) = validate_build(pack, build).stats.values()
    assert "slots" in stats and "size" not in stats
    pack.spec = pack.spec.model_copy(update={"totals": []})
    (stats,) = validate_build(pack, build).stats.values()
    assert set(stats) - {"name"} == set(pack.spec.stats)  # each entry names its character


def test_the_engine_names_no_game_field():
    source = Path(engine.__file__).read_text(encoding="utf-8")
    assert re.findall(r"[\"'](slots|feat_cost|size)[\"']", source) == []
