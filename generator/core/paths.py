"""Path confinement: pack files come from strangers, so every path they name must resolve
inside the pack folder (absolute paths, `..` and symlinks that lead out are refused)."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem


def resolve_inside(root: Path, relative: str, owner_location: Location, what: str = "image") -> Path:
    """`relative` resolved inside `root`, or an InputError that says why not."""
    root = root.resolve()
    raw = Path(relative)
    if raw.is_absolute() or relative.startswith(("/", "\\")) or (raw.parts and ":" in raw.parts[0]):
        raise InputError([Problem("path.outside", f"the {what} path `{relative}` is absolute",
                                  owner_location, found=relative, expected="a path relative to the pack folder",
                                  fix=f"copy the file into the pack (e.g. art/) and name it relative to {root.name}/")])
    try:
        target = (root / raw).resolve()
        is_file = target.is_file()
    except (OSError, RuntimeError, ValueError) as exc:  # a name too long for the file system, a loop of links...
        raise InputError([Problem("path.invalid", f"the {what} path `{relative[:80]}` cannot be used: "
                                  f"{getattr(exc, 'strerror', None) or exc}", owner_location, found=relative[:80],
                                  expected="a short path to a file inside the pack")]) from None
    if root != target and root not in target.parents:
        raise InputError([Problem("path.outside", f"the {what} path `{relative}` leads outside the pack",
                                  owner_location, found=relative, expected="a file inside the pack folder",
                                  fix="packs may only use files inside their own folder")])
    if not is_file:
        raise InputError([Problem("path.missing", f"the {what} `{relative}` does not exist",
                                  owner_location, found=relative, expected="an existing file in the pack",
                                  fix="check the file name" + (", or remove `art:` to use the placeholder emblem"
                                                               if what == "art" else ""))])
    return target
