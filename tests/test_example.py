"""`pnp example`: a shipped game copied into a folder the user owns, its `$schema` lines pointing
at schemas written into the copy; `pnp new` packs carry schemas the same way."""

from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from conftest import REPO
from generator.cli import main
from generator.pack.examples import copy_example, example_games

SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def schema_lines(pack):
    """(yaml file, the schema file its first line names) for every YAML file with such a line."""
    found = []
    for path in sorted(pack.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        if m := SCHEMA_LINE.match(first):
            found.append((path, (path.parent / m[1]).resolve()))
    return found


def assert_schemas_resolve_inside_and_accept(pack, expected_files):
    lines = schema_lines(pack)
    assert {p.relative_to(pack).as_posix() for p, _ in lines} >= expected_files
    for path, schema in lines:
        assert schema.parent == (pack / "schemas").resolve(), f"{path} names {schema}, outside the pack"
        validator = Draft202012Validator(json.loads(schema.read_text(encoding="utf-8")))
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))]
        assert errors == [], f"{path}: {errors[:3]}"


def test_example_copies_boss_fight_into_a_new_folder_with_its_schemas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["example"])
    assert result.exit_code == 0, result.output
    copy = tmp_path / "boss_fight"
    source = REPO / "card_data" / "boss_fight"
    shipped = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file() and ".cache" not in p.parts)
    copied = sorted(p.relative_to(copy) for p in copy.rglob("*") if p.is_file() and p.parts[-2:-1] != ("schemas",))
    assert copied == shipped
    # the data is the same, only the $schema lines now point into the copy
    for rel in shipped:
        original, mine = (source / rel).read_bytes(), (copy / rel).read_bytes()
        if original != mine:
            assert original.split(b"\n")[1:] == mine.split(b"\n")[1:] and b"$schema=" in mine.split(b"\n")[0], rel
    assert_schemas_resolve_inside_and_accept(copy, {"game.yaml", "cards/heroes.yaml", "presets/party-oathsworn.yaml"})
    monkeypatch.chdir(copy)
    assert CliRunner().invoke(main, ["validate"]).exit_code == 0


def test_example_refuses_a_folder_that_is_not_empty_and_names_unknown_games(tmp_path):
    runner = CliRunner()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    res = runner.invoke(main, ["example", "tactics", str(tmp_path / "mine")])
    assert res.exit_code == 2 and "already exists and is not an empty folder" in res.output
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    (tmp_path / "empty").mkdir()  # an empty folder is fine
    assert runner.invoke(main, ["example", "tactics", str(tmp_path / "empty")]).exit_code == 0
    assert (tmp_path / "empty" / "game.yaml").is_file()
    res = runner.invoke(main, ["example", "taktics", str(tmp_path / "other")])
    assert res.exit_code == 2 and "no example game `taktics`" in res.output and "pnp example tactics" in res.output
    assert not (tmp_path / "other").exists()


def test_example_list_names_every_shipped_game_with_one_line():
    res = CliRunner().invoke(main, ["example", "--list"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert [line.split()[0] for line in lines] == sorted(p.parent.name for p in (REPO / "card_data").glob("*/game.yaml"))
    assert all(len(line.split(None, 1)) == 2 and line.endswith(".") for line in lines)
    assert "tactics" in res.output and "Stepfall: " in res.output  # the id and the game's own name


def test_an_installed_wheels_example_archive_copies_as_the_folder_does(tmp_path):
    """A wheel holds each example as setup.py's <game>.tar.xz (tests/test_install.py installs one):
    listed with the same line, copied into the same files, byte for byte (Boss Fight's German
    translations/de.po too, as plain text), at under a third of their size."""
    archive_example = runpy.run_path(str(REPO / "setup.py"), run_name="setup")["archive_example"]
    shipped = tmp_path / "card_data"
    shipped.mkdir()
    source = REPO / "card_data" / "boss_fight"
    archive_example(source, shipped / "boss_fight.tar.xz")
    files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file() and ".cache" not in p.parts
                   and "__pycache__" not in p.parts)
    assert (shipped / "boss_fight.tar.xz").stat().st_size * 3 < sum((source / rel).stat().st_size for rel in files)
    assert example_games(shipped) == {"boss_fight": example_games()["boss_fight"]}
    from_archive = copy_example("boss_fight", tmp_path / "a", where=shipped)
    from_folder = copy_example("boss_fight", tmp_path / "b")
    copied = sorted(p.relative_to(from_archive) for p in from_archive.rglob("*") if p.is_file())
    assert copied == sorted(p.relative_to(from_folder) for p in from_folder.rglob("*") if p.is_file())
    assert {Path("translations/de.po"), Path("game.yaml")} <= set(copied)
    assert all((from_archive / rel).read_bytes() == (from_folder / rel).read_bytes() for rel in copied)


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_new_pack_schemas_resolve_inside_the_pack(tmp_path, size):
    res = CliRunner().invoke(main, ["new", "Star Harvest", "--root", str(tmp_path), "--size", size])
    assert res.exit_code == 0, res.output
    pack = tmp_path / "star_harvest"
    assert_schemas_resolve_inside_and_accept(pack, {"game.yaml", "cards/units.yaml", "templates/cards/unit.yaml"}
                                             | ({"templates/cards/back.yaml"} if size != "poker" else set()))
