"""Safe file writing: every output appears whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


@contextlib.contextmanager
def atomic_output(path: Path, suffix: str = ".pdf"):
    """Yield a temporary path beside `path`; rename it into place only if the block succeeds,
    so a failed build never leaves a half-written file or loses the previous one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes files private; outputs are ordinary files
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically (nothing half-written)."""
    with atomic_output(Path(path), suffix=".yaml") as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
