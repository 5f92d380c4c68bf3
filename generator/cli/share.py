"""`pnp share` and `pnp unshare`: a build as a short code, and back."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import is_stdout, write_stdout
from generator.core.files import write_text
from generator.pack.load import load_pack
from generator.share.codes import pack_dir_for_code, share_code, unshare_text
from generator.share.decklist_files import load_target  # YAML builds and deck lists


@click.command()
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
def share(build_file, pack_option):
    """Print a build as a short share code (PNP1-…); `pnp unshare CODE` turns it back into the build."""
    pack, build = load_target(build_file, pack_option)
    click.echo(share_code(pack, build))


@click.command()
@click.argument("code")
@click.option("--pack", "pack_dir", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the code was made for (default: card_data/<the pack id the code carries>).")
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The build file to write (default, or `-`: print it).")
def unshare(code, pack_dir, out_file):
    """Turn a share code back into a build file (YAML)."""
    pack = load_pack(pack_dir or pack_dir_for_code(code))
    text = unshare_text(code, pack, None if is_stdout(out_file) else out_file)
    if out_file is None or is_stdout(out_file):
        write_stdout(text)
    else:
        write_text(out_file, text)
        click.echo(f"wrote {out_file}")
