"""The home kit's rulebook (rulebook.pdf) and its one-sheet quick reference
(quick-reference.pdf) (export/profiles/home.py has the kit's cards)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.render.rulebook.book import build_rulebook_pdf, pack_book
from generator.render.rulebook.kept import keep_all
from generator.render.rulebook.quickref import build_quick_reference_pdf, has_quick_reference, sheet_text

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "home"


def write(job: ProfileJob) -> Iterator[str]:
    """rulebook.pdf and quick-reference.pdf, for a whole pack with rule chapters."""
    pack, build, opt, out = job.pack, job.build, job.opt, job.out
    if pack.rule_files and not build:
        book = pack_book(pack)  # one text fitter, its layouts and the pack's icons, for both
        yield job.timed(out / "rulebook.pdf", build_rulebook_pdf, pack, out / "rulebook.pdf", paper=opt.paper,
                        ink=opt.ink, book=book)
        _, text = sheet_text(pack)  # made once, for both questions
        if has_quick_reference(pack, text):
            # the rulebook just built checked the icons of every rulebook source, this sheet's among them
            yield job.timed(out / "quick-reference.pdf", build_quick_reference_pdf, pack,
                            out / "quick-reference.pdf", paper=opt.paper, text=text, checked=True, book=book)
        else:
            yield (f"note: no quick-reference.pdf: {pack.spec.name} has no `reference:` sections, action types "
                   "or status effects to put on it (game.yaml)")
        keep_all()  # the layouts both laid out, for the next kit (render/rulebook/kept.py)
