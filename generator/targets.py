"""Finding the pack a target belongs to, and validating targets (packs, builds, maps)."""

from __future__ import annotations

from pathlib import Path

from generator.decklist import decklist_pack_id, is_decklist_file, load_build_file
from generator.errors import InputError, Location, Problem
from generator.load import find_pack_root, load_build, load_pack
from generator.model import Pack
from generator.rules import validate_build
from generator.rules.pack_checks import validate_pack_rules
from generator.rules.report import Report
from generator.yamlio import display_path, load_yaml_file

DEFAULT_PACK = Path("card_data/boss_fight")


def pack_for(target: Path, pack_option: Path | None = None, cache: dict | None = None) -> Pack:
    """The pack of a build or map file: --pack, else the pack folder it sits in, else its `pack:` key."""
    cache = {} if cache is None else cache
    root = Path(pack_option) if pack_option else find_pack_root(target.parent if target.is_file() else target)
    if root is None and target.is_file() and is_decklist_file(target):
        pack_id = decklist_pack_id(target)  # a deck list's `Pack:` line, else the flagship pack
        root = Path("card_data") / pack_id if pack_id else DEFAULT_PACK
        if not (root / "game.yaml").is_file():
            raise InputError([Problem("build.pack", f"no pack `{pack_id}` in card_data/",
                                      Location(display_path(target)), found=pack_id, expected="a folder in card_data/",
                                      fix="correct the `Pack:` line, or pass --pack card_data/<pack>")])
    if root is None and target.is_file():
        doc = load_yaml_file(target)
        pack_id = doc.data.get("pack") if isinstance(doc.data, dict) else None
        if isinstance(pack_id, str) and (Path("card_data") / pack_id / "game.yaml").is_file():
            root = Path("card_data") / pack_id
        else:
            raise InputError([Problem(
                "build.pack", "cannot tell which game pack this file belongs to",
                doc.at(("pack",)) if isinstance(doc.data, dict) and "pack" in doc.data else Location(doc.file),
                found=str(pack_id) if pack_id else None, expected="a `pack:` naming a folder in card_data/",
                fix="add `pack: boss_fight`, or pass --pack card_data/boss_fight")])
    if root is None:
        where = display_path(target)
        raise InputError([Problem("pack.missing", f"{where} is not a game pack (no game.yaml in it or above it)",
                                  Location(where), expected="a pack folder, a build file or a map file",
                                  fix="give the pack folder, e.g. card_data/boss_fight")])
    key = str(Path(root).resolve())
    if key not in cache:
        cache[key] = load_pack(Path(root))
    return cache[key]


def is_map_file(path: Path) -> bool:
    return path.parent.name == "maps"


def validate_target(target: Path, points: int | None = None, pack_option: Path | None = None,
                    boss_build: Path | None = None, cache: dict | None = None) -> list[Report]:
    """Reports for one TARGET: a pack folder (its data, presets and maps), a build file or a map file."""
    if not target.exists():
        where = display_path(target)
        raise InputError([Problem("file.missing", f"no such file or folder: {where}", Location(where),
                                  expected="a pack folder, a build file or a map file",
                                  fix="check the path")])
    pack = pack_for(target, pack_option, cache)
    if target.is_dir():
        return validate_pack(pack, points)
    if is_map_file(target):
        return validate_map_file(pack, target, boss_build)
    build = load_build_file(target, pack)  # a build YAML file or a deck list
    return [validate_build(pack, build, points)]


def validate_pack(pack: Pack, points: int | None = None) -> list[Report]:
    problems = []
    if getattr(pack.spec, "pieces", None) is not None:
        from generator.render.pieces import check_pieces
        problems.extend(check_pieces(pack))
    reports = [pack_report(pack)]
    for preset in pack.preset_files:
        try:
            reports.append(validate_build(pack, load_build(preset, pack), points))
        except InputError as exc:
            problems.extend(exc.problems)
    for map_file in pack.map_files:
        try:
            reports.extend(validate_map_file(pack, map_file, None))
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


def validate_map_file(pack: Pack, path: Path, boss_build: Path | None) -> list[Report]:
    try:
        from generator.maps import validate_map
    except ImportError:  # maps arrive with the hex map module
        return []
    return [validate_map(pack, path, boss_build)]
