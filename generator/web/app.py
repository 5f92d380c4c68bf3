"""The ASGI application: its routes, error handling, and the request limits (size, origin).

`create_app(site)` makes the app for packs already loaded; `app_from_env()` is the factory
uvicorn's workers call (`uvicorn --factory generator.web.app:app_from_env`), reading the
packs and the builds folder from the environment, so every worker is the same.
"""

from __future__ import annotations

import gc
import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from generator.core.errors import InputError, Location, Problem
from generator.core.report import reports_document
from generator.web import routes_api, routes_builds, routes_cards, routes_maps, routes_pages, routes_print
from generator.web.pages import HERE, page, problems_response, templates, wants_json
from generator.web.site import Site

MAX_BODY = 1024 * 1024 + 64 * 1024  # a 1 MB upload plus its multipart envelope
log = logging.getLogger("pnp.web")


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
        if length is not None:
            # the HTTP server hands the app no more than Content-Length bytes, so a declared
            # length within the limit needs no counting (and no copy of the body)
            return await self.app(scope, receive, send)
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
    app = FastAPI(title="pnp deck builder", version="1",
                  description="Cards, build validation (the `pnp.validation` document of `pnp validate --format json`), share codes and deck lists of "
                              "the packs this server serves.",
                  docs_url=None, redoc_url=None)  # the stock pages load scripts from a CDN; /api is ours
    app.state.site = site
    app.state.jinja = templates()
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # the API first: it takes the most requests, and a route is found by trying them in order
    for module in (routes_api, routes_builds, routes_pages, routes_cards, routes_print, routes_maps):
        app.include_router(module.router)

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError):
        return problems_response(request, exc.problems, getattr(exc, "status", 422))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if wants_json(request):
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
    # The packs are loaded for good: move them out of the garbage collector's sight, or every
    # full collection walks all of their objects again, a pause felt by every request then
    gc.collect()
    gc.freeze()
    return app


def app_from_env() -> FastAPI:
    """The uvicorn factory: packs from PNP_PACKS, builds folder from PNP_BUILDS."""
    return create_app(Site.from_env())
