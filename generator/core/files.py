"""Safe file writing: every output appears whole or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from generator.core import staging

NAME_MAX = 255  # bytes in one file name, on the file systems people use (ext4, APFS, NTFS)


@contextlib.contextmanager
def atomic_output(path: Path, suffix: str = ".pdf") -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it into place only if the block succeeds
    (during a build: only if the whole build succeeds, see core/staging.py), so a failed build
    never leaves a half-written file or loses the previous one."""
    path = Path(path)
    try:  # where the file goes, before any work: one clear error for a folder it cannot use
        if len(os.fsencode(path.name)) > NAME_MAX:
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(path))
        staging.make_folder(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=staging.temp_prefix(path.name), suffix=suffix, dir=path.parent)
    except OSError as exc:
        raise staging.output_error(exc, path) from None
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes files private; outputs are ordinary files
        try:
            staging.finish(Path(tmp), path)  # now, or with every other output when the build succeeds
        except OSError as exc:  # a folder put where the file goes, the folder gone meanwhile
            raise staging.output_error(exc, path) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically (nothing half-written)."""
    with atomic_output(Path(path), suffix=".yaml") as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
