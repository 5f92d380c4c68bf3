"""`pnp builds export DIR`: the saved builds of a `pnp serve` database as build files."""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.errors import InputError, Location, Problem


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
    from generator.cli.serve import open_store  # the web stack is imported only when the command runs
    from generator.community.store import Store, default_url, shown
    from generator.community.transfer import export_builds
    url = db_url or default_url(builds_dir)
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).is_file():
        # opening would make an empty database there, and "wrote 0 build files" would hide the mistake
        raise InputError([Problem("builds.no-database", f"there is no database {shown(url)} to export from",
                                  Location("--db" if db_url else "--builds"), found=shown(url),
                                  expected="the database `pnp serve` saved the builds in",
                                  fix="name it with --db sqlite:///FILE, or --builds with the folder "
                                      "`pnp serve` was started with")])
    store = open_store(Store, url, shown)
    written = export_builds(store, folder)
    click.echo(f"wrote {len(written)} build file{'' if len(written) == 1 else 's'} to {folder}/")
