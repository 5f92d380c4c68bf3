"""`pnp accounts`: the accounts of a `pnp serve --accounts` site, for whoever runs it. The
designer (the site's admin) is named here or with `pnp serve --designer NAME`, never by being
the first to sign up; a forgotten password is reset here; a stolen session is ended here."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.core.errors import InputError, Location, Problem


def _db_options(fn):
    fn = click.option("--builds", "builds_dir", type=click.Path(path_type=Path, file_okay=False), default="builds",
                      show_default=True, help="The builds folder `pnp serve` was started with (finds the default "
                                              "database).")(fn)
    return click.option("--db", "db_url", metavar="URL",
                        help="The site's database (default: pnp-site.sqlite3 beside --builds).")(fn)


def site_store(db_url: str | None, builds_dir: Path, made_here: bool = False):
    """The site's database (`--db`, else the one beside `--builds`). Unless the command may make
    it (`made_here`: `accounts add` names the designer before the site first runs), a SQLite file
    that is not there is an error: opening it would make an empty database, and a mistyped path
    would list no one, or export nothing, without a word."""
    from generator.cli.serve import open_store  # the database stack only when the command runs
    from generator.community.store import Store, default_url, shown
    url = db_url or default_url(builds_dir)
    if not made_here and url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).is_file():
        raise InputError([Problem("site.no-database", f"there is no database {shown(url)}",
                                  Location("--db" if db_url else "--builds"), found=shown(url),
                                  expected="the database `pnp serve` keeps the site in",
                                  fix="name it with --db sqlite:///FILE, or --builds with the folder "
                                      "`pnp serve` was started with")])
    return open_store(Store, url, shown)


def _password(from_stdin: bool, name: str) -> str:
    """The new password: one line of standard input, or typed twice at a hidden prompt."""
    from generator.community.accounts import password_problem
    if from_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt(f"Password for {name}", hide_input=True, confirmation_prompt=True, err=True)
    problem = password_problem(password)
    if problem:
        raise InputError([Problem("accounts.password", f"not a usable password: {problem}", Location("password"),
                                  expected=problem)])
    return password


def _user(store, name: str):
    user = store.user(name=name)
    if user is None:
        raise InputError([Problem("accounts.name", f"no account `{name}` on this site", Location("NAME"), found=name,
                                  expected="the name of an account", fix="`pnp accounts list` shows them")])
    return user


@click.group()
def accounts():
    """The accounts of a `pnp serve --accounts` site: make one (the designer's), list them,
    name designers, reset a password, sign an account out everywhere."""


@accounts.command("add")
@click.argument("name")
@click.option("--designer", is_flag=True, help="The account is a designer's (the site's admin), not a player's.")
@click.option("--password-stdin", is_flag=True, help="Read the password from one line of standard input "
                                                      "(default: asked for twice, hidden).")
@_db_options
def add(name, designer, password_stdin, db_url, builds_dir):
    """Make the account NAME (a player's, or with --designer a designer's)."""
    from generator.cli.serve import require_accounts
    from generator.community.accounts import clean_name, hash_password, name_problem
    from generator.community.store import Conflict
    require_accounts("pnp accounts add")
    name = clean_name(name)
    problem = name_problem(name)
    if problem:
        raise InputError([Problem("accounts.name", f"`{name[:60]}` is not a usable name", Location("NAME"),
                                  found=name[:60], expected=problem)])
    store = site_store(db_url, builds_dir, made_here=True)
    try:
        store.add_user(name, hash_password(_password(password_stdin, name)), "designer" if designer else "player")
    except Conflict:
        holder = store.user(name=name)
        raise InputError([Problem("accounts.name", f"the name `{name}` is taken (by `{holder.name}`: names are the "
                                  "same whatever their case)", Location("NAME"), found=name,
                                  expected="a name no account has",
                                  fix=f"pnp accounts role {holder.name} designer" if designer else None)]) from None
    click.echo(f"made the account {name} ({'designer' if designer else 'player'})")


@accounts.command("list")
@_db_options
def list_accounts(db_url, builds_dir):
    """Every account: its name, role and when it was made."""
    for user in site_store(db_url, builds_dir).users():
        click.echo(f"{user.name}\t{user.role}\t{user.created_at:%Y-%m-%d %H:%M} UTC")


@accounts.command("role")
@click.argument("name")
@click.argument("role", type=click.Choice(["designer", "player"]))
@_db_options
def role(name, role, db_url, builds_dir):
    """Make the account NAME a designer or a player (a running server sees it at the next request)."""
    store = site_store(db_url, builds_dir)
    user = _user(store, name)
    store.set_role(user.name, role)
    click.echo(f"{user.name} is a {role}")


@accounts.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from one line of standard input.")
@_db_options
def password(name, password_stdin, db_url, builds_dir):
    """Set a new password for NAME (one forgotten); every session of the account ends."""
    from generator.cli.serve import require_accounts
    from generator.community.accounts import hash_password
    require_accounts("pnp accounts password")
    store = site_store(db_url, builds_dir)
    user = _user(store, name)
    store.set_password(user.id, hash_password(_password(password_stdin, user.name)))
    click.echo(f"new password set for {user.name}; its sessions have ended")


@accounts.command("signout")
@click.argument("name")
@_db_options
def signout(name, db_url, builds_dir):
    """End every session of NAME (a lost phone, a shared computer)."""
    store = site_store(db_url, builds_dir)
    user = _user(store, name)
    n = store.end_sessions(user.id)
    click.echo(f"ended {n} session{'' if n == 1 else 's'} of {user.name}")
