"""Hostile paths on the command line (issue 37, found while hunting): outputs under a file,
in /proc, with a 300-character name, a target name too long to look at, a folder that is no
pack for `serve` and `watch`. Each is one clear error and exit 2, never a traceback, a hang,
or a half-written file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
PACK = REPO / "card_data" / "tactics"
PRESET = PACK / "presets" / "dawn-ridge-wardens.yaml"
LONG = "a" * 300

# the commands that write one file (-o FILE), and the file's suffix
ONE_FILE = {
    "decklist": (["decklist", str(PRESET)], ".txt"),
    "roster": (["roster", str(PRESET)], ".pdf"),
    "list": (["list", str(PACK)], ".txt"),
    "export-sheet": (["export-sheet", str(PACK)], ".csv"),
}


def _one_error(result, code: str | None = None) -> None:
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if code is not None:
        assert code in result.output, result.output


def _where(tmp_path: Path, kind: str, suffix: str) -> Path:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    return {"under a file": tmp_path / "notes.txt" / f"out{suffix}",
            "in /proc": Path("/proc") / f"pnp-out{suffix}",
            "a 300-character name": tmp_path / f"{LONG}{suffix}"}[kind]


@pytest.mark.parametrize("kind", ["under a file", "in /proc", "a 300-character name"])
@pytest.mark.parametrize("command", sorted(ONE_FILE))
def test_one_file_outputs_a_command_cannot_write(command, kind, tmp_path):
    args, suffix = ONE_FILE[command]
    target = _where(tmp_path, kind, suffix)
    if kind == "in /proc" and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    _one_error(CliRunner().invoke(main, [*args, "-o", str(target)]), "output.")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no temporary file left


@pytest.mark.parametrize("kind", ["under a file", "in /proc", "a 300-character name"])
def test_schema_folders_it_cannot_write(kind, tmp_path):
    target = _where(tmp_path, kind, "")
    if kind == "in /proc" and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    _one_error(CliRunner().invoke(main, ["schema", "--pack", str(PACK), "-o", str(target)]), "output.")


def test_a_target_whose_name_is_too_long_to_look_at(tmp_path):
    for command in (["validate"], ["decklist"], ["roster"]):
        _one_error(CliRunner().invoke(main, [*command, str(tmp_path / LONG)]))


def test_serve_and_watch_a_folder_with_no_pack(tmp_path):
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", Path("/proc")):
        if not folder.is_dir():
            continue
        _one_error(CliRunner().invoke(main, ["serve", str(folder), "--port", "0"]), "pack.missing")
        _one_error(CliRunner().invoke(main, ["watch", str(folder), "-o", str(tmp_path / "out")]), "pack.missing")
