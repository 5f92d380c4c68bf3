"""`pnp calibrate DX,DY`: save the duplex reading of calibration.pdf for every later build."""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.calibration import load_calibration, parse_offset, save_back_offset
from generator.core.duplex import DUPLEX_MODES, format_offset

CONFIG_HELP = "The calibration file (default: calibration.json in your user config folder, or $PNP_CONFIG)."


@click.command(context_settings={"ignore_unknown_options": True})  # `-1.5,0.5` is a value, not an option
@click.argument("offset", required=False, metavar="DX,DY")
@click.option("--duplex", type=click.Choice(DUPLEX_MODES), default="long-edge", show_default=True,
              help="The flip calibration.pdf was printed with.")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False), help=CONFIG_HELP)
def calibrate(offset, duplex, config_path):
    """Save your printer's duplex offset: DX,DY exactly as read on calibration.pdf (where the
    back's cross sits on the front's scales, right and up positive). Every later build uses
    it (and says so); `pnp build --back-offset` overrides it. Without DX,DY: show what is saved."""
    if offset is None:
        cal = load_calibration(config_path)
        if cal is None:
            click.echo("no saved calibration; print calibration.pdf and run `pnp calibrate DX,DY`")
        else:
            for flip, reading in sorted(cal.readings.items()):
                shift = cal.shift(flip)
                assert shift is not None  # a flip with a reading has a shift
                click.echo(f"{cal.path}: {flip} reading {format_offset(reading)} mm (the printer shifts the back "
                           f"side by {format_offset(shift)} mm on its own page)")
        return
    reading = parse_offset(offset, "DX,DY")
    path = save_back_offset(reading, duplex, config_path)
    click.echo(f"saved back offset {format_offset(reading)} mm ({duplex}) in {path}; every build now uses it")
