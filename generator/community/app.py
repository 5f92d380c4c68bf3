"""The builder with the community plugged in: the database store under the save routes,
accounts (with `--accounts`), the pages of this package, and the middleware that knows who
is asking. `app_from_env` is the factory every uvicorn worker calls; it reads the database
URL and the accounts switch from the environment, so workers share nothing but the database.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from fastapi import FastAPI, Request
from jinja2 import ChoiceLoader, FileSystemLoader
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.middleware import Middleware

from generator.web.app import crash_response, create_app, include_early
from generator.web.memo import Recent as Kept
from generator.web.pages import problems_response
from generator.web.site import Site
from generator.community import outage, routes_accounts, routes_published, routes_social
from generator.community.accounts import Keys, warm_up
from generator.community.dbbuilds import DbBuilds
from generator.community.middleware import CommunityMiddleware
from generator.community.store import Busy, DatabaseGone, Store, default_url

HERE = Path(__file__).parent
ENV_DB = "PNP_DB"              # the database URL (unset: a SQLite file beside the builds folder)
ENV_ACCOUNTS = "PNP_ACCOUNTS"  # "1": accounts on
FACTORY = "generator.community.app:app_from_env"
log = logging.getLogger("pnp.web")
# The published builds' pages a worker keeps (routes_published._kept), in bytes: about 1,500 pages
# of a published build, which shows the whole build (its cards as pictures, statistics, draw odds;
# boss_fight's are 22 to 50 kB, 32 kB on average), so the 500 builds bench/community_load.py opens
# fit in English and German with the lists beside them (tests/test_community_listing.py). With the
# editor's 8 MB (web/memo.py) a worker held 260 of them: they pushed each other out, and one
# request in four drew its page again (5 ms of CPU against 0.2 for a kept page).
PAGES_BYTES = 48 * 1024 * 1024


def install(app: FastAPI, store: Store, accounts: bool) -> FastAPI:
    """Plug the store, the accounts and the community's pages into a builder app."""
    env = app.state.jinja
    env.loader = ChoiceLoader([FileSystemLoader(HERE / "templates"), env.loader])
    env.add_extension("jinja2.ext.do")
    site = app.state.site
    site.builds = DbBuilds(store, site.builds.folder)
    site.community = True  # the builder's pages show History and Published
    app.state.community_store = store
    app.state.community_cache = Kept.counted(2048)
    app.state.community_pages = Kept(PAGES_BYTES)  # the published builds' pages (routes_published._kept)
    app.state.community_keys = Keys(store.secret()) if accounts else None
    if accounts:
        warm_up()  # the stand-in hash a sign-in for a missing name is checked against
    for kind in (DBAPIError, PoolTimeout, Busy, DatabaseGone):
        app.add_exception_handler(kind, _database_failed)
    # after the API, before the builder's pages: the published builds are the busiest pages of
    # a shared site, and each route tried before the right one costs CPU on every request
    include_early(app, routes_published.router)
    include_early(app, routes_social.router)
    include_early(app, routes_accounts.router)
    # inside the request guard (Host, Origin, size are checked first), before every route
    app.user_middleware.insert(1, Middleware(CommunityMiddleware, store=store, keys=app.state.community_keys))
    return app


async def _database_failed(request: Request, exc: Exception):
    """503 (with Retry-After) or 507 for a database that is down, busy, full or gone; a 500
    for any other database error (a bug)."""
    known = outage.answer(exc)
    if known is None:
        return crash_response(request, exc)
    status, problem = known
    log.warning("%s on %s: %s", problem.code, request.url.path, str(exc).splitlines()[0][:300])
    response = problems_response(request, [problem], status)
    response.headers.update(outage.headers(status))
    return response


def community_app(site: Site, url: str, accounts: bool, hosts=None) -> FastAPI:
    store = Store(url)
    store.migrate()
    return install(create_app(site, hosts), store, accounts)


def app_from_env() -> FastAPI:
    site = Site.from_env()
    return community_app(site, os.environ.get(ENV_DB) or default_url(site.builds.folder),
                         os.environ.get(ENV_ACCOUNTS) == "1")
