"""The home kit's play pieces (pieces.pdf): counters, figures, trackers and boards, duplex as
the card sheets are (export/profiles/home.py has the kit's cards)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.pieces.document import build_pieces_pdf

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "home"


def write(job: ProfileJob) -> Iterator[str]:
    """pieces.pdf, for a pack that declares pieces."""
    pack, build, opt, out = job.pack, job.build, job.opt, job.out
    if pack.spec.pieces is not None:
        path = out / job.named("pieces.pdf", "pieces.pdf")
        yield job.timed(path, build_pieces_pdf, pack, path, paper=opt.paper, build=build, duplex=opt.duplex,
                        back_offset=opt.back_offset)
