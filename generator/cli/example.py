"""`pnp example`: copy one of the example games that ship with pnp into a folder of your own."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from generator.cli.common import escape_controls

from generator.pack.examples import copy_example, example_games

DEFAULT_EXAMPLE = "boss_fight"  # the flagship game; `pnp example --list` shows the others


def _complete_name(ctx, param, incomplete):
    return [name for name in example_games() if name.startswith(incomplete)]


@click.command()
@click.argument("name", required=False, default=DEFAULT_EXAMPLE, shell_complete=_complete_name)
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@click.option("--list", "list_them", is_flag=True, help="List the example games, one line each.")
def example(name, folder, list_them):
    """Copy the example game NAME (default boss_fight) into FOLDER (default ./NAME), ready to
    validate, build and edit. FOLDER must be new or empty."""
    if list_them:
        for game_id, line in example_games().items():
            click.echo(f"{game_id:<15} {line}")
        return
    from generator.render.base.layout import LayoutFile  # deferred: the renderer is slow to import
    target = copy_example(name, folder or Path(name), layout_model=LayoutFile)
    click.echo(f"copied the example {name} into {escape_controls(str(target))}/; now run\n"
               f"  cd {shlex.quote(escape_controls(str(target)))}\n  pnp validate\n"
               f"  pnp build      # the print kit, into output/{name}/\n"
               f"  pnp serve      # the deck builder in the browser")
