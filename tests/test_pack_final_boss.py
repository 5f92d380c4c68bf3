"""The Final Boss pack: three decks with their own backs, Power as attack/defence pairs,
Permanent / Temporary / Instant Drops, Final Boss enemies, and the pack-level rules that
hold each deck to what its placard states."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import run_build
from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.cli.targets import pack_report
from generator.core.yamlio import display_path

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "final_boss"


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture()
def pack_copy(tmp_path):
    target = tmp_path / "final_boss"
    shutil.copytree(PACK_DIR, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str, after: str | None = None) -> int:
    """1-based line of the first line holding `needle` (after the line holding `after`)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = 0
    if after is not None:
        start = next(i for i, ln in enumerate(lines) if after in ln)
    return next(i for i, ln in enumerate(lines[start:], start) if needle in ln) + 1


def physical(pack, **where) -> int:
    return sum(c.copies for c in pack.cards.values()
               if all((c.fields.get(k) if k not in ("set", "type") else getattr(c, k)) == v
                      for k, v in where.items()))


# ---- the shipped pack ----------------------------------------------------------------------------


def test_the_pack_validates_from_the_command_line():
    result = subprocess.run([sys.executable, "-m", "generator", "validate", "card_data/final_boss"],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all legal" in result.stdout


def test_the_pack_has_no_rule_violations(pack):
    report = pack_report(pack)
    assert report.legal and not report.violations


def test_each_deck_is_its_own_set_with_its_own_back(pack):
    sets = pack.spec.sets
    assert {"stages", "enemies", "drops"} <= set(sets)
    assert len({sets[s].color for s in ("stages", "enemies", "drops", "table")}) == 4
    assert len({sets[s].symbol for s in ("stages", "enemies", "drops", "table")}) == 4
    by_set = Counter(c.set for c in pack.cards.values())
    assert by_set == {"stages": 12, "enemies": 14, "drops": 27, "table": 3}
    # every card type lives in exactly one deck
    types = {t: {c.set for c in pack.cards.values() if c.type == t} for t in pack.spec.card_types}
    assert types == {"stage": {"stages"}, "enemy": {"enemies"}, "drop": {"drops"}, "placard": {"table"}}


def test_expected_counts_per_deck(pack):
    assert physical(pack, set="stages") == 12
    assert physical(pack, set="enemies") == 17
    assert physical(pack, set="drops") == 36
    for deck in ("stages", "enemies", "drops"):
        assert physical(pack, set=deck) >= 10, f"the {deck} deck needs at least 10 cards"
    assert physical(pack, type="enemy", rank="Final Boss") == 3
    assert physical(pack, type="enemy", rank="Enemy") == 14
    for duration in ("Permanent", "Temporary", "Instant"):
        assert physical(pack, type="drop", duration=duration) == 12
    for kind, n in {"Level": 6, "Hazard": 4, "Bonus": 2}.items():
        assert physical(pack, type="stage", kind=kind) == n


def test_placards_state_what_their_decks_hold(pack):
    assert pack.cards["stages-placard"].fields["stages"] == {"Level": 6, "Hazard": 4, "Bonus": 2}
    assert pack.cards["enemies-placard"].fields["enemies"] == {"Enemy": 14, "Final Boss": 3}
    assert pack.cards["drops-placard"].fields["drops"] == {"Permanent": 12, "Temporary": 12, "Instant": 12}


def test_power_is_an_attack_defence_pair(pack):
    assert pack.spec.card_types["enemy"].fields["power"].type == "pair"
    assert pack.spec.card_types["drop"].fields["power"].type == "pair"
    for card in pack.cards_of("enemy"):
        assert re.fullmatch(r"-?\d+/-?\d+", card.fields["power"]), card.id
    bosses = [c for c in pack.cards_of("enemy") if c.fields["rank"] == "Final Boss"]
    commons = [c for c in pack.cards_of("enemy") if c.fields["rank"] == "Enemy"]
    total = lambda c: sum(int(v) for v in c.fields["power"].split("/"))  # noqa: E731
    assert min(map(total, bosses)) > max(map(total, commons))
    assert pack.cards["lead-boots"].fields["power"] == "-2/-1"


def test_every_drop_is_marked_and_temporary_ones_say_how_long(pack):
    for card in pack.cards_of("drop"):
        assert card.fields["duration"] in ("Permanent", "Temporary", "Instant")
        assert bool(card.fields.get("lasts")) == (card.fields["duration"] == "Temporary"), card.id


# ---- a malformed power ----------------------------------------------------------------------------


@pytest.mark.parametrize("file, card_id, old, new", [
    ("enemies.yaml", "ninja-cat", 'power: "4/3"', 'power: "3-2"'),
    ("drops.yaml", "rage-tonic", 'power: "4/-2"', 'power: "4/two"'),
])
def test_a_malformed_power_is_refused_with_its_file_and_line(pack_copy, file, card_id, old, new):
    path = pack_copy / "cards" / file
    edit(path, old, new)
    line = line_of(path, new, after=f"id: {card_id}")
    with pytest.raises(InputError) as err:
        load_pack(pack_copy)
    (problem,) = err.value.problems
    assert problem.code == "schema.format"
    assert problem.location.file == display_path(path)
    assert problem.location.line == line
    assert problem.found == repr(new.split(": ", 1)[1].strip('"'))
    assert "`power`" in problem.message and "/" in problem.expected


def test_a_malformed_power_fails_the_command_with_exit_2(pack_copy):
    path = pack_copy / "cards" / "enemies.yaml"
    edit(path, 'power: "4/3"', 'power: "3-2"')
    line = line_of(path, 'power: "3-2"')
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(pack_copy)],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 2
    assert f"enemies.yaml:{line}:" in result.stderr
    assert "3-2" in result.stderr


# ---- the pack's own rules: each deck against its placard --------------------------------------------


def violations(pack_dir: Path):
    return pack_report(load_pack(pack_dir)).violations


def test_deck_enemies_a_fourth_final_boss_is_named(pack_copy):
    enemies = pack_copy / "cards" / "enemies.yaml"
    edit(enemies, "  - id: pixel-lich\n", "  - id: pixel-lich\n    copies: 2\n")
    (v,) = violations(pack_copy)
    assert v.rule == "deck.enemies" and v.severity == "error"
    assert (v.observed, v.expected) == (4, 3)
    assert "Final Boss" in v.message and "Enemies Deck" in v.message
    placards = pack_copy / "cards" / "placards.yaml"
    assert v.location.file == display_path(placards)
    assert v.location.line == line_of(placards, "id: enemies-placard")
    assert v.fix.startswith("remove 1 Final Boss card(s)")
    assert [c.id for c in v.contributors] == ["barrelback", "mecha-overlord", "pixel-lich"]


def test_deck_enemies_legal_when_the_placard_states_the_new_count(pack_copy):
    edit(pack_copy / "cards" / "enemies.yaml", "  - id: pixel-lich\n", "  - id: pixel-lich\n    copies: 2\n")
    edit(pack_copy / "cards" / "placards.yaml", "Final Boss: 3", "Final Boss: 4")
    assert violations(pack_copy) == []


def test_deck_enemies_a_boss_demoted_to_common_enemy_is_named(pack_copy):
    edit(pack_copy / "cards" / "enemies.yaml", "    rank: Final Boss\n    power: \"10/7\"", "    power: \"10/7\"")
    found = {(v.rule, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.enemies", 15, 14), ("deck.enemies", 2, 3)}


def test_deck_drops_an_extra_permanent_copy_is_named(pack_copy):
    drops = pack_copy / "cards" / "drops.yaml"
    edit(drops, "    power: \"1/1\"\n    copies: 2\n", "    power: \"1/1\"\n    copies: 3\n")
    (v,) = violations(pack_copy)
    assert v.rule == "deck.drops"
    assert (v.observed, v.expected) == (13, 12)
    assert "Permanent" in v.message
    assert "pixel-pup" in [c.id for c in v.contributors]


def test_deck_drops_legal_when_a_duration_moves_between_cards_and_placard(pack_copy):
    # Uppercut becomes Temporary: the placard must say 13 Temporary, 10 Instant (2 copies moved)
    drops = pack_copy / "cards" / "drops.yaml"
    edit(drops, "    duration: Instant\n    category: Attack\n    power: \"3/0\"",
         "    duration: Temporary\n    lasts: this fight\n    category: Attack\n    power: \"3/0\"")
    found = {(v.rule, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.drops", 14, 12), ("deck.drops", 10, 12)}
    edit(pack_copy / "cards" / "placards.yaml", "{Permanent: 12, Temporary: 12, Instant: 12}",
         "{Permanent: 12, Temporary: 14, Instant: 10}")
    assert violations(pack_copy) == []


def test_deck_stages_a_missing_bonus_stage_is_named(pack_copy):
    stages = pack_copy / "cards" / "stages.yaml"
    text = stages.read_text(encoding="utf-8")
    start = text.index("  - id: warp-zone")
    stages.write_text(text[:start], encoding="utf-8")
    (v,) = violations(pack_copy)
    assert v.rule == "deck.stages"
    assert (v.observed, v.expected) == (1, 2)
    assert v.fix == "add 1 Bonus card(s) for Stages Deck"


def test_deck_stages_legal_after_the_placard_is_corrected(pack_copy):
    stages = pack_copy / "cards" / "stages.yaml"
    text = stages.read_text(encoding="utf-8")
    stages.write_text(text[:text.index("  - id: warp-zone")], encoding="utf-8")
    edit(pack_copy / "cards" / "placards.yaml", "Bonus: 2", "Bonus: 1")
    assert violations(pack_copy) == []


def test_a_card_filed_under_another_decks_placard_is_named(pack_copy):
    # a Stage that says it belongs to the Enemies deck breaks both placards' counts
    edit(pack_copy / "cards" / "stages.yaml", "    kind: Bonus\n    enemies: 0\n    found: 2\n",
         "    kind: Bonus\n    enemies: 0\n    found: 2\n    deck: enemies-placard\n")
    found = {(v.rule, v.path, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.stages", "stages-placard.stages.Bonus", 1, 2),
                     ("deck.stages", "enemies-placard.stages.Bonus", 1, 0)}


def test_validate_exits_1_on_a_deck_that_breaks_its_placard(pack_copy):
    edit(pack_copy / "cards" / "placards.yaml", "Final Boss: 3", "Final Boss: 1")
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(pack_copy)],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 1
    assert "deck.enemies" in result.stdout


# ---- the kit -------------------------------------------------------------------------------------------


def face_ids(reader: PdfReader, kind: str) -> list[str]:
    found = []
    for page in reader.pages:
        page.extract_text(visitor_text=lambda text, *a: found.append(text.strip())
                          if text.startswith(f"pnp:{kind}:") else None)
    return [f.split(":")[2] for f in found]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("final_boss_kit")
    lines = list(run_build(PACK_DIR, out_dir=out))
    return out, lines


def test_the_kit_builds(kit):
    out, lines = kit
    for name in ("cards.pdf", "calibration.pdf", "rulebook.pdf", "quick-reference.pdf"):
        assert (out / name).is_file() and (out / name).stat().st_size > 1000, name
    assert any("cards.pdf" in ln for ln in lines)


def test_the_card_sheets_hold_every_copy_with_a_back(kit, pack):
    out, _ = kit
    reader = PdfReader(out / "cards.pdf")
    fronts = Counter(face_ids(reader, "face"))
    backs = Counter(face_ids(reader, "back"))
    for card in pack.cards.values():
        assert fronts[card.id] == card.copies, card.id
        assert backs[card.id] == card.copies, card.id
    assert len(reader.pages) % 2 == 0  # fronts and backs alternate for duplex


def test_the_rulebook_covers_the_game(kit):
    out, _ = kit
    text = "\n".join(p.extract_text() for p in PdfReader(out / "rulebook.pdf").pages)
    for phrase in ("Setting Up", "Taking a Turn", "Fights", "Final Bosses and Winning", "Game Modes",
                   "Card Lists", "Permanent", "Temporary", "Instant", "Barrelback"):
        assert phrase in text, phrase
