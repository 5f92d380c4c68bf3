"""All-or-nothing output: while a build runs, every finished file (and every finished folder,
for the PNG and TTS exports) waits under a temporary name carrying the build's token; only
when every part has succeeded are they all renamed into place. A build that fails, or is
stopped by SIGINT or SIGTERM, removes its temporary files and leaves every previous output
byte-identical.

A build killed with SIGKILL leaves its temporary files; the next build into the folder
removes those whose build is no longer running (`sweep_stale`; the token names the process).

Outside a build (a roster, a schema, a test) nothing is staged: `finish` renames at once.
Worker processes stage into the same token and hand their list back to the parent.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import display_path

Pending = tuple[str, str, bool]  # (temporary path, final path, is a folder), as text: it travels from workers


@dataclass
class Stage:
    token: str
    pending: list[Pending] = field(default_factory=list)


# The stage of the build running in this thread or task. A context variable, not a module
# global: the web builder makes PDFs for several requests at once on worker threads, and each
# must stage (or not) on its own.
_STAGE: ContextVar[Stage | None] = ContextVar("pnp_stage", default=None)


def new_token() -> str:
    """`pnp<pid>x<random>`: the process id lets a later build tell a dead build's leftovers
    (it was killed with SIGKILL, or the machine stopped) from a running build's files."""
    return f"pnp{os.getpid():x}x{secrets.token_hex(4)}"


_TOKEN_IN_NAME = re.compile(r"\.pnp([0-9a-f]+)x[0-9a-f]{8}\.")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


def _walk_outputs(root: Path) -> Iterator[tuple[str, list[str], list[str]]]:
    """(folder, dirs, files) where outputs and their temporary copies sit: `root` and at most
    two levels below (out/tts/maps)."""
    for folder, dirs, files in os.walk(root, topdown=True):
        if len(Path(folder).relative_to(root).parts) >= 2:
            dirs[:] = []
        yield folder, dirs, files


def sweep_stale(root: Path) -> list[str]:
    """Remove the hidden temporary files and folders that builds no longer running left under
    `root` (a build killed with SIGKILL cannot clean up after itself); returns their names."""
    removed: list[str] = []
    if not root.is_dir():
        return removed
    for folder, dirs, files in _walk_outputs(root):
        for name in list(dirs) + files:
            match = _TOKEN_IN_NAME.search(name)
            if not name.startswith(".") or match is None or _running(int(match.group(1), 16)):
                continue
            path = Path(folder) / name
            if name in dirs:
                shutil.rmtree(path, ignore_errors=True)
                dirs.remove(name)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(path)
            removed.append(name)
    return removed


def temp_prefix(name: str) -> str:
    """Prefix of a temporary file beside `name`: hidden, and with the build's token so an
    interrupted build can find every one it made; the name cut to 60 characters, so a long
    name leaves room for the rest of a file name."""
    name = name[:60]
    stage = _STAGE.get()
    return f".{name}.{stage.token}." if stage is not None else f".{name}."


def make_folder(folder: Path) -> None:
    """Make `folder` and the folders above it that are missing; a file on the way is the error
    ENOTDIR naming that file (mkdir would say the file "exists")."""
    for above in [folder, *folder.parents]:
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(above))
            break
    folder.mkdir(parents=True, exist_ok=True)


def finish(tmp: Path, final: Path, folder: bool = False) -> None:
    """A finished output: rename it now, or (during a build) when the whole build succeeds."""
    stage = _STAGE.get()
    if stage is not None:
        stage.pending.append((str(tmp), str(final), folder))
    elif folder:
        replace_dir(Path(tmp), Path(final))
    else:
        os.replace(tmp, final)


def replace_dir(tmp: Path, folder: Path) -> None:
    """Swap a finished folder into place, so a failed export leaves the old one whole."""
    if folder.exists():
        old = folder.with_name(f".{folder.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(folder, old)
        os.replace(tmp, folder)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, folder)


@contextlib.contextmanager
def staged(token: str) -> Iterator[Stage]:
    """Stage every output finished inside the block; yields the Stage (its `pending` list)."""
    stage = Stage(token)
    outer = _STAGE.set(stage)
    try:
        yield stage
    finally:
        _STAGE.reset(outer)


@contextlib.contextmanager
def unstaged() -> Iterator[None]:
    """For work files inside a staged folder (the PDF a PNG export rasterizes): written at once."""
    outer = _STAGE.set(None)
    try:
        yield
    finally:
        _STAGE.reset(outer)


def commit(pending: list[Pending]) -> None:
    """Rename every staged output into place. Files that belong inside a staged folder (a TTS
    folder's maps/) move into that folder's temporary copy first, so the swap keeps them."""
    folders = [(Path(t), Path(f)) for t, f, is_dir in pending if is_dir]
    files = []
    for t, f, is_dir in pending:
        if is_dir:
            continue
        final = Path(f)
        home = next(((ft, ff) for ft, ff in folders if ff in final.parents), None)
        if home is not None:
            target = home[0] / final.relative_to(home[1])
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(t, target)
        else:
            files.append((t, final))
    for tmp, folder in folders:
        replace_dir(tmp, folder)
    for temp, final in files:
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(temp, final)


def discard(pending: list[Pending], root: Path, token: str) -> None:
    """Remove what a failed or stopped build made: its staged outputs, and any temporary file
    or folder carrying its token under `root` (a worker stopped half-way leaves those)."""
    for t, _f, is_dir in pending:
        if is_dir:
            shutil.rmtree(t, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(t)
    if not root.is_dir():
        return
    for folder, dirs, files in _walk_outputs(root):
        for name in list(dirs):
            if token in name:
                shutil.rmtree(Path(folder) / name, ignore_errors=True)
                dirs.remove(name)
        for name in files:
            if token in name:
                with contextlib.suppress(OSError):
                    os.unlink(Path(folder) / name)


OUTPUT_ERRORS = {
    errno.EACCES: ("output.read-only", "is not writable", "a folder you may write to",
                   "choose another folder with -o, or change its permissions"),
    errno.EPERM: ("output.read-only", "is not writable", "a folder you may write to",
                  "choose another folder with -o, or change its permissions"),
    errno.EROFS: ("output.read-only", "is on a read-only file system", "a writable folder",
                  "choose another folder with -o"),
    errno.ENOSPC: ("output.full", "is on a disk with no space left", "free space for the outputs",
                   "free some space, or choose another folder with -o"),
    errno.EDQUOT: ("output.full", "is over its disk quota", "free space for the outputs",
                   "free some space, or choose another folder with -o"),
    errno.ENOENT: ("output.missing", "does not exist (or vanished during the build)", "an existing folder",
                   "create the folder, or choose another with -o"),
    errno.ENOTDIR: ("output.not-a-directory", "is not a folder (a file sits where a folder is needed)",
                    "a folder", "choose another folder with -o, or move the file away"),
    errno.EISDIR: ("output.not-a-directory", "is a folder where a file is to be written", "a file name",
                   "move the folder away, or choose another output folder with -o"),
    errno.ENAMETOOLONG: ("output.name-too-long", "has a name too long for the file system",
                         "file names of at most 255 bytes", "shorten the build file's name or the -o folder"),
}


def output_error(exc: OSError, out: Path, noun: str = "output", choose: str | None = None) -> InputError:
    """An operating-system error while writing outputs, as one clear error naming the path.
    `noun` names what was being written; `choose` replaces "choose another folder with -o" in
    the fix, for a command that names its folder otherwise (`pnp example NAME FOLDER`)."""
    code, what, expected, fix = OUTPUT_ERRORS.get(exc.errno or 0, ("output.write", f"cannot be written "
                                                             f"({exc.strerror or exc})", "a writable folder",
                                                             "choose another folder with -o"))
    if exc.errno == errno.ENOENT and exc.filename and Path(exc.filename).parent.is_dir():
        # the folder is there, but nothing can be made in it (/proc, /sys)
        what = "cannot be made there (that folder takes no new files or folders)"
        expected, fix = "a folder that takes new files", "choose another folder with -o"
    if choose is not None:
        fix = (fix.replace("choose another folder with -o", choose).replace("choose another with -o", choose)
               .replace("shorten the build file's name or the -o folder", "shorten the folder's name"))
    path = exc.filename or out
    shown = display_path(Path(path))
    if ".pnp" in Path(shown).name or Path(shown).name.startswith("."):
        shown = str(Path(shown).parent)  # a temporary name means nothing to the reader: show its folder
    short = shown if len(shown) <= 200 else shown[:120] + "…" + shown[-60:]
    return InputError([Problem(code, f"the {noun} {short} {what}", Location(shown), found=exc.strerror,
                               expected=expected, fix=fix)])


def sweep_stale_beside(folder: Path, prefix: str) -> None:
    """Remove the hidden temporary folders named `prefix` + a token that commands no longer
    running left in `folder` (`pnp example` killed with SIGKILL while copying)."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        match = _TOKEN_IN_NAME.search(name + ".")
        if match is not None and not _running(int(match.group(1), 16)):
            shutil.rmtree(Path(folder) / name, ignore_errors=True)
