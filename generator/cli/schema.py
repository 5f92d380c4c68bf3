"""`pnp schema`: write JSON Schemas for YAML editors."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import current_pack, is_stdout, refuse_stdout, write_stdout
from generator.pack.load import load_pack
from generator.pack.schema_export import dumps, resolve_pack, schema_files, write_schemas

KINDS = ("game", "layout", "cards", "build")


@click.command()
@click.option("--pack", "pack_dir",
              help="A pack folder, or the name of a pack in card_data/ (e.g. tactics); default: the current folder.")
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default="schemas",
              show_default=True, help="The folder to write the schemas into (made if missing); with --only, "
                                      "`-` prints that one schema.")
@click.option("--only", type=click.Choice(KINDS), help="Only this schema.")
def schema(pack_dir, out_dir, only):
    """Write JSON Schemas for game.yaml, card files, builds and card layouts (for YAML editors)."""
    from generator.render.base.layout import LayoutFile  # deferred: the renderer is slow to import
    if is_stdout(out_dir) and only is None:
        refuse_stdout("schema", "one file per schema", fix="choose one with --only " + "|".join(KINDS) +
                      ", or give -o a folder")
    pack = load_pack(resolve_pack(pack_dir or current_pack()))
    if only is not None:
        files = {name: s for name, s in schema_files(pack, LayoutFile).items() if name.split(".")[0] == only}
        if not files:  # a pack without sides has no build schema
            raise click.BadParameter(f"{pack.spec.name} has no {only} schema (it has no sides)", param_hint="--only")
        if is_stdout(out_dir):
            write_stdout(dumps(next(iter(files.values()))))
            return
    for path in write_schemas(pack, out_dir, layout_model=LayoutFile, only=only):
        click.echo(str(path))
