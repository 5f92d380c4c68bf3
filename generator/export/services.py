"""Print-service presets and the exports that are not home printing: CMYK print-shop PDFs,
DriveThruCards decks, cutting-machine sheets, the Tabletop Simulator save.

A preset (`pnp build --service NAME`) is a named set of `pnp build` options; the table
below is what `pnp build --help` and the README list. Numbers come from PRINT-SPECS.md.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from generator.core import staging
from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.export.cmyk import convert_pdf, converter
from generator.export.cut import export_cut
from generator.export.dtc import export_dtc
from generator.render.cards.sheets import write_home_sheets, write_print_shop


@dataclass(frozen=True)
class Service:
    name: str
    wants: str          # what the service asks for, in a few words
    writes: str         # what the preset writes
    options: dict = field(default_factory=dict)


SERVICES: dict[str, Service] = {
    "home": Service("Home printer", "A4 or Letter, duplex, crop marks", "cards.pdf 3 x 3 with mirrored backs, "
                    "maps, pieces, rulebook (RGB)", {"profile": "home"}),
    "mpc": Service("MakePlayingCards", "one image per face, 822 x 1122 px at 300 dpi (poker)",
                   "png-mpc/: one RGB PNG per face and per back", {"profile": "png", "png_size": "mpc"}),
    "tgc": Service("The Game Crafter", "825 x 1125 px RGB PNG per face, 75 px safe zone",
                   "png-tgc/: one RGB PNG per face and per back", {"profile": "png", "png_size": "tgc"}),
    "dtc": Service("DriveThruCards", "one PDF per deck, back/front pages, 1/8 in bleed, CMYK, ink <= 240 %, "
                   "fonts embedded, no marks", "dtc/<deck>.pdf, CMYK through the ICC profile, OutputIntent set",
                   {"profile": "dtc", "color": "cmyk", "ink_limit": 240.0}),
    "printplaygames": Service("PrintPlayGames", "12 x 18 in sheets, 2 mm bleed, backs mirrored",
                              "cards-printplaygames.pdf on 12 x 18 in sheets with crop marks and mirrored backs (RGB)",
                              {"profile": "printplaygames"}),
}
SERVICE_ALIASES = {"drivethrucards": "dtc", "makeplayingcards": "mpc", "thegamecrafter": "tgc", "ppg": "printplaygames"}


def resolve_service(name: str) -> Service:
    key = SERVICE_ALIASES.get(name, name)
    if key not in SERVICES:
        raise InputError([Problem("build.service", f"no print-service preset named `{name}`", Location("--service"),
                                  found=name, expected=f"one of: {', '.join(SERVICES)}")])
    return SERVICES[key]


def services_help() -> str:
    return "; ".join(f"{k}: {s.writes}" for k, s in SERVICES.items())


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
