"""Every player-visible string of a pack, in the order a translator meets them: game.yaml, the
cards file by file, the presets, the maps, the rules chapters, the words of the layouts and
rulebook pages the pack uses, then pnp's own words (pack/translations/own.py). `pnp translate` writes them; a translated load counts what
of them falls back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.core.errors import InputError, ProblemList
from generator.core.yamlio import Document, display_path, load_yaml_file
from generator.pack.documents import parsed_document
from generator.pack.model import Pack
from generator.pack.sheets.fetch import sheet_sources
from generator.pack.sheets.source import load_sheet_documents
from generator.pack.translations.chapters import chapter_sources
from generator.pack.translations.layouts import layout_sources
from generator.pack.translations.own import own_sources
from generator.pack.translations.sources import card_sources, game_sources, map_sources, preset_sources
from generator.pack.translations.table import Source


def relative(root: Path, path: Path) -> str:
    """A pack file's name in a reference: relative to the pack (`rules/01-introduction.md`)."""
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return display_path(path)


Read = Callable[[Path], Document]


def _yaml(path: Path, make: Callable[[Document, str], list[Source]], root: Path, read: Read) -> list[Source]:
    try:
        doc = read(path)
    except InputError:
        return []  # the presets and maps report their own files
    return make(doc, relative(root, path))


def other_sources(root: Path, preset_files: list[Path], map_files: list[Path], rule_files: list[Path],
                  read: Read = load_yaml_file) -> list[Source]:
    """The strings of a pack's presets, maps, chapters and the templates it uses; `read` parses
    a YAML file (the run's parsed files: pack/documents.py)."""
    out: list[Source] = []
    for path in preset_files:
        out += _yaml(path, preset_sources, root, read)
    for path in map_files:
        out += _yaml(path, map_sources, root, read)
    for path in rule_files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the rulebook reports it
        out += chapter_sources(text, relative(root, path))
    return out + layout_sources(root, read) + own_sources()


def pack_sources(pack: Pack) -> list[Source]:
    """The strings of a pack loaded in its own language."""
    root = Path(pack.root)
    def read(path: Path) -> Document:
        return parsed_document(pack.documents, path)

    out = game_sources(read(root / "game.yaml"))
    for path in sorted((root / "cards").glob("*.yaml")):
        out += card_sources(read(path), pack.spec)
    problems = ProblemList()
    for doc in load_sheet_documents(sheet_sources(root, problems.problems), pack.spec, pack.cards, problems):
        out += card_sources(doc, pack.spec)
    return out + other_sources(root, pack.preset_files, pack.map_files, pack.rule_files, read)
