"""Text deck lists both ways: every preset survives format → parse → format and validates the
same; the lenient forms people type are read; a misspelled name stops with a did-you-mean at
its line and column; `pnp decklist` prints one and `pnp validate` reads one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO, line_of
from generator.cli import main
from generator.share.decklist import decklist_document, format_decklist, parse_decklist
from generator.core.errors import InputError
from generator.pack.load import build_from_document, load_build, load_pack
from generator.rules.engine import validate_build
from generator.core.yamlio import load_yaml_file

PACKS = sorted(p for p in (REPO / "card_data").iterdir() if (p / "game.yaml").is_file())
PRESETS = [(pack_dir.name, preset) for pack_dir in PACKS for preset in sorted((pack_dir / "presets").glob("*.yaml"))]
_packs: dict = {}


def pack_of(name: str):
    if name not in _packs:
        _packs[name] = load_pack(REPO / "card_data" / name)
    return _packs[name]


def verdict(report):
    """What a report says, apart from where (the deck list has its own lines)."""
    return (report.legal, [(v.rule, v.severity, v.message, v.observed, v.expected, v.fix)
                           for v in report.sorted_violations()],
            report.points.as_dict() if report.points else None)


def test_every_pack_with_sides_has_presets_to_try():
    assert {name for name, _ in PRESETS} >= {"boss_fight", "battle_bosses", "tactics"}
    assert len(PRESETS) >= 15


@pytest.mark.parametrize("pack_name, preset", PRESETS, ids=[f"{n}/{p.stem}" for n, p in PRESETS])
def test_presets_round_trip_and_validate_the_same(pack_name, preset):
    pack = pack_of(pack_name)
    document = load_yaml_file(preset).data
    text = format_decklist(document, pack)
    parsed = parse_decklist(text, pack, "preset.txt")
    assert format_decklist(parsed, pack) == text
    original = load_build(preset, pack)
    again = build_from_document(decklist_document(text, pack, "preset.txt"), pack)
    for points in (None, 1):  # legal as shipped, and far over a tiny limit
        assert verdict(validate_build(pack, again, points)) == verdict(validate_build(pack, original, points))
    from generator.share.codes import share_code
    assert share_code(pack, again) == share_code(pack, original)  # the very same build, to the last card
    # a Build as loaded formats to a list that reads back to the same build too
    from_build = format_decklist(original, pack)
    rebuilt = build_from_document(decklist_document(from_build, pack, "b.txt"), pack)
    assert verdict(validate_build(pack, rebuilt)) == verdict(validate_build(pack, original))


def test_boss_list_reads_as_written(pack):
    text = format_decklist(load_yaml_file(REPO / "card_data/boss_fight/presets/boss-ashen-behemoth.yaml").data, pack)
    assert text.startswith("# The Ashen Behemoth\nPack: boss_fight\nSide: boss\nPoints limit: 100\n\n## The Ashen Behemoth\n")
    assert "Titan Arm\n  + Bone Cleaver\n" in text  # equipment under the piece it is fixed to
    assert "Deck (30):\n3x Lumbering Stride\n" in text


LENIENT = """\
// a comment line, ignored
Side: Hero Party
Points limit: standard

## Oriel Vance
Hero: oriel vance
Equipment:
- SPLITTING   GREATAXE
Deck:
3x Walk
3 Charge
dash x3
Basic Attack (x2)
basic-attack
x3 heavy attack
Special Attack
Special Attack
Special Attack
Reckless Blow
"""


def test_lenient_forms(pack):
    doc = parse_decklist(LENIENT, pack)
    assert doc["side"] == "hero" and doc["points_limit"] == "standard" and doc["pack"] == "boss_fight"
    (char,) = doc["characters"]
    assert "name" not in char  # the hero's own name is the default
    assert char["hero"] == "oriel-vance" and char["equipment"] == ["splitting-greataxe"]
    assert char["deck"] == {"walk": 3, "charge": 3, "dash": 3, "basic-attack": 3, "heavy-attack": 3,
                            "special-attack": 3, "reckless-blow": 1}
    assert doc["name"] == "Oriel Vance"  # no title: the first character's heading


def test_side_is_inferred_from_section_names(pack):
    doc = parse_decklist("## Lump\nPieces:\nBasalt Jaw\nTitan Arm\n+ Bone Cleaver\n", pack)
    assert doc["side"] == "boss"
    assert doc["characters"][0]["pieces"] == [{"piece": "basalt-jaw", "equipment": []},
                                              {"piece": "titan-arm", "equipment": ["bone-cleaver"]}]
    assert doc["characters"][0]["name"] == "Lump"


def test_misspelled_name_gives_did_you_mean_at_line_and_column(pack):
    text = LENIENT.replace("3 Charge", "3 Chrage").replace("Reckless Blow", "Reckles Blow")
    with pytest.raises(InputError) as exc:
        parse_decklist(text, pack, "party.txt")
    first, second = exc.value.problems  # every problem, not only the first
    assert (first.code, first.location.file, first.location.line, first.location.column) == \
        ("decklist.unknown-card", "party.txt", line_of(text, "3 Chrage"), 3)
    assert first.fix == "did you mean `Charge`?" and first.found == "Chrage"
    bulleted = LENIENT.replace("- SPLITTING   GREATAXE", "- SPLITING GREATAXE")
    with pytest.raises(InputError) as exc:
        parse_decklist(bulleted, pack, "party.txt")
    assert exc.value.problems[0].location.column == 3  # the name, after the bullet
    assert second.location.line == line_of(text, "Reckles Blow") and second.fix == "did you mean `Reckless Blow`?"


@pytest.mark.parametrize("text, code, needle", [
    ("Side: bos\n## X\nPieces:\nBasalt Jaw\n", "decklist.side", "Side"),
    ("Sied: boss\n", "decklist.key", "Sied"),
    ("Points limit: huge\nSide: boss\n", "decklist.points", "Points"),
    ("Side: boss\n## X\nPieces:\n+ Bone Cleaver\n", "decklist.attach", "+ Bone"),
    ("Side: hero\n## X\nHero: Oriel Vance\n+ Bone Cleaver\n", "decklist.attach", "+ Bone"),
    ("Side: hero\n## X\nPieces:\nBasalt Jaw\n", "decklist.section", "Basalt"),
    ("## X\nDeck:\n3x Walk\n", "decklist.side", None),
    ("Side: hero\n## X\nHero: Oriel Vance\nHero: Odo Vellum\n", "decklist.base", "## X"),
    ("Side: hero\n## X\nDeck:\n3x Walk\n", "decklist.base", "## X"),
    ("## X\nSide: hero\nHero: Oriel Vance\n", "decklist.key", "Side"),
    ("Side: hero\n## X\nHero: Oriel Vance\nSideboard:\n3x Walk\n", "decklist.key", "Sideboard"),
])
def test_mistakes_are_input_errors_with_a_place(pack, text, code, needle):
    with pytest.raises(InputError) as exc:
        parse_decklist(text, pack, "list.txt")
    problem = exc.value.problems[0]
    assert problem.code == code and problem.location.file == "list.txt"
    if needle:
        assert problem.location.line == line_of(text, needle)


def test_violations_point_into_the_deck_list(pack):
    text = format_decklist(load_yaml_file(REPO / "card_data/boss_fight/presets/boss-skitterfang.yaml").data, pack)
    text = text.replace("3x Basic Attack", "4x Basic Attack")
    build = build_from_document(decklist_document(text, pack, "sk.txt"), pack)
    report = validate_build(pack, build)
    by_rule = {v.rule: v for v in report.violations}
    assert by_rule["deck.copies"].location.line == line_of(text, "4x Basic Attack")
    assert by_rule["deck.size"].location.line == line_of(text, "Deck (30):")


def pnp(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_cli_decklist_then_validate(in_repo, tmp_path):
    preset = Path("card_data/boss_fight/presets/party-oathsworn.yaml")
    shown = pnp("decklist", preset)
    assert shown.exit_code == 0 and shown.output.startswith("# The Oathsworn\n")
    listed = tmp_path / "oathsworn.txt"
    assert pnp("decklist", preset, "-o", listed).exit_code == 0
    assert listed.read_text(encoding="utf-8") == shown.output
    legal = pnp("validate", listed)
    assert legal.exit_code == 0 and "LEGAL" in legal.output
    assert pnp("decklist", listed).output == shown.output  # a deck list prints back the same
    broken = tmp_path / "broken.deck"
    broken.write_text(shown.output.replace("Hazel Wand", "Hazle Wand"), encoding="utf-8")
    result = pnp("validate", broken)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{os.path.relpath(broken)}:{line_of(broken.read_text(), 'Hazle Wand')}:1:" in result.output
    assert "did you mean `Hazel Wand`?" in result.output
    over = tmp_path / "over.txt"
    over.write_text(shown.output.replace("3x Bolas", "4x Bolas"), encoding="utf-8")
    result = pnp("validate", over, "--format", "json")
    assert result.exit_code == 1 and '"deck.copies"' in result.output


def test_cli_unknown_pack_line(in_repo, tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("Pack: no_such_pack\nSide: boss\n", encoding="utf-8")
    result = pnp("validate", path)
    assert result.exit_code == 2 and "no pack `no_such_pack`" in result.output


def test_hostile_input_is_bounded(pack):
    with pytest.raises(InputError) as exc:
        parse_decklist("Side: boss\n## X\n" + "A" * 5000 + "\n", pack)
    assert exc.value.problems[0].code == "decklist.line-too-long"
    with pytest.raises(InputError) as exc:
        parse_decklist("x\n" * 6000, pack)
    assert exc.value.problems[0].code == "decklist.too-long"
    many = "Side: hero\n## X\nHero: Oriel Vance\nDeck:\n" + "".join(f"3x Nocard{i}\n" for i in range(400))
    with pytest.raises(InputError) as exc:
        parse_decklist(many, pack)
    assert len(exc.value.problems) == 400  # every one reported; did-you-mean only for the first ones


def test_a_side_given_by_the_caller_keeps_line_numbers(pack):
    text = "## X\nDeck:\n3x Wakl\n"
    with pytest.raises(InputError) as exc:
        parse_decklist(text, pack, "form", side="hero")
    assert exc.value.problems[0].location.line == 3 and exc.value.problems[0].fix == "did you mean `Walk`?"
    assert parse_decklist("## X\nHero: Odo Vellum\nDeck:\n3x Walk\n", pack, side="hero")["side"] == "hero"
    assert parse_decklist("Side: boss\n## X\nDeck:\n3x Walk\n", pack, side="hero")["side"] == "boss"  # the text wins
    with pytest.raises(InputError):
        parse_decklist(text, pack, side="villain")


def test_the_sections_used_say_the_side_before_a_form_choice(pack):
    """#42: a list starting `Hero: Pip Talow` sent with the form's side at Boss was read as a
    boss ("the Boss side has no section hero") and the misspelled hero never reported."""
    with pytest.raises(InputError) as exc:
        parse_decklist("Hero: Pip Talow\nDeck:\n3x Walk\n", pack, "form", side="boss")
    (problem,) = exc.value.problems
    assert problem.code == "decklist.unknown-card" and problem.found == "Pip Talow"
    assert problem.fix == "did you mean `Pip Tallow`?" and problem.location.line == 1
    assert parse_decklist("Hero: Pip Tallow\nDeck:\n3x Walk\n", pack, side="boss")["side"] == "hero"


def test_no_limit_round_trips(pack):
    text = "# Free\nSide: hero\nPoints limit: no limit\n\n## Oriel Vance\nHero: Oriel Vance\nDeck:\n3x Walk\n"
    doc = parse_decklist(text, pack)
    assert doc["points_limit"] == "none"
    assert "Points limit: none\n" in format_decklist(doc, pack)
    build = build_from_document(decklist_document(text, pack), pack)
    assert build.unlimited and build.points_limit is None
    assert "Points limit: none\n" in format_decklist(build, pack)
    assert "points_limit" not in parse_decklist(text.replace("Points limit: no limit\n", ""), pack)


def test_map_check_takes_a_deck_list_as_the_boss(in_repo, tmp_path):
    """`pnp validate MAP --build boss.txt` checks the same footprint as the YAML build."""
    import json
    preset = Path("card_data/boss_fight/presets/boss-worldbreaker-titan.yaml")
    listed = tmp_path / "titan.txt"
    assert pnp("decklist", preset, "-o", listed).exit_code == 0
    answers = []
    for build in (preset, listed):
        result = pnp("validate", "card_data/boss_fight/maps/the-narrows.yaml", "--build", build, "--format", "json")
        assert result.exit_code == 0
        (report,) = json.loads(result.output)["results"]
        answers.append(report["stats"])
    assert answers[0] == answers[1] and answers[0]["footprints"]


@pytest.mark.parametrize("build_name, char_name", [("Big  Bad   Party", "Oriel   the\tQuiet"), ("#1 Fans", "#2  Fan"),
                                                   ("Plain Party", "Oriel Vance")])
def test_names_keep_their_inner_whitespace_through_a_deck_list(pack, build_name, char_name):
    text = f"# {build_name}\nSide: hero\n\n## {char_name}\nHero: Oriel Vance\nDeck:\n3x Walk\n"
    doc = parse_decklist(text, pack)
    named = doc["characters"][0].get("name", "Oriel Vance")  # a hero's own name is left out
    assert doc["name"] == build_name and named == char_name
    again = parse_decklist(format_decklist(doc, pack), pack)
    assert again["name"] == build_name and again["characters"][0].get("name", "Oriel Vance") == char_name
    assert again == doc


def test_a_line_break_in_a_name_is_kept_quoted_in_the_list(pack):
    # the list cannot hold a line break on a heading's line: the name is written as a JSON string
    # and reads back as it was (test_decklist_names.py tries any name the build model accepts)
    doc = parse_decklist("# Party\nSide: hero\n\n## Oriel\nHero: Oriel Vance\n", pack)
    doc["characters"][0]["name"] = "Oriel\nof  the Vale"
    text = format_decklist(doc, pack)
    assert '\n## "Oriel\\nof  the Vale"\n' in text
    assert parse_decklist(text, pack)["characters"][0]["name"] == "Oriel\nof  the Vale"
