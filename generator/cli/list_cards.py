"""`pnp list`: every card of a pack as a table, JSON or CSV."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import current_pack, is_stdout, write_stdout
from generator.core.files import atomic_output
from generator.pack.cardlist import render_card_list
from generator.pack.load import load_pack


@click.command(name="list")
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the list to this file (default, or `-`: print it).")
@click.option("-q", "--query", default=None, metavar="SEARCH",
              help="Only the cards a search finds, as the builder's search boxes read it: "
                   "'type:attack points<=3 kw:poison -name:walk' (the builder's /p/PACK/help/search lists the fields).")
def list_cards(pack_dir, fmt, out_file, query):
    """List every card of a pack (default: the current folder): id, name, set, type, points and key statistics."""
    text = render_card_list(load_pack(pack_dir or current_pack()), fmt, query)
    if out_file is None or is_stdout(out_file):
        write_stdout(text)
    else:
        with atomic_output(out_file, suffix=out_file.suffix) as tmp:
            Path(tmp).write_bytes(text.encode("utf-8"))
        click.echo(f"wrote {out_file}")


def _offset(value: str) -> tuple[float, float]:
    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("expected DX,DY in millimetres, e.g. 0.5,-1") from None
    return dx, dy
