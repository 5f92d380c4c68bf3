"""Print-service presets and the exports that are not home printing: CMYK print-shop PDFs,
DriveThruCards decks, cutting-machine sheets, the Tabletop Simulator save.

The presets themselves (`pnp build --service NAME`) are a light table in service_table.py,
which the command line reads without loading these writers.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from generator.core import staging
from generator.core.files import atomic_output
from generator.export.cmyk import convert_pdf, converter
from generator.export.cut import export_cut
from generator.export.dtc import export_dtc
from generator.render.cards.sheets import write_home_sheets, write_print_shop


def run_extra_profile(profile: str, pack, build, faces, shared, out: Path, stem: str | None, opt, timed):
    """Yield one line per output of the profiles this module adds (dtc, cut, printplaygames,
    print-shop in CMYK). `timed` is build's line-maker (path, fn, *args)."""
    if profile == "print-shop":  # only reached for --color cmyk

        name = f"{stem}-print-shop.pdf" if stem else "cards-print-shop.pdf"
        conv = converter(opt.icc, opt.ink_limit)

        def cmyk_print_shop(target):
            with tempfile.TemporaryDirectory(prefix=".pnp-cmyk-", dir=out) as d:
                rgb = Path(d) / "rgb.pdf"
                with staging.unstaged():  # a work file, read back at once
                    info = write_print_shop(pack, faces, rgb, shared=shared)
                with atomic_output(target) as tmp:
                    convert_pdf(rgb, tmp, conv)
            return info
        out.mkdir(parents=True, exist_ok=True)
        yield timed(out / name, cmyk_print_shop, out / name)
    elif profile == "dtc":
        folder = out / (f"{stem}-dtc" if stem else "dtc")
        yield timed(folder, export_dtc, pack, faces, folder, converter(opt.icc, opt.ink_limit), shared)
    elif profile == "cut":
        machine = opt.cut or "silhouette"
        folder = out / (f"{stem}-cut-{machine}" if stem else f"cut-{machine}")
        yield timed(folder, export_cut, pack, faces, folder, machine, opt.paper, opt.cut_inset, shared,
                    pieces=True, build=build, duplex=opt.duplex, back_offset=opt.back_offset)
    elif profile == "printplaygames":
        name = f"{stem}-printplaygames.pdf" if stem else "cards-printplaygames.pdf"
        yield timed(out / name, write_home_sheets, pack, faces, out / name, sheet="printplaygames",
                    duplex="long-edge", shared=shared, title=f"{pack.spec.name} — PrintPlayGames sheets")
