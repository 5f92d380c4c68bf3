"""`pnp schema`: write JSON Schemas for YAML editors."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import current_pack
from generator.pack.load import load_pack
from generator.pack.schema_export import resolve_pack, write_schemas


@click.command()
@click.option("--pack", "pack_dir",
              help="A pack folder, or the name of a pack in card_data/ (e.g. tactics); default: the current folder.")
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default="schemas",
              show_default=True, help="The folder to write the schemas into (made if missing).")
def schema(pack_dir, out_dir):
    """Write JSON Schemas for game.yaml, card files, builds and card layouts (for YAML editors)."""
    from generator.render.base.layout import LayoutFile  # deferred: the renderer is slow to import
    for path in write_schemas(load_pack(resolve_pack(pack_dir or current_pack())), out_dir, layout_model=LayoutFile):
        click.echo(str(path))
