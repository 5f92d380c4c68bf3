"""Hints for legal but weak builds (#42 item 7): warnings from the validator's report, never
errors. Boss Fight's hint.attacks-unarmed (a hero whose deck holds Attack cards carries no
equipment, and an Attack card makes the attack of an equipped item) and hint.points-unspent
(under 60% of the limit spent), each with a build that has it and one that does not; every
shipped preset is free of them; the builder shows them as warnings, the build still legal."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from generator.pack.load import load_pack
from generator.rules.engine import validate_build
from generator.web.common import preset_docs
from generator.web.state import to_build
from web_support import Editor, make_client, text

PACKS = Path(__file__).resolve().parents[1] / "card_data"


@pytest.fixture(scope="module")
def bf():
    pack = load_pack(PACKS / "boss_fight")
    return pack, {k: v[0] for k, v in preset_docs(pack).items()}


def _hints(pack, doc):
    report = validate_build(pack, to_build(doc, pack))
    return report, [v for v in report.violations if v.rule.startswith("hint.")]


def test_no_shipped_preset_has_a_hint():
    for folder in sorted(PACKS.iterdir()):
        if not (folder / "game.yaml").is_file():
            continue
        pack = load_pack(folder)
        for stem, (_, build) in preset_docs(pack).items():
            assert not [v for v in validate_build(pack, build).violations if v.rule.startswith("hint.")], stem


def test_attack_cards_without_equipment(bf):
    pack, presets = bf
    doc = copy.deepcopy(presets["party-knives-in-the-dark"])
    doc["characters"][1]["equipment"] = []
    report, hints = _hints(pack, doc)
    assert report.legal and [(v.rule, v.severity, v.path) for v in hints] == [
        ("hint.attacks-unarmed", "warning", "characters[1]")]
    (hint,) = hints
    attacks = sum(n for c, n in doc["characters"][1]["deck"].items() if pack.cards[c].fields.get("action_type") == "Attack")
    assert hint.message.startswith(f"Cassia Thorne's deck holds {attacks} Attack cards, but Cassia Thorne carries no "
                                   "equipment")
    assert hint.fix == "give Cassia Thorne a weapon, or swap its Attack cards for Move and Item cards"
    # no Attack card: nothing to say, equipment or not
    doc["characters"][1]["deck"] = {c: n for c, n in doc["characters"][1]["deck"].items()
                                    if pack.cards[c].fields.get("action_type") != "Attack"}
    assert _hints(pack, doc)[1] == []


def test_points_left_unspent(bf):
    pack, presets = bf
    doc = copy.deepcopy(presets["boss-ashen-behemoth"])
    report, hints = _hints(pack, doc)
    assert report.points.total == 87 and hints == []  # 87 of 100: spent
    doc["points_limit"] = 150  # 87 of 150: 58%
    report, hints = _hints(pack, doc)
    assert report.legal and [(v.rule, v.severity, v.observed) for v in hints] == [("hint.points-unspent", "warning", 87)]
    assert hints[0].message == "The Ashen Behemoth spends 87 of its 150 points, so 63 points are left unspent"
    doc["points_limit"] = 145  # 60% exactly: spent
    assert _hints(pack, doc)[1] == []
    doc["points_limit"] = "none"
    assert _hints(pack, doc)[1] == []  # no limit: nothing to spend


def test_the_builder_shows_a_hint_as_a_warning_of_a_legal_build(bf, tmp_path):
    pack, presets = bf
    client, _ = make_client(tmp_path / "builds", tmp_path / "cache")
    doc = copy.deepcopy(presets["boss-ashen-behemoth"])
    doc["points_limit"] = 150
    ed = Editor(client, "boss_fight", doc).op(op="view")
    assert ed.legal
    warnings = ed.page[ed.page.index('class="warnings"'):]
    assert "63 points are left unspent" in text(warnings) and 'data-rule="hint.points-unspent"' in warnings
