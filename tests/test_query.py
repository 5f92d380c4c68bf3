"""The card search language (generator.pack.query): the pack's own fields, keywords and stats;
every operator with a card it finds and one it does not; negation, or, parentheses; a query
that cannot be read is one InputError naming its column; hostile input is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.errors import InputError
from generator.core.limits import MAX_QUERY_CHARS, MAX_QUERY_DEPTH, MAX_QUERY_TERMS
from generator.pack.load import load_pack
from generator.pack.query import parse_query, query_fields, search

PACKS = Path(__file__).resolve().parents[1] / "card_data"


@pytest.fixture(scope="module")
def bf():
    return load_pack(PACKS / "boss_fight")


@pytest.fixture(scope="module")
def raid():
    return load_pack(PACKS / "raid_boss")


def names(pack, query):
    return {c.name for c in search(pack, query)}


def test_the_issue_s_example_finds_envenom(bf):
    """`kw:poison agility>=4`: Envenom's text poisons, and it requires Agility 4."""
    assert names(bf, "kw:poison agility>=4") == {"Envenom"}
    assert "Envenom" not in names(bf, "kw:poison agility>=5")
    assert names(bf, "type:attack points<=3") and all(c.points <= 3 for c in search(bf, "type:attack points<=3"))


def test_words_phrases_and_fields(bf):
    assert names(bf, "nix") == {"Nix Marrowind"}
    assert names(bf, "NIX marrowind") == {"Nix Marrowind"}  # every word, any case
    assert names(bf, '"nix marrowind"') == {"Nix Marrowind"}
    assert names(bf, '"marrowind nix"') == set()  # a phrase keeps its order
    assert names(bf, 'name:"basic attack"') == {"Basic Attack"}
    assert names(bf, "name=walk") == {"Walk"} and "Walking" not in names(bf, "name:walk")
    assert "Walk" not in names(bf, "name!=walk") and names(bf, "name!=walk")
    assert names(bf, "points=0") == {c.name for c in bf.cards.values() if c.points == 0}
    assert names(bf, "points:26") == {c.name for c in bf.cards.values() if c.points == 26}
    assert names(bf, "points>30") == {c.name for c in bf.cards.values() if c.points > 30}
    assert names(bf, "points<5") == {c.name for c in bf.cards.values() if c.points < 5}
    assert names(bf, "type:hero") == {c.name for c in bf.cards.values() if c.type == "hero"}  # the card type
    assert "Walk" in names(bf, "type:move") and "Walk" in names(bf, "action_type:move")  # the tag, or its field
    assert names(bf, "side:boss") and not (names(bf, "side:boss") & names(bf, "type:hero"))


def test_negation_or_and_parentheses(bf):
    every = {c.name for c in bf.cards.values()}
    attack = names(bf, "type:attack")
    assert names(bf, "-type:attack") == every - attack == names(bf, "not type:attack")
    assert names(bf, "walk or dash") == {"Walk", "Dash"} == names(bf, "walk | dash")
    assert names(bf, "(walk or dash) -dash") == {"Walk"}
    assert names(bf, "walk and dash") == set()
    assert names(bf, "-(walk or dash)") == every - {"Walk", "Dash"}


def test_a_stat_reads_the_card_s_own_a_bonus_and_a_requirement(bf):
    fields = query_fields(bf)
    assert "agility" in fields and fields["agility"].kind == "number"
    heroes = {c.name for c in bf.cards.values() if c.type == "hero" and c.fields["stats"].get("agility", 0) >= 5}
    assert heroes <= names(bf, "agility>=5")
    assert "Envenom" in names(bf, "agility=4")  # Requires Agility 4+


def test_the_pack_s_own_fields_and_labels(raid):
    fields = query_fields(raid)
    assert {"tier", "boss", "damage", "base_hp", "difficulty", "rating_difficulty"} <= set(fields)
    gear_easy = names(raid, "tier=easy boss:gearhold")
    assert gear_easy == {c.name for c in raid.cards.values()
                         if c.fields.get("tier") == "Easy" and c.fields.get("boss") == "gearhold"}
    assert names(raid, "boss:gearhold") == names(raid, 'boss:"gearhold, the"') | names(raid, "boss=gearhold")
    assert "Karrun" in names(raid, "hp>=100")  # a stat and a boss's own HP field, both read
    assert names(raid, "mother veyl") > {"Mother Veyl"}  # her cards name her: whose card it is


@pytest.mark.parametrize("query, code, column", [
    ("agilty>=4", "query.field", 1),
    ("walk points<=x", "query.number", 6),
    ("name<3", "query.compare", 1),
    ("(walk", "query.syntax", 1),
    ("walk)", "query.syntax", 5),
    ('walk "open', "query.quote", 6),
    ("or walk", "query.syntax", 1),
    ("walk or", "query.syntax", 6),
    ("points:", "query.value", 1),
    ("not", "query.syntax", 1),
    ("()", "query.syntax", 1),
])
def test_a_query_that_cannot_be_read_says_where(bf, query, code, column):
    with pytest.raises(InputError) as exc:
        parse_query(query, bf)
    (problem,) = exc.value.problems
    assert (problem.code, problem.location.column) == (code, column), problem
    assert problem.message and problem.location.file == "the search"


def test_a_misspelled_field_gets_its_fix(bf):
    with pytest.raises(InputError) as exc:
        parse_query("kw:poison agilty>=4", bf)
    assert exc.value.problems[0].fix == "did you mean `agility`?"
    assert "agility" in exc.value.problems[0].expected


def test_work_is_bounded(bf):
    with pytest.raises(InputError) as exc:
        parse_query("a" * (MAX_QUERY_CHARS + 1), bf)
    assert exc.value.problems[0].code == "query.size"
    with pytest.raises(InputError) as exc:
        parse_query(" ".join(["walk"] * (MAX_QUERY_TERMS + 1)), bf)
    assert exc.value.problems[0].code == "query.size"
    parse_query(" ".join(["walk"] * MAX_QUERY_TERMS), bf)
    with pytest.raises(InputError) as exc:
        parse_query("(" * (MAX_QUERY_DEPTH + 1) + "walk" + ")" * (MAX_QUERY_DEPTH + 1), bf)
    assert exc.value.problems[0].code == "query.depth"
    assert parse_query("(" * MAX_QUERY_DEPTH + "walk" + ")" * MAX_QUERY_DEPTH, bf).cards(bf)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab :=<>!-()"or nt|agility5kw')), max_size=60))
def test_any_text_is_a_query_or_one_clear_problem(bf, text):
    try:
        query = parse_query(text, bf)
    except InputError as exc:
        assert len(exc.problems) == 1
        return
    query.cards(bf)


def test_every_pack_gets_fields_and_an_empty_query_finds_every_card():
    for folder in sorted(PACKS.iterdir()):
        if not (folder / "game.yaml").is_file():
            continue
        pack = load_pack(folder)
        fields = query_fields(pack)
        assert {"name", "text", "type", "set", "points", "kw", "side"} <= set(fields), folder.name
        assert all(f.help for f in fields.values()), folder.name
        assert len(search(pack, "")) == len(pack.cards)


def test_pnp_list_takes_the_same_search():
    from click.testing import CliRunner

    from generator.cli import main
    found = CliRunner().invoke(main, ["list", str(PACKS / "boss_fight"), "--query", "kw:poison agility>=4",
                                      "--format", "csv"])
    assert found.exit_code == 0, found.output
    assert [line.split(",")[0] for line in found.output.splitlines()[1:]] == ["envenom"]
    bad = CliRunner().invoke(main, ["list", str(PACKS / "boss_fight"), "-q", "agilty>=4"])
    assert bad.exit_code == 2 and "did you mean `agility`?" in bad.output and "Traceback" not in bad.output
