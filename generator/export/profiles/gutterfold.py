"""Gutterfold sheets: each card's front and back side by side, folded along the gutter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.cards.sheets import write_gutterfold

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "gutterfold"


def write(job: ProfileJob) -> Iterator[str]:
    path = job.out / job.named("gutterfold.pdf", "cards-gutterfold.pdf")
    yield job.timed(path, write_gutterfold, job.pack, job.faces, path, sheet=f"gutterfold-{job.opt.paper}",
                    shared=job.shared)
