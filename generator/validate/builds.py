"""A build target of `pnp validate` (a build YAML file or a deck list), and what kind a target
is. Nothing here loads a renderer or a map: the command line checks a build through this
module alone, and loads `target` (packs and maps) only for the other kinds."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.report import Report
from generator.core.yamlio import display_path
from generator.pack.locate import is_map_file
from generator.pack.model import Pack
from generator.rules.engine import validate_build
from generator.share.decklist_files import load_build_file, pack_of_file


def target_kind(target: Path) -> str:
    """`pack` (a folder), `map` (a map file) or `build` (a build file or deck list); a path that
    does not exist is an InputError."""
    try:
        target.stat()
    except OSError as exc:  # missing, a name too long, a loop of links, a file on the way...
        where = display_path(target)
        missing = isinstance(exc, FileNotFoundError)
        raise InputError([Problem("file.missing" if missing else "file.unreadable",
                                  f"no such file or folder: {where}" if missing else f"cannot read {where}: "
                                  f"{exc.strerror or exc}", Location(where),
                                  expected="a pack folder, a build file or a map file",
                                  fix="check the path")]) from None
    if target.is_dir():
        return "pack"
    return "map" if is_map_file(target) else "build"


def validate_build_target(target: Path, points: int | str | None = None, pack_option: Path | None = None,
                          cache: dict[str, Pack] | None = None, max_characters: int | None = None,
                          lang: str | None = None) -> list[Report]:
    """The report of one build file or deck list, checked against its pack's rules (in the
    language `lang`: its messages as the translation words them)."""
    pack = pack_of_file(target, pack_option, cache, lang)  # a deck list may name its pack
    build = load_build_file(target, pack)  # a build YAML file or a deck list
    return [validate_build(pack, build, points, max_characters)]
