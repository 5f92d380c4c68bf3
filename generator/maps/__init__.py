"""maps: the map file formats (hex maps, and square maps with heights: `grid: square`), the
checks that a game is playable on a map (footprints, parties, reachability), and the entry
points `pnp validate` uses. Drawing lives in generator.render.maps.

May import: generator.core, generator.grids, generator.pack. Never rules, render or cli."""

from __future__ import annotations

from pathlib import Path

from generator.core.report import Report
from generator.maps.checks import Footprint, check_map, footprint_of, largest_party, preset_footprints
from generator.maps.load import load_map, load_pack_maps
from generator.maps.model import HexMap
from generator.maps.reach import check_square_map
from generator.maps.square import SquareMap
from generator.pack.load import load_build, load_presets
from generator.pack.model import Build, Pack

__all__ = ["Footprint", "HexMap", "load_map", "load_pack_maps", "validate_map", "validate_hexmap"]


def validate_map(pack: Pack, path: Path, boss_build: Path | Build | None = None, setup: str = "rules") -> Report:
    """Check one map file. With `boss_build`, the map must hold that build's footprint;
    (a build file, or a Build already loaded); without it, every preset of a footprint side (the pack's bosses) must fit. `setup`: see
    generator.maps.checks.check_map (`rules`, `zones` or `both`)."""
    hexmap = load_map(pack, Path(path))
    if isinstance(hexmap, SquareMap):
        violations, stats = check_square_map(hexmap, pack)
        return Report(file=hexmap.file, kind="map", name=hexmap.title, violations=violations, stats=stats)
    builds = load_presets(pack)
    if boss_build is not None:
        build = boss_build if isinstance(boss_build, Build) else load_build(Path(boss_build), pack)
        footprints = [footprint_of(pack, build)]
    else:
        footprints = preset_footprints(pack, builds)
    return validate_hexmap(hexmap, pack, footprints, largest_party(pack, builds), setup)


def validate_hexmap(hexmap: HexMap, pack: Pack, footprints: list[Footprint], party: int,
                    setup: str = "rules") -> Report:
    violations, stats = check_map(hexmap, pack, footprints, party, setup)
    return Report(file=hexmap.file, kind="map", name=hexmap.title, violations=violations, stats=stats)
