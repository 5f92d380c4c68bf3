"""The output profiles' writers, one module per profile (`pnp build --profile NAME`). Each
module declares `NAME` (its row in export/profile_table.py, which holds its help, colours and
parts) and `write(job)`, which yields one line per output it makes. build.py makes the job:
the loaded pack and build, the options, and for the `cards` part the card faces, made once
and shared with the layout checks.

May import: as export (core, grids, pack, rules, maps, share, render, export)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.export.profile_table import PROFILES


@dataclass
class ProfileJob:
    """One part of one profile to make."""
    pack: Any
    build: Any
    stem: str | None            # the build file's name, which the outputs are named after
    out: Path
    opt: Any                    # export.options.BuildOptions
    part: str                   # one of the profile's parts
    timed: Callable             # build's line-maker: timed(path, fn, *args, **kw) -> "wrote …"
    faces: list | None = None   # the `cards` part's faces, made once (kit.build_faces / pack_faces)
    shared: Any = None          # their CardShared
    low_contrast: list = field(default_factory=list)  # text below the contrast it needs, read back
    memory: Any = None          # pnp watch: render/cards/redraw.py's SheetMemory of the home cards.pdf

    def named(self, suffix: str, whole: str) -> str:
        """`<build>-<suffix>` for a build, else the whole pack's name."""
        return f"{self.stem}-{suffix}" if self.stem else whole


def writer(name: str):
    """The module that writes profile `name`; its NAME must be the table's (checked here, on
    first use, and for every profile by tests/test_profiles.py)."""
    module = importlib.import_module(f"{__name__}.{PROFILES[name].module}")
    if getattr(module, "NAME", None) != name:
        raise RuntimeError(f"{module.__name__} declares NAME {getattr(module, 'NAME', None)!r}, "
                           f"but export/profile_table.py routes `{name}` to it")
    return module
