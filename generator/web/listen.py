"""Serving the builder: the listening socket, and uvicorn running one process or several
workers on it. `pnp serve` uses this; so does `make bench`'s load test, so what is measured
is what a group hosting the builder runs.

Two choices here were measured (bench/web_load.py: 50 clients, 2 workers, a new connection
every 10 requests), not taken on faith:

- The event loop is asyncio's, not uvloop. Under load uvloop left new connections waiting
  in the accept queue: the first request on a connection took 130 to 150 ms (median) while
  the others took 9 ms, so every player opening the page waited behind everyone else.
- HTTP is parsed by httptools when it is installed (the `site` extra), else by h11
  (bench/community_load.py, 50 clients on 2 workers, no pause: a route that only returns a
  constant answered 1,004 req/s with httptools and 753 with h11; the page of a published
  build 584 and 466). One person's builder does not need the difference.
- We bind the socket ourselves, with the protocol number set to TCP. asyncio switches
  Nagle's algorithm off only on accepted sockets whose protocol says TCP, and an accepted
  socket copies it from the listening one; uvicorn's own socket for `--workers` leaves it 0,
  and then every answer after the first on a connection waited about 40 ms for the client's
  delayed acknowledgement.
"""

from __future__ import annotations

import socket
from importlib.util import find_spec

import uvicorn
from uvicorn.supervisors import Multiprocess

FACTORY = "generator.web.app:app_from_env"  # what each worker process calls (packs from the environment)
LOOP = "asyncio"  # see the module docstring
HTTP = "httptools" if find_spec("httptools") else "h11"  # likewise
# A player clicks in the editor every few seconds: keep their connection open that long, so a
# click does not pay for a new connection (uvicorn's default closes it after 5 s idle)
KEEP_ALIVE_SECONDS = 30


def listening_socket(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A TCP socket bound to host:port and listening (port 0: the system picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after Ctrl-C
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)  # the worker processes serve this same socket
    return sock


def serve(app, sock: socket.socket, workers: int = 1, log_level: str = "warning", factory: str = FACTORY) -> None:
    """Serve until Ctrl-C or SIGTERM. One worker serves `app`, already made in this process;
    several each make their own from `factory`, reading the packs from the environment."""
    if workers > 1:
        config = uvicorn.Config(factory, factory=True, workers=workers, loop=LOOP, http=HTTP, log_level=log_level,
                                timeout_keep_alive=KEEP_ALIVE_SECONDS)
        Multiprocess(config, sockets=[sock]).run()
    else:
        config = uvicorn.Config(app, loop=LOOP, http=HTTP, log_level=log_level,
                                timeout_keep_alive=KEEP_ALIVE_SECONDS)
        uvicorn.Server(config).run(sockets=[sock])
