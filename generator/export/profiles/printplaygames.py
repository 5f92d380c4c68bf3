"""PrintPlayGames: 12 x 18 in sheets with crop marks and mirrored backs (RGB)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.cards.sheets import write_home_sheets

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "printplaygames"


def write(job: ProfileJob) -> Iterator[str]:
    path = job.out / job.named("printplaygames.pdf", "cards-printplaygames.pdf")
    yield job.timed(path, write_home_sheets, job.pack, job.faces, path, sheet="printplaygames", duplex="long-edge",
                    shared=job.shared, title=f"{job.pack.spec.name} — PrintPlayGames sheets")
