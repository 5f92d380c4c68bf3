"""`pnp serve`: start the deck builder (generator.web). The web stack is imported only when
the command runs, so every other command starts as fast as before."""

from __future__ import annotations

import os
import re
import tempfile
import webbrowser
from pathlib import Path

import click

from generator.cli.common import current_pack
from generator.core.errors import InputError, Location, Problem
from generator.core.extras import install_line


def _host_names(ctx, param, values):
    for value in values:
        if not re.fullmatch(r"(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?", value):
            raise click.BadParameter(f"`{value}` is not a host name, an address or either with `:PORT`",
                                     ctx, param)
    return values


@click.command()
@click.argument("packs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default lets only this computer in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--builds", "builds_dir", type=click.Path(path_type=Path, file_okay=False), default="builds",
              show_default=True, help="Where builds are saved (YAML files the CLI reads too).")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Card image cache (default: output/.web-cache).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes, to serve a group (each loads the packs; builds are shared files).")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME[:PORT]", callback=_host_names,
              help="Another host name the builder answers to (a proxy's, or this computer's on the network); "
                   "repeatable. Without a port, any port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the builder in the web browser.")
@click.option("--db", "db_url", metavar="URL",
              help="The database of saved builds, their versions, accounts and published builds: "
                   "postgresql://USER:PASSWORD@HOST/NAME for a shared site (default: a SQLite file "
                   "pnp-site.sqlite3 beside the builds folder).")
@click.option("--accounts", is_flag=True,
              help="Players sign up and sign in; each keeps their own builds and may publish them. Signing up "
                   "makes players: name the designer (the site's admin) with --designer or `pnp accounts add NAME "
                   "--designer`.")
@click.option("--designer", "designers", multiple=True, metavar="NAME",
              help="With --accounts: the account NAME is a designer (sees the card statistics, features and hides "
                   "published builds); repeatable. The account must exist: sign up first, or `pnp accounts add NAME "
                   "--designer`.")
@click.option("--open-access", is_flag=True,
              help="Without --accounts on an address beyond this computer: let everyone who reaches it read, "
                   "change and delete every saved build (refused unless given).")
@click.option("--import-builds", "import_dir", type=click.Path(path_type=Path, file_okay=False, exists=True),
              help="Read every build file of this folder into the database first (a new version of a build "
                   "of the same name); without --accounts they are the one local person's.")
def serve(packs, host, port, builds_dir, cache_dir, workers, allowed_hosts, open_browser, db_url, accounts,
          designers, open_access, import_dir):
    """Start the deck builder in the browser for PACK (default: the current folder; several
    packs, or a folder of packs, get a start page listing them). Ctrl-C stops it."""
    from generator.web.app import create_app
    from generator.web.guard import ENV_HOSTS, Hosts
    from generator.web.jobs import ENV_JOBS
    from generator.web.listen import listening_socket, serve as run_server
    from generator.web.site import ENV_BUILDS, ENV_CACHE, ENV_PACKS, Site
    from generator.community.app import ENV_ACCOUNTS, ENV_DB, FACTORY, install
    from generator.community.store import Store, default_url, shown as shown_url
    from generator.community.transfer import import_builds

    local = host in ("127.0.0.1", "::1", "localhost")
    if not local and not accounts and not open_access:
        raise InputError([Problem("serve.open", f"`--host {host}` lets other computers in, and without accounts "
                                  "anyone who reaches it could read, change and delete every saved build",
                                  Location("--host"), found=host, expected="--accounts, or --open-access",
                                  fix="add --accounts (players sign in), or --open-access if every visitor may "
                                      "change every build")])
    if designers and not accounts:
        raise InputError([Problem("serve.designer", "--designer names an account, and this server has none",
                                  Location("--designer"), found=", ".join(designers), expected="--accounts",
                                  fix="add --accounts")])
    if accounts:
        require_accounts("--accounts")
    targets = list(packs) or [current_pack()]
    site = Site.load(targets, builds_dir, cache_dir)  # bad packs stop here with the CLI's message
    db_url = db_url or default_url(builds_dir)
    store = open_store(Store, db_url, shown_url)
    if accounts:
        name_designers(store, designers, shown_url(db_url))
    if import_dir:
        names = import_builds(store, import_dir)
        click.echo(f"imported {len(names)} build{'' if len(names) == 1 else 's'} from {import_dir}/")
    os.environ.update({ENV_DB: db_url, ENV_ACCOUNTS: "1" if accounts else "0"})
    # the workers (and a server started with uvicorn's own command) read the packs from here
    os.environ.update({ENV_PACKS: os.pathsep.join(str(t) for t in targets), ENV_BUILDS: str(builds_dir)})
    if cache_dir:
        os.environ[ENV_CACHE] = str(cache_dir)
    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        raise InputError([Problem("serve.listen", f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                                  Location("--port"), found=str(port),
                                  expected="a free port on an address of this computer",
                                  fix="stop the other server on that port, or pick another with --port")]) from None
    port = sock.getsockname()[1]  # --port 0 lets the system choose
    hosts = Hosts.for_server(host, port, allowed_hosts)  # the Host names it answers to (DNS rebinding)
    os.environ[ENV_HOSTS] = hosts.to_env()
    jobs = tempfile.TemporaryDirectory(prefix="pnp-serve-jobs-")  # the workers' per-client job claims
    os.environ[ENV_JOBS] = jobs.name
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    url = f"http://{shown}:{port}/"
    click.echo(f"pnp serve: {', '.join(p.spec.name for p in site.packs.values())} at {url} "
               f"(builds in {shown_url(db_url)}; {'accounts' if accounts else 'no accounts'}; {workers} worker{'s' if workers > 1 else ''}; Ctrl-C stops)")
    if not local and not accounts:
        # --open-access: whoever reaches it may save, rename and delete builds
        click.echo(f"note: --open-access on {host}: anyone who can reach this address can read, change and delete "
                   "every saved build; use --accounts to give each player their own (README, Hosting a game's "
                   "site); it answers only to the addresses of this computer and the names given with "
                   "--allowed-host", err=True)
    if (note := translations_note(site.packs.values())) is not None:
        click.echo(note, err=True)
    if open_browser:
        webbrowser.open(url)
    try:
        app = install(create_app(site, hosts), store, accounts) if workers == 1 else None
        run_server(app, sock, workers, factory=FACTORY)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        jobs.cleanup()


def translations_note(packs) -> str | None:
    """One line when a served pack has translations this install cannot read (Babel, the
    `translations` extra, is missing): the builder then offers only each pack's own language, and
    says so here rather than leaving the languages out without a word. None otherwise."""
    from generator.pack.translations.catalog import has_babel, languages
    held = [(pack.spec.name, langs) for pack in packs if (langs := languages(Path(pack.root)))]
    if not held or has_babel():
        return None
    said = "; ".join(f"{name}: {', '.join(langs)}" for name, langs in held)
    return (f"note: translations not offered ({said}): reading them needs Babel, the `translations` extra; "
            f"add it: {install_line('translations')}")


def require_accounts(option: str) -> None:
    """Accounts need argon2-cffi (the `accounts` extra): without it, the advice, exit 2."""
    from generator.community.accounts import accounts_available
    if not accounts_available():
        raise InputError([Problem("serve.accounts", "accounts need the argon2 password hasher, which this "
                                  "install does not have", Location(option), found="no argon2-cffi",
                                  expected="the `accounts` extra",
                                  fix=f"add the `accounts` extra: {install_line('accounts')}")])


def name_designers(store, names, shown_db: str) -> None:
    """`--designer NAME...`: each account made a designer before the server answers anyone; a
    name with no account stops the start. With none named and no designer yet, a note says how
    a site gets one (signing up never makes a designer)."""
    for name in names:
        if store.set_role(name, "designer") is None:
            raise InputError([Problem("serve.designer", f"no account `{name}` on this site ({shown_db})",
                                      Location("--designer"), found=name, expected="the name of an account",
                                      fix=f"make it with `pnp accounts add {name} --designer`, or sign up as "
                                          f"{name} and start again with --designer {name}")])
    if not names and not store.designers():
        click.echo("note: this site has no designer yet (who sees the card statistics and features or hides "
                   "published builds); signing up makes players only: name one with `--designer NAME` or "
                   "`pnp accounts add NAME --designer`", err=True)


def open_store(store_class, url: str, shown):
    """The database, its tables brought up to date; a database that cannot be reached, or that
    a newer pnp made, is a message, not a traceback."""
    # deferred: SQLAlchemy loads only when a database is opened
    from sqlalchemy.exc import ArgumentError, OperationalError
    from generator.community.store import SchemaTooNew
    try:
        store = store_class(url)
        store.migrate()
    except SchemaTooNew as exc:
        raise InputError([Problem("serve.db-newer", str(exc), Location("--db"), found=exc.found,
                                  expected=f"revision {exc.head} or older",
                                  fix="upgrade pnp-generator to the release that made this database, or open a "
                                      "backup made before it was upgraded")]) from None
    except (OperationalError, ArgumentError, ModuleNotFoundError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:200]
        raise InputError([Problem("serve.db", f"cannot open the database {shown(url)}: {reason}", Location("--db"),
                                  found=shown(url), expected="sqlite:///FILE or postgresql://USER@HOST/NAME",
                                  fix="check the address and that the server runs; PostgreSQL needs the "
                                      f"`postgres` extra: {install_line('postgres')}")]) from None
    return store
