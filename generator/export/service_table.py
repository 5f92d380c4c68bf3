"""The print-service presets: each a named set of `pnp build` options, with what the service
asks for and what the preset writes. `pnp build --help`, `--service` and the README list this
table. It imports no writer, so the command line reads it without loading ReportLab (the
writers are the profiles' modules, export/profiles/). Numbers come from PRINT-SPECS.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.errors import InputError, Location, Problem


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
PREFLIGHT_SERVICES = ("home", "mpc", "tgc", "dtc")  # the services whose requirements `pnp preflight` knows
SERVICE_ALIASES = {"drivethrucards": "dtc", "makeplayingcards": "mpc", "thegamecrafter": "tgc", "ppg": "printplaygames"}


def resolve_service(name: str) -> Service:
    key = SERVICE_ALIASES.get(name, name)
    if key not in SERVICES:
        raise InputError([Problem("build.service", f"no print-service preset named `{name}`", Location("--service"),
                                  found=name, expected=f"one of: {', '.join(SERVICES)}")])
    return SERVICES[key]


def services_help() -> str:
    return "; ".join(f"{k}: {s.writes}" for k, s in SERVICES.items())
