"""`pnp new`: start a new game pack."""

from __future__ import annotations

from pathlib import Path

import click

from generator.pack.scaffold import create_pack


@click.command()
@click.argument("name")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), default=".", show_default=True,
              help="The folder to make the pack in (the pack is ROOT/<name>).")
@click.option("--size", default="poker", show_default=True,
              help="Card size: poker, bridge, tarot, square, mini-american, mini-european, or WxH in mm.")
@click.option("--sheet", type=click.Choice(["xlsx", "ods", "csv"]), is_flag=False, flag_value="xlsx",
              help="Keep the cards in a spreadsheet, cards/cards.xlsx (or --sheet ods / csv).")
def new(name, root, size, sheet):
    """Start a new game pack: one card type, its layout, one card and a rules chapter, with the
    JSON Schemas its files name (schemas/, for YAML editors)."""
    from generator.render.base.layout import LayoutFile  # deferred: the renderer is slow to import
    if sheet == "xlsx":
        from generator.pack.sheets.write import xlsx_available, xlsx_missing
        if not xlsx_available():  # said before anything is made
            raise xlsx_missing(Path(root) / name / "cards" / "cards.xlsx")
    target = create_pack(name, root, size, layout_model=LayoutFile)
    cards = f"{target}/cards/units.yaml"
    if sheet:
        from generator.cli.sheets import cards_to_sheet
        cards = str(cards_to_sheet(target, sheet))
    click.echo(f"created {target}: edit {target}/game.yaml and {cards}, then run\n"
               f"  pnp validate {target}\n  pnp build {target}")
