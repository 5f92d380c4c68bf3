"""The builder in another language (`?lang=de`): the language a request asks for, from its
query or, once asked, from a cookie, so every page after the first stays in it (`?lang=` with no
value goes back to each pack's own language). `Site.pack` hands a route the pack in that
language when the pack has a translation for it (pack/translations), else the pack as written.
A pure ASGI wrapper: no per-request objects beyond the context variable."""

from __future__ import annotations

import re
from contextvars import ContextVar
from urllib.parse import parse_qs

LANG: ContextVar[str | None] = ContextVar("pnp_lang", default=None)
# the language of the pack the page shows (Site.pack sets it), which the builder's own words follow (web/words.py)
SHOWN: ContextVar[str | None] = ContextVar("pnp_shown", default=None)
COOKIE = "pnp_lang"
_TAG = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$")  # a language tag, at most 35 characters


def valid(lang: str | None) -> str | None:
    """The tag if it is one (a stranger's query or cookie is anything), else None."""
    return lang if lang and len(lang) <= 35 and _TAG.match(lang) else None


def _asked(scope) -> str | None:
    """`?lang=` of the request: None when absent, "" to go back to the pack's own language."""
    query = scope.get("query_string") or b""
    if b"lang=" not in query:
        return None
    values = parse_qs(query.decode("latin-1"), keep_blank_values=True).get("lang")
    if not values:
        return None
    return valid(values[-1]) or ""


def _cookie(scope) -> str | None:
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                if key == COOKIE:
                    return valid(val)
    return None


class LanguageChoice:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        asked = _asked(scope)
        token, shown = LANG.set(asked if asked is not None else _cookie(scope)), SHOWN.set(None)
        try:
            if asked is None:
                return await self.app(scope, receive, send)
            cookie = (f"{COOKIE}={asked}; Path=/; SameSite=Lax" + ("" if asked else "; Max-Age=0")).encode()

            async def remembering(message):
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
                await send(message)
            return await self.app(scope, receive, remembering)
        finally:
            LANG.reset(token)
            SHOWN.reset(shown)
