"""Deck list files: a build file may be YAML or a text deck list (share/decklist.py), told
apart by its suffix. Here: reading one, finding the pack it belongs to (its folder, `--pack`,
or its `Pack:` line), and loading either kind of build file with its pack."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import Document, display_path, read_text
from generator.pack.load import build_from_document, find_pack_root, load_build
from generator.pack.locate import DEFAULT_PACK, pack_for
from generator.pack.model import Build, Pack
from generator.share.decklist import declared_pack, decklist_document

DECKLIST_SUFFIXES = (".txt", ".deck", ".dek", ".md")


def is_decklist_file(path: Path) -> bool:
    return Path(path).suffix.lower() in DECKLIST_SUFFIXES


def read_decklist(path: Path, pack: Pack) -> Document:
    """A deck list file as a build Document (size and encoding checked as for YAML files)."""
    return decklist_document(read_text(Path(path)), pack, display_path(Path(path)))


def load_build_file(path: Path, pack: Pack) -> Build:
    """A build from a YAML build file or a deck list file (by its suffix)."""
    if is_decklist_file(path):
        return build_from_document(read_decklist(path, pack), pack)
    return load_build(path, pack)


def pack_of_file(target: Path, pack_option: Path | None = None, cache: dict[str, Pack] | None = None,
                 lang: str | None = None) -> Pack:
    """`pack.locate.pack_for`, which for a deck list outside any pack folder reads its `Pack:`
    line instead of a YAML `pack:` key (no line: the flagship pack)."""
    target = Path(target)
    if pack_option is None and is_decklist_file(target) and target.is_file() and find_pack_root(target.parent) is None:
        pack_id = declared_pack(read_text(target))
        root = Path("card_data") / pack_id if pack_id else DEFAULT_PACK
        if not (root / "game.yaml").is_file():
            raise InputError([Problem("build.pack", f"no pack `{pack_id}` in card_data/",
                                      Location(display_path(target)), found=pack_id, expected="a folder in card_data/",
                                      fix="correct the `Pack:` line, or pass --pack card_data/<pack>")])
        return pack_for(target, root, cache, lang)
    return pack_for(target, pack_option, cache, lang)


def load_target(path: Path, pack_option: Path | None = None) -> tuple[Pack, Build]:
    """The pack and build of a build file (YAML or a deck list), found the way `pnp validate` finds them."""
    path = Path(path)
    if not path.is_file():
        where = display_path(path)
        raise InputError([Problem("file.missing", f"no such build file: {where}", Location(where),
                                  expected="a build file (YAML) or a deck list (.txt)", fix="check the path")])
    pack = pack_of_file(path, pack_option)
    return pack, load_build_file(path, pack)
