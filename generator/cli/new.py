"""`pnp new`: start a new game pack."""

from __future__ import annotations

from pathlib import Path

import click

from generator.pack.scaffold import create_pack


@click.command()
@click.argument("name")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), default="card_data", show_default=True)
def new(name, root):
    """Start a new game pack: one card type, its layout, one card and a rules chapter."""
    target = create_pack(name, root)
    click.echo(f"created {target}: edit {target}/game.yaml and {target}/cards/units.yaml, then run\n"
               f"  pnp validate {target}\n  pnp build {target}")
