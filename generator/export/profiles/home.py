"""The home kit, printed on a home printer: card sheets 3 x 3 with mirrored backs and the
calibration page, play pieces, maps and the rulebook with its quick reference. Its parts are
independent (build.py runs them in worker processes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.cards.sheets import write_calibration, write_home_sheets
from generator.render.maps.document import build_maps_pdf
from generator.render.pieces.document import build_pieces_pdf
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.quickref import build_quick_reference_pdf, has_quick_reference, reference_card_has_lines

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "home"


def write(job: ProfileJob) -> Iterator[str]:
    """The lines of `job.part`; a whole-pack part the build lacks makes nothing."""
    pack, build, opt, out = job.pack, job.build, job.opt, job.out
    if job.part == "cards":
        path = out / job.named("cards.pdf", "cards.pdf")
        yield job.timed(path, write_home_sheets, pack, job.faces, path, sheet=opt.paper, duplex=opt.duplex,
                        back_offset=opt.back_offset, shared=job.shared, memory=job.memory)
        if not build:
            if pack.spec.reference.card and not reference_card_has_lines(pack):
                yield (f"note: no reference card: {pack.spec.name} has no `brief` in its `reference:` sections, "
                       "no action types and no status effects to put on it (game.yaml)")
            yield job.timed(out / "calibration.pdf", write_calibration, pack, out / "calibration.pdf",
                            sheet=opt.paper, duplex=opt.duplex if opt.duplex != "none" else "long-edge")
    elif job.part == "pieces" and pack.spec.pieces is not None:
        path = out / job.named("pieces.pdf", "pieces.pdf")
        yield job.timed(path, build_pieces_pdf, pack, path, paper=opt.paper, build=build, duplex=opt.duplex,
                        back_offset=opt.back_offset)
    elif job.part == "maps" and pack.map_files and not build:
        yield job.timed(out / "maps.pdf", build_maps_pdf, pack, out / "maps.pdf", paper=opt.paper,
                        low_contrast=job.low_contrast, ink=opt.ink)
    elif job.part == "rulebook" and pack.rule_files and not build:
        yield job.timed(out / "rulebook.pdf", build_rulebook_pdf, pack, out / "rulebook.pdf", paper=opt.paper,
                        ink=opt.ink)
        if has_quick_reference(pack):
            yield job.timed(out / "quick-reference.pdf", build_quick_reference_pdf, pack,
                            out / "quick-reference.pdf", paper=opt.paper)
        else:
            yield (f"note: no quick-reference.pdf: {pack.spec.name} has no `reference:` sections, action types "
                   "or status effects to put on it (game.yaml)")
