"""The print-shop PDF: one card per page with bleed and trim boxes; in CMYK through an ICC
profile when asked (`--color cmyk`)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core import staging
from generator.core.files import atomic_output
from generator.export.cmyk import convert_pdf, converter
from generator.render.cards.sheets import write_print_shop

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "print-shop"


def write(job: ProfileJob) -> Iterator[str]:
    path = job.out / job.named("print-shop.pdf", "cards-print-shop.pdf")
    faces = job.card_faces()
    if job.opt.color != "cmyk":
        yield job.timed(path, write_print_shop, job.pack, faces, path, shared=job.shared)
        return
    conv = converter(job.opt.icc, job.opt.ink_limit)

    def cmyk_print_shop(target):
        with tempfile.TemporaryDirectory(prefix=".pnp-cmyk-", dir=job.out) as d:
            rgb = Path(d) / "rgb.pdf"
            with staging.unstaged():  # a work file, read back at once
                info = write_print_shop(job.pack, faces, rgb, shared=job.shared)
            with atomic_output(target) as tmp:
                convert_pdf(rgb, tmp, conv)
        return info
    job.out.mkdir(parents=True, exist_ok=True)
    yield job.timed(path, cmyk_print_shop, path)
