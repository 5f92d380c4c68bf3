"""Every construction rule of the four non-flagship packs, table-driven: a shipped preset is the
legal build (the rule is silent on it), and one edit of it is the illegal build (the rule
fires, as an error or, for advice rules, a warning). Then one broken copy of the pack data
per pack-level check (card checks and deck make-up), each failing with its rule at the file
and line of the card to fix, while the shipped pack passes.

Boss Fight has its own tables (test_boss_fight_design.py, test_validate_rules.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from generator.validate.checks import pack_report
from generator.pack.load import load_build, load_pack
from generator.rules.engine import validate_build

PACKS = REPO / "card_data"
_LOADED: dict[str, object] = {}


def pack(name: str):
    if name not in _LOADED:
        _LOADED[name] = load_pack(PACKS / name)
    return _LOADED[name]


def preset(name: str, stem: str) -> dict:
    return yaml.safe_load((PACKS / name / "presets" / f"{stem}.yaml").read_text(encoding="utf-8"))


def validate(name: str, doc: dict, tmp_path: Path):
    path = tmp_path / "build.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return validate_build(pack(name), load_build(path, pack(name)))


def cards_of(name: str, **fields) -> list[str]:
    return sorted(c.id for c in pack(name).cards.values()
                  if all(getattr(c, k, None) == v or c.fields.get(k) == v for k, v in fields.items()))


# ---- the edits that break one rule -----------------------------------------------------------------


def raid_boss_in_party(doc):
    doc["characters"][1] = {"hero": "karrun"}


def raid_same_hero_twice(doc):
    doc["characters"][3] = dict(doc["characters"][0])


def raid_one_card_short(doc):
    deck = doc["characters"][0]["deck"]
    deck.pop(next(iter(deck)))


def raid_foreign_card(doc):
    doc["characters"][0]["deck"][cards_of("raid_boss", type="boss-card", boss="mother-veyl")[0]] = 1


def raid_extra_copy(doc):
    deck = doc["characters"][0]["deck"]
    first = next(iter(deck))
    deck[first] += 1


def bb_short_deck(doc):
    deck = doc["characters"][0]["deck"]
    deck.pop(next(iter(deck)))


def bb_three_copies(doc):
    deck = doc["characters"][0]["deck"]
    deck[next(iter(deck))] = 3


def bb_pet_in_deck(doc):
    doc["characters"][0]["deck"][cards_of("battle_bosses", type="pet")[0]] = 1


def bb_other_boss_card(doc):
    doc["characters"][0]["deck"][cards_of("battle_bosses", type="effect", boss="thorvald")[0]] = 1


def bb_no_upgrades(doc):
    deck = doc["characters"][0]["deck"]
    for cid in cards_of("battle_bosses", type="upgrade"):
        deck.pop(cid, None)


def fb_placard_in_deck(doc):
    doc["characters"][2]["deck"]["enemies-placard"] = 1


def fb_enemy_in_drops(doc):
    doc["characters"][2]["deck"]["bit-bat"] = 1


def fb_deck_twice(doc):
    doc["characters"][1] = dict(doc["characters"][0])


def fb_too_many_copies(doc):
    doc["characters"][1]["deck"]["ninja-cat"] = 5


def fb_no_stage(doc):
    doc["characters"][0]["deck"] = {}


def fb_no_final_boss(doc):
    deck = doc["characters"][1]["deck"]
    for cid in cards_of("final_boss", type="enemy", rank="Final Boss"):
        deck.pop(cid, None)


def fb_drops(n):
    def edit(doc):
        deck = doc["characters"][2]["deck"]
        kept, total = {}, 0
        for cid, count in deck.items():
            take = min(count, n - total)
            if take > 0:
                kept[cid] = take
                total += take
        doc["characters"][2]["deck"] = kept
    return edit


def tac_over_points(doc):
    doc["characters"] += [{"unit": "mortar-crew"}, {"unit": "stone-brute"}]


def tac_three_copies(doc):
    doc["characters"] = [{"unit": "bastion-warden"}] * 3


# (pack, preset, edit, rule, severity)
RULES = [
    ("raid_boss", "party-first-raid", raid_boss_in_party, "card.side", "error"),
    ("raid_boss", "party-first-raid", raid_boss_in_party, "card.kind", "error"),
    ("raid_boss", "party-first-raid", raid_same_hero_twice, "party.distinct", "error"),
    ("raid_boss", "boss-karrun", raid_one_card_short, "boss.deck-size", "error"),
    ("raid_boss", "boss-karrun", raid_foreign_card, "boss.deck-owner", "error"),
    ("raid_boss", "boss-karrun", raid_one_card_short, "boss.deck-tiers", "error"),
    ("raid_boss", "boss-karrun", raid_extra_copy, "boss.deck-copies", "error"),
    ("battle_bosses", "vexa", bb_short_deck, "deck.size", "error"),
    ("battle_bosses", "vexa", bb_three_copies, "deck.copies", "error"),
    ("battle_bosses", "vexa", bb_pet_in_deck, "card.side", "error"),
    ("battle_bosses", "vexa", bb_pet_in_deck, "card.kind", "error"),
    ("battle_bosses", "vexa", bb_other_boss_card, "deck.owner", "error"),
    ("battle_bosses", "vexa", bb_no_upgrades, "deck.upgrades", "error"),
    ("final_boss", "quick-game", fb_placard_in_deck, "card.kind", "error"),
    ("final_boss", "quick-game", fb_enemy_in_drops, "deck.home", "error"),
    ("final_boss", "quick-game", fb_deck_twice, "decks.distinct", "error"),
    ("final_boss", "quick-game", fb_too_many_copies, "decks.copies", "error"),
    ("final_boss", "quick-game", fb_no_stage, "decks.stages", "error"),
    ("final_boss", "quick-game", fb_no_final_boss, "decks.final-boss", "error"),
    ("final_boss", "quick-game", fb_drops(10), "decks.drops", "error"),
    ("final_boss", "quick-game", fb_drops(20), "decks.drops-for-five", "warning"),
    ("tactics", "dawn-ridge-wardens", tac_over_points, "points.limit", "error"),
    ("tactics", "dawn-ridge-wardens", tac_three_copies, "unit.copies", "error"),
]


def build_rules(name: str) -> set[str]:
    """The rules over a player's build (not the pack's own cards or its maps: tests/test_map_rules.py)."""
    from generator.pack.rule_names import MAP_CHECKS
    return {r.id for r in pack(name).spec.rules if r.check not in ("card_check", "composition", *MAP_CHECKS)}


@pytest.mark.parametrize("name", ["raid_boss", "battle_bosses", "final_boss", "tactics"])
def test_the_table_covers_every_construction_rule_the_pack_can_break(name):
    covered = {rule for p, _, _, rule, _ in RULES if p == name}
    # tactics: both companies draw on one set of units, so no shipped card is ever of the wrong side
    unreachable = {"tactics": {"card.side"}}.get(name, set())
    assert build_rules(name) - unreachable == covered


@pytest.mark.parametrize("name,stem,edit,rule,severity", RULES, ids=[f"{r[0]}:{r[3]}" for r in RULES])
def test_the_preset_is_legal_and_one_edit_breaks_the_rule(tmp_path, name, stem, edit, rule, severity):
    doc = preset(name, stem)
    before = validate(name, doc, tmp_path)
    assert before.legal and not [v for v in before.violations if v.rule == rule]
    edit(doc)
    after = validate(name, doc, tmp_path)
    hits = [v for v in after.violations if v.rule == rule]
    assert hits and {v.severity for v in hits} == {severity}
    assert all(v.message for v in hits)
    assert after.legal == (severity == "warning" and all(v.severity == "warning" for v in after.violations))


# ---- pack-level checks: one broken copy of the pack data each -----------------------------------------


def copy_pack(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(PACKS / name, target)
    return target


def edit_file(path: Path, old: str, new: str) -> None:
    every = old.startswith(ALL)
    old = old.removeprefix(ALL)
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, -1 if every else 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


XLSX = "cards/cards.xlsx"
ALL = "every:"  # an `old` text starting so is replaced everywhere in the file, not just once


def edit_cell(path: Path, card_id: str, column: str, value) -> None:
    import openpyxl  # only the spreadsheet rows need it
    book = openpyxl.load_workbook(path)
    for ws in book.worksheets:
        heads = [c.value for c in ws[1]]
        for row in ws.iter_rows(min_row=2):
            if row[0].value == card_id:
                ws.cell(row=row[0].row, column=heads.index(column) + 1).value = value
                book.save(path)
                return
    raise AssertionError(f"no row for {card_id}")


# (pack, file, old, new, rule, the line of the file the error must point at)
PACK_CHECKS = [
    ("raid_boss", "cards/heroes.yaml", "    max_hp: 12\n", "    max_hp: 11\n", "hero.base-hp", "    base_hp: 12"),
    ("raid_boss", "cards/heroes.yaml", "    skill_start: 0\n", "    skill_start: 7\n", "hero.skill-start",
     "    skill_start: 7"),
    ("raid_boss", "cards/heroes.yaml", "    max_hp: 12\n", "    max_hp: 14\n", "hero.max-hp", "    max_hp: 14"),
    ("raid_boss", "cards/bosses.yaml", "    phase_two_at: 60\n", "    phase_two_at: 120\n", "boss.phase-threshold",
     "    phase_two_at: 120"),
    ("raid_boss", "cards/bosses.yaml", "    die_every: 30\n", "    die_every: 120\n", "boss.die-award",
     "    die_every: 120"),
    ("raid_boss", "cards/karrun-deck.yaml", ALL + "tier: Last Stand", "tier: Hard", "boss.last-stand", None),
    ("raid_boss", "cards/karrun-deck.yaml", "tier: Medium", "tier: Easy", "deck.composition", None),
    ("battle_bosses", "cards/dashboards.yaml", "    arena_health: 14\n", "    arena_health: 20\n",
     "dashboard.arena-health", "    arena_health: 20"),
    ("battle_bosses", "cards/pets.yaml", "    stats: {health: 6}\n", "    stats: {health: 0}\n", "pet.health",
     "    stats: {health: 0}"),
    ("battle_bosses", "cards/dashboards.yaml", "    stats: {health: 20}\n", "    stats: {health: 0}\n", "dashboard.health",
     "    stats: {health: 0}"),
    # Final Boss keeps its cards in a workbook: (card id, column, new value) instead of a text edit
    ("final_boss", XLSX, ("fire-blossom", "lasts", None), None, "drop.lasts", None),
    ("final_boss", XLSX, ("blocky-knight", "lasts", "until your next fight"), None, "drop.lasts-temporary-only", None),
    ("final_boss", XLSX, ("bonus-room", "kind", "Level"), None, "deck.stages", None),
    ("final_boss", XLSX, ("barrelback", "rank", "Enemy"), None, "deck.enemies", None),
    ("final_boss", XLSX, ("blocky-knight", "duration", "Instant"), None, "deck.drops", None),
]


@pytest.mark.parametrize("name", ["raid_boss", "battle_bosses", "final_boss", "tactics"])
def test_the_shipped_pack_passes_every_pack_check(name):
    report = pack_report(pack(name))
    assert not [v for v in report.violations if v.severity in ("error", "warning")]
    checks = {r.id for r in pack(name).spec.rules if r.check in ("card_check", "composition")}
    assert checks == {row[4] for row in PACK_CHECKS if row[0] == name}


@pytest.mark.parametrize("name,file,old,new,rule,line", PACK_CHECKS, ids=[f"{r[0]}:{r[4]}" for r in PACK_CHECKS])
def test_a_broken_copy_fails_its_check_at_file_and_line(tmp_path, name, file, old, new, rule, line):
    root = copy_pack(tmp_path, name)
    if file == XLSX:
        edit_cell(root / file, *old)
    else:
        edit_file(root / file, old, new)
    report = pack_report(load_pack(root))
    hits = [v for v in report.violations if v.rule == rule]
    assert hits and all(v.severity == "error" for v in hits) and not report.legal
    v = hits[0]
    assert v.location is not None and v.location.line and v.location.file
    if line is not None:
        assert v.location.file.endswith(file) and v.location.line == line_of(root / file, line)
