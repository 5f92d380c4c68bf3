"""`pnp schema`: write JSON Schemas for YAML editors."""

from __future__ import annotations

from pathlib import Path

import click

from generator.pack.load import load_pack
from generator.pack.locate import DEFAULT_PACK
from generator.pack.schema_export import write_schemas


@click.command()
@click.option("--pack", "pack_dir", type=click.Path(path_type=Path, file_okay=False), default=str(DEFAULT_PACK),
              show_default=True)
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default="schemas",
              show_default=True)
def schema(pack_dir, out_dir):
    """Write JSON Schemas for game.yaml, card files and builds (for YAML editors)."""
    for path in write_schemas(load_pack(pack_dir), out_dir):
        click.echo(str(path))
