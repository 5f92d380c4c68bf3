"""Builds are all or nothing: a part that fails, a full disk or a SIGTERM leaves every previous
output byte-identical, stops the worker processes and leaves no temporary file behind
(signals: tests/test_signals.py)."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
SIZES = REPO / "tests" / "fixtures" / "packs" / "sizes"


def state(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


@pytest.fixture()
def built(tmp_path):
    pack = tmp_path / "sizes"
    shutil.copytree(SIZES, pack)
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["build", str(pack), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return pack, out


def test_a_failing_part_leaves_every_previous_output_unchanged(built):
    pack, out = built
    before = state(out)
    # the cards change (they would build) but a rules chapter breaks: nothing may be renamed
    cards = pack / "cards" / "others.yaml"
    cards.write_text(cards.read_text().replace("Stone Tile", "Marble Tile"))
    (pack / "rules" / "02-broken.md").write_text("# Broken\n\n{{ no_such_thing.at_all }}\n")
    res = CliRunner().invoke(main, ["build", str(pack), "-o", str(out)])
    assert res.exit_code == 2 and "rules.template" in res.output
    assert state(out) == before


def test_a_full_disk_is_one_clear_error_and_nothing_changes(built, monkeypatch):
    pack, out = built
    before = state(out)
    from reportlab.pdfgen.canvas import Canvas

    def full(self):
        raise OSError(errno.ENOSPC, "No space left on device", str(out / "cards.pdf"))

    monkeypatch.setattr(Canvas, "save", full)
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(out)])
    assert res.exit_code == 2, res.output
    assert "output.full" in res.output and "Traceback" not in res.output
    assert state(out) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to a read-only folder")
def test_a_read_only_folder_is_one_clear_error(built):
    pack, out = built
    before = state(out)
    out.chmod(0o555)
    try:
        res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(out)])
    finally:
        out.chmod(0o755)
    assert res.exit_code == 2 and "output.read-only" in res.output
    assert state(out) == before


def test_a_missing_output_folder_is_made(built, tmp_path):
    pack, _ = built
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "new" / "deeper")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "new" / "deeper" / "cards.pdf").is_file()


def test_an_empty_pack_is_refused_by_build_and_validate(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["new", "Empty", "--root", str(tmp_path)]).exit_code == 0
    pack = tmp_path / "empty"
    (pack / "cards" / "units.yaml").unlink()
    for rules in (pack / "rules").glob("*.md"):
        rules.unlink()
    res = runner.invoke(main, ["build", str(pack), "-o", str(tmp_path / "out")])
    assert res.exit_code == 2 and "build.empty" in res.output
    assert not (tmp_path / "out").exists()
    res = runner.invoke(main, ["validate", str(pack)])
    assert res.exit_code == 2 and "build.empty" in res.output


# SIGTERM and SIGINT during a build: tests/test_signals.py (swept over the whole build).


def test_a_build_file_whose_outputs_would_be_named_too_long(tmp_path):
    repo_pack = REPO / "card_data" / "tactics"
    preset = sorted((repo_pack / "presets").glob("*.yaml"))[0]
    long_build = tmp_path / ("b" * 250 + ".yaml")  # fine as a name; "<name>-cards.pdf" is over 255 bytes
    shutil.copy(preset, long_build)
    res = CliRunner().invoke(main, ["build", str(repo_pack), "--build", str(long_build), "-o", str(tmp_path / "out")])
    assert res.exit_code == 2, res.output
    assert "output.name-too-long" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    # "<name>-cards.pdf" of exactly 255 bytes is a name the file system takes: built (the temporary
    # file beside it has a short name of its own)
    exact = tmp_path / ("c" * 245 + ".yaml")
    shutil.copy(preset, exact)
    res = CliRunner().invoke(main, ["build", str(repo_pack), "--build", str(exact), "--only", "cards",
                                    "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / ("c" * 245 + "-cards.pdf")).is_file()


def test_a_build_collects_rarely_and_leaves_the_collector_as_it_was(tmp_path, monkeypatch):
    """`pnp build` raises the collector's threshold and freezes what it imported while it builds
    (cli/common.py: few_collections); run in-process, it puts both back."""
    import gc

    import generator.build
    from generator.cli.common import BUILD_GC_THRESHOLD

    seen = []
    real = generator.build.build_folder

    def watched(*args, **kwargs):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        yield from real(*args, **kwargs)

    monkeypatch.setattr(generator.build, "build_folder", watched)
    gc.unfreeze()  # a web app made earlier in this process froze its packs (web/app.py)
    before = gc.get_threshold()
    res = CliRunner().invoke(main, ["build", str(SIZES), "--only", "cards", "-q", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert seen == [(BUILD_GC_THRESHOLD, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
