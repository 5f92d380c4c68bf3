"""`pnp roster`: a build's roster sheet."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import points_option
from generator.share.decklist_files import load_target  # YAML builds and deck lists


@click.command()
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The PDF to write (default: output/<pack id>/<build>-roster.pdf).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--points", callback=points_option, metavar="N|none",
              help="Points limit (or `none`: no limit); overrides the build's own.")
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
def roster(build_file, out_file, paper, points, pack_option):
    """Print a build's roster sheet: characters, points, the verdict, the share code and its QR code."""
    from generator.render.roster.sheet import write_roster  # deferred: ReportLab takes a second to load
    pack, build = load_target(build_file, pack_option)
    out = out_file or Path("output") / pack.spec.id / f"{build_file.stem}-roster.pdf"
    info = write_roster(pack, build, out, paper=paper, points_override=points)
    limit = f"/{info['limit']}" if info["limit"] is not None else ""
    click.echo(f"{info['path']}: {info['pages']} page(s), {'LEGAL' if info['legal'] else 'NOT LEGAL'}, "
               f"{info['points']}{limit} points, build hash {info['hash']}")
