"""The builds folder: build files named by safe slugs, read and written only inside it.

A name becomes a file name of lowercase letters, digits and hyphens; the resolved path must
sit directly in the folder and must not be a link, so `../`, absolute paths and symlinks
out are refused.

Every write is whole or not at all: the text goes to a temporary file in the folder first.
Saving over a build renames it into place (two tabs saving at once leave one whole file).
A new name is claimed atomically by hard-linking that finished file under it, which fails
if the name exists: "save as new", "duplicate" and "rename" can never land two builds on
one name, however many requests (or worker processes) race for it; the loser takes the
next free name (`name-2`, `name-3`, …) or, for a rename, gets a message.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.core.errors import InputError, Location, Problem

SUFFIX = ".yaml"
MAX_NAME = 80
MAX_FILE_BYTES = 1024 * 1024
MAX_SAME_NAME = 1000  # `name`, `name-2` … `name-999`
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$")
_UMASK = os.umask(0)  # read once, while the process is still single-threaded
os.umask(_UMASK)


def _problem(code: str, message: str, found=None, expected=None, fix=None, status: int = 400) -> InputError:
    exc = InputError([Problem(code, message, Location("builds folder"), found=None if found is None else str(found)[:100],
                              expected=expected, fix=fix)])
    exc.status = status
    return exc


def slug(name: str) -> str:
    """A safe file name stem for a build name: `The Ashen Behemoth` -> `the-ashen-behemoth`."""
    text = re.sub(r"[^a-z0-9]+", "-", str(name).lower()).strip("-")[:MAX_NAME].strip("-")
    return text or "build"


@dataclass(frozen=True)
class Entry:
    stem: str
    path: Path
    pack: str | None
    name: str
    side: str | None
    size: int
    mtime: float


class Builds:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def ensure(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder.resolve()

    def path_of(self, stem: str) -> Path:
        """The file of a build stem, refused unless it is a plain file name inside the folder."""
        if not isinstance(stem, str) or not _SLUG.match(stem):
            raise _problem("builds.name", "not a build name", stem,
                           "lowercase letters, digits and hyphens (e.g. `ashen-behemoth`)",
                           "pick the build from the list", status=404)
        root = self.ensure()
        path = root / (stem + SUFFIX)
        if path.is_symlink() or (path.exists() and path.resolve().parent != root):
            raise _problem("builds.link", "that build file is a link; the builder only opens plain files", stem,
                           status=403)
        return path

    def read(self, stem: str) -> str:
        path = self.path_of(stem)
        try:
            # O_NOFOLLOW: a link swapped in after the check above is still refused
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, fix="pick one from the list",
                           status=404) from None
        except OSError:
            raise _problem("builds.link", "that build file cannot be opened", stem, status=403) from None
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise _problem("builds.size", "the build file is over 1 MB", stem, status=413)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise _problem("builds.encoding", "the build file is not UTF-8 text", stem, status=422) from None

    def exists(self, stem: str) -> bool:
        return self.path_of(stem).exists()

    def _staged(self, text: str) -> Path:
        """The text in a new temporary file in the folder (hidden: a dot name, no .yaml)."""
        data = text.encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise _problem("builds.size", "the build is over 1 MB", status=413)
        fd, tmp = tempfile.mkstemp(prefix=".saving-", suffix=".tmp", dir=self.ensure())
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes files private; builds are ordinary files
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return Path(tmp)

    @staticmethod
    def _claim(tmp: Path, path: Path) -> bool:
        """Put the finished file `tmp` under `path` only if no file has that name: True if it
        did. A hard link is created or refused in one step; where the file system has none,
        an exclusive create claims the name and the rename fills it."""
        try:
            os.link(tmp, path)
            return True
        except FileExistsError:
            return False
        except OSError:
            pass
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except FileExistsError:
            return False
        os.replace(tmp, path)
        return True

    def write(self, stem: str, text: str) -> Path:
        """Save `text` as the build `stem`, over the one there (whole, or not at all)."""
        path = self.path_of(stem)
        tmp = self._staged(text)
        try:
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return path

    def create(self, wanted: str, text: str) -> str:
        """Save `text` under a new name: `wanted` as a slug, or `wanted-2`, `wanted-3`, … the
        first one free, claimed atomically; the stem it was saved as."""
        stem = slug(wanted)
        candidates = [stem] + [f"{stem[:MAX_NAME - 4].rstrip('-')}-{n}" for n in range(2, MAX_SAME_NAME)]
        tmp = self._staged(text)
        try:
            for candidate in candidates:
                if self._claim(tmp, self.path_of(candidate)):
                    return candidate
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise _problem("builds.name", f"there are {MAX_SAME_NAME - 1} builds named like that already", wanted,
                       fix="pick another name", status=409)

    def rename(self, stem: str, new_stem: str, text: str) -> str:
        """Move the build `stem` to `new_stem` with `text` as its content; refused if another
        build has that name (checked and claimed in one step)."""
        src = self.path_of(stem)
        if not src.exists():
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404)
        new_stem = slug(new_stem)
        if new_stem == stem:
            self.write(stem, text)
            return stem
        dst = self.path_of(new_stem)
        tmp = self._staged(text)
        try:
            if not self._claim(tmp, dst):
                raise _problem("builds.exists", f"a build named `{new_stem}` exists already", new_stem,
                               fix="pick another name, or delete that build first", status=409)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        with contextlib.suppress(FileNotFoundError):  # deleted meanwhile: the renamed copy stays
            src.unlink()
        return new_stem

    def delete(self, stem: str) -> None:
        path = self.path_of(stem)
        try:
            path.unlink()
        except FileNotFoundError:
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404) from None

    def entries(self, pack_id: str | None = None) -> list[Entry]:
        root = self.ensure()
        out = []
        for path in sorted(root.glob("*" + SUFFIX)):
            stem = path.name[:-len(SUFFIX)]
            if path.is_symlink() or not _SLUG.match(stem):
                continue
            try:
                st = path.stat()
                head = path.read_text(encoding="utf-8")[:4096] if st.st_size <= MAX_FILE_BYTES else ""
            except (OSError, UnicodeDecodeError):
                continue
            meta: dict = {}
            for line in head.splitlines():  # the top-level keys come first in build files
                if re.match(r"^(pack|name|side):", line):
                    try:
                        meta.update(yaml.safe_load(line) or {})
                    except yaml.YAMLError:
                        pass
            pack = meta.get("pack") if isinstance(meta.get("pack"), str) else None
            if pack_id is not None and pack not in (None, pack_id):
                continue
            out.append(Entry(stem, path, pack, str(meta.get("name") or stem), meta.get("side"), st.st_size,
                             st.st_mtime))
        return out
