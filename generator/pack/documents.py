"""The YAML files of a run, each parsed once: a dict by `file_key` that the pack keeps
(`Pack.documents`) and shares with the same pack loaded in another language (and with `pnp
watch`'s next load), so a file is parsed again only when it changed. A parsed document is never
changed in place: a translation works on a copy (pack/translations/sources.py)."""

from __future__ import annotations

from pathlib import Path

from generator.core.yamlio import Document, load_yaml_file
from generator.pack.model import FileKey


def file_key(path: Path) -> FileKey | None:
    """What identifies a file's contents for the run's caches: its path, modification time and
    size (a file edited since, as under `pnp watch` or in a test, is read afresh)."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return (str(path), stat.st_mtime_ns, stat.st_size)


def parsed_document(documents: dict[FileKey | None, Document], path: Path) -> Document:
    """The file at `path`, parsed once: from `documents` when it has not changed since, else
    read (InputError as the reader reports it) and kept there."""
    key = file_key(path)
    if key is None:
        return load_yaml_file(path)  # reports the missing file as the reader does
    doc = documents.get(key)
    if doc is None:
        doc = documents[key] = load_yaml_file(path)
    return doc


def forget_changed(documents: dict[FileKey | None, Document]) -> None:
    """Drop the documents of files changed or removed since they were parsed (`pnp watch` keeps
    one dict over many loads: it holds each file's latest version only)."""
    for key in [key for key in documents if key is None or file_key(Path(key[0])) != key]:
        del documents[key]
