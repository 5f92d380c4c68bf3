"""A map target of `pnp validate`, and each map of a pack target."""

from __future__ import annotations

from pathlib import Path

from generator.core.report import Report
from generator.maps import validate_map
from generator.pack.model import Build, Pack
from generator.share.decklist_files import is_decklist_file, load_build_file


def validate_map_file(pack: Pack, path: Path, boss_build: Path | None, setup: str = "rules") -> list[Report]:
    """The report of one map file; `boss_build` (a YAML build or a deck list): a boss build to
    fit on the map; `setup`: how the map is checked (generator.maps.checks.check_map)."""
    boss: Path | Build | None = boss_build
    if boss_build is not None and is_decklist_file(boss_build):  # the maps layer reads YAML builds only
        boss = load_build_file(boss_build, pack)
    return [validate_map(pack, path, boss, setup)]
