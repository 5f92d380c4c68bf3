"""Values kept on disk between processes, in the user's own cache folder, as Python's __pycache__
keeps bytecode: compiled templates (render/base/templatecache.py, which this folder was made for),
the rulebook's parsed Markdown, text layouts and quick-reference size (render/rulebook/kept.py), the
icons' outline text, the hyphenation dictionaries' patterns, card texts' fits (render/base/text.py),
strings' inks (render/cards/ink.py), parsed YAML files (core/yamlio.py), PO entries, layouts' marked
words, and big documents' compressed streams (render/base/pdfout.py: DeflateStore). Each kind is a format of its own (`fmt`, the first bytes
of its files); a file is named by the sha256 of everything its value depends on (the caller's
key) and holds its payload behind the sha256 of the payload's bytes: a short, corrupt or foreign
file is ignored (and written again by the caller).

$PNP_NO_CACHE (any value) turns it off: every value is made again, nothing is written.

The folder may hold code (a compiled template is run when loaded), so it must be the user's own:
made 0700, and refused (no caching, nothing said) when it is not a directory owned by the user,
is open to others, cannot be written, or on any OSError. Writes go through a temporary file and
os.replace (another process never reads half a file). The folder is bounded: past MAX_FILES files
or MAX_BYTES bytes the oldest are forgotten, checked at a process's first write and again after each
REBOUND_BYTES it writes (a long-lived `pnp serve` keeps a document's streams for every build it
prints: bounding once per process would let its folder grow for as long as it runs).
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Protocol

MAX_FILES = 4000  # a few packs' worth of layouts and chapters in several languages
MAX_BYTES = 256 << 20  # the small files and some sixty documents' compressed streams (at most 4 MB each)
REBOUND_BYTES = 32 << 20  # written by one process since it last bounded a folder: bounded again
_DIGEST = 32
_written: dict[str, int] = {}  # folder -> bytes this process wrote there since it last bounded it


class _Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...


def cache_dir() -> Path:
    """$PNP_CACHE_DIR, else $XDG_CACHE_HOME/pnp/templates, else ~/.cache/pnp/templates."""
    if os.environ.get("PNP_CACHE_DIR"):
        return Path(os.environ["PNP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pnp" / "templates"


def private_dir() -> Path | None:
    """The cache folder, made if need be, when it is safe to load code from; else None. Checked
    once a process for each place the environment names (a drawing process asks some 120 times:
    2 ms of syscalls)."""
    if os.environ.get("PNP_NO_CACHE"):  # the user's switch: nothing read from it, nothing kept
        return None
    named = (os.environ.get("PNP_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    if named not in _checked:
        _checked[named] = _checked_dir()
    return _checked[named]


_checked: dict[tuple[str | None, str | None, str | None], Path | None] = {}


def _checked_dir() -> Path | None:
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # no owner to check (Windows): no cache
        return None
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
        if (not stat.S_ISDIR(st.st_mode) or st.st_uid != getuid() or st.st_mode & 0o077
                or not os.access(folder, os.W_OK | os.X_OK)):
            return None
    except OSError:
        return None
    return folder


def sources_fingerprint(h: _Hash, root: str | os.PathLike[str]) -> None:
    """Feed the hash `h` every module under the folder `root` by name, size and mtime. (Each
    folder's relative path made once, not per module, and no __pycache__ folder listed: it holds
    no module. The same text is hashed: 3 ms -> 1 ms for the generator package's 320 modules,
    once in every process that reads the cache folder.)"""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, root)
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                h.update(f"{rel}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())


@functools.cache
def folder_fingerprint(root: Path) -> bytes:
    """The sha256 of the modules under `root` by name, size and mtime (sources_fingerprint), once
    per process: what a kept value made by that code depends on."""
    h = hashlib.sha256()
    sources_fingerprint(h, root)
    return h.digest()


def read(path: Path, fmt: bytes) -> bytes | None:
    """The payload of a file of this format whose checksum holds, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(fmt) + _DIGEST
    if len(data) <= head or not data.startswith(fmt):
        return None
    payload = data[head:]
    if hashlib.sha256(payload).digest() != data[len(fmt):head]:
        return None
    return payload


def write(folder: Path, path: Path, payload: bytes, fmt: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(fmt + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _bound(folder, len(payload))
    except OSError:
        pass


def load(key: str, fmt: bytes) -> bytes | None:
    """What `keep(key, fmt, …)` left in the cache folder (each kind told apart by `fmt`), else None."""
    folder = private_dir()
    return None if folder is None else read(folder / key, fmt)


def has(key: str) -> bool:
    """Whether the cache folder has a file under `key` (a stat: whether it holds what was kept
    is for `load` to say)."""
    folder = private_dir()
    return folder is not None and (folder / key).is_file()


def keep(key: str, fmt: bytes, payload: bytes) -> None:
    """Write `payload` under `key` (a sha256 of everything it depends on, code_fingerprint()
    among them), when the folder may be used."""
    folder = private_dir()
    if folder is not None:
        write(folder, folder / key, payload, fmt)


def _bound(folder: Path, written: int) -> None:
    """Past MAX_FILES files or MAX_BYTES bytes, forget the oldest files down to three quarters of
    both: at this process's first write to the folder, and again once it has written REBOUND_BYTES
    more (the module docstring)."""
    since = _written.get(str(folder))
    if since is not None and since + written < REBOUND_BYTES:
        _written[str(folder)] = since + written
        return
    _written[str(folder)] = 0
    entries = []
    for entry in os.scandir(folder):
        try:
            if entry.is_file(follow_symlinks=False):
                entries.append((entry.stat(follow_symlinks=False), entry.path))
        except OSError:  # gone meanwhile (another process bounding it)
            pass
    files, size = len(entries), sum(st.st_size for st, _ in entries)
    if files <= MAX_FILES and size <= MAX_BYTES:
        return
    entries.sort(key=lambda e: e[0].st_mtime_ns)
    for st, path in entries:
        if files <= MAX_FILES * 3 // 4 and size <= MAX_BYTES * 3 // 4:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        files, size = files - 1, size - st.st_size
