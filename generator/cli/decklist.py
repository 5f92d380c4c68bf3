"""`pnp decklist BUILD`: print a build (a YAML build file or a deck list) as a text deck list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from generator.cli.common import is_stdout, write_stdout
from generator.core.errors import InputError
from generator.core.files import write_text
from generator.core.report import Violation
from generator.core.yamlio import load_yaml_file, read_text
from generator.rules.context import resolve_build, unknown_cards
from generator.share.decklist import format_decklist, parse_decklist
from generator.share.decklist_files import is_decklist_file, load_target


@click.command(name="decklist")
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the deck list to this file (default, or `-`: print it).")
def decklist(build_file, pack_option, out_file):
    """Print a build as a plain-text deck list (see docs/decklist.md); `pnp validate` reads one back."""
    pack, build = load_target(build_file, pack_option)  # found and loaded as every command does: errors alike
    unknown: list[Violation] = []
    resolve_build(pack, build, unknown)  # a deck list names cards: one the pack lacks would not read back
    if unknown:
        raise InputError(unknown_cards(unknown, "cannot write a deck list of this build"))
    document: Any  # a build document: from the deck list, or the YAML file as written
    if is_decklist_file(build_file):
        document = parse_decklist(read_text(build_file), pack, str(build_file))
    else:  # the file as written: a named limit (`beginner`) and unnamed characters stay so
        document = load_yaml_file(build_file).data
    text = format_decklist(document, pack)
    if out_file is None or is_stdout(out_file):
        write_stdout(text)
    else:
        write_text(out_file, text)
        click.echo(f"wrote {out_file}")
