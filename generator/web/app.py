"""The ASGI application: routes, templates, error pages and the request size limit.

`create_app(site)` makes the app for packs already loaded; `app_from_env()` is the factory
uvicorn's workers call (`uvicorn --factory generator.web.app:app_from_env`), reading the
packs and the builds folder from the environment, so every worker is the same.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from generator.errors import InputError, Location, Problem
from generator.rules.report import reports_document
from generator.web.site import Site

HERE = Path(__file__).parent
MAX_BODY = 1024 * 1024 + 64 * 1024  # a 1 MB upload plus its multipart envelope
log = logging.getLogger("pnp.web")


def templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["docjson"] = doc_json
    env.filters["rules"] = rules_html
    return env


def doc_json(value) -> Markup:
    """JSON for a <script> block, keys in their order (a deck stays in the order it was built);
    `<`, `>` and `&` escaped so no text in a build can close the script element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def rules_html(text: str) -> Markup:
    """Card text for a page: `**bold**`, `*italic*` and inline icons (`:health:`) as words,
    the markup the card layouts understand, escaped first."""
    import re

    from markupsafe import escape
    out = str(escape(text or ""))
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", out)
    out = re.sub(r":([a-z0-9][a-z0-9-]*):", lambda m: f'<span class="icon">{m.group(1).replace("-", " ")}</span>', out)
    return Markup(out)


def page(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
    site: Site = request.app.state.site
    html = request.app.state.jinja.get_template(name).render(request=request, site=site, **context)
    return HTMLResponse(html, status_code=status)


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "") \
        or request.headers.get("x-pnp-fragment") == "1"


def problems_response(request: Request, problems: list[Problem], status: int = 422):
    if request.url.path.startswith("/api/"):
        return JSONResponse(reports_document([], problems), status_code=status)
    if request.headers.get("x-pnp-fragment") == "1":  # a change made in the editor: the page shows it in place
        html = request.app.state.jinja.get_template("_problems.html").render(problems=problems)
        return HTMLResponse(html, status_code=status)
    return page(request, "error.html", status=status, problems=problems, title="That did not work")


def same_origin(headers: dict) -> bool:
    """A POST from a page of another site (a form aimed at this builder, which listens on
    localhost) carries that site's Origin: refuse it, so no other page can save or delete
    builds. Requests without an Origin (scripts, the API from a program) are let through."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    return origin.split(b"://", 1)[-1] == host


class BodyLimit:
    """Refuse request bodies over MAX_BODY with 413, counted as they arrive (a missing or
    false Content-Length does not get around it), and changes sent from other sites."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if scope.get("method") not in ("GET", "HEAD", "OPTIONS") and not same_origin(headers):
            return await self._refuse(send, 403, Problem(
                "request.origin", "a change sent from another web site is refused", Location("request"),
                expected="a change made on this builder's own pages"))
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._refuse(send)
        body, more = [], True
        size = 0
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self._refuse(send)
            body.append(chunk)
            more = message.get("more_body", False)
        data = b"".join(body)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _refuse(self, send, status: int = 413, problem: Problem | None = None):
        problem = problem or Problem("upload.size", "the request is over 1 MB", Location("upload"),
                                     expected="a build file of at most 1 MB",
                                     fix="upload the build file itself, not an archive or an image")
        text = json.dumps(reports_document([], [problem])).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(text)).encode())]})
        await send({"type": "http.response.body", "body": text})


def create_app(site: Site) -> FastAPI:
    from generator.web import routes_api, routes_builds, routes_cards, routes_maps, routes_pages, routes_print

    app = FastAPI(title="pnp deck builder", version="1",
                  description="Cards, build validation (the `pnp.validation` document of `pnp validate --format json`), share codes and deck lists of "
                              "the packs this server serves.",
                  docs_url=None, redoc_url=None)  # the stock pages load scripts from a CDN; /api is ours
    app.state.site = site
    app.state.jinja = templates()
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for module in (routes_pages, routes_cards, routes_builds, routes_print, routes_maps, routes_api):
        app.include_router(module.router)

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError):
        return problems_response(request, exc.problems, getattr(exc, "status", 422))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if _wants_json(request):
            return JSONResponse({"detail": message}, status_code=exc.status_code, headers=exc.headers)
        return page(request, "error.html", status=exc.status_code, message=message, problems=[],
                    title="Not found" if exc.status_code == 404 else "That did not work")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        problems = [Problem("request.invalid", str(e.get("msg", "invalid value")),
                            Location("request"), found=None, expected=".".join(str(p) for p in e.get("loc", ())))
                    for e in exc.errors()[:10]]
        return problems_response(request, problems, 422)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):  # never a traceback in a page
        log.exception("unexpected error on %s", request.url.path)
        return problems_response(request, [Problem("server.error", "something went wrong on the server; "
                                                   "the error is in the server's log", Location("server"))], 500)

    app.add_middleware(BodyLimit)
    return app


def app_from_env() -> FastAPI:
    """The uvicorn factory: packs from PNP_PACKS, builds folder from PNP_BUILDS."""
    return create_app(Site.from_env())
