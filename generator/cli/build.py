"""`pnp build`: the print kit of a pack or a build, in one of the output profiles."""

from __future__ import annotations

from pathlib import Path

import sys

import click

from generator.cli.build_options import export_options
from generator.cli.common import (current_pack, few_collections, kit_folder_option, modules_loading,
                                  refused_verdict)
from generator.cli.progress import echo_line, progress_display
from generator.core.errors import InputError
from generator.core.papers import DEFAULT_PAPER, PAPERS
from generator.core.words import counted
from generator.core.workers import Stopped
from generator.export.options import DUPLEX_CHOICES, INK_CHOICES, ONLY_CHOICES, PNG_SIZES, BuildOptions
from generator.export.profile_table import PROFILES, profiles_help


@click.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--build", "build_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Print only this build's cards (and its pieces).")
@click.option("--profile", type=click.Choice(list(PROFILES)), default="home", show_default=True, help=profiles_help())
@click.option("--paper", type=click.Choice(PAPERS), default=DEFAULT_PAPER, show_default=True)
@click.option("--duplex", type=click.Choice(DUPLEX_CHOICES), default="long-edge", show_default=True)
@click.option("--back-offset", default=None,
              help="DX,DY in mm exactly as read on calibration.pdf (right, up); overrides `pnp calibrate`'s.")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False),
              help="The saved calibration file (default: your user config folder, or $PNP_CONFIG).")
@click.option("--size", "png_size", type=click.Choice(PNG_SIZES), default="mpc", show_default=True,
              help="png profile: MakePlayingCards 822×1122 or The Game Crafter 825×1125 pixels.")
@click.option("--only", type=click.Choice(ONLY_CHOICES), default="all",
              show_default=True, help="Home profile: which parts of the kit to build.")
@click.option("--ink", type=click.Choice(INK_CHOICES), default="colour", show_default=True,
              help="Maps (and the rulebook's map pictures) in full colour, or `saver`: the low-ink "
                   "black-and-white look.")
@kit_folder_option
@click.option("--lang", metavar="LANG", help="Build the kit in this language, from the pack's translations/LANG.po "
              "(default output/<pack id>-LANG); what is not translated prints in the pack's own language, with a warning.")
@click.option("--strict", is_flag=True, help="With --lang: refuse to build when any string would print untranslated.")
@click.option("--fetch", "fetch_first", is_flag=True, help="First download the pack's published sheets (cards/*.url).")
@click.option("-q", "--quiet", is_flag=True, help="No progress display (shown on a terminal; see PNP_PROGRESS).")
@export_options
def build(pack_dir, build_file, profile, paper, duplex, back_offset, config_path, png_size, only, ink, out_dir,
          lang, strict, fetch_first, quiet, service, color, icc, ink_limit, cut, cut_inset, tts_url_base):
    """Build the print kit of a pack (PACK_DIR, default the current folder): cards, maps, rulebook
    and play pieces. Each `wrote …` line goes to stdout as its file is made; warnings and the
    progress display to stderr. What `pnp validate` refuses (exit 2) is refused alike."""
    pack_dir = pack_dir or current_pack()
    if fetch_first:
        from generator.cli.sheets import fetch_lines
        for line in fetch_lines(pack_dir):
            echo_line(line)
    with modules_loading():
        from generator.build import build_folder  # deferred: ReportLab takes a second to load
    options = BuildOptions.make(profile, service=service, paper=paper, duplex=duplex, back_offset=back_offset,
                                png_size=png_size, only=only, ink=ink, color=color, icc=icc, ink_limit=ink_limit, cut=cut,
                                cut_inset=cut_inset, tts_url_base=tts_url_base)
    # the saved printer reading is for duplex sheets printed at home (home and cut); print services get none
    options, note = options.with_calibration(config_path)
    if note:
        click.echo(note, err=True)
    made = 0
    try:
        with progress_display(quiet), few_collections():
            for line in build_folder(pack_dir, build_file, options, out_dir, lang=lang, strict=strict,
                                     verdict=refused_verdict):
                echo_line(line)
                made += line.startswith("wrote ")
    except InputError:
        if made:  # files are put in place only when every part succeeds (generator/core/staging.py)
            click.echo(counted(f"pnp build: stopped by the error below; the {made} file(s) made so far were not "
                               "kept and no output was changed"), err=True)
        raise

    except Stopped as stop:
        click.echo(f"pnp build: {stop}; the workers were stopped and no output was changed", err=True)
        sys.exit(128 + stop.signum)
