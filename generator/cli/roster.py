"""`pnp roster`: a build's roster sheet."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from generator.cli.common import is_stdout, points_option, write_stdout
from generator.core.papers import DEFAULT_PAPER, PAPERS
from generator.share.decklist_files import load_target  # YAML builds and deck lists


@click.command()
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The PDF to write (default: output/<pack id>/<build>-roster.pdf; `-` for stdout).")
@click.option("--paper", type=click.Choice(PAPERS), default=DEFAULT_PAPER, show_default=True)
@click.option("--points", callback=points_option, metavar="N|none",
              help="Points limit (or `none`: no limit); overrides the build's own.")
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
def roster(build_file, out_file, paper, points, pack_option):
    """Print a build's roster sheet: characters, points, the verdict, the share code and its QR code."""
    from generator.render.roster.sheet import write_roster  # deferred: ReportLab takes a second to load
    pack, build = load_target(build_file, pack_option)
    to_stdout = is_stdout(out_file)
    with tempfile.TemporaryDirectory(prefix="pnp-roster-") as scratch:
        out = (Path(scratch) / "roster.pdf" if to_stdout
               else out_file or Path("output") / pack.spec.id / f"{build_file.stem}-roster.pdf")
        info = write_roster(pack, build, out, paper=paper, points_override=points)
        if to_stdout:
            write_stdout(out.read_bytes())
    limit = f"/{info['limit']}" if info["limit"] is not None else ""
    # the summary is the result, unless the PDF itself is (then it is a note beside it)
    click.echo(f"{'<stdout>' if to_stdout else info['path']}: {info['pages']} page(s), "
               f"{'LEGAL' if info['legal'] else 'NOT LEGAL'}, {info['points']}{limit} points, "
               f"build hash {info['hash']}", err=to_stdout)
