"""`validate_target`: any target of `pnp validate` (a pack folder, a build file or deck list,
a map file), dispatched by its kind to builds.py, packs.py or maps.py."""

from __future__ import annotations

from pathlib import Path

from generator.core.report import Report
from generator.pack.model import Pack
from generator.share.decklist_files import pack_of_file
from generator.validate.builds import target_kind, validate_build_target
from generator.validate.maps import validate_map_file
from generator.validate.packs import validate_pack


def validate_target(target: Path, points: int | str | None = None, pack_option: Path | None = None,
                    boss_build: Path | None = None, cache: dict[str, Pack] | None = None, setup: str | None = None,
                    max_characters: int | None = None, lang: str | None = None, strict: bool = False,
                    parallel: bool = False) -> list[Report]:
    """Reports for one TARGET: a pack folder (its data, presets and maps), a build file or a map file.
    `points`: a number or `none`; `setup`: how a map is checked (generator.maps.checks.check_map);
    `parallel`: a pack's languages drawn at once, in worker processes (drawn.py)."""
    kind = target_kind(target)
    if kind == "build":
        return validate_build_target(target, points, pack_option, cache, max_characters, lang)
    pack = pack_of_file(target, pack_option, cache, lang)
    if kind == "pack":
        return validate_pack(pack, points, max_characters, strict, parallel=parallel)
    return validate_map_file(pack, target, boss_build, setup or "rules")
