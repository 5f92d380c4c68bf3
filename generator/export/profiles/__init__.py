"""The output profiles' writers, one module per profile (`pnp build --profile NAME`). Each
module declares `NAME` (its row in export/profile_table.py, which holds its help, colours and
parts) and `write(job)`, which yields one line per output it makes. build.py makes the job:
the loaded pack and build, the options, and for the `cards` part the card faces, made once
and shared with the layout checks.

May import: as export (core, grids, pack, rules, maps, share, render, export)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from generator.export.profile_table import PROFILES

if TYPE_CHECKING:
    from generator.export.options import BuildOptions
    from generator.pack.model import Build, Pack
    from generator.render.cards.faces import CardFace, CardShared
    from generator.render.cards.redraw import SheetMemory


@dataclass
class ProfileJob:
    """One part of one profile to make."""
    pack: Pack
    build: Build | None
    stem: str | None            # the build file's name, which the outputs are named after
    out: Path
    opt: BuildOptions
    part: str                   # one of the profile's parts
    timed: Callable[..., str]   # build's line-maker: timed(path, fn, *args, **kw) -> "wrote …"
    faces: list[CardFace] | None = None  # the `cards` part's faces, made once (kit.build_faces / pack_faces)
    shared: CardShared | None = None     # their CardShared
    # the maps' text below the contrast it needs, judged as the maps are drawn (render/base/paints.py)
    low_contrast: list = field(default_factory=list)
    memory: SheetMemory | None = None    # pnp watch: the last home cards.pdf, to redraw only edited sheets

    def named(self, suffix: str, whole: str) -> str:
        """`<build>-<suffix>` for a build, else the whole pack's name."""
        return f"{self.stem}-{suffix}" if self.stem else whole

    def card_faces(self) -> list[CardFace]:
        """The `cards` part's faces, which build.py makes before the writer runs."""
        if self.faces is None:
            raise RuntimeError(f"the {self.part} part of a profile asked for card faces, which only `cards` has")
        return self.faces


class ProfileWriter(Protocol):
    """What each module of this package is: its profile's NAME and `write(job)`, yielding a line
    per output. mypy holds every module to it (the list at the end of this file)."""
    @property
    def NAME(self) -> str: ...
    def write(self, job: ProfileJob) -> Iterator[str]: ...


def writer(name: str, part: str | None = None) -> ProfileWriter:
    """The module that writes profile `name` (`part` of it, where the table gives that part a
    module of its own), loaded on first use, so a build imports only the drawing code of its own
    profile and parts; its NAME must be the table's (checked here, and for every profile by
    tests/test_profiles.py)."""
    module = importlib.import_module(f"{__name__}.{PROFILES[name].module_of(part)}")
    if getattr(module, "NAME", None) != name:
        raise RuntimeError(f"{module.__name__} declares NAME {getattr(module, 'NAME', None)!r}, "
                           f"but export/profile_table.py routes `{name}` to it")
    return cast(ProfileWriter, module)


if TYPE_CHECKING:  # every writer module, held to ProfileWriter by mypy (never imported at run time)
    from generator.export.profiles import (cut, dtc, gutterfold, home, home_maps, home_pieces, home_rulebook, png,
                                           print_shop, printplaygames, tts)
    WRITERS: tuple[ProfileWriter, ...] = (cut, dtc, gutterfold, home, home_maps, home_pieces, home_rulebook, png,
                                          print_shop, printplaygames, tts)
