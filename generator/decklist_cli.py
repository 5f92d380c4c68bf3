"""`pnp decklist BUILD`: print a build (a YAML build file or a deck list) as a text deck list."""

from __future__ import annotations

from pathlib import Path

import click


@click.command(name="decklist")
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the deck list to this file (default: print it).")
def decklist(build_file, pack_option, out_file):
    """Print a build as a plain-text deck list (see docs/decklist.md); `pnp validate` reads one back."""
    from generator.decklist import format_decklist
    from generator.share import load_target, write_text
    pack, build = load_target(build_file, pack_option)
    if build_file.suffix.lower() in (".yaml", ".yml"):
        from generator.yamlio import load_yaml_file
        document = load_yaml_file(build_file).data  # keeps a named limit (`beginner`) and unnamed characters as written
    else:
        from generator.decklist import parse_decklist
        from generator.yamlio import read_text
        document = parse_decklist(read_text(build_file), pack, str(build_file))
    text = format_decklist(document, pack)
    if out_file is None:
        click.echo(text, nl=False)
    else:
        write_text(out_file, text)
        click.echo(f"wrote {out_file}")
