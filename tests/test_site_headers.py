"""Security headers on every answer (issue 37): each route the app lists, for each of its
methods, as `pnp serve` runs it without accounts, with `--accounts` (as nobody and as a
signed-in designer), and the bare builder app; plus the answers no route makes (a 404, a
refused Host, a body over the limit, a crash). The walk checks it reached every route, and a
self-test shows it flags an app that lacks the headers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from generator.community.accounts import hash_password
from generator.community.app import community_app
from generator.web.app import create_app
from generator.web.guard import SECURITY_HEADERS
from generator.web.site import Site
from web_support import app_routes

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"
SAVED = "pack: boss_fight\nname: Keep Me\nside: boss\ncharacters: []\n"
PARAMS = {"pack_id": "boss_fight", "stem": "keep-me", "part": "cards", "code": "x", "card_id": "titan-arm",
          "map_id": "x", "slug": "glossary", "kind": "signin", "n": "1", "public_id": "x", "path": "app.js"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    return Site.load([Path(PACK)], root / "builds", root / "cache")


def lacking(response) -> list[str]:
    """The security headers an answer lacks or carries wrong."""
    wrong = [k for k, v in SECURITY_HEADERS.items() if response.headers.get(k) != v]
    csp = response.headers.get("content-security-policy", "")
    if "frame-ancestors 'none'" not in csp:
        wrong.append("frame-ancestors")
    if response.headers.get("x-content-type-options") != "nosniff":
        wrong.append("nosniff")
    return wrong


def walk(app, client: TestClient) -> dict[tuple[str, str], list[str]]:
    """Every route and method of `app` requested once: (method, path) -> what the answer lacks
    (whatever the status: a page, a refusal, a 404 of a route that found nothing)."""
    found = {}
    routes = app_routes(app)
    assert routes
    for route in routes:
        path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: PARAMS.get(m.group(1), "x"), route.path)
        for method in sorted(route.methods or ()):
            r = client.request(method, path)
            found[(method, route.path)] = lacking(r)
    for method, path in (("GET", "/no/such/page"), ("GET", "/static/app.js"), ("GET", "/static/style.css"),
                         ("POST", "/p/boss_fight/builds/save")):
        found[(method, path)] = lacking(client.request(method, path))
    found[("GET", "bad host")] = lacking(client.get("/", headers={"host": "evil.example"}))
    found[("POST", "over the limit")] = lacking(client.post("/api/boss_fight/validate", content=b"x" * 2_000_000))
    found[("GET", "crash")] = lacking(client.get("/test-crash"))
    return found


def _crashing(app):
    @app.get("/test-crash")
    def crash():
        raise RuntimeError("a bug")
    return app


def _assert_all_secured(found):
    assert len(found) > 20
    bad = {k: v for k, v in found.items() if v}
    assert not bad, bad


def test_the_builder_app_answers_with_the_headers(site):
    app = _crashing(create_app(site))
    _assert_all_secured(walk(app, TestClient(app, base_url="http://localhost", raise_server_exceptions=False)))


def test_pnp_serve_without_accounts_answers_with_the_headers(site, tmp_path):
    app = _crashing(community_app(site, f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=False))
    app.state.community_store.insert(0, "keep-me", SAVED)  # its pages answer 200, not 404
    _assert_all_secured(walk(app, TestClient(app, base_url="http://localhost", raise_server_exceptions=False)))
    app.state.community_store.engine.dispose()


def test_pnp_serve_with_accounts_answers_with_the_headers(site, tmp_path):
    app = _crashing(community_app(site, f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=True))
    anonymous = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    _assert_all_secured(walk(app, anonymous))
    store = app.state.community_store
    store.add_user("ada", hash_password(PASSWORD), role="designer")
    ada = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    token = re.search(r'name="csrf-token" content="([^"]+)"', ada.get("/account/signin").text).group(1)
    assert ada.post("/account/signin", data={"name": "ada", "password": PASSWORD, "csrf_token": token},
                    follow_redirects=False).status_code == 303
    ada.headers["x-csrf-token"] = re.search(r'name="csrf-token" content="([^"]+)"', ada.get("/").text).group(1)
    _assert_all_secured(walk(app, ada))
    store.engine.dispose()


def test_the_walk_flags_an_app_without_the_headers():
    bare = FastAPI()

    @bare.get("/p/{pack_id}")
    def one(pack_id: str):
        return {"pack": pack_id}
    found = walk(_crashing(bare), TestClient(bare, base_url="http://localhost", raise_server_exceptions=False))
    assert found[("GET", "/p/{pack_id}")] and all(found.values())
