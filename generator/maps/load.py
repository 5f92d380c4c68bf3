"""Reading map files: one entry point for every grid kind (`grid: square` or hex)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from generator.core.errors import InputError, Problem
from generator.maps.model import HexMap, hex_map_from_document
from generator.maps.square import SquareMap, square_map_from_document
from generator.pack.cache import Slot
from generator.pack.documents import file_key
from generator.pack.load import pack_document
from generator.pack.model import FileKey

if TYPE_CHECKING:
    from generator.core.yamlio import Document
    from generator.pack.model import Pack


def map_id(path: Path) -> str:
    return Path(path).stem


MapModel = HexMap | SquareMap
# a function of hex and square maps alike whose cells must be of the map's own kind: checked for each
OneMap = TypeVar("OneMap", HexMap, SquareMap)
MAP_FILES: Slot[dict[tuple[str, FileKey | None], MapModel]] = Slot("map_files")  # each map by its file
MAPS: Slot[list[MapModel]] = Slot("maps")  # all of them, for the pack's map files


def load_map(pack: Pack, path: Path) -> MapModel:
    """Read a map file, built once per run (the pack keeps each map by its file). Raises
    InputError (every problem, with file:line:column) when the file is not a map; rule-level
    problems (off-grid hexes, unknown terrain) are kept for `generator.maps.checks` to report."""
    built = pack.loaded.made(MAP_FILES, dict)
    key = (str(path), file_key(path))
    if key not in built:
        built[key] = map_from_document(pack_document(pack, path), pack, map_id(path))
    return built[key]


def map_from_document(doc: Document, pack: Pack, mid: str) -> MapModel:
    """A HexMap, or (for `grid: square`) a SquareMap."""
    if not isinstance(doc.data, dict):
        raise InputError([Problem("schema.type", "a map file must be a mapping", doc.at(()),
                                  expected="title, shape, obstacles, terrain, zones",
                                  fix="see docs/maps.md for the map format")])
    if doc.data.get("grid") == "square":
        return square_map_from_document(doc, pack, mid)
    return hex_map_from_document(doc, pack, mid)


def load_pack_maps(pack: Pack) -> list[MapModel]:
    """Every map of a pack (HexMap or SquareMap), in file-name order; all unreadable files
    reported together. Read once per run: the pack keeps them."""
    def made() -> list[MapModel]:
        maps, problems = [], []
        for path in pack.map_files:
            try:
                maps.append(load_map(pack, path))
            except InputError as exc:
                problems.extend(exc.problems)
        if problems:
            raise InputError(problems)
        return maps
    return pack.loaded.fresh(MAPS, tuple(file_key(path) for path in pack.map_files), made)
