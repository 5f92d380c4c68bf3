"""The home kit, printed on a home printer: card sheets 3 x 3 with mirrored backs and the
calibration page, play pieces, maps and the rulebook with its quick reference. Its parts are
independent (build.py runs them in worker processes), and each has a module of its own
(export/profile_table.py routes them): this one writes the card sheets; home_pieces.py,
home_maps.py and home_rulebook.py the rest, so a cards part loads none of their renderers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.cards.sheets import write_calibration, write_home_sheets
from generator.render.rulebook.templating import reference_card_has_lines

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "home"


def write(job: ProfileJob) -> Iterator[str]:
    """The lines of the `cards` part (the other parts are other modules'); a pack of rules alone has none."""
    pack, build, opt, out = job.pack, job.build, job.opt, job.out
    if job.part != "cards":
        raise RuntimeError(f"the home kit's {job.part} part is written by its own module (export/profile_table.py)")
    path = out / job.named("cards.pdf", "cards.pdf")
    yield job.timed(path, write_home_sheets, pack, job.faces, path, sheet=opt.paper, duplex=opt.duplex,
                    back_offset=opt.back_offset, shared=job.shared, memory=job.memory)
    if not build:
        if pack.spec.reference.card and not reference_card_has_lines(pack):
            yield (f"note: no reference card: {pack.spec.name} has no `brief` in its `reference:` sections, "
                   "no action types and no status effects to put on it (game.yaml)")
        yield job.timed(out / "calibration.pdf", write_calibration, pack, out / "calibration.pdf",
                        sheet=opt.paper, duplex=opt.duplex if opt.duplex != "none" else "long-edge")
