"""Gutterfold sheets: each card's front and back side by side, folded along the gutter."""

from __future__ import annotations

from generator.render.cards.sheets import write_gutterfold

NAME = "gutterfold"


def write(job):
    path = job.out / job.named("gutterfold.pdf", "cards-gutterfold.pdf")
    yield job.timed(path, write_gutterfold, job.pack, job.faces, path, sheet=f"gutterfold-{job.opt.paper}",
                    shared=job.shared)
