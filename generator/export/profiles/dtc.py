"""DriveThruCards: one PDF per deck, back and front pages, CMYK through the ICC profile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.export.cmyk import converter
from generator.export.dtc import export_dtc

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "dtc"


def write(job: ProfileJob) -> Iterator[str]:
    folder = job.out / job.named("dtc", "dtc")
    yield job.timed(folder, export_dtc, job.pack, job.faces, folder, converter(job.opt.icc, job.opt.ink_limit),
                    job.shared)
