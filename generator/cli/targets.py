"""Finding the pack a target belongs to, and validating targets (packs, builds, maps)."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.report import Report
from generator.core.yamlio import display_path
from generator.pack.load import preset_results
from generator.pack.locate import is_map_file
from generator.pack.model import Pack
from generator.rules.engine import validate_build
from generator.rules.pack_checks import validate_pack_rules
from generator.share.decklist_files import is_decklist_file, load_build_file, pack_of_file


def validate_target(target: Path, points: int | str | None = None, pack_option: Path | None = None,
                    boss_build: Path | None = None, cache: dict | None = None, setup: str | None = None,
                    max_characters: int | None = None) -> list[Report]:
    """Reports for one TARGET: a pack folder (its data, presets and maps), a build file or a map file.
    `points`: a number or `none`; `setup`: how a map is checked (generator.maps.checks.check_map)."""
    if not target.exists():
        where = display_path(target)
        raise InputError([Problem("file.missing", f"no such file or folder: {where}", Location(where),
                                  expected="a pack folder, a build file or a map file",
                                  fix="check the path")])
    pack = pack_of_file(target, pack_option, cache)  # a deck list may name its pack
    if target.is_dir():
        return validate_pack(pack, points, max_characters)
    if is_map_file(target):
        return validate_map_file(pack, target, boss_build, setup or "rules")
    build = load_build_file(target, pack)  # a build YAML file or a deck list
    return [validate_build(pack, build, points, max_characters)]


def validate_pack(pack: Pack, points: int | str | None = None, max_characters: int | None = None) -> list[Report]:
    problems = []
    if getattr(pack.spec, "pieces", None) is not None:
        # deferred: the pieces' checks load ReportLab's colours, which a build or map target never needs
        from generator.render.pieces.model import check_pieces
        problems.extend(check_pieces(pack))
    reports = [pack_report(pack)]
    from generator.cli.render_check import render_problems  # what `pnp build` would stop on, drawn in memory
    errors, warnings = render_problems(pack)
    problems.extend(errors)
    reports[0].violations.extend(warnings)
    for _path, build, stopped in preset_results(pack):  # built once: the rulebook check shares them
        if build is None:
            problems.extend(stopped)
            continue
        try:
            reports.append(validate_build(pack, build, points, max_characters))
        except InputError as exc:
            problems.extend(exc.problems)
    for map_file in pack.map_files:
        try:
            # the rules' setup, and the maps' scenario zones too: the kit prints both
            reports.extend(validate_map_file(pack, map_file, None, "both"))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return reports


def pack_report(pack: Pack) -> Report:
    """The pack's own data: counts per set and type (the loader already refused broken data)."""
    report = Report(file=pack.game_file, kind="pack", name=f"{pack.spec.name} {pack.spec.version}")
    counts: dict = {}
    for card in pack.cards.values():
        counts.setdefault(card.set, {}).setdefault(card.type, 0)
        counts[card.set][card.type] += 1
    report.stats = {"cards": len(pack.cards), "by_set": counts,
                    "presets": len(pack.preset_files), "maps": len(pack.map_files)}
    report.violations.extend(validate_pack_rules(pack))
    return report


def validate_map_file(pack: Pack, path: Path, boss_build: Path | None, setup: str = "rules") -> list[Report]:
    from generator.maps import validate_map  # deferred: the map checks load both grids, which a build never needs

    if boss_build is not None and is_decklist_file(boss_build):  # the maps layer reads YAML builds only
        boss_build = load_build_file(boss_build, pack)
    return [validate_map(pack, path, boss_build, setup)]
