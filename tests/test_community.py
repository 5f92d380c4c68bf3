"""The community site (generator.community) against SQLite and a real PostgreSQL: migrations
from empty, every saved version kept and restorable, the builds folder in and out, accounts
and what they keep apart, CSRF, sessions the server made, the sign-in limit, escaping, publishing,
browsing and the card statistics."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.cli import main as cli
from generator.community.accounts import SESSION_COOKIE
from generator.community.app import community_app
from generator.community.store import HEAD_REVISION, MIGRATIONS, Store
from generator.community.transfer import export_builds, import_builds
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"


def _site(tmp_path):
    return Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache")


def _app(tmp_path, db_url, accounts):
    return community_app(_site(tmp_path), db_url, accounts)


def _client(app) -> TestClient:
    return TestClient(app, base_url="http://localhost")


@pytest.fixture(scope="module")
def preset():
    return copy.deepcopy(preset_docs(load_pack(Path(PACK)))["boss-ashen-behemoth"][0])


def _token(client, path="/account/signin") -> str:
    page = client.get(path).text
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def _signup(client, name):
    r = client.post("/account/signup", data={"name": name, "password": PASSWORD, "csrf_token": _token(client)},
                    follow_redirects=False)
    assert r.status_code == 303, r.text[:300]


def _save(client, doc, stem=None, token=None):
    headers = {"x-csrf-token": token} if token else {}
    return client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": stem}, headers=headers)


# ---- storage ------------------------------------------------------------------------------------


def test_migrations_run_up_from_empty_and_again(db_url):
    store = Store(db_url)
    assert inspect(store.engine).get_table_names() == []
    store.migrate()
    store.migrate()  # a second start changes nothing
    tables = set(inspect(store.engine).get_table_names())
    assert {"builds", "versions", "users", "publications", "published_cards", "signin_limits", "sessions",
            "settings", "generations", "alembic_version", "publication_versions", "likes", "comments"} <= tables
    with store.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == HEAD_REVISION == "0005"
    assert store.generation() == 0
    store.engine.dispose()


def test_head_revision_is_alembics_head():
    """HEAD_REVISION lets a database already up to date start without importing alembic; a new
    migration that does not update it fails here (and would otherwise never run)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_heads() == [HEAD_REVISION]


def test_a_database_up_to_date_starts_without_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    Store(url).migrate()
    code = ("import sys; from generator.community.store import Store; s = Store(sys.argv[1]); "
            "print(s.revision(), 'alembic' in sys.modules); s.migrate(); print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, check=True).stdout
    assert out.split() == [HEAD_REVISION, "False", "False"]
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    out = subprocess.run([sys.executable, "-c", code, empty], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "False", "True"]  # an empty one is migrated, with alembic


def test_every_saved_version_is_kept_and_restorable(tmp_path, db_url, preset):
    c = _client(_app(tmp_path, db_url, accounts=False))
    stem = _save(c, preset).json()["stem"]
    names = []
    for i in range(2, 4):
        doc = dict(preset, name=f"Version {i}")
        names.append(doc["name"])
        assert _save(c, doc, stem).status_code == 200
    history = c.get(f"/p/boss_fight/builds/{stem}/history").text
    assert [int(n) for n in re.findall(r"<strong>Version (\d+)</strong>", history)] == [3, 2, 1]
    assert "History and publish" in c.get("/p/boss_fight/builds").text
    first = c.get(f"/p/boss_fight/builds/{stem}/versions/1.yaml").text
    assert yaml.safe_load(first)["name"] == "The Ashen Behemoth"
    r = c.post(f"/p/boss_fight/builds/{stem}/restore/1", follow_redirects=False)
    assert r.status_code == 303
    assert c.get(f"/p/boss_fight/builds/{stem}.yaml").text == first
    history = c.get(f"/p/boss_fight/builds/{stem}/history").text
    assert re.findall(r"<strong>Version (\d+)</strong>", history)[0] == "4"
    assert c.get(f"/p/boss_fight/builds/{stem}/versions/9.yaml").status_code == 404


def test_builds_folder_in_and_out_validates(tmp_path, db_url, preset):
    from generator.web.state import to_yaml
    src = tmp_path / "src"
    src.mkdir()
    (src / "behemoth.yaml").write_text(to_yaml(preset), encoding="utf-8")
    store = Store(db_url)
    store.migrate()
    assert import_builds(store, src) == ["behemoth"]
    assert import_builds(store, src) == ["behemoth"]  # the same text again: no new version
    assert len(store.versions(0, "behemoth")) == 1
    out = tmp_path / "out"
    written = export_builds(store, out)
    assert [p.name for p in written] == ["behemoth.yaml"]
    result = CliRunner().invoke(cli, ["validate", str(out / "behemoth.yaml"), "--pack", PACK])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["builds", "export", str(tmp_path / "cli-out"), "--db", db_url])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cli-out" / "behemoth.yaml").read_text() == to_yaml(preset)
    store.engine.dispose()


def test_the_site_commands_on_a_database_that_is_not_there(tmp_path, monkeypatch):
    """A mistyped --db (or a --builds folder beside no database) is said, not opened as a new
    empty database that exports '0 build files' or lists no account."""
    monkeypatch.chdir(tmp_path)
    for command in (["builds", "export", "out"], ["accounts", "list"], ["accounts", "signout", "ada"]):
        for args in (["--db", f"sqlite:///{tmp_path / 'typo.sqlite3'}"], ["--builds", "builds"]):
            result = CliRunner().invoke(cli, [*command, *args])
            assert result.exit_code == 2 and "site.no-database" in result.output, result.output
    assert list(tmp_path.iterdir()) == []


# ---- accounts and security ----------------------------------------------------------------------


def test_a_player_cannot_reach_another_players_builds(tmp_path, db_url, preset):
    app = _app(tmp_path, db_url, accounts=True)
    alice, bob = _client(app), _client(app)
    _signup(alice, "alice")
    _signup(bob, "bob")
    secret_doc = dict(preset, name="Alice secret plan")
    r = _save(alice, secret_doc, token=_token(alice, "/p/boss_fight/builds"))
    assert r.status_code == 200, r.text
    stem = r.json()["stem"]
    assert "Alice secret plan" in alice.get("/p/boss_fight/builds").text
    tok = _token(bob, "/p/boss_fight/builds")
    assert "Alice secret plan" not in bob.get("/p/boss_fight/builds").text
    for path in (f"/p/boss_fight/builds/{stem}.yaml", f"/p/boss_fight/edit?file={stem}",
                 f"/p/boss_fight/builds/{stem}/history", f"/p/boss_fight/builds/{stem}/versions/1.yaml"):
        r = bob.get(path)
        assert r.status_code == 404 and "Alice secret plan" not in r.text, path
    r = bob.post(f"/p/boss_fight/builds/{stem}/delete", headers={"x-csrf-token": tok}, follow_redirects=False)
    assert r.status_code == 404
    r = bob.post(f"/p/boss_fight/builds/{stem}/publish", headers={"x-csrf-token": tok}, follow_redirects=False)
    assert r.status_code == 404
    # saving under the same name makes bob's own build; alice's is untouched
    assert _save(bob, dict(preset, name="Bob's"), stem, tok).status_code == 200
    assert yaml.safe_load(alice.get(f"/p/boss_fight/builds/{stem}.yaml").text)["name"] == "Alice secret plan"
    # nobody signed in: nothing to read, nothing saved
    anon = _client(app)
    assert anon.get(f"/p/boss_fight/builds/{stem}.yaml").status_code == 401
    assert _save(anon, preset, token=_token(anon)).status_code == 401


def test_csrf_is_refused_without_the_right_token(tmp_path, db_url, preset):
    app = _app(tmp_path, db_url, accounts=True)
    alice, mallory = _client(app), _client(app)
    _signup(alice, "alice")
    assert _save(alice, preset).status_code == 403  # no token
    assert _save(alice, preset, token="0" * 64).status_code == 403
    assert _save(alice, preset, token=_token(mallory)).status_code == 403  # another browser's token
    r = alice.post("/account/signout", follow_redirects=False)  # a form without its field
    assert r.status_code == 403 and r.json()["errors"][0]["code"] == "request.csrf"
    assert _save(alice, preset, token=_token(alice)).status_code == 200
    page = alice.get("/p/boss_fight/builds").text
    forms = re.findall(r'<form\b[^>]*method="post"[^>]*>(.{0,200})', page)
    assert forms and all('name="csrf_token"' in f for f in forms)


def test_a_session_the_server_did_not_make_is_nobody(tmp_path, db_url, preset):
    app = _app(tmp_path, db_url, accounts=True)
    alice = _client(app)
    _signup(alice, "alice")
    assert "alice" in alice.get("/").text
    for cookie in ("A" * 43, "not-a-token", alice.cookies.get(SESSION_COOKIE)[:-1] + "x"):
        forged = _client(app)
        forged.cookies.set(SESSION_COOKIE, cookie)
        page = forged.get("/p/boss_fight/builds").text
        assert "Sign in" in page and "alice" not in page
        assert _save(forged, preset, token=_token(forged)).status_code == 401
    genuine = _client(app)
    genuine.cookies.set(SESSION_COOKIE, alice.cookies.get(SESSION_COOKIE))  # a copy of the real cookie
    assert "alice" in genuine.get("/").text


def test_changing_the_password_ends_other_sessions(tmp_path, db_url):
    app = _app(tmp_path, db_url, accounts=True)
    one, two = _client(app), _client(app)
    _signup(one, "alice")
    two.post("/account/signin", data={"name": "alice", "password": PASSWORD, "csrf_token": _token(two)})
    assert "alice" in two.get("/").text
    r = one.post("/account/password", data={"old": PASSWORD, "new": "a much better one", "csrf_token": _token(one)},
                 follow_redirects=False)
    assert r.status_code == 303
    assert "alice" in one.get("/").text and "alice" not in two.get("/").text
    r = two.post("/account/password", data={"old": "wrong", "new": "whatever12345", "csrf_token": _token(two)})
    assert r.status_code == 401


def test_sign_in_is_rate_limited(tmp_path, db_url):
    app = _app(tmp_path, db_url, accounts=True)
    c = _client(app)
    _signup(c, "alice")
    other = _client(app)
    for _ in range(5):
        r = other.post("/account/signin", data={"name": "alice", "password": "wrong guess 1",
                                                "csrf_token": _token(other)})
        assert r.status_code == 401 and "do not match" in r.text
    r = other.post("/account/signin", data={"name": "alice", "password": PASSWORD, "csrf_token": _token(other)})
    assert r.status_code == 429 and "too many failed sign-ins" in r.text and 0 < int(r.headers["retry-after"]) <= 600
    assert SESSION_COOKIE not in r.cookies


def test_nothing_a_player_writes_is_reflected_unescaped(tmp_path, db_url, preset):
    app = _app(tmp_path, db_url, accounts=True)
    c = _client(app)
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    r = c.post("/account/signup", data={"name": evil, "password": PASSWORD, "csrf_token": _token(c)})
    assert r.status_code == 422 and "<script>alert(1)" not in r.text
    _signup(c, "alice")
    tok = _token(c)
    stem = _save(c, dict(preset, name=evil), token=tok).json()["stem"]
    for page in (c.get("/p/boss_fight/builds").text, c.get(f"/p/boss_fight/builds/{stem}/history").text):
        assert "<script>alert(1)" not in page and "<img src=x" not in page
    r = c.post(f"/p/boss_fight/builds/{stem}/publish", data={"points_limit": "", "csrf_token": tok},
               follow_redirects=False)
    assert r.status_code == 303, r.text[:500]
    for page in (c.get(r.headers["location"]).text, c.get("/p/boss_fight/published").text):
        assert "&lt;script&gt;alert(1)" in page and "<script>alert(1)" not in page


def test_bound_beyond_localhost_it_needs_accounts_or_open_access(tmp_path):
    result = CliRunner().invoke(cli, ["serve", PACK, "--host", "0.0.0.0", "--port", "0", "--builds",
                                      str(tmp_path / "b")])
    assert result.exit_code == 2
    assert "--accounts" in result.output and "--open-access" in result.output
    assert "Traceback" not in result.output


def test_serve_imports_a_builds_folder_before_it_starts(tmp_path, monkeypatch, preset):
    from generator.web import listen
    from generator.web.state import to_yaml
    served = []
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: served.append(app))
    src = tmp_path / "src"
    src.mkdir()
    (src / "behemoth.yaml").write_text(to_yaml(preset), encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    result = CliRunner().invoke(cli, ["serve", PACK, "--port", "0", "--db", url, "--builds", str(tmp_path / "b"),
                                      "--import-builds", str(src)])
    assert result.exit_code == 0, result.output
    assert "imported 1 build from" in result.output and len(served) == 1
    store = Store(url)
    assert store.build(0, "behemoth").text == to_yaml(preset)
    bad = CliRunner().invoke(cli, ["serve", PACK, "--port", "0", "--db", "postgresql://nobody@127.0.0.1:1/none",
                                   "--builds", str(tmp_path / "b")])
    assert bad.exit_code == 2 and "cannot open the database" in bad.output and "Traceback" not in bad.output
    store.engine.dispose()
