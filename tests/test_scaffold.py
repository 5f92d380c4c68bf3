"""`pnp new` makes a pack that validates and builds, and refuses to overwrite."""

from __future__ import annotations

from click.testing import CliRunner

from generator.cli import main


def test_new_pack_validates_and_builds(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["new", "Star Harvest", "--root", str(tmp_path)])
    assert res.exit_code == 0, res.output
    pack = tmp_path / "star_harvest"
    assert (pack / "game.yaml").read_text().count("name: Star Harvest") == 1
    res = runner.invoke(main, ["validate", str(pack)])
    assert res.exit_code == 0, res.output
    assert "1 cards" in res.output
    res = runner.invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / "cards.pdf").stat().st_size > 1000


def test_new_refuses_an_existing_folder(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["new", "dup", "--root", str(tmp_path)]).exit_code == 0
    res = runner.invoke(main, ["new", "dup", "--root", str(tmp_path)])
    assert res.exit_code == 2
    assert "already exists" in res.output
