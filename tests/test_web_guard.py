"""The guard in front of every route (generator/web/guard.py): a request sent to a Host the
server was not started for is refused with 400 before any handler runs, and a change from
another site with 403, on every route that writes, enumerated from the app so a new route is
covered without touching this file. DNS rebinding is the attack: the attacker's page, its
name resolved to this computer, sends a matching Origin."""

from __future__ import annotations

import http.client
import json
import re

import pytest

pytest.importorskip("fastapi")

from generator.web.guard import Hosts  # noqa: E402
from web_support import app_routes, make_client, start_serve, stop_serve  # noqa: E402

SAVED = "pack: boss_fight\nname: Keep Me\nside: boss\ncharacters: []\n"
PARAMS = {"pack_id": "boss_fight", "stem": "keep-me", "part": "cards", "code": "PNP1-x", "card_id": "titan-arm",
          "map_id": "x", "slug": "glossary", "kind": "x", "n": "1", "public_id": "x", "icon": "x"}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    builds = tmp_path_factory.mktemp("builds")
    client, site = make_client(builds, tmp_path_factory.mktemp("cache"))
    return client, builds


def routes(app, writing: bool):
    out = []
    for route in app_routes(app):
        for method in sorted(route.methods or ()):
            if (method not in ("GET", "HEAD")) == writing and method != "HEAD":
                path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: PARAMS[m.group(1)], route.path)
                out.append((method, path))
    return out


def test_the_app_has_the_writing_routes_the_issue_names(env):
    paths = {p for _, p in routes(env[0].app, writing=True)}
    for expected in ("/p/boss_fight/builds/save", "/p/boss_fight/builds/keep-me/delete",
                     "/p/boss_fight/builds/keep-me/duplicate", "/p/boss_fight/edit/apply", "/api/boss_fight/validate",
                     "/api/boss_fight/share", "/api/boss_fight/decklist", "/p/boss_fight/print/roster.pdf"):
        assert expected in paths


FORGED = [("attacker.example:8765", "http://attacker.example:8765"),  # DNS rebinding: both match
          ("attacker.example:8765", None),
          ("localhost.attacker.example", "http://localhost.attacker.example"),
          ("127.0.0.1.nip.io:8765", "http://127.0.0.1.nip.io:8765"),
          ("", None)]


def _state(builds):
    return sorted((p.name, p.read_bytes()) for p in builds.iterdir())


@pytest.mark.parametrize("host,origin", FORGED)
def test_a_forged_host_is_refused_on_every_writing_route(env, host, origin):
    client, builds = env
    (builds / "keep-me.yaml").write_text(SAVED)
    before = _state(builds)
    writing = routes(client.app, writing=True)
    assert len(writing) >= 10
    for method, path in writing:
        headers = {"host": host, "content-type": "application/json"}
        if origin:
            headers["origin"] = origin
        r = client.request(method, path, headers=headers, content=json.dumps({"stem": "keep-me", "build": {}}))
        assert r.status_code == 400, (method, path, r.status_code, r.text[:300])
        assert r.json()["errors"][0]["code"] == "request.host"
    assert _state(builds) == before  # nothing saved, renamed, duplicated or deleted


@pytest.mark.parametrize("host", ["attacker.example:8765", "evil.example"])
def test_a_forged_host_cannot_read_either(env, host):
    client, builds = env
    (builds / "keep-me.yaml").write_text(SAVED)
    for method, path in routes(client.app, writing=False):
        r = client.request(method, path, headers={"host": host})
        assert r.status_code == 400, (path, r.status_code)
        assert "Keep Me" not in r.text


@pytest.mark.parametrize("origin", ["http://attacker.example", "http://localhost.attacker.example", "http://localhost:9999", "null"])
def test_a_change_from_another_origin_is_refused_on_every_writing_route(env, origin):
    client, builds = env
    (builds / "keep-me.yaml").write_text(SAVED)
    before = _state(builds)
    for method, path in routes(client.app, writing=True):
        r = client.request(method, path, headers={"origin": origin, "content-type": "application/json"},
                           content="{}")
        assert r.status_code == 403, (method, path, r.status_code)
        assert r.json()["errors"][0]["code"] == "request.origin"
    assert _state(builds) == before


def test_the_own_host_and_origin_still_work(env):
    client, builds = env
    (builds / "keep-me.yaml").write_text(SAVED)
    r = client.post("/p/boss_fight/builds/keep-me/duplicate", headers={"origin": "http://localhost"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert (builds / "keep-me-copy.yaml").exists()
    r = client.post("/p/boss_fight/builds/keep-me-copy/delete", headers={"host": "127.0.0.1:8000",
                                                                        "origin": "http://127.0.0.1:8000"},
                    follow_redirects=False)
    assert r.status_code == 303 and not (builds / "keep-me-copy.yaml").exists()


def test_a_person_opening_a_page_at_a_foreign_host_reads_why(env):
    r = env[0].get("/", headers={"host": "mypc.local:8000", "accept": "text/html,application/xhtml+xml,*/*"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/plain")
    assert "does not answer to the host `mypc.local:8000`" in r.text and "--allowed-host" in r.text


def test_hosts_of_a_server_on_loopback():
    hosts = Hosts.for_server("127.0.0.1", 8765)
    for good in ("localhost:8765", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST:8765"):
        assert hosts.allows(good), good
    for bad in ("localhost:9999", "localhost", "attacker.example:8765", "192.168.1.5:8765", "localhost.:8765",
                "[::1]", "127.0.0.1:8765.evil", ""):
        assert not hosts.allows(bad), bad


def test_hosts_of_a_server_on_every_address_and_extra_names():
    hosts = Hosts.for_server("0.0.0.0", 8000, ["builder.example.org", "proxy.example:443"])
    for good in ("192.168.1.5:8000", "[fe80::1]:8000", "localhost:8000", "builder.example.org",
                 "builder.example.org:8080", "proxy.example:443"):
        assert hosts.allows(good), good
    for bad in ("evil.example:8000", "192.168.1.5:9000", "proxy.example", "proxy.example:8000", "1.2.3.4.evil:8000"):
        assert not hosts.allows(bad), bad
    assert Hosts.for_server("192.168.1.5", 8000).allows("192.168.1.5:8000")
    assert not Hosts.for_server("192.168.1.5", 8000).allows("10.0.0.1:8000")  # a named address is only that
    assert Hosts.for_server("::1", 8000).allows("[::1]:8000")


def _get(port: int, host: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", "/api/packs", skip_host=True)
    conn.putheader("Host", host)
    conn.endheaders()
    status = conn.getresponse().status
    conn.close()
    return status


def test_pnp_serve_with_workers_answers_its_hosts_only(tmp_path):
    proc, port, _ = start_serve("card_data/tactics", "--port", "0", "--workers", "2", "--allowed-host", "pnp.test",
                                "--builds", str(tmp_path / "b"), "--cache", str(tmp_path / "c"))
    try:
        for _ in range(4):  # new connections, either worker
            assert _get(port, f"localhost:{port}") == 200
            assert _get(port, "pnp.test") == 200
            assert _get(port, f"attacker.example:{port}") == 400
            assert _get(port, f"localhost:{port + 1}") == 400
    finally:
        stop_serve(proc)


def test_a_bad_allowed_host_is_a_usage_error():
    from click.testing import CliRunner

    from generator.cli import main
    result = CliRunner().invoke(main, ["serve", "card_data/tactics", "--allowed-host", "a,b"])
    assert result.exit_code == 2 and "not a host name" in result.output
