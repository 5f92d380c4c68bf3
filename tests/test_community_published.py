"""Published builds and the card statistics (generator.community), on SQLite and PostgreSQL:
only legal builds are published, under the stated limit; browse filters and sorts; a copy
lands in one's own builds; share codes need no account; the designer's numbers."""

from __future__ import annotations

import copy
import csv
from markupsafe import escape
import io
import re
from urllib.parse import quote
from pathlib import Path

import pytest

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.community.app import community_app
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def presets():
    return {k: v[0] for k, v in preset_docs(load_pack(Path(PACK))).items()}


def _client(app):
    from fastapi.testclient import TestClient
    return TestClient(app, base_url="http://localhost")


def _token(client, path="/account/signin") -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text).group(1)


def _player(app, name):
    c = _client(app)
    r = c.post("/account/signup", data={"name": name, "password": PASSWORD, "csrf_token": _token(c)},
               follow_redirects=False)
    assert r.status_code == 303
    c.headers["x-csrf-token"] = _token(c)
    return c


def _publish(c, doc, limit=""):
    stem = c.post("/p/boss_fight/builds/save", json={"build": copy.deepcopy(doc), "stem": None}).json()["stem"]
    return c.post(f"/p/boss_fight/builds/{stem}/publish", data={"points_limit": limit}, follow_redirects=False)


def _found(c, query=""):
    return re.findall(r'/p/boss_fight/published/([A-Za-z0-9_-]+)"><strong>([^<]*)</strong>',
                      c.get(f"/p/boss_fight/published?{query}").text)


def test_publish_browse_copy_and_the_numbers(tmp_path, db_url, presets):
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=True)
    designer = _player(app, "designer")
    app.state.community_store.set_role("designer", "designer")  # named by the operator (pnp accounts role)
    alice, bob = _player(app, "alice"), _player(app, "bob")
    pack = app.state.site.packs["boss_fight"]
    heroes = [k for k, d in presets.items() if d["side"] == "hero"]
    bosses = [k for k, d in presets.items() if d["side"] == "boss"]
    assert heroes and bosses

    # illegal under the stated limit: refused with the validator's reason, nothing published
    r = _publish(alice, presets[bosses[0]], limit="1")
    assert r.status_code == 422 and "only legal builds are published" in r.text
    assert _found(alice) == []
    r = _publish(alice, presets[bosses[0]])
    assert r.status_code == 303
    boss_id = r.headers["location"].rsplit("/", 1)[1]
    assert _publish(bob, presets[heroes[0]]).status_code == 303

    everyone = _found(bob)
    assert len(everyone) == 2
    assert [n for _, n in _found(bob, "side=boss")] == [presets[bosses[0]]["name"]]
    boss_doc = presets[bosses[0]]
    some_card = next(iter(boss_doc["characters"][0]["deck"]))
    assert [i for i, _ in _found(bob, f"card={some_card}")] == [boss_id]
    assert _found(bob, "max_points=0") == []
    hero_char = next(c for c in pack.cards.values() if c.type == pack.spec.sides["hero"].base.type
                     and c.id in str(presets[heroes[0]]))
    assert [n for _, n in _found(bob, f"character={hero_char.id}")] == [presets[heroes[0]]["name"]]

    # copy into one's own builds; most copied sorts first
    r = bob.post(f"/p/boss_fight/published/{boss_id}/copy", follow_redirects=False)
    assert r.status_code == 303 and "/edit?file=" in r.headers["location"]
    assert boss_doc["name"] in bob.get("/p/boss_fight/builds").text
    assert _found(bob, "sort=copied")[0][0] == boss_id
    page = bob.get(f"/p/boss_fight/published/{boss_id}").text
    code = re.search(r'href="/b/([^"]+)"', page).group(1)

    # share codes and published pages need no account
    anon = _client(app)
    assert anon.get(f"/b/{code}").status_code == 200
    assert anon.get(f"/p/boss_fight/published/{boss_id}").status_code == 200
    assert "Copy into my builds" not in anon.get(f"/p/boss_fight/published/{boss_id}").text

    # the designer's numbers; players are refused them
    assert alice.get("/p/boss_fight/stats").status_code == 403
    assert anon.get("/p/boss_fight/stats.csv").status_code == 401
    stats = designer.get("/p/boss_fight/stats")
    assert stats.status_code == 200 and "Never taken" in stats.text
    rows = {r["card"]: r for r in csv.DictReader(io.StringIO(designer.get("/p/boss_fight/stats.csv").text))}
    assert set(rows) >= set(pack.cards)
    assert rows[some_card]["published_builds"] == "1"
    assert rows[some_card]["copies"] == str(boss_doc["characters"][0]["deck"][some_card])
    assert rows[some_card]["points_limits"].endswith(": 1")
    untaken = [c for c in pack.cards if rows[c]["published_builds"] == "0"]
    assert untaken and all(str(escape(pack.cards[c].name)) in stats.text for c in untaken[:5])

    # the designer hides abuse: gone for players, kept for the designer
    r = designer.post(f"/p/boss_fight/published/{boss_id}/flags", data={"hidden": "1"}, follow_redirects=False)
    assert r.status_code == 303
    assert boss_id not in [i for i, _ in _found(bob)]
    assert bob.get(f"/p/boss_fight/published/{boss_id}").status_code == 404
    assert boss_id in [i for i, _ in _found(designer)]
    assert alice.post(f"/p/boss_fight/published/{boss_id}/flags", data={"hidden": ""}).status_code == 403


def test_the_search_language_filters_published_builds_by_the_cards_they_hold(tmp_path, db_url, presets):
    """#42 item 3: the card search of the card browser and the picker, each term asking whether a
    build holds a card it finds; a search that cannot be read is said beside the box (422)."""
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=True)
    _player(app, "designer")
    alice = _player(app, "alice")
    knives, ember = presets["party-knives-in-the-dark"], presets["party-ember-circle"]
    assert "envenom" in str(knives) and "envenom" not in str(ember)
    for doc in (knives, ember, presets["boss-ashen-behemoth"]):
        assert _publish(alice, doc).status_code == 303
    found = lambda q: sorted(n for _, n in _found(alice, "q=" + quote(q)))  # noqa: E731
    assert found("kw:poison agility>=4") == [knives["name"]]
    assert found("envenom") == [knives["name"]]
    assert found("type:hero -envenom") == [ember["name"]]
    assert found("envenom or type:\"boss piece\"") == sorted([knives["name"], presets["boss-ashen-behemoth"]["name"]])
    assert found("nothing-is-called-this") == []
    assert len(found("")) == 3
    bad = alice.get("/p/boss_fight/published?q=" + quote("agilty>=4"))
    assert bad.status_code == 422 and "did you mean" in bad.text and _found(alice, "q=" + quote("agilty>=4")) == []
    assert alice.get("/p/boss_fight/published?q=" + quote("x" * 301)).status_code == 422
    app.state.community_store.engine.dispose()
