"""The ASGI application: its routes, error handling, and the guard every request passes
(its Host, its Origin, its size: generator.web.guard).

`create_app(site)` makes the app for packs already loaded; `app_from_env()` is the factory
uvicorn's workers call (`uvicorn --factory generator.web.app:app_from_env`), reading the
packs and the builds folder from the environment, so every worker is the same.
"""

from __future__ import annotations

import errno
import gc
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from generator.core.errors import InputError, Location, Problem
from generator.web.guard import SECURITY_HEADERS, Hosts, RequestGuard
from generator.web.jobs import Jobs
from generator.web.language import LanguageChoice
from generator.web.memo import Recent
from generator.web import (routes_api, routes_builds, routes_cards, routes_compare, routes_hand, routes_maps,
                           routes_pages, routes_print, routes_rules)
from generator.web.pages import HERE, page, problems_response, templates, wants_json
from generator.web.site import Site
from generator.web.words import gettext

log = logging.getLogger("pnp.web")


def create_app(site: Site, hosts: Hosts | None = None) -> FastAPI:
    """The app for `site`, answering to `hosts` (default: what `pnp serve` left in the
    environment, else this computer's loopback names)."""
    app = FastAPI(title="pnp deck builder", version="1",
                  description="Cards, build validation (the `pnp.validation` document of `pnp validate --format json`), share codes and deck lists of "
                              "the packs this server serves.",
                  docs_url=None, redoc_url=None)  # the stock pages load scripts from a CDN; /api is ours
    app.state.site = site
    app.state.jinja = templates()
    app.state.jobs = Jobs.from_env()  # one heavy job (a PDF) per client at a time
    app.state.recent = Recent()  # the editor's recent answers, this worker's own (generator.web.memo)
    app.state.pickers = {}  # the editor's card picker, drawn once per side (routes_builds.picker_html)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # the API first: it takes the most requests, and a route is found by trying them in order
    app.include_router(routes_api.router)
    app.state.after_api = len(app.router.routes)  # where include_early puts a router
    for module in (routes_builds, routes_pages, routes_cards, routes_print, routes_maps, routes_rules, routes_compare,
                   routes_hand):
        app.include_router(module.router)

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError):
        return problems_response(request, exc.problems, getattr(exc, "status", 422))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if wants_json(request):
            return JSONResponse({"detail": message}, status_code=exc.status_code, headers=exc.headers)
        if message == "Not Found":  # Starlette's own for a path no route has: in the page's words
            message = gettext("Not Found")
        return page(request, "error.html", status=exc.status_code, message=message, problems=[],
                    title=gettext("Not found") if exc.status_code == 404 else gettext("That did not work"))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        problems = [Problem("request.invalid", str(e.get("msg", "invalid value")),
                            Location("request"), found=None, expected=".".join(str(p) for p in e.get("loc", ())))
                    for e in exc.errors()[:10]]
        return problems_response(request, problems, 422)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        return crash_response(request, exc)

    @app.exception_handler(OSError)
    async def os_error(request: Request, exc: OSError):  # a full disk is the operator's to fix, not a bug
        if exc.errno in DISK_FULL:
            return problems_response(request, [Problem(
                "server.disk-full", "the server's disk is full: this was not done", Location("server"),
                fix="try again later; whoever runs the server has to free space on it")], 507)
        return crash_response(request, exc)

    app.add_middleware(LanguageChoice)  # ?lang=de: the packs in that language (web/language.py)
    app.add_middleware(RequestGuard, hosts=hosts or Hosts.from_env())
    # The packs are loaded for good: move them out of the garbage collector's sight, or every
    # full collection walks all of their objects again, a pause felt by every request then
    gc.collect()
    gc.freeze()
    return app


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def crash_response(request: Request, exc: BaseException):
    """A 500 for what nothing else handled: never a traceback in a page, the error in the log.
    (The handler of Exception runs outside the middleware, so the security headers are added
    here: generator.web.guard.secured.)"""
    log.error("unexpected error on %s", request.url.path, exc_info=exc)
    response = problems_response(request, [Problem("server.error", "something went wrong on the server; "
                                                   "the error is in the server's log", Location("server"))], 500)
    response.headers.update(SECURITY_HEADERS)
    return response


def include_early(app: FastAPI, router) -> None:
    """Include `router` right after the API, before the builder's pages: a route is found by
    trying them in order, and busy pages (the community's published builds) are found sooner.
    Its paths must not be ones the builder's routes answer (tests/test_community_listing.py
    checks the community's)."""
    routes = app.router.routes
    before = len(routes)
    app.include_router(router)
    added = routes[before:]
    del routes[before:]
    routes[app.state.after_api:app.state.after_api] = added
    app.state.after_api += len(added)


def app_from_env() -> FastAPI:
    """The uvicorn factory: packs from PNP_PACKS, builds folder from PNP_BUILDS."""
    return create_app(Site.from_env())
