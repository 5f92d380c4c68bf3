"""Cutting-machine sheets (Silhouette, Cricut): registration marks and cut files, pieces too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.export.cut import export_cut

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "cut"


def write(job: ProfileJob) -> Iterator[str]:
    opt = job.opt
    machine = opt.cut or "silhouette"
    folder = job.out / job.named(f"cut-{machine}", f"cut-{machine}")
    yield job.timed(folder, export_cut, job.pack, job.faces, folder, machine, opt.paper, opt.cut_inset, job.shared,
                    pieces=True, build=job.build, duplex=opt.duplex, back_offset=opt.back_offset)
