"""Names survive a deck list exactly (issue 37): a build's name, its characters' names and its
notes, whatever the build model accepts (spaces at either end, line breaks, control
characters, quotes), go through `pnp decklist` → text → import unchanged. Where the text
format cannot hold a value as it is, it is written as a JSON string (docs/decklist.md)."""

from __future__ import annotations

import copy
import re

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import REPO
from generator.cli import main
from generator.core.errors import InputError
from generator.core.yamlio import Document, load_yaml_file
from generator.pack.load import build_from_document, load_pack
from generator.share.decklist import format_decklist, parse_decklist
from generator.share.decklist_files import load_build_file

PACK_DIR = REPO / "card_data" / "tactics"
PRESET = PACK_DIR / "presets" / "dawn-ridge-wardens.yaml"
_PACK = {}


def pack():
    if "pack" not in _PACK:
        _PACK["pack"] = load_pack(PACK_DIR)
    return _PACK["pack"]


def loaded(data: dict):
    doc = Document("build.yaml", None)
    doc.data = data
    return build_from_document(doc, pack())


def with_names(name, character, notes) -> dict:
    data = copy.deepcopy(load_yaml_file(PRESET).data)
    data["name"] = name
    if character is not None:
        data["characters"][1]["name"] = character
    if notes is not None:
        data["notes"] = notes
    return data


def names_of(build) -> tuple:
    return build.name, [c.name for c in build.characters], build.notes


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.text(min_size=1, max_size=80), character=st.none() | st.text(min_size=1, max_size=80),
       notes=st.none() | st.text(max_size=400))
def test_any_name_the_build_model_accepts_round_trips(name, character, notes):
    try:
        original = loaded(with_names(name, character, notes))
    except InputError:
        assume(False)  # not a build: the model refuses it (a name over 80 characters, say)
    text = format_decklist(original, pack())
    assert all(len(line) <= 12 + 6 * 2000 for line in text.splitlines())
    again = loaded(parse_decklist(text, pack(), "build.txt"))
    assert names_of(again) == names_of(original)
    assert format_decklist(again, pack()) == text  # and writing it again changes nothing


NASTY = ["  Grim Tide  ", "Grim\nTide", "\tTabbed", "\"Quoted\"", "Line\u2028Break", "\x1b[31mRed", " ", "C:\\path\\",
         "Trailing nbsp\u00a0", "#1 Fan", "//not a comment", "Notes: x", "Trojan\u202eecruoS", "Iso\u2067late\u2069"]


@pytest.mark.parametrize("name", NASTY)
def test_a_nasty_name_through_the_command_and_a_file(name, tmp_path):
    build = tmp_path / "build.yaml"
    build.write_text(yaml.safe_dump(with_names(name, name, f"{name}\n\n  second line  ")), encoding="utf-8")
    result = CliRunner().invoke(main, ["decklist", str(build), "--pack", str(PACK_DIR), "-o", str(tmp_path / "b.txt")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "b.txt").read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(text.split("\n")) - 1  # each value on its one line
    assert not re.search("[\u202a-\u202e\u2066-\u2069]", text)  # no line turned around as it is shown
    again = load_build_file(tmp_path / "b.txt", pack())
    assert names_of(again) == names_of(load_build_file(build, pack()))


def test_plain_names_stay_plain():
    text = format_decklist(loaded(with_names("The Ridge Wardens", "Old Bastion", "Play it fast.\nThen slow.")), pack())
    assert text.startswith("# The Ridge Wardens\n") and "## Old Bastion\n" in text
    assert "Notes: Play it fast.\nNotes: Then slow.\n" in text
    text = format_decklist(loaded(with_names("  Grim\nTide ", None, None)), pack())
    assert text.startswith('# "  Grim\\nTide "\n')


def test_names_written_as_they_are_do_not_round_trip_self_test(tmp_path, monkeypatch):
    """The tests above bite: a deck list that wrote every name as it is (before issue 37) loses
    the spaces at a name's ends, and its notes' second line reads back as a card."""
    monkeypatch.setattr("generator.share.decklist._quoted", str)
    with pytest.raises((AssertionError, InputError)):
        test_a_nasty_name_through_the_command_and_a_file("  Grim Tide  ", tmp_path)


def test_a_name_that_would_turn_its_line_around_is_escaped_on_the_terminal(tmp_path):
    """A bidirectional override in a build's name is shown as `\\u202e`, never sent to the
    terminal, where it would reverse the rest of the line."""
    build = tmp_path / "build.yaml"
    build.write_text(yaml.safe_dump(with_names("Tide\u202e stniop 0", "Bastion\u2067x", None)), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(build), "--pack", str(PACK_DIR)])
    assert result.exit_code == 0, result.output
    assert "Tide\\u202e stniop 0" in result.output and "Bastion\\u2067x" in result.output
    assert not re.search("[\u202a-\u202e\u2066-\u2069]", result.output)


def test_a_build_naming_a_card_the_pack_lacks_gets_no_deck_list(tmp_path):
    """A deck list names cards by name: one the pack lacks would have been written as its id under
    an empty `##` and refused on the way back in. Refused here, in the validator's words."""
    data = with_names("Typo", None, None)
    data["characters"][1]["unit"] = "cliff-runnr"
    build = tmp_path / "typo.yaml"
    build.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["decklist", str(build), "--pack", str(PACK_DIR), "-o", str(tmp_path / "b.txt")])
    assert result.exit_code == 2, result.output
    assert "card.unknown cannot write a deck list of this build: no card with the id `cliff-runnr`" in result.output
    assert "did you mean `cliff-runner`" in result.output and not (tmp_path / "b.txt").exists()
