"""The builds folder: build files named by safe slugs, read and written only inside it.

A name becomes a file name of lowercase letters, digits and hyphens; the resolved path must
sit directly in the folder and must not be a link, so `../`, absolute paths and symlinks
out are refused. Writes go through a temporary file and a rename (render/pdfout's atomic
helper), so two tabs saving at once leave one whole file, never a mixture.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.files import write_text

SUFFIX = ".yaml"
MAX_NAME = 80
MAX_FILE_BYTES = 1024 * 1024
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$")


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

    def write(self, stem: str, text: str) -> Path:
        path = self.path_of(stem)
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            raise _problem("builds.size", "the build is over 1 MB", status=413)
        write_text(path, text)
        return path

    def free_stem(self, wanted: str) -> str:
        """`wanted`, or `wanted-2`, `wanted-3`, … whichever is not taken yet."""
        stem = slug(wanted)
        if not self.path_of(stem).exists():
            return stem
        for n in range(2, 1000):
            candidate = f"{stem[:MAX_NAME - 5]}-{n}"
            if not self.path_of(candidate).exists():
                return candidate
        raise _problem("builds.name", "too many builds with that name", wanted, status=409)

    def rename(self, stem: str, new_stem: str) -> str:
        src = self.path_of(stem)
        if not src.exists():
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404)
        new_stem = slug(new_stem)
        dst = self.path_of(new_stem)
        if dst.exists() and new_stem != stem:
            raise _problem("builds.exists", f"a build named `{new_stem}` exists already", new_stem,
                           fix="pick another name, or delete that build first", status=409)
        os.replace(src, dst)
        return new_stem

    def delete(self, stem: str) -> None:
        path = self.path_of(stem)
        try:
            path.unlink()
        except FileNotFoundError:
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404) from None

    def entries(self, pack_id: str | None = None) -> list[Entry]:
        import yaml
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
            meta = {}
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
