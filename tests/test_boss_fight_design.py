"""Issue 14: Boss Fight as its design document says. One section per point of the issue; each
test names the old behaviour it replaces (the build or map that was judged wrongly before).

1 party size · 2 no points limit · 3 setup anywhere · 4 corner line of sight · 5 boss Health ·
6 characters keyed by position · 7 copies never vouch · 8 Stunned and 0 against 0 ·
9 designer's notes. Rulebook wording is read back from the PDFs."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from generator.grids import hexgrid as hg
from generator.cli import main
from generator.core.errors import InputError
from generator.grids.hexgrid import Hex
from generator.kit import build_faces
from generator.pack.load import load_build
from generator.maps import validate_map
from generator.render.cards.faces import CardShared
from generator.rules.engine import validate_build

from conftest import LEGAL_BOSS, LEGAL_PARTY, PACK_DIR, solo


def pnp(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def torva_party(n: int, limit: str = "250") -> str:
    """A party of n copies of Torva Greymantle (29 points each), no equipment."""
    head, rest = LEGAL_PARTY.split("characters:\n")
    torva = rest.split("  - hero: wren-ashby")[0].replace("    equipment: [knights-longsword]\n", "    equipment: []\n")
    return head.replace("points_limit: 100", f"points_limit: {limit}") + "characters:\n" + torva * n


# A 150-point boss: the legal test boss (69) with four more Titan Arms, a Coal Ribcage and a Pillar Leg.
BOSS_150 = LEGAL_BOSS.replace("      - piece: knuckle-club\n", "      - piece: titan-arm\n" * 4
                              + "      - piece: coal-ribcage\n      - piece: pillar-leg\n      - piece: knuckle-club\n")


# ---- 1. party size ---------------------------------------------------------------------------


def test_a_seven_hero_party_within_the_limit_is_legal(check):
    # before: build.characters "a Hero Party build has 7 character(s); it needs 1 to 6"
    result = check(torva_party(7))
    assert result.report.points.total == 7 * 29 <= 250
    assert result.legal and result.of("build.characters") == []


def test_a_party_needs_at_least_one_hero(check):
    empty = LEGAL_PARTY.split("characters:\n")[0] + "characters: []\n"
    v = check(empty).one("build.characters")
    assert (v.observed, v.expected) == (0, "at least 1")


def test_a_maximum_party_size_only_when_the_table_sets_one(check, pack, tmp_path):
    text = torva_party(7)
    assert check(text).legal  # no maximum by default
    capped = check(text.replace("side: hero\n", "side: hero\nmax_characters: 6\n"))
    v = capped.one("build.characters")
    assert (v.observed, v.expected) == (7, "1 to 6")
    assert "the maximum this table agreed" in v.message
    assert v.location.line == capped.line("max_characters:")
    path = tmp_path / "seven.yaml"
    path.write_text(text, encoding="utf-8")
    assert validate_build(pack, load_build(path, pack), max_characters=7).legal
    assert not validate_build(pack, load_build(path, pack), max_characters=5).legal
    assert pnp("validate", path, "--pack", PACK_DIR).exit_code == 0
    assert pnp("validate", path, "--pack", PACK_DIR, "--max-characters", "6").exit_code == 1


def test_the_pack_declares_no_party_cap_but_still_prints_pieces_for_six(pack):
    from generator.render.pieces.model import most_characters
    hero = pack.spec.sides["hero"].characters
    assert (hero.min, hero.max) == (1, None)
    assert most_characters(pack) == 1 + 6  # the status counters printed are unchanged


# ---- 2. no points limit ----------------------------------------------------------------------


def test_points_limit_none_in_a_build(check):
    # before: `none` was a schema error, and `null` silently meant the pack default (100)
    result = check(BOSS_150.replace("points_limit: 100", "points_limit: none"))
    points = result.report.points
    assert result.legal and points.total == 150
    assert (points.limit, points.left, points.limit_source) == (None, None, "build")
    data = points.as_dict()
    assert data["limit"] is None and "left" not in data and data["limit_source"] == "build"
    assert data["characters"]["characters[0]"]["points"] == 150
    assert sum(c["total"] for c in data["cards"]) == 150
    assert check(BOSS_150).one("points.limit").observed == 150  # the same boss under the build's 100


def test_points_none_on_the_command_line_text_and_json(tmp_path):
    path = tmp_path / "boss.yaml"
    path.write_text(BOSS_150, encoding="utf-8")
    assert pnp("validate", path, "--pack", PACK_DIR).exit_code == 1  # the build's own limit: 100
    text = pnp("validate", path, "--pack", PACK_DIR, "--points", "none")
    assert text.exit_code == 0
    assert "LEGAL — 150 points (no limit)" in text.output
    doc = json.loads(pnp("validate", path, "--pack", PACK_DIR, "--points", "none", "--format", "json").output)
    points = doc["results"][0]["points"]
    assert (points["total"], points["limit"], points["limit_source"]) == (150, None, "command line")
    assert "left" not in points
    assert doc["schema"] == "pnp.validation/2"
    bad = pnp("validate", path, "--pack", PACK_DIR, "--points", "lots")
    assert bad.exit_code == 2 and "none" in bad.output


def test_the_limit_source_is_reported(check):
    assert check(LEGAL_PARTY).report.points.limit_source == "build"
    assert check(LEGAL_PARTY, points=120).report.points.limit_source == "command line"
    default = check(LEGAL_PARTY.replace("points_limit: 100\n", "")).report.points
    assert (default.limit, default.limit_source) == (100, "pack default")


def test_an_empty_points_limit_is_an_input_error_not_the_default(pack, tmp_path):
    path = tmp_path / "null.yaml"
    path.write_text(LEGAL_PARTY.replace("points_limit: 100", "points_limit:"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_build(path, pack)
    problem = err.value.problems[0]
    assert problem.location.line == 4 and "points_limit: none" in problem.fix


def test_no_limit_survives_a_share_code(pack, tmp_path):
    from generator.share.codes import share_code, unshare_text
    path = tmp_path / "none.yaml"
    path.write_text(BOSS_150.replace("points_limit: 100", "points_limit: none"), encoding="utf-8")
    text = unshare_text(share_code(pack, load_build(path, pack)), pack, None)
    assert "points_limit: none" in text


# ---- 3. setup where the document puts it ------------------------------------------------------

ZONED_MAP = """title: Zoned
shape: {rectangle: {columns: 12, rows: 10}}
zones:
  boss: [[5, 4]]
  hero: [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1]]
"""


def _three_hex_boss(tmp_path):
    path = tmp_path / "boss.yaml"
    path.write_text(LEGAL_BOSS, encoding="utf-8")  # Coal Ribcage gives it a footprint of several hexes
    return path


def test_a_map_is_checked_against_the_rules_setup_by_default(pack, tmp_path):
    # before: the one-hex boss zone was the rule, so this boss "had no legal placement"
    (tmp_path / "maps").mkdir()
    map_path = tmp_path / "maps" / "zoned.yaml"
    map_path.write_text(ZONED_MAP, encoding="utf-8")
    boss = _three_hex_boss(tmp_path)
    rules = validate_map(pack, map_path, boss)
    assert rules.legal, [v.message for v in rules.violations]
    zones = validate_map(pack, map_path, boss, "zones")
    assert [v.rule for v in zones.violations if v.severity == "error"] == ["map.boss-fit"]
    assert "in its start zone" in zones.violations[0].message
    assert pnp("validate", map_path, "--pack", PACK_DIR, "--build", boss).exit_code == 0
    assert pnp("validate", map_path, "--pack", PACK_DIR, "--build", boss, "--setup", "zones").exit_code == 1


def test_a_boss_that_fits_nowhere_is_reported_with_its_closest_place(pack, tmp_path):
    (tmp_path / "maps").mkdir()
    map_path = tmp_path / "maps" / "tiny.yaml"
    map_path.write_text("title: Tiny\nshape: {hexagon: 1}\nobstacles: [[1, 0]]\n", encoding="utf-8")
    titan = PACK_DIR / "presets" / "boss-worldbreaker-titan.yaml"
    report = validate_map(pack, map_path, titan)
    (v,) = [v for v in report.violations if v.rule == "map.boss-fit"]
    assert "has no legal placement" in v.message and "closest fit centred on hex" in v.message
    assert re.search(r"hex \(-?\d+,-?\d+\) is (off the map|an obstacle)", v.message)
    assert v.observed  # the hexes in the way


def test_rules_setup_needs_one_spot_with_room_for_the_party(pack, tmp_path):
    from generator.maps import load_map, validate_hexmap
    from generator.maps.checks import Footprint
    (tmp_path / "maps").mkdir()
    map_path = tmp_path / "maps" / "strip.yaml"
    map_path.write_text("title: Strip\nshape: {rectangle: {columns: 8, rows: 1}}\n", encoding="utf-8")
    m = load_map(pack, map_path)
    boss = Footprint("One", "boss", frozenset({Hex(0, 0)}), "test")
    # at one end of the strip, hexes 3..7 are more than 2 away: room for 5 heroes, not for 6
    assert validate_hexmap(m, pack, [boss], 5).legal
    v = [v for v in validate_hexmap(m, pack, [boss], 6).violations if v.rule == "map.placement"]
    assert v and v[0].observed == 5


def test_every_preset_boss_fits_every_map_both_ways(pack):
    from generator.validate.packs import validate_pack
    reports = [r for r in validate_pack(pack) if r.kind == "map"]
    assert len(reports) == 7
    assert all(r.legal for r in reports), [(r.name, [v.message for v in r.violations]) for r in reports]


# ---- 4. corner-to-corner line of sight ----------------------------------------------------------

coords = st.tuples(st.integers(-6, 6), st.integers(-6, 6)).map(lambda t: Hex(*t))


@settings(max_examples=150, deadline=None)
@given(coords, coords, st.sets(coords, max_size=12))
def test_corner_sight_is_symmetric(a, b, walls):
    assert hg.corner_line_of_sight(a, b, walls) == hg.corner_line_of_sight(b, a, walls)


@settings(max_examples=100, deadline=None)
@given(coords, st.integers(0, 5), st.sets(coords, max_size=20))
def test_adjacent_hexes_always_see_each_other(a, direction, walls):
    b = a + hg.DIRECTIONS[direction]
    assert hg.corner_line_of_sight(a, b, walls | {a, b})


@settings(max_examples=100, deadline=None)
@given(coords, st.integers(0, 5), st.integers(1, 4), st.integers(1, 4))
def test_a_blocker_exactly_between_two_hexes_in_a_row_blocks(a, direction, before, after):
    d = hg.DIRECTIONS[direction]
    wall = Hex(a.q + d.q * before, a.r + d.r * before)
    b = Hex(wall.q + d.q * after, wall.r + d.r * after)
    assert not hg.corner_line_of_sight(a, b, {wall})
    assert hg.corner_line_of_sight(a, b, set())


# (a, b, blockers, sees): worked out on paper with the corner lattice of hexgrid
HAND_CASES = [
    ((0, 0), (2, 0), {(1, 0)}, False),            # in a row, blocker between
    ((0, 0), (2, 0), {(1, -1)}, True),            # blocker beside the row: the lower corners see
    ((0, 0), (2, 0), {(1, -1), (1, 1)}, True),    # both neighbours of the gap: the row itself is open
    ((0, 0), (1, 1), {(1, 0), (0, 1)}, False),    # the two hexes between a diagonal pair: shut
    ((0, 0), (1, 1), {(1, 0)}, True),             # one of them: the other side is open
    ((0, 0), (3, -1), {(1, 0)}, True),            # top corner to top corner, above the blocker
    ((0, 0), (3, -1), {(1, 0), (1, -1)}, False),  # both hexes in front of A
    ((0, 0), (1, 0), {(0, 1), (1, -1)}, True),    # adjacent: the shared edge
    ((0, 0), (0, 3), {(0, 2)}, False),            # in a row along r
]


@pytest.mark.parametrize("a, b, walls, sees", HAND_CASES)
def test_hand_computed_corner_sight(a, b, walls, sees):
    assert hg.corner_line_of_sight(a, b, walls) is sees


def test_corner_sight_sees_where_the_centre_line_did_not():
    # before: the pack drew centre to centre, and this line runs through the blocker
    assert not hg.line_of_sight((0, 0), (3, -1), {(1, 0)}, "permissive")
    assert hg.line_of_sight((0, 0), (3, -1), {(1, 0)}, "corners")


def test_the_pack_and_its_maps_use_corner_sight(pack):
    from generator.maps import load_pack_maps
    assert pack.spec.line_of_sight == "corners"
    chapel = next(m for m in load_pack_maps(pack) if m.id == "ruined-chapel")
    assert chapel.line_of_sight == "corners"


# ---- 5. boss Health ---------------------------------------------------------------------------

ZERO_HEALTH_BOSS = LEGAL_BOSS.replace(
    """      - piece: basalt-jaw
      - piece: coal-ribcage
      - piece: pillar-leg
      - piece: anchor-foot
      - piece: titan-arm
        equipment: [bone-cleaver]
      - piece: knuckle-club
        equipment: [anchor-chain]
    abilities: [blood-frenzy]""",
    """      - piece: moth-crown
      - piece: scuttler-leg
      - piece: heron-stilt
      - piece: knuckle-club
    abilities: []""")


def test_a_boss_with_no_health_is_not_legal(check):
    # before: legal, though chapter 03 said a boss needs at least 1 Health
    result = check(ZERO_HEALTH_BOSS)
    v = result.one("boss.health")
    assert (v.severity, v.observed, v.expected) == ("error", 0, "Health ≥ 1")
    assert v.fix == "add a piece with Health"
    assert v.location.line == result.line("- name: Test Brute")
    fixed = check(ZERO_HEALTH_BOSS.replace("      - piece: knuckle-club\n", "      - piece: pillar-leg\n"))
    assert fixed.of("boss.health") == [] and fixed.report.stats["characters[0]"]["health"] > 0


def test_heroes_are_never_checked_for_boss_health(check):
    assert check(LEGAL_PARTY).of("boss.health") == []


# ---- 6. two characters are never merged ----------------------------------------------------------


def test_two_characters_with_one_hero_card_stay_two(check):
    # before: points.characters and stats were keyed by name: {"Torva Greymantle": 58} and one stats entry
    result = check(torva_party(2))
    points = result.report.points.as_dict()
    assert points["characters"] == {"characters[0]": {"name": "Torva Greymantle", "points": 29},
                                    "characters[1]": {"name": "Torva Greymantle", "points": 29}}
    assert [c["character_path"] for c in points["cards"]] == ["characters[0]", "characters[1]"]
    stats = result.report.stats
    assert set(stats) == {"characters[0]", "characters[1]"}
    assert stats["characters[0]"] == stats["characters[1]"] and stats["characters[0]"]["health"] == 15
    v = result.one("build.shared-card")
    assert v.severity == "warning" and result.legal
    assert v.observed == 2 and "print 1 more" in v.message


def test_the_text_report_lists_both_characters(tmp_path):
    path = tmp_path / "twins.yaml"
    path.write_text(torva_party(2), encoding="utf-8")
    out = pnp("validate", path, "--pack", PACK_DIR).output
    assert "1. Torva Greymantle: 29 points" in out and "2. Torva Greymantle: 29 points" in out
    assert "build.shared-card" in out


def test_pnp_build_with_a_duplicate_hero_prints_the_hero_twice(pack, tmp_path):
    path = tmp_path / "twins.yaml"
    path.write_text(torva_party(2), encoding="utf-8")
    faces = build_faces(pack, load_build(path, pack), CardShared(pack))
    heroes = [f for f in faces if getattr(f.card, "id", None) == "torva-greymantle"]
    assert len(heroes) == 2


# ---- 7. copies do not vouch for each other -------------------------------------------------------


def test_two_copies_of_an_ability_do_not_meet_each_others_requirement(check):
    # before: Torva (Agility 2) with two Quick Reflexes (needs 3, gives +1) passed: each saw the other's +1
    result = check(solo("torva-greymantle", abilities="[quick-reflexes, quick-reflexes]"))
    (found,) = result.of("ability.requirement")  # told once for the card, not once per copy
    assert found.observed == 2 and found.path == "characters[0].abilities[0]"
    dup = result.one("ability.duplicate")
    assert dup.path == "characters[0].abilities[1]" and dup.fix == "remove the second Quick Reflexes"
    # one copy on a hero who meets it: fine
    assert check(solo("tamsin-lowe", abilities="[quick-reflexes]")).legal


def test_two_copies_of_equipment_are_allowed(check):
    result = check(solo("aldous-crane", equipment="[knights-longsword, knights-longsword]", limit=200))
    assert result.of("ability.duplicate") == []


def test_a_misplaced_card_adds_nothing_to_the_totals(check):
    # before: a Hero card among boss pieces was reported, and its 15 Health added to the boss's
    plain = check(LEGAL_BOSS).report.stats["characters[0]"]
    result = check(LEGAL_BOSS.replace("      - piece: basalt-jaw\n", "      - piece: basalt-jaw\n      - piece: torva-greymantle\n"))
    assert result.one("card.kind").observed == "hero"
    assert result.report.stats["characters[0]"] == plain


# ---- rulebook, quick reference, maps: the wording, read back from the PDFs ---------------------------


@pytest.fixture(scope="module")
def rulebook_text(tmp_path_factory):
    from generator.pack.load import load_pack
    from generator.render.rulebook.book import build_rulebook_pdf
    path = tmp_path_factory.mktemp("rulebook14") / "rulebook.pdf"
    build_rulebook_pdf(load_pack(PACK_DIR), path)
    return _flat("\n".join(page.extract_text() for page in PdfReader(path).pages))


def _flat(text: str) -> str:
    """Text with hyphenation at line ends undone and all white space single spaces."""
    text = re.sub(r"-\s*\n\s*", "", text)
    return re.sub(r"\s+", " ", text)


def test_rulebook_party_size_and_no_limit(rulebook_text):
    assert "one to six" not in rulebook_text
    assert "one or more heroes, as many as the points limit allows" in rulebook_text
    assert "Take at least one hero, and as many more as you like" in rulebook_text
    assert "points_limit: none" in rulebook_text and "Playing without a limit." in rulebook_text


def test_rulebook_setup_and_scenario_zones(rulebook_text):
    assert "Scenario setup (optional)" in rulebook_text
    assert "ignore the shading" in rulebook_text


def test_rulebook_line_of_sight_is_corner_to_corner(rulebook_text):
    assert "a corner of one's hex to a corner of the other's" in rulebook_text  # the glossary
    assert "from a corner of one's hex" not in rulebook_text.replace("a corner of one's hex to", "")
    assert "centre of the attacker's hex to the centre" not in rulebook_text
    assert "A sees B: the solid line runs corner to corner" in rulebook_text  # the diagram's caption


def test_rulebook_boss_health_stunned_combat_and_notes(rulebook_text):
    assert "add a piece with Health" in rulebook_text
    assert "no Heroic Feat" not in rulebook_text
    assert "A Stunned hero may still perform their Heroic Feat" in rulebook_text
    assert "0 against 0 is equal" in rulebook_text
    assert "equal, 0 against 0 included" in rulebook_text  # the combat reference table
    assert "Designer's Notes" in rulebook_text and "Round or turn?" in rulebook_text
    assert "This book counts in rounds" in rulebook_text
    assert "at the start of its own turn" in rulebook_text
    assert "each ability card only once" in rulebook_text


def test_quick_reference_states_the_0_against_0_row(pack, tmp_path):
    from generator.render.rulebook.quickref import build_quick_reference_pdf
    path = tmp_path / "quick.pdf"
    build_quick_reference_pdf(pack, path)
    text = _flat(PdfReader(path).pages[0].extract_text())
    assert "equal, 0 against 0 included" in text and "0 against 0 is equal" in text


def test_map_legend_labels_zones_as_an_optional_scenario(pack, tmp_path):
    from generator.render.maps.document import build_maps_pdf
    path = tmp_path / "maps.pdf"
    build_maps_pdf(pack, path)
    text = _flat("\n".join(p.extract_text() for p in PdfReader(path).pages))
    # before: "Boss figures are set up wholly inside these hexes." as if the zones were the rule
    assert text.count("start (scenario)") >= 2 * 6  # boss and hero zones of six maps, on overview and sheets
    assert "Otherwise set up as the rules say" in text
    assert "a corner of one's hex to a corner of the other's" in text
