"""What every request passes before any route sees it: the Host it was sent to, the site a
change comes from, and the size of its body; and what every answer carries: the security
headers. One ASGI middleware, `RequestGuard`, cheap enough for every click (a set lookup and
a comparison).

Why the Host: a page on another site can make its own name resolve to this computer (DNS
rebinding); the browser then sends that page's requests here with the attacker's name in
`Host` and a matching `Origin`, so the Origin check alone lets them through. The server
answers only to the names it was started for: this computer's loopback names, the address
it listens on, with its port, and the names given with `pnp serve --allowed-host`.
"""

from __future__ import annotations

import ipaddress
import json
import os

from generator.core.errors import Location, Problem
from generator.core.limits import NotANumber, whole_number
from generator.core.report import reports_document

MAX_BODY = 1024 * 1024 + 64 * 1024  # a 1 MB upload plus its multipart envelope

# On every answer (a page, a fragment, a PDF, a refusal). The builder's pages load their
# scripts, styles and images from this server only, and have no inline script, so:
# - scripts, styles, images, fonts and fetches from 'self' only; inline scripts and event
#   handler attributes never run (an injected <script> or onerror= is inert), but style
#   attributes do (the pages draw bars with `style="width: ..."`); no plug-ins, no <base>;
# - frame-ancestors 'none' (and X-Frame-Options for older browsers): no other site can frame a
#   page of the builder to trick a click on Delete or Publish;
# - forms post to this server only;
# - nosniff: a build file or a card PNG is never read as HTML or script;
# - Referrer-Policy same-origin: links to other sites get no Referer (page addresses name
#   saved and published builds), and the builder's own form posts still send their Origin,
#   which the guard checks (`no-referrer` would make the browser send `Origin: null`).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_SECURITY = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
_SECURITY_NAMES = frozenset(k for k, _ in _SECURITY)
ENV_HOSTS = "PNP_ALLOWED_HOSTS"  # the host entries, comma-separated, for the worker processes
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "[::]")


def _split(host: str) -> tuple[str, str | None]:
    """`name:port` -> (name, port); IPv6 literals keep their brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        name, rest = host[:end + 1], host[end + 1:]
        return name, rest[1:] if rest.startswith(":") else None
    name, sep, port = host.partition(":")
    return name, port if sep else None


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Hosts:
    """The Host header values a server answers to. An entry `name:port` allows that name on
    that port; a bare `name` allows it on any port (a proxy in front may drop the port);
    `*:port` allows any IP address on the port (a server listening on every address cannot
    know which of its addresses a player typed; an address cannot be rebound the way a name
    can, so it is safe)."""

    def __init__(self, entries):
        self.entries = tuple(e.strip().lower() for e in entries if e and e.strip())
        self.exact: set[tuple[str, str]] = set()
        self.any_port: set[str] = set()
        self.ip_ports: set[str] = set()
        for entry in self.entries:
            name, port = _split(entry)
            if name == "*":
                self.ip_ports.add(port or "80")
            elif port is None:
                self.any_port.add(name)
            else:
                self.exact.add((name, port))

    @classmethod
    def for_server(cls, bind: str, port: int, extra=()) -> "Hosts":
        """What `pnp serve --host BIND --port PORT --allowed-host EXTRA...` answers to."""
        names = list(LOCAL_NAMES)
        if bind in WILDCARDS:
            names.append("*")
        elif _bracket(bind).lower() not in names:
            names.append(_bracket(bind))
        return cls([f"{n}:{port}" for n in names] + list(extra))

    @classmethod
    def from_env(cls) -> "Hosts":
        """The entries `pnp serve` left for its workers; none: the loopback names on any port
        (an app made without a server, as in the tests)."""
        text = os.environ.get(ENV_HOSTS, "")
        return cls(text.split(",")) if text.strip() else cls(LOCAL_NAMES)

    def to_env(self) -> str:
        return ",".join(self.entries)

    def allows(self, host: str) -> bool:
        name, port = _split(host)
        port = port or "80"
        if name in self.any_port or (name, port) in self.exact:
            return True
        if port in self.ip_ports:
            try:
                ipaddress.ip_address(name.strip("[]"))
                return True
            except ValueError:
                return False
        return False

    def shown(self) -> str:
        return ", ".join(e.replace("*", "an IP address") for e in self.entries)


def same_origin(headers: dict) -> bool:
    """A POST from a page of another site (a form aimed at this builder, which listens on
    localhost) carries that site's Origin: refuse it, so no other page can save or delete
    builds. Requests without an Origin (scripts, the API from a program) are let through."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    return origin.split(b"://", 1)[-1] == host


def refusal(status: int, problem: Problem, person: bool = False, headers: dict[str, str] | None = None
            ) -> tuple[dict, dict]:
    """The two ASGI messages of a refusal: a `pnp.validation` document with one problem, or
    for a person (a browser opening a page) the same in plain text; `headers` added."""
    if person:
        lines = [problem.message] + [f"{k}: {v}" for k, v in (("expected", problem.expected), ("fix", problem.fix)) if v]
        text, kind = ("\n".join(lines) + "\n").encode(), b"text/plain; charset=utf-8"
    else:
        text, kind = json.dumps(reports_document([], [problem])).encode(), b"application/json"
    extra = [(k.lower().encode(), v.encode("latin-1")) for k, v in (headers or {}).items()]
    return ({"type": "http.response.start", "status": status,
             "headers": [(b"content-type", kind), (b"content-length", str(len(text)).encode())] + extra},
            {"type": "http.response.body", "body": text})


async def read_body(receive, limit: int) -> bytes | None:
    """A request's whole body from ASGI `receive`, or None once it passes `limit` bytes."""
    body, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        body.append(chunk)
        more = message.get("more_body", False)
    return b"".join(body)


def replaying(data: bytes, then):
    """An ASGI `receive` that gives a body already read (`data`) once, then what `then()` gives."""
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        return await then()
    return receive


def secured(send):
    """An ASGI `send` that adds SECURITY_HEADERS to the answer (those it sets itself are kept)."""
    async def sending(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers") or [])
            have = {k.lower() for k, _ in headers} & _SECURITY_NAMES
            message = {**message, "headers": headers + [h for h in _SECURITY if h[0] not in have]}
        await send(message)
    return sending


class RequestGuard:
    """Refuse, before any route: a Host this server was not started for (400); a change sent
    from another site (403); a body over `limit` (413), counted as it arrives, so a missing or
    false Content-Length does not get around it."""

    def __init__(self, app, hosts: Hosts | None = None, limit: int = MAX_BODY):
        self.app, self.limit = app, limit
        self.hosts = hosts or Hosts.from_env()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = secured(send)
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            return await self._refuse(send, 400, person=b"text/html" in headers.get(b"accept", b""), problem=Problem(
                "request.host", f"this builder does not answer to the host `{host[:100]}`", Location("request"),
                found=host[:100] or "no Host header", expected=self.hosts.shown(),
                fix="open the address `pnp serve` printed, or start it with `--allowed-host NAME` for the name "
                    "players use"))
        if scope.get("method") not in ("GET", "HEAD", "OPTIONS") and not same_origin(headers):
            return await self._refuse(send, 403, Problem(
                "request.origin", "a change sent from another web site is refused", Location("request"),
                expected="a change made on this builder's own pages"))
        length = headers.get(b"content-length")
        if length is not None:
            try:
                whole_number(length.decode("latin-1"), self.limit)
            except NotANumber:  # not a length, or over the limit
                return await self._refuse(send)
            # the HTTP server hands the app no more than Content-Length bytes, so a declared
            # length within the limit needs no counting (and no copy of the body)
            return await self.app(scope, receive, send)
        data = await read_body(receive, self.limit)
        if data is None:
            return await self._refuse(send)
        return await self.app(scope, replaying(data, receive), send)

    async def _refuse(self, send, status: int = 413, problem: Problem | None = None, person: bool = False):
        problem = problem or Problem("upload.size", "the request is over 1 MB", Location("upload"),
                                     expected="a build file of at most 1 MB",
                                     fix="upload the build file itself, not an archive or an image")
        start, body = refusal(status, problem, person)
        await send(start)
        await send(body)
