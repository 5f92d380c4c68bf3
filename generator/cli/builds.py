"""`pnp builds export DIR`: the saved builds of a `pnp serve` database as build files."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def builds():
    """The saved builds of the deck builder's database (`pnp serve`)."""


@builds.command("export")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--db", "db_url", metavar="URL", help="The database (default: pnp-site.sqlite3 beside --builds).")
@click.option("--builds", "builds_dir", type=click.Path(path_type=Path, file_okay=False), default="builds",
              show_default=True, help="The builds folder `pnp serve` was started with (finds the default database).")
def export(folder, db_url, builds_dir):
    """Write every saved build (its newest version) to FOLDER as YAML build files that `pnp
    validate` reads; with accounts, each account's builds in a folder of its own."""
    from generator.cli.accounts import site_store  # the database stack only when the command runs
    from generator.community.transfer import export_builds
    store = site_store(db_url, builds_dir)
    written = export_builds(store, folder)
    click.echo(f"wrote {len(written)} build file{'' if len(written) == 1 else 's'} to {folder}/")
