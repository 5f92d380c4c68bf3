"""`pnp build`: the print kit of a pack or a build, in one of the output profiles."""

from __future__ import annotations

from pathlib import Path

import sys

import click

from generator.cli.build_options import apply_service, export_options
from generator.cli.common import is_stdout, refuse_stdout
from generator.cli.progress import echo_line, progress_display
from generator.core.calibration import parse_offset
from generator.core.errors import InputError
from generator.core.workers import Stopped
from generator.cli.common import current_pack


@click.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--build", "build_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Print only this build's cards (and its pieces).")
@click.option("--profile", type=click.Choice(["home", "gutterfold", "print-shop", "png", "tts", "dtc", "cut",
                                             "printplaygames"]), default="home", show_default=True,
              help="What to make: home sheets, gutterfold, print-shop PDF, PNG per card, TTS sheets and save, "
                   "DriveThruCards decks, cutting-machine sheets, PrintPlayGames sheets.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge", "none"]), default="long-edge", show_default=True)
@click.option("--back-offset", default=None,
              help="DX,DY in mm exactly as read on calibration.pdf (right, up); overrides `pnp calibrate`'s.")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False),
              help="The saved calibration file (default: your user config folder, or $PNP_CONFIG).")
@click.option("--size", "png_size", type=click.Choice(["mpc", "tgc"]), default="mpc", show_default=True,
              help="png profile: MakePlayingCards 822×1122 or The Game Crafter 825×1125 pixels.")
@click.option("--only", type=click.Choice(["cards", "maps", "rulebook", "pieces", "all"]), default="all",
              show_default=True, help="Home profile: which parts of the kit to build.")
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Output folder (default: output/<pack id>).")
@click.option("--fetch", "fetch_first", is_flag=True, help="First download the pack's published sheets (cards/*.url).")
@click.option("-q", "--quiet", is_flag=True, help="No progress display (shown on a terminal; see PNP_PROGRESS).")
@export_options
def build(pack_dir, build_file, profile, paper, duplex, back_offset, config_path, png_size, only, out_dir,
          fetch_first, quiet, service, color, icc, ink_limit, cut, cut_inset, tts_url_base):
    """Build the print kit of a pack (PACK_DIR, default the current folder): cards, maps, rulebook
    and play pieces. Each `wrote …` line goes to stdout as its file is made; warnings and the
    progress display to stderr."""
    if is_stdout(out_dir):
        refuse_stdout("build", "a folder of files (PDFs, images, a save)")
    pack_dir = pack_dir or current_pack()
    if fetch_first:
        from generator.cli.sheets import fetch_lines
        for line in fetch_lines(pack_dir):
            echo_line(line)
    from generator.build import run_build  # deferred: ReportLab takes a second to load
    from generator.core.calibration import resolve_back_offset
    eff = apply_service(profile, service, color, png_size, cut, ink_limit)
    extra = {"color": eff["color"], "icc": str(icc) if icc else None, "ink_limit": eff["ink_limit"], "cut": cut,
             "cut_inset": cut_inset, "tts_url_base": tts_url_base}
    # the saved printer reading is for duplex sheets printed at home (home and cut); print services get none
    explicit = parse_offset(back_offset, "--back-offset") if back_offset is not None else None
    reading, note = resolve_back_offset(explicit, duplex if eff["profile"] in ("home", "cut") else "none", config_path)
    if note:
        click.echo(note, err=True)
    made = 0
    try:
        with progress_display(quiet):
            for line in run_build(pack_dir, build_file=build_file, profile=eff["profile"], paper=paper,
                                  duplex=duplex, back_offset=reading, png_size=eff["png_size"], only=only,
                                  out_dir=out_dir, extra=extra):
                echo_line(line)
                made += line.startswith("wrote ")
    except InputError:
        if made:  # files are put in place only when every part succeeds (generator/core/staging.py)
            click.echo(f"pnp build: stopped by the error below; the {made} file(s) made so far were not kept and "
                       "no output was changed", err=True)
        raise
    except Stopped as stop:
        click.echo(f"pnp build: {stop}; the workers were stopped and no output was changed", err=True)
        sys.exit(128 + stop.signum)
