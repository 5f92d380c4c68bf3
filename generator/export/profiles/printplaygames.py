"""PrintPlayGames: 12 x 18 in sheets with crop marks and mirrored backs (RGB)."""

from __future__ import annotations

from generator.render.cards.sheets import write_home_sheets

NAME = "printplaygames"


def write(job):
    path = job.out / job.named("printplaygames.pdf", "cards-printplaygames.pdf")
    yield job.timed(path, write_home_sheets, job.pack, job.faces, path, sheet="printplaygames", duplex="long-edge",
                    shared=job.shared, title=f"{job.pack.spec.name} — PrintPlayGames sheets")
