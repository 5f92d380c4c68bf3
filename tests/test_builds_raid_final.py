"""Builds of the two co-operative / shared-deck packs, which have no points: Raid Boss (a party of
four different heroes in position order; a boss with exactly the boss deck its card states) and
Final Boss (the three decks a table shuffles). Every rule these packs add has a legal build (the
presets, and each illegal build fixed) and an illegal one, checked by rule id, line and message.

The generic primitives behind them are exercised here too: `count` and `unique_cards` with
`scope: build`, `deck_composition`, and `copy_limit` with `override_field: copies`."""

from __future__ import annotations

import copy

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO
from generator.cli import main
from generator.pack.load import load_build, load_pack
from generator.rules.engine import validate_build


@pytest.fixture(scope="module")
def raid():
    return load_pack(REPO / "card_data" / "raid_boss")


@pytest.fixture(scope="module")
def final():
    return load_pack(REPO / "card_data" / "final_boss")


def preset(pack, stem: str) -> dict:
    return yaml.safe_load((pack.root / "presets" / f"{stem}.yaml").read_text(encoding="utf-8"))


def check(pack, doc: dict, tmp_path):
    """Validate `doc` written as a build file; returns (report, the file's lines)."""
    path = tmp_path / "build.yaml"
    text = yaml.safe_dump(doc, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return validate_build(pack, load_build(path, pack)), text.splitlines()


def line_of(lines: list[str], needle: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines, 1) if needle in line][nth]


def rules(report) -> set[str]:
    return {v.rule for v in report.violations}


# ---- the shipped presets ---------------------------------------------------------------------------


@pytest.mark.parametrize("pack_id, count", [("raid_boss", 10), ("final_boss", 2)])
def test_every_preset_is_legal_without_warnings(pack_id, count):
    pack = load_pack(REPO / "card_data" / pack_id)
    assert len(pack.preset_files) == count
    for path in pack.preset_files:
        report = validate_build(pack, load_build(path, pack))
        assert report.violations == [], (path, [v.message for v in report.violations])


@pytest.mark.parametrize("pack_id", ["raid_boss", "final_boss"])
def test_pnp_validate_accepts_the_pack_and_each_preset_from_the_command_line(pack_id):
    presets = sorted((REPO / "card_data" / pack_id / "presets").glob("*.yaml"))
    result = CliRunner().invoke(main, ["validate", str(REPO / "card_data" / pack_id), *map(str, presets)])
    assert result.exit_code == 0, result.output
    assert "NOT LEGAL" not in result.output and result.output.count(": LEGAL") == 2 * len(presets)
    assert "0 points" not in result.output  # a game without points lists the line-up only


# ---- Raid Boss: the party ------------------------------------------------------------------------------


def test_a_party_of_four_different_heroes_is_legal_in_any_order(raid, tmp_path):
    doc = preset(raid, "party-first-raid")
    doc["characters"].reverse()  # positions are the players' choice
    report, _ = check(raid, doc, tmp_path)
    assert report.legal and report.violations == []
    assert [c["name"] for c in report.stats.values()] == ["Orrin Vale", "Ilsa Marrow", "Sable Kite",
                                                           "Brannoc Stonehide"]


def test_the_same_hero_twice_is_named_at_the_second_one(raid, tmp_path):
    doc = preset(raid, "party-first-raid")
    doc["characters"][3] = {"hero": "brannoc-stonehide"}
    report, lines = check(raid, doc, tmp_path)
    assert rules(report) == {"party.distinct"}
    v = report.violations[0]
    assert v.location.line == line_of(lines, "brannoc-stonehide", 1)
    assert v.path == "characters[3].hero"
    assert v.message == "Brannoc Stonehide stands in the line twice; a party is four different heroes"
    assert v.fix == "replace the second Brannoc Stonehide with a hero who is not in the party yet"
    doc["characters"][3] = {"hero": "tamsin-greave"}  # fixed
    assert check(raid, doc, tmp_path)[0].legal


@pytest.mark.parametrize("heroes", [3, 5])
def test_a_party_is_exactly_four_heroes(raid, tmp_path, heroes):
    doc = preset(raid, "party-first-raid")
    doc["characters"] = [{"hero": c.id} for c in raid.cards_of("hero")][:heroes]
    report, _ = check(raid, doc, tmp_path)
    assert rules(report) == {"build.characters"}
    v = report.violations[0]  # in the side's own words (`called: {one: hero, many: heroes}`)
    assert v.message == f"a Party build has {heroes} heroes; it needs exactly 4"
    assert v.fix == ("add a hero" if heroes < 4 else "remove a hero")


def test_a_boss_in_the_line_is_the_wrong_kind_and_set(raid, tmp_path):
    doc = preset(raid, "party-first-raid")
    doc["characters"][0] = {"hero": "karrun"}
    report, lines = check(raid, doc, tmp_path)
    assert rules(report) == {"card.kind", "card.side"}
    assert {v.location.line for v in report.violations} == {line_of(lines, "karrun")}


# ---- Raid Boss: the boss and its boss deck ----------------------------------------------------------


@pytest.mark.parametrize("stem", ["boss-karrun", "boss-mother-veyl"])
def test_each_boss_preset_is_exactly_the_printed_deck(raid, stem):
    doc = preset(raid, stem)
    boss = raid.cards[doc["characters"][0]["boss"]]
    printed = {c.id: c.copies for c in raid.cards_of("boss-card") if c.fields["boss"] == boss.id}
    assert doc["characters"][0]["deck"] == printed
    assert sum(printed.values()) == sum(boss.fields["deck"].values()) == 21


def test_a_boss_deck_swapping_a_hard_card_for_an_easy_one_breaks_the_tiers(raid, tmp_path):
    doc = preset(raid, "boss-karrun")
    deck = doc["characters"][0]["deck"]
    del deck["karrun-devour"]  # Hard
    deck["karrun-burrow"] = 2  # Easy; the kit prints one
    report, lines = check(raid, doc, tmp_path)
    assert rules(report) == {"boss.deck-tiers", "boss.deck-copies"}
    tiers = sorted((v.observed, v.expected, v.message) for v in report.violations if v.rule == "boss.deck-tiers")
    assert tiers == [(3, 4, "Karrun's boss deck has 3 Hard cards; the boss card states 4"),
                     (8, 7, "Karrun's boss deck has 8 Easy cards; the boss card states 7")]
    assert {v.location.line for v in report.violations if v.rule == "boss.deck-tiers"} == {line_of(lines, "deck:")}
    fixes = {v.fix for v in report.violations if v.rule == "boss.deck-tiers"}
    assert fixes == {"add 1 Hard card", "remove 1 Easy card"}
    copies = next(v for v in report.violations if v.rule == "boss.deck-copies")
    assert copies.message == "Karrun's boss deck has 2 copies of Burrow; the kit prints 1"
    assert copies.location.line == line_of(lines, "karrun-burrow")


def test_a_card_of_the_other_boss_is_named_by_its_owner(raid, tmp_path):
    doc = preset(raid, "boss-karrun")
    deck = doc["characters"][0]["deck"]
    del deck["karrun-burrow"]  # an Easy card out, another boss's Easy card in: the tiers still add up
    deck["veyl-moth-swarm"] = 1
    report, lines = check(raid, doc, tmp_path)
    assert rules(report) == {"boss.deck-owner"}
    v = report.violations[0]
    assert v.message == "Moth Swarm belongs to Mother Veyl; Karrun may not use it"
    assert v.fix == "remove Moth Swarm: it belongs in Mother Veyl's boss deck"
    assert v.location.line == line_of(lines, "veyl-moth-swarm")


def test_a_short_boss_deck_is_named_with_its_size(raid, tmp_path):
    doc = preset(raid, "boss-mother-veyl")
    del doc["characters"][0]["deck"]["veyl-unbound"]  # a Last Stand
    report, _ = check(raid, doc, tmp_path)
    assert rules(report) == {"boss.deck-size", "boss.deck-tiers"}
    size = next(v for v in report.violations if v.rule == "boss.deck-size")
    assert size.message == "Mother Veyl's boss deck has 20 cards; it must have exactly 21"


def test_deck_composition_ignores_a_base_that_states_nothing(raid, tmp_path):
    """A hero where the boss goes is reported as the wrong kind; with no make-up stated, the
    tiers are not judged against anything."""
    doc = preset(raid, "boss-karrun")
    doc["characters"][0]["boss"] = "brannoc-stonehide"
    report, _ = check(raid, doc, tmp_path)
    assert {"card.kind", "card.side", "boss.deck-owner"} <= rules(report)
    assert "boss.deck-tiers" not in rules(report)


# ---- Final Boss: the table's decks --------------------------------------------------------------------


def test_a_card_in_another_decks_pile_is_named_with_its_home(final, tmp_path):
    doc = preset(final, "quick-game")
    doc["characters"][0]["deck"]["ninja-cat"] = 1  # an enemy among the stages
    del doc["characters"][1]["deck"]["ninja-cat"]
    report, lines = check(final, doc, tmp_path)
    assert rules(report) == {"deck.home"}
    v = report.violations[0]
    assert v.message == "Ninja Cat belongs to Enemies Deck; Stages Deck may not use it"
    assert v.fix == "move Ninja Cat to the deck of Enemies Deck"
    assert v.location.line == line_of(lines, "ninja-cat")


def test_the_same_deck_twice_is_named(final, tmp_path):
    doc = preset(final, "quick-game")
    extra = copy.deepcopy(doc["characters"][1])
    doc["characters"][0] = extra  # two Enemies decks, no Stages deck
    report, lines = check(final, doc, tmp_path)
    assert rules(report) == {"decks.distinct", "decks.stages"}
    distinct = next(v for v in report.violations if v.rule == "decks.distinct")
    assert distinct.message == "Enemies Deck is laid out twice; the table has one of each deck"
    assert distinct.location.line == line_of(lines, "enemies-placard", 1)
    assert distinct.fix == "make the second Enemies Deck one of the other decks"


def test_more_copies_than_the_kit_prints_are_named(final, tmp_path):
    doc = preset(final, "whole-kit")
    doc["characters"][2]["deck"]["extra-life"] = 3
    report, lines = check(final, doc, tmp_path)
    assert rules(report) == {"decks.copies"}
    v = report.violations[0]
    assert v.message == "Drops Deck has 3 copies of Extra Life; the kit prints 2"
    assert v.location.line == line_of(lines, "extra-life")


def test_enemies_without_a_final_boss_cannot_be_won(final, tmp_path):
    doc = preset(final, "quick-game")
    del doc["characters"][1]["deck"]["barrelback"]
    report, _ = check(final, doc, tmp_path)
    assert rules(report) == {"decks.final-boss"}
    v = report.violations[0]
    assert v.message == "Quick Game has no Final Boss among its Enemies, so nobody can win"
    assert (v.observed, v.expected, v.path) == (0, "at least 1", "characters")


def test_no_stage_is_named(final, tmp_path):
    doc = preset(final, "quick-game")
    doc["characters"][0]["deck"] = {}
    report, _ = check(final, doc, tmp_path)
    assert rules(report) == {"decks.stages"}
    assert report.violations[0].message == "Quick Game has no Stage card; every turn begins by drawing one"


@pytest.mark.parametrize("drops, expected", [(36, set()), (34, {"decks.drops-for-five"}),
                                             (14, {"decks.drops-for-five"}),
                                             (13, {"decks.drops", "decks.drops-for-five"})])
def test_drops_for_two_hands_are_needed_and_for_five_advised(final, tmp_path, drops, expected):
    doc = preset(final, "whole-kit")
    deck = {}
    for card_id, n in doc["characters"][2]["deck"].items():  # the first `drops` copies
        take = min(n, drops - sum(deck.values()))
        if take > 0:
            deck[card_id] = take
    doc["characters"][2]["deck"] = deck
    report, _ = check(final, doc, tmp_path)
    assert rules(report) == expected
    assert report.legal == ("decks.drops" not in expected)
    for v in report.violations:
        assert v.severity == ("warning" if v.rule == "decks.drops-for-five" else "error")
        assert v.observed == drops
    if drops == 13:
        drop = next(v for v in report.violations if v.rule == "decks.drops")
        assert drop.message == "The Whole Kit has 13 Drops; dealing two opening hands of 7 takes at least 14"
        assert drop.fix == "add 1 Drop card"


def test_a_placard_inside_a_deck_is_the_wrong_kind(final, tmp_path):
    doc = preset(final, "quick-game")
    doc["characters"][2]["deck"]["stages-placard"] = 1
    report, lines = check(final, doc, tmp_path)
    assert rules(report) == {"card.kind"}
    assert report.violations[0].location.line == line_of(lines, "stages-placard", 1)


# ---- the roster sheet of a build without points ---------------------------------------------------


@pytest.mark.parametrize("pack_id, stem, present, absent", [
    ("raid_boss", "party-first-raid", ["Base HP", "Dice", "PARTY", "Party · 4 heroes", "1. Brannoc Stonehide",
                                       "4. Orrin Vale"],
     ["points", "POINTS", "Ability dice"]),
    ("final_boss", "quick-game", ["TABLE DECKS", "3. Drops Deck", "DECK · 36 CARDS"], ["points", "Attack"]),
])
def test_the_roster_of_a_game_without_points_prints_no_points(tmp_path, pack_id, stem, present, absent):
    from pypdf import PdfReader
    from generator.render.roster.sheet import write_roster
    pack = load_pack(REPO / "card_data" / pack_id)
    out = tmp_path / "roster.pdf"
    info = write_roster(pack, load_build(pack.root / "presets" / f"{stem}.yaml", pack), out)
    assert info["legal"]
    page = " ".join(p.extract_text() for p in PdfReader(str(out)).pages)
    for word in present:
        assert word in page, word
    for word in absent:
        assert word not in page, word


def test_the_roster_of_a_game_with_points_still_prints_them(tmp_path):
    from pypdf import PdfReader
    from generator.render.roster.sheet import write_roster
    pack = load_pack(REPO / "card_data" / "boss_fight")
    out = tmp_path / "roster.pdf"
    write_roster(pack, load_build(pack.root / "presets" / "party-oathsworn.yaml", pack), out)
    page = PdfReader(str(out)).pages[0].extract_text()
    assert "POINTS" in page and "100 / 100 points" in page and "Health" in page


# ---- the rulebooks' preset pages ------------------------------------------------------------------


@pytest.mark.parametrize("pack_id, title, present", [
    ("raid_boss", "Ready Teams and Boss Decks",
     ["The First Raid", "Party · 4 heroes", "1. Brannoc Stonehide", "Base HP 12", "Karrun, the Deep Maw", "Deck (21):"]),
    ("final_boss", "Deck Set-Ups", ["Quick Game", "Table Decks · 3 decks", "The Whole Kit", "3. Drops Deck",
                                    "Deck (36):"]),
])
def test_the_rulebook_lists_the_presets_without_points(tmp_path, pack_id, title, present):
    from pypdf import PdfReader
    result = CliRunner().invoke(main, ["build", str(REPO / "card_data" / pack_id), "--only", "rulebook",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pages = [p.extract_text() for p in PdfReader(str(tmp_path / "rulebook.pdf")).pages]
    first = [i for i, p in enumerate(pages) if title in p and "Contents" not in p][0]  # not the contents
    section = " ".join(pages[first:]).split(title, 1)[1].split("Glossary", 1)[0]  # may run over pages
    for word in present:
        assert word in section.replace("\n", " "), word
    assert "points" not in section.lower()
