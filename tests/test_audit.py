"""`pnp validate --audit`: cards priced far from what their statistics predict."""

from __future__ import annotations

import shutil

import pytest
from rich.console import Console

from conftest import PACK_DIR
from generator.cli.audit import print_audit
from generator.rules.audit import DOCUMENTED, OK, OUTLIER, audit_pack, audit_passes, card_features, fit, predict
from generator.pack.load import load_pack


def piece(card_id: str, points: int, health: int, strength: int, agility: int, slots: int,
          note: str | None = None) -> str:
    text = (f"  - id: {card_id}\n    name: {card_id.replace('-', ' ').title()}\n    type: boss-piece\n"
            f"    set: boss\n    points: {points}\n    piece_type: Arm\n"
            f"    stats: {{health: {health}, strength: {strength}, agility: {agility}}}\n    slots: {slots}\n")
    if note:
        text += f"    audit_note: \"{note}\"\n"
    return text


def fair_points(health: int, strength: int, agility: int, slots: int) -> int:
    return round(2 + 0.25 * health + 1.5 * (strength + agility) + 2 * slots)


STATS = [(h, s, a, sl) for h, s, a, sl in
         [(0, 1, 0, 0), (2, 2, 0, 1), (4, 0, 2, 0), (8, 1, 1, 1), (3, 3, 0, 2), (0, 0, 3, 0), (12, 0, 0, 0),
          (6, 2, 1, 1), (1, 1, 2, 0), (5, 4, 0, 2), (10, 1, 0, 0), (2, 0, 1, 1), (7, 2, 2, 3), (0, 2, 2, 1)]]


def make_pack(tmp_path, extra: str = "", actions: int = 4):
    root = tmp_path / "mini"
    (root / "cards").mkdir(parents=True)
    shutil.copy(PACK_DIR / "game.yaml", root / "game.yaml")
    cards = "cards:\n"
    for i, (h, s, a, sl) in enumerate(STATS):
        cards += piece(f"piece-{i}", fair_points(h, s, a, sl), h, s, a, sl)
    for i in range(actions):  # every action costs 0: nothing to fit, never audited
        cards += f"  - id: act-{i}\n    name: Act {i}\n    type: action\n    set: boss\n    action_type: Move\n"
    (root / "cards" / "cards.yaml").write_text(cards + extra, encoding="utf-8")
    return load_pack(root)


def test_a_fairly_priced_pack_passes(tmp_path):
    rows = audit_pack(make_pack(tmp_path))
    assert {r.type for r in rows} == {"boss-piece"}
    assert len(rows) == len(STATS)
    assert all(r.status == OK for r in rows)
    assert audit_passes(rows)
    assert all(abs(r.residual) < 1.5 for r in rows)


def test_an_overpriced_card_is_flagged(tmp_path):
    fair = fair_points(4, 2, 0, 1)  # 8
    rows = audit_pack(make_pack(tmp_path, piece("gilded-arm", fair + 8, 4, 2, 0, 1)))
    flagged = [r for r in rows if r.flagged]
    assert [r.id for r in flagged] == ["gilded-arm"]
    row = flagged[0]
    assert row.status == OUTLIER and row.failure
    assert row.points == fair + 8
    assert row.predicted == pytest.approx(fair, abs=1.0)
    assert row.residual == pytest.approx(8, abs=1.0)
    assert row.tolerance == 3.0
    assert not audit_passes(rows)
    assert row.as_dict()["flagged"] is True
    assert row.features == {"combat stats": 2.0, "health": 4.0, "slots": 1.0}


def test_an_underpriced_card_is_flagged_too(tmp_path):
    rows = audit_pack(make_pack(tmp_path, piece("bargain-arm", 2, 10, 4, 2, 2)))  # fair: 19
    (row,) = [r for r in rows if r.flagged]
    assert row.id == "bargain-arm" and row.residual < -10


def test_the_relative_tolerance_for_dear_cards(tmp_path):
    # a fair 28-point card may be 8 off (30 % of 28) without being flagged
    extra = piece("huge-arm", fair_points(20, 6, 4, 4) + 6, 20, 6, 4, 4)
    rows = audit_pack(make_pack(tmp_path, extra))
    row = next(r for r in rows if r.id == "huge-arm")
    assert row.status == OK and row.tolerance > 3


def test_an_audit_note_makes_it_a_documented_exception(tmp_path):
    extra = piece("gilded-arm", 17, 4, 2, 0, 1, note="Its text wins games; priced on purpose.")
    rows = audit_pack(make_pack(tmp_path, extra))
    (row,) = [r for r in rows if r.flagged]
    assert row.status == DOCUMENTED and not row.failure
    assert row.note == "Its text wins games; priced on purpose."
    assert audit_passes(rows)


def test_print_audit_shows_outliers_notes_and_the_verdict(tmp_path):
    rows = audit_pack(make_pack(tmp_path, piece("gilded-arm", 17, 4, 2, 0, 1)))
    console = Console(record=True, width=200)
    print_audit(console, rows)
    out = console.export_text()
    assert "outlier Gilded Arm (gilded-arm): 17 points, its statistics suggest" in out
    assert "1 unexplained outlier(s)" in out
    assert "audit_note" in out  # the fix tells the designer what to do


def test_fit_recovers_an_exact_linear_rule():
    rows = [[x, y] for x in range(5) for y in range(3)]
    targets = [1.5 + 2 * x - 0.5 * y for x, y in rows]
    coef = fit(rows, targets)
    assert coef == pytest.approx([1.5, 2, -0.5], abs=1e-6)
    assert predict(coef, [10, 10]) == pytest.approx(16.5, abs=1e-5)


def test_features_of_equipment_and_heroes(pack):
    glaive = card_features(pack, pack.cards["siegebreaker-glaive"])
    assert glaive["attack damage"] == 14 and glaive["attack range"] == 3 and glaive["slots"] == 3
    shield = card_features(pack, pack.cards["gravestone-shield"])
    assert shield["bonus health"] == 3 and shield["bonus combat stats"] == 1 and shield["attack damage"] == 0
    hero = card_features(pack, pack.cards["wren-ashby"])
    assert (hero["health"], hero["combat stats"], hero["feat_cost"], hero["slots"]) == (10, 11, 5, 2)


def test_the_shipped_pack_passes_the_audit(pack):
    rows = audit_pack(pack)
    assert audit_passes(rows), [(r.id, r.points, r.predicted) for r in rows if r.failure]
    audited = {r.type for r in rows}
    assert audited == {"boss-piece", "hero", "equipment", "ability"}  # actions and tokens cost nothing
    documented = [r for r in rows if r.status == DOCUMENTED]
    assert all(r.note and len(r.note) > 20 for r in documented)
    console = Console(record=True, width=200)
    print_audit(console, rows)
    assert "audit passes" in console.export_text()


def test_an_optional_number_some_cards_leave_out_counts_as_zero(tmp_path):
    pack = make_pack(tmp_path)
    game = pack.root / "game.yaml"
    slots = "      slots: {type: int, min: 0, max: 6, default: 0}\n"
    text = game.read_text()
    assert slots in text
    game.write_text(text.replace(slots, slots + "      power: {type: int, min: 0}\n", 1))
    cards = pack.root / "cards" / "cards.yaml"
    extra = "".join(piece(f"strong-{i}", 9 + i, 4, 2, 0, 1).replace("    slots: 1\n", f"    slots: 1\n    power: {i}\n")
                    for i in range(4))
    cards.write_text(cards.read_text() + extra)
    rows = audit_pack(load_pack(pack.root))
    assert len(rows) == len(STATS) + 4
    assert {r.features.get("power") for r in rows if r.id.startswith("piece-")} <= {0.0, None}
