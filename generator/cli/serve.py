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
def serve(packs, host, port, builds_dir, cache_dir, workers, allowed_hosts, open_browser):
    """Start the deck builder in the browser for PACK (default: the current folder; several
    packs, or a folder of packs, get a start page listing them). Ctrl-C stops it."""
    from generator.web.app import create_app
    from generator.web.guard import ENV_HOSTS, Hosts
    from generator.web.jobs import ENV_JOBS
    from generator.web.listen import listening_socket, serve as run_server
    from generator.web.site import ENV_BUILDS, ENV_CACHE, ENV_PACKS, Site

    targets = list(packs) or [current_pack()]
    site = Site.load(targets, builds_dir, cache_dir)  # bad packs stop here with the CLI's message
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
               f"(builds in {builds_dir}/; {workers} worker{'s' if workers > 1 else ''}; Ctrl-C stops)")
    if host not in ("127.0.0.1", "::1", "localhost"):
        # the builder has no accounts: whoever reaches it may save, rename and delete builds
        click.echo(f"note: listening on {host}: anyone who can reach this address can read, change and delete "
                   f"the builds in {builds_dir}/; put it behind a proxy with a login to share it (README, "
                   "Hosting it for a group); it answers only to the addresses of this computer and the names "
                   "given with --allowed-host", err=True)
    if open_browser:
        webbrowser.open(url)
    try:
        run_server(create_app(site, hosts) if workers == 1 else None, sock, workers)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        jobs.cleanup()
