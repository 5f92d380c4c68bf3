"""The Final Boss pack: three decks with their own backs, Power as attack/defence pairs,
Permanent / Temporary / Instant Drops, Final Boss enemies, and the pack-level rules that
hold each deck to what its placard states."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import build_folder
from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.validate.checks import pack_report
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


CARDS = "cards/cards.xlsx"  # the pack keeps its cards in a spreadsheet (made by `pnp export-sheet`)


class Sheet:
    """The pack copy's card workbook, edited the way a designer edits it: by card and column."""

    def __init__(self, pack_dir: Path):
        import openpyxl
        self.path = pack_dir / CARDS
        self.book = openpyxl.load_workbook(self.path)

    def find(self, card_id: str):
        for ws in self.book.worksheets:
            for row in ws.iter_rows(min_row=2):
                if row[0].value == card_id:
                    return ws, row[0].row
        raise AssertionError(f"no row for {card_id}")

    def column(self, ws, name: str) -> int:
        heads = [c.value for c in ws[1]]
        assert name in heads, f"no column {name} in sheet {ws.title}"
        return heads.index(name) + 1

    def set(self, card_id: str, column: str, value) -> str:
        """Set one cell and save; returns the cell's name (D14)."""
        ws, row = self.find(card_id)
        cell = ws.cell(row=row, column=self.column(ws, column))
        cell.value = value  # (ws.cell(..., value=None) would leave the old value)
        self.book.save(self.path)
        return cell.coordinate

    def get(self, card_id: str, column: str):
        ws, row = self.find(card_id)
        return ws.cell(row=row, column=self.column(ws, column)).value

    def delete_from(self, card_id: str) -> None:
        """Delete this card's row and every row below it in its sheet."""
        ws, row = self.find(card_id)
        ws.delete_rows(row, ws.max_row - row + 1)
        self.book.save(self.path)


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


@pytest.mark.parametrize("written", ["+4/0", "-2/-1", "+0/+3", "4/-2"])
def test_a_power_modifier_is_written_as_the_design_writes_it(pack_copy, written):
    """The design's Drops add "+4/0"; a sign on either number is part of the pair."""
    Sheet(pack_copy).set("uppercut", "power", written)
    assert load_pack(pack_copy).cards["uppercut"].fields["power"] == written


def test_a_drop_with_no_duration_is_instant(pack_copy):
    sheet = Sheet(pack_copy)
    assert sheet.get("uppercut", "duration") == "Instant"
    sheet.set("uppercut", "duration", None)
    loaded = load_pack(pack_copy)
    assert loaded.cards["uppercut"].fields["duration"] == "Instant"
    assert not [v for v in pack_report(loaded).violations if v.severity == "error"]  # still one Instant more


def test_a_drop_with_no_duration_counts_against_the_instant_drops(pack_copy):
    Sheet(pack_copy).set("fire-blossom", "duration", None)
    Sheet(pack_copy).set("fire-blossom", "lasts", None)
    found = {(v.rule, v.message) for v in violations(pack_copy)}
    assert any(rule == "deck.drops" and "Instant" in message for rule, message in found)


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_pnp_list_shows_power_and_the_placards_counts(pack, fmt):
    from generator.pack.cardlist import render_card_list
    out = render_card_list(pack, fmt)
    if fmt == "json":
        rows = {r["id"]: r for r in json.loads(out)["cards"]}
        assert rows["barrelback"]["power"] == "8/8" and rows["lead-boots"]["power"] == "-2/-1"
        assert "power" not in rows["lucky-star"]
        assert rows["enemies-placard"]["enemies"].startswith(("Enemy ", "Final Boss "))
    elif fmt == "csv":
        rows = {r["id"]: r for r in csv.DictReader(io.StringIO(out))}
        assert rows["barrelback"]["power"] == "8/8" and rows["lucky-star"]["power"] == ""
    else:
        header = next(line for line in out.splitlines() if line.startswith("id ") and " rank " in line)
        assert "power" in header.split()
        assert re.search(r"^barrelback .* 8/8 ", out, re.M)


def test_a_temporary_drop_that_does_not_say_how_long_is_named_at_its_row(pack_copy):
    """A card-data check (game.yaml `drop.lasts`) on cards kept in a spreadsheet: reported at
    the card's cell, with what was found."""
    sheet = Sheet(pack_copy)
    assert sheet.get("fire-blossom", "duration") == "Temporary"
    sheet.set("fire-blossom", "lasts", None)
    ws, row = Sheet(pack_copy).find("fire-blossom")
    (v,) = [v for v in violations(pack_copy) if v.rule == "drop.lasts"]
    assert v.severity == "error" and v.message == "Fire Blossom is a Temporary Drop but does not say how long it lasts"
    assert v.location.sheet == ws.title and v.location.line == row
    assert v.observed == "lasts is None; duration is Temporary"


def test_only_a_temporary_drop_says_how_long(pack_copy):
    Sheet(pack_copy).set("uppercut", "lasts", "two turns")
    (v,) = [v for v in violations(pack_copy) if v.rule == "drop.lasts-temporary-only"]
    assert v.message == "Uppercut says how long it lasts, but its duration is Instant"
    assert v.location.header in ("lasts", "duration")


# ---- a malformed power ----------------------------------------------------------------------------


@pytest.mark.parametrize("card_id, new", [("ninja-cat", "3-2"), ("rage-tonic", "4/two")])
def test_a_malformed_power_is_refused_with_its_sheet_and_cell(pack_copy, card_id, new):
    cell = Sheet(pack_copy).set(card_id, "power", new)
    with pytest.raises(InputError) as err:
        load_pack(pack_copy)
    (problem,) = err.value.problems
    assert problem.code == "schema.format"
    assert problem.location.file == display_path(pack_copy / CARDS)
    assert problem.location.cell == cell and problem.location.header == "power"
    assert problem.location.sheet == ("Enemy" if card_id == "ninja-cat" else "Drop")
    assert problem.found == repr(new)
    assert "`power`" in problem.message and "/" in problem.expected


def test_a_malformed_power_fails_the_command_with_exit_2(pack_copy):
    cell = Sheet(pack_copy).set("ninja-cat", "power", "3-2")
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(pack_copy)],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 2
    assert f'cards.xlsx: sheet Enemy, cell {cell} (column "power")' in result.stderr
    assert "3-2" in result.stderr and "Traceback" not in result.stderr


# ---- the pack's own rules: each deck against its placard --------------------------------------------


def violations(pack_dir: Path):
    return pack_report(load_pack(pack_dir)).violations


def test_deck_enemies_a_fourth_final_boss_is_named(pack_copy):
    sheet = Sheet(pack_copy)
    sheet.set("pixel-lich", "copies", 2)
    (v,) = violations(pack_copy)
    assert v.rule == "deck.enemies" and v.severity == "error"
    assert (v.observed, v.expected) == (4, 3)
    assert "Final Boss" in v.message and "Enemies Deck" in v.message
    assert v.location.file == display_path(pack_copy / CARDS)
    ws, row = sheet.find("enemies-placard")
    assert (v.location.sheet, v.location.line) == (ws.title, row)
    assert str(v.location).endswith(f"sheet {ws.title}, row {row}")
    assert v.fix.startswith("remove 1 Final Boss card")
    assert [c.id for c in v.contributors] == ["barrelback", "mecha-overlord", "pixel-lich"]


def test_deck_enemies_legal_when_the_placard_states_the_new_count(pack_copy):
    sheet = Sheet(pack_copy)
    sheet.set("pixel-lich", "copies", 2)
    sheet.set("enemies-placard", "enemies.Final Boss", 4)
    assert violations(pack_copy) == []


def test_deck_enemies_a_boss_demoted_to_common_enemy_is_named(pack_copy):
    sheet = Sheet(pack_copy)
    (boss,) = [c.id for c in load_pack(pack_copy).cards_of("enemy") if c.fields["power"] == "10/7"]
    assert sheet.get(boss, "rank") == "Final Boss"
    sheet.set(boss, "rank", None)  # an empty cell: not set, so the default rank (Enemy)
    found = {(v.rule, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.enemies", 15, 14), ("deck.enemies", 2, 3)}


def test_deck_drops_an_extra_permanent_copy_is_named(pack_copy):
    sheet = Sheet(pack_copy)
    assert (sheet.get("pixel-pup", "power"), sheet.get("pixel-pup", "copies")) == ("1/1", 2)
    sheet.set("pixel-pup", "copies", 3)
    (v,) = violations(pack_copy)
    assert v.rule == "deck.drops"
    assert (v.observed, v.expected) == (13, 12)
    assert "Permanent" in v.message
    assert "pixel-pup" in [c.id for c in v.contributors]


def test_deck_drops_legal_when_a_duration_moves_between_cards_and_placard(pack_copy):
    # Uppercut becomes Temporary: the placard must say 13 Temporary, 10 Instant (2 copies moved)
    sheet = Sheet(pack_copy)
    assert (sheet.get("uppercut", "duration"), sheet.get("uppercut", "power")) == ("Instant", "3/0")
    sheet.set("uppercut", "duration", "Temporary")
    sheet.set("uppercut", "lasts", "this fight")
    found = {(v.rule, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.drops", 14, 12), ("deck.drops", 10, 12)}
    sheet.set("drops-placard", "drops.Temporary", 14)
    sheet.set("drops-placard", "drops.Instant", 10)
    assert violations(pack_copy) == []


def test_deck_stages_a_missing_bonus_stage_is_named(pack_copy):
    Sheet(pack_copy).delete_from("warp-zone")
    (v,) = violations(pack_copy)
    assert v.rule == "deck.stages"
    assert (v.observed, v.expected) == (1, 2)
    assert v.fix == "add 1 Bonus card for Stages Deck"


def test_deck_stages_legal_after_the_placard_is_corrected(pack_copy):
    sheet = Sheet(pack_copy)
    sheet.delete_from("warp-zone")
    sheet.set("stages-placard", "stages.Bonus", 1)
    assert violations(pack_copy) == []


def test_a_card_filed_under_another_decks_placard_is_named(pack_copy):
    # a Stage that says it belongs to the Enemies deck breaks both placards' counts
    pack = load_pack(pack_copy)
    (bonus,) = [c.id for c in pack.cards_of("stage")
                if (c.fields["kind"], c.fields["enemies"], c.fields["found"]) == ("Bonus", 0, 2)]
    Sheet(pack_copy).set(bonus, "deck", "Enemies Deck")  # a card reference may give the card's name
    found = {(v.rule, v.path, v.observed, v.expected) for v in violations(pack_copy)}
    assert found == {("deck.stages", "stages-placard.stages.Bonus", 1, 2),
                     ("deck.stages", "enemies-placard.stages.Bonus", 1, 0)}


def test_validate_exits_1_on_a_deck_that_breaks_its_placard(pack_copy):
    Sheet(pack_copy).set("enemies-placard", "enemies.Final Boss", 1)
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(pack_copy)],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 1
    assert "deck.enemies" in result.stdout


def test_the_cards_come_from_the_spreadsheet_only():
    assert sorted(p.name for p in (PACK_DIR / "cards").iterdir()) == ["cards.xlsx"]


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
    lines = list(build_folder(PACK_DIR, out_dir=out))
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
