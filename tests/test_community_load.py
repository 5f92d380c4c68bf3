"""50 clients saving and publishing at once against `pnp serve --workers 2` on a real
PostgreSQL: nothing lost, nothing corrupted: every build readable, every version kept in
order, every publication there with the build it was made from."""

from __future__ import annotations

import copy
import http.client
import json
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from community_support import Postgres
from generator.community.store import Store
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from web_support import start_serve, stop_serve

CLIENTS = 50
SAVES = 4  # one new build, then three saves over it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pg = Postgres()
    url = pg.new_database()
    proc, port, _ = start_serve("card_data/boss_fight", "--port", "0", "--workers", "2", "--db", url,
                                "--builds", str(tmp_path_factory.mktemp("builds")),
                                "--cache", str(tmp_path_factory.mktemp("cache")))
    store = Store(url)
    yield port, store
    stop_serve(proc)
    store.engine.dispose()
    pg.stop()


def _post(port, path, body: bytes, kind: str):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": kind, "Origin": f"http://127.0.0.1:{port}"})
        answer = conn.getresponse()
        return answer.status, answer.read(), answer.getheader("location")
    finally:
        conn.close()


def test_fifty_clients_saving_and_publishing_lose_nothing(server):
    port, store = server
    preset = preset_docs(load_pack(Path("card_data/boss_fight")))["boss-ashen-behemoth"][0]
    gate = threading.Barrier(CLIENTS)

    def client(i):
        gate.wait()
        stem, published = None, None
        for n in range(1, SAVES + 1):
            doc = copy.deepcopy(preset)
            doc["name"] = f"Client {i} save {n}"
            status, body, _ = _post(port, "/p/boss_fight/builds/save", json.dumps({"build": doc, "stem": stem}).encode(),
                                    "application/json")
            assert status == 200, body[:300]
            stem = json.loads(body)["stem"]
        status, body, location = _post(port, f"/p/boss_fight/builds/{stem}/publish",
                                       urllib.parse.urlencode({"points_limit": ""}).encode(),
                                       "application/x-www-form-urlencoded")
        assert status == 303, body[:300]
        published = location.rsplit("/", 1)[1]
        return stem, published

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(client, range(CLIENTS)))
    stems = [s for s, _ in results]
    assert len(set(stems)) == CLIENTS
    assert sorted(b.stem for b in store.builds(0)) == sorted(stems)
    for i, (stem, public_id) in enumerate(results):
        versions = store.versions(0, stem)
        assert [v.n for v in versions] == list(range(SAVES, 0, -1))
        assert [yaml.safe_load(v.text)["name"] for v in versions] == [f"Client {i} save {n}"
                                                                      for n in range(SAVES, 0, -1)]
        assert yaml.safe_load(store.build(0, stem).text)["name"] == f"Client {i} save {SAVES}"
        p = store.publication(public_id)
        assert p is not None and p.name == f"Client {i} save {SAVES}" and yaml.safe_load(p.text)["characters"]
    assert len(store.browse("boss_fight", limit=1000)) == CLIENTS
