"""`pnp new`: start a new game pack."""

from __future__ import annotations

from pathlib import Path

import click

from generator.pack.scaffold import create_pack


@click.command()
@click.argument("name")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), default="card_data", show_default=True)
@click.option("--size", default="poker", show_default=True,
              help="Card size: poker, bridge, tarot, square, mini-american, mini-european, or WxH in mm.")
def new(name, root, size):
    """Start a new game pack: one card type, its layout, one card and a rules chapter."""
    target = create_pack(name, root, size)
    click.echo(f"created {target}: edit {target}/game.yaml and {target}/cards/units.yaml, then run\n"
               f"  pnp validate {target}\n  pnp build {target}")
