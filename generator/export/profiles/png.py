"""One PNG per card face and per back, at a print service's pixel size (`--size`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.export.raster import export_pngs

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "png"


def write(job: ProfileJob) -> Iterator[str]:
    folder = job.out / f"png-{job.opt.png_size}"
    yield job.timed(folder, export_pngs, job.pack, job.faces, folder, job.opt.png_size, job.shared)
