"""`pnp example`: the example games that ship with pnp, copied into a folder the user owns,
with the JSON Schemas their YAML files name written next to them (`schemas/`), so an editor
checks the copy as it checks the original. A checkout holds each game as a folder; an installed
wheel as one archive, `<game>.tar.xz` (setup.py makes it: a fifth of the room), unpacked here
into the same files, so the copy is the same either way (its translations/*.po as plain text a
translator edits)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tarfile
from pathlib import Path

import yaml
from pydantic import BaseModel

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.resources import EXAMPLES
from generator.core.staging import new_token, output_error, sweep_stale_beside
from generator.core.workers import signals_blocked
from generator.pack.load import load_pack
from generator.pack.schema_export import write_schemas

SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(?P<path>\S+)$", re.M)


ARCHIVE = ".tar.xz"  # an example as an installed wheel holds it (setup.py writes it, game.yaml first)


def example_sources(where: Path = EXAMPLES) -> dict[str, Path]:
    """Example id -> its folder (a checkout) or its archive (an installed wheel), in id order."""
    found = {game.parent.name: game.parent for game in where.glob("*/game.yaml")}
    for archive in where.glob(f"*{ARCHIVE}"):
        found.setdefault(archive.name.removesuffix(ARCHIVE), archive)
    return dict(sorted(found.items()))


def _game_text(source: Path) -> str:
    if source.is_dir():
        return (source / "game.yaml").read_text(encoding="utf-8")
    with tarfile.open(source) as tar:
        for member in tar:  # game.yaml comes first: the rest is not unpacked
            if member.name == "game.yaml" and (data := tar.extractfile(member)) is not None:
                return data.read().decode("utf-8")
    return ""


def example_games(where: Path = EXAMPLES) -> dict[str, str]:
    """Example id -> the game's name and the first sentence of its summary, in id order (an id
    such as `tactics` need not say the game is Stepfall: the line does)."""
    games = {}
    for game_id, source in example_sources(where).items():
        doc = yaml.safe_load(_game_text(source)) or {}
        summary = str(doc.get("summary") or "")
        first = summary.split(". ")[0].strip().rstrip(".") + "." if summary else ""
        games[game_id] = f"{doc.get('name') or game_id}: {first}".rstrip(": ")
    return games


TEMP_PREFIX = ".pnp-example."  # the copy under way, hidden beside its target, with the command's token


def copy_example(name: str, target: Path, layout_model: type[BaseModel] | None = None,
                 where: Path = EXAMPLES) -> Path:
    """Copy the example `name` into `target` (a new or empty folder) with its schemas; the copy's
    `$schema` lines point at them. Returns the target. All or nothing: the copy is made in a
    hidden folder beside the target and renamed into place when whole, so an interrupted copy
    leaves nothing half-made (and a copy killed outright leaves only that hidden folder, which
    the next `pnp example` there removes); every folder it cannot use is one clear error."""
    games = example_games(where)
    if name not in games:
        guess = did_you_mean(name, games)
        raise InputError([Problem("example.unknown", f"no example game `{name}`", Location("command line"),
                                  found=name, expected="one of: " + ", ".join(games),
                                  fix=f"pnp example {guess}" if guess else "pnp example --list shows them")])
    shown = Path(target)
    try:
        absolute = Path(os.path.abspath(target))  # `.` and `..` resolved by name, links left as they are
        if absolute.is_relative_to(Path.cwd()):
            shown = Path(os.path.relpath(absolute))
        return _copy_into(example_sources(where)[name], name, absolute, shown, layout_model)
    except OSError as exc:  # a folder it may not write, under a file, a name too long, a full disk...
        # the hidden copy means nothing to the reader: name the target; on the way, a file: name it
        where = Path(exc.filename) if exc.filename and TEMP_PREFIX not in str(exc.filename) else shown
        if exc.errno == errno.ENOTDIR:
            where = next((p for p in [where, *where.parents] if p.exists() and not p.is_dir()), where)
        elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):  # the folder that refused: the nearest there
            where = next((p for p in [where, *where.parents] if os.path.lexists(p)), where)
        exc = OSError(exc.errno, exc.strerror, str(where))
        raise output_error(exc, shown, noun="folder", choose=f"name another folder: pnp example {name} FOLDER") from None


def _copy_into(source: Path, name: str, target: Path, shown: Path, layout_model: type[BaseModel] | None) -> Path:
    empty = _check_target(name, target, shown)
    made = _make_parents(target.parent)
    tmp = target.parent / f"{TEMP_PREFIX}{new_token()}"
    moved: list[Path] = []
    done = False
    try:
        sweep_stale_beside(target.parent, TEMP_PREFIX)
        if source.is_dir():
            _copy_tree(source, tmp)
        else:
            _unpack(source, tmp)
        write_pack_schemas(tmp, layout_model)
        with signals_blocked():  # a Ctrl-C now waits for the rename: the folder is whole, or not there
            if empty:  # the folder the user made (maybe the one they stand in) stays: fill it
                for entry in sorted(os.listdir(tmp)):
                    os.rename(tmp / entry, target / entry)
                    moved.append(target / entry)
                os.rmdir(tmp)
            else:
                os.rename(tmp, target)
            done = True
    finally:
        if not done:
            shutil.rmtree(tmp, ignore_errors=True)
            for path in moved:
                _remove(path)
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()
    return shown


def _copy_tree(source: Path, tmp: Path) -> None:
    """shutil.copytree, but a file it cannot write stops the copy with that file's own error
    (copytree goes on and raises one shutil.Error of messages, with no errno: a full disk would
    not be told from any other failure)."""
    first: list[OSError] = []

    def copy(src: str, dst: str) -> object:
        try:
            return shutil.copy2(src, dst)
        except OSError as exc:  # named after where it was going (a full disk names the source file)
            first.append(OSError(exc.errno, exc.strerror, dst))
            raise

    try:
        shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(".cache", "__pycache__"), copy_function=copy)
    except shutil.Error as exc:
        if first:
            raise first[0] from None
        raise OSError(errno.EIO, f"the copy failed ({exc})", str(tmp)) from None


def _unpack(archive: Path, tmp: Path) -> None:
    """The archive's files into `tmp` (setup.py made it of plain files and their folders; the
    `data` filter refuses anything else, where this Python has it: 3.11.4 and later)."""
    tmp.mkdir()
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp, filter="data")
        else:
            tar.extractall(tmp)


def _check_target(name: str, target: Path, shown: Path) -> bool:
    """Whether the target is an existing empty folder (else it is new); anything else that sits
    there is refused. A link is never followed into (it might lead anywhere)."""
    len_error = next((part for part in target.parts if len(os.fsencode(part)) > 255), None)
    if len_error is not None:
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(shown))
    if os.path.lexists(target):
        if target.is_symlink() or not target.is_dir() or any(target.iterdir()):
            raise InputError([Problem("example.exists", f"{shown} already exists and is not an empty folder",
                                      Location(str(shown)), expected="a new or empty folder",
                                      fix=f"pnp example {name} OTHER_FOLDER, or remove {shown}")])
        return True
    return False


def _make_parents(folder: Path) -> list[Path]:
    """Make the missing folders above the target, outermost first; returns those it made."""
    missing: list[Path] = []
    while not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
    return list(reversed(missing))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def write_pack_schemas(root: Path, layout_model: type[BaseModel] | None = None) -> list[Path]:
    """Write the pack's schemas into `root/schemas/` and point every `$schema` line of its YAML
    files at them, relative to each file, so they resolve wherever the pack is."""
    written = write_schemas(load_pack(root), root / "schemas", layout_model=layout_model)
    names = {p.name for p in written}
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")

        def point(match: re.Match[str], path: Path = path) -> str:  # this file's path, bound as it is defined
            name: str = match["path"].rsplit("/", 1)[-1]
            if name not in names:
                return match[0]
            rel = Path(os.path.relpath(root / "schemas" / name, path.parent)).as_posix()
            return f"# yaml-language-server: $schema={rel}"

        new = SCHEMA_LINE.sub(point, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return written
