"""One PNG per card face and per back, at a print service's pixel size (`--size`)."""

from __future__ import annotations

from generator.export.raster import export_pngs

NAME = "png"


def write(job):
    folder = job.out / f"png-{job.opt.png_size}"
    yield job.timed(folder, export_pngs, job.pack, job.faces, folder, job.opt.png_size, job.shared)
