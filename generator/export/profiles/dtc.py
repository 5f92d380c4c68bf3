"""DriveThruCards: one PDF per deck, back and front pages, CMYK through the ICC profile."""

from __future__ import annotations

from generator.export.cmyk import converter
from generator.export.dtc import export_dtc

NAME = "dtc"


def write(job):
    folder = job.out / job.named("dtc", "dtc")
    yield job.timed(folder, export_dtc, job.pack, job.faces, folder, converter(job.opt.icc, job.opt.ink_limit),
                    job.shared)
