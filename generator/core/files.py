"""Safe file writing: every output appears whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from generator.core import staging


@contextlib.contextmanager
def atomic_output(path: Path, suffix: str = ".pdf") -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it into place only if the block succeeds
    (during a build: only if the whole build succeeds, see core/staging.py), so a failed build
    never leaves a half-written file or loses the previous one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=staging.temp_prefix(path.name), suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes files private; outputs are ordinary files
        staging.finish(Path(tmp), path)  # now, or with every other output when the build succeeds
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically (nothing half-written)."""
    with atomic_output(Path(path), suffix=".yaml") as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
