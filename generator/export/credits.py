"""CREDITS.txt in every output folder: who made the art the outputs print, and under which
licence (generator/pack/credits.py says what; here it is written)."""

from __future__ import annotations

from pathlib import Path

from generator.core.files import atomic_output
from generator.pack.credits import CREDITS_FILE, pack_credits
from generator.pack.model import Pack


def write_credits(folder: Path, pack: Pack) -> Path:
    """CREDITS.txt into a folder an export is assembling (the folder is staged as a whole)."""
    path = Path(folder) / CREDITS_FILE
    path.write_text(pack_credits(pack).text(), encoding="utf-8")
    return path


def credits_output(out: Path, pack: Pack) -> Path:
    """CREDITS.txt beside a build's files, renamed into place with them (core/staging.py)."""
    path = Path(out) / CREDITS_FILE
    with atomic_output(path, suffix=".txt") as tmp:
        Path(tmp).write_text(pack_credits(pack).text(), encoding="utf-8")
    return path
