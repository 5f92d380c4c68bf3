"""No JSON gets a server error: hypothesis sends arbitrary JSON (NaN and ±Infinity included,
as Python's and the browser's JSON readers accept them), and arbitrary mutations of valid
build documents and editor changes, to every route that takes a body, enumerated from the
app, and asserts a 2xx, 3xx or 4xx answer; a 4xx from the API is a `pnp.validation`
document. Bounded: a fixed number of examples per route, no deadline (a slow machine is not
a failure)."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("fastapi")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from web_support import PACKS, app_routes  # noqa: E402

EXAMPLES = 100
PARAMS = {"pack_id": "boss_fight", "stem": "keep-me", "part": "cards", "code": "x", "card_id": "titan-arm",
          "map_id": "x", "slug": "glossary", "kind": "x", "n": "1", "public_id": "x",
          "icon": "health"}
SAVED = "pack: boss_fight\nname: Keep Me\nside: boss\ncharacters: []\n"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    from fastapi.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.common import preset_docs
    from generator.web.site import Site
    builds = tmp_path_factory.mktemp("builds")
    site = Site.load([PACKS / "boss_fight", PACKS / "raid_boss"], builds, tmp_path_factory.mktemp("cache"))
    client = TestClient(create_app(site), base_url="http://localhost", raise_server_exceptions=False)
    docs = [d for pack in site.packs.values() for d, _ in preset_docs(pack).values()]
    return client, builds, docs


def body_routes(methods=("POST", "PUT", "PATCH", "DELETE")):
    """Every route that takes a request body (or, given methods=("GET",), every page), with
    its path parameters filled in (read from an app made over no pack: the routes do not
    depend on the packs)."""
    from generator.web.app import create_app
    from generator.web.site import Site
    from generator.web.storage import Builds
    app = create_app(Site({}, Builds(PACKS / "no-such-folder"), PACKS / "no-such-cache"))
    out = set()
    for route in app_routes(app):
        for method in route.methods or ():
            if method in methods:
                out.add((method, re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: PARAMS[m.group(1)], route.path)))
    return sorted(out)


ROUTES = body_routes()
PAGES = sorted(p for _, p in body_routes(("GET",)))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=20)
    | st.sampled_from(["hero", "boss", "party", "", "titan-arm", "add", "remove", "deck", "equipment", "base"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["build", "op", "target", "stem", "side", "name", "characters", "char", "piece", "card",
                         "delta", "index", "place", "value", "code", "text", "deck", "hero", "pieces",
                         "equipment", "abilities", "points_limit"]) | st.text(max_size=8), inner, max_size=5),
    max_leaves=20)


def reset(builds) -> None:
    """One saved build, as at the start (saves and duplicates of earlier examples removed)."""
    for p in builds.iterdir():
        p.unlink()
    (builds / "keep-me.yaml").write_text(SAVED)


def check(client, builds, method: str, path: str, body: bytes) -> None:
    reset(builds)
    r = client.request(method, path, content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, (method, path, body[:300], r.status_code, r.text[:500])
    if path.startswith("/api/") and r.status_code >= 400 and r.headers.get("content-type", "").startswith(
            "application/json") and r.status_code != 404:
        assert r.json()["schema"].startswith("pnp.validation/"), r.text[:300]


query_values = st.text(max_size=30) | st.sampled_from(
    ["", "-1", "0", "99999999999999999999", "1e309", "nan", "preset:", "saved:", "saved:../x", "preset:../../x",
     "²", "٣", "１２", "9223372036854775808",  # digits to str.isdigit, not to int(); past a 64-bit column
     "keep-me", "../keep-me", "PNP1-", "boss", "hero", "back", "front", "%00", "titan-arm"])


@pytest.mark.parametrize("path", PAGES)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
@given(params=st.dictionaries(st.sampled_from(["side", "set", "type", "min", "max", "q", "page", "preset", "file",
                                               "code", "face", "build", "points"]), query_values, max_size=4))
def test_arbitrary_queries_are_never_a_server_error(env, path, params):
    client, builds, _ = env
    reset(builds)
    r = client.get(path, params=params)
    assert r.status_code < 500, (path, params, r.status_code, r.text[:500])


def _templates():
    from generator.web.app import create_app
    from generator.web.site import Site
    from generator.web.storage import Builds
    app = create_app(Site({}, Builds(PACKS / "no-such-folder"), PACKS / "no-such-cache"))
    return sorted({(m, r.path) for r in app_routes(app) for m in (r.methods or ()) if "{" in r.path and m != "HEAD"})


@pytest.mark.parametrize("method,template", _templates())
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
@given(segment=st.text(min_size=1, max_size=40) | query_values.filter(bool))
def test_arbitrary_path_segments_are_never_a_server_error(env, method, template, segment):
    """Each path parameter in turn replaced by arbitrary text (quoted), the others valid."""
    from urllib.parse import quote
    client, builds, _ = env
    reset(builds)
    for name in re.findall(r"\{(\w+)", template):
        path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m, name=name: quote(segment, safe="") if m.group(1) == name
                      else PARAMS[m.group(1)], template)
        r = client.request(method, path)
        assert r.status_code < 500, (method, path, r.status_code, r.text[:500])


def test_every_body_route_is_fuzzed():
    paths = {p for _, p in ROUTES}
    assert {"/api/boss_fight/validate", "/p/boss_fight/edit/apply", "/p/boss_fight/builds/save"} <= paths
    assert len(ROUTES) >= 10


FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                database=None)


@pytest.mark.parametrize("method,path", ROUTES)
@FUZZ
@given(value=json_values)
def test_arbitrary_json_is_never_a_server_error(env, method, path, value):
    check(env[0], env[1], method, path, json.dumps(value).encode())


def _mutate(data, value, draw):
    """`value` put at a random place inside `data` (replacing, adding, or deleting there)."""
    if isinstance(data, dict) and data and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data)))
        out = dict(data)
        action = draw(st.sampled_from(["into", "replace", "delete"]))
        if action == "into":
            out[key] = _mutate(data[key], value, draw)
        elif action == "replace":
            out[key] = value
        else:
            del out[key]
        return out
    if isinstance(data, list) and data and draw(st.booleans()):
        i = draw(st.integers(0, len(data) - 1))
        out = list(data)
        out[i] = _mutate(data[i], value, draw)
        return out
    if isinstance(data, dict):
        return {**data, draw(st.sampled_from(["side", "name", "char", "piece", "x", "op", "delta"])): value}
    return value


OPS = [{"op": "view"}, {"op": "add", "card": "titan-arm", "char": 0}, {"op": "remove", "char": 0, "place": "equipment",
       "piece": 0, "index": 0}, {"op": "deck", "char": 0, "card": "crushing-blow", "delta": 1},
       {"op": "move_char", "char": 0, "delta": 1}, {"op": "set_limit", "value": "90"}, {"op": "add_char"},
       {"op": "remove", "char": 0, "place": "abilities", "index": 0}, {"op": "rename_char", "char": 0, "value": "A"}]


@pytest.mark.parametrize("method,path", ROUTES)
@FUZZ
@given(data=st.data())
def test_mutated_documents_are_never_a_server_error(env, method, path, data):
    client, builds, docs = env
    doc = data.draw(st.sampled_from(docs))
    envelope = data.draw(st.sampled_from(["bare", "editor", "save"]))
    if envelope == "bare":
        valid = doc
    elif envelope == "editor":
        valid = {"build": doc, "op": data.draw(st.sampled_from(OPS)), "target": {"char": 0, "piece": None}}
    else:
        valid = {"build": doc, "stem": None}
    body = _mutate(valid, data.draw(json_values), data.draw)
    check(client, builds, method, path, json.dumps(body).encode())


def _hero(site_docs):
    return next(d for d in site_docs if d["side"] == "hero" and d["pack"] == "boss_fight")


@pytest.mark.parametrize("side", [["boss"], {"boss": 1}, 3, None, True])
@pytest.mark.parametrize("path,envelope", [("/api/boss_fight/validate", False), ("/api/boss_fight/share", False),
                                           ("/api/boss_fight/decklist/text", False),
                                           ("/p/boss_fight/builds/save", True), ("/p/boss_fight/edit/apply", True)])
def test_side_of_the_wrong_type_is_a_4xx_naming_side(env, side, path, envelope):
    """The issue's cases: `side` as a list or an object answered 500 on all five routes."""
    client = env[0]
    doc = {"pack": "boss_fight", "name": "X", "side": side, "characters": []}
    r = client.post(path, json={"build": doc, "op": {"op": "view"}} if envelope else doc)
    assert 400 <= r.status_code < 500, r.text[:300]
    assert "side" in r.text


@pytest.mark.parametrize("op", [
    {"op": "move_char", "char": float("inf"), "delta": 1}, {"op": "move_char", "char": 0, "delta": float("-inf")},
    {"op": "deck", "char": float("nan"), "card": "x"}, {"op": "view", "char": 1.5}, {"op": "view", "char": True},
    {"op": "view", "char": [0]}, {"op": "rename_char", "char": 0, "value": {"a": 1}},
    {"op": "move_char", "char": 0, "delta": 10**40},
    {"op": "remove", "char": 0, "place": "equipment", "piece": 0, "index": 99},  # by piece, on a hero build
])
def test_changes_with_numbers_that_are_not_whole_are_4xx(env, op):
    client, _, docs = env
    hero = _hero(docs)
    r = client.post("/p/boss_fight/edit/apply", content=json.dumps({"build": hero, "op": op}),
                    headers={"content-type": "application/json", "x-pnp-fragment": "1"})
    assert 400 <= r.status_code < 500, r.text[:300]
    assert "Traceback" not in r.text


def test_removing_equipment_by_piece_on_a_hero_build_removes_the_heros_equipment(env):
    client, _, docs = env
    hero = json.loads(json.dumps(_hero(docs)))
    held = hero["characters"][0]["equipment"]
    assert held
    r = client.post("/p/boss_fight/edit/apply", json={"build": hero, "op": {
        "op": "remove", "char": 0, "place": "equipment", "piece": 0, "index": 0}})
    assert r.status_code == 200
    from web_support import doc_of
    assert doc_of(r.text)["characters"][0]["equipment"] == held[1:]


def test_a_type_error_names_the_field_in_a_validation_document(env):
    r = env[0].post("/api/boss_fight/validate", json={"name": "X", "side": "boss", "characters": [
        {"boss": "ashen-behemoth", "deck": {"crushing-blow": "three"}}]})
    assert r.status_code == 422
    body = r.json()
    assert body["schema"].startswith("pnp.validation/") and body["errors"]
    assert any("deck" in (e["message"] + str(e.get("expected"))) for e in body["errors"]), body
