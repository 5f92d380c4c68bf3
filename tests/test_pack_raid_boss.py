"""The Raid Boss pack (card_data/raid_boss): it validates with the expected counts, its
composition rule (each boss card states its 21-card deck per tier) accepts the shipped
decks and names the boss, tier and numbers of a broken one, and the whole kit builds:
cards at each type's own size, punch-out tokens, rulebook."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli import main
from generator.pack.load import load_pack
from generator.validate.checks import pack_report

from conftest import REPO

PACK_DIR = REPO / "card_data" / "raid_boss"
TIERS = ["Easy", "Medium", "Hard", "Last Stand"]
BOSSES = ["karrun", "mother-veyl", "vorthane", "ossuan", "skarra", "gearhold"]


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture()
def pack_copy(tmp_path):
    target = tmp_path / "raid_boss"
    shutil.copytree(PACK_DIR, target)
    return target


def deck_of(pack, boss_id: str) -> dict[str, int]:
    """Cards (copies included) per tier of a boss's deck, read from the boss deck cards."""
    out: dict[str, int] = {}
    for card in pack.cards_of("boss-card"):
        if card.fields["boss"] == boss_id:
            out[card.fields["tier"]] = out.get(card.fields["tier"], 0) + card.copies
    return out


# ---- the pack as shipped ----------------------------------------------------------------------


def test_the_pack_validates_with_the_expected_counts(pack):
    report = pack_report(pack)
    assert report.legal and not report.violations
    assert len(pack.cards_of("hero")) == 12  # the design's twelve; a game uses four
    roles = {c.fields["role"] for c in pack.cards_of("hero")}
    assert {"The Judge", "The Blink", "The Dragoon", "The Forsaken"} <= roles  # the design's named heroes
    assert {c.id for c in pack.cards_of("boss")} == set(BOSSES)
    assert sorted(c.fields["position"] for c in pack.cards_of("position-tile")) == [1, 2, 3, 4]
    assert len(pack.cards_of("boss-card")) == 98  # different cards; 126 with copies
    assert report.stats["cards"] == 120


@pytest.mark.parametrize("boss_id", BOSSES)
def test_every_boss_deck_is_complete_and_matches_its_boss_card(pack, boss_id):
    boss = pack.cards[boss_id]
    stated = boss.fields["deck"]
    assert list(stated) == TIERS
    assert sum(stated.values()) == 21
    assert deck_of(pack, boss_id) == stated
    # the phase line and the extra-die step sit on the ×10 track printed on the card
    hp, phase, step = boss.fields["hp"], boss.fields["phase_two_at"], boss.fields["die_every"] or 10  # none: dice_at
    assert hp % 10 == 0 and phase % 10 == 0 and step % 10 == 0 and 0 < phase < hp <= 120
    # the boss can be beaten: its deck holds a Last Stand to deal once its damage reaches its HP
    assert stated["Last Stand"] >= 1


def test_every_boss_has_a_preset_with_its_whole_deck():
    presets = {p.stem for p in (PACK_DIR / "presets").glob("boss-*.yaml")}
    assert presets == {f"boss-{b}" for b in BOSSES}


def test_heroes_have_three_costed_abilities_and_a_consistent_track(pack):
    for hero in pack.cards_of("hero"):
        f = hero.fields
        assert f["base_hp"] <= f["max_hp"] <= 14, hero.id  # the HP track has boxes 1-14
        assert 1 <= f["ability_dice"] <= 6, hero.id  # the dice track has boxes 1-6
        assert 0 <= f["skill_start"] <= f["skill_max"] <= 8, hero.id  # the skill bar has 0-8
        assert f["skill_reset"] in ("No Reset", "Round Reset", "On Use")
        for n in (1, 2, 3):
            assert f[f"ability_{n}"]["name"] and f[f"cost_{n}"] >= 1, hero.id


def test_cli_validate_exits_0():
    result = CliRunner().invoke(main, ["validate", str(PACK_DIR)])
    assert result.exit_code == 0, result.output
    assert "all legal" in result.output


# ---- the composition rule ---------------------------------------------------------------------


def test_a_copy_of_the_pack_is_legal(pack_copy):
    report = pack_report(load_pack(pack_copy))
    assert report.legal and not report.violations


def test_a_boss_deck_with_a_card_too_many_is_named(pack_copy):
    """One more copy of an Easy card in Mother Veyl's deck: 7 Easy where her card states 6."""
    deck = pack_copy / "cards" / "veyl-deck.yaml"
    text = deck.read_text()
    broken = text.replace("timing: Boss Turn, damage: 1, copies: 2,",  # Flicker Hex, the first Easy card
                          "timing: Boss Turn, damage: 1, copies: 3,", 1)
    assert broken != text
    deck.write_text(broken)
    report = pack_report(load_pack(pack_copy))
    assert not report.legal
    (v,) = report.violations
    assert v.rule == "deck.composition" and v.severity == "error"
    assert "Mother Veyl" in v.message and "Easy" in v.message
    assert (v.observed, v.expected) == (7, 6)
    assert v.path == "mother-veyl.deck.Easy"
    assert v.location.file.endswith("bosses.yaml")
    assert "Flicker Hex" in {c.name for c in v.contributors}
    assert v.fix == "remove 1 Easy card from Mother Veyl's deck, or raise its count"


def test_a_card_moved_to_the_other_boss_breaks_both_decks(pack_copy):
    deck = pack_copy / "cards" / "veyl-deck.yaml"
    text = deck.read_text()
    broken = text.replace("name: Wick Drain, type: boss-card, set: veyl, boss: mother-veyl,",
                          "name: Wick Drain, type: boss-card, set: veyl, boss: karrun,")
    assert broken != text
    deck.write_text(broken)
    report = pack_report(load_pack(pack_copy))
    found = {(v.rule, v.path, v.observed, v.expected) for v in report.violations}
    assert found == {("deck.composition", "karrun.deck.Hard", 5, 4),
                     ("deck.composition", "mother-veyl.deck.Hard", 4, 5)}


def test_the_cli_reports_a_broken_deck_with_exit_code_1(pack_copy):
    bosses = pack_copy / "cards" / "bosses.yaml"
    bosses.write_text(bosses.read_text().replace("deck: {Easy: 7, Medium: 7, Hard: 4, Last Stand: 3}",
                                                 "deck: {Easy: 7, Medium: 7, Hard: 4, Last Stand: 4}"))
    result = CliRunner().invoke(main, ["validate", str(pack_copy)])
    assert result.exit_code == 1
    assert "error deck.composition Karrun's deck has 3 Last Stand cards; its card states 4" in result.output


# ---- the kit --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("raid")
    result = CliRunner().invoke(main, ["build", str(PACK_DIR), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_kit_builds_every_output(kit):
    for name in ("cards.pdf", "pieces.pdf", "rulebook.pdf", "quick-reference.pdf"):
        assert (kit / name).stat().st_size > 1000, name


def test_every_card_is_printed_with_its_copies(kit, pack):
    reader = PdfReader(kit / "cards.pdf")
    faces: dict[str, int] = {}
    for page in reader.pages:
        def visit(text, cm, tm, font, size):
            m = re.match(r"pnp:face:([a-z0-9-]+):\d+", text.strip())
            if m:
                faces[m.group(1)] = faces.get(m.group(1), 0) + 1
        page.extract_text(visitor_text=visit)
    assert {cid: n for cid, n in faces.items() if cid in pack.cards} == {c.id: c.copies for c in pack.cards.values()}
    assert sum(faces[c.id] for c in pack.cards_of("boss-card")) == 126  # 6 decks of 21


def test_card_types_have_their_own_sizes(pack):
    assert pack.card_size_mm("hero") == (120.65, 69.85)
    assert pack.card_size_mm("boss") == (69.85, 120.65)
    assert pack.card_size_mm("boss-card") == (63.5, 88.9)
    assert pack.card_size_mm("position-tile") == (70.0, 70.0)


def test_the_tokens_are_punch_out_counters(kit, pack):
    spec = pack.spec.pieces
    ids = {c.id for c in spec.counters}
    assert {"shield-1", "shield-3", "power-1", "power-3", "affliction-1", "affliction-3", "ko-tracker"} <= ids
    reader = PdfReader(kit / "pieces.pdf")
    counters: dict[str, int] = {}
    for page in reader.pages:
        def visit(text, cm, tm, font, size):
            m = re.match(r"pnp:counter:([a-z0-9-]+):\d+:front:", text.strip())
            if m:
                counters[m.group(1)] = counters.get(m.group(1), 0) + 1
        page.extract_text(visitor_text=visit)
    assert counters["shield-1"] == 12 and counters["shield-3"] == 10
    assert counters["power-1"] == 10 and counters["power-3"] == 5
    assert counters["affliction-1"] == 12 and counters["affliction-3"] == 6
    assert counters["ko-tracker"] == 1
    # the tokens the heroes' cards name: refreshed assists, Locks, the Dragoon's Uplift
    assert (counters["refresh"], counters["lock"], counters["uplift"]) == (2, 4, 1)
    # one position token per hero, knocked out on its back
    assert sum(n for cid, n in counters.items() if cid.startswith("token-")) == len(pack.cards_of("hero"))


def test_the_rulebook_has_every_chapter(kit):
    reader = PdfReader(kit / "rulebook.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)
    for title in ("The Raid", "Setting Up", "The Heroes", "The Boss", "Playing a Round",
                  "Damage, Healing and Effects", "Knock-outs and the End", "Heroes and Boss Decks"):
        assert title in text
    assert "Presets" not in text and "Map Catalogue" not in text
