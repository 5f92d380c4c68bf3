"""Who is asking, and CSRF on every write: an ASGI middleware in front of the builder.

With accounts on it reads the session cookie (a token the sessions table does not hold,
because it was never made, signed out, expired, or ended by a password change, counts as
nobody), refuses a POST without the right CSRF token (403), and puts the token into every
page: a hidden field in each POST form and a <meta> the small script csrf.js sends back as a
header with the page's fetch calls. A signed-in browser's token is bound to its session
(accounts.Keys.session_csrf); one without a session uses its `pnp_csrf` nonce. Requests
to /api/ without a session cookie (scripts validating a build) need no token: with no
cookie they act as nobody. Without accounts it only sets `asker` to the one local person,
and pages are left exactly as they were. A database that cannot say who is asking (down,
busy, its file gone) is a 503 here, as in the routes (generator.community.outage).
"""

from __future__ import annotations

import re
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

import anyio
from markupsafe import escape
from starlette.requests import Request

from generator.core.errors import Location, Problem
from generator.web.guard import MAX_BODY, read_body, refusal, replaying
from generator.web.words import builder_words
from generator.community.accounts import (CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER, SESSION_COOKIE, Keys, new_nonce,
                                          session_token)
from generator.community import outage
from generator.community.dbbuilds import Asker, asker
from generator.community.store import Store

SAFE = ("GET", "HEAD", "OPTIONS")
NOBODY = Asker(owner=-1, name="", role="", anonymous=True)  # accounts on, nobody signed in
NONCE = re.compile(r"[A-Za-z0-9_-]{20,64}")
_FORM = re.compile(rb"(<form\b[^>]*\bmethod=\"post\"[^>]*>)", re.I)
_LANG = re.compile(rb"<html lang=\"([A-Za-z-]+)\"")


def cookies_of(headers: dict) -> dict[str, str]:
    jar = SimpleCookie()
    try:
        jar.load(headers.get(b"cookie", b"").decode("latin-1"))
    except Exception:  # a malformed cookie header counts as none
        return {}
    return {k: m.value for k, m in jar.items()}


def https(scope, headers) -> bool:
    return scope.get("scheme") == "https" or headers.get(b"x-forwarded-proto") == b"https"


class CommunityMiddleware:
    def __init__(self, app, store: Store, keys: Keys | None):
        self.app, self.store, self.keys = app, store, keys  # keys None: no accounts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.keys is None:
            if scope["type"] == "http":
                reset = asker.set(Asker())
                try:
                    return await self.app(scope, receive, send)
                finally:
                    asker.reset(reset)
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        cookies = cookies_of(headers)
        session = session_token(cookies.get(SESSION_COOKIE))
        # without a session cookie it is nobody, known without the database: no thread for it
        try:
            who = NOBODY if session is None else await anyio.to_thread.run_sync(self._who, session)
        except Exception as exc:  # the database down, busy or gone: 503, as the routes answer it
            known = outage.answer(exc)
            if known is None:
                raise
            start, body = refusal(known[0], known[1], headers=outage.headers(known[0]))
            await send(start)
            await send(body)
            return
        sent_nonce = cookies.get(CSRF_COOKIE)
        fresh = sent_nonce is None or not NONCE.fullmatch(sent_nonce)
        nonce = new_nonce() if sent_nonce is None or fresh else sent_nonce
        # a session's own token once signed in; before, the nonce's (a fresh nonce has none yet)
        expected: str | None
        if session is not None and not who.anonymous:  # (only a session signs someone in)
            expected = self.keys.session_csrf(session)
        else:
            expected = None if fresh else self.keys.csrf_token(nonce)
        if scope.get("method") not in SAFE and not (scope["path"].startswith("/api/")
                                                       and SESSION_COOKIE not in cookies):
            sent = headers.get(CSRF_HEADER.encode(), b"").decode("latin-1")
            if not sent:
                sent, receive = await self._form_token(scope, receive, headers)
            if expected is None or not Keys.matches(expected, sent):
                start, body = refusal(403, Problem(
                    "request.csrf", "this change did not come with the page's security token", Location("request"),
                    expected="a change made on one of this site's pages", fix="reload the page and try again"))
                await send(start)
                await send(body)
                return
        token = expected or self.keys.csrf_token(nonce)
        scope.setdefault("state", {})
        scope["state"]["csrf"], scope["state"]["asker"] = token, who
        secure = https(scope, headers)
        send = self._sending(send, token, who, nonce if fresh else None, secure)
        reset = asker.set(who)
        try:
            await self.app(scope, receive, send)
        finally:
            asker.reset(reset)

    def _who(self, token: str) -> Asker:
        user = self.store.session_user(token)
        return NOBODY if user is None else Asker(owner=user.id, name=user.name, role=user.role)

    async def _form_token(self, scope, receive, headers):
        """The csrf_token field of a form body; the body is read once and handed on."""
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if kind not in (b"application/x-www-form-urlencoded", b"multipart/form-data"):
            return "", receive
        data = await read_body(receive, MAX_BODY)
        if data is None:  # over the limit: the guard outside refuses such a body first
            return "", receive
        replay = replaying(data, receive)
        if kind == b"application/x-www-form-urlencoded":
            values = parse_qs(data.decode("latin-1")).get(CSRF_FIELD, [""])
            token = values[0]
        else:
            async def disconnect():
                return {"type": "http.disconnect"}

            try:
                form = await Request(scope, replaying(data, disconnect)).form()
                token = str(form.get(CSRF_FIELD) or "")
                await form.close()
            except Exception:
                token = ""
        return token, replay

    def _sending(self, send, token: str, who: Asker, new_nonce_value: str | None, secure: bool):
        extra = [nonce_cookie(new_nonce_value, secure)] if new_nonce_value else []
        state: dict[str, Any] = {"html": False, "start": None, "body": []}  # an HTML answer held back

        async def wrapped(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [(b"set-cookie", c.encode("latin-1")) for c in extra]
                kind = dict(headers).get(b"content-type", b"")
                if kind.startswith(b"text/html"):
                    state["html"], state["start"] = True, {**message, "headers": headers}
                    return
                return await send({**message, "headers": headers})
            if message["type"] == "http.response.body" and state["html"]:
                state["body"].append(message.get("body", b""))
                if message.get("more_body"):
                    return
                html = inject(b"".join(state["body"]), token, who)
                start = state["start"]
                start["headers"] = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"] + [
                    (b"content-length", str(len(html)).encode())]
                await send(start)
                return await send({"type": "http.response.body", "body": html})
            return await send(message)

        return wrapped


def nonce_cookie(value: str, secure: bool) -> str:
    """The Set-Cookie value of a browser's CSRF nonce."""
    return f"{CSRF_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax" + ("; Secure" if secure else "")


def inject(html: bytes, token: str, who: Asker) -> bytes:
    """The CSRF token in each POST form and in a <meta> for csrf.js; the account links in the header."""
    field = f'<input type="hidden" name="{CSRF_FIELD}" value="{token}">'.encode()
    html = _FORM.sub(lambda m: m.group(1) + field, html)
    head = (f'<meta name="csrf-token" content="{token}">'
            '<script src="/community/csrf.js"></script>').encode()
    if b"</head>" not in html:  # a part of a page (the editor's answer to a change): its headers are a character's
        return html
    html = html.replace(b"</head>", head + b"</head>", 1)
    lang = _LANG.search(html[:400])  # the links in the page's language (web/words.py), as the page says it
    words = builder_words(lang.group(1).decode() if lang else None)

    def gettext(text: str) -> str:
        return words.gettext(text) if words is not None else text
    account = gettext("Account")
    if who.anonymous:
        nav = (f'<nav class="account" aria-label="{account}"><a href="/account/signin">{gettext("Sign in")}</a> '
               f'<a href="/account/signup">{gettext("Sign up")}</a></nav>')
    else:
        nav = (f'<nav class="account" aria-label="{account}"><span>{escape(who.name)}'
               f'{gettext(" (designer)") if who.role == "designer" else ""}</span> '
               f'<a href="/account/password">{gettext("Password")}</a> '
               f'<form method="post" action="/account/signout" class="inline">'
               f'<input type="hidden" name="{CSRF_FIELD}" value="{token}"><button type="submit">{gettext("Sign out")}</button>'
               '</form></nav>')
    return html.replace(b"</header>", nav.encode() + b"</header>", 1)


CSRF_JS = """// Sends the page's CSRF token with the builder's own fetch calls (generator.community.middleware)
(function () {
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (!meta || !window.fetch) return;
  var token = meta.getAttribute("content"), original = window.fetch;
  window.fetch = function (input, init) {
    init = init || {};
    var url = typeof input === "string" ? input : input.url;
    if (new URL(url, location.href).origin === location.origin) {
      var headers = new Headers(init.headers || {});
      headers.set("x-csrf-token", token);
      init.headers = headers;
    }
    return original.call(this, input, init);
  };
})();
"""
