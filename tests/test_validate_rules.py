"""Every Boss Fight rule id: a legal build and an illegal one, asserting the rule id, severity,
file, line (and column), the observed and expected numbers, the contributors and the fix."""

from __future__ import annotations

from conftest import LEGAL_BOSS, LEGAL_PARTY, solo

RULE_IDS = {"points.limit", "deck.size", "deck.copies", "card.unknown", "card.side", "card.kind",
            "equipment.slots", "ability.requirement", "boss.movement", "ability.duplicate", "boss.health",
            "build.shared-card", "hint.attacks-unarmed", "hint.points-unspent"}


def test_the_pack_declares_exactly_the_documented_rule_ids(pack):
    # card.unknown is built into the validator (an id must name a card); the rest come from game.yaml
    assert {r.id for r in pack.spec.rules} | {"card.unknown"} == RULE_IDS


def test_the_starting_builds_are_legal_and_clean(check):
    for text in (LEGAL_BOSS, LEGAL_PARTY):
        result = check(text)
        assert result.legal
        assert result.report.violations == []


# ---- points.limit ------------------------------------------------------------------------


def test_points_limit_legal_at_exactly_the_limit(check):
    result = check(LEGAL_PARTY)
    assert result.of("points.limit") == []
    points = result.report.points.as_dict()
    assert (points["total"], points["limit"], points["left"]) == (100, 100, 0)


def test_points_limit_one_over_the_builds_own_limit(check):
    result = check(LEGAL_PARTY.replace("points_limit: 100", "points_limit: 99"))
    assert not result.legal
    v = result.one("points.limit")
    assert v.severity == "error"
    assert v.location.file == result.file
    assert (v.location.line, v.location.column) == (result.line("points_limit:"), 1)
    assert v.path == "points_limit"
    assert v.observed == 100
    assert v.expected == "at most 99"
    assert v.message == "Test Wardens costs 100 points, 1 over the limit of 99"
    # contributors: every card that costs points, dearest first
    assert [(c.name, c.points, c.count) for c in v.contributors] == [
        ("Torva Greymantle", 29, 1), ("Wren Ashby", 28, 1), ("Sister Maud Hallow", 24, 1),
        ("Ashwood Longbow", 6, 1), ("Blessed Mace", 5, 1), ("Knight's Longsword", 5, 1),
        ("Battlefield Triage", 3, 1)]
    # the cheapest single card that brings the build back under the limit
    assert v.fix == "remove 1 × Battlefield Triage (3 points)"


def test_points_option_overrides_the_builds_limit_both_ways(check):
    tight = check(LEGAL_PARTY, points=1)
    v = tight.one("points.limit")
    assert (v.observed, v.expected) == (100, "at most 1")
    assert v.message.endswith("99 over the limit of 1")
    assert tight.report.points.limit == 1 and tight.report.points.left == -99
    # the build says 99, --points 150 wins
    loose = check(LEGAL_PARTY.replace("points_limit: 100", "points_limit: 99"), points=150)
    assert loose.legal and loose.of("points.limit") == []
    assert loose.report.points.left == 50


def test_points_named_limits_and_the_pack_default(check):
    assert check(LEGAL_PARTY.replace("points_limit: 100", "points_limit: beginner")).legal
    named = check(LEGAL_PARTY.replace("points_limit: 100", "points_limit: standard"))
    assert named.report.points.limit == 150
    # no points_limit at all: the pack's default (beginner, 100); the message points at `name:`
    text = LEGAL_PARTY.replace("points_limit: 100\n", "")
    text = text.replace("abilities: []", "abilities: [thick-hide]", 1)  # Torva: +3 points -> 103
    result = check(text)
    v = result.one("points.limit")
    assert (v.observed, v.expected) == (103, "at most 100")
    assert v.location.line == result.line("name: Test Wardens")
    # two 3-point cards would do: the tie goes to the first id, so the advice never changes
    assert v.fix == "remove 1 × Battlefield Triage (3 points)"


def test_points_breakdown_per_card_per_character_and_side(check):
    text = LEGAL_BOSS.replace("      - piece: anchor-foot\n", "      - piece: anchor-foot\n      - piece: anchor-foot\n")
    result = check(text)
    points = result.report.points.as_dict()
    assert points["total"] == 69 + 6
    assert points["limit"] == 100 and points["left"] == 25
    # characters keyed by position (pnp.validation/2), the name a field
    assert points["characters"] == {"characters[0]": {"name": "Test Brute", "points": 75}}
    by_id = {line["id"]: line for line in points["cards"]}
    assert by_id["anchor-foot"] == {"character": "Test Brute", "character_path": "characters[0]",
                                    "id": "anchor-foot", "name": "Anchor Foot",
                                    "type": "boss-piece", "count": 2, "points": 6, "total": 12}
    assert by_id["bone-cleaver"]["total"] == 8
    assert "walk" not in by_id  # action cards cost nothing and are left out
    party = check(LEGAL_PARTY).report.points.as_dict()
    assert party["characters"] == {"characters[0]": {"name": "Torva Greymantle", "points": 34},
                                   "characters[1]": {"name": "Wren Ashby", "points": 34},
                                   "characters[2]": {"name": "Sister Maud Hallow", "points": 32}}
    assert sum(c["points"] for c in party["characters"].values()) == party["total"] == 100


# ---- deck.size ---------------------------------------------------------------------------


def test_deck_size_thirty_is_legal(check):
    assert check(LEGAL_BOSS).of("deck.size") == []


def test_deck_size_every_wrong_deck_is_reported(check):
    text = (LEGAL_PARTY.replace("      smelling-salts: 1\n", "      smelling-salts: 1\n      dash: 1\n")  # Torva 31
            .replace("      bolas: 3\n", "      bolas: 2\n"))                                           # Wren 29
    result = check(text)
    assert not result.legal
    over, under = result.of("deck.size")
    assert over.severity == under.severity == "error"
    assert over.location.file == result.file
    assert (over.location.line, over.location.column) == (result.line("    deck:", 1), 5)
    assert over.path == "characters[0].deck"
    assert (over.observed, over.expected) == (31, 30)
    assert over.message == "Torva Greymantle's action deck has 31 cards; it must have exactly 30"
    assert over.fix == "remove 1 card"
    assert under.location.line == result.line("    deck:", 2)
    assert (under.observed, under.expected, under.fix) == (29, 30, "add 1 card")


# ---- deck.copies -------------------------------------------------------------------------


def test_deck_copies_three_and_printed_limits_are_legal(check):
    text = (LEGAL_PARTY.replace("      jab: 3\n", "      jab: 6\n", 1)           # Jab prints deck limit 6
            .replace("      walk: 3\n", "", 1))
    result = check(text)
    assert result.of("deck.copies") == [] and result.of("deck.size") == []


def test_deck_copies_a_fourth_copy(check):
    text = (LEGAL_PARTY.replace("      basic-attack: 3\n", "      basic-attack: 4\n", 1)
            .replace("      smelling-salts: 1\n", "", 1))
    result = check(text)
    assert result.rules() == ["deck.copies"]
    v = result.one("deck.copies")
    assert v.severity == "error"
    assert v.location.file == result.file
    assert (v.location.line, v.location.column) == (result.line("basic-attack: 4"), 7)
    assert v.path == "characters[0].deck.basic-attack"
    assert (v.observed, v.expected) == (4, "at most 3")
    assert v.message == "Torva Greymantle's deck has 4 copies of Basic Attack; at most 3 allowed"
    assert [(c.id, c.count) for c in v.contributors] == [("basic-attack", 4)]
    assert v.fix == "remove 1 × Basic Attack"


def test_deck_copies_a_printed_limit_below_three(check):
    text = LEGAL_PARTY.replace("      feint: 2\n", "      reckless-blow: 2\n", 1)
    v = check(text).one("deck.copies")
    assert (v.observed, v.expected, v.fix) == (2, "at most 1", "remove 1 × Reckless Blow")


# ---- card.unknown ------------------------------------------------------------------------


def test_card_unknown_none_in_a_legal_build(check):
    assert check(LEGAL_PARTY).of("card.unknown") == []


def test_card_unknown_misspelled_ids_everywhere_with_did_you_mean(check):
    text = (LEGAL_PARTY.replace("[knights-longsword]", "[knights-longswrod]")
            .replace("      walk: 3\n", "      wlak: 3\n", 1)
            .replace("[battlefield-triage]", "[battlefield-triag]"))
    result = check(text)
    equipment, deck, ability = sorted(result.of("card.unknown"), key=lambda v: v.location.line)
    assert equipment.severity == "error" and equipment.location.file == result.file
    assert (equipment.location.line, equipment.location.column) == (result.line("knights-longswrod"), 17)
    assert equipment.path == "characters[0].equipment[0]"
    assert equipment.observed == "knights-longswrod"
    assert equipment.message == "no card with the id `knights-longswrod` in Boss Fight"
    assert equipment.fix == "did you mean `knights-longsword` (Knight's Longsword)?"
    # a deck entry points at the id (the key), not at the number of copies
    assert (deck.location.line, deck.location.column) == (result.line("wlak: 3"), 7)
    assert deck.fix == "did you mean `walk` (Walk)?"
    assert ability.fix == "did you mean `battlefield-triage` (Battlefield Triage)?"


def test_card_unknown_without_a_close_match(check):
    v = check(LEGAL_BOSS.replace("[blood-frenzy]", "[zzzzzz]")).one("card.unknown")
    assert v.observed == "zzzzzz"
    assert v.fix == "run `pnp list` to see the card ids"


# ---- card.side ---------------------------------------------------------------------------


def test_card_side_neutral_cards_are_legal_on_both_sides(check):
    for text in (LEGAL_BOSS, LEGAL_PARTY):  # both decks hold Walk and Basic Attack (Neutral Set)
        assert check(text).of("card.side") == []


def test_card_side_boss_equipment_in_a_party(check):
    result = check(LEGAL_PARTY.replace("[knights-longsword]", "[bone-cleaver]"))
    v = result.one("card.side")
    assert v.severity == "error"
    assert (v.location.file, v.location.line) == (result.file, result.line("[bone-cleaver]"))
    assert v.path == "characters[0].equipment[0]"
    assert (v.observed, v.expected) == ("boss", "hero or neutral")
    assert v.message == ("Bone Cleaver belongs to the Boss Set; a Hero Party may only use cards from "
                         "the Hero Set or Neutral Set")
    assert v.fix == "remove Bone Cleaver"


def test_card_side_hero_action_in_a_boss_deck(check):
    result = check(LEGAL_BOSS.replace("      gorge: 3\n", "      aimed-shot: 3\n"))
    v = result.one("card.side")
    assert (v.location.line, v.location.column) == (result.line("aimed-shot: 3"), 7)
    assert (v.observed, v.expected) == ("hero", "boss or neutral")


# ---- card.kind ---------------------------------------------------------------------------


def test_card_kind_legal_build_has_none(check):
    assert check(LEGAL_BOSS).of("card.kind") == []


def test_card_kind_ability_listed_as_equipment(check):
    result = check(LEGAL_PARTY.replace("[ashwood-longbow]", "[ashwood-longbow, hawks-eye]"))
    v = result.one("card.kind")
    assert v.severity == "error"
    assert (v.location.file, v.location.line, v.location.column) == (result.file, result.line("hawks-eye"), 34)
    assert v.path == "characters[1].equipment[1]"
    assert (v.observed, v.expected) == ("ability", "equipment")
    assert v.message == "Hawk's Eye is an Ability card, but `equipment` takes Equipment cards"
    assert v.fix == "move Hawk's Eye to `abilities`"


def test_card_kind_hero_card_in_a_deck(check):
    result = check(LEGAL_PARTY.replace("      smelling-salts: 1\n", "      pip-tallow: 1\n", 1))
    v = result.one("card.kind")
    assert (v.location.line, v.location.column) == (result.line("pip-tallow: 1"), 7)
    assert (v.observed, v.expected) == ("hero", "action")
    assert v.message == "Pip Tallow is a Hero card, but `deck` takes Action cards"
    assert v.fix == "move Pip Tallow to `hero`"


def test_card_kind_token_anywhere(check):
    v = check(LEGAL_BOSS.replace("[blood-frenzy]", "[blood-frenzy, spawnling]")).one("card.kind")
    assert (v.observed, v.expected) == ("token", "ability")
    assert v.fix == "remove Spawnling: a Boss cannot use Token cards"


# ---- equipment.slots ---------------------------------------------------------------------


def test_equipment_slots_hero_within_slots(check):
    result = check(solo("tamsin-lowe", equipment="[paired-stilettos]"))
    assert result.legal and result.of("equipment.slots") == []


def test_equipment_slots_hero_over_its_slots(check):
    result = check(solo("tamsin-lowe", equipment="[paired-stilettos, ashwood-longbow]"))
    v = result.one("equipment.slots")
    assert v.severity == "error"
    assert (v.location.file, v.location.line) == (result.file, result.line("equipment:"))
    assert v.path == "characters[0].equipment[1]"  # the item whose removal fixes it
    assert (v.observed, v.expected) == (3, "at most 1")
    assert v.message == "Tamsin Lowe has 1 equipment slot but carries equipment needing 3"
    assert sorted((c.id, c.points) for c in v.contributors) == [("ashwood-longbow", 2), ("paired-stilettos", 1)]
    assert v.fix == "remove Ashwood Longbow"


def test_equipment_slots_boss_piece_is_counted_on_its_own(check):
    # Titan Arm (3 slots) could hold both weapons; Knuckle Club (1 slot) cannot hold the cleaver
    text = (LEGAL_BOSS.replace("equipment: [bone-cleaver]", "equipment: [anchor-chain]")
            .replace("      - piece: knuckle-club\n        equipment: [anchor-chain]",
                     "      - piece: knuckle-club\n        equipment: [bone-cleaver]"))
    result = check(text)
    v = result.one("equipment.slots")
    assert v.severity == "error"
    assert (v.location.line, v.location.column) == (result.line("piece: knuckle-club"), 16)
    assert v.path == "characters[0].pieces[5].piece"
    assert (v.observed, v.expected) == (2, "at most 1")
    assert v.message == "Knuckle Club has 1 equipment slot but carries equipment needing 2"
    assert v.fix == "move Bone Cleaver to a piece with 2 free slots (Titan Arm)"


def test_equipment_slots_boss_legal_when_each_piece_has_room(check):
    text = LEGAL_BOSS.replace("equipment: [bone-cleaver]", "equipment: [bone-cleaver, gravestone-shield]")
    result = check(text)  # Titan Arm: 2 + 1 = 3 slots of 3
    assert result.of("equipment.slots") == []


# ---- ability.requirement -----------------------------------------------------------------


def test_ability_requirement_met(check):
    assert check(solo("hask-redhand", abilities="[battle-fury, thick-hide]")).legal


def test_ability_requirement_stat_not_met(check):
    result = check(solo("wren-ashby", abilities="[battle-fury]"))
    v = result.one("ability.requirement")
    assert v.severity == "error"
    assert (v.location.file, v.location.line, v.location.column) == (result.file, result.line("abilities:"), 17)
    assert v.path == "characters[0].abilities[0]"
    assert (v.observed, v.expected) == (2, "Strength ≥ 5")
    assert v.message == "Battle Fury needs Strength 5 or more; Wren Ashby has 2"
    assert v.fix.startswith("raise Strength by 3")


def test_ability_requirement_is_told_once_for_copies_of_a_card(check):
    result = check(solo("wren-ashby", abilities="[battle-fury, battle-fury, battle-fury]"))
    (v,) = result.of("ability.requirement")  # one verdict for the card, not one per copy
    assert v.path == "characters[0].abilities[0]" and v.message == "Battle Fury needs Strength 5 or more; Wren Ashby has 2"
    both = check(solo("wren-ashby", abilities="[battle-fury, thick-hide, battle-fury]")).of("ability.requirement")
    assert sorted(v.message.split()[0] for v in both) == ["Battle", "Thick"]  # other cards still told
    assert check(solo("hask-redhand", abilities="[battle-fury, battle-fury]")).of("ability.requirement") == []


def test_ability_requirement_constitution_not_met(check):
    v = check(solo("wren-ashby", abilities="[thick-hide]")).one("ability.requirement")
    assert (v.observed, v.expected) == (0, "1 × Might")
    assert v.message == "Thick Hide needs 1 card with constitution Might; Wren Ashby has 0"


def test_ability_requirement_boss_pieces_of_a_type(check):
    result = check(LEGAL_BOSS.replace("[blood-frenzy]", "[blood-frenzy, many-minded]"))
    v = result.one("ability.requirement")
    assert (v.location.line, v.location.column) == (result.line("abilities:"), 31)
    assert (v.observed, v.expected) == (1, "2 × Head")
    assert v.message == "Many-Minded needs 2 cards with piece type Head; Test Brute has 1"
    with_heads = LEGAL_BOSS.replace("[blood-frenzy]", "[blood-frenzy, many-minded]").replace(
        "      - piece: basalt-jaw\n", "      - piece: basalt-jaw\n      - piece: moth-crown\n")
    assert check(with_heads).of("ability.requirement") == []


def test_ability_requirement_counts_other_cards_bonuses(check):
    # Tamsin has Agility 4; Quick Reflexes adds 1, so Hawk's Eye (Agility 5) is allowed
    assert check(solo("tamsin-lowe", abilities="[quick-reflexes, hawks-eye]")).legal
    assert check(solo("tamsin-lowe", abilities="[hawks-eye]")).one("ability.requirement").observed == 4
    # equipment bonuses count too: Wren (Health 10) + Oaken Tower Shield (+3) takes Unbroken (12)
    assert check(solo("wren-ashby", equipment="[oaken-tower-shield]", abilities="[unbroken]")).legal
    assert check(solo("wren-ashby", abilities="[unbroken]")).one("ability.requirement").observed == 10


def test_ability_requirement_a_cards_own_bonus_does_not_count(check):
    # Maud has Agility 2; Quick Reflexes needs 3 and gives +1, which cannot pay for itself
    v = check(solo("maud-hallow", abilities="[quick-reflexes]")).one("ability.requirement")
    assert (v.observed, v.expected) == (2, "Agility ≥ 3")


# ---- boss.movement -----------------------------------------------------------------------


def test_boss_movement_two_legs_no_warning(check):
    assert check(LEGAL_BOSS).of("boss.movement") == []


def test_boss_movement_one_leg_is_a_warning_and_still_legal(check):
    result = check(LEGAL_BOSS.replace("      - piece: anchor-foot\n", ""))
    v = result.one("boss.movement")
    assert v.severity == "warning"
    assert result.legal
    assert (v.location.file, v.location.line, v.location.column) == (result.file, result.line("- name: Test Brute"), 5)
    assert v.path == "characters[0]"
    assert (v.observed, v.expected) == (1, "at least 2")
    assert v.message == ("Test Brute has a single Leg piece, so every Move card gives it half the hexes "
                         "(round down).")
    assert v.fix == "Add 1 more Leg piece, or play a boss that holds its ground."


def test_boss_movement_no_legs(check):
    result = check(LEGAL_BOSS.replace("      - piece: anchor-foot\n", "").replace("      - piece: pillar-leg\n", ""))
    v = result.one("boss.movement")
    assert (v.severity, v.observed) == ("warning", 0)
    assert v.message == "Test Brute has no Leg pieces, so it cannot move: Move cards give it 0 hexes."
    assert result.legal


def test_boss_movement_never_applies_to_heroes(check):
    assert check(LEGAL_PARTY).of("boss.movement") == []


# ---- all of them at once ---------------------------------------------------------------------


def test_every_violation_is_reported_not_only_the_first(check):
    text = (LEGAL_BOSS
            .replace("points_limit: 100", "points_limit: 40")
            .replace("      - piece: anchor-foot\n", "")
            .replace("      - piece: knuckle-club\n        equipment: [anchor-chain]",
                     "      - piece: knuckle-club\n        equipment: [bone-cleaver, blood-frenzy]")
            .replace("abilities: [blood-frenzy]", "abilities: [blood-frenzy, many-minded, hawks-eye, tidewall-carpace]")
            .replace("      gorge: 3\n", "      gorge: 4\n      titan-arm: 1\n"))
    result = check(text)
    # the three rules of issue 14 have builds of their own in tests/test_boss_fight_design.py, the
    # hints of issue 42 in tests/test_hints.py
    assert set(result.rules()) == RULE_IDS - {"ability.duplicate", "boss.health", "build.shared-card",
                                              "hint.attacks-unarmed", "hint.points-unspent"}
    for v in result.report.violations:
        assert v.location.file == result.file and v.location.line > 0 and v.message
    assert result.one("deck.size").observed == 32
    assert result.one("card.unknown").fix == "did you mean `tidewall-carapace` (Tidewall Carapace)?"
    # the JSON form carries the same, sorted by place in the file
    document = result.report.as_dict()
    lines = [(v["line"], v["column"]) for v in document["violations"]]
    assert lines == sorted(lines)
    assert set(document["violations"][0]) == {"rule", "severity", "message", "file", "line", "column", "path",
                                              "observed", "expected", "contributors", "fix"}
