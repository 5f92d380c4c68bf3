"""The `pnp build` options for print services, CMYK, cutting machines and Tabletop
Simulator, as one decorator, so the command keeps its own options short."""

from __future__ import annotations

from pathlib import Path

import click

from generator.export.options import COLORS, CUT_INSET, CUT_MACHINES, DEFAULT_INK_LIMIT, INK_LIMIT
from generator.export.service_table import SERVICE_ALIASES, SERVICES


def _services_epilog() -> str:
    rows = "\n".join(f"  {key:<15} {s.name}: {s.writes}" for key, s in SERVICES.items())
    return f"Print-service presets (--service):\n\n\b\n{rows}"


def export_options(command):
    """Adds --service, --color, --icc, --ink-limit, --cut, --cut-inset, --tts-url-base."""
    options = [
        click.option("--service", type=click.Choice(sorted(SERVICES) + sorted(SERVICE_ALIASES)),
                     help="A print-service preset: sets --profile and the options that service needs "
                          "(listed below)."),
        click.option("--color", type=click.Choice(COLORS), default=None,
                     help="print-shop/dtc: colour of the PDF. CMYK goes through an ICC profile (default: "
                          "the shipped FOGRA39L coated profile). RGB is the default elsewhere."),
        click.option("--icc", type=click.Path(path_type=Path, dir_okay=False, exists=True),
                     help="A CMYK ICC output profile to convert to (your print service's)."),
        click.option("--ink-limit", type=click.FloatRange(*INK_LIMIT), default=DEFAULT_INK_LIMIT, show_default=True,
                     help="CMYK: highest total ink, percent (C+M+Y+K)."),
        click.option("--cut", type=click.Choice(CUT_MACHINES),
                     help="Cut profile: the machine (registration marks and cut files); implies --profile cut."),
        click.option("--cut-inset", type=click.FloatRange(*CUT_INSET), default=0.0, show_default=True,
                     help="Cut profile: move cut lines this many mm inside the trim."),
        click.option("--tts-url-base", metavar="URL",
                     help="tts profile: prefix for image URLs in the TTS save (default: file:/// paths)."),
    ]
    for option in reversed(options):
        command = option(command)
    command.__doc__ = (command.__doc__ or "") + "\n\n" + _services_epilog()
    return command
