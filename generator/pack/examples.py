"""`pnp example`: the example games that ship with pnp, copied into a folder the user owns,
with the JSON Schemas their YAML files name written next to them (`schemas/`), so an editor
checks the copy as it checks the original."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import yaml
from pydantic import BaseModel

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.resources import EXAMPLES
from generator.pack.load import load_pack
from generator.pack.schema_export import write_schemas

SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(?P<path>\S+)$", re.M)


def example_games() -> dict[str, str]:
    """Example id -> the first sentence of its summary, in name order."""
    games = {}
    for game in sorted(EXAMPLES.glob("*/game.yaml")):
        summary = str((yaml.safe_load(game.read_text(encoding="utf-8")) or {}).get("summary") or "")
        games[game.parent.name] = summary.split(". ")[0].strip().rstrip(".") + "." if summary else ""
    return games


def copy_example(name: str, target: Path, layout_model: type[BaseModel] | None = None) -> Path:
    """Copy the example `name` into `target` (a new or empty folder) with its schemas; the copy's
    `$schema` lines point at them. Returns the target."""
    games = example_games()
    if name not in games:
        guess = did_you_mean(name, games)
        raise InputError([Problem("example.unknown", f"no example game `{name}`", Location("command line"),
                                  found=name, expected="one of: " + ", ".join(games),
                                  fix=f"pnp example {guess}" if guess else "pnp example --list shows them")])
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError([Problem("example.exists", f"{target} already exists and is not an empty folder",
                                  Location(str(target)), expected="a new or empty folder",
                                  fix=f"pnp example {name} OTHER_FOLDER, or remove {target}")])
    shutil.copytree(EXAMPLES / name, target, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".cache", "__pycache__"))
    write_pack_schemas(target, layout_model)
    return target


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
