"""Finding the pack a file belongs to: --pack, else the pack folder it sits in, else its
`pack:` key; and loading a build together with its pack."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import display_path, load_yaml_file
from generator.pack.load import find_pack_root, load_pack

if TYPE_CHECKING:
    from generator.pack.model import Pack

DEFAULT_PACK = Path("card_data/boss_fight")


def pack_for(target: Path, pack_option: Path | None = None, cache: dict[str, Pack] | None = None, lang: str | None = None) -> Pack:
    """The pack of a build or map file: --pack, else the pack folder it sits in, else its `pack:` key;
    in the language `lang` when one is given (pack/translations)."""
    cache = {} if cache is None else cache
    root = Path(pack_option) if pack_option else find_pack_root(target.parent if target.is_file() else target)
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
    key = str(Path(root).resolve()) + (f"#{lang}" if lang else "")
    if key not in cache:
        cache[key] = load_pack(Path(root), lang=lang)
    return cache[key]


def is_map_file(path: Path) -> bool:
    return path.parent.name == "maps"
