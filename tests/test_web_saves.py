"""Saves that cannot collide: many players saving, duplicating and renaming at once against
`pnp serve --workers 2`, from real parallel clients. `pnp serve` keeps builds in its
database (generator.community, SQLite here; tests/test_community_load.py does the same on
PostgreSQL). Every build saved is there afterwards under the name its answer reported, with
its own content; a request that cannot have its name gets a message, never a silent
overwrite."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from generator.community.store import Store
from web_support import start_serve, stop_serve

SAVES = 50
DUPLICATES = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("builds")
    url = f"sqlite:///{folder / 'site.sqlite3'}"
    proc, port, _ = start_serve("card_data/boss_fight", "--port", "0", "--workers", "2", "--builds", str(folder),
                                "--db", url, "--cache", str(tmp_path_factory.mktemp("cache")))
    store = Store(url)
    yield port, Saved(store)
    stop_serve(proc)
    store.engine.dispose()


class Saved:
    """The saved builds of the one local person, read and written in the server's database."""

    def __init__(self, store: Store):
        self.store = store

    def clear(self):
        for b in self.store.builds(0):
            self.store.delete(0, b.stem)

    def stems(self) -> list[str]:
        return [b.stem for b in self.store.builds(0)]

    def text(self, stem: str) -> str:
        return self.store.build(0, stem).text

    def put(self, stem: str, text: str):
        self.store.insert(0, stem, text)


def _post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": content_type,
                                                       "Origin": f"http://127.0.0.1:{port}"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def _parallel(n: int, fn):
    """Run fn(i) for i < n on n threads released together, so the requests really overlap."""
    gate = threading.Barrier(n)

    def run(i):
        gate.wait()
        return fn(i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def _hero_party(i: int) -> bytes:
    doc = {"pack": "boss_fight", "name": "New Hero Party", "side": "hero",
           "characters": [{"name": f"saved by client {i}", "hero": "ilsa-emberly"}]}
    return json.dumps({"build": doc, "stem": None}).encode()


def test_fifty_parallel_saves_of_one_new_name_keep_every_build(server):
    port, builds = server
    builds.clear()
    answers = _parallel(SAVES, lambda i: _post(port, "/p/boss_fight/builds/save", _hero_party(i), "application/json"))
    assert [status for status, _ in answers] == [200] * SAVES, answers[:3]
    stems = [json.loads(body)["stem"] for _, body in answers]
    assert len(set(stems)) == SAVES  # every answer reports its own name
    assert set(stems) == {"new-hero-party"} | {f"new-hero-party-{n}" for n in range(2, SAVES + 1)}
    assert len(builds.stems()) == SAVES
    for i, stem in enumerate(stems):  # each build is where its answer says, with its own content
        doc = yaml.safe_load(builds.text(stem))
        assert doc["characters"][0]["name"] == f"saved by client {i}" and doc["name"] == "New Hero Party"


def test_thirty_parallel_duplicates_keep_every_copy(server):
    port, builds = server
    builds.clear()
    builds.put("ashen", "pack: boss_fight\nname: Ashen\nside: boss\ncharacters: []\n")
    answers = _parallel(DUPLICATES, lambda i: _post(port, "/p/boss_fight/builds/ashen/duplicate", b"",
                                                    "application/x-www-form-urlencoded"))
    assert [status for status, _ in answers] == [303] * DUPLICATES
    stems = builds.stems()
    assert len(stems) == DUPLICATES + 1
    assert set(stems) == {"ashen", "ashen-copy"} | {f"ashen-copy-{n}" for n in range(2, DUPLICATES + 1)}
    for stem in stems:
        doc = yaml.safe_load(builds.text(stem))
        assert doc["name"] == ("Ashen" if stem == "ashen" else "Ashen (copy)") and doc["side"] == "boss"


def test_parallel_renames_to_one_name_keep_both_builds(server):
    port, builds = server
    builds.clear()
    for stem in ("first", "second", "third", "fourth"):
        builds.put(stem, f"pack: boss_fight\nname: {stem}\nside: boss\ncharacters: []\n")
    body = urllib.parse.urlencode({"new_name": "Taken"}).encode()
    stems = ["first", "second", "third", "fourth"]
    answers = _parallel(4, lambda i: _post(port, f"/p/boss_fight/builds/{stems[i]}/rename", body,
                                           "application/x-www-form-urlencoded"))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [303, 409, 409, 409], answers
    assert len(builds.stems()) == 4  # one renamed, three refused and left as they were
    assert yaml.safe_load(builds.text("taken"))["name"] == "Taken"
    for status, text in answers:
        if status == 409:
            assert b"exists already" in text


def test_saving_over_the_opened_build_and_a_bad_stem(server):
    port, builds = server
    doc = {"pack": "boss_fight", "name": "Mine", "side": "boss", "characters": []}
    status, body = _post(port, "/p/boss_fight/builds/save", json.dumps({"build": doc}).encode(), "application/json")
    stem = json.loads(body)["stem"]
    doc["points_limit"] = 77
    status, body = _post(port, "/p/boss_fight/builds/save", json.dumps({"build": doc, "stem": stem}).encode(),
                         "application/json")
    assert status == 200 and json.loads(body)["stem"] == stem
    assert yaml.safe_load(builds.text(stem))["points_limit"] == 77
    for bad in ([stem], {"a": 1}, 3, "../etc/passwd"):
        status, body = _post(port, "/p/boss_fight/builds/save", json.dumps({"build": doc, "stem": bad}).encode(),
                             "application/json")
        assert 400 <= status < 500, (bad, status, body[:200])
