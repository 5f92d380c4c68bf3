"""The home kit's maps (maps.pdf): every map of the pack at true scale, in tiles where a map
is larger than the paper (export/profiles/home.py has the kit's cards)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.maps.document import build_maps_pdf

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "home"


def write(job: ProfileJob) -> Iterator[str]:
    """maps.pdf, for a whole pack with map files (a build's kit has no maps)."""
    pack, build, opt, out = job.pack, job.build, job.opt, job.out
    if pack.map_files and not build:
        yield job.timed(out / "maps.pdf", build_maps_pdf, pack, out / "maps.pdf", paper=opt.paper,
                        low_contrast=job.low_contrast, ink=opt.ink)
