"""Card-data checks declared in game.yaml (`check: card_check`): the expression form, and one
broken copy of the shipped pack data per declared check."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.validate.checks import pack_report
from generator.core.errors import InputError
from generator.pack import expr
from generator.pack.load import load_pack

REPO = Path(__file__).resolve().parent.parent
PACKS = REPO / "card_data"


def copy_pack(tmp_path, name):
    target = tmp_path / name
    shutil.copytree(PACKS / name, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("pack", ["raid_boss", "battle_bosses"])
def test_shipped_packs_pass_their_card_checks(pack):
    loaded = load_pack(PACKS / pack)
    assert [r for r in loaded.spec.rules if r.check == "card_check"]
    assert not [v for v in pack_report(loaded).violations if v.rule.startswith(("hero.", "boss.", "dashboard."))
                and v.severity == "error"]


# (pack, file, old text, new text, rule, found, line text)
BROKEN = [
    ("raid_boss", "cards/heroes.yaml", "    max_hp: 12\n", "    max_hp: 11\n", "hero.base-hp",
     "base_hp is 12 and max_hp is 11", "    base_hp: 12"),
    ("raid_boss", "cards/heroes.yaml", "    skill_start: 0\n", "    skill_start: 7\n", "hero.skill-start",
     "skill_start is 7 and skill_max is 6", "    skill_start: 7"),
    ("raid_boss", "cards/bosses.yaml", "    phase_two_at: 60\n", "    phase_two_at: 120\n", "boss.phase-threshold",
     "phase_two_at is 120 and hp is 120", "    phase_two_at: 120"),
    ("raid_boss", "cards/bosses.yaml", "    die_every: 30\n", "    die_every: 120\n", "boss.die-award",
     "die_every is 120 and hp is 120", "    die_every: 120"),
    ("battle_bosses", "cards/dashboards.yaml", "    arena_health: 14\n", "    arena_health: 20\n",
     "dashboard.arena-health", "arena_health is 20 and stats.health is 20", "    arena_health: 20"),
    ("battle_bosses", "cards/pets.yaml", "    stats: {health: 6}\n", "    stats: {health: 0}\n", "pet.health",
     "stats.health is 0", "    stats: {health: 0}"),
    ("battle_bosses", "cards/dashboards.yaml", "    stats: {health: 20}\n", "    stats: {health: 0}\n",
     "dashboard.health", "stats.health is 0", "    stats: {health: 0}"),
]


@pytest.mark.parametrize("pack,file,old,new,rule,found,line", BROKEN, ids=[b[4] for b in BROKEN])
def test_a_broken_value_fails_its_check_at_the_field(tmp_path, pack, file, old, new, rule, found, line):
    root = copy_pack(tmp_path, pack)
    edit(root / file, old, new)
    report = pack_report(load_pack(root))
    (v,) = [v for v in report.violations if v.rule == rule]
    assert v.severity == "error" and not report.legal
    assert v.observed == found
    assert v.location.file.endswith(file) and v.location.line == line_of(root / file, line)
    assert v.fix


def test_a_boss_deck_without_a_last_stand_is_refused(tmp_path):
    root = copy_pack(tmp_path, "raid_boss")
    deck = root / "cards" / "karrun-deck.yaml"
    deck.write_text(deck.read_text().replace("tier: Last Stand", "tier: Hard"))
    report = pack_report(load_pack(root))
    (v,) = [v for v in report.violations if v.rule == "boss.last-stand"]
    assert v.message == "Karrun's boss deck has no Last Stand card, so Karrun can never be beaten"
    assert v.observed.endswith("is 0") and v.fix == "add a boss card with boss: karrun and tier: Last Stand"
    assert v.location.file.endswith("bosses.yaml") and v.location.line == line_of(root / "cards/bosses.yaml", "id: karrun")
    assert not [v for v in report.violations if v.rule == "boss.last-stand" and "Veyl" in v.message]


def add_rule(root: Path, rule: str) -> None:
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("\nrules:\n", "\nrules:\n" + rule, 1))


@pytest.mark.parametrize("expect,code,fragment", [
    ('"base_hp <="', "pack.expression", "found the end"),
    ('"base_hp <= max_hpp"', "pack.reference", "max_hpp"),
    ('"count(boss-crd) >= 1"', "pack.reference", "boss-crd"),
    ('"__import__(1)"', "pack.expression", "unexpected `(`"),
    ('"' + "(" * 20 + "1" + ")" * 20 + '"', "pack.expression", "nests more than"),
])
def test_an_expression_that_does_not_read_is_refused_at_its_line(tmp_path, expect, code, fragment):
    root = copy_pack(tmp_path, "raid_boss")
    add_rule(root, f"  - {{id: x.check, check: card_check, each: hero, expect: {expect}}}\n")
    with pytest.raises(InputError) as err:
        load_pack(root)
    (p,) = err.value.problems
    assert p.code == code and fragment in p.message
    assert p.location.line == line_of(root / "game.yaml", "id: x.check")


def test_a_sum_over_related_cards_and_a_missing_value():
    class C:
        def __init__(self, id, type, copies=1, **fields):
            self.id, self.name, self.type, self.copies, self.fields = id, id, type, copies, fields
            self.set, self.points, self.text, self.flavour = "s", 0, "", ""

    boss = C("b", "boss", hp=10)
    cards = [boss, C("x", "card", boss="b", damage=4, copies=2), C("y", "card", boss="b", damage=3),
             C("z", "card", boss="other", damage=9), C("w", "card", boss="b")]
    tree = expr.parse("sum(card.damage where boss == this.id) <= hp")
    assert expr.evaluate(tree.args[0], boss, cards) == 11 and not expr.holds(tree, boss, cards)
    assert expr.explain(tree, boss, cards) == "sum(card.damage where boss == this.id) is 11 and hp is 10"
    assert expr.holds(expr.parse("missing_field > 3"), boss, cards)  # left out: does not apply
    assert not expr.holds(expr.parse("missing_field != none"), boss, cards)  # ... but can be asked for
    assert expr.holds(expr.parse("missing_field == none and hp != none"), boss, cards)
    assert expr.holds(expr.parse("not (missing_field > 3)"), boss, cards)  # still not applicable
    assert expr.holds(expr.parse("not (hp - 10 > 0) and hp == 10"), boss, cards)
    assert not expr.holds(expr.parse('name == "c" or hp < 5'), boss, cards)
    assert re.search("column 4", str(pytest.raises(expr.ExprError, expr.parse, "hp ! 3").value))


def test_pnp_validate_reports_a_broken_check_with_file_line_and_exit_1(tmp_path):
    from click.testing import CliRunner
    from generator.cli import main
    root = copy_pack(tmp_path, "battle_bosses")
    edit(root / "cards" / "dashboards.yaml", "    arena_health: 14\n", "    arena_health: 25\n")
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    line = line_of(root / "cards" / "dashboards.yaml", "arena_health: 25")
    assert re.search(rf"dashboards\.yaml:{line}:\d+: error dashboard\.arena-health Vexa's Arena Health \(25\) "
                     r"is not below its Health", result.output)
    assert "arena_health is 25 and stats.health is 20" in result.output
    json_result = CliRunner().invoke(main, ["validate", str(root), "--format", "json"])
    assert '"rule": "dashboard.arena-health"' in json_result.output
